"""Fight Song (Marching Band-imals): match the colors of Game Play cards to the corners of Activity cards;
teams of partners with 4 players, everyone alone with 2 or 3; Fight Song rounds for extra points."""
import numpy as np

from analyzer.games.base import (
    CardPower, Choices, Game, Histogram, Param, PerSeat, Policy, Ratio, avoid_param, drama_metrics)
from analyzer.games.fightsong import engine as E
from analyzer.games.fightsong import idle as I
from analyzer.games.fightsong import kernels as K
from analyzer.games.fightsong import policies as P
from analyzer.games.fightsong import rules as R
from analyzer.games.fightsong import trace as T
from analyzer.games.fightsong.events import EVENTS
from analyzer.games.search.tree import ROLLOUTS


def _battle(default):
    return Param("battle", "choice", default,
                 "3 players, when it alone can start a Fight Song round: the opponent it battles: 'leader' (the "
                 "higher total; a tie: the next seat clockwise), 'weakest' (the lower total; a tie: the next seat), "
                 "'random'", choices=P.BATTLE_CHOICES)


# restricted play (`analyzer profile`): a seat can be told not to play one division's cards (the outer color, which
# scores 2 of a corner's 3 points and the Bonus Corner's 1), while it holds a card of another
AVOID = avoid_param(R.DIVISIONS, "card (a division: its outer color)")


def _read_plays():
    return Param("read_plays", "bool", True, "read every other player's plays as greedy's (the playouts' model): a "
                 "card left in her hand is none of the kinds greedy would have played instead; a play greedy could "
                 "not have made ends the reading of that player for the game")


POLICIES = (
    Policy("random", P.P_RANDOM, "a uniformly random card of its hand on a uniformly random free corner",
           (_battle("random"), AVOID)),
    Policy("greedy", P.P_GREEDY,
           "the card and free corner that score the most now; ties: play the least versatile card (keep those "
           "that score well on many corners), then take the corner worth least to the other cards",
           (_battle("leader"), AVOID)),
    Policy("team", P.P_TEAM,
           "its score now plus partner_weight x what its partner, still to play this hand, can expect to score "
           "on the corners left, minus opponent_weight x what each opponent still to play can (2 players: plus "
           "its own second card's best); the later players are taken in turn, each using up the corner worth "
           "most to a random card it cannot see",
           (Param("partner_weight", "float", 1.0,
                  "weight of what its partner (2 players: its own second card) can still score this hand", 0.0, 3.0),
            Param("opponent_weight", "float", 1.0,
                  "weight of what each opponent still to play this hand can score (1 with partner_weight 1: the "
                  "expected margin)", 0.0, 3.0),
            _battle("leader"), AVOID)),
    Policy("blocker", P.P_BLOCKER,
           "greedy minus block_weight x the expected best score of the next opponent to play this hand on the "
           "corners left: it takes, or spoils with a weak card, the corners that opponent could use best",
           (Param("block_weight", "float", 1.0, "weight of the next opponent's expected best score", 0.0, 3.0),
            _battle("leader"), AVOID)),
    Policy("lookahead", P.P_LOOKAHEAD,
           "Monte Carlo, at each play of a regular or Fight Song hand: each candidate play (greedy's, team's, the best "
           "card for each free corner, the best corner for each kind held) is tried on `samples` redeals of the cards "
           "it does not know and played on with greedy for every seat for `horizon` hands; it takes the best mean "
           "outcome (a win, shared win or loss if the game ends, else its team's margin). It remembers every card it "
           "has seen (played, dealt to it, turned up) and where it went, and (read_plays) reads the others' plays as "
           "greedy's to rule out cards they cannot hold",
           (Param("samples", "int", 8, "redeals of the unseen cards per decision (each candidate is played out on "
                  "every one); cost grows linearly", 1, 256),
            Param("horizon", "int", 1, "hands each playout runs, counting the current one (0 = to the end of the "
                  "game); an unfinished playout scores its team's total minus the best other team's", 0, 1000),
            _read_plays(),
            _battle("leader"), AVOID)),
    Policy("search", P.P_SEARCH,
           "information-set Monte Carlo tree search (docs/fightsong.md, \"search\"): each of `budget` iterations "
           "redeals the cards it does not know (as lookahead, from what it has seen), walks one tree of its own and "
           "the other seats' candidate plays (the lookahead's) by UCB, adds a node and plays on with `rollout` for "
           "`horizon` hands; it makes the most visited play",
           (Param("budget", "int", 256, "iterations per decision (the skill knob); cost grows linearly", 1, 100000),
            Param("c", "float", 0.7, "UCB exploration (outcomes scaled to 0..1)", 0.0, 10.0),
            Param("rollout", "choice", "greedy", "how each iteration plays on from the tree's new node: 'greedy' "
                  "(every seat greedy) or 'random' (uniform over the candidate plays)", choices=ROLLOUTS),
            Param("horizon", "int", 1, "hands the tree and its rollouts run, counting the current one, with the "
                  "Fight Song rounds after them (0 = to the end of the game); an unfinished rollout scores its "
                  "team's total minus the best other team's", 0, 1000),
            Param("others", "choice", "greedy", "what its tree considers for the other seats' plays: 'greedy' "
                  "(greedy's alone, as in the rollouts) or 'candidates' (the lookahead's candidates, as for its own)",
                  choices=P.OTHERS_CHOICES),
            _read_plays(),
            _battle("leader"), AVOID)),
)


_greedy_tables = {}  # by the deck's score tables: every arm of a run shares them, and a table takes ~15 ms


def _greedy_table(score, vers, cval):
    key = (score.shape, score.tobytes(), vers.tobytes(), cval.tobytes())
    if key not in _greedy_tables:
        _greedy_tables[key] = P.greedy_table(score, vers, cval)
    return _greedy_tables[key]


def encode(rules, seats):
    n = len(seats)
    deck = R.deck_of(rules)
    how = R.how_table(deck)
    score = np.where(how == R.HOW_BONUS, 1, how).astype(np.int64)
    copies = np.array(deck.kind_copies, dtype=np.int64)
    vers = score[:deck.n_act].sum(axis=(0, 1)).astype(np.int64)  # a kind's points over every Activity corner
    cval = (score * copies[None, None, :]).sum(axis=2).astype(np.int64)  # a corner's points over the deck
    hcap = max(R.max_hand(rules), R.FS_DEAL)
    arr = np.zeros(E.N_RULES, dtype=np.int64)
    arr[E.R_PLAYERS], arr[E.R_TARGET], arr[E.R_STEP], arr[E.R_HAND] = n, rules["target"], rules["fs_step"], \
        rules["hand_size"]
    arr[E.R_REFILL_AT], arr[E.R_REFILL_CARDS], arr[E.R_MAX_HANDS] = rules["refill_at"], rules["refill_cards"], \
        rules["max_hands"]
    arr[E.R_HCAP] = hcap
    arr[E.R_DEALER] = E.DEALER_ROTATING if rules["dealer"] == "rotating" else E.DEALER_FIXED
    arr[E.R_COUNT] = bool(rules.get("count_choices", False))  # (set by the profile, never by a scenario)
    for i, s in enumerate(seats):
        avoid = s.params.get("avoid", "none")
        arr[E.R_AVOID + i] = 0 if avoid == "none" else 1 + R.DIVISIONS.index(avoid)
    pol = np.array([GAME.policy(s.policy).code for s in seats], dtype=np.int64)
    par = np.zeros((n, P.N_PAR), dtype=np.float64)
    for i, s in enumerate(seats):
        par[i, P.PB_BATTLE] = P.BATTLE_CHOICES.index(s.params["battle"])
        par[i, P.PB_PARTNER] = float(s.params.get("partner_weight", 0.0))
        par[i, P.PB_OPPONENT] = float(s.params.get("opponent_weight", 0.0))
        par[i, P.PB_BLOCK] = float(s.params.get("block_weight", 0.0))
        par[i, P.PB_SAMPLES] = float(s.params.get("samples", 0))
        par[i, P.PB_HORIZON] = float(s.params.get("horizon", 0))
        par[i, P.PB_READ] = 1.0 if s.params.get("read_plays", False) else 0.0
        par[i, P.PB_BUDGET] = float(s.params.get("budget", 0))
        par[i, P.PB_C] = float(s.params.get("c", 0.0))
        par[i, P.PB_ROLLOUT] = float(ROLLOUTS.index(s.params.get("rollout", "greedy")))
        par[i, P.PB_OTHERS] = float(P.OTHERS_CHOICES.index(s.params.get("others", "greedy")))
    tables = E.Tables(gp_kind=deck.gp_kind.copy(), how=how.astype(np.int64), score=score, vers=vers, cval=cval,
                      gtab=_greedy_table(score, vers, cval), lf=P.log_factorials(deck.n_gp), deck_k=copies, pol=pol,
                      par=par)
    return T.Encoded(E.Config(rules=arr, order_gp=np.arange(deck.n_gp, dtype=np.int64),
                              order_act=np.arange(deck.n_act, dtype=np.int64),
                              order_fs=np.arange(deck.n_fs, dtype=np.int64), tables=tables), deck)


def search_block(seed, first_game, lo, hi, rules, order_gp, order_act, order_fs, tables, out):
    """The search kernel's block entry, games first_game + lo .. + hi - 1 into out[lo:hi], on this thread: the tree
    search's counters (analyzer bench)."""
    return K.lookahead.play_block_look(seed, first_game, lo, hi, E.Config(rules, order_gp, order_act, order_fs, tables),
                                       out)


def batch(seed, first_game, rules, order_gp, order_act, order_fs, tables, out):
    """The batch (Game.run_batch passes the Config's fields): kernels.batch (with a lookahead seat, the lookahead
    kernel)."""
    K.batch(seed, first_game, E.Config(rules, order_gp, order_act, order_fs, tables), out)


GAME = Game(
    name="fightsong",
    title="Fight Song",
    min_players=2,
    max_players=4,
    summary="play Game Play cards on the colored corners of Activity cards for 3/2/1 points; Fight Song rounds "
            "for extra points; partners with 4 players",
    settings=R.SETTINGS,
    policies=POLICIES,
    columns=E.columns,
    resolve_rules=R.resolve_rules,
    encode=encode,
    batch=batch,
    search_block=search_block,
    play_traced=T.play_traced,
    format_event=T.format_event,
    events=EVENTS,
    events_source="analyzer/games/fightsong/events.py",
    trace_context=T.context,
    length_label="hands",
    end_conditions=T.END_CONDITIONS,
    metrics=(
        PerSeat("Final total of the seat's team", "score_", help="round points + extra points (2-3 players: its own)"),
        PerSeat("Round points from the seat's own cards", "seat_points_", help="points its cards scored in regular hands"),
        Ratio("Points per hand", "points", "length", help="round points scored by all players in a regular hand"),
        Ratio("3-point plays (outer and inner colors)", "plays_3", "plays", percent=True,
              help="share of regular-hand plays"),
        Ratio("2-point plays (outer color)", "plays_2", "plays", percent=True, help="share of regular-hand plays"),
        Ratio("1-point plays (inner color)", "plays_1_inner", "plays", percent=True, help="share of regular-hand plays"),
        Ratio("1-point plays (Bonus Corner color)", "plays_1_bonus", "plays", percent=True,
              help="share of regular-hand plays"),
        Ratio("0-point plays", "plays_0", "plays", percent=True, help="share of regular-hand plays"),
        Ratio("Fight Song rounds per game", "fs_rounds", None,
              help="one per opportunity (round points crossing a multiple of fs_step); tie-break rounds apart"),
        Ratio("Fight Song rounds won by an initiator", "fs_won", "fs_rounds", percent=True,
              help="an initiating team scored strictly the most and gained 1 extra point"),
        Ratio("Fight Song rounds lost by the initiator", "fs_lost", "fs_rounds", percent=True,
              help="a team that did not initiate scored the most: no point"),
        Ratio("Fight Song rounds with no point after 3 ties", "fs_no_point", "fs_rounds", percent=True),
        Ratio("Fight Song rounds started by two or more teams", "fs_multi", "fs_rounds", percent=True),
        Ratio("Fight Song hands per round", "fs_hands", "fs_rounds", help="1 to 3: a tie is replayed"),
        Ratio("Extra points per game", "extra_points", None, help="all teams, tie-break rounds included"),
        Ratio("Games won on an extra point", "won_on_extra", None, percent=True,
              help="the winner's round points and earlier extra points fell short of the target: an extra point "
                   "won after the last hand took it there"),
        Ratio("Tie-break Fight Song rounds per game", "tiebreak_rounds", None,
              help="played when teams reached the target with exactly equal totals"),
        Histogram("Hands per game", "length"),
        Histogram("Winning margin", "margin", help="the highest total minus the next highest, at the end"),
        *drama_metrics("hands"),
        CardPower("Division mix of the opening hand", E.POWER,
                  help="the cards of the seat's most-held division (Band, Cheer or Fans) among its dealt cards"),
        Choices("Plays", E.CHOICE_KINDS[0][1],
                "a card played on a corner, in a regular or a Fight Song hand; options: the kinds of card held x the "
                "free corners (two copies of a kind are one option); real: the best option scores strictly more "
                "points now than every other (greedy's evaluation, margin 0 points)"),
        Choices("Battles", E.CHOICE_KINDS[1][1],
                "3 players, one player alone starts a Fight Song round and picks the opponent she battles; options: "
                "the two other players (never forced); real: the round's first Fight Song hand, dealt from the "
                "stacks as they lie and played greedily by both, would end differently (her point, a tie, or none) "
                "against one than against the other"),
    ),
    score=("score_", 1),
    card_kinds=R.DIVISIONS,
    deck_without=R.deck_without,
    default_policy="greedy",
    docs="docs/fightsong.md",
    idle=I.idle,
    teams=R.teams,
    extra={"compile_parts": K.compile_parts},  # (analyzer.runner.warm_up: a cold start's helper compiles some)
)
