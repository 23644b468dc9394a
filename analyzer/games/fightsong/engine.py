"""Fight Song in numba: one kernel (`run`) plays a block of games, for the batch (blocks on a pool of
threads, `batch`) and the trace (one game with its events, `play_game`).

The state layout and the stacks are in state.py, the decisions in policies.py. Randomness: stream 0
(DEAL) shuffles the three stacks once, at the start, in a fixed order (Game Play, Activity, Fight
Song); used cards go to the bottom of their stacks, so after that the stacks only cycle. Stream 1 + s
holds seat s's random decisions. A block of games reuses one set of arrays; a game's result depends only
on (seed, game index).

A board is a card played on: an Activity card (boards 0..A-1) or a Fight Song card (A..A+F-1).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from analyzer.games import drama
from analyzer.games.base import CHOICE_COUNTS
from analyzer.games.fightsong.choices import count_battle, count_play
from analyzer.games.fightsong.events import (
    DEAL_FS, DEAL_FS_EXTRA, DEAL_REFILL, DEAL_START, END_ALONE, END_HIGHEST, END_SHARED, END_STALL, END_TIEBREAK,
    EV_BATTLE, EV_DEAL, EV_DECK, EV_END, EV_FS_END, EV_FS_HAND, EV_FS_ROUND, EV_FS_SCORE, EV_HAND, EV_PLAY, EV_RECORD,
    EV_RETURN, FSK_OPPORTUNITY, FSK_TIEBREAK, FSO_LOST, FSO_NO_POINT, FSO_TIE, FSO_WON, RET_FS_HAND, RET_FS_UNPLAYED,
    RET_HAND, STK_ACT, STK_FS, STK_GP, TRACE_FIXED)
from analyzer.games.fightsong.memory import (
    forget, observe_board, observe_fs_hand, observe_hand, observe_play, observe_return)
from analyzer.games.fightsong.policies import P_LOOKAHEAD, P_SCRIPT, P_SEARCH, PB_BATTLE, choose_battle, decide
from analyzer.games.fightsong.rules import FS_DEAL, FS_EXTRA, FS_MAX_HANDS, HOW_BONUS, HOW_INNER, N_CORNERS
from analyzer.games.fightsong.state import (
    MAXP, O_AVOID, O_CHOICES, O_DRAMA, O_PL, O_PLC, O_PLH, O_REG, O_SEATPTS, O_SEQ, O_TCARD, O_TCROSS, O_TEXTRA,
    O_TPEND, O_TPTS, O_TSC, O_TSEAT, O_XSNAP, RESUME_FS, RESUME_HAND, RS_BOARD, RS_END, RS_FS_HAND, RS_FS_INIT,
    RS_FS_KIND, RS_FS_PART, RS_MOVE, RS_NPLAYS, RS_PAUSE, RS_PENDING, RS_PLAY, RS_REG_BOARD, RS_STOP, RS_WIN_MASK,
    S_BASE, S_CNT, S_COUNT, S_FREE, S_HANDS, S_LEFT, S_N, S_NE, S_OVF, S_SIZE, S_TOP, clear_hand, emit, hand_add,
    hand_remove_kind, hn_at, init_state, new_state, put_bottom, take, team_list, team_of)
from analyzer.games.layout import SEATS, TEAMS, Layout, Row, col_llvm
from analyzer.jit_deferred import optimise_once
from analyzer.rng import DEAL, reset_streams, shuffle
from analyzer.threads import run_in_blocks

# The rules array (encode fills it), one int64 per setting; `RULES.define` assigns each name its index.
RULES = Layout("Fight Song's rules array", [
    ("R_PLAYERS", 1, "players"),
    ("R_TARGET", 1, "the target total"),
    ("R_STEP", 1, "fs_step: round points per Fight Song opportunity"),
    ("R_HAND", 1, "cards dealt at the start"),
    ("R_REFILL_AT", 1, "a refill comes when the hands hold this many cards"),
    ("R_REFILL_CARDS", 1, "cards a refill deals"),
    ("R_MAX_HANDS", 1, "regular hands before a stall"),
    ("R_STACKED", 1, "1 (tests only): play the stacks in the orders given, without the opening shuffle"),
    ("R_HCAP", 1, "the room for a hand's cards (hand arrays)"),
    ("R_DEALER", 1, "DEALER_FIXED or DEALER_ROTATING"),
    ("R_COUNT", 1, "1: count the decisions (base.Choices, `analyzer profile`: rules['count_choices'])"),
    ("R_AVOID", MAXP, "per seat: the division it does not play while it holds another card (its `avoid`): 0 none, "
                      "1 + division"),
], size_name="N_RULES")
RULES.define(globals())
DEALER_FIXED, DEALER_ROTATING = 0, 1  # R_DEALER

# The run's configuration, what every game of a run reads (encode builds it; lookahead.py gives its playouts one
# with their own policies): the rules array, the three stacks' orders before the shuffle (Game Play card ids,
# Activity and Fight Song card numbers) and the tables the plays read: each Game Play card's kind, the how / score
# tables (board x corner x kind), each kind's versatility and each corner's value (vers, cval), greedy's table
# (gtab), log factorials (lf), the copies of each kind (deck_k), the seats' policies and parameters. play_board and
# fight_song_round take the Tables alone: a call passes every array of a tuple, word by word (the whole Config
# cost 2% of a greedy game).
Tables = namedtuple("Tables", ("gp_kind", "how", "score", "vers", "cval", "gtab", "lf", "deck_k", "pol", "par"))
Config = namedtuple("Config", ("rules", "order_gp", "order_act", "order_fs", "tables"))


@njit(cache=True, forceinline=True)
def clockwise(seat, i, n):
    """The seat i places clockwise from `seat` (i < n): (seat + i) mod n without a division."""
    s = seat + i
    return s - n if s >= n else s


@njit(cache=True, forceinline=True)
def n_teams(n):
    return 2 if n == 4 else n


# card power (issue 12): the division mix of a seat's opening hand, by how many cards of its most-held
# division it has; one 0/1 column per category and seat
POWER = (("at most three of any one division", "open_div3_"), ("four of one division", "open_div4_"),
         ("five or more of one division", "open_div5_"))

# the decision kinds (base.Choices, `analyzer profile`), as choices.py counts them: (label, column prefix)
CHOICE_KINDS = (("Plays", "ch_play_"), ("Battles", "ch_battle_"))
CHOICE_COLUMNS = tuple(prefix + k for _, prefix in CHOICE_KINDS for k in CHOICE_COUNTS)
N_CHOICES = len(CHOICE_COLUMNS)  # (as O_CHOICES holds them)

# The result row (docs/fightsong.md, "Result columns"); `ROW.define` assigns each piece's name its position, and
# col_llvm(R_..., n, t) is its column with n players in t teams. The drama and card-power columns come last
# (base.added_columns).
ROW = Row("Fight Song's result row", [
    ("R_WIN", "win_", SEATS, "1: the seat's team won"),
    ("R_NWIN", "n_winners", 1, "winning seats"),
    ("R_LEN", "length", 1, "regular hands"),
    ("R_END", "end", 1, "END_..."),
    ("R_SCORE", "score_", SEATS, "the final total of the seat's team"),
    ("R_SEAT_POINTS", "seat_points_", SEATS, "round points the seat's own cards scored"),
    ("R_TEAM_SCORE", "team_score_", TEAMS, "the team's final total"),
    ("R_TEAM_POINTS", "team_points_", TEAMS, "its round points"),
    ("R_TEAM_EXTRA", "team_extra_", TEAMS, "its extra points"),
    ("R_MARGIN", "margin", 1, "the highest total minus the next highest"),
    ("R_POINTS", "points", 1, "round points scored in regular hands"),
    ("R_PLAYS", "plays", 1, "regular-hand plays"),
    ("R_P3", "plays_3", 1, ""),
    ("R_P2", "plays_2", 1, ""),
    ("R_P1_INNER", "plays_1_inner", 1, ""),
    ("R_P1_BONUS", "plays_1_bonus", 1, ""),
    ("R_P0", "plays_0", 1, ""),
    ("R_EXTRA", "extra_points", 1, "all teams'"),
    ("R_FS_OPP", "fs_opportunities", 1, ""),
    ("R_FS_ROUNDS", "fs_rounds", 1, "opportunity rounds"),
    ("R_FS_MULTI", "fs_multi", 1, "rounds initiated by two or more teams"),
    ("R_FS_HANDS", "fs_hands", 1, ""),
    ("R_FS_TIES", "fs_ties", 1, ""),
    ("R_FS_WON", "fs_won", 1, ""),
    ("R_FS_LOST", "fs_lost", 1, ""),
    ("R_FS_NO_POINT", "fs_no_point", 1, ""),
    ("R_TB_ROUNDS", "tiebreak_rounds", 1, ""),
    ("R_TB_HANDS", "tiebreak_hands", 1, ""),
    ("R_WON_ON_EXTRA", "won_on_extra", 1, ""),
    ("R_REFILLS", "refills", 1, ""),
    ("R_DRAMA", drama.COLUMNS, 1, "analyzer.games.drama"),
    ("R_POWER", tuple(prefix for _, prefix in POWER), SEATS, "card power: one 0/1 column per category and seat"),
    ("R_CHOICES", CHOICE_COLUMNS, 1, "with R_COUNT: the plays' and the battles' decision counts (choices.py)"),
])
ROW.define(globals())


def columns(n):
    """The result columns of n players."""
    return ROW.names(n, n_teams(n))


@njit(cache=True)
def _drama_look(st, nt, turn):
    """The drama block sees every team's score (round points and extra points) after hand `turn`."""
    for t in range(nt):
        st[O_DRAMA + drama.D_STAND + drama.D_UNIT * t] = st[O_TPTS + t] + st[O_TEXTRA + t]
    drama.look(st, O_DRAMA, nt, turn)


@njit(cache=True)
def _opening_power(st, hand, gp_kind, n, out, col):
    """out[col + category * n + s] = 1 for the division-mix category of seat s's opening hand."""
    for s in range(n):
        d0 = 0
        d1 = 0
        d2 = 0
        for i in range(st[hn_at(0, s)]):
            d = gp_kind[hand[0, s, i]] // 3
            if d == 0:
                d0 += 1
            elif d == 1:
                d1 += 1
            else:
                d2 += 1
        top = max(d0, max(d1, d2))
        cat = 0 if top <= 3 else 1 if top == 4 else 2
        out[col + cat * n + s] = 1


@njit(cache=True)
def deal(st, rg, hand, gp_kind, layer, seat_mask, count, why, tr, on):
    """Deal `count` cards to every seat in seat_mask, one at a time round the table from the dealer's
    left (st[S_LEFT]); one trace event per seat with the cards it received."""
    n = st[S_N]
    left = st[S_LEFT]
    for _ in range(count):
        for i in range(n):
            s = clockwise(left, i, n)
            if (seat_mask >> s) & 1:
                hand_add(st, hand, gp_kind, layer, s, take(st, rg, STK_GP))
    if on:
        for i in range(n):
            s = clockwise(left, i, n)
            if (seat_mask >> s) & 1:
                size = st[hn_at(layer, s)]
                k = emit(st, tr, on, EV_DEAL, s, layer, why, count, size, st[S_CNT + STK_GP])
                if k >= 0:
                    for i in range(count):
                        tr[k, TRACE_FIXED + i] = hand[layer, s, size - count + i]


def choose_lookahead(st, hand, tab, rng, board, layer, seat, j, nplays, look):
    """A lookahead or search seat's (kind, corner) for play j of the board: lookahead.choose, bound in the lookahead's
    kernel (LOOKAHEAD_LOOP below). Here only the name: play_board reaches it only when given the lookahead's scratch."""
    raise NotImplementedError("the lookahead's decision: play through lookahead.KERNEL")


@njit(cache=True)
def play_board(st, hand, tab, rng, tr, on, board, layer, nplays, look=None, resume=None):
    """Play the board (tab: the run's Tables): play j by seat st[O_SEQ + j]; each card goes on a free corner. Fills the plays
    (O_PL, O_PLC, O_PLH) and each playing team's points (O_TSC; -1 for a team that does not play).
    look: the lookahead's scratch (search_ops.Look), given only in the lookahead's kernel (LOOKAHEAD_LOOP), where
    choose_lookahead decides for its seats, and the seats' memory (memory.py) sees the board and the plays. The
    default kernels leave it out: an omitted argument is no argument at all in the compiled call (a None
    passed cost 1% of a greedy game's instructions), and numba drops the branch that uses it.
    resume: a search's run (search_ops: look is then None), which resumes the board at play resume[RS_PLAY] (the
    plays before it made), makes the decision resume[RS_MOVE] there if any, and with resume[RS_PAUSE] returns before
    the next play, having written where (RS_PENDING, RS_BOARD, RS_PLAY, RS_NPLAYS) for its callers to return too."""
    n = st[S_N]
    gp_kind, score, pol = tab.gp_kind, tab.score, tab.pol
    first = 0
    if resume is not None:
        first = resume[RS_PLAY]
        resume[RS_PLAY] = 0
    if first == 0:  # (a board resumed at a later play keeps its plays so far)
        for c in range(N_CORNERS):
            st[O_TCARD + c] = -1
            st[O_TSEAT + c] = -1
        st[S_FREE] = (1 << N_CORNERS) - 1
        for t in range(MAXP):
            st[O_TSC + t] = -1
        for j in range(nplays):
            st[O_TSC + team_of(st[O_SEQ + j], n)] = 0
    if look is not None:  # the lookahead's memory: the board is face up, each player sees her own hand
        observe_board(look, st, hand, board, layer, nplays)
    for j in range(first, nplays):
        seat = st[O_SEQ + j]
        if resume is None and st[S_COUNT] != 0:  # (`analyzer profile`; a search's runs count nothing)
            count_play(st, score, board, layer, seat)
        if resume is not None and resume[RS_MOVE] >= 0:  # the search's decision
            kind, corner = resume[RS_MOVE] >> 2, resume[RS_MOVE] & 3
            resume[RS_MOVE] = -1
        elif resume is not None and resume[RS_PAUSE] != 0:  # the next decision: stop before it
            resume[RS_PENDING] = RESUME_HAND if layer == 0 else RESUME_FS
            resume[RS_BOARD] = board
            resume[RS_PLAY] = j
            resume[RS_NPLAYS] = nplays
            return
        # (the default kernels keep exactly the decide call: with look and resume None, numba drops the other
        # branches)
        elif look is None or (pol[seat] != P_LOOKAHEAD and pol[seat] != P_SEARCH):
            kind, corner = decide(st, hand, gp_kind, score, tab.vers, tab.cval, tab.gtab, tab.lf, tab.deck_k, pol,
                                  tab.par, rng, board, layer, seat, j, nplays)
        else:
            kind, corner = choose_lookahead(st, hand, tab, rng, board, layer, seat, j, nplays, look)
        card = hand_remove_kind(st, hand, gp_kind, layer, seat, kind)
        if look is not None:  # the lookahead's memory: every player sees the card played
            observe_play(look, st, hand, gp_kind, score, tab.vers, tab.cval, board, layer, seat, card,
                                    corner)
        st[O_TCARD + corner] = card
        st[O_TSEAT + corner] = seat
        st[S_FREE] &= ~(1 << corner)
        h = tab.how[board, corner, kind]
        pts = score[board, corner, kind]
        st[O_PL + j] = card
        st[O_PLC + j] = corner
        st[O_PLH + j] = h
        st[O_TSC + team_of(seat, n)] += pts
        if on:
            emit(st, tr, on, EV_PLAY, seat, card, corner, h, pts, board, layer, j + 1, st[hn_at(layer, seat)])


@njit(cache=True, inline="always")  # callers: play_opportunities, and the greedy fast path's (fast.py)
def fs_initiators(st, nt):
    """(teams initiating the next Fight Song round as bits, how many): every team with a round pending (O_TPEND),
    each of its pending rounds counted down by one."""
    init_mask = np.int64(0)
    n_init = 0
    for t in range(nt):
        if st[O_TPEND + t] > 0:
            init_mask |= 1 << t
            n_init += 1
            st[O_TPEND + t] -= 1
    return init_mask, n_init


@njit(cache=True, inline="always")  # callers: fight_song_round, and the greedy fast path's (fast.py)
def fs_round_order(st, n, nt, init_mask, part_mask):
    """(starter, plays a hand) of a Fight Song round, its playing order written to O_SEQ. The starter: with one
    initiating team, its first player clockwise from the dealer's left; otherwise the first playing seat from the
    dealer's left (the player left of the dealer when all play)."""
    n_init = 0
    first_init = -1
    for t in range(nt):
        if (init_mask >> t) & 1:
            n_init += 1
            if first_init < 0:
                first_init = t
    left = st[S_LEFT]
    starter = -1
    for i in range(n):
        s = clockwise(left, i, n)
        if (part_mask >> s) & 1 and (n_init != 1 or team_of(s, n) == first_init):
            starter = s
            break
    nplays = np.int64(0)
    for i in range(n):
        s = clockwise(starter, i, n)
        if (part_mask >> s) & 1:
            st[O_SEQ + nplays] = s
            nplays += 1
    return starter, nplays


@njit(cache=True, inline="always")  # callers: fight_song_round, and the greedy fast path's (fast.py)
def fs_hand_outcome(st, nt, init_mask, k):
    """(outcome, winning team or -1) of Fight Song hand k from the teams' hand scores (O_TSC): a sole highest team
    wins (FSO_WON, and its extra point, if it initiated; else FSO_LOST); a tie is replayed (FSO_TIE) unless this
    was the last hand (FSO_NO_POINT)."""
    best = -1
    n_best = 0
    best_team = -1
    for t in range(nt):
        v = st[O_TSC + t]
        if v > best:
            best = v
            n_best = 1
            best_team = t
        elif v == best:
            n_best += 1
    if n_best == 1:
        outcome = FSO_WON if (init_mask >> best_team) & 1 else FSO_LOST
        if outcome == FSO_WON:
            st[O_TEXTRA + best_team] += 1
        return outcome, best_team
    return (FSO_NO_POINT if k == FS_MAX_HANDS else FSO_TIE), -1


@njit(cache=True)
def fight_song_round(st, rg, hand, tab, rng, tr, on, n_act, kind, init_mask, part_mask, look=None, resume=None):
    """A Fight Song round: initiating teams init_mask (bits), playing seats part_mask (bits). The
    regular hands stay set aside in layer 0; each player is dealt FS_DEAL cards (layer 1), and up to
    FS_MAX_HANDS Fight Song hands are played, each on a new Fight Song card, FS_EXTRA more card each
    before a replay. Returns (outcome, winning team or -1, Fight Song hands played).
    look: the lookahead's scratch (play_board). resume: a search's run resuming this round at its Fight Song
    hand resume[RS_FS_HAND], on the board resume[RS_BOARD] (already dealt and turned up; play_board resumes it at
    resume[RS_PLAY]); paused before a play, it writes the round's kind, hand, teams and seats there and returns at once.
    The default kernels leave both out."""
    n = st[S_N]
    nt = n_teams(n)
    left = st[S_LEFT]
    starter, nplays = fs_round_order(st, n, nt, init_mask, part_mask)
    if on:
        emit(st, tr, on, EV_FS_ROUND, kind, init_mask, part_mask, starter)
    if resume is not None and resume[RS_PENDING] == RESUME_FS:
        first_hand = resume[RS_FS_HAND]  # (its cards are dealt)
    else:
        first_hand = np.int64(1)
        deal(st, rg, hand, tab.gp_kind, np.int64(1), part_mask, np.int64(FS_DEAL), np.int64(DEAL_FS), tr, on)
    outcome = FSO_NO_POINT
    winner = -1
    hands = 0
    for k in range(first_hand, FS_MAX_HANDS + 1):
        if resume is not None and resume[RS_PENDING] == RESUME_FS:
            board = resume[RS_BOARD]
            resume[RS_PENDING] = 0
        else:
            if k > 1:
                deal(st, rg, hand, tab.gp_kind, np.int64(1), part_mask, np.int64(FS_EXTRA), np.int64(DEAL_FS_EXTRA),
                     tr, on)
            board = n_act + take(st, rg, STK_FS)
        hands += 1
        if on:
            emit(st, tr, on, EV_FS_HAND, k, board, starter, st[S_CNT + STK_FS])
        if look is not None:  # where the game is, for a lookahead seat's playouts
            observe_fs_hand(look, kind, k, init_mask, part_mask)
        if resume is not None:
            play_board(st, hand, tab, rng, tr, on, board, np.int64(1), nplays, None, resume)
            if resume[RS_PENDING] != 0:  # paused before a play of this hand: where, for the next run
                resume[RS_FS_KIND] = kind
                resume[RS_FS_HAND] = k
                resume[RS_FS_INIT] = init_mask
                resume[RS_FS_PART] = part_mask
                return outcome, winner, hands
        elif look is None:
            play_board(st, hand, tab, rng, tr, on, board, np.int64(1), nplays)
        else:
            play_board(st, hand, tab, rng, tr, on, board, np.int64(1), nplays, look)
        outcome, winner = fs_hand_outcome(st, nt, init_mask, k)
        if on:
            ek = emit(st, tr, on, EV_FS_SCORE, k, winner, outcome)
            team_list(st, tr, ek, O_TSC, nt, 0)
        # the Fight Song hand's cards go to the bottom of their stacks
        for j in range(nplays):
            put_bottom(st, rg, STK_GP, st[O_PL + j])
        put_bottom(st, rg, STK_FS, board - n_act)
        if on:
            ek = emit(st, tr, on, EV_RETURN, STK_GP, RET_FS_HAND, nplays)
            if ek >= 0:
                for j in range(nplays):
                    tr[ek, TRACE_FIXED + j] = st[O_PL + j]
            ek = emit(st, tr, on, EV_RETURN, STK_FS, RET_FS_HAND, 1)
            if ek >= 0:
                tr[ek, TRACE_FIXED] = board - n_act
        if outcome != FSO_TIE:
            break
    # the cards left in the Fight Song hands go under the Game Play stack, seat by seat from the dealer's left
    ek = -1
    if on:
        unplayed = 0
        for s in range(n):
            if (part_mask >> s) & 1:
                unplayed += st[hn_at(1, s)]
        ek = emit(st, tr, on, EV_RETURN, STK_GP, RET_FS_UNPLAYED, unplayed)
    back = 0
    for i in range(n):
        s = clockwise(left, i, n)
        if (part_mask >> s) & 1:
            for i_card in range(st[hn_at(1, s)]):
                card = hand[1, s, i_card]
                put_bottom(st, rg, STK_GP, card)
                if look is not None:
                    observe_return(look, card)
                if ek >= 0:
                    tr[ek, TRACE_FIXED + back] = card
                back += 1
            clear_hand(st, 1, s)
    if on:
        ek = emit(st, tr, on, EV_FS_END, kind, outcome, winner if outcome == FSO_WON else -1, hands)
        team_list(st, tr, ek, O_TEXTRA, nt, 0)
        team_list(st, tr, ek, O_TPTS, nt, nt)
    return outcome, winner, hands


# The pieces of a game, each inlined into run (one caller each). They are called from run rather than from
# one per-game function: numba's inlining copies a function's IR at a cost that grows with its blocks times
# its variables, so one whole-game function cost more to inline than its pieces do.
@njit(cache=True, inline="always")
def begin(st, rg, hand, cfg, out, tr, on):
    """A game's start from the stacks in rg: a zeroed result row, the stacks in the trace, the deal, the
    opening hands' card power and the drama block."""
    n = cfg.rules[R_PLAYERS]
    for i in range(out.shape[0]):
        out[i] = 0
    if on:
        for w in range(3):
            cnt = st[S_CNT + w]
            k = emit(st, tr, on, EV_DECK, w, cnt)
            if k >= 0:
                for i in range(cnt):
                    pos = st[S_TOP + w] + i
                    if pos >= st[S_SIZE + w]:
                        pos -= st[S_SIZE + w]
                    tr[k, TRACE_FIXED + i] = rg[st[S_BASE + w] + pos]
    deal(st, rg, hand, cfg.tables.gp_kind, np.int64(0), (1 << n) - 1, cfg.rules[R_HAND], np.int64(DEAL_START), tr,
         on)
    _opening_power(st, hand, cfg.tables.gp_kind, n, out, col_llvm(R_POWER, n, n_teams(n)))
    _drama_look(st, n_teams(n), np.int64(0))


@njit(cache=True, inline="always")
def play_hand(st, rg, hand, cfg, rng, out, tr, on, look, resume):
    """A regular hand: its starter and Activity card, the plays, their points recorded and the Fight Song
    opportunities they give. Returns (the Activity card, the number of plays)."""
    rules, gp_kind, score = cfg.rules, cfg.tables.gp_kind, cfg.tables.score
    n = rules[R_PLAYERS]
    nt = n_teams(n)
    step = rules[R_STEP]
    hand_no = st[S_HANDS]
    starter = hand_no % n  # seat 0 (left of the dealer) first, then one seat clockwise each hand
    if rules[R_DEALER] == DEALER_ROTATING:  # the deal passes with the start: the starter is left of it
        st[S_LEFT] = starter
    if resume is not None and resume[RS_PENDING] == RESUME_HAND:
        # a search's run resumes this hand on its Activity card, already out of the stack
        board = resume[RS_BOARD]
        resume[RS_PENDING] = 0
    else:
        board = take(st, rg, STK_ACT)
        if on:
            emit(st, tr, on, EV_HAND, hand_no + 1, (st[S_LEFT] + n - 1) % n, starter, board, st[S_CNT + STK_ACT])
    if n == 2:  # alternately, one card at a time, two cards each
        nplays = 4
        for j in range(4):
            st[O_SEQ + j] = (starter + j) % 2
    else:
        nplays = n
        for j in range(n):
            st[O_SEQ + j] = clockwise(starter, j, n)
    if resume is not None:
        play_board(st, hand, cfg.tables, rng, tr, on, board, np.int64(0), nplays, None, resume)
        if resume[RS_PENDING] != 0:  # paused before a play (play_board wrote where)
            resume[RS_REG_BOARD] = board
            return board, nplays
    elif look is None:
        play_board(st, hand, cfg.tables, rng, tr, on, board, np.int64(0), nplays)
    else:
        observe_hand(look, board)
        play_board(st, hand, cfg.tables, rng, tr, on, board, np.int64(0), nplays, look)
    # record the hand's points
    for j in range(nplays):
        st[O_REG + j] = st[O_PL + j]
        h = st[O_PLH + j]
        seat = st[O_SEQ + j]
        pts = score[board, st[O_PLC + j], gp_kind[st[O_PL + j]]]
        st[O_SEATPTS + seat] += pts
        out[col_llvm(R_POINTS, n, nt)] += pts
        out[col_llvm(R_PLAYS, n, nt)] += 1
        if h == HOW_BONUS:
            out[col_llvm(R_P1_BONUS, n, nt)] += 1
        elif h == HOW_INNER:
            out[col_llvm(R_P1_INNER, n, nt)] += 1
        elif pts == 3:
            out[col_llvm(R_P3, n, nt)] += 1
        elif pts == 2:
            out[col_llvm(R_P2, n, nt)] += 1
        else:
            out[col_llvm(R_P0, n, nt)] += 1
    for t in range(nt):
        st[O_TPTS + t] += st[O_TSC + t]
        crossed = st[O_TPTS + t] // step
        st[O_TPEND + t] += crossed - st[O_TCROSS + t]
        out[col_llvm(R_FS_OPP, n, nt)] += crossed - st[O_TCROSS + t]
        st[O_TCROSS + t] = crossed
        st[O_XSNAP + t] = st[O_TEXTRA + t]
    st[S_HANDS] = hand_no + 1
    if on:
        ek = emit(st, tr, on, EV_RECORD, hand_no + 1)
        team_list(st, tr, ek, O_TSC, nt, 0)
        team_list(st, tr, ek, O_TPTS, nt, nt)
        team_list(st, tr, ek, O_TEXTRA, nt, 2 * nt)
        team_list(st, tr, ek, O_TPEND, nt, 3 * nt)
    return board, nplays


@njit(cache=True, inline="always")
def play_opportunities(st, rg, hand, cfg, rng, out, tr, on, look, resume):
    """The Fight Song rounds after a hand: one per opportunity; a round serves every team that has one pending.
    A search's run resuming one of these rounds (resume) plays that round first, its teams and seats as resume gives
    them (their opportunities were taken when it began); paused within a round, it returns at once."""
    pol, par = cfg.tables.pol, cfg.tables.par
    n = cfg.rules[R_PLAYERS]
    nt = n_teams(n)
    n_act = st[S_SIZE + STK_ACT]
    all_seats = (1 << n) - 1
    while True:
        if resume is not None and resume[RS_PENDING] == RESUME_FS:
            init_mask = resume[RS_FS_INIT]
            part_mask = resume[RS_FS_PART]
            n_init = 0
            for t in range(nt):
                if (init_mask >> t) & 1:
                    n_init += 1
        else:
            init_mask, n_init = fs_initiators(st, nt)
            if init_mask == 0:
                break
            part_mask = all_seats
            if n == 3:
                if n_init == 1:
                    chooser = 0
                    while not (init_mask >> chooser) & 1:
                        chooser += 1
                    if resume is None and st[S_COUNT] != 0:  # (before the round's cards are dealt)
                        count_battle(st, rg, cfg.tables.gp_kind, cfg.tables.gtab, cfg.tables.score, n_act, chooser)
                    opponent = choose_battle(st, pol, par, rng, chooser)
                    rule = -1 if pol[chooser] == P_SCRIPT else np.int64(par[chooser, PB_BATTLE])
                    if on:
                        emit(st, tr, on, EV_BATTLE, chooser, opponent, rule)
                    part_mask = (1 << chooser) | (1 << opponent)
                else:
                    part_mask = init_mask  # in 3 players a team is a seat
        if resume is not None:
            outcome, winner, hands = fight_song_round(st, rg, hand, cfg.tables, rng, tr, on, n_act,
                                                      np.int64(FSK_OPPORTUNITY), init_mask, part_mask, None, resume)
            if resume[RS_PENDING] != 0:  # paused
                return
        elif look is None:
            outcome, winner, hands = fight_song_round(st, rg, hand, cfg.tables, rng, tr, on, n_act,
                                                      np.int64(FSK_OPPORTUNITY), init_mask, part_mask)
        else:
            outcome, winner, hands = fight_song_round(st, rg, hand, cfg.tables, rng, tr, on, n_act,
                                                      np.int64(FSK_OPPORTUNITY), init_mask, part_mask, look)
        out[col_llvm(R_FS_ROUNDS, n, nt)] += 1
        out[col_llvm(R_FS_HANDS, n, nt)] += hands
        out[col_llvm(R_FS_TIES, n, nt)] += hands - 1 if outcome != FSO_NO_POINT else hands
        if n_init > 1:
            out[col_llvm(R_FS_MULTI, n, nt)] += 1
        if outcome == FSO_WON:
            out[col_llvm(R_FS_WON, n, nt)] += 1
        elif outcome == FSO_LOST:
            out[col_llvm(R_FS_LOST, n, nt)] += 1
        else:
            out[col_llvm(R_FS_NO_POINT, n, nt)] += 1


@njit(cache=True, inline="always")
def return_hand(st, rg, board, nplays, tr, on):
    """The hand's cards go to the bottom of their stacks (after its Fight Song rounds)."""
    for j in range(nplays):
        put_bottom(st, rg, STK_GP, st[O_REG + j])
    put_bottom(st, rg, STK_ACT, board)
    if on:
        ek = emit(st, tr, on, EV_RETURN, STK_GP, RET_HAND, nplays)
        if ek >= 0:
            for j in range(nplays):
                tr[ek, TRACE_FIXED + j] = st[O_REG + j]
        ek = emit(st, tr, on, EV_RETURN, STK_ACT, RET_HAND, 1)
        if ek >= 0:
            tr[ek, TRACE_FIXED] = board


@njit(cache=True, inline="always")
def check_end(st, rg, hand, cfg, rng, out, tr, on, look, resume):
    """After a hand: (the end condition, the winning teams as bits), or (-1, 0) while the game goes on.
    Teams at the target or above end it; an exact tie at the top is settled by a Fight Song round."""
    rules = cfg.rules
    n = rules[R_PLAYERS]
    nt = n_teams(n)
    n_act = st[S_SIZE + STK_ACT]
    target = rules[R_TARGET]
    top = -1
    n_reached = 0
    for t in range(nt):
        v = st[O_TPTS + t] + st[O_TEXTRA + t]
        if v >= target:
            n_reached += 1
        if v > top:
            top = v
    if n_reached > 0:
        tied = np.int64(0)
        n_tied = 0
        for t in range(nt):
            if st[O_TPTS + t] + st[O_TEXTRA + t] == top:
                tied |= 1 << t
                n_tied += 1
        if n_tied == 1:
            end = END_ALONE if n_reached == 1 else END_HIGHEST
            win_mask = tied
        else:  # an exact tie at the top: a Fight Song round between the tied teams
            part = np.int64(0)
            for s in range(n):
                if (tied >> team_of(s, n)) & 1:
                    part |= 1 << s
            if resume is not None:
                outcome, winner, hands = fight_song_round(st, rg, hand, cfg.tables, rng, tr, on, n_act,
                                                          np.int64(FSK_TIEBREAK), tied, part, None, resume)
                if resume[RS_PENDING] != 0:  # paused: the game goes on
                    return np.int64(-1), np.int64(0)
            elif look is None:
                outcome, winner, hands = fight_song_round(st, rg, hand, cfg.tables, rng, tr, on, n_act,
                                                          np.int64(FSK_TIEBREAK), tied, part)
            else:
                outcome, winner, hands = fight_song_round(st, rg, hand, cfg.tables, rng, tr, on, n_act,
                                                          np.int64(FSK_TIEBREAK), tied, part, look)
            out[col_llvm(R_TB_ROUNDS, n, nt)] += 1
            out[col_llvm(R_TB_HANDS, n, nt)] += hands
            if outcome == FSO_WON:
                end = END_TIEBREAK
                win_mask = 1 << winner
            else:
                end = END_SHARED
                win_mask = tied
        return end, win_mask
    if st[S_HANDS] >= rules[R_MAX_HANDS]:
        return END_STALL, 0
    return -1, 0


@njit(cache=True, inline="always")
def result_row(st, rules, out, end, win_mask, tr, on):
    """Fill the result row at the end of a game. Returns the number of trace events written, or -1 if the
    trace buffer was too small."""
    n = rules[R_PLAYERS]
    nt = n_teams(n)
    target = rules[R_TARGET]
    n_win = 0
    for s in range(n):
        t = team_of(s, n)
        if (win_mask >> t) & 1:
            out[col_llvm(R_WIN, n, nt) + s] = 1
            n_win += 1
        out[col_llvm(R_SCORE, n, nt) + s] = st[O_TPTS + t] + st[O_TEXTRA + t]
        out[col_llvm(R_SEAT_POINTS, n, nt) + s] = st[O_SEATPTS + s]
    out[col_llvm(R_NWIN, n, nt)] = n_win
    out[col_llvm(R_LEN, n, nt)] = st[S_HANDS]
    out[col_llvm(R_END, n, nt)] = end
    first = -1
    second = -1
    won_on_extra = 0
    for t in range(nt):
        v = st[O_TPTS + t] + st[O_TEXTRA + t]
        out[col_llvm(R_TEAM_SCORE, n, nt) + t] = v
        out[col_llvm(R_TEAM_POINTS, n, nt) + t] = st[O_TPTS + t]
        out[col_llvm(R_TEAM_EXTRA, n, nt) + t] = st[O_TEXTRA + t]
        out[col_llvm(R_EXTRA, n, nt)] += st[O_TEXTRA + t]
        if v > first:
            second = first
            first = v
        elif v > second:
            second = v
        if win_mask == 1 << t and v - (st[O_TEXTRA + t] - st[O_XSNAP + t]) < target:
            won_on_extra = 1
    out[col_llvm(R_MARGIN, n, nt)] = first - second
    win_team = np.int64(-1)  # not the literal -1: drama.finish would be compiled for it as well
    for t in range(nt):
        if win_mask == 1 << t:
            win_team = t
    _drama_look(st, nt, st[S_HANDS])  # a tiebreak round's extra point counts (the same standings otherwise)
    drama.finish(st, O_DRAMA, nt, win_team, st[S_HANDS], out, col_llvm(R_DRAMA, n, nt))
    out[col_llvm(R_WON_ON_EXTRA, n, nt)] = won_on_extra
    if on:
        ek = emit(st, tr, on, EV_END, end, win_mask, st[S_HANDS])
        team_list(st, tr, ek, O_TPTS, nt, 0)
        team_list(st, tr, ek, O_TEXTRA, nt, nt)
    if on and st[S_OVF] != 0:
        return -1
    return st[S_NE]


@njit(cache=True)
def shuffle_stacks(st, rg, rng):
    """The opening shuffle, from the DEAL stream: Game Play, then Activity, then Fight Song cards."""
    for w in range(3):
        base = st[S_BASE + w]
        shuffle(rng, DEAL, rg[base:base + st[S_SIZE + w]], st[S_SIZE + w])


# _nrt=False: the kernel allocates nothing (its callers hand it every array, scratch included), and without
# numba's reference counting it pays no atomic increment and decrement for each array a helper receives.
# nogil: the batch runs it on a pool of threads.
@njit(cache=True, _nrt=False, nogil=True)
def run(seed, first_game, lo, hi, cfg, out, tr, on, st, rg, hand, rng, look, resume):
    """Play games first_game + lo .. first_game + hi - 1 of the run configured by cfg (a Config) into out[lo:hi],
    each from init_state and freshly keyed streams; events go to `tr` if `on`. The batch and the trace both play
    through here (one kernel to compile). st, rg, hand, rng: the game's arrays (scratch). Returns the last game's
    number of trace events, or -1 if the trace buffer was too small.

    look, resume: None in the default kernels, and numba drops their branches before compiling. look: the
    lookahead's scratch, given only to the lookahead's kernel (LOOKAHEAD_LOOP's clone of run: its seats then decide
    by simulation); resume: a search's run (search_ops.apply and playout), which continues the game in st, rg, hand
    from within the current board, a regular hand or a Fight Song hand (at the play resume[RS_PLAY]), up to its
    horizon, or with resume[RS_PAUSE] to the next decision of any seat (state.py, the resume array)."""
    rules = cfg.rules
    n = rules[R_PLAYERS]
    written = 0
    for i in range(lo, hi):
        if resume is None:  # (a playout continues the game in st, rg, hand)
            reset_streams(rng, seed, first_game + i)
            init_state(st, rg, cfg.order_gp, cfg.order_act, cfg.order_fs, n)
            if rules[R_STACKED] == 0:
                shuffle_stacks(st, rg, rng)
            st[S_COUNT] = rules[R_COUNT]
            for s in range(n):
                st[O_AVOID + s] = rules[R_AVOID + s]
        row = out[i]
        if resume is None:
            begin(st, rg, hand, cfg, row, tr, on)
            if look is not None:  # the lookahead seats' memory starts empty
                forget(look)
        end, win_mask = np.int64(-1), np.int64(0)
        while True:
            if resume is None:
                board, nplays = play_hand(st, rg, hand, cfg, rng, row, tr, on, look, resume)
                play_opportunities(st, rg, hand, cfg, rng, row, tr, on, look, resume)
                return_hand(st, rg, board, nplays, tr, on)
            else:  # a playout: it resumes the regular hand, or one of its Fight Song hands, then plays on
                fs_kind = resume[RS_FS_KIND] if resume[RS_PENDING] == RESUME_FS else -1
                if fs_kind < 0:
                    board, nplays = play_hand(st, rg, hand, cfg, rng, row, tr, on, look, resume)
                    if resume[RS_PENDING] != 0:  # paused
                        break
                else:  # (the regular hand is played and recorded)
                    board = resume[RS_REG_BOARD]
                    nplays = np.int64(4 if n == 2 else n)
                if fs_kind != FSK_TIEBREAK:  # (a tie-break round comes after the hand's cards went back: check_end)
                    play_opportunities(st, rg, hand, cfg, rng, row, tr, on, look, resume)
                    if resume[RS_PENDING] != 0:  # paused in a Fight Song round after this hand
                        resume[RS_REG_BOARD] = board
                        break
                    return_hand(st, rg, board, nplays, tr, on)
            _drama_look(st, n_teams(n), st[S_HANDS])
            end, win_mask = check_end(st, rg, hand, cfg, rng, row, tr, on, look, resume)
            if end >= 0:
                break
            if resume is not None and resume[RS_PENDING] != 0:  # paused in a tie-break round
                break
            if resume is not None:
                if st[S_HANDS] >= resume[RS_STOP]:  # the playout's horizon
                    break
            if st[hn_at(0, 0)] <= rules[R_REFILL_AT]:
                deal(st, rg, hand, cfg.tables.gp_kind, np.int64(0), (1 << n) - 1, rules[R_REFILL_CARDS],
                     np.int64(DEAL_REFILL), tr, on)
                row[col_llvm(R_REFILLS, n, n_teams(n))] += 1
        if resume is not None:  # a search's run fills no result row: the search reads how it ended (or paused)
            resume[RS_END] = end
            resume[RS_WIN_MASK] = win_mask
        else:
            written = result_row(st, rules, row, end, win_mask, tr, on)
            if st[S_COUNT] != 0:
                for k in range(N_CHOICES):
                    row[col_llvm(R_CHOICES, n, n_teams(n)) + k] = st[O_CHOICES + k]
    return written


optimise_once(run)  # (one round of LLVM's pipeline: as fast as two, measured: jit_deferred)


def scratch(cfg):
    """The arrays `run` works in, allocated here so that the kernel allocates nothing: state, stacks,
    hands (state.new_state) and the random streams (keyed by run for each game)."""
    return (*new_state(cfg.order_gp.shape[0], cfg.order_act.shape[0], cfg.order_fs.shape[0], cfg.rules[R_HCAP]),
            np.zeros(2 * (1 + cfg.rules[R_PLAYERS]), dtype=np.uint64))


def play_game(seed, game, cfg, out, trace):
    """Play game `game` of the run keyed by `seed` and configured by cfg (a Config); fill `out` (one row); append
    its events to `trace`. Returns the number of events written (-1 if the trace buffer was too small)."""
    return run(seed, game, 0, 1, cfg, out.reshape(1, -1), trace, True, *scratch(cfg), None, None)


CHUNK = 64  # games per block at the least (a block reuses one set of scratch arrays)
NO_TRACE = np.zeros((1, 1), dtype=np.int64)  # the batch records no events


def play_block(seed, first_game, lo, hi, cfg, out):
    run(seed, first_game, lo, hi, cfg, out, NO_TRACE, False, *scratch(cfg), None, None)


def batch(seed, first_game, cfg, out):
    """Games first_game .. first_game + len(out) - 1 into out, on numba.get_num_threads() threads
    (analyzer/threads.py): no prange kernel to compile the game a second time."""
    run_in_blocks(play_block, out.shape[0], CHUNK, (seed, first_game), (cfg, out))



# The lookahead's kernel (lookahead.py) is these functions, the game loop from run down to play_board, cloned with
# choose_lookahead bound to the lookahead's decision (search.rebind): the engine never imports its lookahead (which
# builds on it: its playouts are this module's run), and the default kernels, given no scratch, never reach it.
LOOKAHEAD_LOOP = (run, play_hand, play_opportunities, check_end, fight_song_round, play_board)
