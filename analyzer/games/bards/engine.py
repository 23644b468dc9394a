"""Battle of the Bards in numba: one kernel (`run`) plays a block of games, for the batch (`batch`,
blocks on several threads) and for a traced game (`play_one`).

The game is written once, in pieces (deal, begin_turn, split, end_turn, finish_game) that `run` plays in
turn; the lookahead's kernel (lookahead.run_look) and the search's positions (search_ops.py) play
the same pieces, and this module imports neither (kernels.py chooses the kernel).

The state layout and rule primitives are in state.py, the decisions in policies.py. Randomness:
stream 0 (DEAL) shuffles the deck once; stream 1 + seat holds that seat's random decisions. The
batch plays blocks of games on a pool of Python threads (`run` releases the GIL), each block
reusing one set of arrays (no allocation per game); a game's result depends only on (seed, game
index), never on the blocks or the thread count.
"""
import numpy as np
from numba import njit

from analyzer.games.bards.jitted import helper
from analyzer.games.bards.policies import (
    N_CACHE, N_CACHE_TURN, N_NF, N_NI, NODES, PAIRS, avoided_group, choose_decide, conclude_all, count_choice,
    count_setup, count_split, play_group, setup_decide, split_decide)
from analyzer.games.bards.events import (
    EV_CHOICE, EV_DECK, EV_DRAW, EV_END, EV_GROUP, EV_MEME, EV_RESULT, EV_SETUP, EV_SPLIT, EV_TURN, MR_SETUP,
    TRACE_FIXED)
from analyzer.games.bards.state import (
    I_AVOID, I_COUNT, N_COLS, NO_AVOID, O_DRAMA, O_HAND, O_PILE, O_STAT, R_CHOSEUP, R_DRAMA, R_NWIN, R_POWER_SETUP,
    R_POWER_TALES, R_S14D, R_S14U, R_S23D, R_S23U, R_TIEBARD, R_WIN, S_BARD, S_EXCT, S_NE, S_OVF, S_SCORE, S_TURN,
    ST_SIZE, TRACE_WIDTH,
    draw, emit, finish, init_state, pile_left, place, set_meme)
from analyzer.games import drama
from analyzer.games.bards.rules import C_VALUE
from analyzer.games.layout import Layout
from analyzer.jit_deferred import optimise_once
from analyzer.rng import DEAL, reset_streams, shuffle
from analyzer.threads import run_in_blocks

@helper()
def _drama_look(st, turn):
    """The drama block sees both scores after `turn` (0: the setup)."""
    st[O_DRAMA + drama.D_STAND] = st[S_SCORE]
    st[O_DRAMA + drama.D_STAND + drama.D_UNIT] = st[S_SCORE + 1]
    drama.look(st, O_DRAMA, 2, turn)


@helper()
def _setup_power(st, tbl, seat, a, b):
    """Card power: the best audience value of the seat's two setup cards, as a category (result columns)."""
    v = max(tbl[a, C_VALUE], tbl[b, C_VALUE])
    cat = 0 if v >= 10 else 1 if v >= 7 else 2
    st[O_STAT + R_POWER_SETUP + 2 * cat + seat] = 1


@njit(cache=True, inline="always")  # one caller
def end_game(st, tbl, active, pint, rng, tr, on):
    """The end: the player who cannot draw five concludes all her tales first, then her opponent
    (a conclusion that scores meme points replaces the meme in between)."""
    emit(st, tr, on, EV_END, active, pile_left(st))
    conclude_all(st, tbl, active, pint, rng, tr, on)
    conclude_all(st, tbl, 1 - active, pint, rng, tr, on)


# the scratch arrays of a game (`scratch`; a batch reuses one set for many games), each declared once; the
# group values' tree (ni, nf) besides
IB = Layout("Battle of the Bards' int64 scratch (ib)", [
    ("IB_SCR", 16, "play_random's scratch"),
    ("IB_UP", 5, "the face-up group"),
    ("IB_DN", 5, "the face-down group"),
    ("IB_D", 4, "the setup cards"),
], size_name="IB_SIZE")
IB.define(globals())
FB = Layout("Battle of the Bards' float64 scratch (fb)", [
    ("FB_VS", 32, "the splitter's group values"),
    ("FB_VC", 32, "the chooser's group values"),
    ("FB_CACHE", N_CACHE, "the per-turn cache"),
], size_name="FB_SIZE")
FB.define(globals())
# The decision counts' own scratch (`counts`, `analyzer profile`'s rule `count_choices`: count_scratch) is a second
# array in fb's layout (the counted split's and choice's group values and their cache), so that the real decisions'
# values and cache in fb are left alone. It is also the counting's switch, at the type level: the kernel's `counts` is
# None when no decision is counted, and numba then prunes every `counts is not None` branch before typing, so a plain
# run's kernel does not contain the counting (about 7 s of a cold compile); a profile's kernel is compiled for an
# array there (a second signature of run, its own).
NO_ORDER = np.zeros(0, dtype=np.int64)  # run: deal by the seeded shuffle
NO_TRACE = np.zeros((1, TRACE_WIDTH), dtype=np.int64)


def scratch():
    """The arrays `run` works in (allocated here, in Python, so that the kernel allocates nothing
    and is compiled without reference counting): state, random streams and the scratch above. Every
    entry is written before it is read, so a set can serve game after game."""
    return (np.empty(ST_SIZE, dtype=np.int64), np.zeros(6, dtype=np.uint64), np.zeros(IB_SIZE, dtype=np.int64),
            np.zeros(FB_SIZE, dtype=np.float64), np.empty((NODES, N_NI), dtype=np.int64),
            np.empty((NODES, N_NF), dtype=np.float64))


def count_scratch(pint):
    """The kernels' `counts`: the decision counts' scratch if the encoded rules count decisions (I_COUNT, the same
    in both seats' rows), else None (the kernel compiled without the counting)."""
    return np.zeros(FB_SIZE, dtype=np.float64) if pint[0, I_COUNT] != 0 else None


# the game in pieces, each written once: engine.run plays them in turn; the lookahead's kernel
# (lookahead.run_look) and the search's positions (search_ops.py) play the same pieces. Each is inlined by
# numba (inline="always") into its callers, so that run compiles as when the game's body was written in it:
# as functions of their own, numba linked and optimised the game's code again in every layer (split,
# end_turn, a turn loop of their own), a cold compile of the default kernel of 34-39 s of CPU instead of
# 26-33 s (alternated back to back under a load of 2-5; inlined: 27-36 s)
NO_STOP = 1 << 40  # the search's playouts: no last turn


@helper(inline="always")
def deal(seed, game, tbl, pint, pflt, order, st, rng, ib, tr, on, counts):
    """A new game in st: the streams keyed for (seed, game), the deck shuffled (or laid out from `order`, top
    first, if not empty), the dominant meme, then seat 1 deals four cards to start the four tales. Seat 0 plays
    first. counts: the decision counts' scratch, or None (count_scratch)."""
    n = tbl.shape[0]
    d = ib[IB_D:IB_SIZE]
    reset_streams(rng, seed, game)
    init_state(st, n)
    if order.shape[0] == 0:
        shuffle(rng, DEAL, st[O_PILE:O_PILE + n], n)
    else:
        for j in range(n):
            st[O_PILE + j] = order[j]
    k = emit(st, tr, on, EV_DECK, n)
    if k >= 0:
        for i in range(n):
            tr[k, TRACE_FIXED + i] = st[O_PILE + i]

    meme = draw(st)
    set_meme(st, meme, tbl)
    emit(st, tr, on, EV_MEME, meme, -1, MR_SETUP, pile_left(st))
    for i in range(4):
        d[i] = draw(st)
    if counts is not None:
        count_setup(st, tbl, d, pflt[1])
    j = setup_decide(st, tbl, d, pint, pflt, rng)
    k = emit(st, tr, on, EV_SETUP, 1, PAIRS[j, 0], PAIRS[j, 1])
    if k >= 0:
        for i in range(4):
            tr[k, TRACE_FIXED + i] = d[i]
    o = 0
    slot1 = 0
    _setup_power(st, tbl, 1, d[PAIRS[j, 0]], d[PAIRS[j, 1]])
    for q in range(4):
        if q == PAIRS[j, 0] or q == PAIRS[j, 1]:
            place(st, tbl, 1, slot1, d[q], 1, tr, on)
            slot1 += 1
    for q in range(4):
        if not (q == PAIRS[j, 0] or q == PAIRS[j, 1]):
            place(st, tbl, 0, o, d[q], 1, tr, on)
            o += 1

    a0 = -1
    b0 = -1
    for q in range(4):
        if q != PAIRS[j, 0] and q != PAIRS[j, 1]:
            if a0 < 0:
                a0 = d[q]
            else:
                b0 = d[q]
    _setup_power(st, tbl, 0, a0, b0)
    _drama_look(st, 0)


@njit(cache=True, forceinline=True)
def game_goes_on(st):
    """A turn can begin: five cards are left to draw (otherwise the game ends)."""
    return pile_left(st) >= 5


@helper(forceinline=True)
def forget_turn(fb):
    """Empty the per-turn cache: nothing in it is of this turn (policies.py: the first N_CACHE_TURN entries)."""
    for i in range(N_CACHE_TURN):
        fb[FB_CACHE + i] = 0.0


@helper(inline="always")
def begin_turn(st, active, fb, tr, on):
    """`active`'s turn begins: the turn counted, five cards drawn into the hand (st[O_HAND..]): the split's
    decision point."""
    st[S_TURN] += 1
    emit(st, tr, on, EV_TURN, st[S_TURN], active, pile_left(st))
    for i in range(5):
        st[O_HAND + i] = draw(st)
    forget_turn(fb)
    k = emit(st, tr, on, EV_DRAW, active, 5)
    if k >= 0:
        for i in range(5):
            tr[k, TRACE_FIXED + i] = st[O_HAND + i]


@helper()
def count_turn_split(st, tbl, active, pint, pflt, counts, ni, nf):
    """The decision counts (`count_choices`): `active`'s split, at its decision point (engine.run and
    lookahead.run_look call it for every seat, whatever decides its split)."""
    count_split(st, tbl, active, pint, pflt, counts[FB_VS:FB_VC], counts[FB_VC:FB_CACHE], counts[FB_CACHE:FB_SIZE],
                ni, nf)


@helper(inline="always")
def split(st, tbl, active, pint, pflt, rng, fb, ni, nf):
    """`active`'s face-up group (a bitmask over its hand) by its split policy: the other seat's group values,
    computed on the way, stay in fb for its choice (policies.split_decide)."""
    return split_decide(st, tbl, active, st[O_HAND:O_HAND + 5], pint, pflt, rng, fb[FB_VS:FB_VC], fb[FB_VC:FB_CACHE],
                        fb[FB_CACHE:FB_SIZE], ni, nf)


@helper(inline="always")
def end_turn(st, tbl, active, up, pint, pflt, rng, ib, fb, ni, nf, tr, on, counts):
    """The rest of `active`'s turn once it has split its hand (`up`: the face-up group's bitmask): the other seat
    chooses a group, both play theirs. Returns the seat whose turn is next. counts: as deal's."""
    hand = st[O_HAND:O_HAND + 5]
    scr = ib[IB_SCR:IB_UP]
    upc = ib[IB_UP:IB_DN]
    dnc = ib[IB_DN:IB_D]
    nu = 0
    nd = 0
    for i in range(5):
        if (up >> i) & 1:
            upc[nu] = hand[i]
            nu += 1
        else:
            dnc[nd] = hand[i]
            nd += 1
    if nu == 4:
        st[O_STAT + R_S14U] += 1
    elif nu == 1:
        st[O_STAT + R_S14D] += 1
    elif nu == 3:
        st[O_STAT + R_S23U] += 1
    else:
        st[O_STAT + R_S23D] += 1
    k = emit(st, tr, on, EV_SPLIT, active, nu, nd)
    if k >= 0:
        for i in range(nu):
            tr[k, TRACE_FIXED + i] = upc[i]
        for i in range(nd):
            tr[k, TRACE_FIXED + nu + i] = dnc[i]
    chooser = 1 - active
    if counts is not None:
        count_choice(st, tbl, chooser, up, pflt, counts[FB_VS:FB_VC], counts[FB_VC:FB_CACHE], counts[FB_CACHE:FB_SIZE],
                     ni, nf)
    take = choose_decide(st, tbl, chooser, hand, up, pint, pflt, rng, fb[FB_CACHE:FB_SIZE], fb[FB_VS:FB_VC],
                         fb[FB_VC:FB_CACHE], ni, nf)
    if pint[chooser, I_AVOID] != NO_AVOID:
        take = avoided_group(tbl, hand, up, pint[chooser, I_AVOID], take)
    emit(st, tr, on, EV_CHOICE, chooser, take, nu)
    if take != 0:
        st[O_STAT + R_CHOSEUP] += 1
    first = chooser if take != 0 else active
    second = 1 - first
    k = emit(st, tr, on, EV_GROUP, first, 1, nu)
    if k >= 0:
        for i in range(nu):
            tr[k, TRACE_FIXED + i] = upc[i]
    play_group(st, tbl, first, upc, nu, pint, pflt, rng, scr, tr, on, counts)
    k = emit(st, tr, on, EV_GROUP, second, 0, nd)
    if k >= 0:
        for i in range(nd):
            tr[k, TRACE_FIXED + i] = dnc[i]
    play_group(st, tbl, second, dnc, nd, pint, pflt, rng, scr, tr, on, counts)
    _drama_look(st, st[S_TURN])
    return 1 - active


@helper(inline="always")
def finish_game(st, tbl, active, pint, rng, row, tr, on):
    """The game's end (`active` could not draw five): the last conclusions (end_game), the result row into
    row, the result event."""
    end_game(st, tbl, active, pint, rng, tr, on)
    _drama_look(st, st[S_TURN])  # the tales concluded at the end
    for s in range(2):
        st[O_STAT + R_POWER_TALES + 2 * (st[S_BARD + s] + 2 * st[S_EXCT + s]) + s] = 1
    finish(st, row)
    winner = -1 if row[R_NWIN] != 1 else (0 if row[R_WIN] == 1 else 1)
    drama.finish(st, O_DRAMA, 2, winner, st[S_TURN], row, R_DRAMA)
    emit(st, tr, on, EV_RESULT, st[S_SCORE], st[S_SCORE + 1], row[R_WIN], row[R_WIN + 1], row[R_TIEBARD],
         st[S_TURN], st[S_BARD], st[S_BARD + 1], pile_left(st))


@njit(cache=True, forceinline=True)
def events_written(st, on):
    """A traced game's number of events, or -1 if the trace buffer was too small."""
    return -1 if on and st[S_OVF] != 0 else st[S_NE]


@njit(cache=True, _nrt=False, nogil=True)
def run(seed, first_game, lo, hi, tbl, pint, pflt, out, order, tr, on, st, rng, ib, fb, ni, nf, counts):
    """Play games first_game + lo .. first_game + hi - 1 into out[lo:hi], each from init_state and
    freshly keyed streams, dealt by the seeded shuffle (or from `order`, top first, if not empty);
    events go to `tr` if `on`; decisions are counted into counts' scratch unless it is None (count_scratch).
    The batch and the trace both play through here (one kernel to compile).
    Returns the last game's number of trace events, or -1 if the trace buffer was too small.
    (A lookahead seat's games are played by lookahead.run_look instead: kernels.py chooses.)"""
    ne = 0
    for gi in range(lo, hi):
        deal(seed, first_game + gi, tbl, pint, pflt, order, st, rng, ib, tr, on, counts)
        active = 0  # seat 0 plays first
        while game_goes_on(st):  # a turn: the seat draws, splits, the other chooses, both play
            begin_turn(st, active, fb, tr, on)
            if counts is not None:
                count_turn_split(st, tbl, active, pint, pflt, counts, ni, nf)
            up = split(st, tbl, active, pint, pflt, rng, fb, ni, nf)
            active = end_turn(st, tbl, active, up, pint, pflt, rng, ib, fb, ni, nf, tr, on, counts)
        finish_game(st, tbl, active, pint, rng, out[gi], tr, on)
        ne = events_written(st, on)
    return ne


optimise_once(run)  # (one round of LLVM's pipeline: as fast as two, measured: jit_deferred)


def play_one(seed, game, tbl, pint, pflt, out, trace, order=NO_ORDER):
    """Play game `game` of the run keyed by `seed` (from deck `order` if given), events into `trace`;
    fill `out`. Returns the number of events written (-1 if the trace buffer was too small)."""
    return run(seed, game, 0, 1, tbl, pint, pflt, out.reshape(1, -1), order, trace, True, *scratch(),
               count_scratch(pint))


CHUNK = 64  # games per block at the least (a block reuses one state array and scratch set)


def play_block(seed, first_game, lo, hi, tbl, pint, pflt, out):
    run(seed, first_game, lo, hi, tbl, pint, pflt, out, NO_ORDER, NO_TRACE, False, *scratch(), count_scratch(pint))


def batch(seed, first_game, tbl, pint, pflt, out):
    """Games first_game .. first_game + len(out) - 1 into out, on numba.get_num_threads() threads (the default
    kernel: kernels.batch calls it when no seat plays lookahead)."""
    run_in_blocks(play_block, out.shape[0], CHUNK, (seed, first_game), (tbl, pint, pflt, out))
