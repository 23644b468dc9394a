"""High Card's side of the search contract (analyzer/games/search/contract.py) and of the standard shape's
(analyzer/games/shape.py), from the rules' own pieces.

- a position: the state array, its decision point in it (S_TO_MOVE, S_TRICK); a decision row: (card,).
- a seat sees its own hand and the cards played: redeal deals the other hands again, each its size, from the
  cards it has not seen (theirs and the deck's undealt rest).
- the playouts: every seat greedy, which draws nothing (so the shape's key_playouts, none). The outcome: the
  seat's tricks minus the most tricks of another seat.
- look: (pool: the unseen cards; rng: the playouts' random state, never drawn from; tr: a trace nobody reads).
"""
import numpy as np
from numba import njit

from analyzer.rng import shuffle

from .rules import (C_DECK, C_HAND, C_PLAYERS, MAXD, MAXH, MAXP, O_DECK, O_GAME, O_HAND, O_HN, O_HORIZON, O_POL,
                    O_SAMPLES, O_TRICKS, P_GREEDY, S_TO_MOVE, S_TRICK, begin, end_game, greedy_card,  # noqa: F401
                    play_card, play_turns)

MAX_DECISIONS, DECISION_WIDTH, STREAMS = MAXH, 1, 1 + MAXP


@njit(cache=True)
def to_move(st):
    return st[S_TO_MOVE] if st[S_TRICK] < st[C_HAND] else np.int64(-1)


@njit(cache=True)
def decisions(st, seat, rng, cand, look):
    """Greedy's card first, then every other card of the hand."""
    cand[0, 0] = greedy_card(st, seat)
    m = 1
    for i in range(st[O_HN + seat]):
        if st[O_HAND + seat * MAXH + i] != cand[0, 0]:
            cand[m, 0] = st[O_HAND + seat * MAXH + i]
            m += 1
    return m


@njit(cache=True)
def begin_search(root, seat, sample, work, look):
    """Every playout seat greedy."""
    for pos in (sample, work):
        pos[:O_GAME] = root[:O_GAME]
        pos[O_POL:O_POL + root[C_PLAYERS]] = P_GREEDY


@njit(cache=True)
def redeal(root, seat, rng, sample, look):
    """The cards seat has not seen (the undealt rest and the other hands) shuffled on its stream; each other hand
    dealt its size from them."""
    n, pool, u = root[C_PLAYERS], look[0], root[C_DECK] - root[C_PLAYERS] * root[C_HAND]
    pool[:u] = root[O_DECK + n * root[C_HAND]:O_DECK + root[C_DECK]]
    for s in range(n):
        for i in range(root[O_HN + s] if s != seat else 0):
            pool[u] = root[O_HAND + s * MAXH + i]
            u += 1
    shuffle(rng, 1 + seat, pool, u)
    sample[O_GAME:] = root[O_GAME:]
    for s in range(n):
        for i in range(root[O_HN + s] if s != seat else 0):
            u -= 1
            sample[O_HAND + s * MAXH + i] = pool[u]


@njit(cache=True)
def apply(st, cand, i, look):
    play_card(st, cand[i, 0], look[2], np.int64(0))


@njit(cache=True)
def play(st, cand, i, rng, tr, on):
    play_card(st, cand[i, 0], tr, on)


@njit(cache=True)
def stop_after(root, horizon):
    """Tricks: `horizon` of them, counting the one in progress (0: every trick)."""
    return root[C_HAND] if horizon == 0 else min(root[C_HAND], root[S_TRICK] + horizon)


@njit(cache=True)
def playout(st, stop, look):
    play_turns(st, stop, look[1], look[2], np.int64(0))


@njit(cache=True)
def score(st, seat, look):
    best_other = -1
    for s in range(st[C_PLAYERS]):
        best_other = max(best_other, st[O_TRICKS + s] if s != seat else -1)
    return st[O_TRICKS + seat] - best_other


@njit(cache=True)
def search_settings(st, seat):
    return st[O_SAMPLES + seat], st[O_HORIZON + seat], np.int64(0)


@njit(cache=True)
def new_look(config):
    return np.zeros(MAXD, np.int64), np.zeros(2 * STREAMS, np.uint64), np.zeros((1, 8), np.int64)
