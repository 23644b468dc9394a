"""What a report says: blocks built from a RunResult (see analyzer/report/blocks.py): its introduction, one
group's sections, the rows of summary.csv; analyzer/report/comparison.py builds a comparison's sections on
these, and analyzer.report.build_blocks puts a report together."""
from __future__ import annotations

import math
import os
import re
import shlex
from dataclasses import replace
from pathlib import Path

import numpy as np

from analyzer import metrics as M
from analyzer import stopping
from analyzer.errors import toml_value
from analyzer.games.base import AVOID, CardPower, Histogram, PerSeat
from analyzer.report import figures
from analyzer.report.trajectory import trajectory_figure
from analyzer.report.blocks import Details, Figure, Heading, Table, Text, lit
from analyzer.stats import edge_verdict, pct, signed_points, wilson
from analyzer.textfiles import slug as file_slug

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def ci_text(metric, v, lo, hi):
    if math.isnan(lo):
        return metric.fmt(v)
    return f"{metric.fmt(v)} ({metric.fmt(lo)} to {metric.fmt(hi)})"


def quantiles(counts):
    counts = np.asarray(counts)
    total = counts.sum()
    if total == 0:
        return [math.nan] * len(QUANTILES)
    cum = np.cumsum(counts)
    return [int(np.searchsorted(cum, q * total)) for q in QUANTILES]


def summary_rows(result):
    """summary.csv rows, [kind, group, metric, label, value, lo, hi, diff, diff lo, diff hi, games]: every
    standard metric for every group (kind "metric"), with the paired difference from the group's reference
    (the baseline, or e.g. the same ladder rung in the baseline variant) and games None (the group's deals);
    then the group's card power (kind "card_power", card_power_summary_rows)."""
    rows = []
    for g in result.groups:
        ref = g.reference
        for m in M.standard_metrics(result.scenario.game, g.players, g.rotations):
            if not M.has(g.summary, m):
                continue
            v, lo, hi = M.value_ci(m, g.summary, g.rotations)
            d = (math.nan,) * 3
            ref_m = None if ref is None else M.metric_for(result.scenario.game, ref.players, ref.rotations, m.key)
            if ref_m is not None and M.has(ref.summary, ref_m) and g.summary.cross is not None:
                d = M.diff_ci(m, g.summary, g.rotations, ref.summary, ref.rotations, base_metric=ref_m)
            rows.append(["metric", g.label, m.key, m.label, v, lo, hi, *d, None])
        rows += card_power_summary_rows(result.scenario.game, g)
    return rows


def key_slug(text):
    """text as a metric key's part: lower case, runs of other characters as one '_'."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def card_power_summary_rows(game, g):
    """A group's card power table (card_power_sections) as summary.csv rows: per category a seat got, in the
    declaration's order, the win rate of the seat-games in which it got it (Wilson interval) and how many
    there were (games: seat-games, not deals), keyed card_power.<declaration>.<category>; then
    card_power.any_seat, the win rate of every seat-game, which the report's "against any seat" subtracts.
    Categories that never happened are left out, as in the report."""
    s = g.summary
    found = card_power_rows(game, s, g.players, g.rotations)
    rows = []
    for decl, _, cats in found:
        for words, k, m, _ in cats:
            if m:
                rows.append(["card_power", g.label, f"card_power.{key_slug(decl.label)}.{key_slug(words)}",
                             f"{decl.label}: {words}", *wilson(k, m, s.z), math.nan, math.nan, math.nan, m])
    if found:
        k0, m0 = found[0][1]
        rows.append(["card_power", g.label, "card_power.any_seat", "any seat", *wilson(k0, m0, s.z),
                     math.nan, math.nan, math.nan, m0])
    return rows


def docs_link(game, out):
    """The game's docs page as a link to the file in this checkout, relative to the report's folder `out`
    (so a report committed in the repository, or moved with it, still finds it), or its name if it is not here."""
    root = Path(__file__).resolve().parents[2]
    path = root / game.docs  # (a game from elsewhere may give an absolute path: docs/adding-a-game.md)
    if not path.exists():
        return game.docs
    shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
    return f"[{shown}]({Path(os.path.relpath(path, Path(out).resolve())).as_posix()})"


def parquet_section(result, out):
    """Where every game's result row is (--keep-games), and what its columns mean."""
    if not result.parquet:
        return []
    game = result.scenario.game
    files = ", ".join(f"[{Path(p).name}]({Path(p).name})" for p in result.parquet)
    per = "one file" if len(result.parquet) == 1 else "one file per variant (or sweep point, pairing)"
    return [Heading("Every game's result row"),
            Text(f"Written with --keep-games, {per}: {files}. One row per game and seat rotation: `game` is the game "
                 f"index (the number to replay), `rotation` the seat rotation (in rotation r, seat s plays the "
                 f"policy the scenario gives seat s - r, counted round the table), then the game's result columns, "
                 f"explained in {docs_link(game, out)}. Read them with pandas: "
                 f"pandas.read_parquet(\"{Path(result.parquet[0]).name}\")."
                 .replace("`", ""))]


def intro(result, out):
    """What was played (after the answer): the description, the deals, a stopped run, the rules and seats folded."""
    sc = result.scenario
    game = sc.game
    b = []
    if sc.description:
        b.append(Text(lit(sc.description)))
    counts = sorted({g.players for g in result.groups})
    players = f"{counts[0]}" if len(counts) == 1 else ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"
    b.append(Text(f"**{result.games:,} deals** of {game.title} ({players} players, seed {sc.seed}), "
                  f"each played by {len(sc.arms)} configuration{'s' if len(sc.arms) > 1 else ''}. "
                  f"Seats are numbered clockwise from 0; seat 0 plays first. Every rate is shown with its "
                  f"95% confidence interval in brackets."))
    if sc.stop is not None:
        b += _stop_section(result)
    b.append(Details("Rules and players: every rule setting and each seat's policy", rules_and_players(result, out)))
    b += [Text(line, "warning") for line in sc.warnings]  # settings written that cannot change any game
    return b


def rules_and_players(result, out):
    """The rule settings (changed ones marked) and the seats' policies of the baseline configuration."""
    sc = result.scenario
    game = sc.game
    b = []
    base = sc.arms[0]
    rows = []
    for p in game.settings:
        value = base.rules[p.name]
        default = "derived" if p.default is None else p.default
        mark = "" if p.default is None or value == p.default else " (changed)"
        rows.append([p.name, f"{toml_value(value)}{mark}", default if default == "derived" else toml_value(default),
                     p.help])
    b.append(Table(["rule setting", "value", "default", "meaning"], rows,
                   f"How the rules were read: see {docs_link(game, out)} for every ruling." if game.docs else ""))
    levels = sc.comparison.get("levels")
    named = {str(k) for k in (sc.raw.get("seats") or {})}  # (with [skill], these keep their own policy)
    rows = [[f"seat {s}" + (" (plays first)" if s == 0 else ""), seat.policy,
             ", ".join(f"{k} = {toml_value(v)}" for k, v in seat.params.items()) or "-"]
            if levels is None or str(s) in named else
            [f"seat {s}" + (" (plays first)" if s == 0 else ""), "the skill level's: " + ", ".join(levels), "-"]
            for s, seat in enumerate(base.seats)]
    b.append(Table(["seat", "policy", "parameters"], rows,
                   "" if sc.comparison.get("kind") == "single" and levels is None else
                   "Baseline seats; the comparison below changes them."))
    return b


def _stop_section(result):
    """Why a run with [stop] stopped where it did, and how its intervals stay valid."""
    rule = result.scenario.stop
    looks = rule.checkpoints()
    what = []
    if rule.precision is not None:
        what.append(f"every key metric known to ±{rule.precision:g} (points for shares)")
    if rule.until_decided and result.scenario.comparison.get("kind") == "strength":
        what.append(f"every pairing's head-to-head share either different from an even 50% or within "
                    f"±{rule.equivalence:g} points of it")
    elif rule.until_decided:
        base = result.groups[0]
        m = M.metric_for(result.scenario.game, base.players, base.rotations, rule.metric)
        what.append(f"every variant's difference from the baseline in \"{m.label}\" either real or within "
                    f"±{rule.equivalence:g}{' points' if m.percent else ''}")
    reason = lit(result.stop_reason) if result.stop_reason else "it was stopped before its next checkpoint"
    b = [Heading("When the run stopped"),
         Text(f"This run played until the answer was known: {' and '.join(what)}, looking only at "
              f"{len(looks)} checkpoints ({', '.join(f'{k:,}' for k in looks)} deals). It stopped because "
              f"{reason}.", "verdict"),
         Text(f"Looking at the data {len(looks)} times would make ordinary 95% intervals too optimistic, so every "
              f"interval in this report is a Bonferroni interval at level 1 - 5%/{len(looks)} (±{rule.z():.2f} "
              f"standard errors instead of ±1.96): together they keep the 95% promise whichever checkpoint the "
              f"run stopped at.")]
    rows = [[label, ci_text(m, v, lo, hi)] for label, v, lo, hi, m in stopping.key_intervals(
        result.scenario, result.groups)]
    b.append(Table(["key metric", "value (interval)"], rows))
    return b


def manifest_games(result):
    return result.games_requested if result.games_requested is not None else result.scenario.games


def group_sections(result, g, out, prefix="", unfold=True):
    """The full report of one group: who wins, length (and how games unfold, unless unfold=False: it replays a
    sample of games with traces, which costs most with search policies), end conditions, the game's own metrics."""
    game = result.scenario.game
    s = g.summary
    n = g.players
    rot = g.rotations
    tag = prefix
    slug = f"{file_slug(prefix)}-" if prefix else ""
    b = [Heading(f"Who wins{(' — ' + prefix) if prefix else ''}")]
    b += who_wins(game, s, n, rot, out / f"{slug}win_share.png", result.scenario.margin)
    ms = {m.key: m for m in M.standard_metrics(game, n, rot)}
    if rot > 1:
        b += _policy_shares(result, g, ms)

    # game length
    length = ms["length"]
    b.append(Heading(f"Game length{(' — ' + prefix) if prefix else ''}"))
    hist = s.hists["length"]
    qs = quantiles(hist)
    b.append(Table([f"{game.length_label} per game", "mean", *[f"{int(q * 100)}th pct" for q in QUANTILES], "max"],
                   [[tag or "all games", ci_text(length, *M.value_ci(length, s, rot)), *qs,
                     int(np.flatnonzero(hist)[-1]) if hist.any() else 0]]))
    path = figures.histograms(out / f"{slug}length.png", [("", hist)], f"{game.length_label.capitalize()} per game",
                              game.length_label)
    b.append(Figure(path, f"Distribution of {game.length_label} per game."))
    if unfold:
        b += trajectory_figure(result, g, out, prefix)  # (how the games unfold, from a sample replayed with traces)

    # end conditions
    ends = []
    end_hist = s.hists["end"]
    rows = []
    total = int(end_hist.sum())
    for code, name in enumerate(game.end_conditions):
        k = int(end_hist[code]) if code < len(end_hist) else 0
        p, lo, hi = wilson(k, total, s.z)
        ex = ", ".join(str(i) for i in s.examples.get(code, []))
        rows.append([name, f"{pct(p)} ({pct(lo)} to {pct(hi)})", ex or "-"])
    ends.append(Table(["end condition", "share of games", "example games"], rows,
                      "Example games are numbered as in the run (game indices, seat rotation 0)."))
    ends.append(Text("Replay an example game exactly as this run played it, every event (put a number from the "
                     "table in place of N):"))
    ends.append(Text(replay_command(result, g, "N"), "code"))
    b.append(Details(f"How games end, and how to replay one{(' — ' + prefix) if prefix else ''}", ends))

    # the game's own metrics
    own = [m for m in M.standard_metrics(game, n, rot) if not is_generic(m)]
    if own:
        folded = []
        helps = {}
        for decl in game.metrics:
            if decl.help:
                helps[decl.label] = decl.help
        rows = []
        for m in own:
            if not M.has(s, m):
                continue
            label_root = m.label.split(", seat")[0]
            rows.append([m.label, ci_text(m, *M.value_ci(m, s, rot)), helps.get(label_root, "")])
        folded.append(Table(["metric", "value (95% CI)", "meaning"], rows))
        for decl in game.metrics:
            if isinstance(decl, PerSeat) and not decl.percent:
                series = [(f"seat {i}", s.hists[f"{decl.prefix}{i}"]) for i in range(n)]
                path = figures.histograms(out / f"{slug}{decl.prefix.strip('_')}.png", series, decl.label,
                                          decl.label.lower())
                folded.append(Figure(path, f"{decl.label} by seat" + (f": {decl.help}." if decl.help else ".")))
            elif isinstance(decl, Histogram) and decl.column != "length":
                path = figures.histograms(out / f"{slug}{decl.column}.png", [("", s.hists[decl.column])], decl.label,
                                          decl.label.lower())
                folded.append(Figure(path, decl.label + (f": {decl.help}." if decl.help else ".")))
        b.append(Details(f"{game.title} metrics{(' — ' + prefix) if prefix else ''}: every one, with its meaning",
                         folded))
    power = card_power_sections(game, s, n, rot, prefix)
    if power:
        b.append(Details(power[0].text, power[1:]))
    return b


def card_power_rows(game, s, n, rot):
    """Per CardPower declaration: (declaration, overall (k, m), [(category, k, m, [(k_s, m_s) per seat])]):
    k wins (incl. shared; where partners play, the seat's team won) of the m seat-games in which a seat got
    the category, pooled over seats, then seat by seat. From the cross products of win_s with the 0/1
    category columns: with seat rotations a deal's cards are the same in every rotation, so a category
    column sums to rotations x 0/1 and the cross product is divided by the rotations."""
    out = []
    for decl in game.metrics:
        if not isinstance(decl, CardPower) or any(c not in s.index for c in decl.columns(n)):
            continue
        if rot > 1 and not decl.fixed_by_deal:
            continue  # a seat's category may differ between rotations: the per-deal sums cannot tell
        cats = []
        for words, prefix in decl.categories:
            per_seat = [(s.ss(f"win_{t}", f"{prefix}{t}") / rot, s.s(f"{prefix}{t}")) for t in range(n)]
            cats.append((words, sum(k for k, _ in per_seat), sum(m for _, m in per_seat), per_seat))
        overall = (sum(s.s(f"win_{t}") for t in range(n)), n * s.n * rot)
        out.append((decl, overall, cats))
    return out


def card_power_sections(game, s, n, rot, prefix=""):
    """The "most powerful cards" table: a seat's win rate by what it was dealt or given, best first."""
    found = card_power_rows(game, s, n, rot)
    skipped = [d.label for d in game.metrics if isinstance(d, CardPower) and rot > 1 and not d.fixed_by_deal]
    if not found:
        if not skipped:
            return []
        return [Heading(f"Card power{(' — ' + prefix) if prefix else ''}"),
                Text(f"Not shown with seat rotations: {', '.join(skipped)} depends on the players' choices, so a seat "
                     f"may get a different category in each rotation of a deal, and the per-deal sums cannot "
                     f"tell them apart. Run without rotations to see it.")]
    teams = game.teams(n)
    wins = "its team won" if teams else "it won (shared wins included)"
    b = [Heading(f"Card power: what a seat was dealt{(' — ' + prefix) if prefix else ''}")]
    rows = []
    for decl, (k0, m0), cats in found:
        p0 = k0 / m0 if m0 else math.nan
        for words, k, m, _ in cats:
            if m == 0:
                continue  # never happened (e.g. the Excuse with the basic deck)
            p, lo, hi = wilson(k, m, s.z)
            rows.append((p, [f"{decl.label}: {words}", f"{m:,}", f"{pct(p)} ({pct(lo)} to {pct(hi)})",
                             f"{signed_points(p - p0)} pts"]))
    rows.sort(key=lambda r: -r[0])
    decl0, (k0, m0), _ = found[0]
    b.append(Table(["a seat that got", "seat-games", "win rate (95% CI)", "against any seat"], [r for _, r in rows],
                   f"Most powerful first. Win rate: the share of the seat-games (a game seen from one seat) in which "
                   f"{wins}, among those where the seat got that; pooled over seats. Any seat wins "
                   f"{pct(k0 / m0 if m0 else math.nan)} of its seat-games. Wilson intervals, treating seat-games as "
                   f"independent (the seats of one deal are not, so they are a little narrow)."))
    for decl, (k0, m0), cats in found:
        cols = ["a seat that got"] + [f"seat {t}" + (" (first)" if t == 0 else "") for t in range(n)]
        prow = []
        for words, _, _, per_seat in cats:
            prow.append([words] + [f"{pct(k / m)} of {m:,}" if m else "-" for k, m in per_seat])
        b.append(Table(cols, prow, f"{decl.label}, seat by seat: win rate of the seat-games in which the seat got "
                                   f"that, and how many there were." + (f" {decl.help[:1].upper()}{decl.help[1:]}."
                                                                         if decl.help else "")))
        valid = [(words, k, m) for words, k, m, _ in cats if m]
        if len(valid) > 1:
            best = max(valid, key=lambda c: c[1] / c[2])
            worst = min(valid, key=lambda c: c[1] / c[2])
            pb, lob, hib = wilson(best[1], best[2], s.z)
            pw, low, hiw = wilson(worst[1], worst[2], s.z)
            apart = "the intervals do not overlap" if lob > hiw else "the intervals overlap: more deals would tell"
            b.append(Text(f"{decl.label}: a seat with {best[0]} wins {pct(pb)} ({pct(lob)} to {pct(hib)}) of its "
                          f"seat-games, one with {worst[0]} {pct(pw)} ({pct(low)} to {pct(hiw)}); {apart}.",
                          "verdict" if lob > hiw else "p"))
    return b


def edge_text(subject, edge_metric, summary, rotations, n_units, margin):
    """A plain-words verdict on a win share against an even share of the games that had a winner, and
    whether the edge is beyond the practical margin."""
    even = M.even_share(summary, n_units, rotations)
    d, lo, hi = M.value_ci(edge_metric, summary, rotations)
    words = "an even share" if summary.s("no_winner") == 0 else "an even share of the games that had a winner"
    return edge_verdict(subject, even + d, even + lo, even + hi, even, words, margin)


def who_wins(game, s, n, rot, png, margin):
    """Win shares of the seats (or teams), with a verdict on each against an even share, and a plot."""
    units = M.win_units(game, n)
    teams = game.teams(n)
    rows, vals = [], []
    for u in units:
        v = M.value_ci(u.share, s, rot)
        vals.append(v)
        pm = M.Metric("w", "", "", percent=True)
        rows.append([u.name, ci_text(u.share, *v), ci_text(pm, *M.value_ci(replace(u.share, num=u.incl, scale=1.0,
                                                                                   binary=True), s, rot)),
                     ci_text(pm, *M.value_ci(replace(u.share, num=u.solo, scale=1.0, binary=True), s, rot))])
    no_winner = s.s("no_winner") / (s.n * rot) if s.n else 0.0
    who = "team" if teams else "seat"
    caption = (f"Win share gives each of k tied {who}s 1/k of the game, so shares add up to 100%")
    caption += (f" of the games that had a winner ({pct(1 - no_winner)} of all games)" if no_winner else "")
    caption += f" and an even share is {pct(M.even_share(s, len(units), rot))}."
    if teams:
        caption += " Partners win together: each seat's share of a game is half its team's."
    b = [Table([who, "win share", "wins incl. shared", "wins alone"], rows,
               caption + " Intervals: Wilson for the win counts, normal for the shares.")]
    for i, u in enumerate(units):
        b.append(Text(edge_text(u.name[0].upper() + u.name[1:], u.edge, s, rot, len(units), margin),
                      "verdict" if i == 0 else "p"))
    ms = {m.key: m for m in M.standard_metrics(game, n, rot)}
    shared = ms["shared_wins"]
    b.append(Text(f"Shared wins: {ci_text(shared, *M.value_ci(shared, s, rot))} of games end with two or more "
                  f"{who}s tied for the win."))
    if no_winner:
        nw = ms["no_winner"]
        b.append(Text(f"No winner: {ci_text(nw, *M.value_ci(nw, s, rot))} of games end without a winner "
                      f"(see how games end below).", "warning"))
    even = M.even_share(s, len(units), rot)
    edges = [M.value_ci(u.edge, s, rot) for u in units]
    path = figures.bars_with_ci(png, [u.name.split(" (")[0] for u in units], *zip(*edges),
                                f"Win share minus an even share ({pct(even)}), by {who}", "points (95% CI)",
                                reference=0.0, ref_label="even share", margin=margin)
    b.append(Figure(path, f"Each {who}'s win share minus an even share, in points, with 95% intervals; the shaded "
                          f"band is the practical margin of ±{100 * margin:g} points."))
    return b


def seat_text(seat):
    """A policy with its parameters, as a scenario would write them (but `avoid = "none"`: restricted play's
    parameter, which only `analyzer profile` sets, unrestricted)."""
    params = ", ".join(f"{k} = {toml_value(x)}" for k, x in seat.params.items() if (k, x) != (AVOID, "none"))
    return seat.policy + (f" ({params})" if params else "")


def replay_command(result, g, index):
    """The `analyzer trace` command that replays game `index` of group g as the run played it: the same
    scenario file, seed, command-line settings, variant (or sweep point, pairing) and rotation 0."""
    sc = result.scenario
    args = ["analyzer", "trace", sc.game.name, "--scenario", sc.source, "--seed", str(sc.seed)]
    for key, value, origin in sc.overrides:
        if origin == "--set":
            args += ["--set", f"{key}={toml_value(value, limit=10**6)}"]
    if len(result.groups) > 1:
        args += ["--variant", g.label]
    args += ["--game-index", index]
    return " ".join(a if a == index else shlex.quote(a) for a in args)


def is_generic(metric):
    """The metrics every game has (shown in the generic sections), as opposed to the game's own."""
    return (metric.key.startswith(("win_share_", "policy_share_", "team_share_", "pair_share_"))
            or metric.key in ("shared_wins", "no_winner", "length", "first_player_edge"))


def _policy_shares(result, g, ms):
    s, n, rot = g.summary, g.players, g.rotations
    seats = g.arms[0].seats
    b = [Heading("Win share by policy (seats rotated)", 3)]
    teams = result.scenario.game.teams(n) or tuple((t,) for t in range(n))
    partners = {t: tuple(p for p in team if p != t) for team in teams for t in team}

    def same_role(t, j):
        """Same policy and, in a team game, partners of the same policies too: only then do the two
        shares differ by chance alone (a random player partnered with a strong one wins more)."""
        return seats[t] == seats[j] and [seats[p] for p in partners[t]] == [seats[p] for p in partners[j]]

    rows, vals = [], []
    for j in range(n):
        m = ms[f"policy_share_{j}"]
        v = M.value_ci(m, s, rot)
        vals.append(v)
        desc = seat_text(seats[j])
        twins = [t for t in range(n) if t != j and same_role(t, j)]
        if twins:
            desc += " — identical to seat " + " and ".join(map(str, twins))
        rows.append([f"policy of seat {j}", desc, ci_text(m, *v)])
    groups = []
    for j in range(n):
        same = [t for t in range(n) if same_role(t, j)]
        if len(same) > 1 and same not in groups:
            groups.append(same)
    if len(groups) == 1 and len(groups[0]) == n:  # every seat the same: rotation changes nothing but the seat
        note = " Every seat plays the same policy with the same parameters: the shares differ by chance only."
    else:  # a policy keeps its place relative to the others in every rotation (seat 1 always plays right after seat 0)
        note = "".join(
            f" Seats {', '.join(map(str, same[:-1]))} and {same[-1]} play the same policy with the same parameters"
            f"{' (and partners of the same policies)' if len(teams) < n else ''}, but each keeps its place relative to "
            f"the other policies in every rotation (e.g. whether it plays right after seat 0's policy): their shares "
            f"differ by that place, a seat effect under rotation, not by chance alone." for same in groups)
    b.append(Table(["who", "policy", "win share over all seats"], rows,
                   f"Every deal was played {rot} times, once in each rotation of the seats, so each policy sat "
                   f"in every seat on the same cards: this separates a policy's strength from its seat's "
                   f"advantage.{note}"))
    pairs = M.pair_shares(result.scenario.game, n)
    if pairs:  # partners win together: the pair's share is the figure; a difference inside a pair is its seats'
        rows = []
        even = M.even_share(s, len(teams), rot)
        for m, team in zip(pairs, teams):
            v = M.value_ci(m, s, rot)
            rows.append([f"policies of seats {'+'.join(map(str, team))}", " and ".join(seat_text(seats[t]) for t in team),
                         ci_text(m, *v)])
        b.append(Table(["partners", "policies", "win share over all seats (95% CI)"], rows,
                       "A pair's share is the sum of its two policies' shares (a team win gives each partner half); an "
                       f"even share is {pct(even)}."))
        for m, team in zip(pairs, teams):
            v = M.value_ci(m, s, rot)
            b.append(Text(edge_verdict(f"The partners of seats {'+'.join(map(str, team))}", *v, even,
                                       margin=result.scenario.margin)))
        b.append(Text("Inside a pair, the two partners' shares differ by their seats (one always plays before the "
                      "other in every rotation): a seat effect inside the team, not a difference between players."))
    else:
        for j in range(n):
            b.append(Text(edge_text(f"The policy of seat {j}", M.policy_edge(j, n), s, rot, n,
                                    result.scenario.margin)))
    # matchup matrix: each policy's share from each seat (rotation (s - j) mod n puts policy j at seat s)
    rows = []
    for j in range(n):
        row = [f"policy of seat {j} ({seats[j].policy})"]
        for seat in range(n):
            m = M.Metric("x", "", f"pseat_{j}_{seat}", scale=1 / M.CREDIT, percent=True, per_rotation=False)
            row.append(ci_text(m, *M.value_ci(m, s, 1)))
        rows.append(row)
    b.append(Table(["policy \\ seated at"] + [f"seat {t}" + (" (first)" if t == 0 else "") for t in range(n)], rows,
                   "Matchup matrix: a policy's win share when it sits in each seat, on the same deals."))
    return b


def manifest_section(man):
    """How to reproduce the report: the manifest's main lines and the command."""
    rows = [["analyzer version", man["analyzer_version"]], ["scenario file", man["scenario_file"]],
            ["seed", man["seed"]], ["deals played", f"{man['games_played']:,}"],
            ["configurations per deal", len(man["arms"])], ["wall time", f"{man['wall_seconds']:.2f} s"],
            ["games per second (every configuration of every deal)", f"{man['games_per_second']:,.0f}"],
            ["played on", f"{man['workers']} Dask worker processes" if man.get("workers")
             else f"this process, {man['threads']} thread(s)"],
            ["partial", "yes" if man["partial"] else "no"]]
    b = [Heading("Reproduce this report"), Table(["", ""], rows)]
    if man.get("command"):
        b.append(Text(man["command"], "code"))
    b.append(Text("Results depend only on the scenario, the seed and the game index: the same command gives "
                  "the same numbers on any machine, with any number of threads. manifest.json holds the "
                  "scenario exactly as run."))
    return b

