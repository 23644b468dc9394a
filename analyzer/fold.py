"""Folding a chunk of result rows into a group's summary, in numba.

A group's per-deal row is its arms' result columns summed over seat rotations, followed by the win
credits the report needs (see `group_columns` for the names and `reference_rows` in
tests/test_comparisons.py for a definition in numpy):

    game columns (c) | credit_s (n) | solo_s (n) | shared | no_winner | tcredit_t (teams)
    | pcredit_j (n) | pseat_j_s (n x n)            <- with seat rotations only

`fold_rows` builds that row for every deal of the chunk (and, for a group compared to the
baseline, the baseline's row of the same deal) and adds it to exact int64 sums, histograms and the
cross products of the column pairs the report's intervals read (`metrics.folded_pairs`: each column
with itself, the columns of each metric with each other: 61 of the 861 pairs of a four-player Noize
row). Every total is an integer sum, so the result does not depend on how the deals are split between
threads or chunks.
"""
import numpy as np
from numba import njit

from analyzer import jit_setup  # noqa: F401  (numba set up before the fold's kernels compile)

CREDIT = 840  # a shared win among k seats gives each CREDIT // k (exact for k <= 8)
# CREDIT // k for k = 0 (nobody won: no credit is given, the table's value is never multiplied by a win) .. 8,
# looked up: an integer division per deal and rotation cost more than the rest of a row
SHARE = np.array([CREDIT] + [CREDIT // k for k in range(1, 9)], dtype=np.int64)

# layout of a group's spec array (int64): sizes, then the unit (team or seat) of every seat and the
# first seat of every unit
SP_PLAYERS, SP_ROTATIONS, SP_GAME_COLS, SP_UNITS, SP_TEAM_COLS, SP_SEAT_UNIT = range(6)


def group_columns(game, players, rotations):
    """(game columns, every column of the group's per-deal rows), in the layout above.

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


def group_spec(players, rotations, game_cols, teams):
    """The int64 array fold_rows reads for a group: players, rotations, game columns, units, whether
    team credit columns exist, then unit of each seat and first seat of each unit."""
    units = teams or [(s,) for s in range(players)]
    unit_of = [0] * players
    for u, seats in enumerate(units):
        for s in seats:
            unit_of[s] = u
    return np.array([players, rotations, game_cols, len(units), 1 if teams else 0] + unit_of
                    + [seats[0] for seats in units], dtype=np.int64)


@njit(cache=True)
def build_row(outs, i, spec, row):
    """The per-deal row of deal i of a group (outs: rotations x deals x game columns) into row."""
    n = spec[SP_PLAYERS]
    rot = spec[SP_ROTATIONS]
    c = spec[SP_GAME_COLS]
    units = spec[SP_UNITS]
    team_cols = spec[SP_TEAM_COLS]
    unit_first = SP_SEAT_UNIT + n  # spec offset of the first seat of each unit
    # (the game columns assigned, not zeroed and added to, and the credits added without branches on who
    # won: 42 -> 37 ns a four-player Noize deal with its sums)
    for k in range(c):
        row[k] = outs[0, i, k]
    for r in range(1, rot):
        for k in range(c):
            row[k] += outs[r, i, k]
    for k in range(c, row.shape[0]):
        row[k] = 0
    o_credit = c
    o_solo = c + n
    o_shared = c + 2 * n
    o_none = o_shared + 1
    o_team = o_none + 1
    o_pcredit = o_team + (units if team_cols else 0)
    o_pseat = o_pcredit + n
    for r in range(rot):
        n_win = outs[r, i, n]
        share = SHARE[n_win]
        units_won = 0
        for u in range(units):
            units_won += outs[r, i, spec[unit_first + u]]
        row[o_shared] += units_won > 1
        row[o_none] += n_win == 0
        solo = units_won == 1
        for s in range(n):
            won = outs[r, i, s]
            credit = won * share
            row[o_credit + s] += credit
            row[o_solo + s] += won * solo
            if team_cols:
                row[o_team + spec[SP_SEAT_UNIT + s]] += credit
            if rot > 1:
                # in rotation r, the policy of seat j (rotation 0) sits at seat (j + r) % n
                j = (s - r) % n
                row[o_pcredit + j] += credit
                row[o_pseat + j * n + s] += credit


@njit(cache=True)
def column_values(outs, spec, column, dest):
    """dest[i] = column `column` of the per-deal row of deal i (a sweep's target metric)."""
    row = np.empty(_width(spec), dtype=np.int64)
    for i in range(outs.shape[1]):
        build_row(outs, i, spec, row)
        dest[i] = row[column]


@njit(cache=True)
def _width(spec):
    n, rot, c, units, team_cols = spec[0], spec[1], spec[2], spec[3], spec[4]
    return c + 2 * n + 2 + (units if team_cols else 0) + ((n + n * n) if rot > 1 else 0)


FEW_VALUES = 8  # count_values counts a block's column value by value when it holds fewer values than this
BLOCK = 64  # deals whose rows fold_rows holds column by column (fewer for wide rows: they stay in L1)


@njit(cache=True)
def block_columns(outs, start, m, spec, row, cols, share, units_won):
    """cols[k, i] = column k of the per-deal row of deal start + i, for i < m (row: build_row's scratch;
    share, units_won: scratch of a block's length).

    A group of one arm (most groups) is built without build_row: its game columns copied deal by deal, then
    its credits column by column, in loops over the block's deals that the compiler vectorises. The same
    values at about half the cost (a Noize block: 23-35 -> 12-19 ns a deal): build_row's per-deal loops over
    seats and units were most of it."""
    if spec[SP_ROTATIONS] > 1:
        for i in range(m):
            build_row(outs, start + i, spec, row)
            for k in range(row.shape[0]):
                cols[k, i] = row[k]
        return
    n = spec[SP_PLAYERS]
    c = spec[SP_GAME_COLS]
    units = spec[SP_UNITS]
    unit_first = SP_SEAT_UNIT + n  # spec offset of the first seat of each unit
    for i in range(m):
        for k in range(c):
            cols[k, i] = outs[0, start + i, k]
    o_credit = c
    o_solo = c + n
    o_shared = c + 2 * n
    o_team = o_shared + 2
    for i in range(m):
        share[i] = SHARE[cols[n, i]]  # (column n is n_winners: analyzer.games.base)
        units_won[i] = 0
    for u in range(units):
        first = spec[unit_first + u]
        for i in range(m):
            units_won[i] += cols[first, i]
    for i in range(m):
        cols[o_shared, i] = units_won[i] > 1
        cols[o_shared + 1, i] = cols[n, i] == 0
    for s in range(n):
        for i in range(m):
            cols[o_credit + s, i] = cols[s, i] * share[i]
            cols[o_solo + s, i] = cols[s, i] * (units_won[i] == 1)
    if spec[SP_TEAM_COLS]:
        for u in range(units):
            for i in range(m):
                cols[o_team + u, i] = 0
        for s in range(n):
            team = o_team + spec[SP_SEAT_UNIT + s]
            for i in range(m):
                cols[team, i] += cols[o_credit + s, i]


@njit(cache=True)
def column_products(x, a, y, b, m):
    """The sum of x[a, i] x y[b, i] over the block's first m deals."""
    total = 0
    for i in range(m):
        total += x[a, i] * y[b, i]
    return total


@njit(cache=True)
def count_values(values, m, counts):
    """counts[v] += 1 for each of values[:m]; returns their smallest and largest (a value outside counts
    is not counted: the caller counts again)."""
    lo = hi = values[0]
    for i in range(m):
        lo = min(lo, values[i])
        hi = max(hi, values[i])
    if lo < 0 or hi >= counts.shape[0]:  # (a value beyond the guessed width)
        for i in range(m):
            if 0 <= values[i] < counts.shape[0]:
                counts[values[i]] += 1
    elif hi - lo < FEW_VALUES:
        # a column of few values is counted value by value, in vectorised passes: an increment per deal
        # waits for the last one whenever two deals in a row have the same value
        for v in range(lo, hi + 1):
            same = 0
            for i in range(m):
                same += values[i] == v
            counts[v] += same
    else:
        for i in range(m):
            counts[values[i]] += 1
    return lo, hi


@njit(cache=True, nogil=True)
def fold_rows(outs, spec, base_outs, base_spec, with_base, pairs, cross_pairs, hist_cols, sums, squares, pair_sums,
              cross_sums, hist):
    """Add every deal of a chunk to a group's sums and squares (every column), the products of the other
    column pairs it keeps (pairs: a, b column indices; pair_sums[p] += row[a] x row[b]), the products with
    the baseline's row of the same deal (cross_pairs: a of this group's row, b of the baseline's; only when
    with_base) and the histograms of the game columns hist_cols over all rotations (hist: hist_cols x
    values). Integer sums, so no split of the deals changes any of them. nogil: each play thread folds
    the blocks it has played (analyzer.chunks).

    The rows are folded BLOCK deals at a time, held column by column (block_columns), so that every sum
    is a loop over one column that the compiler vectorises. A four-player Noize deal, folded deal by deal
    before: 75 -> 41 ns in a chunk of 100,000 deals, 74 -> 27 ns in a chunk that is still in the cache.

    Returns the smallest and the largest value of the histogram columns, found while counting them. A value
    beyond hist is not counted: the caller counts those in a wider table (summary.FoldParts.widen)."""
    width = sums.shape[0]
    base_width = _width(base_spec) if with_base else 0
    block = BLOCK if width + base_width <= 64 else BLOCK // 2  # (64 x 64 x 8 bytes: half of L1)
    row = np.empty(width, dtype=np.int64)
    cols = np.empty((width, block), dtype=np.int64)
    base_row = np.empty(base_width, dtype=np.int64)
    base_cols = np.empty((base_width, block), dtype=np.int64)
    share = np.empty(block, dtype=np.int64)
    units_won = np.empty(block, dtype=np.int64)
    values = np.empty(block, dtype=np.int64)
    low = high = 0
    for start in range(0, outs.shape[1], block):
        m = min(block, outs.shape[1] - start)
        block_columns(outs, start, m, spec, row, cols, share, units_won)
        for k in range(width):
            total = 0
            total_sq = 0
            for i in range(m):
                v = cols[k, i]
                total += v
                total_sq += v * v
            sums[k] += total
            squares[k] += total_sq
        for p in range(pairs.shape[0]):
            pair_sums[p] += column_products(cols, pairs[p, 0], cols, pairs[p, 1], m)
        if with_base:
            block_columns(base_outs, start, m, base_spec, base_row, base_cols, share, units_won)
            for p in range(cross_pairs.shape[0]):
                cross_sums[p] += column_products(cols, cross_pairs[p, 0], base_cols, cross_pairs[p, 1], m)
        for h in range(hist_cols.shape[0]):
            col = hist_cols[h]
            if outs.shape[0] == 1:  # one rotation: the block's column, in cache
                lo, hi = count_values(cols[col], m, hist[h])
                low = min(low, lo)
                high = max(high, hi)
            else:  # every rotation's own values
                for r in range(outs.shape[0]):
                    for i in range(m):
                        values[i] = outs[r, start + i, col]
                    lo, hi = count_values(values, m, hist[h])
                    low = min(low, lo)
                    high = max(high, hi)
    return low, high
