"""Battle of the Bards: the game state and the rule primitives (adding cards, scoring, the meme).

All of a game's state lives in one int64 array `st` (layout below) so that every rule function takes
the same few arguments and tests can build any position by hand. A tale is summarised by NF fields
kept up to date as cards are added (size, highest audience value, latest card, set points, meme
points under the current meme, suit counts packed 8 bits per suit, which ranks it holds once / twice /
three times as bitmasks, and whether an Excuse blocks it), so scoring a tale or valuing a move costs
a few integer operations. The policies (policies.py) read the same summaries.

Card table columns are those of rules.py (C_SUITS, C_RANK, ...), one row per physical card.
"""
import numpy as np
from numba import njit

from analyzer.games import drama
from analyzer.games.bards.events import EV_CONCLUDE, EV_MEME, EV_PLACE, MR_REPLACED, RS_END, RS_FORCED, TRACE_FIXED
from analyzer.games.bards.jitted import helper
from analyzer.games.bards.rules import (C_BARD, C_EXCUSE, C_PACK, C_RANK, C_SUITS, C_VALUE)
from analyzer.games.base import CHOICE_COUNTS
from analyzer.games.drama import block_size
from analyzer.games.layout import SEATS, Layout, Row


MAXC = 90  # largest deck (double extended)

# --- a tale's summary fields -------------------------------------------------------------------
NF = 10
T_N, T_MV, T_LAST, T_SET, T_MP, T_PACK, T_H1, T_H2, T_H3, T_BLK = range(NF)

# --- the result row ----------------------------------------------------------------------------
# card power: the best audience value among the two cards that start a seat's tales at the setup; the Bard
# (Crown of Suns) and the Excuse in the seat's tales at any time
POWER_SETUP = (("a Crown (10)", "setup_crown_"), ("best 7 to 9", "setup_high_"), ("best 6 or less", "setup_low_"))
POWER_TALES = (("neither", "tale_neither_"), ("the Bard, not the Excuse", "tale_bard_"),
               ("the Excuse, not the Bard", "tale_excuse_"), ("the Bard and the Excuse", "tale_both_"))
# decision counts (issue 32, `analyzer profile`): per kind of decision (DK_: docs/bards.md, "Profile"), its columns
# <prefix>n, options, forced, real (DC_: base.CHOICE_COUNTS); filled only when the encoded rules ask (I_COUNT)
CHOICE_KINDS = (("Splits", "ch_split_"), ("Choices", "ch_choice_"), ("Plays", "ch_play_"), ("Setup", "ch_setup_"))
DC_N, DC_OPTIONS, DC_FORCED, DC_REAL = range(4)  # within a kind's four columns
DK_SPLIT, DK_CHOICE, DK_PLAY, DK_SETUP = (4 * k for k in range(len(CHOICE_KINDS)))  # a kind's first column
# The result row (docs/bards.md, "Result columns"), accumulated in st[O_STAT..] during the game. Two players
# always: `ROW.define` assigns each piece's name its column.
ROW = Row("Battle of the Bards' result row", [
    ("R_WIN", "win_", SEATS, ""),
    ("R_NWIN", "n_winners", 1, ""),
    ("R_LEN", "length", 1, "turns"),
    ("R_END", "end", 1, "0: the only end"),
    ("R_SCORE", "score_", SEATS, ""),
    ("R_MARGIN", "margin", 1, ""),
    ("R_BARD", "had_bard_", SEATS, "the seat had the Bard in a tale"),
    ("R_TIEBARD", "tie_broken_by_bard", 1, ""),
    ("R_TALES", "tales_", SEATS, "tales the seat concluded"),
    ("R_ZERO", "zero_tales_", SEATS, "of them, scoring 0"),
    ("R_TALES_ALL", "tales", 1, ""),
    ("R_ZERO_ALL", "zero_tales", 1, ""),
    ("R_LOST", "lost_audience", 1, ""),
    ("R_MEMEPTS", "meme_points", 1, ""),
    ("R_SETPTS", "set_points", 1, ""),
    ("R_POINTS", "points", 1, ""),
    ("R_MEMECH", "meme_changes", 1, ""),
    ("R_SUITLESS", "meme_suitless", 1, "the meme ran out of cards to replace it"),
    ("R_SPLITS", "splits", 1, ""),
    ("R_S14U", "split_1_4_large_up", 1, ""),
    ("R_S14D", "split_1_4_large_down", 1, ""),
    ("R_S23U", "split_2_3_large_up", 1, ""),
    ("R_S23D", "split_2_3_large_down", 1, ""),
    ("R_CHOSEUP", "chose_face_up", 1, ""),
    ("R_FORCED", "forced_concludes", 1, ""),
    ("R_EXCUSE", "excuse_played", 1, ""),
    ("R_FINAL", "final_tales", 1, "tales concluded at the end"),
    ("R_LEFT", "cards_left", 1, "in the draw pile"),
    # drama and card power (issue 12), last: see analyzer/games/drama.py and the POWER categories above
    ("R_DRAMA", drama.COLUMNS, 1, "analyzer.games.drama"),
    ("R_POWER_SETUP", tuple(prefix for _, prefix in POWER_SETUP), SEATS, "one 0/1 column per category and seat"),
    ("R_POWER_TALES", tuple(prefix for _, prefix in POWER_TALES), SEATS, "one 0/1 column per category and seat"),
    # the decision counts (issue 32), after them: R_CHOICES + DK_<kind> + DC_<count>
    ("R_CHOICES", tuple(prefix + count for _, prefix in CHOICE_KINDS for count in CHOICE_COUNTS),
     1, "summed over the game and both seats"),
])
ROW.define(globals(), players=2)
COLUMNS = tuple(ROW.names(2))
N_COLS = ROW.width(2)

# --- the state array: `STATE.define` below assigns each name its offset --------------------------
STATE = Layout("Battle of the Bards' state", [
    ("O_PILE", MAXC, "the shuffled deck; st[S_POS] is the next card to draw"),
    ("O_TC", 4 * MAXC, "cards of the 4 tales (seat * 2 + slot), MAXC each, oldest first"),
    ("O_TF", 4 * NF, "the 4 tales' summary fields (T_..., tbase)"),
    ("O_DISC", MAXC, "the discard pile, in the order cards were discarded"),
    ("S_POS", 1, "index in O_PILE of the next card to draw"),
    ("S_N", 1, "cards in the deck"),
    ("S_MEME", 1, "the dominant meme (-1: none, no suits)"),
    ("S_MASK", 1, "its suit mask"),
    ("S_MEXC", 1, "1 if the meme is the Excuse"),
    ("S_SCORE", 2, "per seat: its score"),
    ("S_BARD", 2, "per seat: had the Bard in a tale"),
    ("S_EXCT", 2, "per seat: had the Excuse in a tale"),
    ("S_NDISC", 1, "cards in the discard pile"),
    ("S_NE", 1, "trace events written"),
    ("S_OVF", 1, "1 if the trace buffer overflowed"),
    ("S_TURN", 1, "turns played"),
    ("O_STAT", N_COLS, "the result row (R_...), accumulated during the game"),
    ("O_DRAMA", block_size(2), "the drama block (analyzer.games.drama): the two scores"),
    ("O_HAND", 5, "the five cards drawn this turn by the seat whose turn it is"),
    ("S_ACTIVE", 1, "the seat whose split it is, in the search's positions (-1: the game is over); engine.run "
                    "keeps it in a local variable"),
], size_name="ST_SIZE")
STATE.define(globals())

# --- encoded policy arrays -------------------------------------------------------------------
# pint[seat] = split policy, play, choose, setup codes, the lookahead's and the search's horizon, the lookahead's
# samples, the search's budget and rollout (lookahead.py), whether decisions are counted (I_COUNT: the rule
# `count_choices`, the same in both rows; the search's playouts have their own pint, which never counts) and the
# kind of card the seat avoids (I_AVOID: an index into rules.CARD_KINDS, -1: none); pflt[seat] = numeric
# parameters (P_C: the search's c)
I_SPLIT, I_PLAY, I_CHOOSE, I_SETUP, I_SAMPLES, I_HORIZON, I_BUDGET, I_ROLLOUT, I_COUNT, I_AVOID = range(10)
N_INT = 10
NO_AVOID = -1
P_CONCLUDE_AT, P_HOPE, P_MEME_KEEP, P_THRESHOLD, P_SPITE, P_C = range(6)
N_FLT = 6
# SP_LOOKAHEAD and SP_SEARCH split by lookahead.py's kernel (the search driver's lookahead and ismcts)
SP_RANDOM, SP_BALANCED, SP_GREEDY, SP_BAIT, SP_LOOKAHEAD, SP_SEARCH = range(6)
PL_RANDOM, PL_GREEDY = range(2)
CH_RANDOM, CH_AT_LEAST, CH_EXPECTED = range(3)
SU_RANDOM, SU_GREEDY = range(2)

TRACE_WIDTH = TRACE_FIXED + MAXC  # a trace row: the code, the fields, a list of up to MAXC cards

POP6 = np.array([bin(i).count("1") for i in range(64)], dtype=np.int64)


# =================================================================================================
# trace
# =================================================================================================
@helper(inline="always")
def emit(st, tr, on, code, f1=0, f2=0, f3=0, f4=0, f5=0, f6=0, f7=0, f8=0, f9=0, f10=0, f11=0):
    """Append an event (its fields in the order events.py declares them); returns its row (or -1 when tracing
    is off or the buffer is full). Inlined by numba into each caller, as a call of _emit with every field an int64:
    one signature to compile, where each number of fields given (and their types) was a compile of its own (six in
    a cold start's kernel, on its critical path)."""
    return _emit(st, tr, on, np.int64(code), np.int64(f1), np.int64(f2), np.int64(f3), np.int64(f4), np.int64(f5),
                 np.int64(f6), np.int64(f7), np.int64(f8), np.int64(f9), np.int64(f10), np.int64(f11))


@helper(forceinline=True)
def _emit(st, tr, on, code, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11):
    if not on:
        return -1
    k = st[S_NE]
    if k >= tr.shape[0]:
        st[S_OVF] = 1
        return -1
    tr[k, 0] = code
    tr[k, 1] = f1
    tr[k, 2] = f2
    tr[k, 3] = f3
    tr[k, 4] = f4
    tr[k, 5] = f5
    tr[k, 6] = f6
    tr[k, 7] = f7
    tr[k, 8] = f8
    tr[k, 9] = f9
    tr[k, 10] = f10
    tr[k, 11] = f11
    st[S_NE] = k + 1
    return k


# =================================================================================================
# tales: summaries, adding a card, scoring
# =================================================================================================
@njit(cache=True, forceinline=True)
def tbase(seat, slot):
    return O_TF + (seat * 2 + slot) * NF


@helper()
def meme_pts(pack, mask, nn):
    """Meme points of a tale with suit counts `pack`: one per card per suit of `mask`, plus the best
    `nn` further suits a player may name (0, 1 or 2)."""
    base = 0
    b1 = 0
    b2 = 0
    for s in range(6):
        cnt = (pack >> (8 * s)) & 255
        if (mask >> s) & 1:
            base += cnt
        elif cnt > b1:
            b2 = b1
            b1 = cnt
        elif cnt > b2:
            b2 = cnt
    if nn >= 1:
        base += b1
    if nn >= 2:
        base += b2
    return base


@helper()
def best_suits(pack, mask):
    """The two suits outside `mask` a tale holds most of (ties: the lower suit)."""
    s1 = -1
    s2 = -1
    c1 = -1
    c2 = -1
    for s in range(6):
        if (mask >> s) & 1:
            continue
        cnt = (pack >> (8 * s)) & 255
        if cnt > c1:
            s2 = s1
            c2 = c1
            s1 = s
            c1 = cnt
        elif cnt > c2:
            s2 = s
            c2 = cnt
    return s1, s2


@helper()
def clear_tale(a, b):
    a[b + T_N] = 0
    a[b + T_MV] = 0
    a[b + T_LAST] = -1
    a[b + T_SET] = 0
    a[b + T_MP] = 0
    a[b + T_PACK] = 0
    a[b + T_H1] = 0
    a[b + T_H2] = 0
    a[b + T_H3] = 0
    a[b + T_BLK] = 0


@helper()
def add_fields(a, b, c, tbl, mask, mexc):
    """Add card c to the tale summary at a[b:b+NF] (an empty tale is started)."""
    a[b + T_N] += 1
    v = tbl[c, C_VALUE]
    if v > a[b + T_MV]:
        a[b + T_MV] = v
    a[b + T_LAST] = c
    a[b + T_BLK] = tbl[c, C_EXCUSE]
    r = tbl[c, C_RANK]
    if r >= 0:
        bit = np.int64(1) << r
        if (a[b + T_H1] & bit) == 0:
            a[b + T_H1] |= bit
        elif (a[b + T_H2] & bit) == 0:
            a[b + T_H2] |= bit
            a[b + T_SET] += 4
        elif (a[b + T_H3] & bit) == 0:
            a[b + T_H3] |= bit
            a[b + T_SET] += 5
    a[b + T_PACK] += tbl[c, C_PACK]
    if mexc != 0:
        a[b + T_MP] = meme_pts(a[b + T_PACK], mask, 1)
    else:
        a[b + T_MP] += POP6[tbl[c, C_SUITS] & mask]


@njit(cache=True, forceinline=True)
def fits(st, tbl, seat, slot, c):
    """Can c go on this tale (an empty slot starts a new tale)?"""
    b = tbase(seat, slot)
    if st[b + T_N] == 0:
        return True
    if st[b + T_BLK] != 0:
        return False
    if tbl[c, C_EXCUSE] != 0:
        return True
    return (tbl[c, C_SUITS] & tbl[st[b + T_LAST], C_SUITS]) != 0


@helper()
def refresh_meme_points(st):
    mask = st[S_MASK]
    nn = st[S_MEXC]
    for t in range(4):
        b = O_TF + t * NF
        st[b + T_MP] = meme_pts(st[b + T_PACK], mask, nn)


@njit(cache=True)
def set_meme(st, card, tbl):
    st[S_MEME] = card
    if card < 0:
        st[S_MASK] = 0
        st[S_MEXC] = 0
    else:
        st[S_MASK] = tbl[card, C_SUITS]
        st[S_MEXC] = tbl[card, C_EXCUSE]
    refresh_meme_points(st)


@helper(forceinline=True)
def draw(st):
    p = st[S_POS]
    st[S_POS] = p + 1
    return st[O_PILE + p]


@njit(cache=True, forceinline=True)
def pile_left(st):
    return st[S_N] - st[S_POS]


@njit(cache=True)
def place(st, tbl, seat, slot, c, setup, tr, on):
    """Put card c on a tale (the caller has checked it fits) and record it."""
    b = tbase(seat, slot)
    n = st[b + T_N]
    prev = st[b + T_LAST]
    st[O_TC + (seat * 2 + slot) * MAXC + n] = c
    add_fields(st, b, c, tbl, st[S_MASK], st[S_MEXC])
    if tbl[c, C_BARD] != 0:
        st[S_BARD + seat] = 1
    if tbl[c, C_EXCUSE] != 0:
        st[S_EXCT + seat] = 1
        if setup == 0:
            st[O_STAT + R_EXCUSE] += 1
    emit(st, tr, on, EV_PLACE, seat, c, slot, 1 if n == 0 else 0, n + 1, prev, setup)


@njit(cache=True)
def conclude(st, tbl, seat, slot, reason, named_excuse, named_meme, tr, on):
    """Conclude a tale: score it, discard it, replace the meme if it scored meme points.

    named_excuse: the suit named after playing the Excuse (-1: none); named_meme: the suit named
    because the meme is the Excuse (-1: none). Returns the tale's score."""
    b = tbase(seat, slot)
    n = st[b + T_N]
    mv = st[b + T_MV]
    holds = mv >= n
    mask = st[S_MASK]
    if named_excuse >= 0:
        mask |= np.int64(1) << named_excuse
    if named_meme >= 0:
        mask |= np.int64(1) << named_meme
    mp = meme_pts(st[b + T_PACK], mask, 0)
    setp = st[b + T_SET]
    score = mp + setp if holds else 0
    st[S_SCORE + seat] += score
    st[O_STAT + R_TALES + seat] += 1
    if score == 0:
        st[O_STAT + R_ZERO + seat] += 1
    if not holds:
        st[O_STAT + R_LOST] += 1
    else:
        st[O_STAT + R_MEMEPTS] += mp
        st[O_STAT + R_SETPTS] += setp
    if reason == RS_FORCED:
        st[O_STAT + R_FORCED] += 1
    elif reason == RS_END:
        st[O_STAT + R_FINAL] += 1
    k = emit(st, tr, on, EV_CONCLUDE, seat, slot, reason, n, mv, 1 if holds else 0, st[S_MEME], named_excuse,
             named_meme, mp if holds else 0, setp if holds else 0)
    tc = O_TC + (seat * 2 + slot) * MAXC
    nd = st[S_NDISC]
    for i in range(n):
        st[O_DISC + nd + i] = st[tc + i]
    if k >= 0:  # the tale's cards, then both seats' totals after it (TRACE_WIDTH has room for them)
        for i in range(n):
            tr[k, TRACE_FIXED + i] = st[tc + i]
        tr[k, TRACE_FIXED + n] = st[S_SCORE]
        tr[k, TRACE_FIXED + n + 1] = st[S_SCORE + 1]
    st[S_NDISC] = nd + n
    clear_tale(st, b)
    if holds and mp > 0:
        old = st[S_MEME]
        if old >= 0:
            st[O_DISC + st[S_NDISC]] = old
            st[S_NDISC] += 1
            new = -1
            if pile_left(st) > 0:
                new = draw(st)
            else:
                st[O_STAT + R_SUITLESS] = 1
            set_meme(st, new, tbl)
            st[O_STAT + R_MEMECH] += 1
            emit(st, tr, on, EV_MEME, new, old, MR_REPLACED, pile_left(st))
    return score


# =================================================================================================
# setup, turns, end
# =================================================================================================
@njit(cache=True)
def init_state(st, n_cards):
    for i in range(ST_SIZE):
        st[i] = 0
    st[S_N] = n_cards
    st[S_MEME] = -1
    for t in range(4):
        clear_tale(st, O_TF + t * NF)
    for i in range(n_cards):
        st[O_PILE + i] = i


@helper()
def winners(st):
    """(seat 0 wins, seat 1 wins, the Bard broke a tie), each 0 or 1, from the final scores: the higher score
    wins; tied scores, the seat that had the Bard in a tale; a true tie, both."""
    s0 = st[S_SCORE]
    s1 = st[S_SCORE + 1]
    if s0 > s1:
        return 1, 0, 0
    if s1 > s0:
        return 0, 1, 0
    b0 = st[S_BARD]
    b1 = st[S_BARD + 1]
    if b0 != 0 and b1 == 0:
        return 1, 0, 1
    if b1 != 0 and b0 == 0:
        return 0, 1, 1
    return 1, 1, 0


@njit(cache=True)
def finish(st, out):
    """Winner, tie-break and the result row."""
    s0 = st[S_SCORE]
    s1 = st[S_SCORE + 1]
    w0, w1, tb = winners(st)
    for i in range(N_COLS):
        out[i] = st[O_STAT + i]
    out[R_WIN] = w0
    out[R_WIN + 1] = w1
    out[R_NWIN] = w0 + w1
    out[R_LEN] = st[S_TURN]
    out[R_END] = 0
    out[R_SCORE] = s0
    out[R_SCORE + 1] = s1
    out[R_MARGIN] = abs(s0 - s1)
    out[R_BARD] = st[S_BARD]
    out[R_BARD + 1] = st[S_BARD + 1]
    out[R_TIEBARD] = tb
    out[R_TALES_ALL] = out[R_TALES] + out[R_TALES + 1]
    out[R_ZERO_ALL] = out[R_ZERO] + out[R_ZERO + 1]
    out[R_POINTS] = s0 + s1
    out[R_SPLITS] = st[S_TURN]
    out[R_LEFT] = pile_left(st)
