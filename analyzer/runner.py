"""Play a scenario in chunks, in this process, and fold the results as they come.

For every chunk of game indices, every arm (variant x seat rotation) plays the same games through the
game's parallel batch kernel, and the threads that played each block fold it into the run's Tally
(analyzer.chunks, analyzer.summary); a chunk is committed on a thread of its own while the next one is
played (Committer). With [stop], the run looks at its Tally at the rule's checkpoints (Looks,
analyzer.stopping). Per-game rows go to Parquet only when asked for (analyzer.parquet_rows). The result is a
RunResult (analyzer.results); analyzer.distributed plays the same on a Dask cluster.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from functools import partial
from pathlib import Path

import numba
import numpy as np

from analyzer import compile_aside, fold, stopping
from analyzer.chunks import ChunkBuffers, block_array, play_and_fold
from analyzer.comparisons import arm_groups
from analyzer.configs import Scenario
from analyzer.fold import group_columns
from analyzer.interrupts import Interrupts
from analyzer.parquet_rows import ParquetRows
from analyzer.results import RunResult, group_results
from analyzer.summary import Summary, Tally, new_tally

DEFAULT_CHUNK = 100_000  # most deals per chunk whose rows are kept (--keep-games): 31 MB a four-player Noize group
# Otherwise a chunk keeps one or two int64 a deal and group (Tally.chunk_columns): at most this many bytes of them. The
# chunks are then cut by time only (CHUNK_SECONDS) in all but the widest sweeps: fewer chunks, less work between them
# (the bench's Noize run, 1,000,000 games on 2 threads: 2.33M games/s with chunks of 100,000 deals, 2.41-2.44M so).
CHUNK_BYTES = 64 << 20
CHUNK_SECONDS = 0.4  # a chunk is cut to about this much play, so that Ctrl-C is honoured within a second
FIRST_PLAYS = 2_000  # games (deals x arms) in the first chunk, before the speed is known
MIN_CHUNK = 256


def used_threads(threads: int | None = None) -> int:
    """The threads a run plays on: `threads` when given (set for the runs that follow), else as numba is set."""
    if threads:
        numba.set_num_threads(threads)
    return numba.get_num_threads()


def most_threads() -> int:
    """The most threads a run can play on (numba's pool: NUMBA_NUM_THREADS, else the cores)."""
    return numba.config.NUMBA_NUM_THREADS


def warm_up(sc: Scenario, traces: bool = False, compiling=None):
    """Compile (or load from the cache) the kernels of every configuration and the fold, by playing game 0 once
    and folding it into a throwaway summary, so that timings start with the first game played; traces: also the
    kernel of the report's traced games (game 0 of each group, as analyzer.report.trajectory replays them). On a
    cold cache they compile on two cores (analyzer.compile_aside); compiling() is called before the first compile."""
    here, aside = _warm_up_jobs(sc, traces)
    compile_aside.run(here, aside, compiling)


def _warm_up_jobs(sc, traces):
    """(this process's jobs, a helper's: the same in another order) for warm_up. This process takes the parts of a
    kernel a game names to compile apart (Game.extra["compile_parts"]: Arm -> [(jitted function, signature)],
    callees of the batch kernel, largest first, asked of each group's first arm) from the last, then the first
    group's kernel (the one most runs spend their time in), the fold, the other groups' and the traces' kernels; the
    helper starts with the other groups' and the traces' kernels (Fight Song's general kernel beside its greedy fast
    path), then the parts from the first, then the fold."""
    game = sc.game
    groups = arm_groups(sc)

    def play(arms):
        players = len(arms[0].seats)
        out = block_array(len(arms), 1, len(game.columns(players)))
        for r, arm in enumerate(arms):
            game.run_batch(arm.encoded(game), sc.seed, 0, out[r])

    def fold_rows():
        arms = groups[0]
        players, rot = len(arms[0].seats), len(arms)
        cols, names = group_columns(game, players, rot)
        out = block_array(rot, 1, len(game.columns(players)))  # (the fold's arrays have the run's layout)
        out[...] = 0
        spec = fold.group_spec(players, rot, len(cols), game.teams(players))
        # (no pair of columns: the fold's kernels get the run's types all the same, without the products of every
        # pair, which were 30-50 ms of a cached start)
        base = Summary(names, spec, pairs=[])
        base.add(out)
        crossed = Summary(names, spec, pairs=[])
        crossed.set_baseline(base, cross_pairs=[])
        crossed.add(out, base, out)
        fold.column_values(out, spec, 0, np.empty(1, dtype=np.int64))

    def trace(arm):
        game.trace(arm.encoded(game), sc.seed, 0)

    # (no arm is encoded here: an encoding may compile (Noize's tables), which on a cold start is a job like any other;
    # a game's compile_parts encodes an arm only where that compiles nothing, Fight Song's. Each group's first arm
    # names its parts, the same part once: a skill scenario's lookahead level has its own)
    named = {}
    for arms in groups:
        for kernel, sig in game.extra.get("compile_parts", lambda arm: ())(arms[0]):
            named.setdefault((kernel, tuple(sig)), compile_aside.compile_job(kernel, sig))
    parts = list(named.values())
    others = [partial(play, arms[:1]) for arms in groups[1:]]
    traced = [partial(trace, next(a for a in arms if a.rotation == 0)) for arms in groups] if traces else []
    here = parts[::-1] + [partial(play, groups[0]), fold_rows] + others + traced
    aside = others + traced + parts + [fold_rows, partial(play, groups[0])]
    return here, aside


def most_deals(tally: Tally, keep_rows: bool, chunk_size: int | None = None) -> int:
    """The most deals in a chunk: chunk_size if given, else DEFAULT_CHUNK when its rows are kept, else as many as
    CHUNK_BYTES of the tally's per-deal columns hold."""
    if chunk_size is not None:
        return chunk_size
    if keep_rows:
        return DEFAULT_CHUNK
    return max(MIN_CHUNK, CHUNK_BYTES // tally.chunk_bytes_per_deal())


def run(sc: Scenario, *, games: int | None = None, chunk_size: int | None = None, threads: int | None = None,
        keep_games_dir: str | Path | None = None, progress: bool = True,
        chunk_seconds: float = CHUNK_SECONDS, interrupts: Interrupts | None = None, block: int | None = None,
        on_block=None) -> RunResult:
    """Play every arm on games 0 .. games-1 (default: the scenario's) in chunks and fold the results.

    A chunk holds at most chunk_size deals (default: most_deals) and is cut to about chunk_seconds of play, so that an
    interrupt is honoured quickly; neither changes any result. Ctrl-C or SIGTERM ends the run once the
    blocks in play are played (their chunk is dropped unless every block of it was): the result is then
    partial. interrupts: the caller's, already installed (the CLI's, which go on noting signals while it
    writes the report); None: the run installs its own while it plays. block, on_block: no chunk crosses a
    multiple of `block` deals, and at each, on_block(deals played, tally) is called with every chunk committed; a
    true return ends the run there, not partial (analyzer.tuning prunes a trial so)."""
    total = games if games is not None else sc.games
    threads_used = used_threads(threads)
    tally = new_tally(sc)
    chunk_size = most_deals(tally, keep_games_dir is not None, chunk_size)
    for arm in sc.arms:
        arm.encoded(sc.game)
    warm_up(sc)
    rows = ParquetRows(sc, keep_games_dir) if keep_games_dir is not None else None
    bar = progress_bar(sc, total) if progress else None
    looks = Looks(sc, total)
    looks.prepare(tally)
    size = min(chunk_size, max(MIN_CHUNK, FIRST_PLAYS // len(sc.arms)))
    played = 0  # games played, folded and handed to the commit thread
    # with --keep-games, the rows are played into chunk arrays: a set is played into again only after its
    # chunk's commit (commits.wait below)
    buffers = ChunkBuffers()
    ended_early = False  # by on_block
    groups = arm_groups(sc)
    t0 = time.perf_counter()
    with nullcontext(interrupts) if interrupts is not None else Interrupts() as interrupts:
        interrupts.note_from_now()
        try:
            with Committer(tally, rows) as commits, \
                    ThreadPoolExecutor(threads_used, thread_name_prefix="play") as pool:
                while played < total and interrupts.signal is None and not looks.stopped:
                    n = min(size, total - played, looks.next_checkpoint(played) - played)
                    if block:
                        n = min(n, block - played % block)
                    started = time.perf_counter()
                    # the previous chunk is being committed meanwhile, on another thread
                    chunk = play_and_fold(sc, groups, tally, played, n, interrupts, rows is not None,
                                          buffers.next_set(), pool if threads_used > 1 else None)
                    commits.wait()
                    if chunk is None:
                        break  # interrupted inside the chunk: it is dropped whole
                    commits.start(chunk, played, n)
                    played += n
                    if bar is not None:
                        bar.update(n)
                    if played in looks.checkpoints:
                        commits.wait()
                        looks.look(played, tally, bar)
                    if block and played % block == 0 and on_block is not None:
                        commits.wait()
                        if on_block(played, tally):
                            ended_early = True
                            break
                    per_deal = (time.perf_counter() - started) / n
                    size = int(max(MIN_CHUNK, min(chunk_size, chunk_seconds / max(per_deal, 1e-9))))
                commits.wait()
        finally:
            if bar is not None:
                bar.close()
            if rows is not None:
                rows.close()
    done = tally.n
    wall = time.perf_counter() - t0
    partial = done < total and not looks.stopped and not ended_early
    return RunResult(sc, group_results(sc, tally), done, partial, wall, threads_used,
                     chunk_size, rows.paths if rows is not None else [], total, tally.metric_sums, tally.metric_xtx,
                     interrupts.signal, stop_reason=looks.reason)


class Committer:
    """Commits played chunks on a background thread, so that a chunk's sums, examples and Parquet rows are
    added while the next one is played. A chunk is committed whole: every summary, histogram, sweep sum and
    Parquet file takes it, in game order, one chunk at a time; wait() returns once it has (and raises
    what the commit raised)."""

    def __init__(self, tally: Tally, rows: "ParquetRows | None"):
        self.tally = tally
        self.rows = rows
        self.pending = None

    def __enter__(self):
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="commit")
        return self

    def __exit__(self, *exc):
        self.pool.shutdown(wait=True)  # an exception leaves no commit running behind it
        return False

    def start(self, chunk, first, n):
        """Commit a chunks.Played of n games first.. (in the background)."""
        assert self.pending is None, "one chunk at a time, in game order"
        self.pending = self.pool.submit(self._commit, chunk, first, n)

    def _commit(self, chunk, first, n):
        if self.rows is not None:
            self.rows.write(chunk.rows, first, self.tally.active)
        self.tally.commit(first, n, chunk.parts, chunk.columns)

    def wait(self):
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.result()


class Looks:
    """The looks at the data of a run with [stop]: at its checkpoints only (see analyzer.stopping)."""

    def __init__(self, sc: Scenario, total):
        self.sc = sc
        self.rule = sc.stop
        self.checkpoints = [k for k in self.rule.checkpoints() if k <= total] if self.rule else []
        self.stopped = False
        self.reason = None

    def next_checkpoint(self, done):
        """The first checkpoint after `done` games (a chunk must not cross it), or no limit."""
        return next((k for k in self.checkpoints if k > done), 2**62)

    def prepare(self, tally):
        """Give every summary the z of the rule's intervals (Bonferroni over its looks)."""
        if self.rule:
            for summary in tally.summaries:
                summary.z = self.rule.z()

    def look(self, done, tally, bar=None):
        """At a checkpoint: decide whether the answer is known; say how far it is on the progress bar."""
        if done not in self.checkpoints:
            return
        self.prepare(tally)
        groups = group_results(self.sc, tally)
        stop, words = stopping.check(self.sc, groups, done, done == self.checkpoints[-1])
        if bar is not None:
            bar.set_postfix_str(words)
        if stop:
            self.stopped, self.reason = True, words
        else:  # a strength curve's settled pairings play no more deals (stopping.active_groups)
            tally.active = stopping.active_groups(self.sc, groups)


def progress_bar(sc, total):
    """A tqdm bar of deals played (imported here: tqdm is needed only by a run that shows one)."""
    from tqdm import tqdm

    return tqdm(total=total, unit=" deals", unit_scale=True, delay=2.0, leave=False, desc=f"{sc.name}",
                dynamic_ncols=True)
