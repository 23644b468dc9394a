"""The Distance trace: engine event rows -> JSON-ready dicts -> lines a person reads.

Every card appears as {"id", "name"} (the id tells copies apart; the name gives its kind and copy).
The event fields are documented in docs/distance.md (section "Trace events")."""
import numpy as np

from analyzer.games.base import plural, record_events
from analyzer.games.distance import engine as E
from analyzer.games.distance import lookahead as LA
from analyzer.games.distance import state as S
from analyzer.games.distance.rules import LETTERS

HOW = {S.HOW_FIXED: "fixed", S.HOW_RANDOM: "random", S.HOW_CHOSEN: "chosen"}
ENDS = {E.END_WON: "won", E.END_DEADLOCK: "stall: a full round of passes with nothing to draw",
        E.END_CAP: "stall: the turn cap"}


def play_traced(encoded, seed, game_index, names=None):
    """Play one game with the batch kernel's own code; returns (events, result row)."""
    config, rates, card_names = encoded
    n = int(config[S.C_PLAYERS])
    out = np.zeros(len(E.columns(n)), dtype=np.int64)
    play = LA.play_game_look if LA.uses_lookahead(config) else E.play_game
    rows = record_events(
        lambda buf: play(np.uint64(seed), game_index, config, rates, out, buf, np.int64(1)),
        1024, S.TRACE_WIDTH)
    return [decode(row, card_names, n) for row in rows], out


def _letter(x):
    return "any" if x == S.NEED_ANY else LETTERS[int(x)]


def _card(names, c):
    return {"id": int(c), "name": names[int(c)]}


def _cards(names, row, k, skip=0):
    """The k cards listed from column TRACE_FIXED + skip."""
    start = S.TRACE_FIXED + skip
    return [_card(names, c) for c in row[start:start + k]]


def decode(row, names, n):
    code = int(row[0])
    f = [int(x) for x in row[:S.TRACE_FIXED]]
    if code == S.EV_DECK:
        return {"type": "deck", "cards": _cards(names, row, f[1])}
    if code == S.EV_DEAL:
        return {"type": "deal", "seat": f[1], "cards": _cards(names, row, f[2])}
    if code == S.EV_INTERVAL:
        return {"type": "interval", "interval": f[1], "step": f[1] - 1, "how": HOW[f[2]],
                "chooser": f[3] if f[3] >= 0 else None}
    if code == S.EV_START:
        return {"type": "start", "card": _card(names, f[1]), "needed": _letter(f[2])}
    if code == S.EV_START_LETTER:
        return {"type": "start_letter", "seat": f[1], "letter": _letter(f[2]), "needed": _letter(f[3])}
    if code == S.EV_TURN:
        return {"type": "turn", "turn": f[1], "seat": f[2], "needed": _letter(f[3]), "hand_size": f[4]}
    if code == S.EV_PLAY:
        return {"type": "play", "seat": f[1], "cards": _cards(names, row, f[4]), "declared": _letter(f[2]),
                "needed_next": _letter(f[3])}
    if code == S.EV_DRAW:
        return {"type": "draw", "seat": f[1], "card": _card(names, f[2]), "fits": bool(f[3]),
                "penalty": f[4] == S.DRAW_PENALTY}
    if code == S.EV_PASS:
        return {"type": "pass", "seat": f[1], "drew": f[2], "needed": _letter(f[3])}
    if code == S.EV_RESHUFFLE:
        return {"type": "reshuffle", "kept_on_top": _card(names, f[1]), "stock": _cards(names, row, f[2])}
    if code == S.EV_PENALTY:
        if f[2] == S.PEN_MISPLAY:
            # what the table saw (the cards put down, then taken back, and the letter said), then the intent
            return {"type": "penalty", "seat": f[1], "kind": "misplay",
                    "cards_taken_back": _cards(names, row, f[5], skip=f[3]),
                    "letter": _letter(f[6]) if f[6] >= 0 else None,
                    "intended_cards": _cards(names, row, f[3]), "intended_letter": _letter(f[4])}
        return {"type": "penalty", "seat": f[1], "kind": "forgot_call", "cards_taken_back": [], "letter": None}
    if code == S.EV_END:
        return {"type": "end", "end": ENDS[f[1]], "winner": f[2] if f[2] >= 0 else None, "turns": f[3],
                "cards_left": [int(x) for x in row[S.TRACE_FIXED:S.TRACE_FIXED + n]]}
    raise ValueError(f"unknown The Distance event code {code}")


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
