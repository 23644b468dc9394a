"""Bring the Noize trace: engine event rows -> JSON-ready dicts -> lines a person reads.

The event fields are documented in docs/noize.md (section "Trace events")."""
import numpy as np

from analyzer.games.base import record_events
from analyzer.games.noize import engine as E
from analyzer.games.noize import lookahead as LA
from analyzer.games.noize.rules import CARD_NAMES, INSTRUMENTS

BID_KINDS = {E.BID_PLAIN: "plain", E.BID_JUMP_BLUFF: "jump bluff", E.BID_WEAK_BLUFF: "weak-instrument bluff",
             E.BID_RANDOM: "random", E.BID_LOOKAHEAD: "lookahead"}


def _cards(row, n):
    return [CARD_NAMES[c] for c in row[E.TRACE_FIXED:E.TRACE_FIXED + n]]


def play_traced(encoded, seed, game_index):
    """Play one game with the batch kernel's own code and return (events, result row)."""
    rules, deck, pol = encoded[:3]
    n = int(rules[E.R_PLAYERS])
    play = LA.play_game_look if LA.uses_lookahead(pol) else E.play_game
    out = np.zeros(E.n_columns(n), dtype=np.int64)
    rows = record_events(
        lambda buf: play(np.uint64(seed), game_index, *encoded, out, buf, np.int64(1)),
        4096, E.TRACE_FIXED + max(deck.shape[0], n))
    events = [decode(row, n) for row in rows]
    for ev in events:
        if ev["type"] == "end":  # what ended it: the last loser reached the finish count
            last = [e for e in events if e["type"] == "count"][-1]
            ev["finish_cards"] = int(rules[E.R_FINISH])
            ev["last_loser"] = last["loser"]
    return events, out


def decode(row, n):
    code = int(row[0])
    if code in (E.EV_DECK, E.EV_SHUFFLE):
        kind = "deck" if code == E.EV_DECK else "shuffle"
        return {"type": kind, "cards": _cards(row, int(row[1]))}
    if code == E.EV_ROUND:
        return {"type": "round", "round": int(row[1]), "dealer": int(row[2]), "starter": int(row[3]),
                "deck_position": int(row[4])}
    if code == E.EV_DEAL:
        return {"type": "deal", "seat": int(row[1]), "deck_position": int(row[3]),
                "cards": _cards(row, int(row[2]))}
    if code == E.EV_BID:
        return {"type": "bid", "seat": int(row[1]), "count": int(row[2]), "instrument": INSTRUMENTS[row[3]],
                "policy_note": BID_KINDS[int(row[4])]}
    if code == E.EV_CHALLENGE:
        return {"type": "challenge", "challenger": int(row[1]), "bidder": int(row[2]), "count": int(row[3]),
                "instrument": INSTRUMENTS[row[4]]}
    if code == E.EV_REVEAL:
        return {"type": "reveal", "seat": int(row[1]),
                "hand": {CARD_NAMES[t]: int(row[2 + t]) for t in range(E.N_TYPES)}}
    if code == E.EV_COUNT:
        return {"type": "count", "instrument": INSTRUMENTS[row[1]], "bid_count": int(row[2]),
                "instrument_cards": int(row[3]), "groupies": int(row[4]), "loser": int(row[5]),
                "loser_role": "challenger" if row[6] else "bidder",
                "hand_sizes": [int(x) for x in row[E.TRACE_FIXED:E.TRACE_FIXED + n]]}
    if code == E.EV_END:
        return {"type": "end", "rounds": int(row[2]),
                "winners": [s for s in range(n) if row[E.TRACE_FIXED + s]]}
    raise ValueError(f"unknown Bring the Noize event code {code}")


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
        note = "" if ev["policy_note"] in ("plain", "random", "lookahead") else f"   ({ev['policy_note']})"
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
