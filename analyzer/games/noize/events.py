"""Bring the Noize's trace events, declared once (analyzer/games/events.py): the kernel emits them in this
field order, trace.py decodes them, docs/noize.md's table and the conformance test read them."""
from analyzer.games.events import Enum, Event, Events, FlaggedSeats, Int, Kind, ListOf, PerSeat, Seat
from analyzer.games.noize.rules import CARD_NAMES, INSTRUMENTS

# bid kinds in EV_BID: how the policy arrived at it (for audits of the policies, not the rules)
BID_PLAIN, BID_JUMP_BLUFF, BID_WEAK_BLUFF, BID_RANDOM, BID_LOOKAHEAD, BID_SEARCH = 0, 1, 2, 3, 4, 5


class Card(Kind):
    """A card, by its type's name (the cards of a type are alike)."""

    label = "card"

    def value(self, c, ctx):
        return CARD_NAMES[c]

    def valid(self, v, ctx):
        return "" if v in CARD_NAMES else f"{v!r} is not a card type"


class Hand(Kind):
    """A hand as its count of each card type (one slot per type, in CARD_NAMES order)."""

    label = "{card: count}"
    slots = len(CARD_NAMES)

    def decode(self, slots, items, ctx, ev, raw):
        return {name: int(x) for name, x in zip(CARD_NAMES, slots)}

    def valid(self, v, ctx):
        ok = (isinstance(v, dict) and list(v) == list(CARD_NAMES)
              and all(isinstance(x, int) and 0 <= x < ctx.finish for x in v.values()))
        return "" if ok else f"{v!r} is not a hand's counts per card type"


CARDS = ListOf(Card())
INSTRUMENT = Enum(INSTRUMENTS)
COUNT = Int(1)
HAND_SIZE = Int(1, lambda ctx: ctx.finish)

EVENTS = Events("Bring the Noize", 6, [
    Event("EV_DECK", "deck", "the deck is shuffled, before the first round",
          ("cards", CARDS, "the shuffled deck, top first (Vocals, Keyboard, Guitar, Drums, Groupie)")),
    Event("EV_ROUND", "round", "a round starts",
          ("round", Int(1), "1, 2, ..."),
          ("dealer", Seat(), ""),
          ("starter", Seat(), "the player left of the dealer, who bids first"),
          ("deck_position", Int(0), "dealing begins at this position of the last deck order (0 = top; positions "
           "wrap)")),
    Event("EV_SHUFFLE", "shuffle", "house rule `shuffle_each_round`: the whole deck is shuffled before a round; "
          "dealing restarts at its top",
          ("cards", CARDS, "the new order, top first")),
    Event("EV_DEAL", "deal", "a seat is dealt its cards (from the starter on)",
          ("seat", Seat(), ""),
          ("deck_position", Int(0), "where its cards start"),
          ("cards", CARDS, "in order")),
    Event("EV_BID", "bid", "a bid",
          ("seat", Seat(), ""),
          ("count", COUNT, "cards of the instrument (Groupies count for every instrument)"),
          ("instrument", INSTRUMENT, ""),
          ("policy_note", Enum({BID_PLAIN: "plain", BID_JUMP_BLUFF: "jump bluff",
                                BID_WEAK_BLUFF: "weak-instrument bluff", BID_RANDOM: "random",
                                BID_LOOKAHEAD: "lookahead", BID_SEARCH: "search"}),
           "whether the policy meant it as a bluff (`lookahead`, `search`: a lookahead or search seat's bid)")),
    Event("EV_CHALLENGE", "challenge", "the next player challenges the standing bid",
          ("challenger", Seat(), ""),
          ("bidder", Seat(), ""),
          ("count", COUNT, ""),
          ("instrument", INSTRUMENT, "")),
    Event("EV_REVEAL", "reveal", "every hand is shown (from the starter on)",
          ("seat", Seat(), ""),
          ("hand", Hand(), "counts per card type")),
    Event("EV_COUNT", "count", "the count: who lost, and every seat's card count from now on",
          ("instrument", INSTRUMENT, ""),
          ("bid_count", COUNT, ""),
          ("instrument_cards", Int(0), "cards of the instrument in play"),
          ("groupies", Int(0), "Groupies in play"),
          ("loser", Seat(), "she is dealt one card more from now on"),
          ("loser_role", Enum(("bidder", "challenger")), ""),
          ("hand_sizes", PerSeat(HAND_SIZE), "cards each seat is dealt from now on")),
    Event("EV_END", "end", "the game is over: `last_loser` reached `finish_cards`",
          ("rounds", Int(1), ""),
          ("winners", FlaggedSeats(), "the seats holding the fewest cards"),
          ("finish_cards", Int(1), "the finish count (`finish_cards`)"),
          ("last_loser", Seat(), "the loser who reached it")),
])
EVENTS.define(globals())
