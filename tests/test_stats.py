import math

import numpy as np
import pytest

from analyzer.stats import edge_verdict, mean_ci, paired_diff_ci, ratio_ci, unpaired_diff_ci, wilson


def test_wilson_textbook_values():
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605
    _, lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    _, lo, hi = wilson(15, 148)
    assert (round(lo, 4), round(hi, 4)) == (0.0624, 0.1605)
    # 0 successes still gives a non-degenerate upper bound (Newcombe: 0/20 -> 0 to 0.1611)
    assert wilson(0, 20)[2] == pytest.approx(0.1611, abs=1e-4)


@pytest.mark.parametrize("n", [1, 7, 200, 263, 10_000, 123_457])
def test_wilson_interval_contains_its_estimate_at_zero_and_all(n):
    """0 of 200 gave a lower bound of 1.7e-18 by rounding, above the estimate 0: a negative error bar that
    made matplotlib refuse the report's plot."""
    for k in (0, n):
        p, lo, hi = wilson(k, n)
        assert lo <= p <= hi and 0.0 <= lo and hi <= 1.0


def test_mean_ci_matches_direct_computation():
    x = np.array([3, 5, 8, 1, 2, 9, 4], dtype=float)
    m, lo, hi = mean_ci(x.sum(), (x * x).sum(), len(x))
    se = x.std(ddof=1) / math.sqrt(len(x))
    assert m == pytest.approx(x.mean()) and hi - m == pytest.approx(1.959963984540054 * se)


def test_paired_difference_by_hand():
    a = np.array([5, 7, 6, 9], dtype=float)
    b = np.array([4, 7, 5, 7], dtype=float)
    # differences 1, 0, 1, 2: mean 1, sd sqrt(2/3), se sqrt(2/3)/2
    d, lo, hi = paired_diff_ci(a.sum(), b.sum(), (a * a).sum(), (b * b).sum(), (a * b).sum(), 4)
    assert d == pytest.approx(1.0)
    assert hi - d == pytest.approx(1.959963984540054 * math.sqrt(2 / 3) / 2)


def test_paired_interval_is_narrower_than_unpaired_on_correlated_data():
    rng = np.random.default_rng(0)
    base = rng.normal(10, 3, 5000)
    a, b = base + rng.normal(0.1, 0.5, 5000), base
    p = paired_diff_ci(a.sum(), b.sum(), (a * a).sum(), (b * b).sum(), (a * b).sum(), 5000)
    u = unpaired_diff_ci(a.sum(), b.sum(), (a * a).sum(), (b * b).sum(), 5000)
    assert p[0] == pytest.approx(u[0])
    assert (p[2] - p[1]) < 0.3 * (u[2] - u[1])


def test_ratio_ci_against_resampling_formula():
    rng = np.random.default_rng(1)
    y = rng.integers(5, 15, 4000).astype(float)
    x = rng.binomial(y.astype(int), 0.4).astype(float)
    r, lo, hi = ratio_ci(x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum(), 4000)
    resid = x - r * y
    se = resid.std(ddof=1) / math.sqrt(4000) / y.mean()
    assert r == pytest.approx(x.sum() / y.sum())
    assert hi - r == pytest.approx(1.959963984540054 * se, rel=1e-6)


def test_verdicts_say_what_the_interval_says():
    assert "no detectable edge" in edge_verdict("Seat 0", 0.251, 0.248, 0.254, 0.25)
    v = edge_verdict("Seat 0", 0.281, 0.278, 0.284, 0.25)
    assert "3.1 points more often" in v and "real edge" in v and "+2.8 to +3.4" in v


def test_an_edge_that_rounds_to_zero_reads_plus_zero_not_minus_zero():
    """Identical policies rotated give an interval of a rounding error either side around an even share: the
    Fight Song ladder's report read "95% CI -0.0 to +0.0 points"."""
    v = edge_verdict("Team of seats 0+2", 0.5, 0.5 - 1e-12, 0.5 + 1e-12, 0.5)
    assert "95% CI +0.0 to +0.0 points" in v and "-0.0" not in v
    # a real handicap whose interval ends just below zero says so
    v = edge_verdict("Seat 2", 0.249, 0.248, 0.2496, 0.25)
    assert "95% CI -0.2 to -0.04 points): a real handicap" in v
