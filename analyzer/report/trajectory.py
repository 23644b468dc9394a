"""How a game unfolds, turn by turn: the standings of a fixed sample of a run's games, read from their traces.

The kernels keep no per-turn rows (analyzer/games/drama.py reads the standings inside the kernel and keeps only
four results). This module replays the first k games of a run, seat rotation 0, exactly as the run played them
(`Game.trace`, the `analyzer trace` machinery: deterministic by the scenario's seed), and reads each unit's
standing after the deal (turn 0) and after every turn (the game's `length` unit) from the events, as drama.py
sees it: higher is better (a game where fewer cards is better stands at minus the cards held), and a unit is a
seat, or a team where partners play.

- The Distance (turns): minus each seat's hand size; deals, plays and draws move it (a misplay's cards go back
  to the hand: no play event), checked against each turn's `hand_size` and the end's `cards_left`.
- Fight Song (hands): each team's round points plus extra points, after the hand and its Fight Song rounds;
  the last hand's standing is the end's totals (a tie-break round's extra point counts, as in the kernel; the
  kernel's look before a tie-break sees the leaders tied, which moves none of its drama results).
- Bring the Noize (rounds): minus each seat's card count, from each round's count (`hand_sizes`).
- Bards (turns): each seat's score (the conclusions' running `totals`); the last turn's standing is the
  result's scores (the tales concluded at the end count; the kernel also looks once before them, at the
  same turn number: one row a turn keeps the later).

tests/test_trajectory.py recounts the kernel's drama columns from these standings, game by game.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.report import figures
from analyzer.report.blocks import Figure
from analyzer.textfiles import slug as file_slug

K_GAMES = 100  # games replayed for a report's chart (tracing runs the game's slower traced kernel)
MIN_SHARE_GOING = 0.25  # the chart stops at the last turn at which at least this share of the games still go on
# (past it the few long games left make a noisy, unrepresentative line)


class TraceMismatch(ValueError):
    """The events do not add up to the standings the game reports (a trace format this module misreads)."""


@dataclass
class Standings:
    """Per game of the sample: an array (turns + 1, units) of standings (row 0: after the deal)."""

    game: str
    units: list  # the units' names ("seat 0", "team 0+2")
    games: list  # one int64 array per game
    first_index: int  # the run's game index of games[0] (the sample is game indices first_index ...)
    label: str  # what a standing counts, as shown (e.g. "points", "cards in hand")
    sign: int  # shown value = sign * standing (cards: the standing is minus the cards held)
    length_label: str


def _check(ok, what):
    if not ok:
        raise TraceMismatch(what)


def _distance(events, n):
    hand = [0] * n
    rows = []
    for ev in events:
        kind = ev["type"]
        if kind == "deal":
            hand[ev["seat"]] = len(ev["cards"])
        elif kind == "turn":
            rows.append([-h for h in hand])  # the standing after the previous turn (the first: after the deal)
            _check(hand[ev["seat"]] == ev["hand_size"], f"turn {ev['turn']}: hand size {hand[ev['seat']]}, "
                                                         f"the trace says {ev['hand_size']}")
        elif kind == "play":
            hand[ev["seat"]] -= len(ev["cards"])
        elif kind == "draw":
            hand[ev["seat"]] += 1
        elif kind == "end":
            rows.append([-h for h in hand])
            _check(hand == list(ev["cards_left"]), f"cards left {hand}, the trace says {ev['cards_left']}")
            _check(len(rows) == ev["turns"] + 1, "turn count")
    return [f"seat {s}" for s in range(n)], rows


def _fightsong(events, n):
    names, rows, current = None, [], None
    for ev in events:
        kind = ev["type"]
        if kind in ("record", "fight_song_end"):
            names = names or list(ev["round_points"])
            current = [ev["round_points"][t] + ev["extra_points"][t] for t in names]
        elif kind == "hand":
            if ev["hand"] == 1:
                rows.append(None)  # after the deal: every team at 0 (filled in below, once the teams are known)
            else:
                rows.append(current)
        elif kind == "end":
            names = names or list(ev["totals"])
            rows.append([ev["totals"][t] for t in names])
            _check(len(rows) == ev["hands"] + 1, "hand count")
    rows = [[0] * len(names) if r is None else r for r in rows]
    return [f"team {t}" if "+" in t else f"seat {t}" for t in names], rows


def _noize(events, n):
    rows = []
    start = [None] * n
    for ev in events:
        kind = ev["type"]
        if kind == "deal" and start[ev["seat"]] is None:
            start[ev["seat"]] = len(ev["cards"])
        elif kind == "count":
            if not rows:
                rows.append([-c for c in start])
            rows.append([-c for c in ev["hand_sizes"]])
        elif kind == "end":
            _check(len(rows) == ev["rounds"] + 1, "round count")
    return [f"seat {s}" for s in range(n)], rows


def _bards(events, n):
    rows, totals = [], [0] * n
    for ev in events:
        kind = ev["type"]
        if kind == "conclude":
            totals = list(ev["totals"])
        elif kind == "turn":
            rows.append(list(totals))
        elif kind == "result":
            if not rows:
                rows.append(list(totals))
            rows.append(list(ev["scores"]))
            _check(len(rows) == ev["turns"] + 1, "turn count")
    return [f"seat {s}" for s in range(n)], rows


# game name: (reader of one game's events, the event types it reads (the only ones decoded: the game's play_traced
# takes them), what a standing counts as shown, the sign that shows it)
READERS = {
    "distance": (_distance, ("deal", "turn", "play", "draw", "end"), "cards in hand", -1),
    "fightsong": (_fightsong, ("record", "fight_song_end", "hand", "end"), "points (round + extra)", 1),
    "noize": (_noize, ("deal", "count", "end"), "cards held", -1),
    "bards": (_bards, ("conclude", "turn", "result"), "points", 1),
}


def standings_of_events(game_name, events, n):
    """(unit names, array (turns + 1, units)) of one traced game (from its events, or only those of the
    reader's types)."""
    reader = READERS[game_name][0]
    units, rows = reader(events, n)
    return units, np.asarray(rows, dtype=np.int64).reshape(len(rows), len(units))


def standings_by_turn(result, g, k=K_GAMES):
    """The standings turn by turn of the run's first k games (game indices 0 .. k-1) of group g, seat
    rotation 0, replayed exactly as the run played them; None if the game has no reader here."""
    sc = result.scenario
    game = sc.game
    if game.name not in READERS:
        return None
    arm = next(a for a in g.arms if a.rotation == 0)
    encoded = arm.encoded(game)
    games, units = [], None
    _, types, label, sign = READERS[game.name]
    for i in range(min(k, result.games)):
        events, _ = game.play_traced(encoded, sc.seed, i, types=types)  # (game.trace's, of the types read)
        units, rows = standings_of_events(game.name, events, g.players)
        games.append(rows)
    return Standings(game.name, units or [], games, 0, label, sign, game.length_label)


@dataclass
class Bands:
    """By turn 0 .. last: the games still going (a game is going at its own last turn), the leader's margin
    (the best unit's standing minus the second best) among them: mean, 10th and 90th percentiles; each unit's
    mean shown standing among them."""

    turns: np.ndarray
    going: np.ndarray
    margin_mean: np.ndarray
    margin_p10: np.ndarray
    margin_p90: np.ndarray
    unit_means: np.ndarray  # (turns, units)


def bands(st, min_share=MIN_SHARE_GOING):
    """Bands up to the last turn at which at least min_share of the sample (and at least 2 games) still go on."""
    lengths = np.array([len(r) - 1 for r in st.games])
    need = max(2, int(np.ceil(min_share * len(st.games))))
    last = 0
    while np.sum(lengths >= last + 1) >= need:
        last += 1
    turns = np.arange(last + 1)
    going = np.array([np.sum(lengths >= t) for t in turns])
    mean, p10, p90 = (np.zeros(len(turns)) for _ in range(3))
    unit_means = np.zeros((len(turns), len(st.units)))
    for t in turns:
        rows = np.array([r[t] for r in st.games if len(r) > t], dtype=np.int64)
        top = np.sort(rows, axis=1)
        margin = top[:, -1] - top[:, -2] if rows.shape[1] > 1 else np.zeros(len(rows))
        mean[t], p10[t], p90[t] = margin.mean(), np.percentile(margin, 10), np.percentile(margin, 90)
        unit_means[t] = st.sign * rows.mean(axis=0)
    return Bands(turns, going, mean, p10, p90, unit_means)


def trajectory_figure(result, g, out, prefix="", k=K_GAMES):
    """The report's Figure block of how group g's games unfold (from its first k games), or [] when the game
    or the run cannot give one (no reader for the game, no game played, no game longer than the deal)."""
    if result.games == 0 or result.scenario.game.name not in READERS:
        return []
    st = standings_by_turn(result, g, k)
    if st is None or not st.games or max(len(r) for r in st.games) < 2:
        return []
    b = bands(st)
    unit = st.length_label.rstrip("s")
    slug = f"{file_slug(prefix)}-" if prefix else ""
    margin_label = f"lead ({st.label.split(' (')[0]})"
    path = figures.trajectory(out / f"{slug}trajectory.png", b.turns, (b.margin_mean, b.margin_p10, b.margin_p90),
                              list(zip(st.units, b.unit_means.T)), 100 * b.going / len(st.games),
                              f"How a game unfolds, {unit} by {unit}", unit, margin_label,
                              st.label)
    games = len(st.games)
    who = "team" if st.units[0].startswith("team") else "seat"
    lead = (f"the leading {who}'s {st.label} minus the runner-up's" if st.sign > 0 else
            f"how many fewer {st.label} the leading {who} has than the runner-up")
    caption = (f"Drawn from the run's first {games:,} games (game indices 0 to {games - 1:,}, seat rotation 0, "
               f"replayed from their traces). Top: the lead after each {unit} ({lead}): the mean, and the band "
               f"from the 10th to the 90th percentile, over the games still going. Middle: each {who}'s mean "
               f"{st.label} over the same games. Bottom: the share of "
               f"the games still going; the chart stops at {unit} {int(b.turns[-1])}, the last at which at least "
               f"{100 * MIN_SHARE_GOING:g}% of them were.")
    return [Figure(path, caption)]
