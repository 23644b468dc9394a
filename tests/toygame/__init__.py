"""High Card, the toy fifth game (docs/adding-a-game.md): its rules are rules.py; everything else in this
package is plumbing, the contract of analyzer/games/base.py and analyzer/games/search/contract.py."""
from pathlib import Path

import numpy as np

from analyzer.errors import ScenarioError
from analyzer.games.base import Game, Param, PerSeat, Policy, drama_metrics

from . import rules as R
from . import state as S
from . import trace as T
from .events import EVENTS
from .kernel import batch

SETTINGS = (
    Param("hand_size", "int", 5, "cards dealt to each seat, and so tricks played", 1, S.MAXH),
    Param("deck_size", "int", 40, "cards in the deck, numbered 1 to deck_size (at least players x hand_size)",
          2, S.MAXD),
)
POLICIES = (
    Policy("random", R.P_RANDOM, "any card of its hand, uniformly"),
    Policy("greedy", R.P_GREEDY, "the lowest card that beats the trick's best so far (leading: its highest), "
                                 "else its lowest"),
    Policy("lookahead", R.P_LOOKAHEAD, "Monte Carlo (the search driver): each card of its hand tried on `samples` "
           "redeals of the cards it cannot see and played on by greedy seats; the best total outcome (its "
           "tricks minus the most of another seat) wins, ties keeping greedy's card", (
               Param("samples", "int", 8, "redeals of the unseen cards per decision", 1, 256),
               Param("horizon", "int", 0, "tricks each playout plays, counting the one in progress (0: all)",
                     0, S.MAXH))),
)


def resolve_rules(rules, n_players, source):
    if rules["deck_size"] < n_players * rules["hand_size"]:
        raise ScenarioError(source, "rules.deck_size", rules["deck_size"],
                            f"must be at least players x hand_size = {n_players * rules['hand_size']}")
    return rules


def encode(rules, seats):
    """(config,): the state array's configuration part; every game starts from a copy of it."""
    cfg = np.zeros(S.ST_SIZE, dtype=np.int64)
    cfg[S.C_PLAYERS], cfg[S.C_HAND], cfg[S.C_DECK] = len(seats), rules["hand_size"], rules["deck_size"]
    for i, seat in enumerate(seats):
        cfg[S.O_POL + i] = GAME.policy(seat.policy).code
        cfg[S.O_SAMPLES + i], cfg[S.O_HORIZON + i] = seat.params.get("samples", 0), seat.params.get("horizon", 0)
    return (cfg,)


GAME = Game(
    name="toy", title="High Card (the toy game)", min_players=2, max_players=S.MAXP,
    summary="one card each to a trick, the highest wins it; most tricks wins (a test's fifth game)",
    settings=SETTINGS, policies=POLICIES, columns=S.ROW.names, resolve_rules=resolve_rules, encode=encode,
    batch=batch, play_traced=T.play_traced, format_event=T.format_event, length_label="tricks",
    end_conditions=("one seat has the most tricks", "a tie for the most tricks"),
    metrics=(PerSeat("Tricks won", "tricks_"), *drama_metrics("tricks")),
    default_policy="greedy", docs=str(Path(__file__).with_name("toy.md")),
    events=EVENTS, events_source="tests/toygame/events.py", trace_context=T.context,
)
