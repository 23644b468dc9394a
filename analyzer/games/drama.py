"""Drama of a game, counted while it plays: lead changes, when it was decided, the winner's comeback and the
final margin (issue 12). Shared by every game's kernel; no per-turn rows are kept.

A game keeps a drama block of D_SIZE int64 slots in its state array (at offset `o`). After the deal and
after every turn (hand, round: whatever the game's `length` counts) it writes each unit's standing
(a seat, or a team where partners play; HIGHER IS BETTER: a game where fewer cards is better writes
minus the hand size) at o + D_STAND + u and calls `look(a, o, units, turn)` (turn 0 starts the block
afresh). At the end, `finish` writes the four result columns.

- The leader is the unit whose standing is strictly the best. A tie for the best standing is no lead: the
  lead stays with the last sole leader, so a tie is never a lead change, and neither is a lead taken from a
  tie by the unit that led before it. A lead change is a look at which a unit becomes sole leader while
  another unit was the last sole leader (the first sole leader after an all-square start is not a change).
- A unit trails at a look when some unit's standing is strictly better than its own.
- decided_at: 0 if the winner never trailed (not even after the deal); otherwise the turn after the last
  look at which it trailed (turn 0 being the deal): from that turn on it never trailed again. In a game
  without a single winning unit (a stall, a shared win) it is the game's length.
- comeback: the largest deficit the winner had at any look (best standing minus its own), 0 if it never
  trailed (or without a single winning unit).
- final_margin: the winner's final standing minus the best final standing among the other units (0 on a
  tie or without a single winning unit).
"""
from numba import njit

MAXU = 8  # units (seats or teams) a game's block may have to hold
# a block for `units` units: the last sole leader (-1 none yet), the lead changes so far, then per unit its
# current standing (written by the game; higher is better), the last turn at which it trailed (-1 never) and
# its largest deficit so far: 2 + 3 x units slots
D_LEADER = 0
D_CHANGES = 1
D_STAND = 2  # + u: unit u's standing


def block_size(units):
    return 2 + 3 * units


D_SIZE = block_size(MAXU)  # room for any game

COLUMNS = ("lead_changes", "decided_at", "comeback", "final_margin")
N_COLUMNS = len(COLUMNS)


@njit(cache=True)
def look(a, o, units, turn):
    """Take the standings now in the block (after turn `turn`) into account. Turn 0 (after the deal) starts
    a new game: the rest of the block is reset first (one function, not two, to compile)."""
    stand = o + D_STAND
    last = stand + units
    deficit = last + units
    if turn == 0:
        a[o + D_LEADER] = -1
        a[o + D_CHANGES] = 0
        for u in range(units):
            a[last + u] = -1
            a[deficit + u] = 0
    # written without data-dependent branches (selects and max): called every turn, and which unit
    # leads or trails is as unpredictable for the branch predictor as the game itself
    top = a[stand]
    at = 0
    for u in range(1, units):
        v = a[stand + u]
        at = u if v > top else at
        top = max(top, v)
    n_top = 0
    for u in range(units):
        d = top - a[stand + u]
        n_top += d == 0
        a[last + u] = turn if d > 0 else a[last + u]
        a[deficit + u] = max(a[deficit + u], d)
    if n_top == 1:
        prev = a[o + D_LEADER]
        if prev >= 0 and prev != at:
            a[o + D_CHANGES] += 1
        a[o + D_LEADER] = at


@njit(cache=True)
def finish(a, o, units, winner, length, out, col):
    """Write lead_changes, decided_at, comeback, final_margin into out[col..col+3]; winner: the winning
    unit, or -1 when no single unit won (a stall or a shared win). Everything is read before anything is
    written, so the block may lie in `out` itself, over those columns (Bring the Noize keeps it there)."""
    stand = o + D_STAND
    changes = a[o + D_CHANGES]
    decided = length
    comeback = 0
    margin = 0
    if winner >= 0:
        last = a[stand + units + winner]
        decided = 0 if last < 0 else min(last + 1, length)
        comeback = a[stand + 2 * units + winner]
        best_other = 0
        first = 1
        for u in range(units):
            if u != winner:
                v = a[stand + u]
                if first == 1 or v > best_other:
                    best_other = v
                    first = 0
        margin = a[stand + winner] - best_other
        if margin < 0:
            margin = 0
    out[col] = changes
    out[col + 1] = decided
    out[col + 2] = comeback
    out[col + 3] = margin
