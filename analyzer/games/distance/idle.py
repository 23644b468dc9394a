"""The Distance: the settings that cannot change any game under the others (Game.idle), read off the kernel
(engine.begin, policies.choose_play, declare, choose_interval)."""
from functools import lru_cache

from analyzer.games.distance.rules import CARD_CLASSES, load_deck


@lru_cache(maxsize=32)
def _classes(deck_path, without):
    """The classes of card (CARD_CLASSES) the deck holds."""
    deck = load_deck(deck_path, None)
    for dropped in without:
        deck = deck.without(dropped)
    return {CARD_CLASSES[c] for c in deck.classes()}


def idle(rules, seats, n_players):
    out = []
    mode = rules["interval"]
    if mode != "random":  # (begin draws from them only in MODE_RANDOM)
        out.append(("rules.random_intervals", f"random intervals are off: interval = \"{mode}\""))
    if mode != "chooser":
        out.append(("rules.chooser", f"no seat chooses the interval: interval = \"{mode}\""))
    # a player chooses the letter (declare) only when any letter may follow: after a wild start card
    held = _classes(rules["_deck_path"], tuple(rules.get("_deck_without", ())))
    wild = "wilds" in held
    for s, seat in enumerate(seats):
        p = seat.params
        if mode != "chooser" or s != rules["chooser"]:  # only the chooser's choose_interval reads them
            why = (f"no seat chooses the interval: interval = \"{mode}\"" if mode != "chooser"
                   else f"seat {s} does not choose the interval (rules.chooser = {rules['chooser']})")
            out.append((f"seats.{s}.interval", why))
            out.append((f"seats.{s}.fixed_interval", why))
        elif p["interval"] != "fixed":
            out.append((f"seats.{s}.fixed_interval", f"it picks the interval by interval = \"{p['interval']}\", "
                                                     f"not \"fixed\""))
        if seat.policy != "conserve":  # (greedy and the lookahead's candidates play all in; random plays at random)
            out.append((f"seats.{s}.wild_reserve", f"only the conserve policy reads it, not {seat.policy}"))
        if not wild:
            out.append((f"seats.{s}.declare", "the deck has no wild, so no play lets a player choose the letter"))
        if p.get("avoid", "none") not in held | {"none"}:
            out.append((f"seats.{s}.avoid", f"the deck has no {p['avoid']}"))
    return out
