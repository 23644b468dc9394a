"""The strength curve's report (`analyzer strength`, or a scenario's [strength] table): how strong each rung
plays (Bradley-Terry ratings on an Elo scale from every pairing's head-to-head games), its direct result
against the rung before it, and whether raising the search budget still gains (saturation). The answer comes
first, one or two sentences and the picture; everything else is folded below it. Also strength.csv."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer import metrics as M
from analyzer import ratings
from analyzer.report import figures
from analyzer.report.blocks import Details, Figure, Heading, Section, Table, Text, lit
from analyzer.report.answer import ANSWER_ID, opening
from analyzer.report.comparison import seat_text_of
from analyzer.report.sections import intro, manifest_section
from analyzer.stats import signed_points, wilson
from analyzer.stopping import z_two_sided

CSV_COLUMNS = ["rung", "policy", "rating", "rating_low", "rating_high", "win_vs_previous", "win_vs_previous_low",
               "win_vs_previous_high", "games_vs_previous", "games"]


@dataclass
class Curve:
    labels: list
    seats: list  # each rung's policy and parameters, as a scenario writes them
    rating: np.ndarray  # Elo, the first (weakest) rung 0
    low: np.ndarray
    high: np.ndarray
    wins: np.ndarray  # wins[i, j]: i's wins over j (a game nobody won: half each)
    games: np.ndarray
    effective: np.ndarray  # games as independent games count (metrics.effective_games)
    z: float  # of every interval: 1.96, or more when a [stop] run looked several times
    level: float  # the intervals' level (0.95, or the Bonferroni level of a stopped run)
    budgets: list
    search: bool
    ladder_rungs: int

    def share(self, i, j):
        """(i's share against j, lo, hi): Wilson on the pairing's effective games."""
        n = self.games[i, j]
        if n <= 0:
            return (math.nan,) * 3
        p = self.wins[i, j] / n
        _, lo, hi = wilson(p * self.effective[i, j], self.effective[i, j], self.z)
        return p, lo, hi

    def rung_games(self, i):
        return int(round(self.games[i].sum()))


def curve(result) -> Curve:
    """The ratings and pairings of a strength run (bootstrap seeded by the scenario's seed)."""
    sc = result.scenario
    comp = sc.comparison
    labels = comp["rungs"]
    k = len(labels)
    wins, games, var = M.pairwise_counts(result.groups, comp["pairs"], k)
    eff = M.effective_games(wins, games, var)
    z = result.groups[0].summary.z
    level = math.erf(z / math.sqrt(2))
    theta = ratings.fit(wins, games)
    if result.games > 0:
        draws = ratings.bootstrap(wins, games, eff, seed=sc.seed)
        lo, hi = ratings.percentile_interval(ratings.elo(draws), level)
    else:
        lo = hi = np.full(k, np.nan)
    return Curve(labels, [seat_text_of(s) for s in comp["rung_seats"]], ratings.elo(theta), lo, hi, wins, games,
                 eff, z, level, list(comp["budgets"]), comp["search"], comp["ladder_rungs"])


def csv_rows(c: Curve):
    """strength.csv: one row per rung, weakest first (ratings to 0.1 Elo point, shares to 6 decimals)."""
    rows = []
    for i, label in enumerate(c.labels):
        prev = c.share(i, i - 1) if i else (math.nan,) * 3
        rows.append([label, c.seats[i], *(_num(x, 1) for x in (c.rating[i], c.low[i], c.high[i])),
                     *(_num(x, 6) for x in prev), int(round(c.games[i, i - 1])) if i else "", c.rung_games(i)])
    return rows


def curve_record(c: Curve, result, man):
    """curve.json: the curve as data, for the skill labels of other reports (analyzer/report/known_curves/ holds the
    shipped ones): each rung's label, seat (policy and parameters as a scenario writes them) and rating with its
    interval, the saturation verdict, and how it was measured."""
    sat, kind = saturation(c, result.scenario.game) if result.games else ("", "none")
    return {"game": result.scenario.game.name, "players": result.groups[0].players, "games": result.games,
            "partial": result.partial, "seed": result.scenario.seed, "command": man.get("command"),
            "analyzer_version": man.get("analyzer_version"), "created": man.get("created"),
            "saturation": kind, "saturation_words": sat, "budgets": c.budgets,
            "rungs": [{"label": label, "seat": seat, "rating": _num(c.rating[i], 1), "rating_low": _num(c.low[i], 1),
                       "rating_high": _num(c.high[i], 1)}
                      for i, (label, seat) in enumerate(zip(c.labels, result.scenario.comparison["rung_seats"]))]}


def _num(x, digits):
    return "" if x is None or math.isnan(x) else round(float(x), digits)


def _pts(x):
    return signed_points(x).lstrip("+")


def _level_words(c):
    return "95%" if abs(c.level - 0.95) < 1e-9 else f"{100 * c.level:.4g}%"


def saturation(c: Curve, game):
    """(sentence, kind): whether the last raise of the search budget still gains, in words that match the
    numbers; kind is saturated, gaining, worse, one_budget or no_search."""
    if not c.search:
        return (f"{lit(game.title)} has no search policy yet, so its curve is its ladder only: there is no budget to "
                f"raise, and whether stronger play is possible is not measured here.", "no_search")
    if len(c.budgets) < 2:
        return ("Only one search budget was played, so whether more budget plays better is not measured: give two or "
                "more (--budgets).", "one_budget")
    small, large = c.budgets[-2], c.budgets[-1]
    i, j = c.labels.index(f"search {small}"), c.labels.index(f"search {large}")
    p, lo, hi = c.share(j, i)
    verb = "doubling" if large == 2 * small else "raising"
    ci = f"{_level_words(c)} CI {signed_points(lo - 0.5)} to {signed_points(hi - 0.5)}"
    gain = (f"{verb} the budget from {small:,} to {large:,} {'gains' if p >= 0.5 else 'loses'} "
            f"{_pts(abs(p - 0.5))} points ({ci})")
    games = f"over {int(round(c.games[i, j])):,} games"
    if lo > 0.5:
        return (f"**Still gaining at {large:,}**: {gain} {games}. Verdicts at the top rung are a lower bound: a "
                f"larger budget plays better still.", "gaining")
    if hi < 0.5:
        return (f"**More budget played worse**: {gain} {games}. The strongest budget measured is {small:,}, so play "
                f"is not saturated in the usual sense either (other search parameters, or more games, would tell).",
                "worse")
    return (f"**Saturated at {small:,}**: {gain} {games}, no detectable gain: the larger budget gains at most "
            f"{_pts(hi - 0.5)} points.", "saturated")


def answer(c: Curve, result):
    """The answer's one or two sentences."""
    sc = result.scenario
    game = sc.game
    players = result.groups[0].players
    top = int(np.nanargmax(c.rating)) if not np.all(np.isnan(c.rating)) else 0
    level = _level_words(c)
    first = (f"In {lit(game.title)} with {players} players, **{lit(c.labels[top])}** rates highest: "
             f"{c.rating[top]:,.0f} Elo points above {lit(c.labels[0])} ({level} CI {c.low[top]:,.0f} to "
             f"{c.high[top]:,.0f})")
    if top > 0:
        p, lo, hi = c.share(top, top - 1)
        first += (f", and it wins {100 * p:.1f}% of its games against {lit(c.labels[top - 1])}, the rung before it "
                  f"({level} CI {100 * lo:.1f}% to {100 * hi:.1f}%)")
    level_with = [lit(c.labels[i]) for i in range(len(c.labels))
                  if i != top and c.low[i] <= c.high[top] and c.high[i] >= c.low[top]]
    if level_with:
        names = level_with[0] if len(level_with) == 1 else ", ".join(level_with[:-1]) + " and " + level_with[-1]
        first += (f"; {names} {'is' if len(level_with) == 1 else 'are'} level with it within the intervals, so the "
                  f"games do not rank {'them' if len(level_with) > 1 else 'the two'} for sure")
    first += "."
    return first, saturation(c, game)


def strength_report(result, out, man):
    """(title, blocks, strength.csv rows, curve.json's record) of a strength run; writes strength.png into out."""
    sc = result.scenario
    c = curve(result)
    title = f"{sc.name}: strength curve"
    b = opening(result, "How much stronger does each rung play than the one below it, and does a larger search "
                        "budget still gain?")
    if result.games == 0:
        b.append(Text("No game was played: no curve to show.", "warning"))
        return (title, [Section(ANSWER_ID, b), Details("How it was played", intro(result, out) + manifest_section(man))],
                csv_rows(c), curve_record(c, result, man))
    first, (sat, _) = answer(c, result)
    b.append(Text(f"{first} {sat}", "verdict"))
    search_idx = [i for i, label in enumerate(c.labels) if i >= c.ladder_rungs]
    path = figures.ratings_with_ci(out / "strength.png", c.labels, c.rating, c.low, c.high,
                                   f"{sc.game.title}, {result.groups[0].players} players: strength by rung",
                                   f"rating (Elo, {c.labels[0]} = 0)", highlight=search_idx)
    b.append(Figure(path, f"Each rung's rating with its {_level_words(c)} interval, weakest rung first"
                          + (" (search budgets in orange)" if search_idx else "") + ": 100 points is a 64% win share "
                          "head to head, 200 points 76%, 400 points 91%."))
    return (title, [Section(ANSWER_ID, b), Details("The rungs, the pairings and how they were measured",
                                                  details(c, result, out, man))], csv_rows(c),
            curve_record(c, result, man))


def details(c: Curve, result, out, man):
    sc = result.scenario
    players = result.groups[0].players
    level = _level_words(c)
    k = len(c.labels)
    rotations = result.groups[0].rotations
    odd = players % 2 == 1
    played = sorted({g.summary.n for g in result.groups})
    deals = (f"{result.games:,} deals" if len(played) == 1 else
             f"deals, {played[0]:,} to {played[-1]:,} of them (a pairing stopped once settled: see below)")
    b = [Heading("The rungs"),
         Text(f"Rungs, weakest first: the game's skill ladder ({c.ladder_rungs} rung{'s' if c.ladder_rungs > 1 else ''})"
              + (f", then its search policy at each budget ({', '.join(f'{x:,}' for x in c.budgets)} iterations per "
                 f"decision)" if c.search else ", and no search rungs: the game has no search policy yet")
              + f". Every pair of rungs played the same {deals} head to head: the {players} seats "
              f"alternate between the two rungs" + (f" (and, with an odd number of seats, also the other way round, "
                                                    f"so each rung sits as often)" if odd else "")
              + f", every deal played once in each of the {rotations} rotations of the seats, so the advantage of a "
              f"seat cancels out. A game counts for the rung whose seat won"
              + (" (its team: partners sit opposite, so each team is one rung)" if sc.game.teams(players) else "")
              + "; a game nobody won counts half to each.")]
    rows = []
    for i, label in enumerate(c.labels):
        prev = "-"
        if i:
            p, lo, hi = c.share(i, i - 1)
            prev = f"{100 * p:.1f}% ({100 * lo:.1f} to {100 * hi:.1f}) of {int(round(c.games[i, i - 1])):,}"
        rating = "0 (the anchor)" if i == 0 else f"{c.rating[i]:,.0f} ({c.low[i]:,.0f} to {c.high[i]:,.0f})"
        rows.append([label, c.seats[i], rating, prev,
                     f"{c.rung_games(i):,}"])
    b.append(Table(["rung", "policy", f"rating, Elo ({level} CI)", f"wins against the rung before ({level} CI)",
                    "games"], rows,
                   "Ratings: Bradley-Terry by maximum likelihood on every pairing's games, on the Elo scale (400 "
                   "points: odds of 10 to 1), the weakest rung at 0; intervals by a seeded parametric bootstrap of "
                   f"every pairing's counts ({ratings.DRAWS:,} draws). Half a win is added to each side of every "
                   "pairing, so a rung that won all its games still gets a finite rating."))
    b.append(Heading("Saturation", 3))
    b.append(Text(saturation(c, sc.game)[0], "verdict"))
    b.append(Text("Points are the larger budget's head-to-head win share above an even 50%, from their direct "
                  "pairing; 'saturated' means that pairing's interval includes 50%: the games cannot tell the two "
                  "budgets apart, and the interval's upper end is the most a larger budget could still gain."))
    b.append(Heading("Head to head", 3))
    matrix = []
    for i in range(k):
        row = [c.labels[i]]
        for j in range(k):
            if i == j:
                row.append("-")
            else:
                p, lo, hi = c.share(i, j)
                row.append(f"{100 * p:.1f}% ({100 * lo:.1f} to {100 * hi:.1f})")
        matrix.append(row)
    b.append(Table(["rung \\ opponent"] + c.labels, matrix,
                   f"The row rung's share of its games against the column rung, {level} Wilson intervals on the "
                   "pairing's games (counted as fewer where the rotations of a deal turned out positively correlated)."))
    b += _misfit(c)
    if len(played) > 1:
        b += _pairings_played(c, result)
    b += intro(result, out)
    b += manifest_section(man)
    return b


def _pairings_played(c: Curve, result):
    """How many deals each pairing played, when a [stop] rule settled some before others."""
    deals = {}
    for g, (a, b) in zip(result.groups, result.scenario.comparison["pairs"]):
        deals[(min(a, b), max(a, b))] = g.summary.n
    rows = []
    for (i, j), n in deals.items():
        p, lo, hi = c.share(i, j)
        rows.append([f"{c.labels[i]} vs {c.labels[j]}", f"{n:,}", f"{100 * p:.1f}% ({100 * lo:.1f} to {100 * hi:.1f})"])
    return [Heading("Deals each pairing played", 3),
            Table(["pairing", "deals", f"share of the first ({_level_words(c)} CI)"], rows,
                  "Under [stop], a pairing stops at the first look where it is settled while the others play on; "
                  "the intervals are the run's Bonferroni intervals over its looks.")]


def _misfit(c: Curve):
    """A warning when a pairing's direct share disagrees with the ratings (strength is then not one number:
    rung A beats B, B beats C, C beats A, in part)."""
    bad = []
    k = len(c.labels)
    pairs = k * (k - 1) // 2
    z = z_two_sided((1 - c.level) / pairs)  # (one of many pairings misses its interval by chance alone)
    for i in range(k):
        for j in range(i + 1, k):
            p = c.wins[i, j] / c.games[i, j] if c.games[i, j] else math.nan
            _, lo, hi = wilson(p * c.effective[i, j], c.effective[i, j], z) if c.games[i, j] else (math.nan,) * 3
            expected = 1 / (1 + 10 ** ((c.rating[j] - c.rating[i]) / 400))
            if not math.isnan(lo) and not lo <= expected <= hi:
                bad.append(f"{lit(c.labels[i])} against {lit(c.labels[j])}: {100 * p:.1f}% measured, "
                           f"{100 * expected:.1f}% from the ratings")
    if not bad:
        return []
    return [Text("Where the ratings do not fit a pairing (its direct share's interval, widened for the number of "
                 "pairings, misses what the ratings predict), strength is not a single number there: " + "; ".join(bad) + ". Read those pairings "
                 "directly.", "warning")]
