"""The report of a scenario played at several skill levels (`[skill] levels`): the verdict by level comes first.

A balance figure is a fact about the bots that played it. Here the scenario's key figures stand side by side at
every level, played on the same deals: the first seat's edge (and the game's length) for a plain run; each
variant's difference from the baseline; the sweep's best point. A sentence says whether the verdict holds across
skill, and a figure whose verdict flips sign, or is shown at one level but not at another, is flagged. Each
level's usual report (analyzer/report/comparison.py, sections.py) follows, folded away.

Paired across levels: a level's first group (the plain run, the baseline variant, the first sweep point) takes
its paired differences from the first level's (comparisons._groups_by_level), so "does the edge change with
skill?" has a paired interval too.
"""
from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, replace

import numpy as np

from analyzer import metrics as M
from analyzer.report import figures
from analyzer.report.answer import ANSWER_ID, default_question, opening
from analyzer.report.blocks import Details, Figure, Heading, Section, Table, Text, lit
from analyzer.report.skill_labels import skill_lines
from analyzer.report.comparison import (
    comparison_sections, diff, goal_words, is_generic, lower_first, shared_label, sweep_best, sweep_gaps, value,
    comparable_metrics, sweep_metric)
from analyzer.report.sections import ci_text, group_sections, seat_text
from analyzer.stats import excludes

LEVEL_KEYS = ("levels", "level_seats", "group_levels", "per_level", "refs")  # (comparison keys of the whole run)
MAX_POINT_ROWS = 12  # a sweep's points listed one per row in the verdict table, at most


@dataclass
class KeyFigure:
    """One row of the verdict table: a figure at every level, each (value, low, high)."""

    label: str
    metric: M.Metric
    cells: list
    signed: bool  # an edge or a difference: its verdict is its sign (flagged when it changes with skill)
    change: tuple | None = None  # paired change from the first level to the last: (d, lo, hi), if measured
    variant: str = ""  # a variant's difference from the baseline: the variant's name


def level_results(result):
    """[(level label, a RunResult of that level's groups alone)], weakest first: the usual report sections
    read each as if it were a run of its own."""
    sc = result.scenario
    comp = sc.comparison
    per = comp["per_level"]
    inner = {k: v for k, v in comp.items() if k not in LEVEL_KEYS}
    out = []
    for li, label in enumerate(comp["levels"]):
        idx = list(range(li * per, (li + 1) * per))
        names = [sc.groups[i] for i in idx]
        view = replace(sc, groups=names, arms=[a for a in sc.arms if a.group in set(names)], comparison=dict(inner))
        sums = None if result.metric_sums is None else result.metric_sums[idx]
        xtx = None if result.metric_xtx is None else result.metric_xtx[np.ix_(idx, idx)]
        out.append((label, replace(result, scenario=view, groups=[result.groups[i] for i in idx], metric_sums=sums,
                                   metric_xtx=xtx)))
    return out


def _sign(cell):
    v, lo, hi = cell
    if math.isnan(lo) or not excludes(0.0, lo, hi):
        return 0
    return 1 if v > 0 else -1


def across_skill(fig: KeyFigure, levels):
    """Whether a signed figure's verdict holds at every level: (words, flagged)."""
    signs = [_sign(c) for c in fig.cells]
    shown = [lvl for lvl, s in zip(levels, signs) if s]
    if not shown:
        return "no difference shown at any level", False
    if 1 in signs and -1 in signs:
        up = [lvl for lvl, s in zip(levels, signs) if s > 0]
        down = [lvl for lvl, s in zip(levels, signs) if s < 0]
        return f"FLIPS: above zero at {', '.join(up)}, below at {', '.join(down)}", True
    if len(shown) < len(levels):
        hidden = [lvl for lvl, s in zip(levels, signs) if not s]
        return f"CHANGES: shown at {', '.join(shown)}, not at {', '.join(hidden)}", True
    return "holds at every level", False


def _named_policy_edges(sc, g):
    """The edges of the policies the scenario seats itself ([seats.N]: they keep their policy at every level), when
    the seats rotate (so that the edge is the policy's, not its seat's) and no partners play."""
    if g.rotations < 2 or sc.game.teams(g.players):
        return []
    named = sorted(int(k) for k, spec in (sc.raw.get("seats") or {}).items() if isinstance(spec, dict)
                   and "policy" in spec and int(k) < g.players)
    return [replace(M.policy_edge(j, g.players), label=f"The policy of seat {j} ({sc.raw['seats'][str(j)]['policy']}, "
                                                       f"against the level): win share minus an even share")
            for j in named]


def _plain_figures(views):
    """A plain run's figures: the edge of each policy the scenario seats itself (with rotated seats), the first
    seat's (team's) edge and the game's length, at each level."""
    figs = []
    first = [g for _, v in views for g in v.groups[:1]]
    sc = views[0][1].scenario
    keyed = [(m, True) for m in _named_policy_edges(sc, first[0])]
    keyed += [(M.metric_for(sc.game, first[0].players, first[0].rotations, key), signed)
              for key, signed in (("first_player_edge", True), ("length", False))]
    for m, signed in keyed:
        cells = [value(v, g, m) for (_, v), g in zip(views, first)]
        change = diff(views[-1][1], first[-1], first[0], m) if first[-1].reference is first[0] else None
        figs.append(KeyFigure(shared_label(views[0][1], m), m, cells, signed, change))
    return figs


def _variant_figures(views):
    """A variants comparison's figures: the baseline's first-seat edge, then each variant's paired difference from
    the baseline at the same level in the first seat's edge, the length and every metric of the game's own whose
    difference is real at some level."""
    base_view = views[0][1]
    named = _named_policy_edges(base_view.scenario, base_view.groups[0])
    figs = _plain_figures(views)[:len(named) + 1]
    for fig in figs:
        fig.label = f"{_name(base_view, 0)}: {lower_first(fig.label)}"
    metrics = named + [m for m in comparable_metrics(base_view) if m.key in ("first_player_edge", "length")
                       or (not is_generic(m) and ", seat" not in m.label)]
    for vi in range(1, len(base_view.groups)):
        name = _name(base_view, vi)
        for m in metrics:
            cells = [diff(v, v.groups[vi], v.groups[0], m) for _, v in views]
            fig = KeyFigure(f"{name} minus baseline: {lower_first(shared_label(base_view, m))}", m, cells, True,
                            variant=name)
            if m.key in ("first_player_edge", "length") or m in named or any(_sign(c) for c in cells):
                figs.append(fig)
    return figs


def _sweep_figures(views):
    """A sweep's figures: its target metric at each point (a few points) and, as text, the best point."""
    metric = sweep_metric(views[0][1])
    figs = []
    if len(views[0][1].groups) <= MAX_POINT_ROWS:
        for pi, g in enumerate(views[0][1].groups):
            figs.append(KeyFigure(f"{metric.label} at {_name(views[0][1], pi)}", metric,
                                  [value(v, v.groups[pi], metric) for _, v in views], False))
    return metric, figs


def _fmt(fig: KeyFigure, cell):
    """A cell: the value with its unit, then its interval (the unit said once: "-5.0 pts (-5.7 to -4.3)")."""
    if not fig.signed:
        return ci_text(fig.metric, *cell)
    v, lo, hi = (fig.metric.fmt_diff(x) for x in cell)
    if math.isnan(cell[1]):
        return v
    unit = " pts" if v.endswith(" pts") else ""
    return f"{v} ({lo.removesuffix(unit)} to {hi.removesuffix(unit)})"


def _headline(fig: KeyFigure, levels):
    """One sentence on the first figure: its value at each level and what skill does to it."""
    at = ", ".join(f"{_fmt(fig, c)} at {lit(lvl)}" for c, lvl in zip(fig.cells, levels))
    words, flagged = across_skill(fig, levels) if fig.signed else ("", False)
    text = f"{lit(fig.label)}: {at}" + (f"; {words}." if words else ".")
    if fig.change is not None and not math.isnan(fig.change[1]):
        d, lo, hi = fig.change
        ci = f"paired 95% CI {fig.metric.fmt_diff(lo)} to {fig.metric.fmt_diff(hi)}"
        if not excludes(0.0, lo, hi):
            text += (f" From {lit(levels[0])} to {lit(levels[-1])} it moves by {fig.metric.fmt_diff(d)} ({ci}): no "
                     f"change with skill shown.")
        else:
            first, last = fig.cells[0][0], fig.cells[-1][0]
            if fig.signed and first * last > 1e-12:  # the same side of zero at both ends: it grows or shrinks
                # (an exact zero, e.g. a policy against itself with rotated seats, may carry a rounding error)
                noun = "deficit" if first < 0 else "advantage"
                words = f"the {noun} {'grows' if abs(last) > abs(first) else 'shrinks'} with skill"
            else:
                words = f"it is {'higher' if d > 0 else 'lower'} with stronger play"
            text += f" From {lit(levels[0])} to {lit(levels[-1])} it moves by {fig.metric.fmt_diff(d)} ({ci}): {words}."
    return Text(text, "warning" if flagged else "verdict")


def _sweep_verdict(views, metric, levels):
    """The sweep's best point at each level, the points as good as it (paired, 95%), and whether one point is best
    or as good at every level."""
    parts, good_sets, bests = [], [], []
    for level, (_, v) in zip(levels, views):
        best, vals = sweep_best(v)
        same, gaps = sweep_gaps(v, best)
        good = {best, *same, *(j for j, _, lo, _ in gaps if lo <= 0)}
        name = _name(v, best)
        others = [_name(v, j) for j in sorted(good - {best})]
        parts.append(f"{lit(name)} at {lit(level)} ({ci_text(metric, *vals[best])}"
                     + (f"; as good at 95%: {lit(', '.join(others))})" if others else ")"))
        good_sets.append({_name(v, j) for j in good})
        bests.append(name)
    common = set.intersection(*good_sets)
    text = f"Best point for {lower_first(metric.label)} ({goal_words(views[0][1], metric)}): " + "; ".join(parts) + ". "
    if len(set(bests)) == 1:
        return Text(text + "The best point is the same at every level.", "verdict")
    if common:
        return Text(text + f"The best point differs by level, but {lit(', '.join(sorted(common)))} is best or "
                           f"statistically as good at every level.", "verdict")
    return Text(text + "CHANGES: no point is best (or as good) at every level: the best setting depends on the "
                       "players' skill.", "warning")


def _name(view, i):
    """The name of a level's group i without the level: its variant's or sweep point's (comparisons._groups_by_level)."""
    return view.scenario.comparison["inner_labels"][i]


def _level_words(sc):
    """What each level is: its label and the policy and parameters every seat not named in [seats] plays."""
    comp = sc.comparison
    rows = []
    for label, spec in zip(comp["levels"], comp["level_seats"]):
        seat = sc.game.validate_seat(dict(spec), sc.source, "skill")
        rows.append([label, seat_text(seat)])
    return rows


def answer_section(result, out):
    """The report's answer (a [skill] run): the verdict by skill level, its picture, the bots at each level."""
    sc = result.scenario
    return [Section(ANSWER_ID, opening(result, default_question(result)) + skill_sections(result, out)[1:]
                    + skill_lines(sc))]


def skill_sections(result, out):
    """The verdict by skill level (the report's first section), then each level's usual report folded away."""
    sc = result.scenario
    levels = sc.comparison["levels"]
    views = level_results(result)
    kind = sc.comparison.get("kind")
    b = [Heading("Verdict by skill level")]
    if kind == "sweep":
        metric, figs = _sweep_figures(views)
        b.append(_sweep_verdict(views, metric, levels))
    else:
        figs = _plain_figures(views) if kind == "single" else _variant_figures(views)
        b.append(_headline(figs[0], levels))
    flagged = []
    rows = []
    for fig in figs:
        words, flag = across_skill(fig, levels) if fig.signed else ("-", False)
        if flag:
            flagged.append(fig)
        rows.append([fig.label] + [_fmt(fig, c) for c in fig.cells] + [words])
    if figs:
        b.append(Table(["figure"] + levels + ["across skill"], rows,
                       "Each level played the very same deals, every seat at that level (mirror play) except the seats "
                       "the scenario names in [seats]. Values with 95% intervals; differences are paired, game by "
                       "game. 'Across skill': whether the figure's verdict (above zero, below, or not shown) is the "
                       "same at every level."))
    for fig in flagged[1:] if figs and flagged[:1] == figs[:1] else flagged:
        b.append(Text(f"{lit(fig.label)}: {across_skill(fig, levels)[0]}.", "warning"))
    b += _picture(result, views, figs, out)
    b.append(Table(["level", "every seat not named in [seats] plays"], _level_words(sc),
                   "Levels are listed weakest first, as the scenario gives them. A verdict measured with weak bots is "
                   "a fact about those bots: `analyzer strength` measures how far apart the levels are."))
    return b


def _picture(result, views, figs, out):
    """The one picture of the answer: the headline figure by level (a sweep: its target curve per level)."""
    sc = result.scenario
    levels = sc.comparison["levels"]
    kind = sc.comparison.get("kind")
    if kind == "sweep":
        axes = sc.comparison["axes"]
        if len(axes) != 1:
            return []
        metric = sweep_metric(views[0][1])
        xs = axes[0][1]
        numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
        series = [(lvl, *zip(*[value(v, g, metric) for g in v.groups])) for lvl, v in views]
        path = figures.curve_with_band(out / "skill_sweep.png", xs if numeric else list(range(len(xs))), series,
                                       f"{metric.label} by skill level", axes[0][0], "points" if metric.points else
                                       "%" if metric.percent else metric.label, percent=metric.percent)
        return [Figure(path, f"{lit(metric.label)} against {lit(axes[0][0])} at each skill level (95% bands).")]
    head = figs[0]
    series = None
    if kind == "variants":
        edges = [f for f in figs[1:] if f.metric.key == "first_player_edge"]
        if edges:
            head = edges[0]
            series = [(f.variant, *zip(*f.cells)) for f in edges]
    vals = list(zip(*head.cells))
    path = figures.bars_with_ci(out / "skill_headline.png", levels, *(vals if series is None else (None, None, None)),
                                # (a short title: three bars leave the width of a few words)
                                f"{head.label.split(':')[0]}, by skill level" if series is None else
                                "First player's edge: variant minus baseline",
                                "points (95% CI)" if head.metric.percent else head.metric.label, reference=0.0,
                                ref_label="no difference" if series else "even share", groups=series,
                                percent=head.metric.percent)
    return [Figure(path, f"{'Each variant minus the baseline' if series else lit(head.label)} at each skill level, "
                         f"with 95% intervals.")]


def level_details(result, out):
    """Each level's usual report, folded away (its plots written under the level's name)."""
    blocks = []
    for li, (label, view) in enumerate(level_results(result)):
        tmp = out / f".level-{li}"
        tmp.mkdir(exist_ok=True)
        if view.scenario.comparison.get("kind") == "single" or len(view.groups) == 1:
            inner = group_sections(view, view.groups[0], tmp, prefix="", unfold=False)  # (search replays: slow)
        else:
            inner = comparison_sections(view, tmp)
        figures.done()  # (a figure drawn by another process is written only by then: it must be, to be moved)
        inner = _hoist_figures(inner, out, f"level{li}-")
        shutil.rmtree(tmp, ignore_errors=True)
        blocks.append(Details(f"The full report at level {label}", inner))
    return blocks


def _hoist_figures(blocks, out, prefix):
    """blocks with every figure's file moved into out under prefix + its name (levels write the same names)."""
    moved = []
    for b in blocks:
        if isinstance(b, Figure):
            target = out / f"{prefix}{b.path.name}"
            shutil.move(b.path, target)
            b = replace(b, path=target)
        elif isinstance(b, Details):
            b = replace(b, blocks=_hoist_figures(b.blocks, out, prefix))
        moved.append(b)
    return moved
