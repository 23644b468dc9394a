"""The report of `analyzer tune`: the recommended settings first, with the confirmation race's figures against the
rulebook's (paired, on fresh deals), the near-optimal alternatives, which settings matter, every trial, and the race
in full. Files: index.html, report.md, tune.csv (every trial), summary.csv (the race's metrics), the plots,
manifest.json."""
from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

from analyzer import __version__, margins
from analyzer.interrupts import signal_name
from analyzer.report import figures, sections
from analyzer.report import reproduce_details, write_csv, write_manifest, write_pages, write_summary
from analyzer.report.answer import ANSWER_ID
from analyzer.report.blocks import Details, Figure, Heading, Section, Table, Text, lit
from analyzer.report.comparison import comparison_sections
from analyzer.report.sections import ci_text
from analyzer.tuning.race import RULEBOOK, best_row, near_best, recommended, shown_value
from analyzer.tuning.study import settings_key

TRIALS_SHOWN = 25  # rows of the report's trial table (tune.csv has every trial)


def _settings_text(values):
    return ", ".join(f"{lit(p)} = {lit(shown_value(v))}" for p, v in values.items())


def _metric(res, key):
    return res.run.metric_defs[key]


def _loss_unit(res):
    units = {("points" if _metric(res, o.metric).percent else "units") for o in res.spec.objectives}
    return "points" if units == {"points"} else "points and units, weighted"


def default_question(res):
    settings = " and ".join(s.path for s in res.spec.settings)
    goals = "; ".join(o.describe(_metric(res, o.metric)) for o in res.spec.objectives)
    return f"Which values of {settings} bring the game closest to the goal ({goals})?"


def _bots(sc):
    seats = sorted({sections.seat_text(s) for s in sc.seats})
    return ("every seat: " + seats[0]) if len(seats) == 1 else "; ".join(
        f"seat {i}: {sections.seat_text(s)}" for i, s in enumerate(sc.seats))


def answer(res, out):
    sc, spec, run = res.scenario, res.spec, res.run
    b = [Heading("Answer", 2), Text(f"**Question:** {lit(sc.question or default_question(res))}")]
    if res.partial:
        b.append(Text(f"Stopped early by a signal after {len(run.trials):,} trial(s): the figures below are of the "
                      f"trials finished{'' if res.race is not None else ', without the confirmation race'}.",
                      "warning"))
    if not res.race_rows:
        others = [t for t in run.trials if t.values != run.trials[0].values]
        if run.trials[0].state != "complete":
            b.append(Text("The rulebook's own settings were not played whole: nothing to compare.", "warning"))
        elif res.partial:
            b.append(Text("The search was stopped before the confirmation race: no recommendation.", "warning"))
        elif not any(t.state == "complete" for t in others):
            pruned = sum(t.state == "pruned" for t in others)
            invalid = sum(t.state == "invalid" for t in others)
            b.append(Text(f"**Keep the rulebook's settings** ({_settings_text(run.trials[0].values)}): every other "
                          f"setting the search tried was clearly worse on its deals ({pruned:,} pruned)"
                          + (f" or could not be played ({invalid:,})" if invalid else "") + ".", "verdict"))
    else:
        rows = res.race_rows
        best = chosen = recommended(rows, spec.objectives)
        rule = rows[0]
        deals = res.race.games
        if best is rule:
            runner_up = best_row(rows[1:])
            first = _metric(res, spec.objectives[0].metric)
            b.append(Text(f"**Keep the rulebook's settings** ({_settings_text(run.trials[0].values)}): on "
                          f"{deals:,} fresh deals none of the {len(rows) - 1} best trials was clearly closer to the "
                          f"goal on {lit(first.label.lower())}.", "verdict"))
            best = runner_up
            b.append(Text(f"The closest, {lit(best[0])}:"))
        else:
            b.append(Text(f"**Recommended: {_settings_text(best[1].values)}** (trial {best[1].number}) instead of the "
                          f"rulebook's {_settings_text(run.trials[0].values)}.", "verdict"))
        for o in spec.objectives:
            m = _metric(res, o.metric)
            v, lo, hi = best[3][o.metric]
            text = f"{lit(m.label)}: {ci_text(m, v, lo, hi)}"
            if best is not rule and o.metric in best[4]:
                rv = rule[3][o.metric]
                d, dlo, dhi = best[4][o.metric]
                text += (f" against the rulebook's {ci_text(m, *rv)}; paired difference {m.fmt_diff(d)} "
                         f"(95% CI {m.fmt_diff(dlo)} to {m.fmt_diff(dhi)})")
            b.append(Text(text + "."))
        for o in spec.objectives:  # a target no configuration raced reaches within its practical margin
            if o.target is None:
                continue
            m = _metric(res, o.metric)

            def miss(row):
                _, lo, hi = row[3][o.metric]
                return 0.0 if math.isnan(lo) else max(lo - o.target, o.target - hi, 0.0)
            closest = min(rows, key=miss)
            v, lo, hi = closest[3][o.metric]
            if miss(closest) > margins.margin_of(sc.margins, m):
                b.append(Text(f"No configuration raced reaches {m.fmt(o.target)} on {lit(m.label.lower())}: the "
                              f"closest ({lit(closest[0])}) is {ci_text(m, v, lo, hi)}, further from it than the "
                              f"practical margin "
                              f"({m.fmt(margins.margin_of(sc.margins, m)).lstrip('+')}). Another rule (a setting not "
                              f"searched) may be needed.", "warning"))
        decided = (res.race.stop_reason or "").startswith("every")
        b.append(Text(f"Figures of the confirmation race: {deals:,} fresh deals (none of them played by the search), "
                      f"played by the rulebook and the {len(rows) - 1} best trial(s); "
                      + (f"it stopped once each finalist's difference from the rulebook on "
                         f"{lit(_metric(res, spec.objectives[0].metric).label.lower())} was either shown (its interval "
                         f"excludes zero) or shown to lie within the practical margin (±{_race_margin(res)})."
                         if decided else
                         f"it played its most deals ({res.spec.confirm_games:,}) with some differences still "
                         f"undecided.")))
        close = near_best(rows, chosen)
        if close:
            b.append(Text("Near-optimal alternatives (every objective's interval overlaps the recommendation's, so "
                          "the race cannot tell them apart; choose among them for other reasons): "
                          + "; ".join("the rulebook" if r[0] == RULEBOOK else r[0] if r[1] is None else
                                      f"trial {r[1].number}, {_settings_text(r[1].values)}" for r in close) + "."))
    b.append(Text(f"**The bots this rests on:** {lit(_bots(sc))}. A balance figure measured with these bots is a fact "
                  f"about them; stronger play can move it (a run with a [skill] table shows by how much)."))
    b.append(_history_figure(res, out))
    return [Section(ANSWER_ID, b)]


def _race_margin(res):
    """The race's equivalence margin, as its [stop] table says it (points for a share)."""
    first = _metric(res, res.spec.objectives[0].metric)
    unit = " points" if first.percent else ""
    return f"{res.race.scenario.stop.equivalence:g}{unit}"


def _history_figure(res, out):
    run = res.run
    shown = [t for t in run.trials if t.state in ("complete", "pruned")]
    losses = [run.shown_loss(t) for t in shown]
    best, so_far = [], math.inf
    for t, loss in zip(shown, losses):
        if t.state == "complete":
            so_far = min(so_far, loss)
        best.append(so_far)
    path = figures.trials(out / "trials.png", [t.number for t in shown], losses, [t.state for t in shown], best,
                          "The search: each trial's distance from the goal", "trial (0: the rulebook)",
                          f"loss ({_loss_unit(res)}; lower is better)", "best so far")
    return Figure(path, "Each trial's loss (the weighted distance from the goal) on the search's deals; a pruned "
                        "trial's over the blocks it played before it was stopped as clearly worse than the best.")


def trial_rows(res):
    """tune.csv's header and rows: every trial in order."""
    spec, run = res.spec, res.run
    header = (["trial", "state"] + [s.path for s in spec.settings] + ["deals", "blocks", "loss"]
              + [f"{o.metric}{suffix}" for o in spec.objectives for suffix in ("", "_stderr")] + ["note"])
    rows = []
    for t in run.trials:
        rows.append([t.number, t.state] + [t.values.get(s.path) for s in spec.settings]
                    + [t.deals, t.blocks, run.shown_loss(t)]
                    + [x for o in spec.objectives for x in (t.value(o.metric), t.stderr(o.metric))] + [t.note])
    return header, rows


def importance(res):
    """[(setting, importance share)] by Optuna's PED-ANOVA over the complete trials, or [] when it cannot say."""
    import optuna

    done = [t for t in res.run.study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if len(res.spec.settings) < 2 or len(done) < 4 or res.spec.pareto:
        return []
    try:  # (PED-ANOVA: numpy and scipy only; Optuna's default fANOVA needs scikit-learn)
        found = optuna.importance.get_param_importances(
            res.run.study, evaluator=optuna.importance.PedAnovaImportanceEvaluator())
    except (RuntimeError, ValueError, ImportError):
        return []
    return list(found.items())


def body(res, out):
    spec, run = res.spec, res.run
    blocks = []
    if res.race_rows:
        cols = ["configuration", f"loss ({_loss_unit(res)})"]
        for o in spec.objectives:
            cols += [_metric(res, o.metric).label, "difference from the rulebook"]
        rows = []
        for label, _, loss, values, diffs in res.race_rows:
            row = [label, f"{loss:.3g}"]
            for o in spec.objectives:
                m = _metric(res, o.metric)
                row.append(ci_text(m, *values[o.metric]))
                d = diffs.get(o.metric)
                row.append("" if d is None else f"{m.fmt_diff(d[0])} ({m.fmt_diff(d[1])} to {m.fmt_diff(d[2])})")
            rows.append(row)
        blocks += [Heading("The confirmation race", 2),
                   Table(cols, rows, f"On {res.race.games:,} fresh deals (seed {res.race.scenario.seed}), every "
                                     f"configuration on the same deals; differences paired; 95% intervals"
                                     f"{' (Bonferroni over the race' + chr(39) + 's looks)' if res.race.scenario.stop else ''}.")]
    found = importance(res)
    if found:
        blocks += [Heading("Which settings matter", 2),
                   Table(["setting", "importance (share of the total)"], [[p, f"{100 * v:.0f}%"] for p, v in found],
                         "Optuna's PED-ANOVA importance over the complete trials: how much each setting explains of "
                         "what sets the best trials apart from the rest (the trials are not a grid: a rough guide).")]
    numeric = [s for s in spec.settings if s.kind != "choice"]
    shown = [t for t in run.trials if t.state in ("complete", "pruned")]
    losses = [run.shown_loss(t) for t in shown]
    states = [t.state for t in shown]
    loss_label = f"loss ({_loss_unit(res)}; lower is better)"
    others = " (the other settings vary too)" if len(spec.settings) > len(numeric[:2]) else ""
    if len(numeric) >= 2 and shown:
        a, c = numeric[:2]
        path = figures.trials_map(out / "surface.png", [t.values[a.path] for t in shown],
                                  [t.values[c.path] for t in shown], losses, states,
                                  f"The loss over {a.path} and {c.path}", a.path, c.path, loss_label)
        blocks += [Heading(f"The loss over {a.path} and {c.path}", 2),
                   Figure(path, "Each trial at its two values, coloured by its loss on the search's deals (darker is "
                                f"closer to the goal); a cross: pruned{others}.")]
    elif len(numeric) == 1 and shown:
        s = numeric[0]
        path = figures.trials(out / "surface.png", [t.values[s.path] for t in shown], losses, states, None,
                              f"The loss against {s.path}", s.path, loss_label)
        blocks += [Heading(f"The loss against {s.path}", 2),
                   Figure(path, f"Each trial's loss at its value of {lit(s.path)}{others}.")]
    ranked, seen = [], set()
    for t in run.ranked():  # (settings the sampler proposed again are listed once, under their first trial)
        key = settings_key(t.values)
        if key not in seen:
            seen.add(key)
            ranked.append(t)
    top = [[t.number] + [shown_value(t.values.get(p.path)) for p in spec.settings] + [f"{run.loss(t):.3g}", f"{t.deals:,}"]
           for t in ranked[:TRIALS_SHOWN]]
    counts = {s: sum(t.state == s for t in run.trials) for s in ("complete", "pruned", "invalid", "stopped")}
    blocks += [Heading("Every trial", 2),
               Text(f"{len(run.trials):,} trials ({', '.join(f'{n:,} {s}' for s, n in counts.items() if n)}), "
                    f"{spec.games:,} deals each in {spec.blocks} blocks of {spec.block_games:,}, every trial on the "
                    f"same deals; sampler {spec.sampler}. A trial is pruned once the Wilcoxon test on its blocks "
                    f"against the best trial's shows it worse. tune.csv holds every trial."),
               Table(["trial"] + [s.path for s in spec.settings] + [f"loss ({_loss_unit(res)})", "deals"], top,
                     f"The {min(TRIALS_SHOWN, len(ranked))} best complete trials, best first, each setting once (their "
                     f"figures are the search's: optimistic for the best, which the race replays).")]
    if res.race is not None and res.race.games:
        race_blocks = sections.intro(res.race, out) + comparison_sections(res.race, out)
        blocks.append(Details("The confirmation race in full: every metric of every configuration", race_blocks))
    return blocks


def manifest(res, command=None):
    sc = res.scenario
    return {"scenario_file": sc.source, "scenario": sc.raw, "game": sc.game.name, "seed": sc.seed,
            "kind": "tune", "trials": len(res.run.trials), "games_per_trial": res.spec.games,
            "race_games": res.race.games if res.race is not None else 0,
            "race_seed": res.race.scenario.seed if res.race is not None else None,
            "partial": res.partial,
            "stopped_by": None if res.run.stopped_by is None else signal_name(res.run.stopped_by),
            "analyzer_version": __version__,
            "wall_seconds": round(res.wall, 3), "threads": res.threads, "command": command,
            "created": dt.datetime.now().isoformat(timespec="seconds")}


def write(res, out_dir, command=None):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    blocks = answer(res, out) + body(res, out)
    blocks.append(reproduce_details(command or f"analyzer tune {res.scenario.source}", res.scenario.seed, res.threads,
                                    res.wall))
    write_pages(out, f"{res.scenario.name}: tuning report", blocks)
    header, rows = trial_rows(res)
    write_csv(out / "tune.csv", header, rows)
    if res.race is not None and res.race.games:
        write_summary(res.race, sections.summary_rows(res.race), out / "summary.csv")
    write_manifest(out, manifest(res, command))
    return out
