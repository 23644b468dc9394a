"""The Distance: the settings that cannot change any game under the others (Game.idle), read off the kernel
(engine.begin, policies.choose_play, declare, choose_interval)."""
from functools import lru_cache

from analyzer.games.distance.rules import ALL_LETTERS, load_deck


@lru_cache(maxsize=32)
def _has_wild(deck_path):
    return ALL_LETTERS in load_deck(deck_path, None).masks


def idle(rules, seats, n_players):
    out = []
    mode = rules["interval"]
    if mode != "random":  # (begin draws from them only in MODE_RANDOM)
        out.append(("rules.random_intervals", f"random intervals are off: interval = \"{mode}\""))
    if mode != "chooser":
        out.append(("rules.chooser", f"no seat chooses the interval: interval = \"{mode}\""))
    # a player chooses the letter (declare) only when any letter may follow: after a wild start card
    wild = _has_wild(rules["_deck_path"])
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
    return out
