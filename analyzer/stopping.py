"""Adaptive stopping: play until the answer is known, at a fixed schedule of looks.

A scenario's `[stop]` table:

    [stop]
    max_games = 10_000_000    # required: never more deals than this
    min_games = 20_000        # first look (default 10,000)
    precision = 0.25          # stop once every key metric's 95% interval is at most this wide each way
    until = "decided"         # comparisons: stop once every variant's difference from the baseline
    equivalence = 0.5         #   excludes zero or lies inside +-equivalence
    metric = "first_player_edge"   # comparisons: the metric whose differences decide (default)

Looks happen only at checkpoints min_games, 2 x min_games, 4 x ..., and max_games: numbers of games,
so a stopped run is reproducible whatever the threads, chunks or workers. Looking K times at a 95%
interval would cover less than 95%; so every interval of a stopped run (the whole report's) is a
Bonferroni interval at level 1 - 0.05 / K, K being the number of scheduled looks. Each of the K looks
then errs with probability at most 0.05 / K, all of them together at most 0.05: the intervals
reported when the run stops cover the truth at least 95% of the time, whenever it stops.

Key metrics: the sweep's target at every point; in comparisons, every variant's paired difference
from the baseline on `metric`; in round-robins and strength curves, every pairing's head-to-head share (a
strength curve's `until = "decided"`: each excludes 50% or lies within +-equivalence of it); in ladders, every
rung's win share; otherwise every seat's (or team's) win share. Precision is in points for shares, else in the metric's own unit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from analyzer import metrics as M
from analyzer.errors import MISSING, ScenarioError, toml_value
from analyzer.stats import wilson

STOP_KEYS = ("max_games", "min_games", "precision", "until", "equivalence", "metric")
DEFAULT_MIN = 10_000
MIN_LOOK = 100  # the fewest deals of the first look
MAX_GAMES = 10**10  # the most deals of a run (as scenario.MAX_GAMES)


@dataclass(frozen=True)
class StopRule:
    max_games: int
    min_games: int
    precision: float | None  # as a fraction for shares (points / 100), else in the metric's unit
    until_decided: bool
    equivalence: float | None
    metric: str

    def checkpoints(self):
        """min_games, doubling, then max_games."""
        out, k = [], self.min_games
        while k < self.max_games:
            out.append(k)
            k *= 2
        return out + [self.max_games]

    def z(self):
        """The z of a two-sided interval at level 1 - 0.05 / K (Bonferroni over the K looks)."""
        return z_two_sided(0.05 / len(self.checkpoints()))


def z_two_sided(alpha):
    """z with P(|Z| > z) = alpha, by bisection on erfc (no scipy needed at run time)."""
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.erfc(mid / math.sqrt(2)) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def parse(raw, source, kind, games_given, flags=None):
    """The validated StopRule of a scenario's [stop] table (kind: single, variants, sweep, round_robin, ladder).
    games_given: the scenario's games (None: not given), which caps max_games; flags: {key: the command-line flag
    that set it}, so that an error naming another value than its own says where that value came from."""
    spec = raw.get("stop")
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise ScenarioError(source, "stop", spec, "must be a table: [stop] with max_games and precision or until")
    for k in spec:
        if k not in STOP_KEYS:
            raise ScenarioError(source, f"stop.{k}", spec[k], "unknown key; allowed: " + ", ".join(STOP_KEYS))

    def integer(key, low=MIN_LOOK):
        v = spec.get(key, MISSING)
        if v is MISSING:
            raise ScenarioError(source, f"stop.{key}", v, "is required: the most deals the run may play")
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= MAX_GAMES:
            raise ScenarioError(source, f"stop.{key}", v, f"must be an integer from {low:,} to {MAX_GAMES:,}")
        return v

    def positive(key):
        v = spec.get(key)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise ScenarioError(source, f"stop.{key}", v, "must be a number above 0")
        return float(v)

    def said(key, value):
        """key = value as the user wrote it, with the flag that set it (--set may set the whole [stop] table)."""
        flag = (flags or {}).get(key) or (flags or {}).get(key.split(".")[0])
        return f"{key} = {toml_value(value)}" + (f" ({flag})" if flag else "")

    max_written = integer("max_games")  # (at least the first look)
    max_games = max_written if games_given is None else min(max_written, games_given)
    if "min_games" in spec:
        min_games = integer("min_games")
        if min_games > max_games:
            limit = said("stop.max_games", max_written)
            if max_games < max_written:
                limit = f"{said('games', games_given)}, which caps {limit}"
            raise ScenarioError(source, "stop.min_games", min_games, f"must be at most {limit}")
    elif max_games < MIN_LOOK:  # (games caps max_games below the default first look)
        raise ScenarioError(source, "games", games_given,
                            f"must be at least {MIN_LOOK} with a [stop] table: its first look (stop.min_games, by "
                            f"default the smaller of {DEFAULT_MIN:,} and the games) is at least {MIN_LOOK} deals")
    else:
        min_games = min(DEFAULT_MIN, max_games)
    until = spec.get("until")
    if until not in (None, "decided"):
        raise ScenarioError(source, "stop.until", until, 'must be "decided" (or left out)')
    if until and kind not in ("variants", "strength"):
        raise ScenarioError(source, "stop.until", until, 'works with [[variants]] (each variant against the '
                                                         'baseline) and [strength] (each pairing against an even '
                                                         'share) only; use precision otherwise')
    precision, equivalence = positive("precision"), positive("equivalence")
    if precision is None and until is None:
        raise ScenarioError(source, "stop", spec, 'needs precision = ... or until = "decided"')
    if until and equivalence is None:
        raise ScenarioError(source, "stop.equivalence", MISSING,
                            'is required with until = "decided": the margin inside which a difference does not '
                            'matter (e.g. 0.5 points)')
    metric = spec.get("metric", "first_player_edge")
    if not isinstance(metric, str):
        raise ScenarioError(source, "stop.metric", metric, "must be a metric name, e.g. \"first_player_edge\"")
    return StopRule(max_games, min_games, precision, bool(until), equivalence, metric)


def key_intervals(sc, groups):
    """[(label, value, lo, hi, metric)] of the key metrics of a run so far (groups: GroupResults)."""
    kind = sc.comparison.get("kind")
    out = []
    if kind == "sweep":
        key = sc.comparison["metric"]
        for g in groups:
            m = M.sweep_metric_for(sc.game, g.players, g.rotations, key) or M.Metric(key, key, sc.comparison["metric_column"])
            out.append((g.label, *M.value_ci(m, g.summary, g.rotations), m))
    elif kind == "variants":
        base = groups[0]
        for g in groups[1:]:
            m = M.metric_for(sc.game, g.players, g.rotations, sc.stop.metric)
            bm = M.metric_for(sc.game, base.players, base.rotations, sc.stop.metric)
            out.append((f"{g.label} vs {base.label}, {m.label}", *M.diff_ci(m, g.summary, g.rotations, base.summary,
                                                                   base.rotations, base_metric=bm), m))
    elif kind == "strength":  # a pairing's head-to-head share, minus an even 50%
        out += strength_intervals(sc, groups)
    elif kind in ("round_robin", "ladder"):  # a pairing's head-to-head share, a rung's share
        for g in groups:
            m = M.Metric("policy_share_0", "win share of the policy of seat 0", "pcredit_0", scale=1 / M.CREDIT,
                         percent=True)
            out.append((g.label, *M.value_ci(m, g.summary, g.rotations), m))
    else:
        for g in groups:
            for u in M.win_units(sc.game, g.players):
                out.append((f"{g.label}: {u.name}" if len(groups) > 1 else u.name,
                            *M.value_ci(u.share, g.summary, g.rotations), u.share))
    return out


PAIRING = M.Metric("pairing", "head-to-head share minus an even 50%", "pcredit_0", percent=True, points=True)


def strength_intervals(sc, groups):
    """[(label, share - 50%, lo - 50%, hi - 50%, metric)] of every pairing of a [strength] run: the weaker rung's
    share of its games against the stronger (a game nobody won: half), Wilson intervals at the run's z on the
    pairing's effective games (metrics.effective_games)."""
    labels = sc.comparison["rungs"]
    wins, games, var = M.pairwise_counts(groups, sc.comparison["pairs"], len(labels))
    eff = M.effective_games(wins, games, var)
    z = groups[0].summary.z if groups else 1.96
    out = []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            share = wins[i, j] / games[i, j] if games[i, j] else math.nan
            _, lo, hi = wilson(share * eff[i, j], eff[i, j], z) if games[i, j] else (math.nan,) * 3
            out.append((f"{labels[i]} vs {labels[j]}", share - 0.5, lo - 0.5, hi - 0.5, PAIRING))
    return out


def active_groups(sc, groups):
    """A strength curve's groups still to play at a look (None for any other run: every group plays on): a
    pairing stops once settled, decided (until) or known to +-precision, while the others play on. Its summary
    keeps the deals it played; its interval stays a Bonferroni interval over the run's looks."""
    if sc.comparison.get("kind") != "strength" or sc.stop is None:
        return None
    rule = sc.stop
    labels = sc.comparison["rungs"]
    pairs = [(i, j) for i in range(len(labels)) for j in range(i + 1, len(labels))]
    settled = {}
    for pair, row in zip(pairs, strength_intervals(sc, groups)):
        _, _, lo, hi, metric = row
        if rule.until_decided:
            settled[pair] = _decided(row, rule.equivalence)
        else:
            settled[pair] = not math.isnan(lo) and (hi - lo) / 2 * unit(metric) <= rule.precision
    return [not settled[(min(a, b), max(a, b))] for a, b in sc.comparison["pairs"]]


def unit(metric):
    """Precision and equivalence are in points for rates and shares, else in the metric's unit."""
    return 100.0 if metric.percent else 1.0


def check(sc, groups, games, last):
    """(stop now?, the reason in words) at a checkpoint of `games` deals (last: the final checkpoint)."""
    rule = sc.stop
    rows = key_intervals(sc, groups)
    widest = max(rows, key=lambda r: (r[3] - r[2]) / 2 * unit(r[4]) if not math.isnan(r[2]) else math.inf)
    half = (widest[3] - widest[2]) / 2 * unit(widest[4])
    if rule.until_decided:
        undecided = [r[0] for r in rows if not _decided(r, rule.equivalence)]
        if not undecided:
            what = "pairing" if sc.comparison.get("kind") == "strength" else "variant"
            return True, f"every {what} decided after {games:,} deals"
        if last:
            return True, (f"max_games reached after {games:,} deals; still undecided: {', '.join(undecided)}")
        return False, f"{len(undecided)} undecided"
    if rule.precision is not None and not math.isnan(half) and half <= rule.precision:
        return True, f"precision {rule.precision:g} reached after {games:,} deals (widest: {widest[0]}, ±{half:.3g})"
    if last:
        return True, (f"max_games reached after {games:,} deals; {widest[0]}'s interval is still ±{half:.3g} "
                      f"wide (wanted ±{rule.precision:g})")
    return False, f"widest ±{half:.3g}, wanted ±{rule.precision:g}"


def _decided(row, equivalence):
    _, d, lo, hi, metric = row
    if math.isnan(lo):
        return False
    lo, hi = lo * unit(metric), hi * unit(metric)
    return lo > 0 or hi < 0 or (-equivalence <= lo and hi <= equivalence)
