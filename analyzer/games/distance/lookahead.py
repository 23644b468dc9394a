"""The Distance `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the unseen cards.

The pattern (other games follow it):
- a separate kernel entry. `play_chunk_look` / `play_game_look` / `run_look` play the game like
  engine.play_chunk / play_game / run, but a seat whose policy is P_LOOKAHEAD decides by simulation.
  The Python `batch` and the trace call them only when some seat plays lookahead (`uses_lookahead`),
  so the default kernels never compile this module: their compile time and speed are unchanged, and
  this kernel compiles (lazily, cached) on first use.
- no allocation in the decision loop: every scratch array (a state copy, the pool of unseen cards, the
  candidates and their score sums, a random state for the playouts, a dummy result row and trace) is
  allocated once per chunk (play_chunk_look) or per traced game and passed down; run_look keeps
  `_nrt=False` as engine.run does.
- reproducible: the decision draws only from the seat's own stream (1 + seat), the playouts from a
  private random state keyed from that stream, so a game depends only on (seed, game index), whatever
  the threads and chunks.

The decision. Candidates (a small set, not every legal play): the play greedy would make (first, so
ties keep greedy's choice), then for every fitting pitch class it holds: 1 note or all of them, each
with no wild or every wild; wilds alone: 1 or all; when any letter may be played (after a wild start
card), each of those with every letter the cards can be declared as. Duplicates are dropped. With one
candidate it plays it at once. Otherwise, for each of `samples` deals: the unseen cards (the other
hands and the stock; it sees its own hand, the discard pile and the other hands' sizes) are shuffled
on its stream and dealt back (each other hand its size, the rest the stock); every candidate is played
on that same deal (common random numbers) and the game continues with greedy for every seat (declaring
block_next, no human errors) for `horizon` turns (0: to the end, or the turn cap). Outcome of a
playout: +100 if it won, -100 if another seat won, otherwise (the fewest cards another seat holds) minus
(the cards it holds). It takes the candidate with the best mean outcome, but greedy's play stands unless
another beats it by more than one playout turned from a loss into a win (noise, with a few samples).
"""
import numpy as np
from numba import njit

from analyzer.games.distance.engine import (
    END_NONE, END_WON, N_STREAMS_EXTRA, _setup, act, after_turn, begin, end_game, play_turns)
from analyzer.games.distance.events import EV_TURN
from analyzer.games.distance.policies import DECLARE_BLOCK, P_GREEDY, P_LOOKAHEAD, choose_play
from analyzer.games.distance.state import (
    ALL, C_TURN_CAP, MAXC, MAXK, N_PAR, NEED_ANY, O_CNT, O_GAME, O_HAND, O_HN,
    O_NWILD, O_KMASK, O_PAR, O_POL, O_STOCK, PAR_DECLARE, PAR_HORIZON, PAR_SAMPLES, S_N, S_NEED, S_NSTOCK, S_POS, ST_SIZE,
    add_to_hand, emit, fitting_list, kinds_of, n_kinds_of)
from analyzer.rng import DEAL, new_streams, next_u64, reset_streams, shuffle
from analyzer.threads import run_in_blocks

MAXCAND = 128  # candidates of one decision (the set above has at most 12 x 2 x 2 x 2 + 14)
WIN_SCORE = 100  # a playout's outcome: +WIN_SCORE won, -WIN_SCORE another won, else a hand-size margin


def uses_lookahead(config):
    """True if some seat of this encoded configuration plays lookahead (then the lookahead kernel runs)."""
    return any(int(config[O_POL + s]) == P_LOOKAHEAD for s in range(int(config[S_N])))


@njit(cache=True)
def _act(st, seat, need, turn, kind, notes, wilds, letter, rates, rng, out, tr, on):
    """engine.act, compiled once here rather than inlined at each call site below (the compile time)."""
    return act(st, seat, need, turn, kind, notes, wilds, letter, rates, rng, out, tr, on)


@njit(cache=True)
def _turns(st, seat, turn, dry, stop, rates, rng, out, tr, on):
    """engine.play_turns, compiled once here (run_look and the playouts call it)."""
    return play_turns(st, seat, turn, dry, stop, rates, rng, out, tr, on)


@njit(cache=True)
def _add(cand, m, kind, notes, wilds, letter):
    """Append a candidate unless it is already there; returns the new count."""
    for i in range(m):
        if cand[i, 0] == kind and cand[i, 1] == notes and cand[i, 2] == wilds and cand[i, 3] == letter:
            return m
    if m >= cand.shape[0]:
        return m
    cand[m, 0] = kind
    cand[m, 1] = notes
    cand[m, 2] = wilds
    cand[m, 3] = letter
    return m + 1


@njit(cache=True)
def _candidates(st, seat, need, rng, cand):
    """The candidate plays (see the module docstring) into cand; returns how many (0: nothing fits)."""
    # greedy's own play first (ties keep it)
    st[O_POL + seat] = P_GREEDY
    kind, notes, wilds, letter = choose_play(st, seat, need, rng)
    st[O_POL + seat] = P_LOOKAHEAD
    if notes + wilds == 0:
        return 0
    m = _add(cand, 0, kind, notes, wilds, letter)
    base = O_CNT + seat * MAXK
    w_all = st[O_NWILD + seat]
    fitting = fitting_list(need)
    for j in range(n_kinds_of(st, fitting)):
        k = kinds_of(st, fitting, j)
        c = st[base + k]
        if c == 0:
            continue
        mask = st[O_KMASK + k] if need == NEED_ANY else (1 << need)
        for nn in (1, c):
            for ww in (0, w_all):
                for letter in range(7):
                    if (mask >> letter) & 1:
                        m = _add(cand, m, k, nn, ww, letter)
    if w_all > 0:
        mask = ALL if need == NEED_ANY else (1 << need)
        for ww in (1, w_all):
            for letter in range(7):
                if (mask >> letter) & 1:
                    m = _add(cand, m, -1, 0, ww, letter)
    return m


@njit(cache=True)
def choose_look(st, seat, need, turn, rng, sst, pool, cand, sums, rng2, zrates, dout, dtr):
    """The lookahead seat's play at turn `turn`: (kind or -1, notes, wilds, letter); notes + wilds == 0:
    nothing fits.
    Scratch (allocated by the caller): sst (a state), pool (MAXC card ids), cand (MAXCAND x 4), sums
    (MAXCAND), rng2 (a random state of >= 1 stream), zrates (zeros), dout (a result row), dtr (a trace)."""
    m = _candidates(st, seat, need, rng, cand)
    if m == 0:
        return np.int64(-1), np.int64(0), np.int64(0), np.int64(-1)
    if m == 1:
        return cand[0, 0], cand[0, 1], cand[0, 2], cand[0, 3]
    n = st[S_N]
    off = np.int64(0)
    samples = st[O_PAR + seat * N_PAR + PAR_SAMPLES]
    horizon = st[O_PAR + seat * N_PAR + PAR_HORIZON]
    # the unseen cards: the other hands, then the stock
    u = 0
    for o in range(n):
        if o != seat:
            for i in range(st[O_HN + o]):
                pool[u] = st[O_HAND + o * MAXC + i]
                u += 1
    for i in range(st[S_POS], st[S_NSTOCK]):
        pool[u] = st[O_STOCK + i]
        u += 1
    # the playouts' configuration: everyone greedy, declaring block_next
    for i in range(ST_SIZE):
        sst[i] = st[i]
    for s in range(n):
        sst[O_POL + s] = P_GREEDY
        sst[O_PAR + s * N_PAR + PAR_DECLARE] = DECLARE_BLOCK
    for c in range(m):
        sums[c] = 0
    stop_cap = st[C_TURN_CAP]
    stream = 1 + seat
    for _ in range(samples):
        shuffle(rng, stream, pool, u)
        key = next_u64(rng, stream)
        for c in range(m):
            for i in range(O_GAME, ST_SIZE):
                sst[i] = st[i]
            # deal the unseen cards back: each other hand its size, the rest the stock
            p = 0
            for o in range(n):
                if o != seat:
                    for k in range(MAXK):
                        sst[O_CNT + o * MAXK + k] = 0
                    h = st[O_HN + o]
                    sst[O_HN + o] = 0
                    sst[O_NWILD + o] = 0
                    for i in range(h):
                        add_to_hand(sst, o, pool[p])
                        p += 1
            for i in range(st[S_POS], st[S_NSTOCK]):
                sst[O_STOCK + i] = pool[p]
                p += 1
            rng2[2 * DEAL] = key  # the same reshuffles for every candidate of this sample
            rng2[2 * DEAL + 1] = np.uint64(0)
            _act(sst, seat, need, turn, cand[c, 0], cand[c, 1], cand[c, 2], cand[c, 3], zrates, rng2, dout, dtr,
                 off)
            winner = seat
            if sst[O_HN + seat] != 0:
                # the rest (or `horizon` turns) played by greedy seats: engine.play_turns as in a game
                stop = stop_cap if horizon == 0 else min(stop_cap, turn + horizon)
                nxt, _, _, end = _turns(sst, (seat + 1) % n, turn, np.int64(0), stop, zrates, rng2, dout, dtr, off)
                winner = nxt if end == END_WON else -1
            if winner == seat:
                score = WIN_SCORE
            elif winner >= 0:
                score = -WIN_SCORE
            else:
                fewest = MAXC
                for o in range(n):
                    if o != seat:
                        fewest = min(fewest, sst[O_HN + o])
                score = fewest - sst[O_HN + seat]
            sums[c] += score
    # greedy's play (candidate 0) stands unless another beats it by more than one playout turned from a loss
    # into a win (2 x WIN_SCORE in the sums): with a few samples, smaller differences are mostly noise
    best = 0
    for c in range(1, m):
        if sums[c] > sums[best] + (2 * WIN_SCORE if best == 0 else 0):
            best = c
    return cand[best, 0], cand[best, 1], cand[best, 2], cand[best, 3]


# _nrt=False as engine.run: the loop allocates nothing (the scratch comes from the caller).
@njit(cache=True, _nrt=False)
def run_look(st, rates, rng, out, tr, on, sst, pool, cand, sums, rng2, zrates, dout, dtr):
    """engine.run with lookahead seats deciding by choose_look: engine.play_turns plays the other seats' turns
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
        while before_look < n and st[O_POL + (seat + before_look) % n] != P_LOOKAHEAD:
            before_look += 1
        stop = cap if before_look == n else min(cap, turn + before_look)
        seat, turn, dry, end = _turns(st, seat, turn, dry, stop, rates, rng, out, tr, on)
        if end != END_NONE or turn >= cap:
            break
        # a lookahead seat's turn: only its decision differs from play_turns'
        turn += 1
        need = st[S_NEED]
        emit(st, tr, on, EV_TURN, turn, seat, need, st[O_HN + seat])
        kind, notes, wilds, letter = choose_look(st, seat, need, turn, rng, sst, pool, cand, sums, rng2, zrates,
                                                 dout, dtr)
        acted = _act(st, seat, need, turn, kind, notes, wilds, letter, rates, rng, out, tr, on)
        seat, dry, end = after_turn(st, seat, dry, acted)
        if end != END_NONE:
            break
    return end_game(st, out, tr, on, seat, turn, end)


@njit(cache=True)
def _scratch(config, width):
    """The decision scratch, allocated once per chunk or traced game."""
    n_streams = config[S_N] + N_STREAMS_EXTRA
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(MAXC, dtype=np.int64), np.zeros((MAXCAND, 4), dtype=np.int64),
            np.zeros(MAXCAND, dtype=np.int64), np.zeros(2 * n_streams, dtype=np.uint64), np.zeros(2, dtype=np.float64),
            np.zeros(width, dtype=np.int64), np.zeros((1, 1), dtype=np.int64))


@njit(cache=True)
def play_game_look(seed, game, config, rates, out, trace, trace_on):
    """engine.play_game for a configuration with lookahead seats (the trace uses it)."""
    rng = new_streams(seed, game, config[S_N] + N_STREAMS_EXTRA)
    st = config.copy()
    _setup(st, rng, np.int64(1))  # the pool of unseen cards is built from the hands' ids
    sst, pool, cand, sums, rng2, zrates, dout, dtr = _scratch(config, out.shape[0])
    return run_look(st, rates, rng, out, trace, trace_on, sst, pool, cand, sums, rng2, zrates, dout, dtr)


@njit(cache=True, nogil=True)
def play_chunk_look(seed, first_game, lo, hi, config, rates, out):
    """engine.play_chunk for a configuration with lookahead seats: games first_game + lo .. + hi - 1."""
    rng = new_streams(seed, first_game + lo, config[S_N] + N_STREAMS_EXTRA)
    st = config.copy()
    dummy = np.zeros((1, 1), dtype=np.int64)
    off = np.int64(0)
    sst, pool, cand, sums, rng2, zrates, dout, dtr = _scratch(config, out.shape[1])
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        _setup(st, rng, np.int64(1))  # the pool of unseen cards is built from the hands' ids
        run_look(st, rates, rng, out[i], dummy, off, sst, pool, cand, sums, rng2, zrates, dout, dtr)


LOOK_CHUNK = 4  # games per chunk: a lookahead game costs hundreds of greedy playouts


def batch_look(seed, first_game, config, rates, out):
    """engine.batch with the lookahead kernel (blocks of LOOK_CHUNK games on the thread pool)."""
    run_in_blocks(play_chunk_look, out.shape[0], LOOK_CHUNK, (seed, first_game), (config, rates, out))
