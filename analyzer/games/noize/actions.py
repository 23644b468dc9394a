"""The threshold policy's moves, tabulated once per run, so that a decision in play is one load.

A threshold seat's move before any bluff (`engine.threshold_move`) depends only on its parameters
(challenge_below, compare_raise), its own hand (size h and composition), the hidden cards (cards in
play minus h) and the standing bid. `build` stores that move, computed by that very function from the
run's probability table, for every combination, as one signed byte: -1 to challenge, else the key of
its raise. The results are therefore bit-identical to deciding in play. The layout:

    actions[seat_rows[seat] + hand_index(hand) * n_hidden + hidden - hidden_low, cur + 1]

- seat_rows: the first row of the seat's block; seats with the same two parameters share one; -1 for a
  seat that does not use the table (random, scripted, a threshold seat told to avoid an instrument, which
  decides in play, or every seat when it does not fit);
- engine.hand_index: the hand's position among all hands of start_cards .. finish_cards - 1 cards
  (the order in which `_fill` enumerates them), from its counts and the small table `first`
  (engine.first_hands);
- n_hidden, hidden_low: how many hidden-card counts a seat can face, and the fewest;
- a row holds the standing bids cur = -1 (none) .. width - 2, and its last entry is -1: every bid
  above the row is challenged. `_trimmed` cuts the rows to the fewest whole cache lines for which
  that holds and which hold every raise in the table as a position (one 64-byte line in the default
  game), so bidding without bluffs never reads past a row.

A raise's key is at most 4 T_max + 7 (T_max: most cards ever in play), so a byte holds it while
T_max <= 30 (every rulebook player count). Beyond that, or when the table would exceed MAX_ACTIONS
bytes, every seat decides in play from the probability table (`engine.decide`): slower, same games.
"""
import hashlib
from collections import OrderedDict

import numpy as np
from numba import njit

from analyzer.games.noize.engine import (FIELD, N_PARAMS, N_TYPES, P_AVOID, P_LOOKAHEAD, P_SEARCH, P_THRESHOLD,
                                         TH_CHALLENGE_BELOW, TH_COMPARE,
                                         THRESHOLD_DEFAULTS, count_bits, first_hands, hand_index, threshold_move)

MAX_ACTIONS = 16 * 2**20  # bytes of tabulated moves a run may build (the default 4-player game: 1.3 MB, 0.6 MB kept)
MAX_KEY = 127  # the largest raise key a signed byte holds


def hidden_range(n, start, finish):
    """The fewest and most cards a seat cannot see: the other n - 1 hands, each start .. finish - 1."""
    return (n - 1) * start, (n - 1) * (finish - 1)


def full_width(n, finish):
    """Standing bids -1 .. 4 T_max + 4 (T_max = n (finish - 1)): every bid that might hold, and one that cannot."""
    return 4 * n * (finish - 1) + 6


def _hands(start, finish):
    """Hand compositions of every size start .. finish - 1 (5 card types)."""
    return sum((h + 1) * (h + 2) * (h + 3) * (h + 4) // 24 for h in range(start, finish))


def block_rows(n, start, finish):
    """Rows of one parameter set: one per (hand size, composition, hidden cards)."""
    lo, hi = hidden_range(n, start, finish)
    return _hands(start, finish) * (hi - lo + 1)


def fits(n, start, finish, n_sets):
    """Whether the moves of n_sets parameter sets fit in bytes and in MAX_ACTIONS."""
    if 4 * n * (finish - 1) + 7 > MAX_KEY:
        return False
    full = n_sets * block_rows(n, start, finish) * full_width(n, finish)
    return full <= MAX_ACTIONS


def scalar_only(n):
    """Arrays that make every seat decide in play (no table)."""
    return np.zeros((0, 1), dtype=np.int8), np.full(n, -1, dtype=np.int64), np.zeros(1, dtype=np.int32)


def _parameter_sets(pol, par):
    """The distinct (challenge_below, compare_raise) of the threshold seats, and each seat's set (-1: none). A
    lookahead or search seat gets threshold's default set: its own threshold move and every seat's in its
    playouts (an `avoid` of its own filters its candidates: search_ops.decisions). A threshold seat with an
    `avoid` decides in play (engine.decide): the table holds unrestricted moves."""
    sets, seat_set = [], []
    for s in range(pol.shape[0]):
        if pol[s] == P_LOOKAHEAD or pol[s] == P_SEARCH:
            key = (THRESHOLD_DEFAULTS[TH_CHALLENGE_BELOW], THRESHOLD_DEFAULTS[TH_COMPARE])
        elif pol[s] == P_THRESHOLD and par[s, P_AVOID] == 0:
            key = (par[s, TH_CHALLENGE_BELOW], par[s, TH_COMPARE])
        else:
            seat_set.append(-1)
            continue
        if key not in sets:
            sets.append(key)
        seat_set.append(sets.index(key))
    return sets, seat_set


def build(pol, par, start, finish, table):
    """(actions, seat_rows, first) for the seats' policies and parameters; see the module docstring."""
    n = pol.shape[0]
    sets, seat_set = _parameter_sets(pol, par)
    if not sets or not fits(n, start, finish, len(sets)):
        return scalar_only(n)
    table_key = hashlib.sha1(table.tobytes()).digest()
    blocks = [_block(below, compare, start, finish, n, table, table_key) for below, compare in sets]
    rows = blocks[0][0].shape[0]
    seat_rows = np.array([-1 if k < 0 else k * rows for k in seat_set], dtype=np.int64)
    return _trimmed(blocks), seat_rows, first_hands(start, finish)


_BLOCKS = OrderedDict()  # (set, start, finish, n, the table's digest) -> (its block of moves, what its row needs)
_BLOCK_BYTES = 64 * 2**20  # the most bytes of blocks kept: a sweep's variants and rotations build each set once


def _block(below, compare, start, finish, n, table, table_key):
    """One parameter set's rows at full width and the width they need (`_trimmed`), built once per process:
    a sweep plays one set per variant on each rotation of the seats, and filling a block is most of a small
    run's set-up (73 ms for a set of the default 4-player game)."""
    key = (below, compare, start, finish, n, table_key)
    if key in _BLOCKS:
        _BLOCKS.move_to_end(key)
        return _BLOCKS[key]
    set_par = np.zeros((1, N_PARAMS), dtype=np.float64)
    set_par[0, TH_CHALLENGE_BELOW] = below
    set_par[0, TH_COMPARE] = compare
    lo, hi = hidden_range(n, start, finish)
    full = np.empty((block_rows(n, start, finish), full_width(n, finish)), dtype=np.int8)
    _fill(full, set_par, start, finish, lo, hi, first_hands(start, finish), count_bits(finish), table)
    full.setflags(write=False)
    raises = full >= 0
    last = full.shape[1] - 1 - np.argmax(raises[:, ::-1], axis=1)  # every row opens with a raise
    _BLOCKS[key] = full, max(int(last.max()) + 2, int(full.max()) + 2)
    while sum(block.nbytes for block, _ in _BLOCKS.values()) > _BLOCK_BYTES and len(_BLOCKS) > 1:
        _BLOCKS.popitem(last=False)
    return _BLOCKS[key]


def _trimmed(blocks):
    """The sets' blocks one under the other, their rows cut to the fewest whole 64-byte cache lines that still
    end with a challenge (-1) after every row's last raise and that hold every raise's key as a position (so
    that the next seat's look-up of a raise stays inside its row without a bounds test); each row starts on a
    line. In the default game a row is one line: most bids are challenged long before the most cards that
    could be in play."""
    full_cols = blocks[0][0].shape[1]
    need = max(block_need for _, block_need in blocks)
    width = min(-(-need // 64) * 64, full_cols)
    n_rows = sum(block.shape[0] for block, _ in blocks)
    raw = np.empty(n_rows * width + 64, dtype=np.int8)
    skip = -raw.ctypes.data % 64
    rows = raw[skip:skip + n_rows * width].reshape(n_rows, width)
    at = 0
    for block, _ in blocks:
        rows[at:at + block.shape[0]] = block[:, :width]
        at += block.shape[0]
    return rows


@njit(cache=True)
def _fill(actions, set_par, start, finish, hidden_low, hidden_high, first, bits, table):
    """Every parameter set's block of moves, in the layout of the module docstring."""
    cnt = np.zeros((1, N_TYPES), dtype=np.int64)
    hand = np.zeros(1, dtype=np.int64)
    n_hidden = hidden_high - hidden_low + 1
    hands_per_set = actions.shape[0] // set_par.shape[0] // n_hidden
    row = 0
    for s in range(set_par.shape[0]):
        par = set_par[s:s + 1]
        for h in range(start, finish):
            hand[0] = h
            for n0 in range(h + 1):
                for n1 in range(h + 1 - n0):
                    for n2 in range(h + 1 - n0 - n1):
                        for n3 in range(h + 1 - n0 - n1 - n2):
                            cnt[0, 0] = n0
                            cnt[0, 1] = n1
                            cnt[0, 2] = n2
                            cnt[0, 3] = n3
                            cnt[0, 4] = h - n0 - n1 - n2 - n3
                            # the rows follow hand_index (which finds them in play): check it
                            packed = n0 + (n1 << FIELD) + (n2 << 2 * FIELD) + (n3 << 3 * FIELD)
                            assert row == (s * hands_per_set + hand_index(packed, h, start, bits, first)) * n_hidden
                            for hidden in range(hidden_low, hidden_high + 1):
                                for i in range(actions.shape[1]):
                                    actions[row, i] = threshold_move(0, i - 1, par, cnt, hand, start, hidden, table, -1)
                                row += 1
