"""The Distance's trace events, declared once (analyzer/games/events.py): the kernels emit them in this
field order, trace.py decodes them, docs/distance.md's table and the conformance test read them.

Every card is {"id", "name"} (the id tells copies apart; the name gives its kind and copy); letters are
A..G, or "any" where any letter may be played."""
from analyzer.games.distance.rules import LETTERS
from analyzer.games.events import (Bool, Const, Derived, Enum, Event, Events, Int, Kind, ListOf, PerSeat,
                                   Seat)

NEED_ANY = -1  # the letter needed after a wild start card: any

# the codes of the enum fields, as the kernel writes them
HOW_FIXED, HOW_RANDOM, HOW_CHOSEN = 0, 1, 2
END_WON, END_DEADLOCK, END_CAP = 0, 1, 2
DRAW_NORMAL, DRAW_PENALTY = 0, 1


class Card(Kind):
    label = "card"

    def value(self, c, ctx):
        return {"id": c, "name": ctx.names[c]}

    def valid(self, v, ctx):
        ok = (isinstance(v, dict) and list(v) == ["id", "name"] and isinstance(v["id"], int)
              and 0 <= v["id"] < len(ctx.names) and v["name"] == ctx.names[v["id"]])
        return "" if ok else f"{v!r} is not a card of the deck"


class Letter(Kind):
    """A letter A..G; any=True: NEED_ANY is "any"; none=True: a negative slot is null."""

    def __init__(self, any_=False, none=False):
        self.any, self.none = any_, none
        self.label = "letter" + (" or `any`" if any_ else "") + (" or null" if none else "")

    def value(self, x, ctx):
        if self.any and x == NEED_ANY:
            return "any"
        return None if self.none and x < 0 else LETTERS[x]

    def valid(self, v, ctx):
        ok = (v in tuple(LETTERS) or (self.any and v == "any") or (self.none and v is None))
        return "" if ok else f"{v!r} is not a {self.label}"


CARD = Card()
CARDS = ListOf(CARD)
LETTER = Letter()
NEEDED = Letter(any_=True)
HAND_SIZE = Int(0, lambda ctx: len(ctx.names))

EVENTS = Events("The Distance", 7, [
    Event("EV_DECK", "deck", "the deck is shuffled",
          ("cards", CARDS, "the shuffled deck, top first (the stock; the deal takes cards from its top)")),
    Event("EV_DEAL", "deal", "a seat's hand is dealt",
          ("seat", Seat(), ""),
          ("cards", CARDS, "the seat's hand as dealt (one card at a time round the table from seat 0)")),
    Event("EV_INTERVAL", "interval", "the interval is set, before the start card",
          ("interval", Int(2, 7), "2 = seconds .. 7 = sevenths"),
          ("step", Derived(lambda ev, raw, ctx: raw["interval"] - 1, Int(1, 6)), "letters up"),
          ("how", Enum({HOW_FIXED: "fixed", HOW_RANDOM: "random", HOW_CHOSEN: "chosen"}), ""),
          ("chooser", Seat(none=True), "the seat that chose it (null unless `chosen`)")),
    Event("EV_START", "start", "the start card is turned up",
          ("card", CARD, "the start card, the next card of the stock"),
          ("needed", NEEDED, "the letter the first player must play")),
    Event("EV_START_LETTER", "start_letter", "the first player says which letter a two-letter start card counts as",
          ("seat", Seat(), "0"),
          ("letter", LETTER, "the letter the start card counts as"),
          ("needed", LETTER, "")),
    Event("EV_TURN", "turn", "a turn begins",
          ("turn", Int(1), "1, 2, ..."),
          ("seat", Seat(), ""),
          ("needed", NEEDED, ""),
          ("hand_size", HAND_SIZE, "")),
    Event("EV_PLAY", "play", "cards are played",
          ("seat", Seat(), ""),
          ("cards", CARDS, ""),
          ("declared", LETTER, "the letter called"),
          ("needed_next", LETTER, "declared + interval")),
    Event("EV_DRAW", "draw", "a card is drawn",
          ("seat", Seat(), ""),
          ("card", CARD, "the top of the stock"),
          ("fits", Bool(), "it can be played now"),
          ("penalty", Bool(), "a penalty card")),
    Event("EV_PASS", "pass", "a seat passes",
          ("seat", Seat(), ""),
          ("drew", Int(0), "cards drawn this turn"),
          ("needed", NEEDED, "still needed by the next player")),
    Event("EV_RESHUFFLE", "reshuffle", "the stock is empty: the discard pile but its top card becomes the stock",
          ("kept_on_top", CARD, "the top card, which stays"),
          ("stock", CARDS, "the new stock, top first")),
    Event("EV_MISPLAY", "penalty", "a misplay (human error): what the table saw, then what she meant; her penalty "
          "draws follow",
          ("seat", Seat(), ""),
          ("kind", Const("misplay"), ""),
          ("cards_taken_back", CARDS, "the cards she put down, from her hand; they go back to it"),
          ("letter", Letter(none=True), "the letter she said (null: none)"),
          ("intended_cards", CARDS, "the play she meant (a legal play)"),
          ("intended_letter", LETTER, "")),
    Event("EV_FORGOT", "penalty", "a forgotten 'Musicards!' call (human error); her penalty draws follow",
          ("seat", Seat(), ""),
          ("kind", Const("forgot_call"), ""),
          ("cards_taken_back", Const([]), ""),
          ("letter", Const(None), "")),
    Event("EV_END", "end", "the game ends",
          ("end", Enum({END_WON: "won", END_DEADLOCK: "stall: a full round of passes with nothing to draw",
                        END_CAP: "stall: the turn cap"}), ""),
          ("winner", Seat(none=True), "null after a stall"),
          ("turns", Int(0), ""),
          ("cards_left", PerSeat(HAND_SIZE), "")),
])
EVENTS.define(globals())
