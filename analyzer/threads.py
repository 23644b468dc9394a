"""Parallel batches without numba's `parallel=True`: a nogil chunk kernel run on a pool of Python threads.

A `prange` batch makes numba compile the whole game a second time (as a gufunc): for Battle of the
Bards that was a third of the cold compile. A kernel jitted with `nogil=True` runs in parallel on
plain threads instead. The games are cut into contiguous blocks (several per thread, taken as threads
free up, so a thread slowed by a busy machine does not hold the others back); every game's result
depends only on its index, so neither the blocks nor the thread count change any result.

The runner plays its chunks on threads of its own, each thread a block of deals for every arm, then
folds them (analyzer.chunks): inside `on_this_thread()`, a batch is played on the calling thread.
"""
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numba

SHARE_PER_THREAD = 2  # a block is 1 / (threads x this) of the games left: see blocks


def blocks(n, step, threads, most=None):
    """(lo, hi) ranges covering 0..n-1, multiples of `step` games, in decreasing sizes (guided scheduling):
    each block is a share of the games still left, so the first blocks are large (a call per block) and the
    last ones small, and the threads finish a batch together. With equal blocks (8 per thread) a thread
    left with a whole block at the end of every chunk held the others idle, about 3% of a Noize run.
    most: no block is larger (a multiple of step)."""
    out = []
    lo = 0
    while lo < n:
        share = -(-(n - lo) // (threads * SHARE_PER_THREAD))
        size = max(step, -(-share // step) * step)
        if most is not None:
            size = min(size, most)
        out.append((lo, min(lo + size, n)))
        lo += size
    return out


_local = threading.local()


@contextmanager
def on_this_thread():
    """Within it, run_in_blocks plays every batch on the calling thread (a thread of the runner's own)."""
    _local.inline = True
    try:
        yield
    finally:
        _local.inline = False


def run_in_blocks(kernel, n, step, head, tail):
    """kernel(*head, lo, hi, *tail) for blocks covering games 0..n-1, on numba.get_num_threads() threads
    (the caller's setting: the runner's --threads), or on the calling thread inside on_this_thread()."""
    if getattr(_local, "inline", False):
        kernel(*head, 0, n, *tail)
        return
    threads = numba.get_num_threads()
    todo = blocks(n, step, threads)
    if threads == 1 or len(todo) == 1:
        for lo, hi in todo:
            kernel(*head, lo, hi, *tail)
        return
    with ThreadPoolExecutor(min(threads, len(todo))) as pool:
        for f in [pool.submit(kernel, *head, lo, hi, *tail) for lo, hi in todo]:
            f.result()
