"""Folding a chunk of result rows into a group's summary, in numba.

A group's per-deal row is its arms' result columns summed over seat rotations, followed by the win
credits the report needs (see `runner.group_columns` for the names and `runner._group_rows` for the
reference definition in numpy):

    game columns (c) | credit_s (n) | solo_s (n) | shared | no_winner | tcredit_t (teams)
    | pcredit_j (n) | pseat_j_s (n x n)            <- with seat rotations only

`fold_group` builds that row for every deal of the chunk (and, for a group compared to the
baseline, the baseline's row of the same deal) and adds it to exact int64 sums, cross products and
histograms. Every total is an integer sum, so the result does not depend on how the deals are split
between threads, blocks or chunks.
"""
import numpy as np
from numba import njit

from analyzer.threads import run_in_blocks

CREDIT = 840  # a shared win among k seats gives each CREDIT // k (exact for k <= 8)
PARTS = 32  # the integer fold: deals are folded in this many parts (on threads), then the parts are added up
BLOCK = 2048  # deals per block of rows multiplied in float64 (BLAS)
EXACT = 2 ** 53  # float64 holds every integer below this exactly

# layout of a group's spec array (int64): sizes, then the unit (team or seat) of every seat and the
# first seat of every unit
SP_PLAYERS, SP_ROTATIONS, SP_GAME_COLS, SP_UNITS, SP_TEAM_COLS, SP_SEAT_UNIT = range(6)


def group_spec(players, rotations, game_cols, teams):
    """The int64 array fold_group reads for a group: players, rotations, game columns, units, whether
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
    for k in range(row.shape[0]):
        row[k] = 0
    o_credit = c
    o_solo = c + n
    o_shared = c + 2 * n
    o_none = o_shared + 1
    o_team = o_none + 1
    o_pcredit = o_team + (units if team_cols else 0)
    o_pseat = o_pcredit + n
    for r in range(rot):
        for k in range(c):
            row[k] += outs[r, i, k]
        n_win = outs[r, i, n]
        share = CREDIT // max(n_win, 1)
        units_won = 0
        for u in range(units):
            units_won += outs[r, i, spec[unit_first + u]]
        if units_won > 1:
            row[o_shared] += 1
        if n_win == 0:
            row[o_none] += 1
        for s in range(n):
            won = outs[r, i, s]
            credit = won * share
            row[o_credit + s] += credit
            if units_won == 1:
                row[o_solo + s] += won
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


@njit(cache=True)
def _nonzero(row, idx, val):
    """The nonzero entries of row: their columns into idx and values into val; returns how many."""
    k = 0
    for j in range(row.shape[0]):
        if row[j] != 0:
            idx[k] = j
            val[k] = row[j]
            k += 1
    return k


@njit(cache=True, inline="always")
def _u(i):
    """i as an unsigned index: numba then drops its test for negative (from-the-end) indices, which
    costs as much as the multiply-add in the cross-product loops."""
    return np.uint64(i)


@njit(cache=True, nogil=True)
def fold_parts(outs, spec, base_outs, base_spec, with_base, p_lo, p_hi, part_sums, part_xtx, part_cross, part_hist):
    """Fold parts p_lo .. p_hi - 1 of a chunk's deals (PARTS parts of about equal size), each into its own
    row of part_sums, part_xtx (upper triangle, flat), part_cross (flat) and part_hist. nogil: threads
    fold different parts at once (analyzer.threads), and alongside the games of the next chunk."""
    n_deals = outs.shape[1]
    width = part_sums.shape[1]
    base_width = part_cross.shape[1] // width  # 0 without a baseline
    c = spec[SP_GAME_COLS]
    row = np.empty(width, dtype=np.int64)
    idx = np.empty(width, dtype=np.int64)
    val = np.empty(width, dtype=np.int64)
    base_row = np.empty(base_width, dtype=np.int64)
    base_idx = np.empty(base_width, dtype=np.int64)
    base_val = np.empty(base_width, dtype=np.int64)
    for p in range(p_lo, p_hi):
        # cross products as flat (row-major) arrays: the inner loops then index them with one add
        ps = part_sums[p]
        px = part_xtx[p]
        pc = part_cross[p]
        ph = part_hist[p]
        for i in range(p * n_deals // PARTS, (p + 1) * n_deals // PARTS):
            build_row(outs, i, spec, row)
            nz = _nonzero(row, idx, val)
            for a in range(nz):
                va = val[a]
                ps[idx[a]] += va
                at = idx[a] * width
                for b in range(a, nz):
                    px[_u(at + idx[_u(b)])] += va * val[_u(b)]
            if with_base:
                build_row(base_outs, i, base_spec, base_row)
                nzb = _nonzero(base_row, base_idx, base_val)
                for a in range(nz):
                    va = val[a]
                    at = idx[a] * base_width
                    for b in range(nzb):
                        pc[_u(at + base_idx[_u(b)])] += va * base_val[_u(b)]
            for r in range(outs.shape[0]):
                for k in range(c):
                    ph[k, outs[r, i, k]] += 1


@njit(cache=True, nogil=True)
def add_parts(part_sums, part_xtx, part_cross, part_hist, with_base, sums, xtx, cross, hist):
    """Add the parts up: sums += parts' sums, and so on (xtx: the upper triangle only)."""
    width = sums.shape[0]
    base_width = cross.shape[1]
    for p in range(part_sums.shape[0]):
        for a in range(width):
            sums[a] += part_sums[p, a]
            for b in range(a, width):
                xtx[a, b] += part_xtx[p, a * width + b]
            if with_base:
                for b in range(base_width):
                    cross[a, b] += part_cross[p, a * base_width + b]
        for k in range(hist.shape[0]):
            for v in range(hist.shape[1]):
                hist[k, v] += part_hist[p, k, v]


def fold_group(outs, spec, base_outs, base_spec, with_base, high, wins, sums, xtx, cross, hist):
    """Add every deal of a chunk to a group's sums, upper-triangle cross products (xtx, symmetrised by
    the caller), cross products with the baseline's row of the same deal (when with_base) and the
    histograms of its game columns over all rotations (hist: columns x values). high, wins: the largest
    value in outs and in its win columns (value_range). Every total is an exact integer, so no split of
    the deals changes any of them.

    The cross products are float64 matrix products (BLAS) of blocks of rows: a block's products and
    their sums are integers below 2**53, hence exact, whatever order BLAS adds them in. That is about
    three times faster than adding the products of a row's nonzero entries one by one, which is kept
    for rows too large for any exact block (fold_parts, on numba.get_num_threads() threads)."""
    block = exact_block(spec, high, wins)
    if with_base:
        _, base_high, base_wins = value_range(base_outs, base_spec[SP_PLAYERS])
        block = min(block, exact_block(base_spec, base_high, base_wins))
    if block == 0:
        _fold_in_integers(outs, spec, base_outs, base_spec, with_base, sums, xtx, cross, hist)
        return
    with _one_blas_thread():
        _fold_in_blocks(outs, spec, base_outs, base_spec, with_base, block, sums, xtx, cross, hist)


_blas = []  # the threadpoolctl controller, made on first use (it scans the loaded libraries)


def _one_blas_thread():
    """BLAS on one thread while folding: the game kernels use every core meanwhile, and OpenBLAS's own
    threads then made a fold 3 to 6 times slower on this 2-core machine."""
    from threadpoolctl import ThreadpoolController

    if not _blas:
        _blas.append(ThreadpoolController())
    return _blas[0].limit(limits=1, user_api="blas")


def _fold_in_blocks(outs, spec, base_outs, base_spec, with_base, block, sums, xtx, cross, hist):
    n = outs.shape[1]
    width = sums.shape[0]
    rows = np.empty((min(block, n), width))
    base_rows = np.empty((rows.shape[0], cross.shape[1])) if with_base else rows
    row = np.empty(width, dtype=np.int64)
    base_row = np.empty(cross.shape[1], dtype=np.int64)
    for lo in range(0, n, block):
        hi = min(lo + block, n)
        x = rows[:hi - lo]
        build_block(outs, spec, lo, hi, x, row, sums, hist, True)
        xtx += np.triu(np.rint(x.T @ x).astype(np.int64))
        if with_base:
            b = base_rows[:hi - lo]
            build_block(base_outs, base_spec, lo, hi, b, base_row, sums, hist, False)
            cross += np.rint(x.T @ b).astype(np.int64)


def exact_block(spec, high, wins):
    """The most deals (up to BLOCK) whose rows' cross products, with themselves or with rows of the same
    bound, sum exactly in float64 (0: not even one). A row entry is at most rotations x the largest of
    the game values (high) and the credits (CREDIT x the largest win column, wins)."""
    big = max(1, int(spec[SP_ROTATIONS]) * max(high, CREDIT * wins))
    return min(BLOCK, (EXACT - 1) // (big * big))


@njit(cache=True, nogil=True)
def value_range(outs, players):
    """(smallest value, largest value, largest value of the win columns 0 .. players-1) of a chunk's
    result rows, in one pass (numpy's min, max and a strided max took three)."""
    low = high = wins = 0
    if outs.size:
        low = high = outs[0, 0, 0]
    for r in range(outs.shape[0]):
        for i in range(outs.shape[1]):
            for k in range(players):
                wins = max(wins, outs[r, i, k])
            for k in range(outs.shape[2]):  # (a min and max reduction: LLVM vectorises it)
                low = min(low, outs[r, i, k])
                high = max(high, outs[r, i, k])
    return low, high, wins


@njit(cache=True, nogil=True)
def build_block(outs, spec, lo, hi, rows, row, sums, hist, with_totals):
    """The rows of deals lo .. hi-1 into rows[0 .. hi-lo-1] (float64); with_totals, also added to sums,
    and their game columns to hist."""
    c = spec[SP_GAME_COLS]
    for i in range(lo, hi):
        build_row(outs, i, spec, row)
        for k in range(row.shape[0]):
            rows[i - lo, k] = row[k]
        if with_totals:
            for k in range(row.shape[0]):
                sums[k] += row[k]
            for r in range(outs.shape[0]):
                for k in range(c):
                    hist[k, outs[r, i, k]] += 1


def _fold_in_integers(outs, spec, base_outs, base_spec, with_base, sums, xtx, cross, hist):
    """fold_group for rows too large for float64 blocks: int64 products of nonzero entries, in PARTS parts
    on numba.get_num_threads() threads."""
    width = sums.shape[0]
    base_width = cross.shape[1]
    part_sums = np.zeros((PARTS, width), dtype=np.int64)
    part_xtx = np.zeros((PARTS, width * width), dtype=np.int64)
    part_cross = np.zeros((PARTS, width * base_width if with_base else 0), dtype=np.int64)
    part_hist = np.zeros((PARTS,) + hist.shape, dtype=np.int64)
    run_in_blocks(fold_parts, PARTS, 1, (outs, spec, base_outs, base_spec, with_base),
                  (part_sums, part_xtx, part_cross, part_hist))
    add_parts(part_sums, part_xtx, part_cross, part_hist, with_base, sums, xtx, cross, hist)
