"""Battle of the Bards trace: engine event rows -> JSON-ready dicts (decoded as events.py declares them) -> lines
a person reads. The event fields are documented in docs/bards.md (section "Trace events")."""
from types import SimpleNamespace

import numpy as np

from analyzer.games.base import record_events
from analyzer.games.bards import engine as E
from analyzer.games.bards import kernels as K
from analyzer.games.bards.events import EVENTS
from analyzer.games.bards.rules import DECKTET, RANK_NAMES, RANK_NONE, SUIT_ABBR, SUITS, card_label, card_name


def context(encoded):
    """What decoding and checking an event needs besides its row: the deck's card table and names."""
    tbl = encoded[0]
    return SimpleNamespace(players=2, tbl=tbl, names={card_name(tbl, c) for c in range(tbl.shape[0])})


def decode(row, tbl):
    """One trace row of a game with the card table tbl (tests)."""
    return EVENTS.decode(row, context((tbl,)))


def play_traced(encoded, seed, game_index, order=None, types=None):
    """Play one game with the batch kernel's own code; returns (events, result row).

    order: a deck order (top first) to play from instead of the seeded shuffle (tests); types: only the events of
    these types (the report's standings read a few: analyzer/report/trajectory.py)."""
    tbl, pint, pflt = encoded
    out = np.zeros(E.N_COLS, dtype=np.int64)

    def play(buf):
        if order is None:
            return K.play_one(np.uint64(seed), game_index, tbl, pint, pflt, out, buf)
        return K.play_one(np.uint64(seed), game_index, tbl, pint, pflt, out, buf, np.asarray(order, dtype=np.int64))

    ctx = context(encoded)
    return EVENTS.decode_rows(record_events(play, 2048, E.TRACE_WIDTH), ctx, types), out


def label(name):
    """A card's name with its rank and suits, e.g. 'Mountain (4 Mo/Su)' (a second copy keeps its ')."""
    if name is None:
        return "-"
    base = name.rstrip("'")
    for card_name_, rank, _, suits in DECKTET:
        if card_name_ == base:
            if rank == RANK_NONE:
                return name
            return f"{name} ({RANK_NAMES[rank]} {'/'.join(SUIT_ABBR[SUITS.index(s)] for s in suits)})"
    return name


def labels(names):
    return ", ".join(label(c) for c in names)


def format_event(ev):
    t = ev["type"]
    if t == "deck":
        return f"Deck, top first ({len(ev['cards'])} cards): " + ", ".join(ev["cards"])
    if t == "meme":
        card = ev["card"] or "nothing (the draw pile is empty: the meme has no suits from now on)"
        suits = f" [{'/'.join(ev['suits'])}]" if ev["suits"] else ""
        if ev["reason"] == "setup":
            return f"Dominant meme: {card}{suits}"
        return f"    the meme {ev['replaces']} is discarded; new dominant meme: {card}{suits} ({ev['pile_left']} left)"
    if t == "setup":
        return (f"Setup: seat {ev['seat']} draws {labels(ev['cards'])}; keeps {' and '.join(ev['own'])}, "
                f"gives seat 0 {' and '.join(ev['given'])}")
    if t == "turn":
        return f"\n== Turn {ev['turn']}: seat {ev['seat']} ({ev['pile_left']} cards in the draw pile)"
    if t == "draw":
        return f"  seat {ev['seat']} draws {labels(ev['cards'])}"
    if t == "split":
        return (f"  seat {ev['seat']} splits {ev['shape']}: face up {', '.join(ev['face_up'])} | "
                f"face down {', '.join(ev['face_down'])}")
    if t == "choice":
        return f"  seat {ev['seat']} takes the {ev['takes']} group"
    if t == "group":
        return f"  seat {ev['seat']} plays the {ev['group']} group: {', '.join(ev['cards'])}"
    if t == "place":
        where = f"starts tale {ev['tale']}" if ev["new_tale"] else \
            f"goes on tale {ev['tale']} after {ev['follows']} ({ev['length']} cards)"
        who = "(setup) " if ev["setup"] else ""
        return f"    {who}seat {ev['seat']}: {label(ev['card'])} {where}"
    if t == "conclude":
        named = []
        if ev["named_suit_meme"]:
            named.append(f"names {ev['named_suit_meme']} for the Excuse meme")
        if ev["named_suit_excuse"]:
            named.append(f"names {ev['named_suit_excuse']} for the played Excuse")
        named = ("; " + ", ".join(named)) if named else ""
        if ev["holds"]:
            detail = (f"holds the audience (highest {ev['highest']} >= {ev['size']} cards): meme "
                      f"{ev['meme_points']} + sets {ev['set_points']} = {ev['score']}")
        else:
            detail = f"loses the audience (highest {ev['highest']} < {ev['size']} cards): 0"
        totals = f". Score: seat 0 {ev['totals'][0]}, seat 1 {ev['totals'][1]}" if "totals" in ev else ""
        return (f"    seat {ev['seat']} concludes tale {ev['tale']} ({ev['reason']}): {labels(ev['cards'])}; "
                f"{detail}{named}{totals}")
    if t == "end":
        return (f"\n== Seat {ev['seat']} cannot draw five ({ev['pile_left']} left): the game ends; she concludes "
                f"her tales first, then her opponent")
    if t == "result":
        who = " and ".join(f"seat {s}" for s in ev["winners"])
        how = " (tie broken by the Bard)" if ev["tie_broken_by_bard"] else (" (tie)" if len(ev["winners"]) > 1 else "")
        return f"\nFinal scores {ev['scores'][0]} - {ev['scores'][1]} after {ev['turns']} turns: {who} win{'s' if len(ev['winners']) == 1 else ''}{how}"
    raise ValueError(t)


def describe_card(tbl, c):
    return card_label(tbl, c)
