"""Intervals and plain-words verdicts. Every rate in a report comes with a 95% interval from here.

- Wilson score interval for a proportion (k successes in n trials).
- Normal interval for a per-game mean, from the sum and sum of squares.
- Delta-method interval for a ratio of sums (e.g. challenges won per challenge).
- Paired interval for the difference of two means measured on the same games (common random
  numbers): the variance of the per-game difference, from sums, sums of squares and cross products.
"""
import math

Z95 = 1.959963984540054


def wilson(k, n, z=Z95):
    """(p, lo, hi) for k successes out of n trials."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # at k = 0 or k = n the bound that should equal p misses it by a rounding error (1.7e-18 above 0 at
    # 0 of 200): the interval must contain p, or a plot's error bar below it would be negative
    return (p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def mean_ci(s, ss, n, z=Z95):
    """(mean, lo, hi) of a per-game quantity from its sum s and sum of squares ss over n games."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    m = s / n
    if n < 2:
        return (m, math.nan, math.nan)
    var = max(0.0, (ss - s * s / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def ratio_ci(sx, sy, sxx, syy, sxy, n, z=Z95):
    """(R, lo, hi) for R = sum(x) / sum(y) over n games, by the delta method."""
    if n <= 0 or sy == 0:
        return (math.nan, math.nan, math.nan)
    r = sx / sy
    if n < 2:
        return (r, math.nan, math.nan)
    mx, my = sx / n, sy / n
    # variance of the per-game residual x - r*y, divided by my^2
    var_res = (sxx - 2 * r * sxy + r * r * syy - n * (mx - r * my) ** 2) / (n - 1)
    half = z * math.sqrt(max(0.0, var_res) / n) / abs(my)
    return (r, r - half, r + half)


def paired_diff_ci(sa, sb, saa, sbb, sab, n, z=Z95):
    """(mean(a - b), lo, hi) for two quantities measured on the same n games."""
    return mean_ci(sa - sb, saa - 2 * sab + sbb, n, z)


def unpaired_diff_ci(sa, sb, saa, sbb, n, z=Z95):
    """The same difference as if the two samples were independent (for comparison only)."""
    ma, la, _ = mean_ci(sa, saa, n, z)
    mb, lb, _ = mean_ci(sb, sbb, n, z)
    half = math.hypot(ma - la, mb - lb)
    return (ma - mb, ma - mb - half, ma - mb + half)


def excludes(value, lo, hi):
    return not (math.isnan(lo) or math.isnan(hi)) and (hi < value or lo > value)


def pct(x, digits=1):
    return "n/a" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def pts(x, digits=1):
    """A difference of two rates, in percentage points."""
    return "n/a" if math.isnan(x) else f"{100 * x:+.{digits}f}"


DEFAULT_MARGIN = 0.005  # a win-share difference smaller than half a point does not matter in practice


def margin_words(lo, hi, margin, unit_fmt):
    """Whether a difference with 95% interval [lo, hi] matters, against a practical margin (same units)."""
    m = unit_fmt(margin).lstrip("+")
    if lo > margin or hi < -margin:
        return f"larger than the practical margin of {m}: it matters"
    if -margin <= lo and hi <= margin:
        if lo > 0 or hi < 0:
            return f"but within the practical margin of {m}: too small to matter"
        return f"within the practical margin of {m} either way: no difference that matters"
    if lo > 0 or hi < 0:
        return f"possibly beyond the practical margin of {m}: more deals would tell"
    return (f"the interval still reaches beyond the practical margin of {m}, so a difference that matters is not "
            f"ruled out; more deals would tell")


def signed_points(x):
    """x (a share) in points with its sign and one decimal, or as many more (up to four) as it takes not to
    round to zero, so that a bound just below zero reads -0.04, not -0.0; only a rounding error (below
    0.00005 points) reads +0.0."""
    v = 100 * x
    for digits in (1, 2, 3, 4):
        if round(v, digits) != 0:
            return f"{v:+.{digits}f}"
    return "+0.0"


def edge_verdict(subject, share, lo, hi, even, even_words="an even share", margin=DEFAULT_MARGIN):
    """Plain words on a seat's (or policy's) win share against an even share, and whether it matters."""
    diff, dlo, dhi = share - even, lo - even, hi - even
    ci = f"95% CI {signed_points(dlo)} to {signed_points(dhi)} points"
    if math.isnan(lo):
        return f"{subject} wins {pct(share)} of the time (too few games for an interval)."
    matters = margin_words(dlo, dhi, margin, lambda x: f"{100 * x:.1f} points")
    if not excludes(even, lo, hi):
        return (f"{subject} wins {pct(share)}, within noise of {even_words} ({pct(even)}; {ci}): "
                f"no detectable edge; {matters}.")
    word = "more" if diff > 0 else "less"
    size = "a real edge" if diff > 0 else "a real handicap"
    return (f"{subject} wins {abs(100 * diff):.1f} points {word} often than {even_words} "
            f"({pct(share)} vs {pct(even)}; {ci}): {size}, {matters}.")


def p_value(d, lo, hi, z=Z95):
    """Two-sided p-value of a difference from its normal interval of half-width z standard errors."""
    se = (hi - lo) / (2 * z)
    if math.isnan(se):
        return math.nan
    if se == 0:
        return 1.0 if d == 0 else 0.0
    return math.erfc(abs(d) / se / math.sqrt(2))


def holm(pvalues, alpha=0.05):
    """Holm's step-down: which of the tests stay significant with the family-wise error held at alpha."""
    order = sorted((p, i) for i, p in enumerate(pvalues) if not math.isnan(p))
    keep = [False] * len(pvalues)
    m = len(order)
    for rank, (p, i) in enumerate(order):
        if p > alpha / (m - rank):
            break
        keep[i] = True
    return keep


def difference_verdict(what, diff, lo, hi, unit_fmt, more="more", less="less", margin=None):
    """Plain words on a paired difference: e.g. 'shuffling ... by 1.8 rounds, 95% CI 1.7 to 1.9'; with a
    practical margin, also whether it matters."""
    if math.isnan(lo):
        return f"{what}: {unit_fmt(diff)} (no interval)"
    ci = f"95% CI {unit_fmt(lo)} to {unit_fmt(hi)}"
    tail = "" if margin is None else "; " + margin_words(lo, hi, margin, unit_fmt)
    if not excludes(0.0, lo, hi):
        return f"{what}: no detectable difference ({unit_fmt(diff)}, {ci}){tail}"
    return f"{what}: {more if diff > 0 else less} by {unit_fmt(abs(diff)).lstrip('+')} ({ci}){tail}"
