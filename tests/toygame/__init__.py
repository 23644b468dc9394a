"""High Card, the toy fifth game (docs/adding-a-game.md): its rules are rules.py; everything else in this
package is plumbing, the contract of analyzer/games/base.py, search/contract.py and shape.py."""
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from analyzer.errors import ScenarioError
from analyzer.games import shape
from analyzer.games.base import Choices, Game, Param, PerSeat, Policy, avoid_param, drama_metrics

from . import rules as R
from . import search_ops
from .events import EVENTS, TRACE_FIXED
from .row import ROW

SETTINGS = (
    Param("hand_size", "int", 5, "cards dealt to each seat, and so tricks played", 1, R.MAXH),
    Param("deck_size", "int", 40, "cards in the deck, numbered 1 to deck_size (at least players x hand_size)",
          2, R.MAXD),
)
POLICIES = (
    Policy("random", R.P_RANDOM, "any card of its hand, uniformly", (avoid_param(R.KINDS),)),
    Policy("greedy", R.P_GREEDY, "the lowest card that beats the trick's best so far (leading: its highest), "
                                 "else its lowest", (avoid_param(R.KINDS),)),
    Policy("lookahead", R.P_LOOKAHEAD, "Monte Carlo (the search driver): each card of its hand tried on `samples` "
           "redeals of the cards it cannot see and played on by greedy seats; the best total outcome (its "
           "tricks minus the most of another seat) wins, ties keeping greedy's card", (
               Param("samples", "int", 8, "redeals of the unseen cards per decision", 1, 256),
               Param("horizon", "int", 0, "tricks each playout plays, counting the one in progress (0: all)",
                     0, R.MAXH))),
)


def resolve_rules(rules, n_players, source):
    if rules["deck_size"] < n_players * rules["hand_size"]:
        raise ScenarioError(source, "rules.deck_size", rules["deck_size"],
                            f"must be at least players x hand_size = {n_players * rules['hand_size']}")
    return rules


def encode(rules, seats):
    """(config,): the state array's configuration part; every game starts from a copy of it."""
    cfg = np.zeros(R.ST_SIZE, dtype=np.int64)
    cfg[R.C_PLAYERS], cfg[R.C_HAND], cfg[R.C_DECK] = len(seats), rules["hand_size"], rules["deck_size"]
    cfg[R.C_COUNT] = bool(rules.get("count_choices", False))
    for i, seat in enumerate(seats):
        avoid = seat.params.get("avoid", "none")
        cfg[R.O_AVOID + i] = 0 if avoid == "none" else 1 + R.KINDS.index(avoid)
        cfg[R.O_POL + i] = GAME.policy(seat.policy).code
        cfg[R.O_SAMPLES + i], cfg[R.O_HORIZON + i] = seat.params.get("samples", 0), seat.params.get("horizon", 0)
    return (cfg,)


def context(encoded):
    """What decoding and checking an event needs: the players, the deck's size."""
    return SimpleNamespace(players=int(encoded[0][R.C_PLAYERS]), deck=int(encoded[0][R.C_DECK]))


LINES = {"deal": "Seat {seat} is dealt {cards}", "trick": "\n-- Trick {trick}: seat {leader} leads",
         "play": "  seat {seat} plays {card}", "won": "  seat {seat} wins the trick with {card}",
         "end": "\nGame over ({end}): the winners are seats {winners}; tricks per seat: {tricks}"}
KERNELS = shape.bind(search_ops, "toy", EVENTS, context, ROW.names, TRACE_FIXED + R.MAXD)
GAME = Game(
    name="toy", title="High Card (the toy game)", min_players=2, max_players=R.MAXP,
    summary="one card each to a trick, the highest wins it; most tricks wins (a test's fifth game)",
    settings=SETTINGS, policies=POLICIES, columns=ROW.names, resolve_rules=resolve_rules, encode=encode,
    batch=KERNELS.batch, play_traced=KERNELS.play_traced, format_event=lambda ev: LINES[ev["type"]].format(**ev),
    length_label="tricks", end_conditions=("one seat has the most tricks", "a tie for the most tricks"),
    metrics=(PerSeat("Tricks won", "tricks_"), *drama_metrics("tricks"),
             Choices("Plays", "ch_play_", "options: the cards in hand; real: one takes the trick so far, one not")),
    score=("tricks_", 1), card_kinds=R.KINDS, deck_without=R.deck_without,
    default_policy="greedy", docs=str(Path(__file__).with_name("toy.md")),
    events=EVENTS, events_source="tests/toygame/events.py", trace_context=context,
)
