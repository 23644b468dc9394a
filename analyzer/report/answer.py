"""The answer a report opens with (issue 29): one to three sentences that answer the scenario's question with
the figure, its 95% interval and a plain verdict, then the one picture that shows it.

The question is the scenario's own (`question = "..."`) or the one its kind of run asks; the figure is the
scenario's `key_metric`, or the one the kind of run is about: the first player's edge (one configuration), the
largest difference that matters (variants), the best point (a sweep), the best policy (a round robin), the
skill number (a ladder). The picture is taken from the report's body (`take_figure`), not drawn twice.
Below the answer come findings the designer did not ask about but should see (a metric that is not monotone
across player counts, a change far beyond its margin) and the skill of the bots the verdict rests on.
"""
from __future__ import annotations

import math
from pathlib import Path

from analyzer import margins
from analyzer import metrics as M
from analyzer.report import comparison as C
from analyzer.report import figures
from analyzer.report.blocks import Details, Figure, Heading, Section, Text, lit
from analyzer.games.base import Histogram, Seat
from analyzer.report.sections import ci_text, edge_text, manifest_games, seat_text
from analyzer.stats import edge_verdict, pct
from analyzer.report.skill_labels import skill_lines

ANSWER_ID = "answer"


def default_question(result) -> str:
    sc = result.scenario
    comp = sc.comparison
    kind = comp.get("kind")
    n = result.groups[0].players
    first = "the first team (seat 0's)" if sc.game.teams(n) else "the first player (seat 0)"
    if "levels" in comp:
        return "Does the answer hold at every skill level the bots play at?"
    if kind == "sweep":
        swept, metric = " and ".join(p for p, _ in comp["axes"]), C.sweep_metric(result)
        if comp.get("target") is not None:  # goal = "zero" or a number
            return f"Which value of {swept} brings {metric.label.lower()} {C.goal_words(result, metric)}?"
        return f"Which value of {swept} gives the best {metric.label.lower()}?"
    if kind == "round_robin":
        return "Which policy wins head to head?"
    if kind == "ladder":
        return "Does skill matter: how much more does the best player win than an even share?"
    if kind == "variants" and len(result.groups) > 1:
        return f"Do the variants play differently from the baseline, {result.groups[0].label}?"
    return f"Does {first} win more or less often than an even share?"


def answer_section(result, out, body):
    """[Section("answer", ...)]: the answer, built from the result; its picture is taken out of body (the blocks
    of the rest of the report, edited in place) where the body drew it."""
    sc = result.scenario
    b = opening(result, default_question(result))
    if result.games == 0:
        b.append(Text("No game was played: nothing to answer.", "warning"))
        return [Section(ANSWER_ID, b)]
    kind = sc.comparison.get("kind")
    if kind == "sweep":
        b += _sweep(result, body)
    elif kind == "round_robin":
        b += _round_robin(result, body)
    elif kind == "ladder":
        b += _ladder(result, body)
    elif kind == "single" or len(result.groups) == 1:
        b += _single(result, out, body)
    else:
        b += _variants(result, out, body)
    if kind not in ("ladder", "round_robin"):  # (there the policies differ on purpose)
        b += bot_habits(result)
    return [Section(ANSWER_ID, _figure_last(b + skill_lines(sc)))]


HABIT = 0.9  # a bot's choice that takes this share of the chances (or leaves 1 - HABIT) is named as its habit


def bot_habits(result, shown=2):
    """Warnings on choices the bots made nearly always the same way (the game's Ratio and Histogram declarations
    with chosen_by_bots): a figure that depends on such a choice may come from the bot rather than the game."""
    sc = result.scenario
    found = []
    for g in result.groups:
        rules, seats = g.arms[0].rules, g.arms[0].seats
        for decl in sc.game.metrics:
            chosen = getattr(decl, "chosen_by_bots", None)
            if chosen is None or not chosen(rules, seats):
                continue
            if isinstance(decl, Histogram):
                h = g.summary.hists.get(decl.column)
                if h is None or h.sum() == 0:
                    continue
                top = int(h.argmax())
                share = h[top] / h.sum()
                if share >= HABIT:
                    found.append(f"{lit(decl.label)} is {top} in {pct(share)} of the games of {lit(g.label)}")
            elif decl.percent:
                m = M.metric_for(sc.game, g.players, g.rotations, M.ratio_key(decl))
                if m is None or not M.has(g.summary, m):
                    continue
                v = M.value_ci(m, g.summary, g.rotations)[0]
                if v >= HABIT or v <= 1 - HABIT:
                    found.append(f"{lit(C.lower_first(decl.label))}: {pct(v)} in {lit(g.label)}")
    if not found:
        return []
    more = f" and {len(found) - shown} more" if len(found) > shown else ""
    return [Text(f"Bot habit: {'; '.join(found[:shown])}{more}. The bots made this choice themselves, nearly always "
                 f"the same way: a figure that depends on it may come from how these bots play rather than from the "
                 f"game. Ask again at a higher skill level (`[skill]` levels, docs/scenarios.md).", "warning")]


def opening(result, question):
    """The answer's first blocks in every kind of report: its heading, the scenario's question (else `question`, the
    one the kind of run asks) and, for a stopped run, the PARTIAL RESULT warning."""
    b = [Heading("Answer"), Text(f"**Question**: {lit(result.scenario.question or question)}")]
    return b + ([partial_warning(result)] if result.partial else [])


def partial_warning(result):
    return Text(f"PARTIAL RESULT: the run was stopped after {result.games:,} of the {manifest_games(result):,} deals "
                f"asked for. Every figure in this report covers the deals played.", "warning")


def _figure_last(blocks):
    """The words first, then the picture (so that the words are on the first screen)."""
    return [b for b in blocks if not isinstance(b, Figure)] + [b for b in blocks if isinstance(b, Figure)]


def take_figure(blocks, name):
    """The Figure drawn into a file called `name` somewhere in blocks (folded sections too), removed from there
    (the answer shows it instead), or None."""
    for i, b in enumerate(blocks):
        if isinstance(b, Figure) and Path(b.path).name == name:
            return blocks.pop(i)
        if isinstance(b, (Details, Section)):
            found = take_figure(b.blocks, name)
            if found is not None:
                return found
    return None


def _key(result, g, default):
    """The metric the answer is about: the scenario's key_metric if this group has it, else default (a key)."""
    sc = result.scenario
    for key in (sc.key_metric, default):
        if key is not None:
            m = M.metric_for(sc.game, g.players, g.rotations, key)
            if m is not None and M.has(g.summary, m):
                return m
    return None


def _single(result, out, body):
    sc = result.scenario
    g = result.groups[0]
    s, n, rot = g.summary, g.players, g.rotations
    if rot > 1 and sc.key_metric is None and any(seat != g.arms[0].seats[0] for seat in g.arms[0].seats):
        return _policies(result, g, out)
    metric = _key(result, g, "first_player_edge")
    b = []
    if metric.key == "first_player_edge" or metric.key.startswith(("win_share_", "team_share_")):
        units = M.win_units(sc.game, n)
        first = units[0]
        b.append(Text(edge_text(first.name[:1].upper() + first.name[1:], first.edge, s, rot, len(units), sc.margin),
                      "verdict"))
        b += _other_units(sc, g, units)
        fig = take_figure(body, "win_share.png")
    else:
        v = M.value_ci(metric, s, rot)
        b.append(Text(f"{lit(metric.label)}: {ci_text(metric, *v)}, 95% interval.", "verdict"))
        fig = take_figure(body, "length.png") if metric.key == "length" else None
    return b + ([fig] if fig is not None else [])


def _policies(result, g, out):
    """Seats rotated, policies that differ: which policy (pair of partner policies) wins most over all seats."""
    sc = result.scenario
    s, n, rot = g.summary, g.players, g.rotations
    seats = g.arms[0].seats
    names = short_names(seats)
    pairs = M.pair_shares(sc.game, n)
    teams = sc.game.teams(n)
    if pairs:
        units = [(m, " and ".join(dict.fromkeys(names[t] for t in team)) + f" (seats {'+'.join(map(str, team))})")
                 for m, team in zip(pairs, teams)]
        even = M.even_share(s, len(teams), rot)
    else:
        units = [(M.metric_for(sc.game, n, rot, f"policy_share_{j}"), f"{names[j]} (seat {j})")
                 for j in range(n)]
        even = M.even_share(s, n, rot)
    vals = [M.value_ci(m, s, rot) for m, _ in units]
    order = sorted(range(len(units)), key=lambda i: -vals[i][0])
    best = order[0]
    ranking = "; ".join(f"{lit(units[i][1])} {ci_text(units[i][0], *vals[i])}" for i in order)
    b = [Text(edge_verdict(f"Over every seat, {lit(units[best][1])}", *vals[best], even, margin=sc.margin), "verdict"),
         Text(f"Win share over all seats (every deal played in every rotation of the seats), best first: {ranking}.")]
    labels = [units[i][1] for i in order]
    path = figures.bars_with_ci(out / "answer.png", labels, *zip(*[vals[i] for i in order]),
                                "Win share over all seats, by policy", "win share (%)", reference=even,
                                ref_label="even share")
    return b + [Figure(path, "Each policy's win share over all seats, with 95% intervals; the dashed line is an even "
                             "share.")]


def short_names(seats):
    """Each seat's policy with only the parameters that tell it apart from another seat of the same policy."""
    out = []
    for seat in seats:
        same = [other for other in seats if other.policy == seat.policy]
        differ = {k: v for k, v in seat.params.items() if any(o.params.get(k) != v for o in same)}
        out.append(seat_text(Seat(seat.policy, differ)))
    return out


def _other_units(sc, g, units):
    """The seat (team) other than the first whose edge is largest, when it matters: a seat effect the first
    player's edge alone would hide (with partners, a seat inside a team is a seat effect, not a team's)."""
    s, rot = g.summary, g.rotations
    best = None
    for u in units[1:]:
        d, lo, hi = M.value_ci(u.edge, s, rot)
        v = margins.verdict(d, lo, hi, sc.margin)
        if v.word == margins.MATTERS and (best is None or abs(d) > abs(best[1])):
            best = (u, d)
    if best is None:
        return []
    u = best[0]
    return [Text(edge_text(u.name[:1].upper() + u.name[1:], u.edge, s, rot, len(units), sc.margin))]


def _variants(result, out, body):
    """Each variant's headline difference from the baseline (at most three variants in words), what else moved
    beyond its margin, and how many metrics moved by less."""
    sc = result.scenario
    base = result.groups[0]
    b, pictured = [], None
    if len(result.groups) > 4:  # many variants: the key figure of each in one sentence, the headline's in full
        return _many_variants(result, out, body)
    for g in result.groups[1:]:
        changes = C.classified_differences(result, g, base)
        key = _key(result, g, sc.key_metric) if sc.key_metric else None
        if key is not None:
            head = next(c for c in changes if c.metric.key == key.key)
        else:
            mattering = [c for c in changes if c.verdict.word == margins.MATTERS]
            head = (min(mattering, key=C.importance) if mattering else
                    next(c for c in changes if c.metric.key == "first_player_edge"))
        pictured = pictured or head.metric
        others = [c for c in changes if c is not head]
        also = [c for c in others if c.verdict.word == margins.MATTERS
                and not (C.is_share(head.metric) and C.is_share(c.metric))]  # (the seats' shares move with the edge)
        small = sum(1 for c in changes if c.verdict.word == margins.BELOW)
        unseen = sum(1 for c in changes if c.verdict.word == margins.NOT_SHOWN)
        if head.verdict.word != margins.MATTERS and key is None:
            b.append(Text(f"{lit(g.label)}: no difference that matters. None of the {len(changes)} metrics compared "
                          f"moved by more than its practical margin ({small} by less, real but too small to matter; "
                          f"{unseen} not detectably).", "verdict"))
            b.append(Text(_difference_sentence(result, g, base, head)))
            continue
        b.append(Text(_difference_sentence(result, g, base, head), "verdict"))
        tail = []
        if also:
            also.sort(key=C.importance)
            named = ", ".join(f"{lit(C.lower_first(c.label))} {c.metric.fmt_diff(c.d)}" for c in also[:3])
            tail.append(f"also beyond their margins: {named}" + (f" and {len(also) - 3} more" if len(also) > 3 else ""))
        below = len(others) - len(also)
        if below:
            tail.append(f"{below} other metric{'s' if below != 1 else ''} moved by less than "
                        f"{'their' if below != 1 else 'its'} practical margin or not detectably")
        if tail:
            b.append(Text(f"{lit(g.label)}: " + "; ".join(tail) + "."))
    return b + nonmonotone_findings(result) + _variants_picture(result, out, body, pictured)


def _variants_picture(result, out, body, pictured):
    """The answer's picture for variants: the body's plot of the pictured metric, else one drawn for it."""
    fig = None
    if pictured is not None:
        fig = take_figure(body, "variants_first_player.png" if pictured.key == "first_player_edge" else
                          f"variants_{pictured.key}.png")
        if fig is None:
            vals = [C.value(result, g, pictured) for g in result.groups]
            path = figures.bars_with_ci(out / "answer.png", [g.label for g in result.groups], *zip(*vals),
                                        pictured.label, C.axis_label(pictured), percent=pictured.percent)
            fig = Figure(path, f"{lit(pictured.label)} by variant, with 95% intervals.")
    return [fig] if fig is not None else []


def _many_variants(result, out, body):
    """More than three variants: the key figure (the scenario's key_metric, else the first player's edge) of every
    variant in one sentence with its change from the baseline and that change's verdict; the variant with the
    largest change in full."""
    sc = result.scenario
    base = result.groups[0]
    key = _key(result, base, sc.key_metric or "first_player_edge")
    changes = [next(c for c in C.classified_differences(result, g, base) if c.metric.key == key.key)
               for g in result.groups[1:]]
    words = {margins.MATTERS: "matters", margins.BELOW: "below the margin", margins.NOT_SHOWN: "not shown"}
    listed = "; ".join(f"{lit(g.label)} {key.fmt(C.value(result, g, key)[0])} ({c.metric.fmt_diff(c.d)}, "
                       f"{words[c.verdict.word]})" for g, c in zip(result.groups[1:], changes))
    what = short_label(result, base, key)
    top = max(range(len(changes)), key=lambda i: abs(changes[i].d))
    b = [Text(f"{lit(what[:1].upper() + what[1:])}: {key.fmt(C.value(result, base, key)[0])} with "
              f"{lit(base.label)} (the baseline); {listed}. In brackets: the change from the baseline and its "
              f"verdict against the practical margin of {key.fmt_diff(changes[0].margin).lstrip('+')}.", "verdict"),
         Text(_difference_sentence(result, result.groups[1 + top], base, changes[top]))]
    return b + nonmonotone_findings(result) + _variants_picture(result, out, body, key)


def short_label(result, g, metric):
    """A metric's name for a sentence: the first player's edge said in a few words."""
    if metric.key == "first_player_edge":
        return ("the first team's edge over an even share" if result.scenario.game.teams(g.players) else
                "the first player's edge over an even share")
    return C.lower_first(metric.label)


def _difference_sentence(result, g, base, c):
    m = c.metric
    vg, vb = C.value(result, g, m)[0], C.value(result, base, m)[0]
    what = short_label(result, g, m)
    return (f"With {lit(g.label)}, {lit(what)} is {m.fmt(vg)}, against {m.fmt(vb)} with {lit(base.label)}: a change "
            f"of {m.fmt_diff(c.d)} (95% CI {m.fmt_diff(c.lo)} to {m.fmt_diff(c.hi)}), {c.verdict.text} (practical "
            f"margin {m.fmt_diff(c.margin).lstrip('+')}).")


def nonmonotone_findings(result):
    """A headline for the first player's edge or the game's length when it is not monotone along an ordered
    series (variants of rising player counts, or a sweep of one numeric setting): it rises, then falls (or the
    reverse), with both steps real (their intervals, taken as independent, exclude zero: conservative for groups
    that share deals) and each at least the metric's practical margin."""
    sc = result.scenario
    groups = result.groups
    comp = sc.comparison
    if comp.get("kind") == "sweep":
        axes = comp["axes"]
        ordered = len(axes) == 1 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in axes[0][1])
    else:
        counts = [g.players for g in groups]
        ordered = len(set(counts)) == len(counts) and counts == sorted(counts)
    if len(groups) < 3 or not ordered:
        return []
    out = []
    for key in ("length", "first_player_edge"):
        ms = [M.metric_for(sc.game, g.players, g.rotations, key) for g in groups]
        if any(m is None or not M.has(g.summary, m) for m, g in zip(ms, groups)):
            continue
        vals = [M.value_ci(m, g.summary, g.rotations) for m, g in zip(ms, groups)]
        margin = margins.margin_of(sc.margins, ms[0])
        steps = []
        for (v0, lo0, hi0), (v1, lo1, hi1) in zip(vals, vals[1:]):
            d = v1 - v0
            half = math.hypot((hi0 - lo0) / 2, (hi1 - lo1) / 2)
            steps.append(0 if abs(d) <= max(half, margin) else (1 if d > 0 else -1))
        for i in range(len(steps) - 1):
            if steps[i] and steps[i + 1] and steps[i] != steps[i + 1]:
                a, mid, c = groups[i], groups[i + 1], groups[i + 2]
                m = ms[i + 1]
                what = "longest" if key == "length" and steps[i] > 0 else "shortest" if key == "length" else \
                    "largest" if steps[i] > 0 else "smallest"
                out.append(Text(f"Not monotone: {lit(C.lower_first(m.label))} is {what} at {lit(mid.label)} "
                                f"({m.fmt(vals[i + 1][0])}), against {m.fmt(vals[i][0])} at {lit(a.label)} and "
                                f"{m.fmt(vals[i + 2][0])} at {lit(c.label)}; both steps are beyond their 95% "
                                f"intervals and the practical margin.", "warning"))
                break
    return out


def _sweep(result, body):
    fig = take_figure(body, "sweep_target.png")
    return ([Text(C.sweep_verdict(result), "verdict")] + nonmonotone_findings(result)
            + ([fig] if fig is not None else []))


def _round_robin(result, body):
    return [Text(C.round_robin_verdict(result), "verdict")] + [f for f in [take_figure(body, "round_robin.png")] if f]


def _ladder(result, body):
    return [Text(t, "verdict" if strong else "p") for t, strong in C.ladder_verdicts(result)] + [f for f in [take_figure(body, "ladder.png")] if f]
