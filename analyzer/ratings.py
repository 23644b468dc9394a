"""Ratings from head-to-head results: Bradley-Terry by maximum likelihood, on an Elo scale, with intervals by a
seeded parametric bootstrap of the pairings' counts (numpy only).

Bradley-Terry: player i beats player j with probability s_i / (s_i + s_j); on the log scale theta = log s,
P(i beats j) = 1 / (1 + exp(theta_j - theta_i)). On the Elo scale a rating is 400 log10 s: 400 points more is
odds of 10 to 1, 100 points about 64%, 0 points 50%. Ratings are anchored: the anchor (the weakest rung) is 0.

Counts may be fractional (a game nobody won counts half to each side). Every pairing that was played gets
PRIOR wins added to each side before fitting, so a rung that won every one of its games still has a finite
rating (without it the likelihood has no maximum); with hundreds of games a pairing, its effect is a
fraction of a point.
"""
from __future__ import annotations

import math

import numpy as np

ELO = 400 / math.log(10)  # Elo points per unit of log-strength (400 points: odds of 10 to 1)
PRIOR = 0.5  # wins added to each side of every pairing played
DRAWS = 2_000  # bootstrap replicates
MAX_STEP = 3.0  # most a Newton step moves a log-strength (keeps the first steps of lopsided data in range)


def fit(wins, games, anchor=0, prior=PRIOR, tol=1e-10, max_iter=200):
    """Log-strengths theta maximising the Bradley-Terry likelihood, theta[..., anchor] = 0.

    wins[..., i, j]: i's wins over j (leading axes: independent data sets, e.g. bootstrap replicates);
    games[i, j] = games[j, i]: games i and j played (wins[i, j] + wins[j, i] = games[i, j]). Every pair that
    played and every player must be connected through pairs that played (else NaN). Newton's method on
    the concave log-likelihood, the anchor's row and column dropped."""
    wins = np.asarray(wins, dtype=float)
    games = np.asarray(games, dtype=float)
    k = games.shape[-1]
    played = games > 0
    np.fill_diagonal(played, False)
    w = np.where(played, wins + prior, 0.0)
    n = np.where(played, games + 2 * prior, 0.0)
    batch = wins.shape[:-2]
    theta = np.zeros(batch + (k,))
    if k < 2 or not _connected(played):
        return np.full(batch + (k,), np.nan)
    keep = [i for i in range(k) if i != anchor]
    total_wins = w.sum(axis=-1)
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(theta[..., None, :] - theta[..., :, None]))  # p[..., i, j]: i beats j
        grad = total_wins - (n * p).sum(axis=-1)
        curv = n * p * (1 - p)  # minus the Hessian off the diagonal, negated: a weighted graph Laplacian
        lap = np.diag(np.ones(k)) * curv.sum(axis=-1)[..., None, :] - curv
        step = np.linalg.solve(lap[..., keep, :][..., :, keep], grad[..., keep][..., None])[..., 0]
        step = np.clip(step, -MAX_STEP, MAX_STEP)
        theta[..., keep] += step
        if np.max(np.abs(step)) < tol:
            break
    return theta


def _connected(played):
    k = played.shape[0]
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(played[i]):
            if j not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == k


def elo(theta):
    return ELO * np.asarray(theta)


def bootstrap(wins, games, effective=None, seed=0, draws=DRAWS, anchor=0, prior=PRIOR):
    """(draws x k) log-strengths refitted on counts drawn again: each pairing's share of wins from a binomial
    of its effective number of games (effective[i, j]: fewer than games when the games of a deal are not
    independent; default games) around its observed share, shrunk by PRIOR (so a pairing one side won every
    game of still varies), scaled back to its games. Seeded: the same counts and seed, the same draws."""
    wins = np.asarray(wins, dtype=float)
    games = np.asarray(games, dtype=float)
    effective = games if effective is None else np.asarray(effective, dtype=float)
    k = games.shape[0]
    rng = np.random.default_rng(seed)
    sims = np.zeros((draws, k, k))
    for i in range(k):
        for j in range(i + 1, k):
            if games[i, j] <= 0:
                continue
            m = max(1, int(round(effective[i, j])))
            p = (wins[i, j] + prior) / (games[i, j] + 2 * prior)
            share = rng.binomial(m, p, size=draws) / m
            sims[:, i, j] = share * games[i, j]
            sims[:, j, i] = games[i, j] - sims[:, i, j]
    return fit(sims, games, anchor=anchor, prior=prior)


def percentile_interval(samples, level=0.95):
    """(low, high) per column of samples (replicates x items): the central level of their distribution."""
    tail = (1 - level) / 2 * 100
    return np.percentile(samples, tail, axis=0), np.percentile(samples, 100 - tail, axis=0)
