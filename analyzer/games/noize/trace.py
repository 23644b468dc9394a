"""Bring the Noize trace: engine event rows -> JSON-ready dicts (decoded as events.py declares them) -> lines a
person reads. The event fields are documented in docs/noize.md (section "Trace events")."""
from types import SimpleNamespace

import numpy as np

from analyzer.games.base import record_events
from analyzer.games.noize import engine as E
from analyzer.games.noize import kernels as K
from analyzer.games.noize.events import EVENTS


def context(encoded):
    """What decoding and checking an event needs besides its row: the players and the finish count."""
    rules = encoded[0]
    return SimpleNamespace(players=int(rules[E.R_PLAYERS]), finish=int(rules[E.R_FINISH]))


def decode(row, n):
    """One trace row of a game of n players (tests)."""
    return EVENTS.decode(row, SimpleNamespace(players=n))


def play_traced(encoded, seed, game_index, types=None):
    """Play one game with the batch kernel's own code and return (events, result row). types: only the events of
    these types (the report's standings read a few: analyzer/report/trajectory.py)."""
    deck = encoded[1]
    ctx = context(encoded)
    out = np.zeros(E.ROW.width(ctx.players), dtype=np.int64)
    rows = record_events(
        lambda buf: K.play_game(np.uint64(seed), game_index, *encoded, out, buf, np.int64(1)),
        4096, E.TRACE_FIXED + max(deck.shape[0], ctx.players))
    return EVENTS.decode_rows(rows, ctx, types), out


def format_event(ev):
    t = ev["type"]
    if t == "deck":
        return f"Deck, top first ({len(ev['cards'])} cards): " + " ".join(ev["cards"])
    if t == "shuffle":
        return "House rule: the whole deck is shuffled. New order, top first: " + " ".join(ev["cards"])
    if t == "round":
        return (f"\n== Round {ev['round']}: seat {ev['dealer']} deals from position {ev['deck_position']}, "
                f"seat {ev['starter']} starts")
    if t == "deal":
        return f"  seat {ev['seat']} is dealt {len(ev['cards'])}: " + ", ".join(ev["cards"])
    if t == "bid":
        note = "" if ev["policy_note"] in ("plain", "random", "lookahead", "search") else f"   ({ev['policy_note']})"
        return f"  seat {ev['seat']} bids {ev['count']} {ev['instrument']}{note}"
    if t == "challenge":
        return (f"  seat {ev['challenger']} challenges seat {ev['bidder']}'s bid of {ev['count']} "
                f"{ev['instrument']}. All hands are shown:")
    if t == "reveal":
        shown = ", ".join(f"{k} {v}" for k, v in ev["hand"].items() if v)
        return f"    seat {ev['seat']}: {shown or 'no cards'}"
    if t == "count":
        total = ev["instrument_cards"] + ev["groupies"]
        verdict = "reached" if total >= ev["bid_count"] else "not reached"
        sizes = ", ".join(f"seat {s}: {k}" for s, k in enumerate(ev["hand_sizes"]))
        return (f"  {ev['instrument_cards']} {ev['instrument']} + {ev['groupies']} Groupie = {total}: "
                f"the bid of {ev['bid_count']} is {verdict}; the {ev['loser_role']} (seat {ev['loser']}) loses. "
                f"Cards each from now on: {sizes}")
    if t == "end":
        w = ev["winners"]
        who = f"seat {w[0]}" if len(w) == 1 else "seats " + ", ".join(map(str, w[:-1])) + f" and {w[-1]}"
        shared = " (shared win)" if len(ev["winners"]) > 1 else ""
        why = (f"seat {ev['last_loser']} reached the finish count of {ev['finish_cards']} cards, so the game ends. "
               if "finish_cards" in ev else "")
        return (f"\nGame over after {ev['rounds']} rounds: {why}The fewest cards: {who}, who "
                f"win{'s' if not shared else ''}{shared}.")
    raise ValueError(t)
