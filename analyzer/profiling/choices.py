"""Real choices: the game's decision counts (base.Choices columns, counted by the kernels while the luck split's
games play) summed into options per decision, the share of forced decisions and the share of real ones."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.games.base import Choices
from analyzer.stats import ratio_ci


@dataclass
class ChoiceRow:
    label: str  # the kind of decision ("all decisions" for the total)
    help: str
    decisions: int  # over every game counted
    per_game: float
    options: tuple  # options per decision (value, low, high)
    forced: tuple  # share of decisions with one option
    real: tuple  # share of real choices


def _ratio(x, y):
    """(sum x / sum y, low, high): the ratio of totals over the deals with its 95% interval (delta method)."""
    x, y = x.astype(float), y.astype(float)
    return ratio_ci(x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum(), len(x))


def choice_rows(game, rows, players):
    """One ChoiceRow per Choices declaration of the game that counted a decision, then the total if more than one;
    [] if none. rows: (replays, deals, columns) with the counts on; a deal's replays are summed (they are not
    independent), so the intervals are over deals."""
    decls = [m for m in game.metrics if isinstance(m, Choices)]
    if not decls:
        return []
    cols = game.columns(players)
    flat = rows.sum(axis=0)  # (deals, columns)
    games = rows.shape[0] * rows.shape[1]
    out = []
    totals = {k: np.zeros(len(flat), dtype=np.int64) for k in ("n", "options", "forced", "real")}
    for decl in decls:
        c = {k: flat[:, cols.index(f"{decl.prefix}{k}")] for k in totals}
        for k in totals:
            totals[k] += c[k]
        if c["n"].sum() == 0:
            continue
        out.append(_row(decl.label, decl.help, c, games))
    if len(out) > 1:
        out.append(_row("all decisions", "every kind above together", totals, games))
    return out


def _row(label, help_, c, games):
    n = c["n"]
    return ChoiceRow(label, help_, int(n.sum()), n.sum() / games, _ratio(c["options"], n), _ratio(c["forced"], n),
                     _ratio(c["real"], n))
