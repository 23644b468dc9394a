"""The Distance trace: engine event rows -> JSON-ready dicts (decoded as events.py declares them) -> lines a
person reads. The event fields are documented in docs/distance.md (section "Trace events")."""
from types import SimpleNamespace

import numpy as np

from analyzer.games.base import plural, record_events
from analyzer.games.distance import engine as E
from analyzer.games.distance import kernels as K
from analyzer.games.distance import state as S
from analyzer.games.distance.events import EVENTS


def context(encoded):
    """What decoding an event needs besides its row: the players and the cards' names."""
    config, _, card_names = encoded
    return SimpleNamespace(players=int(config[S.C_PLAYERS]), names=card_names)


def play_traced(encoded, seed, game_index, types=None):
    """Play one game with the batch kernel's own code; returns (events, result row). types: only the events of
    these types (the report's standings read a few: analyzer/report/trajectory.py)."""
    config, rates, _ = encoded
    ctx = context(encoded)
    out = np.zeros(len(E.columns(ctx.players)), dtype=np.int64)
    rows = record_events(
        lambda buf: K.play_game(np.uint64(seed), game_index, config, rates, out, buf, np.int64(1)),
        1024, S.TRACE_WIDTH)
    return EVENTS.decode_rows(rows, ctx, types), out


def _a(letter):
    """'a G', 'an A', 'an E', 'an F'."""
    return f"an {letter}" if letter in "AEF" else f"a {letter}"


def _names(cards):
    return ", ".join(f"{c['name']} [{c['id']}]" for c in cards)


def format_event(ev):
    t = ev["type"]
    if t == "deck":
        return f"Deck, top first ({len(ev['cards'])} cards; [id] tells copies apart): " + _names(ev["cards"])
    if t == "deal":
        return f"Seat {ev['seat']} is dealt {len(ev['cards'])}: " + _names(ev["cards"])
    if t == "interval":
        name = ("seconds", "thirds", "fourths", "fifths", "sixths", "sevenths")[ev["step"] - 1]
        how = {"fixed": "as the rules set", "random": "drawn at random",
               "chosen": f"chosen by seat {ev['chooser']} after seeing her hand"}[ev["how"]]
        return f"Interval: {name} (the next letter is {ev['step']} up), {how}"
    if t == "start":
        need = ("the first player may play anything" if ev["needed"] == "any"
                else f"the first player must play {_a(ev['needed'])}")
        return f"Start card: {ev['card']['name']} [{ev['card']['id']}]; {need}"
    if t == "start_letter":
        return f"Seat {ev['seat']} says the start card counts as {ev['letter']}: she must play {_a(ev['needed'])}"
    if t == "turn":
        need = "anything" if ev["needed"] == "any" else _a(ev["needed"])
        return f"\n-- Turn {ev['turn']}: seat {ev['seat']} ({plural(ev['hand_size'], 'card')}) needs {need}"
    if t == "play":
        return (f"  seat {ev['seat']} plays {_names(ev['cards'])} as {ev['declared']}; "
                f"the next player needs {_a(ev['needed_next'])}")
    if t == "draw":
        if ev["penalty"]:
            return f"  seat {ev['seat']} draws a penalty card: {ev['card']['name']} [{ev['card']['id']}]"
        return (f"  seat {ev['seat']} draws {ev['card']['name']} [{ev['card']['id']}]"
                f"{' (it fits)' if ev['fits'] else ''}")
    if t == "pass":
        return f"  seat {ev['seat']} passes after drawing {ev['drew']}; the next player needs {_a(ev['needed'])}"
    if t == "reshuffle":
        return (f"  the stock is empty: the discard pile except its top card ({ev['kept_on_top']['name']}) is "
                f"shuffled into a new stock of {len(ev['stock'])}, top first: {_names(ev['stock'])}")
    if t == "penalty":
        if ev["kind"] == "misplay":
            said = f"says {ev['letter']}" if ev["letter"] is not None else "says no letter"
            return (f"  seat {ev['seat']} misplays: she puts down {_names(ev['cards_taken_back'])} and {said} "
                    f"(she meant {_names(ev['intended_cards'])} as {ev['intended_letter']}); "
                    f"she takes the cards back and draws 2")
        return f"  seat {ev['seat']} forgot to call 'Musicards!' on her last card: she draws 2"
    if t == "end":
        who = f"seat {ev['winner']} has no cards left and wins" if ev["winner"] is not None else ev["end"]
        return f"\nGame over after {ev['turns']} turns: {who}. Cards left: {ev['cards_left']}"
    raise ValueError(t)
