"""Battle of the Bards trace: engine event rows -> JSON-ready dicts -> lines a person reads.

The event fields are documented in docs/bards.md (section "Trace events")."""
import numpy as np

from analyzer.games.base import record_events
from analyzer.games.bards import engine as E
from analyzer.games.bards import state as S
from analyzer.games.bards.rules import DECKTET, RANK_NAMES, RANK_NONE, SUIT_ABBR, SUITS, card_label, card_name

REASONS = {S.RS_CHOSEN: "chosen", S.RS_FORCED: "forced", S.RS_EXCUSE: "excuse", S.RS_END: "end"}


def play_traced(encoded, seed, game_index, order=None):
    """Play one game with the batch kernel's own code; returns (events, result row).

    order: a deck order (top first) to play from instead of the seeded shuffle (tests)."""
    tbl, pint, pflt = encoded
    out = np.zeros(E.N_COLS, dtype=np.int64)

    def play(buf):
        if order is None:
            return E.play_one(np.uint64(seed), game_index, tbl, pint, pflt, out, buf)
        return E.play_one(np.uint64(seed), game_index, tbl, pint, pflt, out, buf, np.asarray(order, dtype=np.int64))

    events = [decode(row, tbl) for row in record_events(play, 2048, E.TRACE_WIDTH)]
    add_running_scores(events)
    return events, out


def add_running_scores(events):
    """Give every conclusion the two seats' scores after it (`totals`), so a reader can follow the score."""
    totals = [0, 0]
    for ev in events:
        if ev["type"] == "conclude":
            totals[ev["seat"]] += ev["score"]
            ev["totals"] = list(totals)


def _name(tbl, c):
    return None if c < 0 else card_name(tbl, int(c))


def _cards(tbl, row, n, start=0):
    return [card_name(tbl, int(c)) for c in row[S.TRACE_FIXED + start:S.TRACE_FIXED + start + n]]


def _suit(s):
    return None if s < 0 else SUITS[int(s)]


def _suits_of(tbl, c):
    if c < 0:
        return []
    m = int(tbl[c, 0])
    return [SUITS[i] for i in range(6) if (m >> i) & 1]


def decode(row, tbl):
    code = int(row[0])
    f = [int(x) for x in row[:S.TRACE_FIXED]]
    if code == S.EV_DECK:
        return {"type": "deck", "cards": _cards(tbl, row, f[1])}
    if code == S.EV_MEME:
        return {"type": "meme", "card": _name(tbl, f[1]), "suits": _suits_of(tbl, f[1]),
                "replaces": _name(tbl, f[2]), "reason": "setup" if f[3] == S.MR_SETUP else "scored",
                "pile_left": f[4]}
    if code == S.EV_SETUP:
        cards = _cards(tbl, row, 4)
        own = [cards[f[2]], cards[f[3]]]
        return {"type": "setup", "seat": f[1], "cards": cards, "own": own,
                "given": [c for i, c in enumerate(cards) if i not in (f[2], f[3])]}
    if code == S.EV_TURN:
        return {"type": "turn", "turn": f[1], "seat": f[2], "pile_left": f[3]}
    if code == S.EV_DRAW:
        return {"type": "draw", "seat": f[1], "cards": _cards(tbl, row, f[2])}
    if code == S.EV_SPLIT:
        nu, nd = f[2], f[3]
        return {"type": "split", "seat": f[1], "face_up": _cards(tbl, row, nu),
                "face_down": _cards(tbl, row, nd, nu), "shape": f"{min(nu, nd)}+{max(nu, nd)}",
                "larger": "face-up" if nu > nd else "face-down"}
    if code == S.EV_CHOICE:
        return {"type": "choice", "seat": f[1], "takes": "face-up" if f[2] else "face-down",
                "face_up_size": f[3]}
    if code == S.EV_GROUP:
        return {"type": "group", "seat": f[1], "group": "face-up" if f[2] else "face-down",
                "cards": _cards(tbl, row, f[3])}
    if code == S.EV_PLACE:
        return {"type": "place", "seat": f[1], "card": _name(tbl, f[2]), "tale": f[3],
                "new_tale": bool(f[4]), "length": f[5], "follows": _name(tbl, f[6]), "setup": bool(f[7])}
    if code == S.EV_CONCLUDE:
        holds = bool(f[6])
        return {"type": "conclude", "seat": f[1], "tale": f[2], "reason": REASONS[f[3]],
                "cards": _cards(tbl, row, f[4]), "size": f[4], "highest": f[5], "holds": holds,
                "meme": _name(tbl, f[7]), "named_suit_excuse": _suit(f[10]), "named_suit_meme": _suit(f[11]),
                "meme_points": f[8], "set_points": f[9], "score": f[8] + f[9]}
    if code == S.EV_END:
        return {"type": "end", "seat": f[1], "pile_left": f[2]}
    if code == S.EV_RESULT:
        winners = [s for s in range(2) if f[4 + s]]
        return {"type": "result", "scores": [f[1], f[2]], "winners": winners,
                "tie_broken_by_bard": bool(f[6]), "turns": f[7], "had_bard": [bool(f[8]), bool(f[9])],
                "pile_left": f[10]}
    raise ValueError(f"unknown Battle of the Bards event code {code}")


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
