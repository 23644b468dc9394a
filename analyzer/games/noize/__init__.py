"""Bring the Noize: bluff bidding on how many cards of an instrument all players hold (2-7 players)."""
import numpy as np

from analyzer.errors import ScenarioError
from analyzer.games.base import (AVOID, CardPower, Choices, Game, Histogram, Param, PerSeat, Policy, Ratio, avoid_param,
                                 drama_metrics)
from analyzer.games.noize import actions as A
from analyzer.games.noize import engine as E
from analyzer.games.noize import idle as I
from analyzer.games.noize import kernels as K
from analyzer.games.noize import rules as R
from analyzer.games.noize import trace as T
from analyzer.games.noize.events import EVENTS
from analyzer.games.search.tree import ROLLOUTS

# restricted play (`analyzer profile`): a seat can be told never to bid one instrument (docs/noize.md, "Profile:
# choices and restricted play"); the names are the deck settings' (deck_without), in engine order (P_AVOID - 1)
CARD_KINDS = R.DECK_KEYS[:E.N_INST]
AVOID_PARAM = avoid_param(CARD_KINDS, what="bid (its instrument)")

POLICIES = (
    Policy("random", E.P_RANDOM,
           "uniform over challenging and the next max_raise legal bids (never more cards than are in play)",
           (Param("max_raise", "int", 8, "how many of the next legal bids a raise is drawn from", 1, 40),
            AVOID_PARAM)),
    Policy("threshold", E.P_THRESHOLD,
           "from its own hand, the exact (hypergeometric) chance the standing bid holds; challenges below "
           "challenge_below (and, with compare_raise, when challenging is likelier to win than its best raise is "
           "to hold); otherwise raises to the bid it is most confident in (the highest of equally safe bids), "
           "bluffing at rate bluff",
           (Param("challenge_below", "float", E.THRESHOLD_DEFAULTS[E.TH_CHALLENGE_BELOW],
                  "challenge when the standing bid holds with probability below this", 0.0, 1.0),
            Param("bluff", "float", E.THRESHOLD_DEFAULTS[E.TH_BLUFF],
                  "chance of a riskier raise instead: a jump, or the instrument it holds fewest of", 0.0, 1.0),
            Param("max_jump", "int", int(E.THRESHOLD_DEFAULTS[E.TH_MAX_JUMP]),
                  "largest jump (in count) of a jump bluff", 1, 10),
            Param("compare_raise", "bool", bool(E.THRESHOLD_DEFAULTS[E.TH_COMPARE]),
                  "also challenge when a challenge is likelier to win than its best raise is to hold"),
            AVOID_PARAM)),
    Policy("lookahead", E.P_LOOKAHEAD,
           "Monte Carlo: each candidate move (threshold's, challenging, for each instrument the lowest legal count, "
           "one or two more, and the count its own cards cover) is tried on `samples` redeals of the cards it cannot "
           "see and played on with threshold (default parameters) for every seat for `horizon` rounds; it takes the "
           "best mean outcome (a win, shared win or loss if the game ends, else its hand-size margin)",
           (Param("samples", "int", 8, "redeals of the unseen cards per decision (each candidate is played out on "
                  "every one); cost grows linearly", 1, 256),
            Param("horizon", "int", 1, "rounds each playout runs, counting the current one (0 = to the end of the "
                  "game); an unfinished playout scores (fewest cards of another seat) minus (its own cards)", 0, 500),
            AVOID_PARAM)),
    # the parameters' order is their column in par (lookahead.SR_BUDGET, SR_C, SR_ROLLOUT, SR_HORIZON; `avoid`,
    # last in every policy, goes in E.P_AVOID)
    Policy("search", E.P_SEARCH,
           "information-set Monte Carlo tree search (docs/noize.md, \"search\"): each of `budget` iterations redeals "
           "the cards it cannot see (dealing again, up to 16 times, while the standing bid's maker would hold it "
           "unlikely), walks one tree of its candidate moves (the lookahead's; the other seats "
           "make threshold's move on their redealt hands) by UCB, adds a node and plays on with `rollout`; it "
           "makes the most visited move",
           (Param("budget", "int", 256, "iterations per decision (the skill knob); cost grows "
                  "linearly", 1, 100000),
            Param("c", "float", 0.7, "UCB exploration (outcomes scaled to 0..1)", 0.0, 10.0),
            Param("rollout", "choice", "greedy", "how each iteration plays on from the tree's new "
                  "node: 'greedy' (every seat plays threshold at its default parameters, the lookahead's "
                  "playout) or 'random' (uniform over the candidate moves)", choices=ROLLOUTS),
            Param("horizon", "int", 1, "rounds each iteration runs, counting the current one (0 = to "
                  "the end of the game); an unfinished one scores (fewest cards of another seat) minus (its own "
                  "cards)", 0, 500),
            AVOID_PARAM)),
)


def encode(rules, seats):
    n = len(seats)
    counts = R.deck_counts(rules)
    deck = np.repeat(np.arange(E.N_TYPES, dtype=np.int64), counts)
    arr = np.zeros(E.N_RULES, dtype=np.int64)
    arr[E.R_PLAYERS], arr[E.R_START], arr[E.R_FINISH] = n, rules["start_cards"], rules["finish_cards"]
    arr[E.R_SHUFFLE] = int(rules["shuffle_each_round"])
    arr[E.R_COUNT] = int(rules.get("count_choices", False))  # (the profile's key, never a scenario's)
    pol = np.array([GAME.policy(s.policy).code for s in seats], dtype=np.int64)
    par = np.zeros((n, E.N_PARAMS), dtype=np.float64)
    for i, s in enumerate(seats):
        for j, p in enumerate(GAME.policy(s.policy).params):
            v = s.params[p.name]
            # (avoid: 0 none, 1 + the instrument)
            par[i, E.P_AVOID if p.name == AVOID else j] = p.choices.index(v) if p.kind == "choice" else float(v)
    table = E.tail_table(np.array(counts, dtype=np.int64), rules["start_cards"], rules["finish_cards"], n)
    if arr[E.R_COUNT]:
        # every seat decides in play from `table` (the very moves the table holds: tests/test_noize_actions.py),
        # where the decisions are counted: the looked-up moves' path never tests for counting
        actions, seat_rows, first = A.scalar_only(n)
    else:  # the threshold seats' moves, looked up in play (or, when too large, empty: decided from `table`)
        actions, seat_rows, first = A.build(pol, par, rules["start_cards"], rules["finish_cards"], table)
    return arr, deck, pol, par, table, actions, seat_rows, first


def deck_without(rules, kind, n_players):
    """The validated rules with no card of instrument `kind` in the deck (its deck setting 0), or None when the
    rest of the deck is too small for the players' hands (resolve_rules says why)."""
    out = dict(rules)
    out[kind] = 0
    try:
        return R.resolve_rules(out, n_players, "deck_without")
    except ScenarioError:
        return None


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """The numba batch (kernels.batch: with a lookahead seat, the lookahead kernel)."""
    K.batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out)


GAME = Game(
    name="noize",
    title="Bring the Noize",
    min_players=2,
    max_players=7,
    summary="bluff bidding on how many cards of an instrument all players hold together",
    settings=R.SETTINGS,
    policies=POLICIES,
    columns=E.columns,
    resolve_rules=R.resolve_rules,
    encode=encode,
    batch=batch,
    play_traced=T.play_traced,
    format_event=T.format_event,
    events=EVENTS,
    events_source="analyzer/games/noize/events.py",
    trace_context=T.context,
    extra={"compile_parts": K.compile_parts},  # (analyzer.runner.warm_up: a cold start compiles the kernel meanwhile)
    length_label="rounds",
    end_conditions=("a challenge loser reached the finish count",),
    metrics=(
        Ratio("Challenges won by the challenger", "challenger_wins", "length", percent=True,
              help="share of challenges where the bid was not reached (the bidder lost)"),
        Ratio("Bids per round", "bids", "length", help="opening bid and raises, per round"),
        Ratio("Opening bid challenged", "opening_challenged", "length", percent=True,
              help="share of rounds where the very first bid was challenged"),
        Ratio("Bluffs per game", "bluffs", None, help="raises the threshold policy made as bluffs"),
        PerSeat("Final hand size", "final_hand_", help="cards held when the game ended (fewest wins)"),
        Histogram("Rounds per game", "length"),
        *drama_metrics("rounds"),
        CardPower("Groupies in the first hand", E.POWER,
                  help="Groupie cards among the seat's cards in round 1 (they count for every instrument)"),
        # (engine.CHOICE_KINDS, in its order: the kernel fills these columns)
        Choices(*E.CHOICE_KINDS[0],
                help="which bid, each time a seat bids (the opening bid and every raise); options: the legal bids of "
                     "at most the cards in play (a larger bid must lose a challenge; when none is left, the bid made "
                     "is the one option); real: its two likeliest bids, by the chance each holds from its own hand "
                     f"(threshold's hypergeometric chance), differ by more than {E.CHOICE_MARGIN}"),
        Choices(*E.CHOICE_KINDS[1],
                help="each turn facing a standing bid; options: challenge, and raise while a bid of at most the "
                     "cards in play is left (else the challenge is forced); real: the chance a challenge wins "
                     "(the standing bid does not hold) and the chance its likeliest raise holds, from its own hand, "
                     f"differ by more than {E.CHOICE_MARGIN}"),
    ),
    score=("final_hand_", -1),
    default_policy="threshold",
    docs="docs/noize.md",
    idle=I.idle,
    card_kinds=CARD_KINDS,
    deck_without=deck_without,
    search_block=K.lookahead.play_chunk_look,
)
