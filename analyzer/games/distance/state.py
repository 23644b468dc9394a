"""The Distance: the game state in one int64 array, and the rule primitives (drawing, reshuffling,
moving cards, what fits).

A game's whole state lives in `st` (layout below), together with the run's configuration (the deck's
kinds, the rules, the seats' policies) and the scratch space of the decisions: every rule function
takes `st` and a few scalars. That is for speed: numba counts references to every array a helper
receives (atomic increments on every call), so one array instead of ten keeps a turn cheap. The
configuration part is written once per run (`encode` builds it) and kept from game to game; the game
part is reset by init_state. Hands are counts per kind (what the rules and policies read); the card
ids (unique per physical card) of each hand are kept beside them only when S_IDS is set (a traced game
or the lookahead, which need them). Without them, a card leaving a hand is represented by its kind's
first id (O_KID): the stock and discard pile then hold other ids of the same kinds, so the game (every
kind drawn, played and reshuffled) is exactly the same, and the batch skips the id bookkeeping. The stock is read from
position S_POS up to S_NSTOCK (index S_POS is its top); the discard pile grows upwards (its last card
is the top card, the one the next play must follow).

Letters are 0..6 (A..G); NEED_ANY means any letter may be played (after a wild start card).
"""
import numpy as np
from numba import njit

from analyzer.games.drama import D_SIZE
from analyzer.rng import DEAL, shuffle

MAXP = 5  # players
MAXC = 256  # cards in a deck
MAXK = 32  # kinds of card
ALL = 127  # the letter mask of a wild
NEED_ANY = -1

# --- the configuration (written once per run by encode; init_state keeps it) ---------------------------
O_KMASK = 0                     # MAXK: the letters each kind of card can give (ALL: a wild)
O_KTOTAL = O_KMASK + MAXK       # MAXK: copies of each kind in the deck
O_CKIND = O_KTOTAL + MAXK       # MAXC: the kind of every card id
O_ORDER = O_CKIND + MAXC        # MAXC: a stacked deck order, top first (tests; used when C_STACKED)
O_POL = O_ORDER + MAXC          # MAXP: each seat's policy code
O_PAR = O_POL + MAXP            # MAXP x N_PAR: each seat's parameters (all whole numbers)
N_PAR = 6
PAR_DECLARE, PAR_INTERVAL, PAR_FIXED, PAR_RESERVE, PAR_SAMPLES, PAR_HORIZON = range(N_PAR)
O_STEPS = O_PAR + MAXP * N_PAR  # 8: the steps a random interval is drawn from
O_LKINDS = O_STEPS + 8          # 9 x MAXK: per letter, the kinds (not wilds) that give it, in deck order
WILD_LIST = 7                   #   (so a turn looks at a few kinds, not all); list WILD_LIST: the wild kinds;
ANY_LIST = 8                    #   list ANY_LIST: every kind but the wilds
O_LCOUNT = O_LKINDS + 9 * MAXK  # 9: the length of each of those lists
O_CFG = O_LCOUNT + 9             # configuration scalars:
C_PLAYERS = O_CFG + 0
C_HAND = O_CFG + 1              # cards dealt to each player
C_MODE = O_CFG + 2              # interval: MODE_FIXED, MODE_RANDOM, MODE_CHOOSER
C_STEP = O_CFG + 3              # the fixed interval's step
C_CHOOSER = O_CFG + 4
C_DRAW_LIMIT = O_CFG + 5
C_TURN_CAP = O_CFG + 6
C_STACKED = O_CFG + 7           # 1: play the deck in O_ORDER's order (tests)
C_NSTEPS = O_CFG + 8
C_NCARDS = O_CFG + 9
C_NKINDS = O_CFG + 10
MODE_FIXED, MODE_RANDOM, MODE_CHOOSER = 0, 1, 2
O_IDS = O_CFG + 16              # MAXC scratch: the card ids of a play
O_SCR = O_IDS + MAXC            # MAXK scratch: a hand's counts after a play
O_SUPPLY = O_SCR + MAXK         # 7 scratch: cards per letter (the interval choice)
O_KID = O_SUPPLY + 8            # MAXK: the first card id of each kind (a hand without ids gives it)
O_GAME = O_KID + MAXK           # from here on, the game (reset by init_state)

# --- the game -----------------------------------------------------------------------------------------
O_HAND = O_GAME                 # MAXP x MAXC card ids, seat s's hand at O_HAND + s * MAXC
O_HN = O_HAND + MAXP * MAXC     # MAXP hand sizes
O_CNT = O_HN + MAXP             # MAXP x MAXK: cards of each kind in each hand
O_NWILD = O_CNT + MAXP * MAXK   # MAXP: wilds in each hand (the sum of its wild kinds' counts, kept up to date)
O_STOCK = O_NWILD + MAXP        # the stock; its top is st[O_STOCK + st[S_POS]]
O_DISC = O_STOCK + MAXC         # the discard pile, bottom first
O_DCNT = O_DISC + MAXC          # MAXK: cards of each kind in the discard pile (what everyone can see)
O_SC = O_DCNT + MAXK            # scalars
S_POS = O_SC + 0                # stock read position
S_NSTOCK = O_SC + 1             # stock end (cards in stock = S_NSTOCK - S_POS)
S_NDISC = O_SC + 2              # cards in the discard pile
S_NEED = O_SC + 3               # the letter the next play must give (NEED_ANY: any)
S_STEP = O_SC + 4               # the interval as a step: 1 (seconds) .. 6 (sevenths)
S_NE = O_SC + 5                 # trace events written
S_OVF = O_SC + 6                # 1 if the trace buffer overflowed
S_IDS = O_SC + 7                # 1: the hands keep their card ids at O_HAND (see the module docstring)
O_DRAMA = O_SC + 8              # the drama block (analyzer.games.drama): standings = minus the hand sizes
ST_SIZE = O_DRAMA + D_SIZE
S_N = C_PLAYERS                 # (short names used by the rules: players, cards, kinds)
S_NCARDS = C_NCARDS
S_NKINDS = C_NKINDS

# --- trace events: column 0 is the code, fields 1..7, card lists from column TRACE_FIXED ----------
TRACE_FIXED = 8
TRACE_WIDTH = TRACE_FIXED + MAXC
(EV_DECK, EV_DEAL, EV_INTERVAL, EV_START, EV_START_LETTER, EV_TURN, EV_PLAY, EV_DRAW, EV_PASS,
 EV_RESHUFFLE, EV_PENALTY, EV_END) = range(1, 13)
DRAW_NORMAL, DRAW_PENALTY = 0, 1
PEN_MISPLAY, PEN_FORGOT = 0, 1
HOW_FIXED, HOW_RANDOM, HOW_CHOSEN = 0, 1, 2


@njit(cache=True, inline="always")
def emit(st, tr, on, code, f1, f2, f3, f4, f5, f6, f7):
    """Append an event; returns its row (or -1 when tracing is off or the buffer is full)."""
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
    st[S_NE] = k + 1
    return k


@njit(cache=True)
def init_state(st, ids):
    """A new game: the game part zeroed (but for the card lists, always written before they are read),
    the deck in the stock in id order (shuffled by the caller); ids (0/1): keep the hands' card ids."""
    for i in range(O_HN, O_STOCK):
        st[i] = 0
    for i in range(O_DCNT, ST_SIZE):
        st[i] = 0
    st[S_IDS] = ids
    n_cards = st[C_NCARDS]
    st[S_NSTOCK] = n_cards
    for c in range(n_cards):
        st[O_STOCK + c] = c


@njit(cache=True, inline="always")
def stock_left(st):
    return st[S_NSTOCK] - st[S_POS]


@njit(cache=True, inline="always")
def add_to_hand(st, seat, card):
    n = st[O_HN + seat]
    if st[S_IDS]:
        st[O_HAND + seat * MAXC + n] = card
    st[O_HN + seat] = n + 1
    kind = st[O_CKIND + card]
    st[O_CNT + seat * MAXK + kind] += 1
    st[O_NWILD + seat] += st[O_KMASK + kind] == ALL


@njit(cache=True, inline="always")
def _take_id(st, seat, kind):
    """Remove the first card of `kind` from seat's hand, which keeps its ids (the others stay in order);
    returns its id."""
    base = O_HAND + seat * MAXC
    n = st[O_HN + seat]
    for i in range(n):
        c = st[base + i]
        if st[O_CKIND + c] == kind:
            for j in range(i, n - 1):
                st[base + j] = st[base + j + 1]
            st[O_HN + seat] = n - 1
            st[O_CNT + seat * MAXK + kind] -= 1
            st[O_NWILD + seat] -= st[O_KMASK + kind] == ALL
            return c
    return -1


@njit(cache=True, inline="always")
def discard(st, card):
    st[O_DISC + st[S_NDISC]] = card
    st[S_NDISC] += 1
    st[O_DCNT + st[O_CKIND + card]] += 1


@njit(cache=True, inline="always")
def play_cards(st, seat, kind, count, m):
    """Move `count` cards of `kind` from seat's hand onto the discard pile (the first ones of that kind in
    the hand), their ids listed at O_IDS + m.. when the hands keep ids; returns m + count."""
    if st[S_IDS] == 0:
        # no ids: the counts move at once (card by card, each count would wait on the last store), and the
        # pile gets the kind's first id `count` times
        st[O_HN + seat] -= count
        st[O_CNT + seat * MAXK + kind] -= count
        if st[O_KMASK + kind] == ALL:
            st[O_NWILD + seat] -= count
        st[O_DCNT + kind] += count
        d = st[S_NDISC]
        kid = st[O_KID + kind]
        for i in range(count):
            st[O_DISC + d + i] = kid
        st[S_NDISC] = d + count
        return m + count
    for _ in range(count):
        c = _take_id(st, seat, kind)
        discard(st, c)
        st[O_IDS + m] = c
        m += 1
    return m


@njit(cache=True, inline="always")
def top_card(st):
    return st[O_DISC + st[S_NDISC] - 1] if st[S_NDISC] > 0 else np.int64(-1)


@njit(cache=True)
def reshuffle(st, rng, tr, on):
    """Empty stock: the discard pile except its top card, shuffled (stream DEAL), is the new stock.
    Returns the number of cards in the new stock (0: nothing to reshuffle)."""
    m = st[S_NDISC] - 1
    if m <= 0:
        return 0
    top = st[O_DISC + m]
    for i in range(m):
        c = st[O_DISC + i]
        st[O_STOCK + i] = c
        st[O_DCNT + st[O_CKIND + c]] -= 1
    shuffle(rng, DEAL, st[O_STOCK:O_STOCK + m], m)
    st[O_DISC] = top
    st[S_NDISC] = 1
    st[S_POS] = 0
    st[S_NSTOCK] = m
    k = emit(st, tr, on, EV_RESHUFFLE, top, m, 0, 0, 0, 0, 0)
    if k >= 0:
        for i in range(m):
            tr[k, TRACE_FIXED + i] = st[O_STOCK + i]
    return m


@njit(cache=True, inline="always")
def draw(st, rng, tr, on):
    """The top card of the stock (reshuffling the discard pile first if the stock is empty), or -1 if
    there is nothing to draw. Returns (card, reshuffled: 1 if a reshuffle happened)."""
    shuffled = 0
    if stock_left(st) == 0:
        if reshuffle(st, rng, tr, on) == 0:
            return np.int64(-1), shuffled
        shuffled = 1
    c = st[O_STOCK + st[S_POS]]
    st[S_POS] += 1
    return c, shuffled


@njit(cache=True, inline="always")
def kinds_of(st, letter, j):
    """The j-th kind (in deck order) that gives `letter` (WILD_LIST: the j-th wild kind; ANY_LIST: the
    j-th kind that is not a wild)."""
    return st[O_LKINDS + letter * MAXK + j]


@njit(cache=True, inline="always")
def fitting_list(need):
    """The list of kinds (not wilds) that can be played for the needed letter."""
    return ANY_LIST if need == NEED_ANY else need


@njit(cache=True, inline="always")
def n_kinds_of(st, letter):
    return st[O_LCOUNT + letter]


@njit(cache=True, inline="always")
def fits(mask, need):
    """A card kind with these letters can be declared as the needed letter."""
    return need == NEED_ANY or (mask >> need) & 1 == 1


@njit(cache=True)
def group_fits(kinds, n, need, kind_mask):
    """The rulebook's test of a play: one or more cards, all of one pitch class ("the same number")
    except wilds, all declarable as one letter (the needed one, or any one when any letter may be
    played). Returns the letters the group could be declared as (a mask; 0: not a legal play)."""
    if n == 0:
        return 0
    note = -1
    letters = ALL
    for i in range(n):
        m = kind_mask[kinds[i]]
        if m == ALL:
            continue
        if note == -1:
            note = kinds[i]
        elif kinds[i] != note:
            return 0  # a mixture of pitch classes
        letters &= m
    if need != NEED_ANY:
        letters &= 1 << need
    return letters
