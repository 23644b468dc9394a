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

from analyzer.games.distance.events import EV_RESHUFFLE, NEED_ANY, TRACE_FIXED
from analyzer.games.drama import D_SIZE
from analyzer.games.layout import Layout
from analyzer.rng import DEAL, shuffle_drawn

MAXP = 5  # players
MAXC = 256  # cards in a deck
MAXK = 32  # kinds of card
ALL = 127  # the letter mask of a wild

N_PAR = 10  # a seat's parameters, at O_PAR + seat * N_PAR (PAR_C_MILLI: the search's c, in thousandths;
# PAR_AVOID: restricted play, the class of card (CLASS_...) it does not play while it has another play, NO_AVOID: none)
(PAR_DECLARE, PAR_INTERVAL, PAR_FIXED, PAR_RESERVE, PAR_SAMPLES, PAR_HORIZON, PAR_BUDGET, PAR_C_MILLI, PAR_ROLLOUT,
 PAR_AVOID) = range(N_PAR)
# the classes of card restricted play names (rules.CARD_CLASSES, in this order): one letter, two or more, every letter
CLASS_NATURAL, CLASS_ACCIDENTAL, CLASS_WILD = 0, 1, 2
NO_AVOID = -1
WILD_LIST = 7  # the list of the wild kinds in O_LKINDS (lists 0..6: the kinds that give each letter)
ANY_LIST = 8  # the list of every kind but the wilds
MODE_FIXED, MODE_RANDOM, MODE_CHOOSER = 0, 1, 2  # C_MODE
# The greedy fast path (engine.greedy_turns) keeps each hand as one packed word: 4 bits per kind, kind k's count
# at bits 4k..4k+3, so a deck of at most PACK_KINDS kinds of at most PACK_COPIES copies each fits; kind
# PAD_KIND's nibble is then always 0 and pads the per-letter lists of O_LTHREE.
PACK_KINDS, PACK_COPIES, PACK_FITTING = 15, 15, 3  # (PACK_FITTING: kinds that are not wilds giving one letter)
PAD_KIND = 15
PHAND_STRIDE = 12  # the packed hands' spacing in the state: greedy_turns indexes them by its 12-bit drama lane (LANE)

# The state array. `STATE.define` below assigns each name its offset (grep a name to find its row here).
STATE = Layout("The Distance's state", [
    # the configuration: written once per run by encode, kept by init_state from game to game
    ("O_KMASK", MAXK, "the letters each kind of card can give (ALL: a wild)"),
    ("O_KTOTAL", MAXK, "copies of each kind in the deck"),
    ("O_CKIND", MAXC, "the kind of every card id"),
    ("O_ORDER", MAXC, "a stacked deck order, top first (tests; used when C_STACKED)"),
    ("O_POL", MAXP, "each seat's policy code"),
    ("O_PAR", MAXP * N_PAR, "each seat's parameters (PAR_..., all whole numbers)"),
    ("O_STEPS", 8, "the steps a random interval is drawn from"),
    ("O_LKINDS", 9 * MAXK, "per letter, the kinds (not wilds) that give it, in deck order, so that a turn looks at "
     "a few kinds, not all; then the lists WILD_LIST (the wild kinds) and ANY_LIST (every kind but the wilds)"),
    ("O_LCOUNT", 9, "the length of each of those lists"),
    ("C_PLAYERS", 1, "players"),
    ("C_HAND", 1, "cards dealt to each player"),
    ("C_MODE", 1, "the interval: MODE_FIXED, MODE_RANDOM, MODE_CHOOSER"),
    ("C_STEP", 1, "the fixed interval's step"),
    ("C_CHOOSER", 1, "the seat that chooses the interval"),
    ("C_DRAW_LIMIT", 1, "draws before a pass (0: no limit)"),
    ("C_TURN_CAP", 1, "turns before a stall"),
    ("C_STACKED", 1, "1: play the deck in O_ORDER's order (tests)"),
    ("C_NSTEPS", 1, "the steps in O_STEPS"),
    ("C_NCARDS", 1, "cards in the deck"),
    ("C_NKINDS", 1, "kinds of card in the deck"),
    ("O_IDS", MAXC, "scratch: the card ids of a play"),
    ("O_DRAWS", MAXC, "scratch: a shuffle's random indices, all drawn before its swaps (rng.shuffle_drawn)"),
    ("O_SCR", MAXK, "scratch: a hand's counts after a play"),
    ("O_SUPPLY", 8, "scratch: cards per letter (the interval choice)"),
    ("O_KID", MAXK, "the first card id of each kind (a hand without ids gives it)"),
    ("C_PACKED", 1, "1: the deck fits a packed hand (PACK_KINDS, PACK_COPIES, PACK_FITTING): greedy_turns may play"),
    ("C_WNIBBLES", 1, "the packed-hand nibbles of the wild kinds (0xF << 4k for each wild kind k)"),
    ("O_LNIBBLES", 7, "per letter, the packed-hand nibbles of every kind that gives it, wilds included: a hand holds "
     "a play for it when it has a card under them"),
    ("O_LTHREE", 7 * PACK_FITTING, "per letter, the kinds (not wilds) that give it, in deck order, PAD_KIND after "
     "them: greedy_turns compares their counts without a loop"),
    ("O_KCLASS", MAXK, "the class of each kind of card (CLASS_NATURAL, CLASS_ACCIDENTAL, CLASS_WILD: restricted play)"),
    ("C_COUNT", 1, "1: count the decisions (rules count_choices, analyzer profile: choices.py); greedy_turns then "
     "does not play"),
    # the game, reset by init_state
    ("O_GAME", 0, "where the game starts"),
    ("O_HAND", MAXP * MAXC, "card ids, seat s's hand at O_HAND + s * MAXC (kept when S_IDS is set)"),
    ("O_HN", MAXP, "hand sizes"),
    ("O_CNT", MAXP * MAXK, "cards of each kind in each hand, seat s's at O_CNT + s * MAXK"),
    ("O_NWILD", MAXP, "wilds in each hand (the sum of its wild kinds' counts, kept up to date)"),
    ("O_STOCK", MAXC, "the stock; its top is st[O_STOCK + st[S_POS]]"),
    ("O_DISC", MAXC, "the discard pile, bottom first"),
    ("O_DCNT", MAXK, "cards of each kind in the discard pile (what everyone can see)"),
    ("S_POS", 1, "the stock's read position"),
    ("S_NSTOCK", 1, "the stock's end (cards in stock = S_NSTOCK - S_POS)"),
    ("S_NDISC", 1, "cards in the discard pile"),
    ("S_NEED", 1, "the letter the next play must give (NEED_ANY: any)"),
    ("S_STEP", 1, "the interval as a step: 1 (seconds) .. 6 (sevenths)"),
    ("S_NE", 1, "trace events written"),
    ("S_OVF", 1, "1 if the trace buffer overflowed"),
    ("S_IDS", 1, "1: the hands keep their card ids at O_HAND (see the module docstring)"),
    # the decision point of a search position (search_ops.py; the game loop keeps these in local variables)
    ("S_TO_MOVE", 1, "the seat whose turn it is; the winner once S_END is END_WON"),
    ("S_TURNS", 1, "turns played"),
    ("S_DRY", 1, "seats in a row that did nothing at all (engine.after_turn)"),
    ("S_END", 1, "engine.END_NONE while the game is on, else how it ended (END_WON, END_DEADLOCK)"),
    ("O_DRAMA", D_SIZE, "the drama block (analyzer.games.drama): standings = minus the hand sizes"),
    ("O_PHAND", PHAND_STRIDE * MAXP, "greedy_turns' hands, packed (the counts of O_CNT, 4 bits per kind), seat s's "
     "at O_PHAND + PHAND_STRIDE * s (begin deals them); O_CNT is written back when it stops"),
    ("O_NEXT", 8, "greedy_turns' scratch: the letter after each letter (letter + step, mod 7)"),
], size_name="ST_SIZE")
# (the short names the rules use for the players, cards and kinds)
STATE.define(globals(), aliases={"S_N": "C_PLAYERS", "S_NCARDS": "C_NCARDS", "S_NKINDS": "C_NKINDS"})

TRACE_WIDTH = TRACE_FIXED + MAXC  # a trace row: the code, the fields, a list of up to MAXC cards


# emit is inlined by LLVM (forceinline: compiled once per argument types, typed plainly: jit_setup), not typed again by
# numba at each of its call sites; the greedy kernel's hot code is the same. The other small helpers stay inlined by
# numba: as forceinline, each changed greedy_turns' or play_games' machine code (docs/performance.md, twenty-first
# session).
@njit(cache=True, forceinline=True)
def emit(st, tr, on, code, f1=0, f2=0, f3=0, f4=0, f5=0, f6=0, f7=0):
    """Append an event (its fields in the order events.py declares them); returns its row (or -1 when tracing
    is off or the buffer is full)."""
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
        st[np.uint64(O_STOCK + i)] = st[np.uint64(O_DISC + i)]
    # the pile is down to its top card: the counts of that card alone (not a decrement per card moved, each
    # waiting on the last when the pile holds runs of one kind)
    for k in range(st[C_NKINDS]):
        st[O_DCNT + k] = 0
    st[O_DCNT + st[O_CKIND + top]] = 1
    shuffle_drawn(rng, DEAL, st[O_STOCK:O_STOCK + m], m, st[O_DRAWS:O_DRAWS + m])
    st[O_DISC] = top
    st[S_NDISC] = 1
    st[S_POS] = 0
    st[S_NSTOCK] = m
    k = emit(st, tr, on, EV_RESHUFFLE, top, m)
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
