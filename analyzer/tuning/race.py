"""The confirmation race that ends a tune: the best few trials and the rulebook replayed on fresh deals.

A trial's figures are optimistic: it was picked because its deals happened to favour it among many. The race
plays the finalists and the rulebook again, as the variants of one comparison (the rulebook its baseline), on
deals no trial played (a seed of its own, analyzer.tuning.study.derived_seed), with adaptive stopping as a
scenario's [stop]: it stops once every finalist's paired difference from the rulebook on the first objective's
metric excludes zero, or at confirm_games deals. The recommendation is the lowest loss in the race.
"""
from __future__ import annotations

import math

from analyzer import margins, stopping
from analyzer import metrics as M
from analyzer.configs import set_path
from analyzer.tuning.study import RACE_STREAM, derived_seed, objective_metrics, settings_key, trial_raw, weighted_loss

RULEBOOK = "rulebook"


def finalists(run):
    """The best spec.finalists complete trials other than the rulebook, each set of settings once."""
    out, seen = [], {settings_key(run.trials[0].values)}
    for t in run.ranked():
        key = settings_key(t.values)
        if t.number == 0 or key in seen:
            continue
        seen.add(key)
        out.append(t)
        if len(out) == run.spec.finalists:
            break
    return out


def variant_name(trial):
    return f"trial {trial.number}: " + ", ".join(f"{p.split('.')[-1]} {shown_value(v)}" for p, v in trial.values.items())


def shown_value(v):
    """A setting's value as a report shows it: true/false, 4 significant digits of a real number."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def race_raw(sc, spec, chosen):
    """The comparison scenario of the race: the rulebook first (the baseline), then each chosen trial."""
    raw = trial_raw(sc.raw, {})
    raw["name"] = f"{sc.name}: confirmation race"
    raw["seed"] = derived_seed(sc.seed, RACE_STREAM)
    raw["games"] = spec.confirm_games
    variants = [{"name": RULEBOOK}]
    for t in chosen:
        v = {"name": variant_name(t)}
        for path, value in t.values.items():
            set_path(v, path, value)
        variants.append(v)
    raw["variants"] = variants
    first = objective_metrics(sc, spec)[spec.objectives[0].metric]
    # decided: each finalist's difference from the rulebook excludes zero, or lies within the practical margin
    raw["stop"] = {"max_games": spec.confirm_games, "min_games": max(1_000, spec.confirm_games // 16),
                   "until": "decided", "metric": first.key,
                   "equivalence": margins.margin_of(sc.margins, first) * stopping.unit(first)}
    return raw


def race_table(run, result):
    """Per group of the race (rulebook first): (label, trial or None, loss, {metric key: (value, lo, hi)},
    {metric key: (difference from the rulebook, lo, hi)})."""
    rows = []
    chosen = {variant_name(t): t for t in run.trials}
    for g in result.groups:
        values, diffs, metrics = {}, {}, {}
        for o in run.spec.objectives:
            metric = metrics[o.metric] = M.metric_for(result.scenario.game, g.players, g.rotations, o.metric)
            values[o.metric] = M.value_ci(metric, g.summary, g.rotations)
            if g.reference is not None:
                r = g.reference
                base_metric = M.metric_for(result.scenario.game, r.players, r.rotations, o.metric)
                diffs[o.metric] = M.diff_ci(metric, g.summary, g.rotations, r.summary, r.rotations,
                                            paired=r.players == g.players, base_metric=base_metric)
        loss = weighted_loss(run.spec, {k: v[0] for k, v in values.items()}, metrics)
        rows.append((g.label, chosen.get(g.label, run.trials[0] if g.label == RULEBOOK else None), loss, values,
                     diffs))
    return rows


def best_row(rows):
    """The race's row with the lowest loss (the rulebook wins ties)."""
    return min(rows, key=lambda r: (r[2] if not math.isnan(r[2]) else math.inf, r[0] != RULEBOOK))


def clearly_better(row, rulebook, objective):
    """Whether row beats the rulebook on the first objective beyond doubt: its paired difference from the rulebook
    excludes zero, in the direction of the goal (toward the target from the rulebook's side of it)."""
    if row is rulebook:
        return False
    d, lo, hi = row[4][objective.metric]
    if math.isnan(lo):
        return False
    if objective.target is None:
        return hi < 0 if objective.goal == "min" else lo > 0
    toward = -1 if rulebook[3][objective.metric][0] > objective.target else 1
    overshoot = row[3][objective.metric][0] - objective.target
    return (lo > 0 if toward > 0 else hi < 0) and abs(overshoot) < abs(rulebook[3][objective.metric][0] - objective.target)


def recommended(rows, objectives):
    """The best row of the race if it is clearly better than the rulebook (clearly_better), else the rulebook: no
    change without evidence."""
    best = best_row(rows)
    return best if clearly_better(best, rows[0], objectives[0]) else rows[0]


def overlaps(a, b):
    """Whether two (value, lo, hi) intervals overlap (a missing interval overlaps everything)."""
    if any(math.isnan(x) for x in a[1:] + b[1:]):
        return True
    return a[1] <= b[2] and b[1] <= a[2]


def near_best(rows, best):
    """The other rows whose every objective's interval overlaps the best's: the race cannot tell them apart."""
    return [r for r in rows if r is not best and all(overlaps(r[3][k], best[3][k]) for k in best[3])]
