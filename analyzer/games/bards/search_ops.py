"""Battle of the Bards' side of the search contract (analyzer/games/search/contract.py), from the engine's own pieces
(engine.begin_turn, split, end_turn, finish_game): every rule is written once.

- a position (`Position`): the game in its state array st at a split's decision point: the seat whose split
  it is in st[S_ACTIVE] (-1: the game is over), the five cards it drew in st[O_HAND..], the turn already
  counted (engine.begin_turn has run); with the engine scratch it is played in (ib, fb, ni, nf) and the
  seats' policies (pint, pflt). The root is the real game (its own scratch and policies: greedy's split,
  decision 0, is the one the real game would make, and its group values stay in the real game's fb for the
  chooser); sample and work share one scratch (a sample is never played) and play greedy at its default
  parameters for both seats.
- a decision row: (the face-up group, a bitmask over the hand: 1..30). The search decides the splits only:
  the chooser's choice and the playing of the groups are made by the seats' policies inside `apply`, so a
  position is always at a split (or at the end), whichever seat's.
- what a seat sees: every card played (all tales, the discard pile, the meme) and the scores; the seat whose
  split it is also sees its hand. Unseen: the draw pile's order, and for the other seat the hand too (its
  cards are then dealt again from the hand and the pile together).
- the playouts: on the random state in look (every stream keyed per redeal from one draw of the searching
  seat's stream); their result row (dout) and trace (dtr, off) are written and read by nobody.
- look (`Look`): tbl, the card table; pool, the unseen cards; rng2, dout, dtr.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from analyzer.games.bards.engine import NO_STOP, begin_turn, end_turn, finish_game, forget_turn, game_goes_on, split
from analyzer.games.bards.jitted import helper
from analyzer.games.bards.state import (
    N_COLS, O_HAND, O_PILE, S_ACTIVE, S_N, S_POS, S_SCORE, S_TURN, ST_SIZE, TRACE_WIDTH, winners)
from analyzer.games.search.unseen import sort_first
from analyzer.rng import GOLDEN, mix64, shuffle

Position = namedtuple("Position", ("st", "ib", "fb", "ni", "nf", "pint", "pflt"))
Look = namedtuple("Look", ("tbl", "pool", "rng2", "dout", "dtr"))

DECISION_WIDTH = 1  # the face-up group
N_SPLITS = 30  # face-up groups 1..30 of the five cards
WIN = 100  # a won playout; an unfinished one scores its margin, capped below WIN
_SALT = np.uint64(0x8CB92BA72F3D8DD7)


# engine.split, end_turn and finish_game, inlined at each call (engine.py), compiled here once for the
# lookahead's kernel: the search's functions and lookahead.run_look call these (inlined at each of their
# calls, the kernel's cold compile took 72 s of CPU instead of 52 before the search driver)
@helper()
def split_once(st, tbl, active, pint, pflt, rng, fb, ni, nf):
    """engine.split."""
    return split(st, tbl, active, pint, pflt, rng, fb, ni, nf)


@helper()
def end_turn_once(st, tbl, active, up, pint, pflt, rng, ib, fb, ni, nf, tr, on, counts):
    """engine.end_turn."""
    return end_turn(st, tbl, active, up, pint, pflt, rng, ib, fb, ni, nf, tr, on, counts)


@helper()
def finish_game_once(st, tbl, active, pint, rng, row, tr, on):
    """engine.finish_game."""
    finish_game(st, tbl, active, pint, rng, row, tr, on)


@njit(cache=True)
def to_move(pos):
    return pos.st[S_ACTIVE]


@helper(forceinline=True)
def _split_of(c, greedy_up):
    """Decision c's face-up group: greedy's split first, then the other 29 of groups 1..30 in order."""
    if c == 0:
        return greedy_up
    return c if c < greedy_up else c + 1


@njit(cache=True)
def decisions(pos, seat, rng, cand, look):
    """All 30 splits, the seat's split policy's first (greedy's, for a lookahead seat: engine.split, which leaves
    the group values in pos.fb for the chooser of the real game)."""
    greedy_up = split_once(pos.st, look.tbl, seat, pos.pint, pos.pflt, rng, pos.fb, pos.ni, pos.nf)
    for c in range(N_SPLITS):
        cand[c, 0] = _split_of(c, greedy_up)
    return np.int64(N_SPLITS)


@njit(cache=True)
def begin_search(root, seat, sample, work, look):
    """The cards `seat` cannot see into look's pool: the other seat's hand if the split is not seat's, then the
    draw pile in order. (sample and work carry the playouts' policies from the start: nothing to set.)"""
    st = root.st
    pool = look.pool
    u = 0
    if seat != st[S_ACTIVE]:
        for i in range(5):
            pool[u] = st[O_HAND + i]
            u += 1
    for p in range(st[S_POS], st[S_N]):
        pool[u] = st[O_PILE + p]
        u += 1


@njit(cache=True)
def redeal(root, seat, rng, sample, look):
    """The unseen cards shuffled on seat's stream (the pool keeps its order from one redeal to the next) and
    dealt back: the hand first when it is unseen, then the draw pile from its next card on."""
    st = root.st
    s = sample.st
    pool = look.pool
    hidden_hand = seat != st[S_ACTIVE]
    u = st[S_N] - st[S_POS] + (5 if hidden_hand else 0)
    shuffle(rng, 1 + seat, pool, u)
    for i in range(ST_SIZE):
        s[i] = st[i]
    p = 0
    if hidden_hand:
        for i in range(5):
            s[O_HAND + i] = pool[p]
            p += 1
    for i in range(st[S_POS], st[S_N]):
        s[O_PILE + i] = pool[p]
        p += 1


@njit(cache=True)
def copy_position(src, dst, look):
    """The state (the scratch holds nothing from one decision to the next; the policies never change)."""
    for i in range(ST_SIZE):
        dst.st[i] = src.st[i]


@njit(cache=True)
def key_playouts(key, look):
    """Every stream of the playouts' random state, keyed from `key` (the same for every decision of a redeal)."""
    rng2 = look.rng2
    for s in range(rng2.shape[0] // 2):
        rng2[2 * s] = mix64(key ^ (np.uint64(s) * _SALT + GOLDEN))
        rng2[2 * s + 1] = np.uint64(0)


@helper(inline="always")  # small: a function of its own was one more layer to compile
def _turn_from_split(pos, up, look):
    """The turn goes on from the split `up` of the seat to move (engine.end_turn); then the next seat draws (its
    split: the next decision point) or the game ends (the result row into look's dout)."""
    st = pos.st
    active = end_turn_once(st, look.tbl, st[S_ACTIVE], up, pos.pint, pos.pflt, look.rng2, pos.ib, pos.fb, pos.ni,
                           pos.nf, look.dtr, False, None)  # (the playouts count no decision)
    if game_goes_on(st):
        begin_turn(st, active, pos.fb, look.dtr, False)
        st[S_ACTIVE] = active
    else:
        finish_game_once(st, look.tbl, active, pos.pint, look.rng2, look.dout[0], look.dtr, False)
        st[S_ACTIVE] = -1


@njit(cache=True)
def apply(pos, cand, i, look):
    """The seat to move splits cand[i]; the other seat chooses and both play their groups by their policies;
    pos moves on to the next seat's split, or the end."""
    forget_turn(pos.fb)  # the group values in fb are not this position's (the chooser computes its own)
    _turn_from_split(pos, cand[i, 0], look)


@njit(cache=True)
def stop_after(root, horizon):
    """Turns: the one being decided (already counted in S_TURN) and `horizon` more; 0: no last turn."""
    return root.st[S_TURN] + horizon if horizon > 0 else np.int64(NO_STOP)


@njit(cache=True)
def playout(pos, stop, look):
    """Every seat plays its policy (greedy) from pos: each split of a turn up to `stop`, the turn after it."""
    st = pos.st
    while st[S_ACTIVE] >= 0 and st[S_TURN] <= stop:
        up = split_once(st, look.tbl, st[S_ACTIVE], pos.pint, pos.pflt, look.rng2, pos.fb, pos.ni, pos.nf)
        _turn_from_split(pos, up, look)


@njit(cache=True)
def score(pos, seat, look):
    """If the game ended: +WIN if seat won (alone), -WIN if it lost, 0 on a true tie; otherwise its score minus
    the other seat's, capped to +-(WIN - 1)."""
    st = pos.st
    if st[S_ACTIVE] < 0:
        w0, w1, _ = winners(st)
        return np.int64(WIN * (w0 - w1) if seat == 0 else WIN * (w1 - w0))
    return np.int64(min(WIN - 1, max(1 - WIN, st[S_SCORE + seat] - st[S_SCORE + 1 - seat])))


def new_look(tbl):
    """A scratch `look` (allocated once per block of games or traced game): the pool holds a hand and the pile."""
    return Look(tbl, np.zeros(tbl.shape[0] + 5, dtype=np.int64), np.zeros(6, dtype=np.uint64),
                np.zeros((1, N_COLS), dtype=np.int64), np.zeros((1, TRACE_WIDTH), dtype=np.int64))


@njit(cache=True)
def reached(pos, stop):
    """Whether the position is past the last turn `stop` (stop_after's; the tree search's random rollouts stop
    there, as playout does)."""
    return pos.st[S_TURN] > stop


@njit(cache=True)
def sort_unseen(root, seat, look):
    """The unseen cards (card ids, gathered by begin_search: the other seat's hand if the split is not seat's,
    and the draw pile) sorted: one set, whatever the draw pile's order."""
    st = root.st
    sort_first(look.pool, st[S_N] - st[S_POS] + (5 if seat != st[S_ACTIVE] else 0))
