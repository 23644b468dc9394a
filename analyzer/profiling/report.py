"""The profile's report: the answer first (where outcomes come from, the warning flags, real choices, the most
decisive cards, the bots it rests on), then each part in full; profile.csv holds every figure."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from analyzer import __version__
from analyzer.interrupts import signal_name
from analyzer.profiling import luck as L
from analyzer.profiling.checks import EARLY_SHARE
from analyzer.profiling.spec import FLAG_KEYS
from analyzer.report import figures, reproduce_details, write_csv, write_manifest, write_pages
from analyzer.report.blocks import Details, Figure, Heading, Table, Text, lit

OUTCOMES = {"win": "who wins", "margin": "the score margin"}
CSV_COLUMNS = ["metric", "level", "value", "low", "high", "games"]


def _pct(v):
    return f"{100 * v:.0f}%"


def _ci(t, fmt="{:.0f}%", k=100):
    return f"{fmt.format(k * t[0])} (95% CI {fmt.format(k * t[1])}-{fmt.format(k * t[2])})"


def _short(t):
    return f"{100 * t[0]:.0f}% ({100 * t[1]:.0f}-{100 * t[2]:.0f}%)"


def luck_sentence(lv):
    """One level's answer: who wins split three ways with intervals, then the score margin's split."""
    win = lv.splits["win"].shares
    text = (f"**At {lit(lv.label)} play**, the deal explains {_ci(win['deal'])} of who wins, the seat "
            f"{_short(win['seat'])}, the bots' decisions {_short(win['decisions'])}")
    if "margin" in lv.splits:
        m = lv.splits["margin"].shares
        text += (f"; of the score margin, the deal {_short(m['deal'])}, the seat {_short(m['seat'])}, the decisions "
                 f"{_short(m['decisions'])}")
    return text + f" ({lv.deals:,} deals x {lv.splits['win'].replays} replays)."


def _status(check):
    if check.flagged is None:
        return "not measured"
    return "FLAGGED" if check.flagged else "green"


def _bots(res):
    levels = [lv.label for lv in res.levels] or [lbl for lbl, _ in res.spec.levels]
    text = (f"**The bots**: every figure is a fact about bots playing at {lit(' and at '.join(levels))} "
            f"(mirror play: every seat at the level). The decisions' share is what the same deal's outcome varies by "
            f"when these bots replay it: bots that choose the same way every time leave it near 0, whatever skill "
            f"could change (analyzer strength measures that).")
    if len(levels) > 1:
        first, last = res.levels[0], res.levels[-1] if len(res.levels) > 1 else None
        if last is not None:
            a, b = first.splits["win"].shares["deal"], last.splits["win"].shares["deal"]
            moved = "does not move beyond the noise" if (a[1] <= b[2] and b[1] <= a[2]) else (
                "moves" + (" up" if b[0] > a[0] else " down"))
            text += (f" From {lit(first.label)} to {lit(last.label)}, the deal's share of who wins {moved} "
                     f"({_pct(a[0])} to {_pct(b[0])}).")
    return Text(text)


def answer(res, out):
    sc = res.scenario
    blocks = [Text(f"**Question**: where do the outcomes of {lit(sc.game.title)} ({sc.players} players) come "
                   f"from: the deal, the seat or the decisions? Are the decisions real, which cards decide games, "
                   f"and is there a red flag?")]
    if res.partial:
        blocks.append(Text(f"Stopped by {signal_name(res.stopped_by)}: this profile holds only the parts finished "
                           f"(each says how many games it rests on).", "warning"))
    for lv in res.levels:
        blocks.append(Text(luck_sentence(lv), "verdict"))
    checks = res.checks()
    flagged = [c for c in checks if c.flagged]
    blocks.append(Text(f"**Warning flags**: {len(flagged)} of {len(checks)} checks flagged"
                       + (": " + "; ".join(lit(c.title) for c in flagged) if flagged else "") + "."))
    blocks.append(Table(["check", "status", "figure", "flag when"],
                        [[c.title, _status(c), c.words, _threshold_words(c)] for c in checks]))
    if res.levels and res.levels[0].choices:
        total = res.levels[0].choices[-1]
        blocks.append(Text(f"**Real choices** at {lit(res.levels[0].label)}: {_ci(total.real, '{:.1f}%')} of "
                           f"decisions; {100 * total.forced[0]:.1f}% have a single option; "
                           f"{total.options[0]:.2f} options per decision on average."))
    if res.cards:
        top = res.cards[0]
        less = "less" if top.impact[0] >= 0 else "more"
        its = "its team" if sc.game.teams(sc.players) else "it"
        blocks.append(Text(f"**Most decisive card kind**: {lit(top.kind)}: when a seat may not play it, {its} wins "
                           f"{abs(top.impact[0]):.1f} points {less} (95% CI {top.impact[1]:+.1f} to "
                           f"{top.impact[2]:+.1f} lost) than with the same seat free to, on the same deals."))
    blocks.append(_bots(res))
    if res.levels:
        rows = [(f"{lv.label}: {OUTCOMES[s.outcome]}", [s.shares[k][0] for k, _ in L.COMPONENTS])
                for lv in res.levels for s in lv.splits.values()]
        path = figures.stacked_shares(out / "luck.png", rows, [w for _, w in L.COMPONENTS],
                                      "Where the outcome's variance comes from", "share of the variance (%)")
        blocks.append(Figure(path, "Each bar splits one outcome's variance at one level (the luck split's deals "
                                   "and replays); the table below gives the intervals."))
    return blocks


def _threshold_words(c):
    flag = FLAG_KEYS[c.key]
    sense = "below" if c.key == "real_choices" else "above"
    unit = "%" if flag.unit == "%" else f" {flag.unit}"
    return f"{sense} {c.threshold:g}{unit}" + (" (95% CI excluding even)" if c.key == "first_seat_edge" else "")


def body(res, out):
    blocks = []
    if res.levels:
        cols = ["part of the variance"] + [f"{lv.label}: {OUTCOMES[s.outcome]}" for lv in res.levels
                                           for s in lv.splits.values()]
        table_rows = []
        for key, words in L.COMPONENTS + (("deal", "the deal, both parts"),):
            table_rows.append([words] + [_ci(s.shares[key]) for lv in res.levels for s in lv.splits.values()])
        blocks += [Heading("The luck split", 2),
                   Text("Every deal is played once per replay with the same shuffles and the bots' random choices "
                        "re-seeded. For each seat, the variance of its outcome (its share of the win; its score "
                        "minus the best other side's) is split by the random-effects estimators of a deals x "
                        "replays table: what the deal explains (for every seat alike, and for one seat over "
                        "another), the seat's own effect (its mean over all games), and what the decisions change "
                        "on the same deal. 95% intervals resample the deals."),
                   Table(cols, table_rows, f"{res.levels[0].deals:,} deals x {res.spec.replays} replays a level.")]
    for lv in res.levels:
        if not lv.choices:
            continue
        blocks += [Heading(f"Real choices at {lv.label}", 2),
                   Table(["decision", "per game", "options per decision", "single option", "real choices"],
                         [[r.label, f"{r.per_game:.1f}", f"{r.options[0]:.2f}", _ci(r.forced, "{:.1f}%"),
                           _ci(r.real, "{:.1f}%")] for r in lv.choices],
                         "Counted by the game's kernel in every game of the luck split, every seat's decisions; "
                         "intervals over deals. What counts as an option and a real choice: below.")]
    defined = next((lv.choices for lv in res.levels if lv.choices), [])
    if defined:
        blocks.append(Details("What counts as an option and as a real choice, kind by kind",
                              [Text(f"**{lit(r.label)}**: {lit(r.help)}") for r in defined
                               if r.label != "all decisions"]))
    if not any(lv.choices for lv in res.levels):
        blocks += [Heading("Real choices", 2),
                   Text(f"{lit(res.scenario.game.title)} does not count its decisions yet (no base.Choices "
                        f"declarations).")]
    blocks += [Heading("Which cards decide games", 2)]
    if res.cards:
        decks = any(r.deck_length for r in res.cards)  # (deck columns only when the rules can remove a kind)
        who = "team" if res.scenario.game.teams(res.scenario.players) else "seat"
        blocks.append(Table(["card kind", f"win share its {who} loses when a seat may not play it",
                             f"that {who}'s win share"]
                            + (["deck without it: length", f"deck without it: the first {who} wins"] if decks else []),
                            [[r.kind, f"{r.impact[0]:+.1f} pts ({r.impact[1]:+.1f} to {r.impact[2]:+.1f})",
                              _ci(r.restricted, "{:.1f}%")]
                             + ([f"{r.deck_length[0]:.1f}" if r.deck_length else r.deck_note,
                                 _ci(r.deck_first, "{:.1f}%") if r.deck_first else r.deck_note] if decks else [])
                             for r in res.cards],
                            f"Restricted play at {lit(res.levels[0].label)}: each seat in turn may not play the kind "
                            f"while it has another legal option, on the same {res.cards[0].deals:,} deals as the same "
                            f"seat free to; the loss is paired deal by deal and averaged over the seats. Most "
                            f"decisive first." + _full_deck_words(res)
                            + ("" if decks else f" The rules of {lit(res.scenario.game.title)} cannot make a deck "
                                                f"without any of these kinds.")))
    else:
        blocks.append(Text(f"No restricted play: {lit(res.cards_note or 'not played')}."))
    power = res.levels[0].power if res.levels else []
    if power:
        blocks.append(Table(["what the seat was dealt", "category", "its win share", "seat-games"],
                            [[p.label, p.category, _ci(p.share, "{:.1f}%"), f"{p.seats:,}"] for p in power],
                            "Card power: the win share of a seat in each category of what it was dealt or given "
                            "(the luck split's first replay, pooled over the seats)."))
    blocks += [Heading("The warning flags in full", 2),
               Table(["check", "key", "flag when", "what it measures"],
                     [[c.title, c.key, _threshold_words(c), FLAG_KEYS[c.key].help] for c in res.checks()],
                     "Thresholds are overridable in [profile.thresholds] (docs/profile.md). \"Decided early\": the "
                     f"winner never trails again after the first {EARLY_SHARE:.0%} of the game's length.")]
    if res.kingmaker_seats:
        blocks.append(Table(["seat playing at random", "games whose winner it changed, losing either way"],
                            [[f"seat {s}", _ci(v, "{:.1f}%")] for s, v in res.kingmaker_seats],
                            "Kingmaking: the same deals, that seat at random and the others at the level."))
    if res.dominance_edges:
        names = list(res.dominance_edges)
        blocks.append(Table(["policy (one side)"] + [f"against {b}" for b in names],
                            [[a] + ["" if a == b else f"{res.dominance_edges[a][b][0]:+.1f}" for b in names]
                             for a in names],
                            "Points above its fair share that the row's policy wins, playing one side against the "
                            "column's policy in every other, each side in turn, on the same deals."))
    blocks += [Heading("What the profile cost", 2),
               Table(["part", "games", "seconds", "games per second"],
                     [[k, f"{res.games.get(k, 0):,}", f"{v:.1f}",
                       f"{res.games.get(k, 0) / v:,.0f}" if v > 0 and res.games.get(k) else ""]
                      for k, v in res.seconds.items()],
                     f"On {res.threads} thread(s); {res.wall:.1f} s in all.")]
    return blocks


def _full_deck_words(res):
    if res.full_deck is None or not any(r.deck_length for r in res.cards):
        return ""
    length, first = res.full_deck
    return (f" With the full deck, on the same deals: length {length[0]:.1f}, the first seat (team) wins "
            f"{_ci(first, '{:.1f}%')}.")


def csv_rows(res):
    rows = []
    for lv in res.levels:
        games = lv.rows.shape[0] * lv.rows.shape[1]
        for s in lv.splits.values():
            for key, share in s.shares.items():
                rows.append([f"luck.{s.outcome}.{key}", lv.label, *(100 * x for x in share), games])
        for r in lv.choices:
            slug = r.label.lower().replace(" ", "_")
            rows.append([f"choices.{slug}.per_game", lv.label, r.per_game, "", "", games])
            rows.append([f"choices.{slug}.options_per_decision", lv.label, *r.options, games])
            rows.append([f"choices.{slug}.forced_share", lv.label, *(100 * x for x in r.forced), games])
            rows.append([f"choices.{slug}.real_share", lv.label, *(100 * x for x in r.real), games])
        for p in lv.power:
            rows.append([f"power.{p.label}.{p.category}", lv.label, *(100 * x for x in p.share), p.seats])
    level = res.levels[0].label if res.levels else ""
    for c in res.checks():
        if c.figure is not None:
            rows.append([f"check.{c.key}", level, *c.figure, ""])
    if res.full_deck is not None:
        rows.append(["card.full_deck.length", level, *res.full_deck[0], res.cards[0].deals if res.cards else ""])
        rows.append(["card.full_deck.first_share", level, *(100 * x for x in res.full_deck[1]),
                     res.cards[0].deals if res.cards else ""])
    for r in res.cards:
        rows.append([f"card.{r.kind}.impact", level, *r.impact, r.deals])
        if r.deck_length:
            rows.append([f"card.{r.kind}.deck_length", level, *r.deck_length, r.deals])
            rows.append([f"card.{r.kind}.deck_first_share", level, *(100 * x for x in r.deck_first), r.deals])
    for s, v in res.kingmaker_seats or ():
        rows.append([f"kingmaker.seat_{s}", level, *(100 * x for x in v), ""])
    for a, row in (res.dominance_edges or {}).items():
        for b, e in row.items():
            rows.append([f"dominance.{a}.vs.{b}", "", *e, res.spec.policy_deals])
    return [[m, lvl, *(round(float(x), 6) if x != "" else "" for x in vals[:3]), vals[3]]
            for m, lvl, *vals in rows]


def manifest(res, command=None):
    sc = res.scenario
    return {"scenario_file": sc.source, "scenario": sc.raw, "game": sc.game.name, "seed": sc.seed, "kind": "profile",
            "levels": [lbl for lbl, _ in res.spec.levels], "deals": res.spec.deals, "replays": res.spec.replays,
            "partial": res.partial, "stopped_by": None if res.stopped_by is None else signal_name(res.stopped_by),
            "games": res.games, "seconds": {k: round(v, 3) for k, v in res.seconds.items()},
            "analyzer_version": __version__, "wall_seconds": round(res.wall, 3), "threads": res.threads,
            "command": command, "created": dt.datetime.now().isoformat(timespec="seconds")}


def write(res, out_dir, command=None):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    blocks = answer(res, out) + body(res, out)
    blocks.append(reproduce_details(command or f"analyzer profile {res.scenario.source}", res.scenario.seed,
                                    res.threads, res.wall))
    write_pages(out, f"{res.scenario.name}: profile", blocks)
    write_csv(out / "profile.csv", CSV_COLUMNS, csv_rows(res))
    write_manifest(out, manifest(res, command))
    return out
