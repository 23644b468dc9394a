"""Playing a chunk of deals for every arm, folded on the threads that played it.

The deals of a chunk are cut into blocks (analyzer.threads.blocks), taken in order by the run's play
threads as they free up. A thread plays its block for every arm into arrays of its own, then folds the
block's rows into sums of its own (summary.FoldParts) while they are still in its cache; the chunk keeps
each deal's end condition (for example games) and, in sweeps, its target metric. At the end of the chunk
the threads' sums are added up: integer sums, so neither the blocks nor the thread that took each one
change any result. Only a run that writes every row (--keep-games) plays into arrays of the chunk's size.

Folding a chunk on a thread of its own while the next one was played, as the runner did before, made a
third thread share the two cores with the game threads and read each chunk back from memory (and arrays
of a chunk's size, tens of MB, cost a page fault every 4 KB on their first use).
"""
from __future__ import annotations

import threading
from concurrent.futures import wait
from dataclasses import dataclass

import numba
import numpy as np

from analyzer import threads

BLOCK_BYTES = 2 << 20  # a block's rows, every arm's, fit this: 2 MB, past a core's 1 MB of L2 (the fold costs
# about the same from L3, and each block's call into the kernel, about 20 us, is made half as often: a Noize run at
# one thread 2-15% faster than with 1 MB blocks in three alternated rounds in one process at load 4-7, 512 KB slower;
# against main in fresh processes, five pairs at load 9-11: from 3% faster to 2% slower: docs/performance.md)
MIN_BLOCK = 64
SIGNAL_POLL = 0.05  # seconds: how soon the play threads learn of a Ctrl-C


class ChunkBuffers:
    """The arrays chunks are played into with --keep-games, reused: the run plays a chunk while the previous
    one is committed, so two sets take turns. A fresh array of a chunk's size (tens of MB) cost the game threads a page fault
    and a page cleared by the kernel for every 4 KB they wrote: 2-4% of a Noize game."""

    def __init__(self):
        self.sets = [[], []]
        self.turn = 0

    def next_set(self):
        """The set for the next chunk (the other set's chunk may still be committing)."""
        self.turn ^= 1
        return self.sets[self.turn]

    @staticmethod
    def take(buffers, g, shape):
        """Group g's array of `shape` (C-contiguous) from the set `buffers`, grown when too small."""
        size = int(np.prod(shape))
        if len(buffers) <= g:
            buffers.append(np.empty(0, dtype=np.int64))
        if buffers[g].size < size:
            buffers[g] = np.empty(size, dtype=np.int64)
        return buffers[g][:size].reshape(shape)


@dataclass
class Played:
    """A chunk played and folded: per group, its FoldParts; the columns it keeps (summary.ChunkColumns); every
    arm's rows (per group, rotations x deals x game columns) when asked for (Parquet), else None."""

    parts: list
    columns: object
    rows: list | None


_scratch = threading.local()  # a play thread's block arrays, kept for its next chunks


def block_array(rot, most, cols):
    """An array for a block of at most `most` deals of a group (rotations, most, columns) whose every slice
    [:, :deals], full or not, has the same numba type: with rotations, a view whose rotations lie one deal further
    apart than `most` deals (layout 'A'); a full block was C-contiguous and a shorter one was not, and the fold's
    kernels compiled twice (6-7 s of a cold start). Without rotations every slice is C-contiguous. Each rotation's
    rows (run_batch's `out`) stay C-contiguous. runner.warm_up compiles the fold on one of these."""
    return np.empty((rot, most + (rot > 1), cols), dtype=np.int64)[:, :most]


def _block_arrays(shapes, most):
    """This thread's arrays for a block of at most `most` deals, per group (block_array)."""
    key = (tuple(shapes), most)
    if getattr(_scratch, "key", None) != key:
        _scratch.key = key
        _scratch.arrays = [block_array(rot, most, cols) for rot, cols in shapes]
    return _scratch.arrays


def play_and_fold(sc, groups, tally, first, n, interrupts=None, keep_rows=False, buffers=None, pool=None):
    """Play games first .. first+n-1 for every arm and fold them (summary.Tally.fold_block): a Played for
    tally.commit, or None if interrupted (the chunk is dropped).

    groups: the arms of each group (comparisons.arm_groups). keep_rows: also return every row, in arrays of a
    ChunkBuffers set `buffers` (default: new arrays); without it, each thread plays its blocks into arrays of
    its own that stay in its cache. pool: a ThreadPoolExecutor of numba.get_num_threads() play threads
    (default: this thread)."""
    game = sc.game
    shapes = [(len(arms), len(game.columns(len(arms[0].seats)))) for arms in groups]
    rows = None
    if keep_rows:
        rows = [np.empty((rot, n, cols), dtype=np.int64) if buffers is None
                else ChunkBuffers.take(buffers, g, (rot, n, cols)) for g, (rot, cols) in enumerate(shapes)]
    workers = numba.get_num_threads() if pool is not None else 1
    deal_bytes = sum(rot * cols * 8 for rot, cols in shapes)
    most = max(MIN_BLOCK, BLOCK_BYTES // deal_bytes // MIN_BLOCK * MIN_BLOCK)
    todo = iter(threads.blocks(n, MIN_BLOCK, workers, most))
    lock = threading.Lock()
    columns = tally.chunk_columns(n)

    def play_blocks():
        parts = tally.new_parts()
        played = 0
        with threads.on_this_thread():
            scratch = None if keep_rows else _block_arrays(shapes, most)
            while interrupts is None or interrupts.signal is None:
                with lock:
                    block = next(todo, None)
                if block is None:
                    break
                lo, hi = block
                outs = [g_rows[:, lo:hi] for g_rows in rows] if keep_rows else [a[:, :hi - lo] for a in scratch]
                for gi, (arms, g_outs) in enumerate(zip(groups, outs)):
                    if not tally.plays(gi):  # (a group its [stop] rule settled: analyzer.stopping)
                        continue
                    for r, arm in enumerate(arms):
                        game.run_batch(arm.encoded(game), sc.seed, first + lo, g_outs[r])
                tally.fold_block(parts, columns, outs, lo, hi)
                played += hi - lo
        return parts, played

    if workers == 1:
        done = [play_blocks()]
    else:
        futures = [pool.submit(play_blocks) for _ in range(workers)]
        # a signal's handler (analyzer.interrupts) runs on the main thread only, once it runs Python: it
        # wakes now and then, so that the play threads stop at their next block
        while wait(futures, timeout=SIGNAL_POLL).not_done:
            pass
        done = [f.result() for f in futures]
    if sum(played for _, played in done) < n:
        return None  # interrupted: a block was left unplayed
    parts = done[0][0]
    for other, _ in done[1:]:
        for mine, theirs in zip(parts, other):
            mine.merge(theirs)
    return Played(parts, columns, rows)
