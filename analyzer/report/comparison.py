"""Report sections for comparisons: variants side by side, sweeps, round-robins.

Differences between a group and the baseline (the first variant) are paired: both played the very
same deals, so the interval comes from the per-deal differences."""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from analyzer import margins
from analyzer import metrics as M
from analyzer.errors import toml_value
from analyzer.fold import CREDIT
from analyzer.games.base import Histogram
from analyzer.report import figures
from analyzer.report.blocks import Details, Figure, Heading, Table, Text, lit
from analyzer.report.sections import ci_text, edge_text, group_sections, is_generic, quantiles, seat_text
from analyzer.stats import pct, difference_verdict, edge_verdict, holm, margin_words, mean_ci, p_value, signed_points


def comparison_sections(result, out):
    kind = result.scenario.comparison.get("kind")
    if kind == "sweep":
        return sweep_sections(result, out)
    if kind == "round_robin":
        return round_robin_sections(result, out)
    if kind == "ladder":
        return ladder_sections(result, out)
    return variant_sections(result, out)


def _common_metrics(result):
    """Metrics every group has, in the order of the baseline's list."""
    game = result.scenario.game
    base = result.groups[0]
    out = []
    for m in M.standard_metrics(game, base.players, base.rotations):
        if all(M.has(g.summary, m) for g in result.groups):
            out.append(m)
    return out


def own(result, g, metric):
    """The group's own definition of a metric (its even share depends on its player count)."""
    return M.metric_for(result.scenario.game, g.players, g.rotations, metric.key) or metric


def value(result, g, metric):
    return M.value_ci(own(result, g, metric), g.summary, g.rotations)


def diff(result, g, base, metric):
    return M.diff_ci(own(result, g, metric), g.summary, g.rotations, base.summary, base.rotations,
                     base_metric=own(result, base, metric))


def comparable_metrics(result):
    """Metrics worth a row in the side-by-side table (per-seat shares only when seat counts agree; the
    no-winner rate only when some game had no winner)."""
    same_players = len({g.players for g in result.groups}) == 1
    keep = []
    for m in _common_metrics(result):
        if m.key.startswith(("win_share_", "policy_share_", "team_share_", "pair_share_")) and not same_players:
            continue
        if all(g.summary.s(m.num) == 0 for g in result.groups):
            continue  # nothing to compare: e.g. no stall, no shared win, a human-error option left off
        keep.append(m)
    return keep


def shared_label(result, metric):
    """A metric's label that holds for every group (with and without teams, the first player's edge
    is a seat's or a team's)."""
    labels = {own(result, g, metric).label for g in result.groups}
    if len(labels) == 1:
        return metric.label
    if metric.key == "first_player_edge":
        return "Seat 0 (plays first), or its team where partners play: win share minus an even share"
    return metric.label


def lower_first(label):
    """'Seat 0 ...' -> 'seat 0 ...', but 'Fight Song rounds' stays (a capital in a name is kept)."""
    words = label.split(" ", 1)
    if len(words) == 2 and words[1][:1].isupper():
        return label
    return label[:1].lower() + label[1:]


def axis_label(metric):
    """A plot axis for a metric: points for differences of rates, % for rates, else its name."""
    return "points" if metric.points else "%" if metric.percent else metric.label


def is_share(metric):
    """A win-share metric (its differences are judged against the practical margin)."""
    return metric.key == "first_player_edge" or metric.key.startswith(("win_share_", "policy_share_", "team_share_", "pair_share_"))


@dataclass
class Change:
    """A variant's paired difference from the baseline in one metric, with its practical margin and verdict."""
    metric: M.Metric
    label: str  # the metric's label for this variant (its even share may differ from the baseline's)
    d: float
    lo: float
    hi: float
    margin: float
    verdict: margins.Verdict


def classified_differences(result, g, base):
    """Every comparable metric's paired difference of g from base, with its margin's verdict (analyzer/margins.py)."""
    out = []
    for m in comparable_metrics(result):
        d, lo, hi = diff(result, g, base, m)
        margin = margins.margin_of(result.scenario.margins, m)
        out.append(Change(m, own(result, g, m).label, d, lo, hi, margin, margins.verdict(d, lo, hi, margin)))
    return out


SHOWN_CHANGES = 5  # differences that matter said in words per variant; the rest are in the folded table


def importance(change):
    """How a difference that matters ranks for a designer: who wins first (the first player's edge, then any
    share), then the game's length, then the largest against its margin."""
    key = change.metric.key
    kind = 0 if key == "first_player_edge" else 1 if is_share(change.metric) else 2 if key == "length" else 3
    return kind, -abs(change.d) / change.margin


def variant_sections(result, out):
    groups = result.groups
    base = groups[0]
    game = result.scenario.game
    b = [Heading("Variants compared")]
    rows = []
    variants = result.scenario.raw.get("variants", [])
    for i, g in enumerate(groups):
        over = variants[i] if i < len(variants) else {}
        change = (", ".join(f"{k} = {toml_value(v)}" for k, v in _flatten(over).items() if k != "name")
                  or "(the scenario as written)")
        rows.append([g.label + (" (baseline)" if i == 0 else ""), change, g.players])
    b.append(Table(["variant", "changes", "players"], rows,
                   "Every variant played the very same deals (same seed and game indices, same shuffles), so "
                   "differences are measured game by game."))
    metrics = comparable_metrics(result)
    b.append(Heading(f"What changed from the baseline ({base.label})", 3))
    changes = {g.label: classified_differences(result, g, base) for g in groups[1:]}
    for g in groups[1:]:
        mattering = sorted((c for c in changes[g.label] if c.verdict.word == margins.MATTERS), key=importance)
        for c in mattering[:SHOWN_CHANGES]:
            b.append(Text(difference_verdict(f"{lit(g.label)} (against {lit(base.label)}): {lower_first(c.label)}", c.d,
                                             c.lo, c.hi, c.metric.fmt_diff, margin=c.margin), "verdict"))
        small = [c for c in changes[g.label] if c.verdict.word == margins.BELOW]
        unseen = len(changes[g.label]) - len(mattering) - len(small)
        shown = f" (the {SHOWN_CHANGES} that weigh most above)" if len(mattering) > SHOWN_CHANGES else ""
        b.append(Text(f"{lit(g.label)}: {len(mattering) or 'no'} metric{'s' if len(mattering) != 1 else ''} changed by "
                      f"more than {'their' if len(mattering) != 1 else 'its'} practical margin{shown}; {len(small)} by "
                      f"less (real, but too small to matter); {unseen} not detectably. Every difference is in the "
                      f"table \"Every difference\" below."))
    b.append(Heading("First-player advantage in each variant", 3))
    for g in groups:
        first = M.win_units(game, g.players)[0]
        d, lo, hi = M.value_ci(first.edge, g.summary, g.rotations)
        verdict = edge_text(f"{lit(g.label)}: {first.name}", first.edge, g.summary, g.rotations,
                            len(M.win_units(game, g.players)), result.scenario.margin)
        b.append(Text(verdict, "verdict" if margins.verdict(d, lo, hi, result.scenario.margin).word == margins.MATTERS
                      else "p"))
    # plots side by side
    edge = next(m for m in metrics if m.key == "first_player_edge")
    vals = [value(result, g, edge) for g in groups]
    first = M.win_units(game, base.players)[0].name.split(" (")[0]
    path = figures.bars_with_ci(out / "variants_first_player.png", [g.label for g in groups], *zip(*vals),
                                f"The edge of {first} (plays first) over an even share, by variant", "points (95% CI)",
                                reference=0.0, ref_label="even", margin=result.scenario.margin)
    b.append(Figure(path, f"{edge.label}, with 95% intervals (an even share: 1 / {'teams' if game.teams(base.players) else 'players'} "
                          f"of the games that had a winner); the shaded band is the practical margin."))
    if len({g.players for g in groups}) == 1:
        units = M.win_units(game, base.players)
        who = "team" if game.teams(base.players) else "seat"
        series = []
        for g in groups:
            v = [M.value_ci(u.edge, g.summary, g.rotations) for u in M.win_units(game, g.players)]
            series.append((g.label, [x[0] for x in v], [x[1] for x in v], [x[2] for x in v]))
        path = figures.bars_with_ci(out / "variants_win_share.png", [u.name.split(" (")[0] for u in units], None, None,
                                    None, f"Win share minus an even share, by {who} and variant", "points (95% CI)",
                                    reference=0.0, ref_label="even share", groups=series, margin=result.scenario.margin)
        b.append(Figure(path, f"Win share minus an even share by {who}, variants side by side, in points with 95% "
                              f"intervals; the shaded band is the practical margin."))
    path = figures.histograms(out / "variants_length.png", [(g.label, g.summary.hists["length"]) for g in groups],
                            f"{game.length_label.capitalize()} per game by variant", game.length_label)
    rows = [[g.label] + quantiles(g.summary.hists["length"]) for g in groups]
    b.append(Details(f"Game length by variant: {game.length_label} per game, distribution and percentiles", [
        Figure(path, f"Distribution of {game.length_label} per game, variants side by side."),
        Table(["variant", "5th pct", "25th pct", "median", "75th pct", "95th pct"], rows)]))
    b.append(Details("Side by side: every metric in every variant", [Table(
        ["metric"] + [g.label for g in groups],
        [[shared_label(result, m)] + [ci_text(m, *value(result, g, m)) for g in groups] for m in metrics],
        "Each value with its 95% interval.")]))
    b.append(Details("Every difference from the baseline, with its interval and verdict", _differences_table(
        result, groups, changes)))
    more = _small_distributions(result)  # (the game's own metrics by variant: in the side-by-side table above)
    if more:
        b.append(Details(f"{game.title}'s own distributions by variant", more))
    b.append(Details(f"The baseline in detail: {base.label}", group_sections(result, base, out, prefix=base.label)))
    return b


def _differences_table(result, groups, changes):
    """The table of every paired difference, with the margin's verdict and Holm's adjustment."""
    tested = [(g, c) for g in groups[1:] for c in changes[g.label]]
    adjusted = holm([p_value(c.d, c.lo, c.hi, g.summary.z) for g, c in tested])
    rows = [[g.label, c.label, c.metric.fmt_diff(c.d), f"{c.metric.fmt_diff(c.lo)} to {c.metric.fmt_diff(c.hi)}",
             c.metric.fmt_diff(c.margin).lstrip("+"), c.verdict.word, "yes" if keep else "no"]
            for (g, c), keep in zip(tested, adjusted)]
    real = sum(1 for _, c in tested if c.verdict.word != margins.NOT_SHOWN)
    return [Table(["variant", "metric", "difference", "paired 95% CI", "practical margin", "verdict", "real after Holm"],
                  rows,
                  f"Difference = variant minus baseline. Verdict: 'matters' (the interval excludes zero and the "
                  f"difference is at least the practical margin), 'below the margin' (real, but smaller), 'not shown' "
                  f"(the interval includes zero). With {len(rows)} differences tested, about {0.05 * len(rows):.1f} "
                  f"would look real by chance alone if nothing changed; {real} do. 'Real after Holm' holds the chance "
                  f"of any false alarm in the whole table at 5%. Margins: [margins] in the scenario "
                  f"(docs/scenarios.md).")]


def _small_distributions(result):
    """For the game's histogram metrics with few values (e.g. the interval played): the share of games
    of each value, variant by variant."""
    b = []
    for decl in result.scenario.game.metrics:
        if not isinstance(decl, Histogram) or decl.column == "length":
            continue
        hists = [g.summary.hists.get(decl.column) for g in result.groups]
        if any(h is None for h in hists):
            continue
        values = sorted({v for h in hists for v in np.flatnonzero(h)})
        if not 1 < len(values) <= 12:
            continue
        rows = [[g.label] + [f"{100 * h[v] / h.sum():.1f}%" if v < len(h) else "0.0%" for v in values]
                for g, h in zip(result.groups, hists)]
        b += [Heading(f"{decl.label} by variant", 3),
              Table(["variant"] + [str(v) for v in values], rows, "Share of games with each value.")]
    return b


def _flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def sweep_metric(result, g=None):
    """The sweep's target metric for group g (default the first; an edge's even share depends on the group's
    player count): by its key (win_share_S, policy_share_J, team_share_T, first_player_edge, edge_win_share_S,
    length...), else a per-game mean of the result column it names."""
    g = result.groups[0] if g is None else g
    comp = result.scenario.comparison
    found = M.sweep_metric_for(result.scenario.game, g.players, g.rotations, comp["metric"])
    if found is not None and found.den is None and (found.num == comp["metric_column"] or found.adjust is not None):
        return found
    for m in M.standard_metrics(result.scenario.game, g.players, g.rotations):
        if m.num == comp["metric_column"] and m.den is None and not m.points:
            return m
    return M.Metric(comp["metric_column"], comp["metric_column"], comp["metric_column"])


def sweep_target(result):
    """The value the best point is closest to (goal = "zero" or a number), or None (goal = "max" or "min")."""
    return result.scenario.comparison.get("target")


def goal_words(result, metric):
    """What the best point is, in words: "highest", "lowest", "closest to zero", "closest to 25.0%"."""
    goal, target = result.scenario.comparison["goal"], sweep_target(result)
    if target is None:
        return "highest" if goal == "max" else "lowest"
    return "closest to zero" if target == 0 else f"closest to {metric.fmt(target)}"


def target_words(lo, hi, at, margin, fmt_diff):
    """What the best point's interval says about its distance from the target (lo, hi: the interval minus the
    target; margin: the practical margin, for a share or an edge, else None)."""
    if math.isnan(lo):
        return "."
    if lo <= 0 <= hi:
        words = f": its 95% interval contains {at}"
        if margin is None:
            return words + "."
        if -margin <= lo and hi <= margin:
            return words + f" and lies within the practical margin of {fmt_diff(margin).lstrip('+')}: even."
        return (words + f", but reaches beyond the practical margin of {fmt_diff(margin).lstrip('+')}: a distance "
                        f"that matters is not ruled out; more games would tell.")
    words = f": its 95% interval excludes {at}"
    if margin is None:
        return words + ": even the closest point misses it."
    if -margin <= lo and hi <= margin:
        return words + f", but lies within the practical margin of {fmt_diff(margin).lstrip('+')}: too small to matter."
    if lo > margin or hi < -margin:
        return words + f" by more than the practical margin of {fmt_diff(margin).lstrip('+')}: even the closest point " \
                       f"misses it by a distance that matters."
    return words + f"; possibly by more than the practical margin of {fmt_diff(margin).lstrip('+')}: more games would tell."


def sweep_best(result):
    """(the index of the sweep's best point, every point's target value with its interval): the highest, the
    lowest, or the closest to the target."""
    vals = [M.value_ci(sweep_metric(result, g), g.summary, g.rotations) for g in result.groups]
    values = np.array([v[0] for v in vals])
    goal, target = result.scenario.comparison["goal"], sweep_target(result)
    if target is not None:
        return int(np.nanargmin(np.abs(values - target))), vals
    return int(np.nanargmax(values) if goal == "max" else np.nanargmin(values)), vals


def sweep_gaps(result, best):
    """(the points with exactly the best's target value on every deal, [(point, d, lo, hi)] for every other: how
    far it is behind the best, paired deal by deal from the all-groups cross products of the target's per-deal
    sums (summary.Tally); lo <= 0: as good at 95%).

    With goal "max" or "min", d is the best's value minus the point's (the point's minus the best's). With a
    target (goal "zero" or a number), d is the point's distance from the target minus the best's, each distance
    taken on the side of the target where the point's estimate lies: |x - t| is not linear, but on a known side
    it is x - t or t - x, so d is a paired difference (or, on opposite sides, a paired sum) of the two points'
    values. For a point whose interval straddles the target the side is uncertain, but its distance is then
    within its interval's half-width either way."""
    groups = result.groups
    comp = result.scenario.comparison
    target = sweep_target(result)
    metrics = [sweep_metric(result, g) for g in groups]
    # a deal's value at point g is k[g] * its target sum + c[g]
    k = [m.scale / (g.rotations if m.per_rotation else 1) for m, g in zip(metrics, groups)]
    c = [m.offset for m in metrics]
    uniform = len(set(k)) == 1 and len(set(c)) == 1
    s, xx = result.metric_sums.astype(float), result.metric_xtx.astype(float)
    z = groups[0].summary.z

    def paired(coefs):
        """(mean, lo, hi) over deals of sum(a * target sum of point g) for {g: a}."""
        return mean_ci(sum(a * s[g] for g, a in coefs.items()),
                       sum(a * b * xx[g, h] for g, a in coefs.items() for h, b in coefs.items()), result.games, z)

    # sum of squared per-deal differences is zero: the same target value on every deal
    same = [j for j in range(len(groups)) if j != best and xx[best, best] - 2 * xx[best, j] + xx[j, j] == 0
            and k[j] == k[best] and c[j] == c[best]]
    values = [M.value_ci(m, g.summary, g.rotations)[0] for m, g in zip(metrics, groups)]
    gaps = []
    for j in range(len(groups)):
        if j == best or j in same:
            continue
        if target is None:
            if uniform:
                d, lo, hi = (x * k[best] for x in paired({best: 1, j: -1}))
            else:
                d, lo, hi = (x + c[best] - c[j] for x in paired({best: k[best], j: -k[j]}))
            gaps.append((j, d, lo, hi) if comp["goal"] == "max" else (j, -d, -hi, -lo))
            continue
        sj, sb = (1.0 if values[g] >= target else -1.0 for g in (j, best))
        if uniform:
            d, lo, hi = (x * k[best] + (sj - sb) * (c[best] - target) for x in paired({j: sj, best: -sb}))
        else:
            d, lo, hi = (x + sj * (c[j] - target) - sb * (c[best] - target)
                         for x in paired({j: sj * k[j], best: -sb * k[best]}))
        gaps.append((j, d, lo, hi))
    return same, gaps


def sweep_verdict(result):
    """The sweep's answer: the best point, and how far behind the runner-up is (paired)."""
    sc = result.scenario
    groups = result.groups
    metric = sweep_metric(result)
    target = sweep_target(result)
    best, vals = sweep_best(result)
    same, gaps = sweep_gaps(result, best)
    ties, closest = [], None
    for j, d, lo, hi in gaps:
        if lo <= 0:
            ties.append(lit(groups[j].label))
        if closest is None or d < closest[1]:
            closest = (lit(groups[j].label), d, lo, hi, j)
    margin_unit = is_share(metric) or metric.points  # a share or an edge: the practical margin applies
    if target is None:
        verdict = f"Best: **{lit(groups[best].label)}**, {lower_first(metric.label)} {ci_text(metric, *vals[best])}."
    else:
        v, lo, hi = vals[best]
        at = "zero" if target == 0 else metric.fmt(target)
        verdict = (f"Closest to {at}: **{lit(groups[best].label)}**, {lower_first(metric.label)} "
                   f"{ci_text(metric, *vals[best])}")
        verdict += target_words(lo - target, hi - target, at, sc.margin if margin_unit else None, metric.fmt_diff)
    if same:
        verdict += (" Exactly the same result on every deal (the parameter changed nothing there): "
                    + ", ".join(lit(groups[j].label) for j in same) + ".")
    if closest:
        matters = ""
        if margin_unit:
            matters = (": " + margin_words(closest[2], closest[3], sc.margin, metric.fmt_diff)).replace(
                ": but within", ": within", 1)  # (no "but" after an interval: the sentence goes on)
        if target is None:
            verdict += (f" The runner-up, {closest[0]}, is behind by {metric.fmt_diff(closest[1]).lstrip('+')} "
                        f"(paired 95% CI {metric.fmt_diff(closest[2])} to {metric.fmt_diff(closest[3])}){matters}. ")
        else:
            verdict += (f" The runner-up, {closest[0]} ({ci_text(metric, *vals[closest[4]])}), is farther from {at} by "
                        f"{metric.fmt_diff(closest[1]).lstrip('+')} (paired 95% CI {metric.fmt_diff(closest[2])} to "
                        f"{metric.fmt_diff(closest[3])}: the difference of the two distances from {at}, deal by "
                        f"deal){matters}. ")
        verdict += ("No other point is statistically as good: the best value is clear." if not ties else
                    f"Not distinguishable from the best at 95%: {', '.join(ties)}; more deals would separate them.")
    return verdict


def sweep_sections(result, out):
    sc = result.scenario
    comp = sc.comparison
    axes = comp["axes"]
    groups = result.groups
    metric = sweep_metric(result)
    b = [Heading("Sweep")]
    swept = " and ".join(f"{lit(p)} over [{', '.join(lit(repr(x)) for x in v)}]" for p, v in axes)  # values as in a list
    goal = goal_words(result, metric)
    better = {"highest": "higher is better", "lowest": "lower is better"}.get(goal, f"{goal} is best")
    b.append(Text(f"Swept: {swept}. Target: **{metric.label}** ({better}). Every point played the same "
                  f"deals, so points are compared game by game."))
    best, vals = sweep_best(result)
    values = np.array([v[0] for v in vals])
    # (the verdict, sweep_verdict, is the report's answer: analyzer/report/answer.py)
    key_metrics = [m for m in comparable_metrics(result) if m.key != metric.key and (m.key == "first_player_edge" or
                   m.key == "length" or (not is_generic(m) and ", seat" not in m.label))]
    if len(axes) == 1:
        xs = axes[0][1]
        numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
        xplot = xs if numeric else list(range(len(xs)))
        path = figures.curve_with_band(out / "sweep_target.png", xplot, [(metric.label, *zip(*vals))], metric.label,
                                     axes[0][0], axis_label(metric), percent=metric.percent,
                                     mark=xplot[best])
        b.append(Figure(path, f"{metric.label} against {lit(axes[0][0])} with its 95% band; the dotted line marks the best."))
        more = []
        for m in [m for m in key_metrics if m.key in ("first_player_edge", "length")]:  # (the rest: the table)
            mv = [value(result, g, m) for g in groups]
            path = figures.curve_with_band(out / f"sweep_{m.key}.png", xplot, [(m.label, *zip(*mv))], m.label,
                                         axes[0][0], axis_label(m), percent=m.percent)
            more.append(Figure(path, f"{m.label} against {lit(axes[0][0])} (95% band)."))
        if more:
            b.append(Details(f"The first player's edge and the game's length against {axes[0][0]}", more))
    else:
        (px, xs), (py, ys) = axes
        grid = values.reshape(len(xs), len(ys)).T
        ann = [[metric.fmt(grid[i, j]) for j in range(len(xs))] for i in range(len(ys))]
        path = figures.heatmap(out / "sweep_target.png", grid, [str(x) for x in xs], [str(y) for y in ys], metric.label,
                             px, py, percent=metric.percent, annotations=ann, mark=(best % len(ys), best // len(ys)))
        b.append(Figure(path, f"{metric.label} over {lit(px)} (across) and {lit(py)} (down); the outlined cell is the best."))
    rows = []
    for g, v in zip(groups, vals):
        rows.append([g.label, ci_text(metric, *v)] + [ci_text(m, *value(result, g, m)) for m in key_metrics])
    b.append(Details("Every point: the target and the key metrics", [Table(
        ["point", metric.label] + [m.label for m in key_metrics], rows, "Each value with its 95% interval.")]))
    b.append(Details(f"The best point in detail: {groups[best].label}",
                     group_sections(result, groups[best], out, prefix=groups[best].label)))
    return b


def head_to_head(result):
    """(share, lo, hi, var): k x k matrices of the row policy's head-to-head win share against the column policy,
    its 95% interval and variance, from the round robin's pairings (each played from both seats)."""
    sc = result.scenario
    k = len(sc.comparison["labels"])
    share, lo, hi = (np.full((k, k), np.nan) for _ in range(3))
    var = np.zeros((k, k))
    metric = M.Metric("p0", "", "pcredit_0", scale=1 / CREDIT, percent=True)
    for g, (a, c) in zip(result.groups, sc.comparison["pairs"]):
        v, l, h = M.value_ci(metric, g.summary, g.rotations)
        share[a, c], lo[a, c], hi[a, c] = v, l, h
        share[c, a], lo[c, a], hi[c, a] = 1 - v, 1 - h, 1 - l
        var[a, c] = var[c, a] = ((h - l) / (2 * g.summary.z)) ** 2
    return share, lo, hi, var


def ranking(result):
    """(mean head-to-head share of each policy against every other, its interval's half width, best first order)."""
    share, _, _, var = head_to_head(result)
    k = len(share)
    mean = np.array([np.nanmean(np.delete(share[i], i)) for i in range(k)])
    z = result.groups[0].summary.z
    half = np.array([z * math.sqrt(np.delete(var[i], i).sum()) / (k - 1) for i in range(k)])
    return mean, half, np.argsort(-mean)


def round_robin_verdict(result):
    """The round robin's answer: the best policy against the runner-up, head to head."""
    labels = result.scenario.comparison["labels"]
    share, lo, hi, _ = head_to_head(result)
    _, _, order = ranking(result)
    top, second = order[0], order[1] if len(labels) > 1 else order[0]
    return (f"{lit(labels[top])} ranks first. " +
            edge_verdict(f"Head to head against {lit(labels[second])}, the runner-up, {lit(labels[top])}", share[top, second],
                         lo[top, second], hi[top, second], 0.5, "an even 50%", margin=result.scenario.margin))


def round_robin_sections(result, out):
    sc = result.scenario
    labels = sc.comparison["labels"]
    k = len(labels)
    share, lo, hi, _ = head_to_head(result)
    b = [Heading("Round-robin: head to head")]
    b.append(Text("Every pair of policies played every deal twice, once from each seat, so seat advantage "
                  "cancels out. A cell is the row policy's win share against the column policy."))
    ann = [["" if i == j else f"{100 * share[i, j]:.1f}\n({100 * lo[i, j]:.1f}-{100 * hi[i, j]:.1f})"
            for j in range(k)] for i in range(k)]
    path = figures.heatmap(out / "round_robin.png", share, labels, labels, "Head-to-head win share (row vs column)",
                         "opponent", "policy", annotations=ann)
    b.append(Figure(path, "Row policy's win share against the column policy, with 95% intervals."))
    rows = []
    for i in range(k):
        row = [labels[i]]
        for j in range(k):
            row.append("-" if i == j else f"{100 * share[i, j]:.1f}% ({100 * lo[i, j]:.1f} to {100 * hi[i, j]:.1f})")
        rows.append(row)
    b.append(Table(["policy \\ opponent"] + labels, rows))
    mean, half, order = ranking(result)
    rows = [[r + 1, labels[i], f"{100 * mean[i]:.1f}% ({100 * (mean[i] - half[i]):.1f} to {100 * (mean[i] + half[i]):.1f})"]
            for r, i in enumerate(order)]
    b.append(Heading("Ranking", 3))
    b.append(Table(["rank", "policy", "mean head-to-head win share"], rows,
                   "Mean of a policy's head-to-head shares against every other policy; the interval treats the "
                   "pairings as independent (a slight over-estimate, since they share deals)."))
    b.append(Details("The games of each pairing", _pairings_table(result)))
    return b


def _pairings_table(result):
    """What the round-robin's games were like, pairing by pairing: the seat split (the same policies from
    both seats), length, and the game's own per-game and per-seat numbers."""
    game = result.scenario.game
    groups = result.groups
    pols = result.scenario.raw["policies"]
    twins = [(labels_i, labels_j) for labels_i, labels_j in itertools.combinations(range(len(pols)), 2)
             if {k: v for k, v in pols[labels_i].items() if k != "label"}
             == {k: v for k, v in pols[labels_j].items() if k != "label"}]
    base = groups[0]
    ms = [m for m in M.standard_metrics(game, base.players, base.rotations)
          if m.key in ("first_player_edge", "length", "shared_wins")
          or (not is_generic(m) and (", seat" not in m.label or m.label.endswith((", seat 0", ", seat 1"))))]
    ms = [m for m in ms if m.key != "no_winner" or any(g.summary.s("no_winner") for g in groups)]
    rows = [[m.label] + [ci_text(m, *M.value_ci(m, g.summary, g.rotations)) for g in groups] for m in ms]
    b = [Table(["metric"] + [g.label for g in groups], rows,
               "Each pairing played every deal twice, each policy once from each seat; per-seat numbers are "
               "for the seat, whichever policy sat there.")]
    labels = result.scenario.comparison["labels"]
    for i, j in twins:
        b.append(Text(f"{lit(labels[i])} and {lit(labels[j])} are the same policy with the same parameters: their "
                      f"head-to-head share differs from 50% by chance only.", "warning"))
    return b


def _rung_share(sc, g):
    """(share metric, its value, edge metric) of a ladder's rung: its team's share where partners play (the rung's
    credit is half its team's), else its own."""
    m, edge = M.ladder_metrics(sc.game, g.players)
    return m, M.value_ci(m, g.summary, g.rotations), edge


def _even(sc, g):
    teams = sc.game.teams(g.players)
    return 1 / (len(teams) if teams else g.players)


def _ladder_variants(result):
    """(rungs, variant names, the groups of each variant, the strongest rung: the best measured share in the first
    variant, used for every variant so that they are paired)."""
    comp = result.scenario.comparison
    rungs, variants = comp["rungs"], comp["variants"]
    k = len(rungs)
    by_variant = [result.groups[v * k:(v + 1) * k] for v in range(len(variants))]
    top = int(np.nanargmax([_rung_share(result.scenario, g)[1][0] for g in by_variant[0]]))
    return rungs, variants, by_variant, top


def ladder_verdicts(result):
    """The ladder's answer, [(sentence, whether it is a finding that matters)]: the skill number in each variant,
    and how each variant changes it (paired)."""
    sc = result.scenario
    margin = sc.margin
    rungs, variants, by_variant, top = _ladder_variants(result)
    out = []
    for vname, vgroups in zip(variants, by_variant):
        g = vgroups[top]
        m, (v, lo, hi), edge = _rung_share(sc, g)
        d, dlo, dhi = M.value_ci(edge, g.summary, g.rotations)
        who = f"{lit(vname)}: " if len(variants) > 1 else ""
        if math.isnan(dlo):
            words = "too few deals for an interval"
        elif dlo > margin:
            words = "skill matters"
        elif dhi < margin:
            words = "skill hardly matters" if dlo > 0 else "no detectable value of skill"
        else:
            words = "skill may matter (more deals would tell)"
        player = "the best player's team" if sc.game.teams(g.players) else "the best player"
        out.append((f"{who}{words}: {player} ({lit(rungs[top])}) wins {pct(v)} of {g.players}-player games "
                    f"against an even {pct(_even(sc, g))}: skill number {signed_points(d)} points (95% CI "
                    f"{signed_points(dlo)} to {signed_points(dhi)}).", words == "skill matters"))
    base_top = by_variant[0][top]
    for vname, vgroups in list(zip(variants, by_variant))[1:]:
        g = vgroups[top]
        d, lo, hi = M.diff_ci(_rung_share(sc, g)[2], g.summary, g.rotations, base_top.summary, base_top.rotations,
                              base_metric=_rung_share(sc, base_top)[2])
        if math.isnan(lo):
            continue
        if lo > 0 or hi < 0:
            change = f"{'raises' if d > 0 else 'lowers'} the value of skill by {abs(100 * d):.1f} points"
        else:
            change = f"does not detectably change the value of skill ({signed_points(d)} points)"
        out.append((f"{lit(vname)} {change}, 95% CI {signed_points(lo)} to {signed_points(hi)} "
                    f"({margin_words(lo, hi, margin, lambda x: f'{100 * x:.1f} points')}).",
                    margins.verdict(d, lo, hi, margin).word == margins.MATTERS))
    return out


def ladder_sections(result, out):
    """The skill ladder: each rung's win share against the field, the skill number per variant (the
    strongest rung's share minus an even share), and how each variant changes it (paired)."""
    sc = result.scenario
    comp = sc.comparison
    rungs, variants, by_variant, top = _ladder_variants(result)
    field = lit(seat_text_of(comp["field"]))
    b = [Heading("Skill ladder"),
         Text(f"Each rung sat in one seat against a field of {field} in every other seat, on the very same deals, "
              f"and every deal was played once in each rotation of the seats, so a rung's share does not depend "
              f"on where it sat. An even share would mean playing well does not help.")]
    series = []
    for vname, vgroups in zip(variants, by_variant):
        rows = []
        vals = []
        for label, g in zip(rungs, vgroups):
            m, v, edge = _rung_share(sc, g)
            vals.append(v)
            e = M.value_ci(edge, g.summary, g.rotations)
            rows.append([label, seat_text(g.arms[0].seats[0]), ci_text(m, *v), ci_text(edge, *e)])
        series.append((vname, [x[0] for x in vals], [x[1] for x in vals], [x[2] for x in vals]))
        title = "Rungs" if len(variants) == 1 else f"Rungs — {vname}"
        b.append(Heading(title, 3))
        team_words = (" The rung plays with a partner from the field: shares are its team's."
                      if sc.game.teams(vgroups[0].players) else "")
        b.append(Table(["rung", "policy", "win share over all seats", "minus an even share"], rows,
                       f"{vgroups[0].players} players: an even share is {pct(_even(sc, vgroups[0]))}.{team_words}"))
    even_share = _even(sc, by_variant[0][0])
    path = figures.bars_with_ci(out / "ladder.png", rungs, None, None, None, "Win share of each rung against the field",
                              "win share (%)", reference=even_share, ref_label="even share",
                              groups=series if len(variants) > 1 else [("", *series[0][1:])])
    b.append(Figure(path, "The skill ladder: each rung's win share against the field, with 95% intervals; the "
                          "dashed line is an even share."))
    b += _level_with_the_best(rungs, [_rung_share(sc, g)[1] for g in by_variant[0]], top)
    b.append(Details(f"The strongest rung in detail: {by_variant[0][top].label}",
                     group_sections(result, by_variant[0][top], out, prefix=by_variant[0][top].label)))
    return b


def _level_with_the_best(rungs, shares, top):
    """A note naming the rungs whose share's 95% interval overlaps the strongest rung's (first variant): a
    field they all beat that completely cannot rank them, and "the best player" is then one of several."""
    _, top_lo, top_hi = shares[top]
    level = [label for i, (label, (_, lo, hi)) in enumerate(zip(rungs, shares))
             if i != top and lo <= top_hi and hi >= top_lo]
    if not level:
        return []
    level = [lit(label) for label in level]
    names = level[0] if len(level) == 1 else ", ".join(level[:-1]) + " and " + level[-1]
    return [Text(f"Against this field, {names} {'does' if len(level) == 1 else 'do'} as well as {lit(rungs[top])} "
                 f"(95% intervals overlap): the field cannot rank them. A ladder against a stronger field (the "
                 f"field key of [ladder], e.g. the game's greedy policy) would tell them apart.", "warning")]


def seat_text_of(spec):
    params = ", ".join(f"{k} = {toml_value(v)}" for k, v in spec.items() if k != "policy")
    return spec["policy"] + (f" ({params})" if params else "")
