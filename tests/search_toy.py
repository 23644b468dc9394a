"""A toy game on the search contract (analyzer/games/search/contract.py): the smallest complete example.

Two seats take turns taking 1 to MAX_TAKE cards from the top of a face-down pile; a card's value goes to
the taker's score; the game ends when the pile is empty. Both seats know which cards are in the pile (its
contents are public) but not their order. Default policy: take one card. Outcome for a seat: its score
minus the other's.

A position is one int64 array: the decision point (P_TO_MOVE, P_TURNS), the pile (P_TOP: cards taken so far,
P_SIZE, then the cards from P_PILE), the two scores. A decision row: (cards to take,). look = (pool: the
unseen cards, log: what the tests read (the calls made, the key and pile each playout started from)).
"""
import numpy as np
from numba import njit

from analyzer.rng import shuffle

MAX_TAKE = 3
P_TO_MOVE, P_TURNS, P_TOP, P_SIZE, P_SCORE, P_PILE = 0, 1, 2, 3, 4, 6  # P_SCORE: 2 seats
MAX_PILE = 16
POSITION_SIZE = P_PILE + MAX_PILE
NO_STOP = 1 << 40
# the log in look: LOG_BEGIN (begin_search calls), LOG_N (playouts logged), then per playout: its key, the
# decision taken and the pile it started from
LOG_BEGIN, LOG_N, LOG_ROWS = 0, 1, 2
LOG_ROW = 2 + MAX_PILE


def new_position(pile, to_move=0):
    pos = np.zeros(POSITION_SIZE, dtype=np.int64)
    pos[P_TO_MOVE] = to_move
    pos[P_SIZE] = len(pile)
    pos[P_PILE:P_PILE + len(pile)] = pile
    return pos


def new_look(max_playouts=4096):
    return np.zeros(MAX_PILE, dtype=np.int64), np.zeros(LOG_ROWS + LOG_ROW * max_playouts, dtype=np.int64)


@njit(cache=True)
def to_move(pos):
    return pos[P_TO_MOVE] if pos[P_TOP] < pos[P_SIZE] else -1


@njit(cache=True)
def decisions(pos, seat, rng, cand, look):
    """Take 1 (the default policy's, first), 2, ... up to MAX_TAKE or the cards left."""
    left = pos[P_SIZE] - pos[P_TOP]
    m = 0
    for take in range(1, min(MAX_TAKE, left) + 1):
        cand[m, 0] = take
        m += 1
    return m


@njit(cache=True)
def begin_search(root, seat, sample, work, look):
    look[1][LOG_BEGIN] += 1


@njit(cache=True)
def redeal(root, seat, rng, sample, look):
    """The pile's cards shuffled on the seat's stream (the taken cards and the scores are seen)."""
    pool = look[0]
    for i in range(POSITION_SIZE):
        sample[i] = root[i]
    u = 0
    for i in range(root[P_TOP], root[P_SIZE]):
        pool[u] = root[P_PILE + i]
        u += 1
    shuffle(rng, 1 + seat, pool, u)
    for j in range(u):
        sample[P_PILE + root[P_TOP] + j] = pool[j]


@njit(cache=True)
def copy_position(src, dst, look):
    for i in range(POSITION_SIZE):
        dst[i] = src[i]


@njit(cache=True)
def key_playouts(key, look):
    """(The toy's playouts draw nothing: the key is only logged, for the tests.)"""
    log = look[1]
    row = LOG_ROWS + LOG_ROW * log[LOG_N]
    log[row] = np.int64(key)


@njit(cache=True)
def _take(pos, count):
    seat = pos[P_TO_MOVE]
    for _ in range(count):
        pos[P_SCORE + seat] += pos[P_PILE + pos[P_TOP]]
        pos[P_TOP] += 1
    pos[P_TO_MOVE] = 1 - seat
    pos[P_TURNS] += 1


@njit(cache=True)
def apply(pos, cand, i, look):
    log = look[1]
    row = LOG_ROWS + LOG_ROW * log[LOG_N]
    log[row + 1] = cand[i, 0]
    for j in range(MAX_PILE):
        log[row + 2 + j] = pos[P_PILE + j]
    log[LOG_N] += 1
    _take(pos, cand[i, 0])


@njit(cache=True)
def stop_after(root, horizon):
    return NO_STOP if horizon == 0 else root[P_TURNS] + horizon


@njit(cache=True)
def playout(pos, stop, look):
    while pos[P_TOP] < pos[P_SIZE] and pos[P_TURNS] < stop:
        _take(pos, 1)


@njit(cache=True)
def score(pos, seat, look):
    return pos[P_SCORE + seat] - pos[P_SCORE + 1 - seat]
