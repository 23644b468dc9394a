"""Which cards decide games: restricted play (a seat told not to play one kind of card, against the same seat
free to, on the same deals: Jaffe's restricted play), the game with a deck without that kind, and card power (what
a seat was dealt) beside them."""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.games.base import AVOID, CardPower
from analyzer.profiling.luck import first_unit_share, win_credit
from analyzer.stats import mean_ci, wilson


@dataclass
class CardRow:
    kind: str
    impact: tuple  # (points of win share a seat loses when it may not play the kind, low, high), paired by deal
    restricted: tuple  # the restricted seat's win share (value, low, high)
    deals: int
    deck_length: tuple | None = None  # the game's mean length with a deck without the kind (value, low, high)
    deck_first: tuple | None = None  # the first seat's win share with that deck
    deck_note: str = ""  # why there is no deck figure


def restrictable(game, seats):
    """Whether every seat's policy takes the `avoid` parameter (restricted play can restrict any seat)."""
    return bool(game.card_kinds) and all(game.policy(s.policy).param(AVOID) is not None for s in seats)


def restricted_seats(game, seats, seat, kind):
    """seats with seat `seat` told to avoid `kind`."""
    spec = {"policy": seats[seat].policy, **seats[seat].params, AVOID: kind}
    out = list(seats)
    out[seat] = game.validate_seat(spec, "(profile)", f"seats.{seat}")
    return out


def impact_row(kind, base_credit, restricted_credit, deals):
    """CardRow of a kind: base_credit, restricted_credit (deals, seats): each seat's win share unrestricted, and when
    it alone is restricted (column s: seat s restricted). The impact is paired deal by deal, averaged over seats."""
    diff = (base_credit - restricted_credit).mean(axis=1)  # per deal
    impact = tuple(100 * v for v in mean_ci(diff.sum(), (diff * diff).sum(), len(diff)))
    share = restricted_credit.mean(axis=1)
    restricted = mean_ci(share.sum(), (share * share).sum(), len(share))
    return CardRow(kind, impact, restricted, deals)


def deck_figures(rows, players, teams):
    """(mean length (value, low, high), first seat's or team's win share) of rows (deals, columns)."""
    length = rows[:, players + 1].astype(float)
    first = first_unit_share(win_credit(rows, players), teams)
    return (mean_ci(length.sum(), (length * length).sum(), len(length)),
            mean_ci(first.sum(), (first * first).sum(), len(first)))


@dataclass
class PowerRow:
    label: str  # the CardPower declaration's label
    category: str
    share: tuple  # win share of a seat in this category (value, low, high)
    seats: int  # seat-games in the category


def power_rows(game, rows, players):
    """Card power (dealt cards): each CardPower category's win share of the seats in it, pooled over seats.
    rows: (deals, columns)."""
    cols = game.columns(players)
    credit = win_credit(rows, players)
    out = []
    for decl in game.metrics:
        if not isinstance(decl, CardPower):
            continue
        for words, prefix in decl.categories:
            idx = [cols.index(f"{prefix}{s}") for s in range(players)]
            member = rows[:, idx] > 0
            k = float(credit[member].sum())
            m = int(member.sum())
            if m:
                out.append(PowerRow(decl.label, words, wilson(k, m), m))
    return out
