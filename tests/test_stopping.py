"""Adaptive stopping: looks only at checkpoints, intervals that keep the 95% promise under those looks,
a run that stops at the first checkpoint where the wanted precision is reached, reproducibly."""
import copy
import math

import numba
import numpy as np
import pytest

from analyzer import stopping
from analyzer.runner import run
from analyzer.scenario import from_dict
from analyzer.stats import mean_ci

RAW = {"game": "noize", "seed": 21, "players": 3, "all_seats": {"policy": "threshold"},
       "stop": {"max_games": 64_000, "min_games": 2_000, "precision": 1.5}}


def test_checkpoints_double_up_to_the_cap_and_widen_the_intervals():
    rule = from_dict(RAW).stop
    assert rule.checkpoints() == [2_000, 4_000, 8_000, 16_000, 32_000, 64_000]
    assert rule.z() == pytest.approx(2.638, abs=0.01)  # two-sided 0.05 / 6


def coverage(z, looks, runs=3000, equivalence=0.02, seed=5):
    """Share of runs whose interval at the look where they stopped covers the true mean (0): a paired
    difference of two fair coins, stopped as soon as it is 'decided' (real, or within +-equivalence)."""
    rng = np.random.default_rng(seed)
    n_max = looks[-1]
    diffs = (rng.integers(0, 2, (runs, n_max), dtype=np.int8) - rng.integers(0, 2, (runs, n_max), dtype=np.int8))
    # the sums of the differences and of their squares (|d|: d is -1, 0 or 1) at the looks only, a segment between
    # two looks at a time: whole running sums of every run were 2.5 GB to fault in (5 s of system time)
    s = np.zeros((runs, len(looks)), dtype=np.int64)
    ss = np.zeros((runs, len(looks)), dtype=np.int64)
    for j, (a, b) in enumerate(zip([0] + looks[:-1], looks)):
        s[:, j] = (s[:, j - 1] if j else 0) + diffs[:, a:b].sum(axis=1, dtype=np.int64)
        ss[:, j] = (ss[:, j - 1] if j else 0) + np.abs(diffs[:, a:b]).sum(axis=1, dtype=np.int64)
    covered = 0
    for r in range(runs):
        for j, k in enumerate(looks):
            m, lo, hi = mean_ci(s[r, j], ss[r, j], k, z)
            if lo > 0 or hi < 0 or (-equivalence <= lo and hi <= equivalence) or k == n_max:
                covered += lo <= 0 <= hi
                break
    return covered / runs


def test_stopped_intervals_cover_the_truth_at_least_95_percent_of_the_time():
    raw = copy.deepcopy(RAW)
    raw["stop"] = {"max_games": 25_600, "min_games": 100, "precision": 1.0}
    rule = from_dict(raw).stop
    looks = rule.checkpoints()
    got = coverage(rule.z(), looks)
    error = 2 * math.sqrt(0.95 * 0.05 / 3000)
    assert got >= 0.95 - error, f"Bonferroni-widened intervals covered only {got:.3f}"
    # the same looks with ordinary 95% intervals do not keep the promise (so the test can fail)
    assert coverage(1.959963984540054, looks) < 0.95 - error


def widest(sc, result):
    rows = stopping.key_intervals(sc, result.groups)
    return max((hi - lo) / 2 * stopping.unit(m) for _, v, lo, hi, m in rows)


def test_a_run_stops_at_the_first_checkpoint_where_the_precision_is_reached():
    sc = from_dict(RAW)
    before = numba.get_num_threads()
    try:
        one = run(from_dict(RAW), progress=False, threads=1, chunk_size=777)
        two = run(from_dict(RAW), progress=False, threads=min(2, numba.config.NUMBA_NUM_THREADS))
    finally:
        numba.set_num_threads(before)
    assert one.games == two.games and (one.groups[0].summary.sums == two.groups[0].summary.sums).all()
    assert not one.partial and "precision 1.5 reached after" in one.stop_reason
    stop_at = one.games
    checkpoints = sc.stop.checkpoints()
    assert stop_at in checkpoints and stop_at < checkpoints[-1]
    assert widest(sc, one) <= 1.5
    plain = {k: v for k, v in RAW.items() if k != "stop"}
    for k in checkpoints[:checkpoints.index(stop_at)]:
        earlier = run(from_dict({**plain, "games": k}), progress=False)
        for g in earlier.groups:
            g.summary.z = sc.stop.z()
        assert widest(sc, earlier) > 1.5, f"the precision was already reached at {k:,} deals"


def test_until_decided_stops_when_every_variant_is_decided(tmp_path):
    raw = {**RAW, "variants": [{"name": "rulebook"}, {"name": "shuffle", "rules": {"shuffle_each_round": True}}],
           "stop": {"max_games": 16_000, "min_games": 2_000, "until": "decided", "equivalence": 3.0}}
    result = run(from_dict(raw), progress=False)
    assert "every variant decided after" in result.stop_reason and not result.partial
    from analyzer.report import write_report

    write_report(result, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "When the run stopped" in md and "Bonferroni" in md and result.stop_reason in md
