"""Every game's referee: an independent replay of a traced game from its events, the rules and the deck
alone (as an auditor holding only the rulebook would), raising AssertionError at the first broken rule:
cards conserved, every move legal for the state the trace shows, turn order, scores recomputed from the
events, every game ended, and the result row as the events say.

The conformance suite (tests/test_conformance.py) runs the referee of every registered game on random
games at every player count; a game without a referee fails it. Each shipped game's referee lives beside its
rules tests; this module gives them one signature: referee(events, row, arm) for a game of the scenario arm
`arm` (its rules and seats). A game from elsewhere ships its own in its package (referee.py: the toy's), where
`analyzer check-game` finds it too."""
from distance_helpers import referee as distance_referee
from test_bards_properties import check_forced
from test_bards_properties import referee as bards_referee
from test_fightsong_properties import DEFAULT_DECK, Deck, Referee
from test_noize_properties import check_game as noize_referee
from toy_helpers import referee as toy_referee

from analyzer.games import get_game


def noize(events, row, arm):
    noize_referee(events, row, len(arm.seats), arm.rules)


def bards(events, row, arm):
    table = arm.encoded(get_game("bards"))[0]  # the deck's cards: names, suits, ranks (rules.card_table)
    bards_referee(events, row, table)
    check_forced(events, table)


def distance(events, row, arm):
    distance_referee(events, row, arm.rules, len(arm.seats))


def fightsong(events, row, arm):
    game = get_game("fightsong")
    deck_file = arm.rules["deck_file"]
    ref = Referee(Deck(DEFAULT_DECK if deck_file == "default" else deck_file), len(arm.seats), arm.rules,
                  [s.policy for s in arm.seats])
    ref.battle = [s.params["battle"] for s in arm.seats]
    ref.replay(events, row, game.columns(len(arm.seats)))


# the toy game of docs/adding-a-game.md (tests/toygame), whose referee is its own (tests/toygame/referee.py)
REFEREES = {"noize": noize, "bards": bards, "distance": distance, "fightsong": fightsong, "toy": toy_referee}
