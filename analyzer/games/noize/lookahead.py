"""The Bring the Noize `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the unseen cards, by the
search driver (analyzer/games/search: driver.lookahead) on Bring the Noize's contract (search_ops.py).

- the decision (docs/noize.md, "lookahead"), each time the rules give the seat one (opening the bidding, or
  raise-or-challenge): the candidate moves are search_ops.decisions (threshold's first), each tried on
  `samples` redeals of the cards the seat cannot see (search_ops.redeal) and played on with threshold at its
  default parameters for every seat for `horizon` rounds counting this one (0: to the end of the game);
  outcome search_ops.score. The best sum is played (no edge: ties keep threshold's move).
- why horizon 1 by default (only the round being bid): measured against three threshold players (4 players,
  seats rotated, samples 8), it won a 34% share with horizon 1, 31% with 2 and 29% to the end of the game
  (with samples 16): the later rounds add far more noise than information.
- its own kernel entry: `play_chunk_look` / `play_game_look` play the game as engine.run does (engine's
  begin_game, round pieces and end_game), except that the bidding (engine._bidding, given a hand-over) stops
  before a lookahead seat's move, which the search decides. kernels.py uses this entry only when a seat plays
  lookahead (`uses_lookahead`), so the default kernels never compile this module or the driver.
- no allocation in the decision loop: the search's scratch (search_ops' positions and `look`, the candidates
  and their sums) is allocated once per chunk or traced game.
- reproducible: a decision draws only from the seat's own stream (1 + seat), the playouts from a private
  random state keyed from that stream, so a game depends only on (seed, game index).
"""
import numpy as np
from numba import njit

from analyzer.games.layout import col
from analyzer.games.noize import drama_lanes, search_ops
from analyzer.games.noize.engine import (
    N_PARAMS, N_RULES, N_TYPES, NO_TRACE, P_AVOID, P_LOOKAHEAD, P_SEARCH, P_THRESHOLD, R_BLUFF, R_CHOICES, R_COUNT,
    R_FINISH, R_PLAYERS, R_SHUFFLE, R_START, THRESHOLD_DEFAULTS, _bidding, _deal, _open_round, _settle, begin_game,
    count_choices, end_game, geometry_of, raise_bid)
from analyzer.games.noize.engine import _scratch as _game_scratch
from analyzer.games.noize.events import BID_LOOKAHEAD, BID_SEARCH
from analyzer.games.noize.search_ops import (
    AT_BIDDER, AT_BIDS, AT_CUR, AT_DEAL_POS, AT_DEALT, AT_IN_PLAY, AT_IN_PLAY_CARDS, AT_MOVER, AT_OVER, AT_POS,
    AT_ROUNDS, AT_SIZE, AT_STARTER, DECISION_WIDTH, MAXCAND, REDEAL_TRIES, Look, Position)
from analyzer.games.search import specialise
from analyzer.games.search.tree import new_tree
from analyzer.rng import reset_streams
from analyzer.threads import run_in_blocks

LA_SAMPLES, LA_HORIZON = 0, 1  # a lookahead seat's parameter columns
SR_BUDGET, SR_C, SR_ROLLOUT, SR_HORIZON = 0, 1, 2, 3  # a search seat's (SR_ROLLOUT: tree.ROLLOUTS' index)

SEARCH = specialise(search_ops, "noize")
search_lookahead = SEARCH.lookahead  # (module-level names: numba reads jitted callees from globals)
search_tree = SEARCH.ismcts


def uses_lookahead(pol):
    """True if some seat of this encoded configuration plays lookahead or search (then this kernel runs)."""
    return bool(((pol == P_LOOKAHEAD) | (pol == P_SEARCH)).any())


@njit(cache=True)
def choose(seat, root, rng, pol, par, search):
    """The lookahead or search seat's move at the root position (its decision point written): (key,
    BID_LOOKAHEAD or BID_SEARCH), key -1 to challenge. search: the scratch (sample, work, cand, sums, look,
    tree)."""
    sample, work, cand, sums, look, tree = search
    if pol[seat] == P_SEARCH:
        look.redeal_tries[0] = REDEAL_TRIES  # (look is shared by the lookahead and search seats of a game)
        best = search_tree(root, np.int64(par[seat, SR_BUDGET]), par[seat, SR_C], np.int64(par[seat, SR_ROLLOUT]),
                           np.int64(par[seat, SR_HORIZON]), rng, cand, tree, sample, work, look)
        return cand[best, 0], BID_SEARCH
    look.redeal_tries[0] = 1
    best = search_lookahead(root, np.int64(par[seat, LA_SAMPLES]), np.int64(par[seat, LA_HORIZON]), np.int64(0), rng,
                            cand, sums, sample, work, look)
    return cand[best, 0], BID_LOOKAHEAD


@njit(cache=True, inline="always")
def _decision_point(at, starter, deal_pos, pos, rounds, cur, bidder, mover, bids, in_play, in_play_cards):
    """The real game's decision point written into the search's root (engine._game keeps it in locals)."""
    at[AT_STARTER] = starter
    at[AT_DEAL_POS] = deal_pos
    at[AT_POS] = pos
    at[AT_ROUNDS] = rounds
    at[AT_CUR] = cur
    at[AT_BIDDER] = bidder
    at[AT_MOVER] = mover
    at[AT_BIDS] = bids
    at[AT_IN_PLAY] = in_play
    at[AT_IN_PLAY_CARDS] = in_play_cards
    at[AT_DEALT] = 1
    at[AT_OVER] = 0


@njit(cache=True, inline="always")  # one caller: run_look
def _game_look(rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, rng, stack, prefix, hand, cnt,
               row_at, moves, out, trace, trace_on, root_at, search):
    """engine._game with lookahead or search seats (never the plain bidding: a lookahead seat needs every hand counted)."""
    n = rules[R_PLAYERS]
    finish = rules[R_FINISH]
    start = rules[R_START]
    D = deck.shape[0]
    geometry = geometry_of(rules, D, width)
    count_at = col(R_CHOICES, n) if rules[R_COUNT] != 0 else -1
    ne = begin_game(rules, deck, rng, stack, prefix, hand, moves, out, trace, trace_on)
    standings = drama_lanes.deal(n, start)
    power = 0
    root = Position(stack, prefix, hand, cnt, row_at, seat_rows, root_at)  # the search's view of this game
    pos = 0
    dealer = n - 1
    rounds = 0
    while True:
        starter, pos, ne = _open_round(rules, n, D, rng, stack, prefix, pos, dealer, rounds, trace, ne, trace_on)
        deal_pos = pos
        in_play, in_play_cards, pos, power, ne = _deal(geometry, pos, starter, rounds, True, stack, prefix, hand, cnt,
                                                       seat_rows, first_hand, moves_flat, row_at, power, trace, ne,
                                                       trace_on)
        cur, bidder, seat, bids = -1, -1, starter, 0
        while True:  # the bidding, the lookahead and search seats' moves decided by the search
            cur, bidder, seat, bids, ne, waiting = _bidding(
                n, cur, bidder, seat, bids, pol, par, seat_rows, moves_flat, width, row_at, cnt, hand, start, in_play,
                table, rng, moves, out, col(R_BLUFF, n), trace, ne, trace_on, True, count_at)
            if not waiting:
                break
            _decision_point(root.at, starter, deal_pos, pos, rounds, cur, bidder, seat, bids, in_play, in_play_cards)
            key, kind = choose(seat, root, rng, pol, par, search)
            if count_at >= 0:
                count_choices(seat, cur, key, cnt, hand, start, in_play, table, out, count_at)
            if key < 0:
                break
            cur, bidder, seat, bids, ne = raise_bid(n, seat, key, kind, bids, out, col(R_BLUFF, n), trace, ne,
                                                    trace_on)
        over, loser, rounds, ne = _settle(n, cur, bidder, seat, bids, in_play_cards, starter, rounds, finish, hand, cnt,
                                          out, trace, ne, trace_on)
        standings = drama_lanes.lost(standings, loser, rounds)
        if over:
            break
        dealer = starter
    return end_game(n, finish, hand, rounds, loser, standings, power, out, trace, ne, trace_on)


# _nrt=False as engine.run: the loop allocates nothing (the scratch comes from the caller). nogil and called from
# Python (play_chunk_look, play_game_look), as engine.run: one kernel whose code LLVM optimises and generates once.
@njit(cache=True, _nrt=False, nogil=True)
def run_look(seed, first_game, lo, hi, rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, rng,
             stack, prefix, hand, cnt, row_at, moves, out, trace, trace_on, root_at, search):
    """engine.run with lookahead seats: games first_game + lo .. first_game + hi - 1 into out[lo:hi]."""
    ne = 0
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        ne = _game_look(rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, rng, stack, prefix,
                        hand, cnt, row_at, moves, out[i], trace, trace_on, root_at, search)
    return ne


def _scratch(rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, row_width):
    """The search's scratch, allocated once per chunk or traced game: the root's decision point, and (sample,
    work, cand, sums, look, tree) (search_ops' Positions and Look; tree: the tree search's, for the largest
    budget of a search seat, one node when none). The playouts' seats all play threshold with its default
    parameters: from the table block encode built for them (the lookahead and search seats' rows), or, without
    a table, from the probability table. Plain Python (numpy's arrays, engine.geometry_of's and tree.new_tree's
    Python code): the kernel is given the same types as from a jitted allocation, whose compile (1.2-2 s) was on a
    cold skill start's critical path."""
    n = pol.shape[0]
    D = deck.shape[0]
    rows = -1
    budget = 0
    avoid = np.full(n, -1, dtype=np.int64)  # the lookahead and search seats' instrument to avoid (decisions)
    for s in range(n):
        if pol[s] == P_LOOKAHEAD or pol[s] == P_SEARCH:
            rows = seat_rows[s]
            avoid[s] = np.int64(par[s, P_AVOID]) - 1
        if pol[s] == P_SEARCH:
            budget = max(budget, np.int64(par[s, SR_BUDGET]))
    threshold_pol = np.full(n, P_THRESHOLD, dtype=np.int64)
    threshold_par = np.zeros((n, N_PARAMS), dtype=np.float64)
    for s in range(n):
        for k in range(N_PARAMS):
            threshold_par[s, k] = THRESHOLD_DEFAULTS[k]
    playout_rows = np.full(n, rows, dtype=np.int64)
    sample = Position(np.zeros(D, dtype=np.int64), np.zeros(2 * D + 1, dtype=np.int64), np.zeros(n, dtype=np.int64),
                      np.zeros((n, N_TYPES), dtype=np.int64), np.zeros(n, dtype=np.int64), playout_rows,
                      np.zeros(AT_SIZE, dtype=np.int64))
    # without the house rule a playout never changes the deck: work shares sample's (search_ops.copy_position)
    shuffles = rules[R_SHUFFLE] != 0
    work_stack = np.zeros(D, dtype=np.int64) if shuffles else sample.stack
    work_prefix = np.zeros(2 * D + 1, dtype=np.int64) if shuffles else sample.prefix
    work = Position(work_stack, work_prefix, np.zeros(n, dtype=np.int64), np.zeros((n, N_TYPES), dtype=np.int64),
                    np.zeros(n, dtype=np.int64), playout_rows, np.zeros(AT_SIZE, dtype=np.int64))
    look = Look(rules, geometry_of.py_func(rules, D, width), table, moves_flat, first_hand, threshold_par,
                threshold_pol, np.zeros(D, dtype=np.int64), np.zeros(n, dtype=np.int64),
                np.zeros(2 * (1 + n), dtype=np.uint64), np.zeros(row_width, dtype=np.int64),
                np.zeros((1, 1), dtype=np.int64), np.ones(1, dtype=np.int64), avoid)
    search = (sample, work, np.zeros((MAXCAND, DECISION_WIDTH), dtype=np.int64), np.zeros(MAXCAND, dtype=np.int64),
              look, new_tree.py_func(budget, DECISION_WIDTH, MAXCAND))
    return np.zeros(AT_SIZE, dtype=np.int64), search


def play_game_look(seed, game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace, trace_on):
    """engine.play_game for a configuration with lookahead seats (the trace uses it)."""
    return int(_play(seed, game, 0, 1, rules, deck, pol, par, table, actions, seat_rows, first_hand, out[None], trace,
                     trace_on)[0])


def play_chunk_look(seed, first_game, lo, hi, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.play_chunk for a configuration with lookahead seats: games first_game + lo .. + hi - 1. Returns the
    tree search's counters (tree.COUNT_*: `analyzer bench`)."""
    return _play(seed, first_game, lo, hi, rules, deck, pol, par, table, actions, seat_rows, first_hand, out,
                 NO_TRACE, 0)[1][5][-1]


def _play(seed, first_game, lo, hi, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace,
          trace_on):
    """run_look on fresh scratch, its arguments typed as it was compiled for (one signature): (its return, the
    search's scratch)."""
    n = int(rules[R_PLAYERS])
    stack, prefix, hand, cnt, row_at, moves = _game_scratch(deck, n)
    moves_flat = actions.reshape(actions.size)
    width = np.int64(actions.shape[1])
    root_at, search = _scratch(rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand,
                               np.int64(out.shape[1]))
    ne = run_look(np.uint64(seed), np.int64(first_game), np.int64(lo), np.int64(hi), rules, deck, pol, par, table,
                  moves_flat, width, seat_rows, first_hand, np.zeros(2 * (1 + n), dtype=np.uint64), stack, prefix,
                  hand, cnt, row_at, moves, out, trace, np.int64(trace_on), root_at, search)
    return ne, search


def search_tree_signature():
    """The argument types `choose` calls the tree search with, on the scratch _scratch makes (here from one-seat
    arrays of the encoding's types: nothing is compiled or encoded): a cold start's command compiles the tree search
    while its helper compiles run_look (kernels.compile_parts; tests/test_compile_parts.py checks they are the types
    called)."""
    import numba
    from numba import types

    ints = np.zeros(1, dtype=np.int64)
    # _scratch(rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, row_width)
    _, (sample, work, cand, _, look, tree) = _scratch(
        np.zeros(N_RULES, dtype=np.int64), ints, ints, np.zeros((1, N_PARAMS)), np.zeros((1,) * 5),
        np.zeros(1, dtype=np.int8), np.int64(1), ints, np.zeros(1, dtype=np.int32), np.int64(1))
    typeof = numba.typeof
    # search_tree(root, budget, c, rollout, horizon, rng, cand, tree, sample, work, look): root is a Position too
    return (typeof(sample), types.int64, types.float64, types.int64, types.int64, types.uint64[::1], typeof(cand),
            typeof(tree), typeof(sample), typeof(work), typeof(look))


LOOK_CHUNK = 4  # games per block: a lookahead game costs hundreds of threshold playouts


def batch_look(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.batch with the lookahead kernel (blocks of LOOK_CHUNK games on the thread pool)."""
    run_in_blocks(play_chunk_look, out.shape[0], LOOK_CHUNK, (seed, first_game),
                  (rules, deck, pol, par, table, actions, seat_rows, first_hand, out))
