"""Battle of the Bards in numba: one game per call (`play_game`), a parallel batch over games (`batch`).

The state layout and rule primitives are in state.py, the decisions in policies.py. Randomness:
stream 0 (DEAL) shuffles the deck once; stream 1 + seat holds that seat's random decisions.
"""
import numpy as np
from numba import njit, prange

from analyzer.games.bards.policies import (
    PAIRS, choose_decide, conclude_all, play_group, setup_decide, split_decide)
from analyzer.games.bards.state import (
    EV_CHOICE, EV_DECK, EV_DRAW, EV_END, EV_GROUP, EV_MEME, EV_RESULT, EV_SETUP, EV_SPLIT, EV_TURN,
    MAXC, MR_SETUP, N_COLS, O_PILE, O_STAT, R_CHOSEUP, R_NWIN, R_S14D, R_S14U, R_S23D,
    R_S23U, R_TIEBARD, R_WIN, S_BARD, S_N, S_NE, S_OVF, S_SCORE, S_TURN, ST_SIZE, TRACE_FIXED, draw, emit,
    finish, init_state, pile_left, place, set_meme)
from analyzer.rng import DEAL, new_streams, shuffle

TRACE_WIDTH = TRACE_FIXED + MAXC


def n_columns():
    return N_COLS


@njit(cache=True)
def end_game(st, tbl, active, pint, rng, tr, on):
    """The end: the player who cannot draw five concludes all her tales first, then her opponent
    (a conclusion that scores meme points replaces the meme in between)."""
    emit(st, tr, on, EV_END, active, pile_left(st), 0, 0, 0, 0, 0, 0, 0, 0, 0)
    conclude_all(st, tbl, active, pint, rng, tr, on)
    conclude_all(st, tbl, 1 - active, pint, rng, tr, on)


@njit(cache=True)
def run(st, tbl, pint, pflt, rng, out, tr, on):
    """Play a game from the deck order already in st (state after init_state). Returns the number
    of trace events written, or -1 if the trace buffer was too small."""
    n = st[S_N]
    g = np.zeros(8, dtype=np.int64)
    scr = np.zeros(16, dtype=np.int64)
    hand = np.zeros(5, dtype=np.int64)
    upc = np.zeros(5, dtype=np.int64)
    dnc = np.zeros(5, dtype=np.int64)
    vs = np.zeros(32, dtype=np.float64)
    vc = np.zeros(32, dtype=np.float64)
    cache = np.zeros(8, dtype=np.float64)

    k = emit(st, tr, on, EV_DECK, n, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    if k >= 0:
        for i in range(n):
            tr[k, TRACE_FIXED + i] = st[O_PILE + i]

    # setup: the dominant meme, then seat 1 deals four cards to start the four tales
    meme = draw(st)
    set_meme(st, meme, tbl)
    emit(st, tr, on, EV_MEME, meme, -1, MR_SETUP, pile_left(st), 0, 0, 0, 0, 0, 0, 0)
    d = np.zeros(4, dtype=np.int64)
    for i in range(4):
        d[i] = draw(st)
    j = setup_decide(st, tbl, d, pint, pflt, rng)
    k = emit(st, tr, on, EV_SETUP, 1, PAIRS[j, 0], PAIRS[j, 1], 0, 0, 0, 0, 0, 0, 0, 0)
    if k >= 0:
        for i in range(4):
            tr[k, TRACE_FIXED + i] = d[i]
    o = 0
    slot1 = 0
    for q in range(4):
        if q == PAIRS[j, 0] or q == PAIRS[j, 1]:
            place(st, tbl, 1, slot1, d[q], 1, tr, on)
            slot1 += 1
    for q in range(4):
        if not (q == PAIRS[j, 0] or q == PAIRS[j, 1]):
            place(st, tbl, 0, o, d[q], 1, tr, on)
            o += 1

    active = 0
    while pile_left(st) >= 5:
        st[S_TURN] += 1
        emit(st, tr, on, EV_TURN, st[S_TURN], active, pile_left(st), 0, 0, 0, 0, 0, 0, 0, 0)
        for i in range(5):
            hand[i] = draw(st)
        for i in range(8):
            cache[i] = 0.0
        k = emit(st, tr, on, EV_DRAW, active, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if k >= 0:
            for i in range(5):
                tr[k, TRACE_FIXED + i] = hand[i]
        up = split_decide(st, tbl, active, hand, pint, pflt, rng, vs, vc, cache)
        nu = 0
        nd = 0
        for i in range(5):
            if (up >> i) & 1:
                upc[nu] = hand[i]
                nu += 1
            else:
                dnc[nd] = hand[i]
                nd += 1
        if nu == 4:
            st[O_STAT + R_S14U] += 1
        elif nu == 1:
            st[O_STAT + R_S14D] += 1
        elif nu == 3:
            st[O_STAT + R_S23U] += 1
        else:
            st[O_STAT + R_S23D] += 1
        k = emit(st, tr, on, EV_SPLIT, active, nu, nd, up, 0, 0, 0, 0, 0, 0, 0)
        if k >= 0:
            for i in range(nu):
                tr[k, TRACE_FIXED + i] = upc[i]
            for i in range(nd):
                tr[k, TRACE_FIXED + nu + i] = dnc[i]
        chooser = 1 - active
        take = choose_decide(st, tbl, chooser, hand, up, pint, pflt, rng, g, cache)
        emit(st, tr, on, EV_CHOICE, chooser, take, nu, 0, 0, 0, 0, 0, 0, 0, 0)
        if take != 0:
            st[O_STAT + R_CHOSEUP] += 1
        first = chooser if take != 0 else active
        second = 1 - first
        k = emit(st, tr, on, EV_GROUP, first, 1, nu, 0, 0, 0, 0, 0, 0, 0, 0)
        if k >= 0:
            for i in range(nu):
                tr[k, TRACE_FIXED + i] = upc[i]
        play_group(st, tbl, first, upc, nu, pint, pflt, rng, scr, tr, on)
        k = emit(st, tr, on, EV_GROUP, second, 0, nd, 0, 0, 0, 0, 0, 0, 0, 0)
        if k >= 0:
            for i in range(nd):
                tr[k, TRACE_FIXED + i] = dnc[i]
        play_group(st, tbl, second, dnc, nd, pint, pflt, rng, scr, tr, on)
        active = 1 - active

    end_game(st, tbl, active, pint, rng, tr, on)
    finish(st, out)
    emit(st, tr, on, EV_RESULT, st[S_SCORE], st[S_SCORE + 1], out[R_NWIN], out[R_WIN], out[R_WIN + 1],
         out[R_TIEBARD], st[S_TURN], st[S_BARD], st[S_BARD + 1], pile_left(st), 0)
    if on and st[S_OVF] != 0:
        return -1
    return st[S_NE]


@njit(cache=True)
def play_game(seed, game, tbl, pint, pflt, out, trace, trace_on):
    """Play game `game` of the run keyed by `seed`; fill `out`; append events to `trace` if trace_on.

    Returns the number of events written (-1 if the trace buffer was too small)."""
    n = tbl.shape[0]
    rng = new_streams(seed, game, 3)
    st = np.empty(ST_SIZE, dtype=np.int64)
    init_state(st, n)
    shuffle(rng, DEAL, st[O_PILE:O_PILE + n], n)
    # private copies: threads sharing one array would contend on its reference count
    return run(st, tbl.copy(), pint.copy(), pflt.copy(), rng, out, trace, trace_on)


@njit(cache=True)
def play_stacked(order, seed, game, tbl, pint, pflt, out, trace, trace_on):
    """Like play_game but from a given deck order (top first); decisions still use (seed, game)."""
    n = tbl.shape[0]
    rng = new_streams(seed, game, 3)
    st = np.empty(ST_SIZE, dtype=np.int64)
    init_state(st, n)
    for i in range(n):
        st[O_PILE + i] = order[i]
    return run(st, tbl.copy(), pint.copy(), pflt.copy(), rng, out, trace, trace_on)


@njit(cache=True, parallel=True)
def batch(seed, first_game, tbl, pint, pflt, out):
    dummy = np.zeros((1, 1), dtype=np.int64)
    for i in prange(out.shape[0]):
        play_game(seed, first_game + i, tbl, pint, pflt, out[i], dummy, False)



