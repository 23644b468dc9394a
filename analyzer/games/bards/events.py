"""Battle of the Bards' trace events, declared once (analyzer/games/events.py): the kernel emits them in this
field order, trace.py decodes them, docs/bards.md's table and the conformance test read them.

Cards are named as in the Decktet ("Mountain"; a double deck's second copy "Mountain'"); null is no card."""
from analyzer.games.bards.rules import C_SUITS, SUITS, card_name
from analyzer.games.events import Bool, Derived, Enum, Event, Events, Int, Kind, ListOf, PerSeat, Seat

RS_CHOSEN, RS_FORCED, RS_EXCUSE, RS_END = range(4)  # why a tale is concluded
MR_SETUP, MR_REPLACED = range(2)  # why the meme changes


class Card(Kind):
    """A card of the deck (none=True: a negative slot is null)."""

    def __init__(self, none=False):
        self.none = none
        self.label = "card or null" if none else "card"

    def value(self, c, ctx):
        return None if self.none and c < 0 else card_name(ctx.tbl, c)

    def valid(self, v, ctx):
        return "" if v in ctx.names or (self.none and v is None) else f"{v!r} is not a card of the deck"


class Suit(Kind):
    """A suit named by a player (-1: null, none named)."""

    label = "suit or null"

    def value(self, x, ctx):
        return None if x < 0 else SUITS[x]

    def valid(self, v, ctx):
        return "" if v is None or v in SUITS else f"{v!r} is not a suit"


class Pick(Kind):
    """`count` of the cards listed in the field `of`, by their indices (one slot each)."""

    label = "[card]"

    def __init__(self, count, of):
        self.slots, self.of = count, of

    def decode(self, slots, items, ctx, ev, raw):
        return [ev[self.of][int(i)] for i in slots]

    def valid(self, v, ctx):
        return "" if isinstance(v, list) and len(v) == self.slots and set(v) <= ctx.names else f"{v!r}: not cards"


class BothSeats(Kind):
    """One `item` per seat (two), one slot each, as a list in seat order (flags=True: the seats whose slot is
    1)."""

    slots = 2

    def __init__(self, item, flags=False):
        self.item, self.flags = item, flags
        self.label = "[seat]" if flags else f"[{item.label}, {item.label}]"

    def decode(self, slots, items, ctx, ev, raw):
        if self.flags:
            return [s for s in range(2) if slots[s]]
        return [self.item.value(int(x), ctx) for x in slots]

    def valid(self, v, ctx):
        if not isinstance(v, list):
            return f"{v!r} is not a list"
        if self.flags:
            return "" if v in ([0], [1], [0, 1]) else f"{v!r} is not one or both seats"
        return next((w for w in (self.item.valid(x, ctx) for x in v) if w), "" if len(v) == 2 else f"{v!r}: not 2")


class FixedCards(ListOf):
    """`count` cards from the list area (no slot: the count is the rule's)."""

    slots = 0

    def __init__(self, count):
        super().__init__(Card())
        self.count = count

    def items(self, slots, ctx):
        return self.count


def _suits(ev, raw, ctx):
    c = raw["card"]
    return [] if c < 0 else [SUITS[i] for i in range(len(SUITS)) if (int(ctx.tbl[c, C_SUITS]) >> i) & 1]


def _shape(ev, raw, ctx):
    up, down = len(ev["face_up"]), len(ev["face_down"])
    return f"{min(up, down)}+{max(up, down)}"


class Suits(Kind):
    slots = 0
    label = "[suit]"

    def valid(self, v, ctx):
        return "" if isinstance(v, list) and set(v) <= set(SUITS) else f"{v!r} is not a list of suits"


CARDS = ListOf(Card())
LEFT = Int(0, lambda ctx: len(ctx.names))
SIDE = Enum({1: "face-up", 0: "face-down"})
POINTS = Int(0)

EVENTS = Events("Battle of the Bards", 11, [
    Event("EV_DECK", "deck", "the deck is shuffled",
          ("cards", CARDS, "the shuffled deck, top first (the draw pile is this list; every draw takes its first "
           "card)")),
    Event("EV_MEME", "meme", "the dominant meme is set (at the setup) or replaced (after a tale scores meme points)",
          ("card", Card(none=True), "the new meme (null: the draw pile is empty, the meme has no suits from now on)"),
          ("suits", Derived(_suits, Suits()), "its suits"),
          ("replaces", Card(none=True), "the meme discarded (null at the setup)"),
          ("reason", Enum({MR_SETUP: "setup", MR_REPLACED: "scored"}), "`scored`: a conclusion scored meme points"),
          ("pile_left", LEFT, "cards left in the draw pile")),
    Event("EV_SETUP", "setup", "seat 1 draws four cards, keeps two to start her tales and gives seat 0 the others",
          ("seat", Seat(), "1"),
          ("cards", FixedCards(4), "the four cards drawn"),
          ("own", Pick(2, "cards"), "the two that start her tales, slots 0 then 1"),
          ("given", Derived(lambda ev, raw, ctx: [c for i, c in enumerate(ev["cards"]) if i not in raw["own"]],
                            Pick(2, "cards")), "the two that start seat 0's tales, slots 0 then 1")),
    Event("EV_TURN", "turn", "a turn starts",
          ("turn", Int(1), "1, 2, ..."),
          ("seat", Seat(), "the active player"),
          ("pile_left", LEFT, "before drawing")),
    Event("EV_DRAW", "draw", "the active player draws five cards",
          ("seat", Seat(), ""),
          ("cards", CARDS, "the five drawn")),
    Event("EV_SPLIT", "split", "she splits them into a face-up and a face-down group",
          ("seat", Seat(), ""),
          ("face_up", CARDS, ""),
          ("face_down", CARDS, ""),
          ("shape", Derived(_shape, Enum(("1+4", "2+3"))), "the smaller + the larger group's size"),
          ("larger", Derived(lambda ev, raw, ctx: "face-up" if len(ev["face_up"]) > len(ev["face_down"])
                             else "face-down", SIDE), "which group is the larger")),
    Event("EV_CHOICE", "choice", "her opponent takes a group",
          ("seat", Seat(), "the chooser"),
          ("takes", SIDE, ""),
          ("face_up_size", Int(1, 4), "")),
    Event("EV_GROUP", "group", "a player plays a group: the `face-up` group first, then the `face-down` one",
          ("seat", Seat(), ""),
          ("group", SIDE, ""),
          ("cards", CARDS, "")),
    Event("EV_PLACE", "place", "a card goes on a tale",
          ("seat", Seat(), ""),
          ("card", Card(), ""),
          ("tale", Int(0, 1), "the seat's slot"),
          ("new_tale", Bool(), "it starts the tale"),
          ("length", Int(1), "the tale's cards after it"),
          ("follows", Card(none=True), "the previous latest card"),
          ("setup", Bool(), "dealt at the setup")),
    Event("EV_CONCLUDE", "conclude", "a tale is concluded and scored; a `meme` event with reason `scored` follows "
          "when meme points were scored and a meme was showing",
          ("seat", Seat(), ""),
          ("tale", Int(0, 1), ""),
          ("reason", Enum({RS_CHOSEN: "chosen", RS_FORCED: "forced", RS_EXCUSE: "excuse", RS_END: "end"}),
           "`forced`: the next card fit neither tale; `excuse`: right after playing the Excuse; `end`: final scoring"),
          ("cards", CARDS, "the tale, oldest first"),
          ("size", Derived(lambda ev, raw, ctx: len(ev["cards"]), Int(1)), "its cards"),
          ("highest", Int(0), "its highest audience value"),
          ("holds", Bool(), "the audience is held: highest >= size"),
          ("meme", Card(none=True), "the dominant meme used"),
          ("named_suit_excuse", Suit(), "the suit named after playing the Excuse"),
          ("named_suit_meme", Suit(), "the suit named because the meme is the Excuse"),
          ("meme_points", POINTS, ""),
          ("set_points", POINTS, ""),
          ("score", Derived(lambda ev, raw, ctx: ev["meme_points"] + ev["set_points"], POINTS),
           "meme + set points (0 unless it holds)"),
          ("totals", PerSeat(POINTS), "both seats' scores after it")),
    Event("EV_END", "end", "the active player cannot draw five: the game ends; she concludes her tales first, then "
          "her opponent",
          ("seat", Seat(), "the player who cannot draw five"),
          ("pile_left", LEFT, "")),
    Event("EV_RESULT", "result", "the final scores",
          ("scores", BothSeats(POINTS), ""),
          ("winners", BothSeats(Bool(), flags=True), "both on a true tie"),
          ("tie_broken_by_bard", Bool(), "a tie won by the only seat that had the Bard (Crown of Suns) in a tale"),
          ("turns", Int(1), ""),
          ("had_bard", BothSeats(Bool()), ""),
          ("pile_left", LEFT, "")),
])
EVENTS.define(globals())
