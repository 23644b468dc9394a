"""Battle of the Bards: rival bards split five cards cut-and-choose style and tell Decktet tales (2 players)."""
import numpy as np

from analyzer.games.bards import idle as I
from analyzer.games.bards import kernels as K
from analyzer.games.bards import rules as R
from analyzer.games.bards import state as S
from analyzer.games.bards import trace as T
from analyzer.games.bards.events import EVENTS
from analyzer.games.bards.seats import GREEDY_DEFAULTS, encode_seat, params
from analyzer.games.search.tree import ROLLOUTS
from analyzer.games.base import CardPower, Choices, Game, Histogram, Param, PerSeat, Policy, Ratio, drama_metrics


POLICIES = (
    Policy("random", S.SP_RANDOM,
           "splits uniformly at random among the 30 splits (15 partitions x which group is face up); by default "
           "also plays, chooses and sets up at random", params("random", "random", "random")),
    Policy("balanced", S.SP_BALANCED,
           "cut-and-choose: the partition whose two outcomes (chooser takes either group) are as close as "
           "possible in value for it (then the better worse case); which group is face up is a coin flip",
           GREEDY_DEFAULTS),
    Policy("greedy", S.SP_GREEDY,
           "the split that maximises what it expects to keep, predicting the chooser with its own choose rule "
           "and valuing the face-down group by what it really holds", GREEDY_DEFAULTS),
    Policy("bait", S.SP_BAIT,
           "shows a small (1- or 2-card) group that tempts the opponent (worth at least face_up_threshold to "
           "her) and hides the cards it values face down, keeping the most if she takes the bait; with no "
           "tempting group, the small-group-up split with the best worse case", GREEDY_DEFAULTS),
    Policy("lookahead", S.SP_LOOKAHEAD,
           "Monte Carlo over the draw pile's order: each of the 30 splits (greedy's first, which wins ties) is played "
           "on `samples` reshuffles of the draw pile: the turn, then `horizon` more with greedy (default parameters) for "
           "both seats; it takes the best mean outcome (a win or loss if the game ends, else its score margin). It plays, "
           "chooses and sets up as greedy",
           GREEDY_DEFAULTS + (
               Param("samples", "int", 8, "reshuffles of the draw pile per split (each candidate is played out on "
                     "every one); cost grows linearly", 1, 256),
               Param("horizon", "int", 1, "turns each playout runs after the current one (0 = to the end of the "
                     "game); an unfinished playout scores its score margin", 0, 50))),
    Policy("search", S.SP_SEARCH,
           "information-set Monte Carlo tree search (docs/bards.md, \"search\"): each of `budget` iterations "
           "reshuffles the draw pile (and deals the opponent's hand from it), walks one tree of its own and the "
           "opponent's splits (all 30, greedy's first) by UCB, adds a node and plays on with `rollout`; it makes "
           "the most visited split. It plays, chooses and sets up as greedy",
           GREEDY_DEFAULTS + (
               Param("budget", "int", 256, "search only: iterations per split (the skill knob); cost grows "
                     "linearly", 1, 100000),
               Param("c", "float", 0.7, "search only: UCB exploration (outcomes scaled to 0..1)", 0.0, 10.0),
               Param("rollout", "choice", "greedy", "search only: how each iteration plays on from the tree's new "
                     "node: 'greedy' (greedy at its default parameters for both seats) or 'random' (uniform over "
                     "the 30 splits, both seats playing their groups as greedy)", choices=ROLLOUTS),
               Param("horizon", "int", 1, "search only: turns each rollout runs after the decided one (0 = to the "
                     "end of the game); an unfinished rollout scores its score margin", 0, 50))),
)


def columns(n):
    return S.ROW.names(2)


def encode(rules, seats):
    tbl = R.card_table(rules["deck"], rules["copies"])
    pint = np.zeros((2, S.N_INT), dtype=np.int64)
    pflt = np.zeros((2, S.N_FLT), dtype=np.float64)
    for i, s in enumerate(seats):
        encode_seat(GAME.policy(s.policy).code, s.params, pint[i], pflt[i])
    # decisions counted (`analyzer profile` sets the key after validation; no scenario can): a rule, kept in
    # both seats' rows of pint, where the kernels read it (Bards encodes no other rules array than the deck)
    pint[:, S.I_COUNT] = 1 if rules.get("count_choices", False) else 0
    return tbl, pint, pflt


GAME = Game(
    name="bards",
    title="Battle of the Bards",
    min_players=2,
    max_players=2,
    summary="rival bards split five cards (one group face up, the opponent chooses) and tell Decktet tales "
            "that score meme matches and sets while they hold the audience",
    settings=R.SETTINGS,
    policies=POLICIES,
    columns=columns,
    resolve_rules=R.resolve_rules,
    encode=encode,
    batch=K.batch,
    play_traced=T.play_traced,
    format_event=T.format_event,
    events=EVENTS,
    events_source="analyzer/games/bards/events.py",
    trace_context=T.context,
    extra={"compile_parts": K.compile_parts},  # (analyzer.runner.warm_up: a cold start's helper compiles some)
    length_label="turns",
    end_conditions=("the draw pile ran out",),
    metrics=(
        PerSeat("Score", "score_", help="final score"),
        Histogram("Winning margin", "margin", help="absolute score difference"),
        PerSeat("Had the Bard", "had_bard_", help="share of games with the Crown of Suns in one of her tales",
                percent=True),
        Ratio("Ties broken by the Bard", "tie_broken_by_bard", None, percent=True,
              help="share of games whose tied scores the Crown of Suns decided"),
        PerSeat("Tales concluded", "tales_", help="tales each player concluded and scored"),
        Ratio("Tales worth nothing", "zero_tales", "tales", percent=True,
              help="share of concluded tales that scored 0 (lost the audience, or held it with no match)"),
        Ratio("Tales that lost the audience", "lost_audience", "tales", percent=True,
              help="no card's value reached the number of cards in the tale"),
        Ratio("Meme changes per game", "meme_changes", None, help="each takes a card from the draw pile"),
        Ratio("Games where the meme ran out of suits", "meme_suitless", None, percent=True,
              help="the draw pile was empty when the meme had to be replaced"),
        Ratio("Share of points from meme matches", "meme_points", "points", percent=True,
              help="the rest comes from pairs and three-of-a-kinds"),
        Ratio("Splits 1+4, larger group face up", "split_1_4_large_up", "splits", percent=True),
        Ratio("Splits 1+4, larger group face down", "split_1_4_large_down", "splits", percent=True),
        Ratio("Splits 2+3, larger group face up", "split_2_3_large_up", "splits", percent=True),
        Ratio("Splits 2+3, larger group face down", "split_2_3_large_down", "splits", percent=True),
        Ratio("Chooser took the face-up group", "chose_face_up", "splits", percent=True,
              help="the face-up group's owner plays first", chosen_by_bots=lambda rules, seats: True),
        Ratio("Forced conclusions per game", "forced_concludes", None,
              help="a card that fit neither of two open tales"),
        Ratio("Excuses played per game", "excuse_played", None, help="extended deck only"),
        Ratio("Cards left in the draw pile at the end", "cards_left", None, help="fewer than five"),
        Histogram("Turns per game", "length"),
        *drama_metrics("turns"),
        CardPower("Best setup card", S.POWER_SETUP,
                  help="the higher audience value of the two cards that start the seat's tales (Crown 10, Ace 1, "
                       "Pawns, Courts and the Excuse 0)", fixed_by_deal=False),
        CardPower("The Bard or the Excuse in its tales", S.POWER_TALES,
                  help="the Crown of Suns (the tie-break card) or the Excuse in one of the seat's tales at any time, "
                       "setup included: given during the game, not only at the start", fixed_by_deal=False),
        # `analyzer profile`: how real each kind of decision is (docs/bards.md, "Profile"); every seat's decisions,
        # whatever its policy, valued by the seat's own parameters; real: the two best options more than
        # policies.MARGIN (1 point) apart
        Choices("Splits", "ch_split_",
                help="the active player's split of the five cards she drew: an option is a face-up group (the rest "
                     "goes face down), 30 of them (15 partitions x which group is up), fewer with a double deck when "
                     "two cards are copies (groups of the same card types are one option); valued by greedy's "
                     "payoff of the split (what it expects to keep minus spite x what the chooser gets, the chooser "
                     "predicted by the seat's own choose rule); real: the best two more than 1 point apart"),
        Choices("Choices", "ch_choice_",
                help="the opponent's choice of the face-up or the face-down group: always 2 options (the groups "
                     "differ in size); valued by the 'expected' rule's two sides (the face-up group's value against "
                     "the expected value of as many unseen cards, each side minus spite x the other player's "
                     "share); real: more than 1 point apart"),
        Choices("Plays", "ch_play_",
                help="each card a player places from a group she got: an option is a card not yet played with its "
                     "move (conclude nothing, tale 0 or tale 1 first, then the tale it goes on), counted once per "
                     "outcome (the same card type, tale concluded and pair of tales); valued by greedy's move values "
                     "(the conclusion's gain plus the change in the tale's keep value); real: more than 1 point "
                     "apart. Not counted: conclusions made alone (before a card, after the last, after the Excuse) "
                     "and the final order"),
        Choices("Setup", "ch_setup_",
                help="seat 1's setup: which two of the four cards she keeps to start her tales (the other two start "
                     "seat 0's), 6 options, fewer with two copies of a card; valued by greedy's setup (the keep "
                     "value of her two one-card tales minus spite x seat 0's); real: more than 1 point apart"),
    ),
    score=("score_", 1),
    default_policy="greedy",
    card_kinds=R.CARD_KINDS,
    deck_without=R.deck_without,
    docs="docs/bards.md",
    idle=I.idle,
    search_block=K.lookahead.play_block_look,
    # `analyzer ladder bards`: the rungs of scenarios/bards-ladder.toml (the lookahead with 2 samples: docs/bards.md),
    # then the strongest, search (the top rung of every game's ladder where it has one)
    ladder=({"label": "random", "policy": "random"}, {"label": "balanced", "policy": "balanced"},
            {"label": "bait", "policy": "bait"}, {"label": "greedy", "policy": "greedy"},
            {"label": "lookahead", "policy": "lookahead", "samples": 2}, {"label": "search", "policy": "search"}),
)
