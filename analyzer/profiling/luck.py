"""Where a seat's outcome comes from: its variance split between the deal, the seat and the bots' decisions.

Every deal d of the luck split is played R times (replays r: the same shuffles, the decisions re-seeded:
analyzer.rng), so each seat s has an outcome Y[d, r, s] (its share of the win, or its score margin). For each seat
the deals x replays table is a two-way crossed design without repetition, and the usual random-effects estimators
(mean squares, method of moments) give the variance that the deal explains (sigma2_D), that the replay number
explains alone (sigma2_R: a replay's number means nothing from one deal to the next, so it is about 0) and what is
left (sigma2_DR: how the re-seeded decisions move the outcome on a given deal). Averaged over the seats:

    deal, every seat alike   the deal's effect on the seats' mean outcome (the same ANOVA on it)
    deal, seat against seat  the rest of the deal's effect: which seat the cards favour
    seat                     the variance of the seats' mean outcomes (the first seat's edge), less its noise
    decisions                sigma2_R + sigma2_DR: what the same deal's outcome varies by when replayed

Their sum is the outcome's variance (up to the estimators' noise); each share is its part of that sum, a
component estimated below 0 taken as 0. The 95% intervals resample deals (a deal keeps all its replays and seats).
With deterministic bots the decisions' share is about 0: the same deal is played the same way (the report says
so); the share measures the randomness in the bots' play at that level, not how much skill could change.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

COMPONENTS = (
    ("deal_alike", "the deal, for every seat alike"),
    ("deal_seat", "the deal, favouring one seat over another"),
    ("seat", "the seat"),
    ("decisions", "the bots' decisions"),
)
BOOTSTRAP = 200  # resamples of the deals for the intervals
BOOTSTRAP_SEED = 20261126  # (fixed: the same rows give the same intervals)


@dataclass
class Split:
    """One outcome's split at one level: each component's share (0..1) with its 95% interval, and the variance."""

    outcome: str
    shares: dict  # component key (COMPONENTS, and "deal": its two parts) -> (share, low, high)
    variance: float
    deals: int
    replays: int


def win_credit(rows, players):
    """(..., players) float: each seat's share of the win (1/k for k tied winners; 0 in a game nobody won)."""
    wins = rows[..., :players].astype(float)
    n_win = rows[..., players:players + 1].astype(float)
    return np.divide(wins, n_win, out=np.zeros_like(wins), where=n_win > 0)


def sides(teams, players):
    """Each seat's side: its team where partners play (teams: the game's teams, or None), else itself."""
    side = list(range(players))
    for t, seats in enumerate(teams or ()):
        for s in seats:
            side[s] = t
    return side


def first_unit_share(credit, teams):
    """(...) of the first seat's (its team's) share of the win, from credit (..., seats)."""
    return credit[..., list(teams[0])].sum(axis=-1) if teams else credit[..., 0]


def score_margin(rows, columns, players, score, teams=None):
    """(..., players) float: each seat's final score minus the best score among the seats not on its side (its
    team, or itself), with `score` = (column prefix, +1 if more is better, -1 if fewer is better)."""
    prefix, sign = score
    idx = [columns.index(f"{prefix}{s}") for s in range(players)]
    scores = sign * rows[..., idx].astype(float)
    side = sides(teams, players)
    out = np.empty_like(scores)
    for s in range(players):
        others = [o for o in range(players) if side[o] != side[s]]
        out[..., s] = scores[..., s] - scores[..., others].max(axis=-1)
    return out


def _components(y):
    """Variance components of y (deals, replays, seats): dict of the four (unclipped) estimates."""
    d, r, n = y.shape
    cell = y.mean(axis=1)  # (d, n): deal x seat means over the replays
    rep = y.mean(axis=0)  # (r, n)
    seat = y.mean(axis=(0, 1))  # (n,)
    ms_deal = r * ((cell - seat) ** 2).sum(axis=0) / (d - 1)
    ms_rep = d * ((rep - seat) ** 2).sum(axis=0) / (r - 1)
    resid = y - cell[:, None, :] - rep[None, :, :] + seat[None, None, :]
    ms_err = (resid ** 2).sum(axis=(0, 1)) / ((d - 1) * (r - 1))
    s2_deal = ((ms_deal - ms_err) / r).mean()
    s2_rep = ((ms_rep - ms_err) / d).mean()
    s2_err = ms_err.mean()
    # the deal's effect on the seats' mean outcome: the same estimator on the mean over seats
    ybar = y.mean(axis=2)
    cbar, rbar, gbar = ybar.mean(axis=1), ybar.mean(axis=0), ybar.mean()
    msd = r * ((cbar - gbar) ** 2).sum() / (d - 1)
    mse = ((ybar - cbar[:, None] - rbar[None, :] + gbar) ** 2).sum() / ((d - 1) * (r - 1))
    s2_alike = (msd - mse) / r
    # the seats' means vary by their effect plus their noise (each mean is over d x r games)
    noise = ((ms_deal / (d * r)).mean()) * (n - 1) / n
    s2_seat = ((seat - seat.mean()) ** 2).mean() - noise
    return {"deal_alike": s2_alike, "deal_seat": s2_deal - s2_alike, "seat": s2_seat, "decisions": s2_rep + s2_err}


def _shares(comp):
    """Each component's share of their sum (a component estimated below 0 counts as 0), and "deal": the deal's two
    parts together."""
    scale = sum(abs(v) for v in comp.values())
    # (below 0, or within rounding of 0: an outcome that replays never change has no decisions' share at all)
    clipped = {k: (v if v > 1e-12 * scale else 0.0) for k, v in comp.items()}
    total = sum(clipped.values())
    out = {k: (v / total if total > 0 else 0.0) for k, v in clipped.items()}
    out["deal"] = out["deal_alike"] + out["deal_seat"]
    return out


def split(y, outcome):
    """The Split of outcome values y (deals, replays, seats), intervals by resampling the deals."""
    d, r, _ = y.shape
    point = _shares(_components(y))
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    boots = {k: [] for k in point}
    for _ in range(BOOTSTRAP):
        sample = _shares(_components(y[rng.integers(0, d, d)]))
        for k, v in sample.items():
            boots[k].append(v)
    shares = {k: (point[k], float(np.percentile(boots[k], 2.5)), float(np.percentile(boots[k], 97.5)))
              for k in point}
    return Split(outcome, shares, float(y.var()), d, r)


