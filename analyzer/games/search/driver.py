"""The search driver: search loops written once against the contract (contract.py), bound to each game by
analyzer.games.search.specialise. Every function here marked @driver_function is cloned per game; its calls
to the contract's names (and to the other driver functions) then go to that game's functions.
"""
import numpy as np  # noqa: F401  (in the clones' globals)

from analyzer.games.search.contract import (  # noqa: F401  (replaced by the game's functions in each clone)
    apply, begin_search, copy_position, decisions, key_playouts, playout, redeal, score, stop_after, to_move)
from analyzer.rng import next_u64

DRIVER_FUNCTIONS = []  # (function, numba options): what specialise clones


def driver_function(**options):
    """Mark a function as part of the driver (numba options for its clones: cache=True is added)."""
    def mark(fn):
        DRIVER_FUNCTIONS.append((fn, options))
        return fn
    return mark


@driver_function()
def lookahead(root, samples, horizon, edge, rng, cand, sums, sample, work, look):
    """Flat Monte Carlo for the seat to move at root: the index in cand of the decision it makes.

    Its decisions (decisions(); row 0 the default policy's) are each played on the same `samples` redeals of
    the cards it cannot see (common random numbers), then on with the default policy for `horizon` steps (0:
    to the end); a decision's sum (sums[i]) is the sum of its outcomes. The best sum wins, ties keeping the
    earlier decision, and decision 0 stands unless another's sum beats it by more than `edge` (noise, with a
    few samples; 0: no such margin). With one decision it is made at once, nothing drawn.

    Draws, in order: decisions() (the default policy's choice may draw), then per redeal redeal() and one key
    for the playouts, all on stream 1 + seat of rng. cand (>= the game's most decisions rows) and sums
    (as long) are the caller's scratch; sample and work are positions of root's type."""
    seat = to_move(root)
    m = decisions(root, seat, rng, cand, look)
    if m <= 1:
        return 0
    begin_search(root, seat, sample, work, look)
    stop = stop_after(root, horizon)
    for i in range(m):
        sums[i] = 0
    stream = 1 + seat
    for _ in range(samples):
        redeal(root, seat, rng, sample, look)
        key = next_u64(rng, stream)
        for i in range(m):
            copy_position(sample, work, look)
            key_playouts(key, look)
            apply(work, cand, i, look)
            playout(work, stop, look)
            sums[i] += score(work, seat, look)
    best = 0
    for i in range(1, m):
        if sums[i] > sums[best] + (edge if best == 0 else 0):
            best = i
    return best
