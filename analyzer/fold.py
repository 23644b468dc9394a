"""Folding a chunk of result rows into a group's summary, in numba.

A group's per-deal row is its arms' result columns summed over seat rotations, followed by the win
credits the report needs (see `runner.group_columns` for the names and `reference_rows` in
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

CREDIT = 840  # a shared win among k seats gives each CREDIT // k (exact for k <= 8)
# CREDIT // k for k = 0 (nobody won: no credit is given, the table's value is never multiplied by a win) .. 8,
# looked up: an integer division per deal and rotation cost more than the rest of a row
SHARE = np.array([CREDIT] + [CREDIT // k for k in range(1, 9)], dtype=np.int64)

# layout of a group's spec array (int64): sizes, then the unit (team or seat) of every seat and the
# first seat of every unit
SP_PLAYERS, SP_ROTATIONS, SP_GAME_COLS, SP_UNITS, SP_TEAM_COLS, SP_SEAT_UNIT = range(6)


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


@njit(cache=True, nogil=True)
def fold_rows(outs, spec, base_outs, base_spec, with_base, pairs, cross_pairs, hist_cols, sums, squares, pair_sums,
              cross_sums, hist):
    """Add every deal of a chunk to a group's sums and squares (every column), the products of the other
    column pairs it keeps (pairs: a, b column indices; pair_sums[p] += row[a] x row[b]), the products with
    the baseline's row of the same deal (cross_pairs: a of this group's row, b of the baseline's; only when
    with_base) and the histograms of the game columns hist_cols over all rotations (hist: hist_cols x
    values). Integer sums, so no split of the deals changes any of them. nogil: the commit thread folds
    while the game threads play the next chunk.

    Returns the smallest and the largest value of the histogram columns, found while counting them (a pass
    of its own over the chunk, which has left the cache by now, cost a tenth of the fold). A value beyond
    hist is not counted: the caller then counts the histograms again, in a table that fits."""
    row = np.empty(sums.shape[0], dtype=np.int64)
    base_row = np.empty(_width(base_spec) if with_base else 0, dtype=np.int64)
    low = high = 0
    cap = hist.shape[1]
    for i in range(outs.shape[1]):
        build_row(outs, i, spec, row)
        for k in range(row.shape[0]):  # (vectorised: the squares cost next to nothing here)
            sums[k] += row[k]
            squares[k] += row[k] * row[k]
        for p in range(pairs.shape[0]):
            pair_sums[p] += row[pairs[p, 0]] * row[pairs[p, 1]]
        if with_base:
            build_row(base_outs, i, base_spec, base_row)
            for p in range(cross_pairs.shape[0]):
                cross_sums[p] += row[cross_pairs[p, 0]] * base_row[cross_pairs[p, 1]]
        for r in range(outs.shape[0]):
            for h in range(hist_cols.shape[0]):
                v = outs[r, i, hist_cols[h]]
                low = min(low, v)
                high = max(high, v)
                if 0 <= v < cap:
                    hist[h, v] += 1
    return low, high
