"""Battle of the Bards in numba: one kernel (`run`) plays a block of games, for the batch (`batch`,
blocks on several threads) and for a traced game (`play_one`).

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
    N_CACHE, N_CACHE_TURN, N_NF, N_NI, NODES, PAIRS, choose_decide, conclude_all, play_group, setup_decide,
    split_decide)
from analyzer.games.bards.events import (
    EV_CHOICE, EV_DECK, EV_DRAW, EV_END, EV_GROUP, EV_MEME, EV_RESULT, EV_SETUP, EV_SPLIT, EV_TURN, MR_SETUP,
    TRACE_FIXED)
from analyzer.games.bards.state import (
    I_SPLIT, N_COLS, O_DRAMA, O_PILE, O_STAT, R_CHOSEUP, R_DRAMA, R_NWIN, R_POWER_SETUP, R_POWER_TALES, R_S14D,
    R_S14U, R_S23D, R_S23U, R_TIEBARD, R_WIN, S_BARD, S_EXCT, S_NE, S_OVF, S_SCORE, S_TURN, SP_LOOKAHEAD, ST_SIZE,
    TRACE_WIDTH, draw, emit, finish, init_state, pile_left, place, set_meme)
from analyzer.games import drama
from analyzer.games.bards.rules import C_VALUE
from analyzer.games.layout import Layout
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
    ("IB_HAND", 5, "the hand"),
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
NO_ORDER = np.zeros(0, dtype=np.int64)  # run: deal by the seeded shuffle
NO_TRACE = np.zeros((1, TRACE_WIDTH), dtype=np.int64)


def scratch():
    """The arrays `run` works in (allocated here, in Python, so that the kernel allocates nothing
    and is compiled without reference counting): state, random streams and the scratch above. Every
    entry is written before it is read, so a set can serve game after game."""
    return (np.empty(ST_SIZE, dtype=np.int64), np.zeros(6, dtype=np.uint64), np.zeros(IB_SIZE, dtype=np.int64),
            np.zeros(FB_SIZE, dtype=np.float64), np.empty((NODES, N_NI), dtype=np.int64),
            np.empty((NODES, N_NF), dtype=np.float64))


@njit(cache=True, _nrt=False, nogil=True)
def run(seed, first_game, lo, hi, tbl, pint, pflt, out, order, tr, on, st, rng, ib, fb, ni, nf, look, resume):
    """Play games first_game + lo .. first_game + hi - 1 into out[lo:hi], each from init_state and
    freshly keyed streams, dealt by the seeded shuffle (or from `order`, top first, if not empty);
    events go to `tr` if `on`. The batch and the trace both play through here (one kernel to compile).
    Returns the last game's number of trace events, or -1 if the trace buffer was too small.
    look, resume: None in the default kernels (numba then drops their branches before compiling). look: the
    lookahead's scratch (lookahead.py), which then decides its seats' splits. resume: a lookahead playout,
    (active seat, face-up group, last turn): play on from the position in `st` (this turn's five cards in
    `ib`'s hand, drawn) with that split, until the game ends or the last turn is played.
    The game's body is written here, not in an inline="always" `play`: numba copied that IR into run and
    compiled it again (README: Bards compile)."""
    n = tbl.shape[0]
    scr = ib[IB_SCR:IB_HAND]
    hand = ib[IB_HAND:IB_UP]
    upc = ib[IB_UP:IB_DN]
    dnc = ib[IB_DN:IB_D]
    d = ib[IB_D:IB_SIZE]
    vs = fb[FB_VS:FB_VC]
    vc = fb[FB_VC:FB_CACHE]
    cache = fb[FB_CACHE:FB_SIZE]  # the per-turn part is reset every turn
    ne = 0
    for gi in range(lo, hi):
        if resume is None:  # a new game: deal, meme, setup
            reset_streams(rng, seed, first_game + gi)
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

            # setup: the dominant meme, then seat 1 deals four cards to start the four tales
            meme = draw(st)
            set_meme(st, meme, tbl)
            emit(st, tr, on, EV_MEME, meme, -1, MR_SETUP, pile_left(st))
            for i in range(4):
                d[i] = draw(st)
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

            active = 0
            forced = 0
            stop = 0
            resumed = False
        else:  # a playout: the position is in st, the turn's cards drawn
            active, forced, stop = resume
            resumed = True
        row = out[gi]
        over = True
        while resumed or pile_left(st) >= 5:
            if not resumed:
                if resume is not None:
                    if st[S_TURN] >= stop:  # the playout's horizon
                        over = False
                        break
                st[S_TURN] += 1
                emit(st, tr, on, EV_TURN, st[S_TURN], active, pile_left(st))
                for i in range(5):
                    hand[i] = draw(st)
            for i in range(N_CACHE_TURN):
                cache[i] = 0.0
            k = emit(st, tr, on, EV_DRAW, active, 5)
            if k >= 0:
                for i in range(5):
                    tr[k, TRACE_FIXED + i] = hand[i]
            if resumed:  # the playout's candidate split
                up = forced
                resumed = False
            else:
                up = split_decide(st, tbl, active, hand, pint, pflt, rng, vs, vc, cache, ni, nf)
                if look is not None:
                    if pint[active, I_SPLIT] == SP_LOOKAHEAD:
                        up = _lookahead.choose(st, tbl, active, hand, up, pint, rng, look)
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
            take = choose_decide(st, tbl, chooser, hand, up, pint, pflt, rng, cache, vs, vc, ni, nf)
            emit(st, tr, on, EV_CHOICE, chooser, take, nu)
            if take != 0:
                st[O_STAT + R_CHOSEUP] += 1
            first = chooser if take != 0 else active
            second = 1 - first
            k = emit(st, tr, on, EV_GROUP, first, 1, nu)
            if k >= 0:
                for i in range(nu):
                    tr[k, TRACE_FIXED + i] = upc[i]
            play_group(st, tbl, first, upc, nu, pint, pflt, rng, scr, tr, on)
            k = emit(st, tr, on, EV_GROUP, second, 0, nd)
            if k >= 0:
                for i in range(nd):
                    tr[k, TRACE_FIXED + i] = dnc[i]
            play_group(st, tbl, second, dnc, nd, pint, pflt, rng, scr, tr, on)
            active = 1 - active
            _drama_look(st, st[S_TURN])

        if over:  # (a playout stopped at its horizon leaves the game unfinished)
            end_game(st, tbl, active, pint, rng, tr, on)
            _drama_look(st, st[S_TURN])  # the tales concluded at the end
            for s in range(2):
                st[O_STAT + R_POWER_TALES + 2 * (st[S_BARD + s] + 2 * st[S_EXCT + s]) + s] = 1
            finish(st, row)
            winner = -1 if row[R_NWIN] != 1 else (0 if row[R_WIN] == 1 else 1)
            drama.finish(st, O_DRAMA, 2, winner, st[S_TURN], row, R_DRAMA)
            emit(st, tr, on, EV_RESULT, st[S_SCORE], st[S_SCORE + 1], row[R_WIN], row[R_WIN + 1], row[R_TIEBARD],
                 st[S_TURN], st[S_BARD], st[S_BARD + 1], pile_left(st))
        ne = -1 if on and st[S_OVF] != 0 else st[S_NE]
    return ne


def play_one(seed, game, tbl, pint, pflt, out, trace, order=NO_ORDER):
    """Play game `game` of the run keyed by `seed` (from deck `order` if given), events into `trace`;
    fill `out`. Returns the number of events written (-1 if the trace buffer was too small)."""
    return run(seed, game, 0, 1, tbl, pint, pflt, out.reshape(1, -1), order, trace, True, *scratch(),
               _lookahead.scratch() if _lookahead.uses_lookahead(pint) else None, None)


CHUNK = 64  # games per block at the least (a block reuses one state array and scratch set)


def play_block(seed, first_game, lo, hi, tbl, pint, pflt, out):
    run(seed, first_game, lo, hi, tbl, pint, pflt, out, NO_ORDER, NO_TRACE, False, *scratch(), None, None)


def batch(seed, first_game, tbl, pint, pflt, out):
    """Games first_game .. first_game + len(out) - 1 into out, on numba.get_num_threads() threads; with a
    lookahead seat, in run's lookahead specialisation (compiled on first use; the default one never compiles it)."""
    if _lookahead.uses_lookahead(pint):
        run_in_blocks(_lookahead.play_block, out.shape[0], _lookahead.CHUNK, (seed, first_game), (tbl, pint, pflt, out))
    else:
        run_in_blocks(play_block, out.shape[0], CHUNK, (seed, first_game), (tbl, pint, pflt, out))


# the lookahead policy's decision (lookahead.py, which builds on this module): compiled only into run's
# specialisation given its scratch (look), never into the default one
from analyzer.games.bards import lookahead as _lookahead  # noqa: E402
