"""What a run adds up: exact streaming summaries of each group's per-deal rows.

A group's per-deal rows (its arms' columns summed over rotations, plus win credits: analyzer.fold) are
folded into a `Summary`: sums, cross products and histograms, all exact integers, so the summaries are
identical whatever the chunk size, thread count or number of Dask workers, and memory does not grow with
the number of games. A chunk's blocks are folded into `FoldParts` on the threads that played them
(analyzer.chunks) and join their Summary when the chunk is committed; a `Tally` holds every group's Summary
for a range of game indices (and, in sweeps, the target metric's sums), and tallies of disjoint ranges merge.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer import fold, metrics
from analyzer.comparisons import arm_groups, reference_groups
from analyzer.configs import Scenario
from analyzer.fold import group_columns

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
    # sweeps: per group, the target's ((column, weight), ...) (metrics.target_terms): a deal's target is their sum
    metric_terms: list | None = None
    metric_sums: np.ndarray | None = None
    metric_xtx: np.ndarray | None = None
    first: int = 0  # the game indices this tally holds: first .. first + n - 1
    n: int = 0
    # the groups still played (None: all). A group a [stop] rule has settled (a strength curve's decided
    # pairing) keeps the summary of the deals it played; its summary's n then stays below the tally's.
    active: list | None = None

    def plays(self, gi):
        return self.active is None or self.active[gi]

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

    def chunk_bytes_per_deal(self):
        """The bytes chunk_columns keeps per deal."""
        return 8 * len(self.summaries) * (2 if self.metric_terms else 1)

    def chunk_columns(self, n):
        """What a chunk of n deals keeps of its rows beyond the sums, filled block by block (fold_block)."""
        return ChunkColumns([np.empty(n, dtype=np.int64) for _ in self.summaries],
                            np.empty((n, len(self.summaries)), dtype=np.int64) if self.metric_terms else None)

    def fold_block(self, parts, columns, outs, lo, hi):
        """Fold deals lo..hi-1 of a chunk into parts (new_parts, this thread's) and columns (chunk_columns,
        the chunk's): outs[g] holds group g's rows of those deals (rotations x hi - lo x game columns).
        Any thread may fold any block."""
        for gi, (summary, ref, g_parts, g_outs) in enumerate(zip(self.summaries, self.refs, parts, outs)):
            if not self.plays(gi):
                continue
            if ref is None:
                summary.fold_block(g_parts, g_outs)
            else:
                summary.fold_block(g_parts, g_outs, self.summaries[ref], outs[ref])
            columns.ends[gi][lo:hi] = g_outs[0, :, summary.col("end")]
            if self.metric_terms:
                (col, weight), *more = self.metric_terms[gi]
                target = columns.metric[lo:hi, gi]
                fold.column_values(g_outs, summary.spec, summary.col(col), target)
                if weight != 1:
                    target *= weight
                for col, weight in more:  # (an even share's no_winner: edge targets only)
                    values = np.empty(hi - lo, dtype=np.int64)
                    fold.column_values(g_outs, summary.spec, summary.col(col), values)
                    target += weight * values

    def commit(self, first, n, parts, columns):
        """Add a chunk of n games first.. whose every deal is folded into parts and columns: its sums,
        histograms, example games and (sweeps) target metric."""
        if self.n == 0:
            self.first = first
        assert first == self.first + self.n, "a tally holds one contiguous range of games"
        for gi, (summary, g_parts, ends) in enumerate(zip(self.summaries, parts, columns.ends)):
            if self.plays(gi):
                summary.add_parts(g_parts, n)
                add_examples(summary, ends, first)
        if self.metric_terms:
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
        if self.metric_terms:
            self.metric_sums += other.metric_sums
            self.metric_xtx += other.metric_xtx
        self.n += other.n


def new_tally(sc: Scenario) -> Tally:
    """An empty Tally of the scenario's groups: each group's Summary keeps the column pairs, histograms and
    cross products with its reference group that the metrics read (analyzer.metrics)."""
    game = sc.game
    summaries, shapes = [], []
    strength = sc.comparison.get("kind") == "strength"  # (its pairings' shares: metrics.pairwise_counts)
    for g in arm_groups(sc):
        players = len(g[0].seats)
        share_of = range(0, players, 2) if strength else None
        cols, names = group_columns(game, players, len(g))
        summaries.append(Summary(names, fold.group_spec(players, len(g), len(cols), game.teams(players)),
                                 metrics.folded_pairs(game, players, len(g), names, share_of),
                                 metrics.histogram_columns(game, players)))
        shapes.append((players, len(g)))
    refs = reference_groups(sc)
    for summary, shape, ref in zip(summaries, shapes, refs):
        if ref is not None:
            base = summaries[ref]
            summary.set_baseline(base, metrics.cross_pairs(game, shape, summary.names, shapes[ref], base.names))
    metric_terms = None
    if sc.comparison.get("metric_column"):  # a sweep's target: its column, or an edge's two (metrics.target_terms)
        metric_terms = []
        for players, rotations in shapes:
            m = metrics.sweep_metric_for(game, players, rotations, sc.comparison["metric"])
            adjusted = m is not None and m.adjust is not None
            metric_terms.append(metrics.target_terms(m) if adjusted else ((sc.comparison["metric_column"], 1),))
    k = len(summaries)
    return Tally(summaries, refs, metric_terms, np.zeros(k, dtype=np.int64) if metric_terms else None,
                 np.zeros((k, k), dtype=np.int64) if metric_terms else None)


def add_examples(summary, ends, first):
    """Keep the first EXAMPLES game indices of every end condition (ends: each deal's, rotation 0)."""
    # the chunk's end conditions over every rotation, from the fold ("end" is always a histogram column:
    # metrics.histogram_columns)
    for code in np.flatnonzero(summary.chunk_hists["end"]):
        got = summary.examples.get(int(code), [])
        if len(got) < EXAMPLES:
            idx = np.flatnonzero(ends == code)[:EXAMPLES - len(got)]
            if len(idx):  # (none when the code ended games of other rotations only)
                summary.examples[int(code)] = got + [int(first + i) for i in idx]
