"""Drama of a game, counted while it plays: lead changes, when it was decided, the winner's comeback and the
final margin (issue 12). Shared by every game's kernel; no per-turn rows are kept.

A game keeps a drama block of D_SIZE int64 slots in its state array (at offset `o`). After the deal and
after every turn (hand, round: whatever the game's `length` counts) it writes each unit's standing
(a seat, or a team where partners play; HIGHER IS BETTER: a game where fewer cards is better writes
minus the hand size) at o + D_STAND + D_UNIT * u and calls `look(a, o, units, turn)` (turn 0 starts the block
afresh). At the end, `finish` writes the four result columns.

A game where each turn changes one unit's standing only (The Distance: only the seat to play draws and
plays) may call `look_one(a, o, units, turn, u, v)` instead, at every turn after a `look` at turn 0, and
`settle` before `finish`: the same results, in a few instructions for most turns (see look_one).

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
# a block for `units` units: the last sole leader (-1 none yet), the lead changes so far, then D_UNIT slots
# per unit: its current standing (written by the game; higher is better), the last turn at which it
# trailed (-1 never) and its largest deficit so far: 2 + 3 x units slots. A unit's slots lie together (not
# one array per field): LLVM then keeps `look` a plain scalar loop, where it vectorised the per-field
# layout with masked stores that cost more than the whole loop on this machine's AMD cores.
D_LEADER = 0
D_CHANGES = 1
D_STAND = 2  # + D_UNIT * u: unit u's standing
D_UNIT = 3
D_LAST, D_DEFICIT = 1, 2  # + D_STAND + D_UNIT * u: unit u's last turn trailing, largest deficit


def block_size(units):
    return 2 + 3 * units


D_SIZE = block_size(MAXU)  # room for any game

COLUMNS = ("lead_changes", "decided_at", "comeback", "final_margin")
N_COLUMNS = len(COLUMNS)


@njit(cache=True, inline="always")
def _take_lead(a, o, n_top, at):
    """A sole leader (n_top == 1) at unit `at`: a lead change if another unit was the last sole leader."""
    if n_top == 1:
        prev = a[o + D_LEADER]
        if prev >= 0 and prev != at:
            a[o + D_CHANGES] += 1
        a[o + D_LEADER] = at


@njit(cache=True, inline="always")  # called every turn: a call would pass ~12 words and spill registers
def look(a, o, units, turn):
    """Take the standings now in the block (after turn `turn`) into account. Turn 0 (after the deal) starts
    a new game: the rest of the block is reset first (one function, not two, to compile)."""
    stand = o + D_STAND
    if turn == 0:
        a[o + D_LEADER] = -1
        a[o + D_CHANGES] = 0
        for u in range(units):
            a[stand + D_UNIT * u + D_LAST] = -1
            a[stand + D_UNIT * u + D_DEFICIT] = 0
    # written without data-dependent branches (selects and max): called every turn, and which unit
    # leads or trails is as unpredictable for the branch predictor as the game itself
    top = a[stand]
    at = 0
    for u in range(1, units):
        v = a[stand + D_UNIT * u]
        at = u if v > top else at
        top = max(top, v)
    n_top = 0
    for u in range(units):
        i = stand + D_UNIT * u
        d = top - a[i]
        n_top += d == 0
        # = turn if it trails, else unchanged (turns only grow); as a max, LLVM emits no branch here
        a[i + D_LAST] = max(a[i + D_LAST], turn if d > 0 else -1)
        a[i + D_DEFICIT] = max(a[i + D_DEFICIT], d)
    _take_lead(a, o, n_top, at)


@njit(cache=True, inline="always")
def look_one(a, o, units, turn, u, v):
    """Unit u's standing is now v, the other units' unchanged since the look at turn - 1: what look would
    do at `turn`, done lazily. A unit trailing now keeps, in its last-trailed slot, the turn at which it
    last began to trail or older (stale); the slot is written when it stops trailing (turn - 1: it trailed
    at every look until then) and by `settle` at the end. Only a change at the top (u rising above it, or
    u having been at it and falling) needs the pass over every unit; otherwise only u's slots change."""
    stand = o + D_STAND
    iu = stand + D_UNIT * u
    old = a[iu]
    if v == old:
        return
    top = a[stand]
    for x in range(1, units):
        top = max(top, a[stand + D_UNIT * x])
    a[iu] = v
    if v < top and old < top:  # u trailed and still trails under the same top
        a[iu + D_DEFICIT] = max(a[iu + D_DEFICIT], top - v)
        return
    if v == top and old < top:  # u joins the top (the top unchanged: a tie is no change of lead)
        a[iu + D_LAST] = turn - 1
        return
    # the top moved: a unit that trailed under the old top and does not under the new one stops trailing
    new_top = v
    at = u
    n_top = 0
    for x in range(units):
        w = a[stand + D_UNIT * x]
        at = x if w > new_top else at
        new_top = max(new_top, w)
    for x in range(units):
        i = stand + D_UNIT * x
        w = a[i]
        before = old if x == u else w
        d = new_top - w
        n_top += d == 0
        a[i + D_LAST] = turn - 1 if before < top and d == 0 else a[i + D_LAST]
        a[i + D_DEFICIT] = max(a[i + D_DEFICIT], d)
    _take_lead(a, o, n_top, at)


@njit(cache=True)
def settle(a, o, units, turn):
    """After look_one's last call (at `turn`): the units trailing now trailed last at `turn`."""
    stand = o + D_STAND
    top = a[stand]
    for x in range(1, units):
        top = max(top, a[stand + D_UNIT * x])
    for x in range(units):
        i = stand + D_UNIT * x
        if a[i] < top:
            a[i + D_LAST] = turn


@njit(cache=True)
def finish(a, o, units, winner, length, out, col):
    """Write lead_changes, decided_at, comeback, final_margin into out[col..col+3]; winner: the winning
    unit, or -1 when no single unit won (a stall or a shared win). Everything is read before anything is
    written, so the block may lie in `out` itself, over those columns (Bring the Noize keeps it there)."""
    stand = o + D_STAND
    last = 0
    deficit = 0
    margin = 0
    if winner >= 0:
        w = stand + D_UNIT * winner
        last = a[w + D_LAST]
        deficit = a[w + D_DEFICIT]
        best_other = 0
        first = 1
        for u in range(units):
            if u != winner:
                v = a[stand + D_UNIT * u]
                if first == 1 or v > best_other:
                    best_other = v
                    first = 0
        margin = a[w] - best_other
    columns(out, col, a[o + D_CHANGES], length, winner >= 0, last, deficit, margin)


@njit(cache=True, inline="always")
def columns(out, col, changes, length, won, last, deficit, margin):
    """finish's four columns from what the block holds: won, whether a single unit won; then its last turn trailing
    (-1 never), its largest deficit and its final standing less the best other unit's (0 if below). (Bring the
    Noize's plain kernel gives them from its drama lanes, without a block: noize/plain.py.)"""
    decided = length
    comeback = 0
    final_margin = 0
    if won:
        decided = 0 if last < 0 else min(last + 1, length)
        comeback = deficit
        final_margin = max(margin, 0)
    out[col] = changes
    out[col + 1] = decided
    out[col + 2] = comeback
    out[col + 3] = final_margin
