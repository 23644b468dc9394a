"""The Distance `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the unseen cards, by the
search driver (analyzer/games/search: driver.lookahead) on The Distance's contract (search_ops.py).

- the decision (docs/distance.md, "lookahead"): the candidate plays are search_ops.decisions (greedy's
  first), each tried on `samples` redeals of the cards the seat cannot see (search_ops.redeal) and played
  on with greedy for every seat for `horizon` turns (0: to the end); outcome search_ops.score. Greedy's
  play stands unless another beats it by more than EDGE.
- its own kernel entry: `play_games_look` (through `play_chunk_look` and `play_game_look`) / `run_look` play the
  game like engine.play_games / run, but a seat whose policy is P_LOOKAHEAD decides by the search. kernels.py
  calls them only when some seat plays lookahead (`uses_lookahead`), so the default kernels never compile this
  module or the driver: their compile time and speed are unchanged, and this kernel compiles (lazily, cached) on
  first use.
- no allocation in the decision loop: the search's scratch (two positions, the candidates and their sums,
  search_ops' `look`) is allocated once per chunk (play_chunk_look) or per traced game; run_look keeps
  `_nrt=False` as engine.run does.
- reproducible: the search draws only from the seat's own stream (1 + seat), the playouts from a private
  random state keyed from that stream, so a game depends only on (seed, game index), whatever the threads
  and chunks.
"""
import numpy as np
from numba import njit

from analyzer.games.distance.engine import (
    END_NONE, N_STREAMS_EXTRA, NO_TRACE, R_CHOICES, _setup, after_turn, begin, end_game)
from analyzer.games.distance import choices, search_ops
from analyzer.games.distance.events import EV_TURN
from analyzer.games.distance.policies import P_LOOKAHEAD, P_SEARCH
from analyzer.games.distance.search_ops import (
    DECISION_WIDTH, MAXCAND, WIN_SCORE, act_out_of_line, new_look, play_turns_out_of_line)
from analyzer.games.distance.state import (
    C_COUNT, C_TURN_CAP, N_PAR, O_HN, O_PAR, O_POL, PAR_BUDGET, PAR_C_MILLI, PAR_HORIZON, PAR_ROLLOUT, PAR_SAMPLES, S_DRY, S_END, S_N, S_NEED, S_TO_MOVE,
    S_TURNS, ST_SIZE, emit)
from analyzer.games.layout import col
from analyzer.games.search import specialise
from analyzer.games.search.tree import new_tree
from analyzer.jit_deferred import optimise_once
from analyzer.rng import new_streams, reset_streams
from analyzer.threads import run_in_blocks

SEARCH = specialise(search_ops, "distance")
search_lookahead = SEARCH.lookahead  # (module-level names: numba reads jitted callees from globals)
search_tree = SEARCH.ismcts

# greedy's play (decision 0) stands unless another beats it by more than one playout turned from a loss into
# a win: with a few samples, smaller differences are mostly noise
EDGE = 2 * WIN_SCORE


def uses_lookahead(config):
    """True if some seat of this encoded configuration plays lookahead or search (then this kernel runs)."""
    return any(int(config[O_POL + s]) in (P_LOOKAHEAD, P_SEARCH) for s in range(int(config[S_N])))


@njit(cache=True)
def searches(st, seat):
    """Whether the seat decides by a search (lookahead or search) rather than by choose_play."""
    return st[O_POL + seat] == P_LOOKAHEAD or st[O_POL + seat] == P_SEARCH


# _nrt=False as engine.run: the loop allocates nothing (the scratch comes from the caller).
@njit(cache=True, _nrt=False)
def run_look(st, rates, rng, out, tr, on, sample, work, cand, sums, look, tree):
    """engine.run with lookahead seats deciding by the search: engine.play_turns plays the other seats' turns
    and hands over at a lookahead seat's turn (tests/test_distance_lookahead.py checks an all-greedy game gives
    engine.run's row)."""
    begin(st, rng, out, tr, on)  # the deal, interval and start card, as engine.run
    n = st[S_N]
    cap = st[C_TURN_CAP]
    seat, turn, dry, end = np.int64(0), np.int64(0), np.int64(0), END_NONE
    while True:
        # seats play in turn: the other seats' turns up to the next lookahead seat's are play_turns'
        # (none at all: to the end, as engine.run; tests play such games through here)
        before_look = 0
        while before_look < n and not searches(st, (seat + before_look) % n):
            before_look += 1
        stop = cap if before_look == n else min(cap, turn + before_look)
        seat, turn, dry, end = play_turns_out_of_line(st, seat, turn, dry, stop, rates, rng, out, tr, on)
        if end != END_NONE or turn >= cap:
            break
        # a lookahead seat's turn: only its decision differs from play_turns'
        need = st[S_NEED]
        emit(st, tr, on, EV_TURN, turn + 1, seat, need, st[O_HN + seat])
        st[S_TO_MOVE] = seat  # the search's root: the game at this decision point
        st[S_TURNS] = turn
        st[S_DRY] = dry
        st[S_END] = END_NONE
        par = O_PAR + seat * N_PAR
        if st[O_POL + seat] == P_SEARCH:
            best = search_tree(st, st[par + PAR_BUDGET], st[par + PAR_C_MILLI] / 1000.0, st[par + PAR_ROLLOUT],
                               st[par + PAR_HORIZON], rng, cand, tree, sample, work, look)
        else:
            best = search_lookahead(st, st[par + PAR_SAMPLES], st[par + PAR_HORIZON], np.int64(EDGE), rng, cand, sums,
                                    sample, work, look)
        if st[C_COUNT]:  # (analyzer profile) the decision taken, as play_turns counts its seats'
            choices.count_turn(st, seat, need, cand[best, 0], cand[best, 1], cand[best, 2], out, col(R_CHOICES, n))
        turn += 1
        acted = act_out_of_line(st, seat, need, turn, cand[best, 0], cand[best, 1], cand[best, 2], cand[best, 3],
                                rates, rng, out, tr, on)
        seat, dry, end = after_turn(st, seat, dry, acted)
        if end != END_NONE:
            break
    return end_game(st, out, tr, on, seat, turn, end)


@njit(cache=True)
def _scratch(config, width):
    """The search's scratch, allocated once per chunk or traced game: sample, work, cand, sums, look, and the
    tree search's tree (for the largest budget of a search seat; one node when none)."""
    budget = 0
    for s in range(config[S_N]):
        if config[O_POL + s] == P_SEARCH:
            budget = max(budget, config[O_PAR + s * N_PAR + PAR_BUDGET])
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(ST_SIZE, dtype=np.int64),
            np.zeros((MAXCAND, DECISION_WIDTH), dtype=np.int64), np.zeros(MAXCAND, dtype=np.int64),
            new_look(config[S_N] + N_STREAMS_EXTRA, width), new_tree(budget, DECISION_WIDTH, MAXCAND))


@njit(cache=True, nogil=True)
def play_games_look(seed, first_game, lo, hi, config, rates, out, tr, on):
    """engine.play_games for a configuration with lookahead seats: games first_game + lo .. + hi - 1 into out[lo:hi],
    events to `tr` if `on` (0/1: play_game_look's one game). One kernel for the batch and the trace, as the other
    games' lookahead: a jitted play_game_look of its own made LLVM optimise and generate run_look's code a second time
    (a cold distance-first-player-by-skill took 1.1-1.6 s more CPU, docs/performance.md). Returns (the events the last
    game wrote, the tree search's counters: tree.COUNT_*, `analyzer bench`)."""
    rng = new_streams(seed, first_game + lo, config[S_N] + N_STREAMS_EXTRA)
    st = config.copy()
    sample, work, cand, sums, look, tree = _scratch(config, out.shape[1])
    ne = np.int64(0)
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        _setup(st, rng, np.int64(1))  # the pool of unseen cards is built from the hands' ids
        ne = run_look(st, rates, rng, out[i], tr, on, sample, work, cand, sums, look, tree)
    return ne, tree[-1]


optimise_once(play_games_look)  # (one round of LLVM's pipeline: as fast as two, measured)


def play_game_look(seed, game, config, rates, out, trace, trace_on):
    """engine.play_game for a configuration with lookahead seats (the trace uses it)."""
    return int(play_games_look(np.uint64(seed), np.int64(game), np.int64(0), np.int64(1), config, rates, out[None],
                               trace, np.int64(trace_on))[0])  # (out[None]: a view, filled in place)


def play_chunk_look(seed, first_game, lo, hi, config, rates, out):
    """engine.play_chunk for a configuration with lookahead seats: games first_game + lo .. + hi - 1. Returns the
    tree search's counters (tree.COUNT_*: `analyzer bench`)."""
    return play_games_look(seed, first_game, lo, hi, config, rates, out, NO_TRACE, np.int64(0))[1]


LOOK_CHUNK = 4  # games per chunk: a lookahead game costs hundreds of greedy playouts


def batch_look(seed, first_game, config, rates, out):
    """engine.batch with the lookahead kernel (blocks of LOOK_CHUNK games on the thread pool)."""
    run_in_blocks(play_chunk_look, out.shape[0], LOOK_CHUNK, (seed, first_game), (config, rates, out))
