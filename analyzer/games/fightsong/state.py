"""Fight Song state layout and primitives (numba): the three stacks, hands, trace events.

A game's state is a few arrays, allocated once per block of games and reset for each game:
- `st` (int64, ST_SIZE): scalars and small per-seat / per-team blocks at fixed offsets (at most 4
  players and 4 teams), listed below;
- `rg` (int64, D + A + F): the three stacks as rings. Stack w (STK_GP, STK_ACT, STK_FS) occupies
  rg[base:base + size]; its top card is at offset `top`, it holds `cnt` cards, and a card put at the
  bottom goes to offset (top + cnt) mod size. Every card is either in its ring or out (in a hand or
  on the table), so a ring never overflows;
- `hand` (int64, (2, 4, HCAP)): card ids held, layer 0 the regular hand, layer 1 the Fight Song hand
  (regular hands are set aside in layer 0 during a Fight Song round). The count of each kind held is
  kept alongside in st (O_HC), so a decision reads counts, not cards.

The greedy fast path (fast.py) plays with the same st and rg, but knows cards by kind alone: its Game Play
ring holds each card's kind instead of its id, a regular hand is its counts (O_HC, O_HM) and a Fight Song
hand its kinds in the order dealt (O_FSEQ); it leaves `hand` untouched.
"""
import numpy as np
from numba import njit

from analyzer.games.drama import D_SIZE
from analyzer.games.fightsong.events import STK_ACT, STK_FS, STK_GP, TRACE_FIXED
from analyzer.games.fightsong.rules import N_CORNERS, N_KINDS
from analyzer.games.layout import Layout

MAXP = 4  # most players (and teams)
LAYERS = 2  # hands per seat: 0 the regular hand, 1 the Fight Song hand

# The state array. `STATE.define` below assigns each name its offset (grep a name to find its row here).
STATE = Layout("Fight Song's state", [
    ("S_TOP", 3, "per stack (STK_GP, STK_ACT, STK_FS): the offset of its top card in its ring"),
    ("S_CNT", 3, "per stack: the cards in it"),
    ("S_SIZE", 3, "per stack: its ring's size"),
    ("S_BASE", 3, "per stack: where its ring starts in rg"),
    ("S_HANDS", 1, "regular hands played"),
    ("S_NE", 1, "trace events written"),
    ("S_OVF", 1, "1 if the trace buffer was too small"),
    ("S_N", 1, "players"),
    ("O_TPTS", MAXP, "per team: recorded round points"),
    ("O_TEXTRA", MAXP, "per team: extra points"),
    ("O_TCROSS", MAXP, "per team: multiples of fs_step its round points have crossed"),
    ("O_TPEND", MAXP, "per team: Fight Song opportunities not yet played"),
    ("O_TSC", MAXP, "per team: points of the board being played (a hand or a Fight Song hand); -1 not playing"),
    ("O_SEATPTS", MAXP, "per seat: round points its cards scored in regular hands"),
    ("O_TCARD", N_CORNERS, "per corner: the card played on it this board, -1 free"),
    ("O_TSEAT", N_CORNERS, "per corner: the seat that played it"),
    # (a board has at most N_CORNERS plays: each takes a free corner)
    ("O_SEQ", N_CORNERS, "the board's plays in order: the seat of play j"),
    ("O_PL", N_CORNERS, "the card of play j"),
    ("O_PLC", N_CORNERS, "the corner of play j"),
    ("O_PLH", N_CORNERS, "how play j scored"),
    ("O_MOVES", MAXP, "per seat: scripted moves used (tests)"),
    ("O_REG", N_CORNERS, "the regular hand's played cards, kept until they go back under the stack"),
    ("O_UNSEEN", N_KINDS, "per kind: cards the deciding player cannot see"),
    ("O_HN", LAYERS * MAXP, "hand sizes, layer x seat (hn_at)"),
    ("O_HC", LAYERS * MAXP * N_KINDS, "kinds held, (layer x seat) x kind (hc_at)"),
    ("O_XSNAP", MAXP, "per team: extra points before the current hand's Fight Song rounds"),
    ("O_HM", LAYERS * MAXP, "kinds held (bit k: at least one card of kind k), layer x seat"),
    ("S_FREE", 1, "the board's free corners (bit c: corner c is free)"),
    ("S_LEFT", 1, "the seat left of the dealer: deals and Fight Song rounds are counted clockwise from it"),
    ("O_DRAMA", D_SIZE, "the drama block (analyzer.games.drama): per team, its score"),
    ("O_FSEQ", MAXP, "per seat, the greedy fast path's Fight Song hand (fast.py): its kinds in the order dealt, "
                     "FSEQ_BITS bits a card, the first dealt lowest (its size in O_HN, layer 1)"),
    # `analyzer profile` (issue 32): copied from the rules array at each game's start (engine.run)
    ("S_COUNT", 1, "1: count the decisions (base.Choices): the rules' R_COUNT"),
    ("O_AVOID", MAXP, "per seat: the division it does not play while it holds another card (restricted play): "
                      "0 none, 1 + division"),
    ("O_CHOICES", 8, "with S_COUNT: the plays, then the battles counted: decisions, options, single-option, real "
                     "(base.CHOICE_COUNTS; choices.py)"),
], size_name="ST_SIZE")
STATE.define(globals())
FSEQ_BITS = 4  # a kind (0..N_KINDS - 1) in O_FSEQ: a Fight Song hand holds at most FS_DEAL cards, 16 fit a word

# engine.run's resume array, for the search (search_ops.py): a playout (or the search's apply) continues the game
# in st, rg, hand from within a board. What is still to be resumed (RESUME_HAND: the regular hand it starts in;
# RESUME_FS: one of that hand's Fight Song hands; 0 once resumed), the board being played and the play to resume
# at (its plays before are made: their cards on the corners, their points in O_TSC), the number of hands after
# which it stops; for a Fight Song hand, the regular hand's Activity card and the Fight Song round's kind, hand
# number (1..FS_MAX_HANDS), initiating teams and playing seats (bits); set by the run: its end condition (-1:
# stopped at its horizon, or paused) and winning teams (bits). RS_MOVE: the decision (kind x 4 + corner) made at
# the play resumed, -1 none (the seat's policy decides); RS_PAUSE: 1 to stop before the next decision of any seat
# after it, where the run then writes all of the above (RS_PENDING, RS_BOARD, RS_PLAY, RS_NPLAYS, the round's) for
# the next run to resume there. Here, below the engine, because the seats' memory (memory.py, which the engine
# calls) keeps where the game is in this layout.
RS_PENDING, RS_BOARD, RS_STOP, RS_REG_BOARD, RS_FS_KIND, RS_FS_HAND, RS_FS_INIT, RS_FS_PART, RS_END, RS_WIN_MASK, \
    RS_PLAY, RS_NPLAYS, RS_MOVE, RS_PAUSE = range(14)
N_RESUME = 14
RESUME_HAND, RESUME_FS = 1, 2


@njit(cache=True, forceinline=True)
def hc_at(layer, seat, kind):
    """Offset in st of the count of `kind` in seat's hand of `layer`."""
    return O_HC + (layer * MAXP + seat) * N_KINDS + kind


@njit(cache=True, forceinline=True)
def hn_at(layer, seat):
    return O_HN + layer * MAXP + seat


@njit(cache=True, forceinline=True)
def team_of(seat, n):
    """Partners across the table with 4 players (seats 0+2 are team 0, 1+3 team 1); else a seat is a team."""
    return seat % 2 if n == 4 else seat


@njit(cache=True, forceinline=True)
def take(st, rg, w):
    """The top card of stack w."""
    top = st[S_TOP + w]
    card = rg[st[S_BASE + w] + top]
    top += 1
    if top == st[S_SIZE + w]:
        top = 0
    st[S_TOP + w] = top
    st[S_CNT + w] -= 1
    return card


@njit(cache=True, forceinline=True)
def put_bottom(st, rg, w, card):
    pos = st[S_TOP + w] + st[S_CNT + w]
    if pos >= st[S_SIZE + w]:
        pos -= st[S_SIZE + w]
    rg[st[S_BASE + w] + pos] = card
    st[S_CNT + w] += 1


@njit(cache=True, forceinline=True)
def hand_add(st, hand, gp_kind, layer, seat, card):
    i = st[hn_at(layer, seat)]
    hand[layer, seat, i] = card
    st[hn_at(layer, seat)] = i + 1
    kind = gp_kind[card]
    st[hc_at(layer, seat, kind)] += 1
    st[O_HM + layer * MAXP + seat] |= 1 << kind


@njit(cache=True, forceinline=True)
def hand_remove_kind(st, hand, gp_kind, layer, seat, kind):
    """Take the first card of `kind` (in the order it was dealt) out of seat's hand; return it."""
    n = st[hn_at(layer, seat)]
    i = 0
    while gp_kind[hand[layer, seat, i]] != kind:
        i += 1
    card = hand[layer, seat, i]
    for j in range(i, n - 1):
        hand[layer, seat, j] = hand[layer, seat, j + 1]
    st[hn_at(layer, seat)] = n - 1
    st[hc_at(layer, seat, kind)] -= 1
    if st[hc_at(layer, seat, kind)] == 0:
        st[O_HM + layer * MAXP + seat] &= ~(1 << kind)
    return card


@njit(cache=True, forceinline=True)
def clear_hand(st, layer, seat):
    """Empty seat's hand of `layer` (its cards have been put elsewhere)."""
    st[hn_at(layer, seat)] = 0
    for k in range(N_KINDS):
        st[hc_at(layer, seat, k)] = 0
    st[O_HM + layer * MAXP + seat] = 0


# one compiled signature (constants passed as fields would otherwise compile a copy per combination); call emit
@njit("int64(int64[::1], int64[:, ::1], boolean, " + ", ".join(["int64"] * 10) + ")", cache=True)
def _emit(st, tr, on, code, f1, f2, f3, f4, f5, f6, f7, f8, f9):
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
    st[S_NE] = k + 1
    return k


@njit(cache=True, forceinline=True)
def emit(st, tr, on, code, f1=0, f2=0, f3=0, f4=0, f5=0, f6=0, f7=0, f8=0, f9=0):
    """Append an event (its fields in the order events.py declares them); returns its row (or -1 when tracing
    is off or the buffer is full)."""
    return _emit(st, tr, on, code, f1, f2, f3, f4, f5, f6, f7, f8, f9)


@njit("void(int64[::1], int64[:, ::1], int64, int64, int64, int64)", cache=True)
def team_list(st, tr, k, off, n_teams, at):
    """Write the per-team block st[off:off + n_teams] into event row k's list from position `at`."""
    if k >= 0:
        for t in range(n_teams):
            tr[k, TRACE_FIXED + at + t] = st[off + t]


@njit(cache=True)
def init_state(st, rg, order_gp, order_act, order_fs, n):
    """A fresh game: empty hands and tables, the three stacks in the given orders (before any shuffle)."""
    for i in range(ST_SIZE):
        st[i] = 0
    st[S_N] = n
    d = order_gp.shape[0]
    a = order_act.shape[0]
    f = order_fs.shape[0]
    st[S_SIZE + STK_GP] = d
    st[S_SIZE + STK_ACT] = a
    st[S_SIZE + STK_FS] = f
    st[S_BASE + STK_GP] = 0
    st[S_BASE + STK_ACT] = d
    st[S_BASE + STK_FS] = d + a
    st[S_CNT + STK_GP] = d
    st[S_CNT + STK_ACT] = a
    st[S_CNT + STK_FS] = f
    for i in range(d):
        rg[i] = order_gp[i]
    for i in range(a):
        rg[d + i] = order_act[i]
    for i in range(f):
        rg[d + a + i] = order_fs[i]


def new_state(d, a, f, hcap):
    """The arrays of one game (a block of games reuses one set)."""
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(d + a + f, dtype=np.int64),
            np.zeros((2, MAXP, hcap), dtype=np.int64))
