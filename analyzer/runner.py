"""Play a scenario in chunks and stream the results into summaries.

For every chunk of game indices, every arm (variant x seat rotation) plays the same games through the
game's parallel batch kernel. Each group's per-deal rows (its arms' columns summed over rotations,
plus win credits) are folded into a `Summary`: sums, cross products and histograms, all exact
integers, so the summaries are identical whatever the chunk size or thread count, and memory does not
grow with the number of games. Per-game rows go to Parquet only when asked for.
"""
from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from analyzer import fold
from analyzer.chunks import ChunkBuffers, play_and_fold
from analyzer.fold import CREDIT  # noqa: F401  (the report's metrics divide by it)
from analyzer.interrupts import Interrupts
from analyzer.scenario import Scenario
DEFAULT_CHUNK = 100_000  # most deals per chunk (memory)
CHUNK_SECONDS = 0.4  # a chunk is cut to about this much play, so that Ctrl-C is honoured within a second
FIRST_PLAYS = 2_000  # games (deals x arms) in the first chunk, before the speed is known
MIN_CHUNK = 256
EXAMPLES = 3  # game indices kept per end condition


@dataclass
class FoldParts:
    """A chunk's sums of a group before they join its Summary: analyzer.fold adds blocks of deals to them on
    any thread; the parts of disjoint blocks add up (merge)."""

    sums: np.ndarray
    squares: np.ndarray
    pair_sums: np.ndarray
    cross_sums: np.ndarray
    hist: np.ndarray  # hist_columns x values 0, 1, ... (widened when a block holds a larger value: widen)
    low: int = 0  # the smallest and largest histogram value folded
    high: int = 0

    def merge(self, other: "FoldParts"):
        for mine, theirs in ((self.sums, other.sums), (self.squares, other.squares),
                             (self.pair_sums, other.pair_sums), (self.cross_sums, other.cross_sums)):
            mine += theirs
        if other.hist.shape[1] > self.hist.shape[1]:  # (made before and after a commit widened the guess)
            self.hist, other_hist = other.hist.copy(), self.hist
        else:
            other_hist = other.hist
        self.hist[:, :other_hist.shape[1]] += other_hist
        self.low = min(self.low, other.low)
        self.high = max(self.high, other.high)

    def widen(self, hist_cols, outs, high):
        """A block (outs) held histogram values up to high, beyond hist: fold_rows counted the values that
        fit; count the others in a table twice as wide as needed (rare: the next chunk's guess grows)."""
        old = self.hist.shape[1]
        wide = np.zeros((len(hist_cols), 2 * (high + 1)), dtype=np.int64)
        wide[:, :old] = self.hist
        for h, col in enumerate(hist_cols):
            values = outs[:, :, col].ravel()
            np.add.at(wide[h], values[values >= old], 1)
        self.hist = wide


@dataclass
class Summary:
    """Exact streaming summary of a group's per-deal integer rows: n, sums, histograms of the game columns
    the report draws, and the cross products of the column pairs it reads (with itself, and with the
    baseline group's rows of the same deals). Reading a pair that was not folded raises (`xx`, `xb`), as
    does a histogram that was not kept: neither ever reads as 0."""

    names: list[str]
    spec: np.ndarray  # the group's layout for analyzer.fold (players, rotations, teams...)
    # (a, b) column names whose products are folded besides each column's square; None: every pair
    # (metrics.folded_pairs gives a run's)
    pairs: list | None = None
    hist_columns: list | None = None  # game columns whose histograms are kept; None: all (metrics.histogram_columns)
    n: int = 0
    sums: np.ndarray = None
    xtx: np.ndarray = None  # folded pairs' cross products, both triangles (read them through xx)
    cross: np.ndarray = None  # this group's rows x the baseline group's rows, at cross_pairs (read through xb)
    hists: dict = field(default_factory=dict)  # hist_columns' column -> counts of values 0, 1, 2, ... (per game)
    examples: dict = field(default_factory=dict)  # end condition -> first game indices
    # z of the run's intervals: 1.96 for 95%, more when a stopped run looked several times (see stopping.py)
    z: float = 1.959963984540054

    def __post_init__(self):
        k = len(self.names)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.sums = np.zeros(k, dtype=np.int64)
        self.xtx = np.zeros((k, k), dtype=np.int64)
        if self.pairs is None:
            self.pairs = [(a, b) for i, a in enumerate(self.names) for b in self.names[i:]]
        pairs = np.unique(np.sort(self._indices(self.pairs, self.index, self.index), axis=1), axis=0)
        self._pairs = pairs[pairs[:, 0] != pairs[:, 1]]  # the squares are folded apart, for every column
        c = int(self.spec[fold.SP_GAME_COLS])
        if self.hist_columns is None:
            self.hist_columns = self.names[:c]
        self._hist_cols = np.array(sorted({self.index[name] for name in self.hist_columns}), dtype=np.int64)
        assert (self._hist_cols < c).all(), "histograms are kept of game columns only"
        self.folded = np.eye(k, dtype=bool)
        self.folded[self._pairs[:, 0], self._pairs[:, 1]] = True
        self.folded[self._pairs[:, 1], self._pairs[:, 0]] = True
        self.cross_pairs = None  # (a, b) names, a of this group, b of the baseline (set_baseline)
        self._hist_width = 64  # the width of the next chunk's histogram table (grows: see add)
        self.chunk_hists = {}  # the last chunk's histograms

    @staticmethod
    def _indices(pairs, index_a, index_b):
        return np.array([(index_a[a], index_b[b]) for a, b in pairs], dtype=np.int64).reshape(-1, 2)

    def set_baseline(self, base: "Summary", cross_pairs=None):
        """Fold cross products with base's rows of the same deals at cross_pairs ((a, b) names, a of this
        group, b of base; None: every pair)."""
        if cross_pairs is None:
            cross_pairs = [(a, b) for a in self.names for b in base.names]
        self.cross_pairs = cross_pairs
        self._cross = np.unique(self._indices(cross_pairs, self.index, base.index), axis=0)
        self.cross = np.zeros((len(self.names), len(base.names)), dtype=np.int64)
        self.cross_folded = np.zeros(self.cross.shape, dtype=bool)
        self.cross_folded[self._cross[:, 0], self._cross[:, 1]] = True

    def add(self, outs: np.ndarray, base: "Summary | None" = None, base_outs: np.ndarray | None = None):
        """Fold in a chunk: outs holds the group's result rows (rotations x deals x game columns);
        base and base_outs, the baseline group's summary and rows of the same deals."""
        parts = self.new_parts(base)
        self.fold_block(parts, outs, base, base_outs)
        self.add_parts(parts, outs.shape[1])

    def new_parts(self, base: "Summary | None" = None) -> "FoldParts":
        """Empty sums for a chunk's blocks to be folded into (with base: its cross products too)."""
        if base is not None and self.cross_pairs is None:
            self.set_baseline(base)
        k = len(self.names)
        # the histograms' width is known only after the pass: guess the last chunks' widest (twice, to grow)
        return FoldParts(np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64),
                         np.zeros(len(self._pairs), dtype=np.int64),
                         np.zeros(len(self._cross) if base is not None else 0, dtype=np.int64),
                         np.zeros((len(self._hist_cols), self._hist_width), dtype=np.int64))

    def fold_block(self, parts: "FoldParts", outs, base: "Summary | None" = None, base_outs=None):
        """Add the rows of some deals (rotations x deals x game columns) to parts: thread-safe (nogil), so the
        game threads fold the deals they have just played."""
        if outs.shape[1] == 0:
            return
        cross_pairs = self._cross if base is not None else self._pairs[:0]
        low, high = fold.fold_rows(outs, self.spec, outs if base is None else base_outs,
                                   self.spec if base is None else base.spec, base is not None, self._pairs,
                                   cross_pairs, self._hist_cols, parts.sums, parts.squares, parts.pair_sums,
                                   parts.cross_sums, parts.hist)
        parts.low = min(parts.low, low)
        parts.high = max(parts.high, high)
        if high >= parts.hist.shape[1]:
            parts.widen(self._hist_cols, outs, high)

    def add_parts(self, parts: "FoldParts", n):
        """Add the folded parts of a chunk of n deals."""
        if n == 0:
            return
        if parts.low < 0:  # (tests/test_conformance.py checks every column of every game)
            raise ValueError(f"a game result column holds {parts.low}: result columns must be non-negative")
        self._hist_width = max(self._hist_width, parts.hist.shape[1])
        hist = parts.hist[:, :parts.high + 1]  # (as wide as the chunk's largest histogram value)
        self.n += n
        self.sums += parts.sums
        self.xtx[np.diag_indices(len(self.names))] += parts.squares
        a, b = self._pairs[:, 0], self._pairs[:, 1]
        self.xtx[a, b] += parts.pair_sums
        self.xtx[b, a] = self.xtx[a, b]
        if len(parts.cross_sums):
            self.cross[self._cross[:, 0], self._cross[:, 1]] += parts.cross_sums
        self.chunk_hists = {self.names[col]: hist[h] for h, col in enumerate(self._hist_cols)}  # (for examples)
        for name, counts in self.chunk_hists.items():
            self.add_hist(name, counts)

    def merge(self, other: "Summary"):
        """Add the summary of other games of the same group (disjoint game indices)."""
        self.n += other.n
        self.sums += other.sums
        self.xtx += other.xtx
        if other.cross is not None:
            if self.cross is None:
                self.cross, self.cross_pairs, self._cross = other.cross.copy(), other.cross_pairs, other._cross
                self.cross_folded = other.cross_folded
            else:
                self.cross += other.cross
        for name, counts in other.hists.items():
            self.add_hist(name, counts)
        for code, indices in other.examples.items():
            self.examples[code] = sorted(set(self.examples.get(code, [])) | set(indices))[:EXAMPLES]

    def add_hist(self, name: str, counts: np.ndarray):
        old = self.hists.get(name)
        if old is None:
            self.hists[name] = counts.copy()
        else:
            if len(counts) > len(old):
                old, counts = counts.copy(), old
            old[:len(counts)] += counts
            self.hists[name] = old

    def xx(self, ia, ib):
        """Sum over deals of column ia x column ib (indices)."""
        if not self.folded[ia, ib]:
            raise KeyError(f"the products of {self.names[ia]} and {self.names[ib]} were not folded: "
                           "add the pair to analyzer.metrics.folded_pairs")
        return int(self.xtx[ia, ib])

    def xb(self, ia, ib):
        """Sum over deals of column ia x the baseline's column ib (indices), over the same deals."""
        if self.cross is None or not self.cross_folded[ia, ib]:
            raise KeyError(f"the products of {self.names[ia]} with the baseline's column {ib} were not folded: "
                           "add the pair to analyzer.metrics.cross_pairs")
        return int(self.cross[ia, ib])

    def col(self, name):
        return self.index[name]

    def s(self, name):
        return int(self.sums[self.index[name]])

    def ss(self, a, b=None):
        return self.xx(self.index[a], self.index[b or a])


@dataclass
class GroupResult:
    label: str
    players: int
    rotations: int
    arms: list
    summary: Summary
    reference: "GroupResult | None" = None  # the group its paired differences are taken from


@dataclass
class RunResult:
    scenario: Scenario
    groups: list[GroupResult]
    games: int  # deals played (each by every arm)
    partial: bool
    wall: float
    threads: int
    chunk_size: int
    parquet: list[str] = field(default_factory=list)
    games_requested: int | None = None
    metric_sums: np.ndarray | None = None  # sweeps: the target metric's per-deal sum per group...
    metric_xtx: np.ndarray | None = None  # ...and cross products between all groups (paired comparisons)
    stopped_by: int | None = None  # the signal that stopped a partial run
    workers: int = 0  # Dask worker processes (0: played in this process)
    task_seconds: list = field(default_factory=list)  # with workers: each task's time on its worker
    stop_reason: str | None = None  # with [stop]: why the run stopped where it did

    @property
    def games_per_second(self):
        plays = self.games * len(self.scenario.arms)
        return plays / self.wall if self.wall > 0 else float("nan")


def group_columns(game, players, rotations):
    """(game columns, every column of the group's per-deal rows): see analyzer.fold for their meaning.

    credit_s: seat s's share of the win x CREDIT (k winning seats get CREDIT // k each: partners of a
    winning team split its credit); solo_s: seat s's team (in a game without teams: seat s) won alone;
    shared: two or more teams (players) tied for the win; no_winner: nobody won (a stall);
    tcredit_t: team t's credit; pcredit_j: the credit of the policy that sits at seat j in rotation 0,
    wherever it sits in the other rotations; pseat_j_s: its credit when it sits at seat s."""
    base = game.columns(players)
    teams = game.teams(players)
    extra = [f"credit_{s}" for s in range(players)] + [f"solo_{s}" for s in range(players)] + ["shared", "no_winner"]
    if teams:
        extra += [f"tcredit_{t}" for t in range(len(teams))]
    if rotations > 1:
        extra += [f"pcredit_{j}" for j in range(players)]
        extra += [f"pseat_{j}_{s}" for j in range(players) for s in range(players)]
    return base, base + extra


def slug(text):
    """text as a file-name fragment: lower case, runs of other characters as one '-'."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def unique_slugs(labels):
    """A distinct file-name fragment per label (labels that slug alike get -2, -3, ...)."""
    out, seen = [], set()
    for label in labels:
        base = slug(label) or "group"
        name, k = base, 1
        while name in seen:
            k += 1
            name = f"{base}-{k}"
        seen.add(name)
        out.append(name)
    return out


def warm_up(sc: Scenario):
    """Compile (or load from the cache) the game's kernels and the fold by playing game 0 once and
    folding it into a throwaway summary, so that timings start with the first game played."""
    arm = sc.arms[0]
    players = len(arm.seats)
    out = np.empty((1, 1, len(sc.game.columns(players))), dtype=np.int64)
    sc.game.run_batch(arm.encoded(sc.game), sc.seed, 0, out[0])
    cols, names = group_columns(sc.game, players, 1)
    spec = fold.group_spec(players, 1, len(cols), sc.game.teams(players))
    base = Summary(names, spec)
    base.add(out)
    Summary(names, spec).add(out, base, out)
    fold.column_values(out, spec, 0, np.empty(1, dtype=np.int64))


@dataclass
class ChunkColumns:
    """What a chunk keeps of its rows beyond the sums: per group, the end condition of each deal (rotation 0:
    the example games) and, in sweeps, each deal's target metric per group (deals x groups)."""

    ends: list
    metric: np.ndarray | None


@dataclass
class Tally:
    """Everything a run adds up, for a range of game indices: one Summary per group (variant, sweep
    point, pairing) and, in sweeps, the target metric's per-deal sums and cross products between all
    groups. Integer sums only, so tallies of disjoint ranges merge exactly in any order."""

    summaries: list
    refs: list  # per group: the index of the group its cross products are taken with, or None
    metric_col: str | None = None
    metric_sums: np.ndarray | None = None
    metric_xtx: np.ndarray | None = None
    first: int = 0  # the game indices this tally holds: first .. first + n - 1
    n: int = 0

    def fold(self, outs, first):
        """Add a chunk: outs[g] is group g's rows (rotations x deals x game columns) of games first.."""
        n = outs[0].shape[1]
        parts, columns = self.new_parts(), self.chunk_columns(n)
        self.fold_block(parts, columns, outs, 0, n)
        self.commit(first, n, parts, columns)

    def new_parts(self):
        """Per group, empty FoldParts for blocks of a chunk to be folded into (fold_block)."""
        return [summary.new_parts(None if ref is None else self.summaries[ref])
                for summary, ref in zip(self.summaries, self.refs)]

    def chunk_columns(self, n):
        """What a chunk of n deals keeps of its rows beyond the sums, filled block by block (fold_block)."""
        return ChunkColumns([np.empty(n, dtype=np.int64) for _ in self.summaries],
                            np.empty((n, len(self.summaries)), dtype=np.int64) if self.metric_col else None)

    def fold_block(self, parts, columns, outs, lo, hi):
        """Fold deals lo..hi-1 of a chunk into parts (new_parts, this thread's) and columns (chunk_columns,
        the chunk's): outs[g] holds group g's rows of those deals (rotations x hi - lo x game columns).
        Any thread may fold any block."""
        for gi, (summary, ref, g_parts, g_outs) in enumerate(zip(self.summaries, self.refs, parts, outs)):
            if ref is None:
                summary.fold_block(g_parts, g_outs)
            else:
                summary.fold_block(g_parts, g_outs, self.summaries[ref], outs[ref])
            columns.ends[gi][lo:hi] = g_outs[0, :, summary.col("end")]
            if self.metric_col:
                fold.column_values(g_outs, summary.spec, summary.col(self.metric_col), columns.metric[lo:hi, gi])

    def commit(self, first, n, parts, columns):
        """Add a chunk of n games first.. whose every deal is folded into parts and columns: its sums,
        histograms, example games and (sweeps) target metric."""
        if self.n == 0:
            self.first = first
        assert first == self.first + self.n, "a tally holds one contiguous range of games"
        for summary, g_parts, ends in zip(self.summaries, parts, columns.ends):
            summary.add_parts(g_parts, n)
            _add_examples(summary, ends, first)
        if self.metric_col:
            self.metric_sums += columns.metric.sum(axis=0)
            f = columns.metric.astype(np.float64)  # products of small integers: exact below 2**53 per chunk
            self.metric_xtx += np.rint(f.T @ f).astype(np.int64)
        self.n += n

    def merge(self, other: "Tally"):
        """Add the tally of the games right after this one's."""
        if other.n == 0:
            return
        assert self.n == 0 or other.first == self.first + self.n, "tallies merge in game order"
        if self.n == 0:
            self.first = other.first
        for mine, theirs in zip(self.summaries, other.summaries):
            mine.merge(theirs)
        if self.metric_col:
            self.metric_sums += other.metric_sums
            self.metric_xtx += other.metric_xtx
        self.n += other.n


def new_tally(sc: Scenario) -> Tally:
    from analyzer import metrics

    game = sc.game
    summaries, shapes = [], []
    for g in arm_groups(sc):
        players = len(g[0].seats)
        cols, names = group_columns(game, players, len(g))
        summaries.append(Summary(names, fold.group_spec(players, len(g), len(cols), game.teams(players)),
                                 metrics.folded_pairs(game, players, len(g), names),
                                 metrics.histogram_columns(game, players)))
        shapes.append((players, len(g)))
    refs = reference_groups(sc)
    for summary, shape, ref in zip(summaries, shapes, refs):
        if ref is not None:
            base = summaries[ref]
            summary.set_baseline(base, metrics.cross_pairs(game, shape, summary.names, shapes[ref], base.names))
    metric_col = sc.comparison.get("metric_column")
    k = len(summaries)
    return Tally(summaries, refs, metric_col, np.zeros(k, dtype=np.int64) if metric_col else None,
                 np.zeros((k, k), dtype=np.int64) if metric_col else None)


def reference_groups(sc: Scenario):
    """Per group, the group its paired differences are measured from: the scenario's own choice
    (comparison["refs"], e.g. a ladder's baseline variant), else the first group for every other."""
    refs = sc.comparison.get("refs")
    return list(refs) if refs is not None else [None] + [0] * (len(sc.groups) - 1)


def arm_groups(sc: Scenario):
    """The arms of each group, in the scenario's group order."""
    by_group = {}
    for arm in sc.arms:
        by_group.setdefault(arm.group, []).append(arm)
    return [by_group[label] for label in sc.groups]


class ParquetRows:
    """Every game's result rows of a run, one Parquet file per group (--keep-games)."""

    def __init__(self, sc: Scenario, folder):
        import pyarrow as pa
        import pyarrow.parquet as pq

        game = sc.game
        Path(folder).mkdir(parents=True, exist_ok=True)
        groups = arm_groups(sc)
        names = parquet_names(sc)
        self.paths, self.writers = [], []
        for arms, name in zip(groups, names):
            path = Path(folder) / f"{name}.parquet"
            self.writers.append(pq.ParquetWriter(str(path), parquet_schema(game, len(arms[0].seats))))
            self.paths.append(str(path))
        self.groups = groups

    def write(self, outs, first):
        for writer, arms, g_outs in zip(self.writers, self.groups, outs):
            for arm, out in zip(arms, g_outs):
                writer.write_table(parquet_table(out, first, arm.rotation, writer.schema))

    def close(self):
        for w in self.writers:
            w.close()


def parquet_names(sc):
    """games, or games-<variant> per group (distinct even where labels slug alike)."""
    return ["games"] if len(sc.groups) == 1 else [f"games-{x}" for x in unique_slugs(sc.groups)]


def parquet_schema(game, players):
    import pyarrow as pa

    cols = [pa.field("game", pa.int64()), pa.field("rotation", pa.int64())]
    return pa.schema(cols + [pa.field(c, pa.int64()) for c in game.columns(players)])


def parquet_table(out, first, rotation, schema):
    import pyarrow as pa

    n = out.shape[0]
    arrays = [pa.array(np.arange(first, first + n, dtype=np.int64)), pa.array(np.full(n, rotation, dtype=np.int64))]
    arrays += [pa.array(out[:, c]) for c in range(out.shape[1])]
    return pa.Table.from_arrays(arrays, schema=schema)


def _group_results(sc: Scenario, tally: Tally):
    groups = [GroupResult(label, len(arms[0].seats), len(arms), arms, summary)
              for label, arms, summary in zip(sc.groups, arm_groups(sc), tally.summaries)]
    for g, ref in zip(groups, tally.refs):
        g.reference = None if ref is None else groups[ref]
    return groups


def run(sc: Scenario, *, games: int | None = None, chunk_size: int = DEFAULT_CHUNK, threads: int | None = None,
        keep_games_dir: str | Path | None = None, progress: bool = True,
        chunk_seconds: float = CHUNK_SECONDS, interrupts: Interrupts | None = None) -> RunResult:
    """Play every arm on games 0 .. games-1 (default: the scenario's) in chunks and fold the results.

    A chunk holds at most chunk_size deals and is cut to about chunk_seconds of play, so that an
    interrupt is honoured quickly; neither changes any result. Ctrl-C or SIGTERM ends the run once the
    blocks in play are played (their chunk is dropped unless every block of it was): the result is then
    partial. interrupts: the caller's, already installed (the CLI's, which go on noting signals while it
    writes the report); None: the run installs its own while it plays."""
    total = games if games is not None else sc.games
    if threads:
        numba.set_num_threads(threads)
    used_threads = numba.get_num_threads()
    tally = new_tally(sc)
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
    groups = arm_groups(sc)
    t0 = time.perf_counter()
    with nullcontext(interrupts) if interrupts is not None else Interrupts() as interrupts:
        interrupts.note_from_now()
        try:
            with Committer(tally, rows) as commits, \
                    ThreadPoolExecutor(used_threads, thread_name_prefix="play") as pool:
                while played < total and interrupts.signal is None and not looks.stopped:
                    n = min(size, total - played, looks.next_checkpoint(played) - played)
                    started = time.perf_counter()
                    # the previous chunk is being committed meanwhile, on another thread
                    chunk = play_and_fold(sc, groups, tally, played, n, interrupts, rows is not None,
                                          buffers.next_set(), pool if used_threads > 1 else None)
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
    return RunResult(sc, _group_results(sc, tally), done, done < total and not looks.stopped, wall, used_threads,
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
            self.rows.write(chunk.rows, first)
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
        if self.rule:
            for summary in tally.summaries:
                summary.z = self.rule.z()

    def look(self, done, tally, bar=None):
        """At a checkpoint: decide whether the answer is known; say how far it is on the progress bar."""
        if done not in self.checkpoints:
            return
        from analyzer import stopping

        self.prepare(tally)
        stop, words = stopping.check(self.sc, _group_results(self.sc, tally), done, done == self.checkpoints[-1])
        if bar is not None:
            bar.set_postfix_str(words)
        if stop:
            self.stopped, self.reason = True, words


def progress_bar(sc, total):
    from tqdm import tqdm

    return tqdm(total=total, unit=" deals", unit_scale=True, delay=2.0, leave=False, desc=f"{sc.name}",
                dynamic_ncols=True)


def _add_examples(summary, ends, first):
    """Keep the first EXAMPLES game indices of every end condition (ends: each deal's, rotation 0)."""
    # the chunk's end conditions over every rotation, from the fold ("end" is always a histogram column:
    # metrics.histogram_columns)
    for code in np.flatnonzero(summary.chunk_hists["end"]):
        got = summary.examples.get(int(code), [])
        if len(got) < EXAMPLES:
            idx = np.flatnonzero(ends == code)[:EXAMPLES - len(got)]
            if len(idx):  # (none when the code ended games of other rotations only)
                summary.examples[int(code)] = got + [int(first + i) for i in idx]
