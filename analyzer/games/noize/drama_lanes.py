"""Bring the Noize's drama (analyzer/games/drama.py), kept in a few integers instead of the drama block.

drama.look cost about 25 ns a round in this game's kernel, a fifth of the whole game: its loops over the
seats run on unpredictable branches (who leads, who trails). In this game a round changes one thing only:
the loser holds one card more. So the state fits in "lanes", 9 bits per seat of one int64 (seat s in bits
9s .. 9s + 8; 7 seats use 63 bits), and a round updates it in about thirty branch-free integer operations:

- hands: every seat's cards (the standing is minus that: fewer is better);
- low: the fewest cards any seat holds; it never falls, and grows by one when the loser was the only seat
  holding that few;
- last: per seat, 1 + the last turn at which it trailed (held more than `low`), 0 if it never did;
- deficit: per seat, the most cards it ever held above `low`. Only the loser's can grow in a round: the
  others' hands do not change and `low` never falls;
- leader (the last sole leader, -1 none) and changes: as drama.look.

A lane holds 0 .. 511: hands (at most finish_cards <= 60), turns (at most 7 x 59 rounds: each round gives one
seat a card, and the game ends when one reaches finish_cards) and deficits fit. `write` unpacks the state into
the drama block that drama.finish reads, so the results are the very numbers drama.look gives (tested
against it: tests/test_drama.py).
"""
from numba import njit

from analyzer.games import drama

LANE = 9
LANE_MASK = (1 << LANE) - 1
MAX_SEATS = 7
ONES = sum(1 << (LANE * s) for s in range(MAX_SEATS))  # 1 in every lane
LOW8 = ONES * 0xFF  # bits 0-7 of every lane
HIGH = ONES << 8  # bit 8 of every lane
TOP = LANE * (MAX_SEATS - 1)  # the shift to the top lane
# lane 6 - j holds j: a lone lane bit 1 << 9k times this has k in the top lane (the seat of a sole leader)
SEAT_OF = sum(j << (LANE * (MAX_SEATS - 1 - j)) for j in range(MAX_SEATS))


@njit(cache=True, inline="always")
def _at_low(hands, low, used):
    """Bit 8 of the lane of every seat (of `used`) holding exactly `low` cards. Exact: no lane is below low,
    and the carry of (x & LOW8) + LOW8 never leaves its lane."""
    x = hands - low * ONES
    return ~(((x & LOW8) + LOW8) | x | LOW8) & used


@njit(cache=True, inline="always")
def deal(n, cards):
    """The state after the deal (turn 0): every seat holds `cards`, nobody trails or leads.
    (hands, low, last, deficit, leader, changes, used: bit 8 of the n seats' lanes)."""
    seats = (1 << (LANE * n)) - 1
    return (cards * ONES) & seats, cards, 0, 0, -1, 0, HIGH & seats


@njit(cache=True, inline="always")
def lost(state, loser, turn):
    """The state after round `turn`, in which `loser` was dealt one card more (what drama.look sees)."""
    hands, low, last, deficit, leader, changes, used = state
    shift = LANE * loser
    hands += 1 << shift
    low += _at_low(hands, low, used) == 0  # the loser was the only seat with the fewest
    at_low = _at_low(hands, low, used)
    # the lanes' bits summed into the top lane (the product's bits above it wrap away: masked off)
    n_low = (((at_low >> 8) * ONES) >> TOP) & LANE_MASK
    old = (deficit >> shift) & LANE_MASK
    deficit += (max(old, ((hands >> shift) & LANE_MASK) - low) - old) << shift
    trailing = (((used & ~at_low) >> 8) * LANE_MASK)  # every lane of a trailing seat set
    last = (last & ~trailing) | ((turn + 1) * ONES & trailing)
    sole = n_low == 1
    at = (((at_low >> 8) * SEAT_OF) >> TOP) & LANE_MASK  # (only read when sole)
    changes += sole & (leader >= 0) & (leader != at)
    leader = at if sole else leader
    return hands, low, last, deficit, leader, changes, used


@njit(cache=True, inline="always")
def lane(x, seat):
    """Seat's lane of x."""
    return (x >> (LANE * seat)) & LANE_MASK


@njit(cache=True, inline="always")
def write(state, a, o, n):
    """Unpack the state into the drama block at a[o:] (drama.py's layout), for drama.finish."""
    hands, low, last, deficit, leader, changes, used = state
    a[o + drama.D_LEADER] = leader
    a[o + drama.D_CHANGES] = changes
    for u in range(n):
        i = o + drama.D_STAND + drama.D_UNIT * u
        a[i] = -lane(hands, u)
        a[i + drama.D_LAST] = lane(last, u) - 1
        a[i + drama.D_DEFICIT] = lane(deficit, u)

