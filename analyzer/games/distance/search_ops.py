"""The Distance's side of the search contract (analyzer/games/search/contract.py), from the engine's own pieces.

- a position: a state array, its decision point in S_TO_MOVE, S_TURNS, S_DRY, S_END (the engine's run keeps
  them in local variables; lookahead.run_look writes them into the real game's state before a search).
- a decision row: (kind or -1, notes, wilds, letter), a play as policies.choose_play gives it; notes + wilds
  == 0: nothing fits (the seat draws).
- what a seat sees: its own hand, the discard pile and the other hands' sizes; it cannot see the other hands
  and the stock (redeal deals those again: each other hand its size, the rest the stock).
- the playouts: every seat greedy, declaring block_next, with no human errors (zero rates), on the random
  state in look whose DEAL stream (the reshuffles) is keyed per redeal.
- look: (pool: the unseen cards, MAXC; rng2: the playouts' random state; zrates: zero error rates; dout: a
  result row and dtr: a trace, both written by the playouts and read by nobody).
"""
import numpy as np
from numba import njit

from analyzer.games.distance.engine import END_NONE, act, after_turn, play_turns
from analyzer.games.distance.events import END_WON
from analyzer.games.distance.policies import DECLARE_BLOCK, P_GREEDY, choose_play
from analyzer.games.distance.state import (
    ALL, CLASS_WILD, C_COUNT, C_TURN_CAP, MAXC, MAXK, N_PAR, NEED_ANY, NO_AVOID, O_CNT, O_GAME, O_HAND, O_HN, O_KCLASS,
    O_KMASK, O_NWILD, O_PAR, O_POL, O_STOCK, PAR_AVOID, PAR_DECLARE, S_DRY, S_END, S_N, S_NEED, S_NSTOCK, S_POS,
    S_TO_MOVE, S_TURNS, ST_SIZE, add_to_hand, fitting_list, kinds_of, n_kinds_of)
from analyzer.games.search.unseen import sort_first
from analyzer.rng import DEAL, shuffle

DECISION_WIDTH = 4  # kind, notes, wilds, letter
MAXCAND = 128  # decisions of one turn (the set below has at most 12 x 2 x 2 x 2 + 14)
WIN_SCORE = 100  # a playout's outcome: +WIN_SCORE won, -WIN_SCORE another won, else a hand-size margin


# compiled once, not inlined at every call site (the engine inlines both into its own run): apply and the
# lookahead's run_look call act_out_of_line, playout and run_look play_turns_out_of_line
@njit(cache=True)
def act_out_of_line(st, seat, need, turn, kind, notes, wilds, letter, rates, rng, out, tr, on):
    """engine.act."""
    return act(st, seat, need, turn, kind, notes, wilds, letter, rates, rng, out, tr, on)


@njit(cache=True)
def play_turns_out_of_line(st, seat, turn, dry, stop, rates, rng, out, tr, on):
    """engine.play_turns."""
    return play_turns(st, seat, turn, dry, stop, rates, rng, out, tr, on)


@njit(cache=True)
def to_move(st):
    if st[S_END] != END_NONE or st[S_TURNS] >= st[C_TURN_CAP]:
        return np.int64(-1)
    return st[S_TO_MOVE]


@njit(cache=True)
def _add(cand, m, kind, notes, wilds, letter):
    """Append a decision unless it is already there; returns the new count."""
    for i in range(m):
        if cand[i, 0] == kind and cand[i, 1] == notes and cand[i, 2] == wilds and cand[i, 3] == letter:
            return m
    if m >= cand.shape[0]:
        return m
    cand[m, 0] = kind
    cand[m, 1] = notes
    cand[m, 2] = wilds
    cand[m, 3] = letter
    return m + 1


@njit(cache=True)
def decisions(st, seat, rng, cand, look):
    """The plays the lookahead weighs (docs/distance.md, "lookahead"): greedy's play (first: ties keep it);
    for every fitting pitch class the seat holds, 1 note or all of them, each with no wild or every wild;
    wilds alone, 1 or all; when any letter may be played, each with every letter the cards can be declared
    as. Nothing fits: greedy's play alone (notes + wilds == 0: the seat draws)."""
    need = st[S_NEED]
    policy = st[O_POL + seat]
    st[O_POL + seat] = P_GREEDY
    kind, notes, wilds, letter = choose_play(st, seat, need, rng)
    st[O_POL + seat] = policy
    m = _add(cand, 0, kind, notes, wilds, letter)
    if notes + wilds == 0:
        return m
    base = O_CNT + seat * MAXK
    w_all = st[O_NWILD + seat]
    fitting = fitting_list(need)
    for j in range(n_kinds_of(st, fitting)):
        k = kinds_of(st, fitting, j)
        c = st[base + k]
        if c == 0:
            continue
        mask = st[O_KMASK + k] if need == NEED_ANY else (1 << need)
        for nn in (1, c):
            for ww in (0, w_all):
                for letter in range(7):
                    if (mask >> letter) & 1:
                        m = _add(cand, m, k, nn, ww, letter)
    if w_all > 0:
        mask = ALL if need == NEED_ANY else (1 << need)
        for ww in (1, w_all):
            for letter in range(7):
                if (mask >> letter) & 1:
                    m = _add(cand, m, -1, 0, ww, letter)
    avoid = st[O_PAR + seat * N_PAR + PAR_AVOID]
    if avoid != NO_AVOID and not _holds_class(st, cand, 0, avoid):
        m = _drop_class(st, cand, m, avoid)
    return m


@njit(cache=True, inline="always")
def _holds_class(st, cand, i, card_class):
    """Whether the play cand[i] puts down a card of that class (state.CLASS_...)."""
    return ((cand[i, 1] > 0 and st[O_KCLASS + cand[i, 0]] == card_class)
            or (cand[i, 2] > 0 and card_class == CLASS_WILD))


@njit(cache=True)
def _drop_class(st, cand, m, card_class):
    """Restricted play: the candidates without the plays that put down a card of that class (greedy's, first, has
    none: choose_play honours the seat's avoid); returns how many are left."""
    kept = 0
    for i in range(m):
        if not _holds_class(st, cand, i, card_class):
            for x in range(DECISION_WIDTH):
                cand[kept, x] = cand[i, x]
            kept += 1
    return kept


@njit(cache=True)
def begin_search(root, seat, sample, work, look):
    """The unseen cards into look's pool (the other hands, then the stock); the playouts' configuration
    into sample and work (everyone greedy, declaring block_next)."""
    pool = look[0]
    n = root[S_N]
    u = 0
    for o in range(n):
        if o != seat:
            for i in range(root[O_HN + o]):
                pool[u] = root[O_HAND + o * MAXC + i]
                u += 1
    for i in range(root[S_POS], root[S_NSTOCK]):
        pool[u] = root[O_STOCK + i]
        u += 1
    for i in range(O_GAME):
        sample[i] = root[i]
        work[i] = root[i]
    for pos in (sample, work):
        pos[C_COUNT] = 0  # (the playouts' decisions are not the game's)
        for s in range(n):
            pos[O_POL + s] = P_GREEDY
            pos[O_PAR + s * N_PAR + PAR_DECLARE] = DECLARE_BLOCK
            if s != seat:  # the seat knows its own restricted play (avoid), not the others'
                pos[O_PAR + s * N_PAR + PAR_AVOID] = NO_AVOID


@njit(cache=True)
def redeal(root, seat, rng, sample, look):
    """The unseen cards shuffled on the seat's stream and dealt back: each other hand its size, the rest
    the stock, in order."""
    pool = look[0]
    n = root[S_N]
    u = root[S_NSTOCK] - root[S_POS]
    for o in range(n):
        if o != seat:
            u += root[O_HN + o]
    shuffle(rng, 1 + seat, pool, u)
    for i in range(O_GAME, ST_SIZE):
        sample[i] = root[i]
    p = 0
    for o in range(n):
        if o != seat:
            for k in range(MAXK):
                sample[O_CNT + o * MAXK + k] = 0
            sample[O_HN + o] = 0
            sample[O_NWILD + o] = 0
            for i in range(root[O_HN + o]):
                add_to_hand(sample, o, pool[p])
                p += 1
    for i in range(root[S_POS], root[S_NSTOCK]):
        sample[O_STOCK + i] = pool[p]
        p += 1


@njit(cache=True)
def copy_position(src, dst, look):
    """The game part (the configuration part is begin_search's)."""
    for i in range(O_GAME, ST_SIZE):
        dst[i] = src[i]


@njit(cache=True)
def key_playouts(key, look):
    """The playouts draw only on the DEAL stream (greedy seats declaring block_next draw nothing, and there
    are no human errors): the reshuffles, the same for every decision of a redeal."""
    rng2 = look[1]
    rng2[2 * DEAL] = key
    rng2[2 * DEAL + 1] = np.uint64(0)


@njit(cache=True)
def apply(st, cand, i, look):
    """The seat's turn with the play cand[i], then after_turn (a win, or the next seat)."""
    _, rng2, zrates, dout, dtr = look
    seat = st[S_TO_MOVE]
    turn = st[S_TURNS] + 1
    acted = act_out_of_line(st, seat, st[S_NEED], turn, cand[i, 0], cand[i, 1], cand[i, 2], cand[i, 3], zrates,
                            rng2, dout, dtr, np.int64(0))
    seat, dry, end = after_turn(st, seat, st[S_DRY], acted)
    st[S_TO_MOVE] = seat
    st[S_TURNS] = turn
    st[S_DRY] = dry
    st[S_END] = end


@njit(cache=True)
def stop_after(root, horizon):
    """Turns: the playouts stop at the turn cap, or `horizon` turns after the one being decided."""
    cap = root[C_TURN_CAP]
    return cap if horizon == 0 else min(cap, root[S_TURNS] + 1 + horizon)


@njit(cache=True)
def playout(st, stop, look):
    """engine.play_turns from the position, every seat greedy."""
    if st[S_END] != END_NONE:
        return
    _, rng2, zrates, dout, dtr = look
    seat, turn, dry, end = play_turns_out_of_line(st, st[S_TO_MOVE], st[S_TURNS], st[S_DRY], stop, zrates, rng2,
                                                  dout, dtr, np.int64(0))
    st[S_TO_MOVE] = seat
    st[S_TURNS] = turn
    st[S_DRY] = dry
    st[S_END] = end


@njit(cache=True)
def score(st, seat, look):
    """+WIN_SCORE if seat won, -WIN_SCORE if another seat won, otherwise (the fewest cards another seat
    holds) minus (the cards seat holds)."""
    winner = st[S_TO_MOVE] if st[S_END] == END_WON else -1
    if winner == seat:
        return np.int64(WIN_SCORE)
    if winner >= 0:
        return np.int64(-WIN_SCORE)
    fewest = MAXC
    for o in range(st[S_N]):
        if o != seat:
            fewest = min(fewest, st[O_HN + o])
    return fewest - st[O_HN + seat]


@njit(cache=True)
def new_look(n_streams, width):
    """A scratch `look` (allocated once per chunk of games or traced game): n_streams of the playouts'
    random state, a result row of `width`."""
    return (np.zeros(MAXC, dtype=np.int64), np.zeros(2 * n_streams, dtype=np.uint64), np.zeros(2, dtype=np.float64),
            np.zeros(width, dtype=np.int64), np.zeros((1, 1), dtype=np.int64))


@njit(cache=True)
def reached(st, stop):
    """Whether the position is at or past the turn `stop` (the tree search's random rollouts stop there)."""
    return st[S_TURNS] >= stop


@njit(cache=True)
def sort_unseen(root, seat, look):
    """The unseen cards (card ids, gathered by begin_search) sorted: the other hands' and the stock's cards
    as one set, whatever their arrangement."""
    pool = look[0]
    u = root[S_NSTOCK] - root[S_POS]
    for o in range(root[S_N]):
        if o != seat:
            u += root[O_HN + o]
    sort_first(pool, u)
