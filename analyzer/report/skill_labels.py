"""Honest labels: the skill level a report's bots played at, and what is known of it.

Every report that uses bots says which policies its seats play and, when none plays the game's strongest policy,
that its figures are facts about these bots. Where a strength curve of the game at the run's player count ships in
known_curves/ (the curve.json an `analyzer strength` run writes, copied as `<game>-<players>p.json`), it also says
where those policies sit on that curve and whether the curve's top is saturated.
"""
from __future__ import annotations

import json
from pathlib import Path

from analyzer.errors import ScenarioError
from analyzer.report.blocks import Text, lit

KNOWN_CURVES = Path(__file__).parent / "known_curves"
STRONGEST = ("search", "lookahead")  # a game's strongest policy: the first of these it has


def known_curve(game, players):
    """The shipped strength curve of game at this player count (a curve.json record), or None."""
    path = KNOWN_CURVES / f"{game.name}-{players}p.json"
    return json.loads(path.read_text()) if path.exists() else None


def _rung_of(game, seat, curve):
    """The curve's rung that plays exactly as seat does (same policy, same parameters once defaults are filled)."""
    for rung in curve["rungs"]:
        try:
            if game.validate_seat(dict(rung["seat"]), "(known curve)", "rung") == seat:
                return rung
        except ScenarioError:  # (a curve from an older version of a policy's parameters)
            continue
    return None


def _name(seat):
    return f"{seat.policy} {seat.params['budget']:,}" if "budget" in seat.params else seat.policy


def skill_lines(sc):
    """The report's line on the bots' skill (a Text), or [] for a strength curve (it is the measurement itself)."""
    if sc.comparison.get("kind") == "strength":
        return []
    game = sc.game
    seats = []
    for arm in sc.arms:
        for seat in arm.seats:
            if seat not in seats:
                seats.append(seat)
    names = list(dict.fromkeys(_name(s) for s in seats))
    strongest = next((p for p in STRONGEST if game.policy(p) is not None), None)
    text = f"**Skill of the bots**: the seats play {lit(', '.join(names))}."
    if strongest is not None and all(s.policy != strongest for s in seats) and "levels" in sc.comparison:
        text += f" None plays {strongest}, the strongest policy of {lit(game.title)}: the levels stop below it."
    elif strongest is not None and all(s.policy != strongest for s in seats):
        text += (f" None plays {strongest}, the strongest policy of {lit(game.title)}: every figure below is a fact "
                 f"about these bots (`[skill]` levels play the scenario at several skill levels: docs/scenarios.md).")
    players = {len(a.seats) for a in sc.arms}
    curve = known_curve(game, players.pop()) if len(players) == 1 else None
    if curve is not None:
        top = max(curve["rungs"], key=lambda r: r["rating"] if r["rating"] != "" else float("-inf"))
        placed = []
        for seat in seats:
            rung = _rung_of(game, seat, curve)
            if rung is None:
                continue
            gap = top["rating"] - rung["rating"]
            placed.append(f"{lit(rung['label'])} is the top rung" if rung is top else
                          f"{lit(rung['label'])} rates {gap:,.0f} Elo below {lit(top['label'])}")
        largest = f"{curve['budgets'][-1]:,}" if curve["budgets"] else ""
        words = {"gaining": f"search is still gaining at {largest} (a larger budget plays better still)",
                 "saturated": f"search is saturated at {largest}: more budget no longer plays detectably better",
                 "worse": f"search played worse at {largest} than below it"}
        if placed:
            text += (f" On the game's strength curve for {curve['players']} players ({curve['games']:,} deals per "
                     f"pairing): " + "; ".join(placed) + (f"; {lit(words[curve['saturation']])}"
                                                          if curve["saturation"] in words else "") + ".")
        else:
            text += (f" None of them is a rung of the game's strength curve for {curve['players']} players (other "
                     f"parameters), so how strong they are is not measured.")
    return [Text(text)]
