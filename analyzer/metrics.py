"""Numbers a report shows, computed from group summaries (analyzer.summary.Summary).

A metric is a ratio of per-deal sums, sum(num) / sum(den) (den None: per deal), scaled. A per-deal
mean is the special case den = None. Intervals use the per-deal variance of the linearised ratio;
comparisons between groups use the cross products of the two groups' rows (the same deals), so
differences are paired.

The definitions depend on the game and the row layout (analyzer.fold) only, so the layers below the report
read them too: a scenario's validation (the metrics a variant measures), the fold's plan (the column pairs
and histograms a summary keeps) and the stopping rule. The intervals read a summary's sums as given.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from analyzer.fold import CREDIT
from analyzer.games.base import CardPower, Histogram, PerSeat, Ratio
from analyzer.stats import signed_points, wilson


@dataclass(frozen=True)
class Metric:
    key: str  # stable id, used in summary.csv and for sweep targets
    label: str
    num: str
    den: str | None = None
    scale: float = 1.0  # value = scale * sum(num) / sum(den or deals)
    percent: bool = False
    per_rotation: bool = True  # divide per-deal sums by the number of rotations
    binary: bool = False  # num is 0/1 per game: Wilson interval when there is one rotation
    offset: float = 0.0  # added to the value (e.g. minus an even share); no effect on differences' spread
    # a second per-deal column added with its own scale (per-deal means only), e.g. an even share that
    # leaves out games with no winner: credit / CREDIT - (1 - no_winner) / n
    adjust: str | None = None
    adjust_scale: float = 0.0
    points: bool = False  # a difference of two rates (e.g. a share minus an even share): shown in points

    def fmt(self, x):
        if x is None or math.isnan(x):
            return "n/a"
        if self.points:
            return f"{signed_points(x)} pts"
        return f"{100 * x:.1f}%" if self.percent else f"{x:.3g}" if abs(x) < 100 else f"{x:,.1f}"

    def fmt_diff(self, x):
        if math.isnan(x):
            return "n/a"
        if self.percent:
            return f"{100 * x:+.2f} pts" if abs(x) < 0.01 else f"{100 * x:+.1f} pts"
        return f"{x:+.3g}"


def _cov(gs, a, gb, b, n):
    """Covariance over deals of column a of group summary gs with column b of gb (gb is gs or base)."""
    ia, ib = gs.index[a], gb.index[b]
    sab = gs.xx(ia, ib) if gs is gb else gs.xb(ia, ib)
    return (float(sab) - float(gs.sums[ia]) * float(gb.sums[ib]) / n) / (n - 1)


def _terms(metric, g, rotations):
    """(value, linear terms [(coef, summary, column)]) whose per-deal combination has the value's
    sampling variance (delta method)."""
    n = g.n
    rot = rotations if metric.per_rotation else 1
    sx = g.s(metric.num)
    if metric.den is None:
        value = metric.scale * sx / (n * rot) + metric.offset
        terms = [(metric.scale / rot, g, metric.num)]
        if metric.adjust is not None:
            value += metric.adjust_scale * g.s(metric.adjust) / (n * rot)
            terms.append((metric.adjust_scale / rot, g, metric.adjust))
        return value, terms
    sy = g.s(metric.den)
    if sy == 0:
        return math.nan, []
    r = sx / sy
    my = sy / n
    return metric.scale * r + metric.offset, [(metric.scale / my, g, metric.num), (-metric.scale * r / my, g, metric.den)]


def _var(terms, n):
    """Per-deal variance of sum(coef * column); terms span one group, or a group and the baseline."""
    v = 0.0
    for ca, ga, a in terms:
        for cb, gb, b in terms:
            if ga is gb or ga.cross is not None:  # same group, or ga is the group compared to gb
                v += ca * cb * _cov(ga, a, gb, b, n)
            else:
                v += ca * cb * _cov(gb, b, ga, a, n)
    return max(v, 0.0)


def value_of(metric, g, rotations):
    """A metric's value for one group (no interval): g needs only n and s(column) (e.g. a block's sums)."""
    return _terms(metric, g, rotations)[0]


def value_ci(metric, g, rotations):
    """(value, lo, hi) of a metric for one group."""
    if g.n == 0:
        return (math.nan, math.nan, math.nan)
    if metric.binary and rotations == 1 and metric.den is None and metric.adjust is None:
        p, lo, hi = wilson(g.s(metric.num), g.n, g.z)
        return tuple(metric.scale * x + metric.offset for x in (p, lo, hi))
    value, terms = _terms(metric, g, rotations)
    if math.isnan(value) or g.n < 2:
        return (value, math.nan, math.nan)
    half = g.z * math.sqrt(_var(terms, g.n) / g.n)
    lo, hi = value - half, value + half
    if metric.percent and metric.offset == 0:  # a proportion: the interval stays within 0..100%
        lo, hi = max(lo, 0.0), min(hi, 1.0)
    return (value, lo, hi)


def diff_ci(metric, g, rot_g, base, rot_base, paired=True, base_metric=None):
    """(value_g - value_base, lo, hi): paired over the same deals unless paired=False.

    base_metric: the baseline's own definition of the metric when it differs (e.g. another even share)."""
    vg, tg = _terms(metric, g, rot_g)
    vb, tb = _terms(base_metric or metric, base, rot_base)
    d = vg - vb
    if math.isnan(d) or g.n < 2:
        return (d, math.nan, math.nan)
    terms = tg + [(-c, s, col) for c, s, col in tb]
    if paired:
        var = _var(terms, g.n)
    else:
        var = _var(tg, g.n) + _var(tb, base.n)
    half = g.z * math.sqrt(var / g.n)
    return (d, d - half, d + half)


# (id(game), players, rotations) -> (game, {key: metric}): a report looks metrics up a thousand times. The game is
# kept with its table, so its id is not reused by another game while the table is here
_BY_KEY = {}


def metric_for(game, players, rotations, key):
    """The definition of metric `key` for a group of that many players and rotations (its even
    share depends on the player count), or None if such a group has no such metric."""
    found = _BY_KEY.get((id(game), players, rotations))
    if found is None:
        by_key = {}
        for m in standard_metrics(game, players, rotations):
            by_key.setdefault(m.key, m)
        found = _BY_KEY[id(game), players, rotations] = (game, by_key)
    return found[1].get(key)


def sweep_metric_for(game, players, rotations, key):
    """A sweep's target metric `key` for a group of that shape: a standard metric (metric_for), or the win share
    minus an even share of a seat, a team or a policy (edge_win_share_S, edge_team_share_T, edge_policy_J, the
    last with seat rotations); None if such a group has no such metric."""
    found = metric_for(game, players, rotations, key)
    if found is not None:
        return found
    edges = [u.edge for u in win_units(game, players)]
    if rotations > 1:
        edges += [policy_edge(j, players) for j in range(players)]
    return next((m for m in edges if m.key == key), None)


def target_terms(metric):
    """((column, weight), ...) of a per-deal mean metric (den None): integer weights whose per-deal sum t gives
    the deal's value, scale * t / rotations + offset (the rotations: per_rotation's). The column alone, or
    with its adjust column (an even share's no_winner: weight CREDIT / units, a whole number up to 8 units)."""
    if metric.adjust is None:
        return ((metric.num, 1),)
    weight = metric.adjust_scale / metric.scale
    assert abs(weight - round(weight)) < 1e-9, f"{metric.key}: no integer weight for {metric.adjust}"
    return ((metric.num, 1), (metric.adjust, round(weight)))


def has(g, metric):
    return all(c in g.index for c in (metric.num, metric.den, metric.adjust) if c is not None)


@dataclass(frozen=True)
class WinUnit:
    """Who wins: a seat, or a team of partners in a team game."""

    name: str  # "seat 0 (plays first)", "team of seats 0+2 (seat 0 plays first)"
    share: Metric  # win share (shared wins split evenly)
    edge: Metric  # win share minus an even share of the games that had a winner
    incl: str  # per-deal column: won, alone or tied
    solo: str  # per-deal column: won alone


def win_units(game, players):
    """The seats, or the teams, that a report's "who wins" questions are about."""
    teams = game.teams(players)
    units = []
    for u, seats in enumerate(teams or [(s,) for s in range(players)]):
        first = " (plays first)" if 0 in seats and len(seats) == 1 else " (seat 0 plays first)" if 0 in seats else ""
        if teams:
            name, col, key = f"team of seats {'+'.join(map(str, seats))}{first}", f"tcredit_{u}", f"team_share_{u}"
        else:
            name, col, key = f"seat {u}{first}", f"credit_{u}", f"win_share_{u}"
        share = Metric(key, f"Win share, {name}", col, scale=1 / CREDIT, percent=True)
        units.append(WinUnit(name, share, even_edge(f"edge_{key}", f"{name}: win share minus an even share", col,
                                                     len(teams or range(players))),
                             f"win_{seats[0]}", f"solo_{seats[0]}"))
    return units


def even_edge(key, label, credit_column, n_units):
    """A win share minus an even share of the games that had a winner (1 / n_units of them)."""
    return Metric(key, label, credit_column, scale=1 / CREDIT, percent=True, offset=-1 / n_units,
                  adjust="no_winner", adjust_scale=1 / n_units, points=True)


def even_share(g, n_units, rotations):
    """The share each seat (or team) would win if wins were even: 1 / n_units of the games with a winner."""
    return (1 - g.s("no_winner") / (g.n * rotations)) / n_units if g.n else math.nan


def standard_metrics(game, players, rotations):
    """The key metrics of every game, then the game's own (its Ratio / PerSeat declarations)."""
    units = win_units(game, players)
    first = units[0]
    who = "Team of seat 0" if game.teams(players) else "Seat 0"
    out = [replace(first.edge, key="first_player_edge", label=f"{who} (plays first): win share minus an even share")]
    if game.teams(players):
        out += [u.share for u in units]
    for s in range(players):
        who = "seat 0 (plays first)" if s == 0 else f"seat {s}"
        out.append(Metric(f"win_share_{s}", f"Win share, {who}", f"credit_{s}", scale=1 / CREDIT, percent=True))
    if rotations > 1:
        for j in range(players):
            out.append(Metric(f"policy_share_{j}", f"Win share, policy of seat {j}", f"pcredit_{j}",
                              scale=1 / CREDIT, percent=True))
        out += pair_shares(game, players)
    tied = "teams" if game.teams(players) else "players"
    out.append(Metric("shared_wins", f"Games with a shared win (two or more {tied} tied)", "shared", percent=True,
                      binary=True))
    out.append(Metric("no_winner", "Games with no winner", "no_winner", percent=True, binary=True))
    out.append(Metric("length", f"{game.length_label.capitalize()} per game", "length"))
    for m in game.metrics:
        if isinstance(m, Ratio):
            out.append(Metric(ratio_key(m), m.label, m.num, m.den, percent=m.percent, binary=m.percent and m.den is None))
        elif isinstance(m, PerSeat):
            for s in range(players):
                out.append(Metric(f"{m.prefix}{s}", f"{m.label}, seat {s}", f"{m.prefix}{s}", percent=m.percent,
                                  binary=m.percent))
    return out


def pair_shares(game, players):
    """With seats rotated in a game of partner pairs: each pair's share, the sum of its two policies' shares (a team
    win gives each partner half), so that a report states it with its interval instead of leaving the sum to the
    reader."""
    teams = game.teams(players)
    if not teams or any(len(t) != 2 for t in teams):
        return []
    return [Metric(f"pair_share_{u}", f"Win share, policies of seats {a}+{b} (partners, over all seats)", f"pcredit_{a}",
                   scale=1 / CREDIT, percent=True, adjust=f"pcredit_{b}", adjust_scale=1 / CREDIT)
            for u, (a, b) in enumerate(teams)]


def ratio_key(ratio):
    """The metric key of a game's Ratio declaration (summary.csv's `metric`)."""
    return ratio.num if ratio.den is None else f"{ratio.num}_per_{ratio.den}"


def ladder_metrics(game, players):
    """(win share, skill) of a ladder's rung, the policy of seat 0 in every rotation: its team's share where
    partners play (the rung's credit is half its team's), else its own; skill is that minus an even share."""
    teams = game.teams(players)
    size = len(teams[0]) if teams else 1
    units = len(teams) if teams else players
    share = Metric("policy_share_0", "win share", "pcredit_0", scale=size / CREDIT, percent=True)
    return share, replace(even_edge("skill", "skill", "pcredit_0", units), scale=size / CREDIT)


def interval_metrics(game, players, rotations):
    """Every metric of more than one column whose interval or paired difference a report or a stopping rule
    computes for a group of this shape (a one-column metric reads only that column's own products)."""
    out = list(standard_metrics(game, players, rotations))
    out += [m for u in win_units(game, players) for m in (u.share, u.edge)]
    if rotations > 1:
        out += ladder_metrics(game, players)
        out += [policy_edge(j, players) for j in range(players)]
    return out


def policy_edge(j, players):
    """The win share of the policy of seat j (over every rotation) minus an even share of the games won."""
    return even_edge(f"edge_policy_{j}", f"The policy of seat {j}: win share minus an even share", f"pcredit_{j}",
                     players)


def seats_share(summary, rotations, seats):
    """(wins, games, variance of the wins) of the policies that sit at `seats` in rotation 0 (wherever the
    rotations move them), over a group's games (deals x rotations): a game counts 1 for them if one of them won
    (partners, or a tie among them; a win shared with another seat, their part of its credit) and half if
    nobody won. The variance of the wins' total is from the per-deal sums, so it allows for the rotations of
    a deal not being independent games (the pcredit columns' products with each other: folded_pairs' share_of,
    which a strength curve's groups fold for their even seats)."""
    n = summary.n
    terms = [(1 / CREDIT, f"pcredit_{j}") for j in seats] + [(0.5, "no_winner")]
    total = sum(c * summary.s(col) for c, col in terms)
    if n < 2:
        return total, n * rotations, math.nan
    squares = sum(ca * cb * summary.ss(a, b) for ca, a in terms for cb, b in terms)
    var = max(0.0, (squares - total * total / n) / (n - 1))
    return total, n * rotations, n * var


def pairwise_counts(groups, pairs, k):
    """(wins, games, variance) k x k matrices of head-to-head pairings (analyzer strength): group g seats
    policy pairs[g][0] in the even seats and pairs[g][1] in the odd ones, every rotation played; wins[i, j] is
    i's wins over j (a game nobody won counts half to each), games[i, j] = games[j, i] their games, variance[i,
    j] that of wins[i, j] (seats_share). groups: anything with .summary and .rotations."""
    wins, games, var = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
    for g, (a, b) in zip(groups, pairs):
        players = int(g.summary.spec[0])
        w, n, v = seats_share(g.summary, g.rotations, range(0, players, 2))
        wins[a, b] += w
        wins[b, a] += n - w
        games[a, b] += n
        games[b, a] += n
        var[a, b] += v
        var[b, a] += v
    return wins, games, var


def effective_games(wins, games, var):
    """The games of each pairing as independent games count: fewer than played when the variance of its wins
    (per-deal, pairwise_counts) exceeds a binomial's (its games' outcomes are positively correlated), never
    more (a smaller variance, e.g. seat advantages cancelling within a deal, is not counted as extra games)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = wins / games
        binomial = games * p * (1 - p)
        ratio = np.where((var > binomial) & (binomial > 0), binomial / var, 1.0)
    return np.where(games > 0, games * ratio, 0.0)


def _columns(metric):
    return [c for c in (metric.num, metric.den, metric.adjust) if c is not None]


def folded_pairs(game, players, rotations, names, share_of=None):
    """The (a, b) column pairs whose products a group's summary folds: every column with itself, the columns
    of each metric with each other, and for card power each seat's win column with its category columns
    (analyzer.report.sections.card_power_rows); with share_of (seats), the products seats_share reads for
    those seats' policies. The other pairs are never read, and reading one raises."""
    have = set(names)
    pairs = {(c, c) for c in names}
    for m in interval_metrics(game, players, rotations):
        cols = [c for c in _columns(m) if c in have]
        pairs |= {(a, b) for a in cols for b in cols}
    if share_of is not None:  # the share of the policies of a set of seats (seats_share: a strength pairing's)
        cols = [f"pcredit_{j}" for j in share_of] + ["no_winner"]
        pairs |= {(a, b) for a in cols for b in cols}
    for decl in game.metrics:
        if isinstance(decl, CardPower):
            pairs |= {(f"win_{t}", f"{prefix}{t}") for _, prefix in decl.categories for t in range(players)
                      if f"{prefix}{t}" in have}
    return sorted(pairs)


def histogram_columns(game, players):
    """The game columns whose distributions a report draws: the length, the end condition, each Histogram
    declaration's column and the columns of each PerSeat declaration that is not a rate."""
    cols = ["length", "end"]
    for m in game.metrics:
        if isinstance(m, Histogram):
            cols.append(m.column)
        elif isinstance(m, PerSeat) and not m.percent:  # (a rate per seat is shown without a histogram)
            cols += [f"{m.prefix}{s}" for s in range(players)]
    return cols


def cross_pairs(game, shape, names, base_shape, base_names):
    """The (a, b) pairs, a a column of a group (shape: players, rotations), b of its baseline, whose products
    over the same deals the group's summary folds for paired differences: every column with the baseline's
    column of the same name, and the columns of each metric with those of the baseline's metric of the same
    key (its own definition, e.g. another even share, or the same one)."""
    have, base_have = set(names), set(base_names)
    pairs = {(c, c) for c in names if c in base_have}
    base_metrics = {m.key: m for m in interval_metrics(game, *base_shape)}
    for m in interval_metrics(game, *shape):
        cols = [c for c in _columns(m) if c in have]
        theirs = set(_columns(m)) | set(_columns(base_metrics.get(m.key, m)))
        pairs |= {(a, b) for a in cols for b in theirs if b in base_have}
    return sorted(pairs)
