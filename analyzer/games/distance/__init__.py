"""The Distance: play the next letter up the musical alphabet; the first to empty her hand wins (2-5 players)."""
import numpy as np

from analyzer.games.base import (AVOID, CardPower, Game, Histogram, Param, PerSeat, Policy, Ratio, avoid_param,
                                 drama_metrics)
from analyzer.games.distance import choices as C
from analyzer.games.distance import engine as E
from analyzer.games.distance import idle as I
from analyzer.games.distance import kernels as K
from analyzer.games.distance import policies as P
from analyzer.games.distance import rules as R
from analyzer.games.distance import state as S
from analyzer.games.distance import trace as T
from analyzer.games.distance.events import EVENTS
from analyzer.games.search.tree import ROLLOUTS

DECLARE_CHOICES = ("block_next", "easy_self", "random")
INTERVAL_CHOICES = ("fixed", "best_for_me", "worst_for_next")


def _params(declare):
    """The parameters every policy has."""
    return (
        Param("declare", "choice", declare,
              "which letter it declares when it may choose (after a wild start card): 'block_next' (the one that "
              "leaves the next player the letter the fewest unseen cards give), 'easy_self' (the one that leaves "
              "itself the letter its own hand gives most after everyone played once) or 'random'",
              choices=DECLARE_CHOICES),
        Param("interval", "choice", "best_for_me",
              "when it is the chooser (rules.interval = 'chooser'): 'fixed' (fixed_interval), 'best_for_me' (the "
              "interval under which its hand chains longest) or 'worst_for_next' (the one under which the letters "
              "after those it holds are the scarcest among the unseen cards)", choices=INTERVAL_CHOICES),
        Param("fixed_interval", "int", 2, "with interval = 'fixed': the interval it picks (2 = seconds .. 7 = sevenths)",
              2, 7),
        Param("wild_reserve", "int", 2,
              "conserve only: with this many cards or fewer in hand it plays everything that fits, wilds included", 0, 20),
        # naturals: cards of one letter (A), accidentals: of two (A#/Bb), wilds (? and Chromatic Scale)
        avoid_param(R.CARD_CLASSES),
    )


POLICIES = (
    Policy("random", P.P_RANDOM, "uniform over every legal play: which pitch class, how many of it, how many wilds, "
                                 "and which letter when any letter may be played", _params("random")),
    Policy("conserve", P.P_CONSERVE, "one card of the fitting pitch class it holds most of; a wild only when no note "
                                     "fits (or, with wild_reserve cards or fewer, everything that fits)",
           _params("block_next")),
    Policy("greedy", P.P_GREEDY, "empties its hand fastest: every card of the fitting pitch class it holds most of, "
                                 "and every wild", _params("block_next")),
    Policy("lookahead", P.P_LOOKAHEAD,
           "Monte Carlo: each candidate play (greedy's, 1 or all of each fitting pitch class with no or every wild, "
           "wilds alone) is tried on `samples` redeals of the cards it cannot see and played on with greedy for "
           "every seat; it takes the best mean outcome (+100 its win, -100 another's, else hand-size margin)",
           _params("block_next") + (
               Param("samples", "int", 8, "lookahead only: redeals of the unseen cards per decision (each candidate "
                     "is played out on every one); cost grows linearly", 1, 256),
               Param("horizon", "int", 0, "lookahead only: turns each playout runs after its play (0 = to the end of "
                     "the game); with a horizon an unfinished playout scores (fewest cards of another seat) minus "
                     "(its own cards)", 0, 500),
           )),
    Policy("search", P.P_SEARCH,
           "information-set Monte Carlo tree search (docs/distance.md, \"search\"): each of `budget` iterations "
           "redeals the cards it cannot see, walks one tree of its own and the other seats' candidate plays (the "
           "lookahead's) by UCB, adds a node and plays on with `rollout`; it makes the most visited play",
           _params("block_next") + (
               Param("budget", "int", 256, "search only: iterations per decision (the skill knob); cost grows "
                     "linearly", 1, 100000),
               Param("c", "float", 0.7, "search only: UCB exploration (outcomes scaled to 0..1)", 0.0, 10.0),
               Param("rollout", "choice", "greedy", "search only: how each iteration plays on from the tree's new "
                     "node: 'greedy' (every seat greedy) or 'random' (uniform over the candidate plays)",
                     choices=ROLLOUTS),
               Param("horizon", "int", 0, "search only: turns each rollout runs past the decided turn (0 = to the "
                     "end of the game); an unfinished rollout scores (fewest cards of another seat) minus (its own "
                     "cards)", 0, 500),
           )),
)


def encode(rules, seats):
    """(config, rates, card names): config is a state array whose configuration part (deck kinds, rules,
    seats' policies and parameters) is filled; every game starts from a copy of it."""
    n = len(seats)
    deck = R.rules_deck(rules)
    cfg = np.zeros(S.ST_SIZE, dtype=np.int64)
    n_kinds = len(deck.masks)
    cfg[S.O_KCLASS:S.O_KCLASS + n_kinds] = deck.classes()
    card_kind = deck.card_kinds()
    cfg[S.O_KMASK:S.O_KMASK + n_kinds] = deck.masks
    cfg[S.O_KTOTAL:S.O_KTOTAL + n_kinds] = deck.copies
    cfg[S.O_CKIND:S.O_CKIND + len(card_kind)] = card_kind
    for k in range(n_kinds):
        first = np.flatnonzero(card_kind == k)
        cfg[S.O_KID + k] = first[0] if first.size else -1
    lists = []  # per list of O_LKINDS: letters 0..6 (the kinds, not wilds, that give it), WILD_LIST, ANY_LIST
    for letter in range(9):
        kinds = [k for k, m in enumerate(deck.masks)
                 if (m == S.ALL if letter == S.WILD_LIST else m != S.ALL and (letter == S.ANY_LIST or (m >> letter) & 1))]
        cfg[S.O_LKINDS + letter * S.MAXK:S.O_LKINDS + letter * S.MAXK + len(kinds)] = kinds
        cfg[S.O_LCOUNT + letter] = len(kinds)
        lists.append(kinds)
    # the packed hands of the greedy fast path (engine.greedy_turns), when the deck fits them
    fitting = lists[:7]
    cfg[S.C_PACKED] = int(n_kinds <= S.PACK_KINDS and max(deck.copies) <= S.PACK_COPIES
                          and all(len(kinds) <= S.PACK_FITTING for kinds in fitting))
    if cfg[S.C_PACKED]:
        wild_nibbles = sum(0xF << 4 * k for k in lists[S.WILD_LIST])
        cfg[S.C_WNIBBLES] = wild_nibbles
        for letter in range(7):
            cfg[S.O_LNIBBLES + letter] = wild_nibbles + sum(0xF << 4 * k for k in fitting[letter])
            padded = fitting[letter] + [S.PAD_KIND] * (S.PACK_FITTING - len(fitting[letter]))
            cfg[S.O_LTHREE + S.PACK_FITTING * letter:S.O_LTHREE + S.PACK_FITTING * (letter + 1)] = padded
    order = np.asarray(rules.get("_stacked_order", []), dtype=np.int64)
    cfg[S.O_ORDER:S.O_ORDER + order.size] = order
    cfg[S.C_STACKED] = 1 if order.size else 0
    for i, s in enumerate(seats):
        cfg[S.O_POL + i] = GAME.policy(s.policy).code
        par = S.O_PAR + i * S.N_PAR
        cfg[par + S.PAR_DECLARE] = DECLARE_CHOICES.index(s.params["declare"])
        cfg[par + S.PAR_INTERVAL] = INTERVAL_CHOICES.index(s.params["interval"])
        cfg[par + S.PAR_FIXED] = s.params["fixed_interval"]
        cfg[par + S.PAR_RESERVE] = s.params["wild_reserve"]
        cfg[par + S.PAR_SAMPLES] = s.params.get("samples", 0)
        cfg[par + S.PAR_HORIZON] = s.params.get("horizon", 0)
        cfg[par + S.PAR_BUDGET] = s.params.get("budget", 0)
        cfg[par + S.PAR_C_MILLI] = round(1000 * s.params.get("c", 0.0))
        cfg[par + S.PAR_ROLLOUT] = ROLLOUTS.index(s.params.get("rollout", "greedy"))
        avoid = s.params.get(AVOID, "none")
        cfg[par + S.PAR_AVOID] = S.NO_AVOID if avoid == "none" else R.CARD_CLASSES.index(avoid)
    steps = [k - 1 for k in rules["random_intervals"]]
    cfg[S.O_STEPS:S.O_STEPS + len(steps)] = steps
    cfg[S.C_NSTEPS] = len(steps)
    cfg[S.C_PLAYERS], cfg[S.C_HAND] = n, rules["hand_size"]
    cfg[S.C_MODE] = {"random": S.MODE_RANDOM, "chooser": S.MODE_CHOOSER}.get(rules["interval"], S.MODE_FIXED)
    cfg[S.C_STEP] = R.INTERVAL_NUMBER.get(rules["interval"], 2) - 1
    cfg[S.C_CHOOSER], cfg[S.C_DRAW_LIMIT], cfg[S.C_TURN_CAP] = rules["chooser"], rules["draw_limit"], rules["turn_cap"]
    cfg[S.C_NCARDS], cfg[S.C_NKINDS] = len(card_kind), n_kinds
    cfg[S.C_COUNT] = int(bool(rules.get("count_choices", False)))  # (set by analyzer profile, never by a scenario)
    rates = np.array([rules["misplay_rate"], rules["forget_call_rate"]], dtype=np.float64)
    return cfg, rates, deck.card_names()


def batch(seed, first_game, config, rates, names, out):
    """The numba batch (kernels.batch: with a lookahead seat, the lookahead kernel), without the card names
    (they are for the trace)."""
    K.batch(seed, first_game, config, rates, out)


def search_block(seed, first_game, lo, hi, config, rates, names, out):
    """The search kernel's block entry, games first_game + lo .. + hi - 1 into out[lo:hi], on this thread: the tree
    search's counters (analyzer bench)."""
    return K.lookahead.play_chunk_look(seed, first_game, lo, hi, config, rates, out)


GAME = Game(
    name="distance",
    title="The Distance",
    min_players=2,
    max_players=5,
    summary="play the next letter up the musical alphabet (by the chosen interval); first to empty her hand wins",
    settings=R.SETTINGS,
    policies=POLICIES,
    columns=E.columns,
    resolve_rules=R.resolve_rules,
    encode=encode,
    batch=batch,
    play_traced=T.play_traced,
    format_event=T.format_event,
    events=EVENTS,
    events_source="analyzer/games/distance/events.py",
    trace_context=T.context,
    extra={"compile_parts": K.compile_parts},  # (analyzer.runner.warm_up: a cold start's helper compiles some)
    length_label="turns",
    end_conditions=("a player emptied her hand", "stall: a full round of passes with nothing left to draw",
                    "stall: the turn cap"),
    metrics=(
        Ratio("Cards drawn per game", "cards_drawn", None, help="draws of players who could not play (not penalties)"),
        Ratio("Passes per game", "passes", None, help="turns that ended without a play after the draws"),
        Ratio("Passes per turn", "passes", "length", percent=True),
        Ratio("Reshuffles per game", "reshuffles", None, help="the stock ran out: the discard pile became the stock"),
        Ratio("Wilds used per game", "wilds_used", None, help="? and Chromatic Scale cards played"),
        Ratio("Plays of two or more cards", "multi_plays", "plays", percent=True,
              help="share of plays that put down several cards of one pitch class (and wilds)"),
        Ratio("Misplays per game", "misplays", None, help="human error (misplay_rate): cards back, 2 penalty cards"),
        Ratio("Forgotten calls per game", "forgotten_calls", None,
              help="human error (forget_call_rate): 'Musicards' not called, 2 penalty cards"),
        Ratio("Penalty cards per game", "penalty_cards", None),
        Ratio("Interval played (2 = seconds .. 7 = sevenths)", "interval", None),
        PerSeat("Cards left at the end", "cards_left_", help="the winner has 0"),
        Histogram("Turns per game", "length"),
        Histogram("Interval played (2 = seconds .. 7 = sevenths)", "interval",
                  help="how often each interval was played (chosen, drawn or set)",
                  # (the chooser's own pick unless its policy was told which: interval = "fixed")
                  chosen_by_bots=lambda rules, seats: rules["interval"] == "chooser"
                  and any(s.params.get("interval", "fixed") != "fixed" for s in seats)),
        *drama_metrics("turns"),
        CardPower("Wilds in the opening hand", E.POWER,
                  help="? and Chromatic Scale cards among the seat's dealt cards"),
        *C.CHOICES,
    ),
    score=("cards_left_", -1),
    default_policy="greedy",
    docs="docs/distance.md",
    idle=I.idle,
    card_kinds=R.CARD_CLASSES,
    deck_without=R.deck_without,
    search_block=search_block,
    ladder=({"label": "random", "policy": "random"}, {"label": "conserve", "policy": "conserve"},
            {"label": "greedy", "policy": "greedy"}, {"label": "lookahead", "policy": "lookahead", "samples": 8},
            {"label": "search", "policy": "search"}),
)
