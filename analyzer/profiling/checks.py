"""The warning flags: each check's figure with its 95% interval, against its threshold (spec.FLAGS: defaults, and
[profile.thresholds] to change them). A check is green, flagged, or not measured (with the reason)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.profiling.luck import first_unit_share
from analyzer.stats import excludes, mean_ci, wilson

EARLY_SHARE = 0.2  # "decided early": the winner never trails again after this share of the game's length


@dataclass
class Check:
    key: str
    title: str
    figure: tuple | None  # (value, low, high) in the flag's unit (points or %), None: not measured
    threshold: float
    flagged: bool | None  # None: not measured
    words: str  # the figure in a sentence, or why it was not measured


def _deal_mean(values):
    """(mean, low, high) of per-game values (replays, deals): the mean over deals of each deal's mean over replays."""
    per_deal = values.mean(axis=0)
    return mean_ci(per_deal.sum(), (per_deal * per_deal).sum(), len(per_deal))


def first_seat_edge(credit, teams, threshold):
    units = len(teams) if teams else credit.shape[-1]
    fair = 1 / units
    share = _deal_mean(first_unit_share(credit, teams))
    edge = tuple(100 * (v - fair) for v in share)
    who = "team" if teams else "seat"
    flagged = abs(edge[0]) > threshold and excludes(fair, share[1], share[2])
    words = (f"the first {who} wins {100 * share[0]:.1f}% (95% CI {100 * share[1]:.1f}-{100 * share[2]:.1f}%) "
             f"against an even {100 * fair:.1f}%: {edge[0]:+.1f} points")
    return Check("first_seat_edge", f"First-{who} edge", edge, threshold, flagged, words)


def decided_early(rows, columns, threshold):
    """Share of games whose winner never trails again after the first fifth (drama's decided_at)."""
    at = rows[..., columns.index("decided_at")].astype(float)
    length = rows[..., columns.index("length")].astype(float)
    early = (at <= EARLY_SHARE * length).astype(float)
    share = tuple(100 * v for v in _deal_mean(early))
    return Check("decided_early", "Games decided early", share, threshold, share[0] > threshold,
                 f"in {share[0]:.1f}% of games (95% CI {share[1]:.1f}-{share[2]:.1f}%) the winner never trails again "
                 f"after the first fifth of the game")


def unfinished(rows, players, threshold):
    none = (rows[..., players] == 0).astype(float)
    share = tuple(100 * v for v in _deal_mean(none))
    return Check("unfinished", "Games without a winner", share, threshold, share[0] > threshold,
                 f"no winner in {share[0]:.2f}% of games (95% CI {share[1]:.2f}-{share[2]:.2f}%)")


def runaway_leader(leads, threshold):
    """leads: [(a sole leader at half-time, it won)] of the traced games."""
    with_leader = [won for has, won in leads if has]
    if not with_leader:
        return Check("runaway_leader", "Runaway leader", None, threshold, None,
                     "no traced game had a sole leader at half-time")
    share = tuple(100 * v for v in wilson(sum(with_leader), len(with_leader)))
    return Check("runaway_leader", "Runaway leader", share, threshold, share[0] > threshold,
                 f"the sole leader at half-time wins {share[0]:.1f}% of games (95% CI {share[1]:.1f}-{share[2]:.1f}%; "
                 f"{len(with_leader):,} of {len(leads):,} traced games had one)")


def half_time_lead(standings, won_units):
    """(a sole leader at half-time, it won) of one game: standings (turns + 1, units), higher better; won_units:
    the units among the winners."""
    turns = standings.shape[0] - 1
    row = standings[turns // 2]
    top = row.max()
    leaders = np.flatnonzero(row == top)
    if len(leaders) != 1:
        return False, False
    return True, int(leaders[0]) in won_units


def kingmaker(shares, threshold):
    """shares: [(seat, (share, low, high))] of games a losing seat's random play changes the winner, or None."""
    if shares is None:
        return Check("kingmaker", "Kingmaking", None, threshold, None,
                     "needs 3 or more sides (seats, or teams where partners play)")
    seat, share = max(shares, key=lambda t: t[1][0])
    pct = tuple(100 * v for v in share)
    return Check("kingmaker", "Kingmaking", pct, threshold, pct[0] > threshold,
                 f"seat {seat}, losing either way, changes who wins in {pct[0]:.1f}% of games (95% CI "
                 f"{pct[1]:.1f}-{pct[2]:.1f}%) by playing at random instead of at the level")


def kingmaker_share(base_win, changed_win, seat, side_of):
    """(share, low, high) of deals where `seat`'s side wins in neither game and the winners differ; *_win:
    (deals, seats) 0/1."""
    side = [s for s in range(base_win.shape[1]) if side_of[s] == side_of[seat]]
    lost_both = (base_win[:, side].sum(axis=1) == 0) & (changed_win[:, side].sum(axis=1) == 0)
    changed = (base_win != changed_win).any(axis=1)
    return wilson(int((lost_both & changed).sum()), base_win.shape[0])


def dominant(edges, threshold):
    """edges[a][b]: (points above its fair share, low, high) of policy a against policy b; None: not measured."""
    if edges is None:
        return Check("dominant_edge", "Dominant strategy", None, threshold, None,
                     "needs two or more heuristic policies (not random, lookahead or search)")
    best = None
    for a, row in edges.items():
        worst = min(row.values(), key=lambda e: e[0])
        if best is None or worst[0] > best[1][0]:
            best = (a, worst)
    a, worst = best
    flagged = worst[0] > threshold
    ci = f"95% CI {worst[1]:+.1f} to {worst[2]:+.1f}"
    words = (f"{a} wins at least {worst[0]:+.1f} points above its fair share against every other rule of thumb "
             f"(its weakest pairing; {ci})" if flagged else
             f"no rule of thumb dominates: the best, {a}, wins {worst[0]:+.1f} points above its fair share against "
             f"its strongest opponent ({ci})")
    return Check("dominant_edge", "Dominant strategy", worst, threshold, flagged, words)


def few_choices(total_row, threshold):
    """total_row: the ChoiceRow of all decisions, or None (the game counts none)."""
    if total_row is None:
        return Check("real_choices", "Real choices", None, threshold, None, "the game counts no decisions yet")
    share = tuple(100 * v for v in total_row.real)
    return Check("real_choices", "Real choices", share, threshold, share[0] < threshold,
                 f"real choices: {share[0]:.1f}% of decisions (95% CI {share[1]:.1f}-{share[2]:.1f}%); a single "
                 f"option: {100 * total_row.forced[0]:.1f}%")

