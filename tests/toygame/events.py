"""High Card's trace events, declared once (analyzer/games/events.py): rules.py emits them in this field order,
trace.py decodes them, toy.md's table and the conformance suite read them. A card is its number."""
from analyzer.games.events import Enum, Event, Events, FlaggedSeats, Int, ListOf, PerSeat, Seat

END_ONE, END_TIE = 0, 1  # the end event's `end`, as the kernel writes it
CARD = Int(1, lambda ctx: ctx.deck)
CARD.label = "card"  # (a number, 1..deck_size)

EVENTS = Events("High Card", 2, [
    Event("EV_DEAL", "deal", "a seat's hand is dealt",
          ("seat", Seat(), ""), ("cards", ListOf(CARD), "in the order dealt")),
    Event("EV_TRICK", "trick", "a trick begins", ("trick", Int(1), "1, 2, ..."), ("leader", Seat(), "")),
    Event("EV_PLAY", "play", "a card is played to the trick", ("seat", Seat(), ""), ("card", CARD, "")),
    Event("EV_WON", "won", "the trick is won", ("seat", Seat(), "who played its highest card"), ("card", CARD, "")),
    Event("EV_END", "end", "the game ends",
          ("end", Enum({END_ONE: "won", END_TIE: "tie"}), "`tie`: several seats share the most tricks"),
          ("winners", FlaggedSeats(), "the seats with the most tricks"), ("tricks", PerSeat(Int(0)), "tricks won")),
])
EVENTS.define(globals())
