"""Fight Song's side of the search contract (analyzer/games/search/contract.py), from the engine's own game loop:
apply and the playouts are engine.run resuming the game within the current board (every rule is written once).

- a position: a Position (below): the game's state, stacks and hands as the engine keeps them at a play of a
  board (the board's earlier plays made), and the decision point `at` (DECISION_POINT: the board, its layer, the
  play and, first, engine.run's resume array: where the game is, for a run to resume it).
- a decision row: (kind, corner): the card kind seat plays and the free corner it goes on.
- what a seat sees, and what redeal deals again: its memory (memory.py; docs/fightsong.md, "lookahead").
- apply makes the decision: engine.run resumes the board at the play being decided, plays the decision there,
  and plays on (every other seat's decisions are the next ones: it stops before the next play of any seat, in
  this board or a later one, a Fight Song hand's included), having written where into `at` (the resume array);
  or it reaches the game's end or the playouts' stop (stop_after writes it into the root's `at`, which the
  search's positions copy). decisions then works at any position apply reaches, as at the root.
- the playouts: every seat greedy (battle: the leader), on the random state in look (greedy draws nothing):
  engine.run resuming the position.
- look: a Look (below): the search's scratch and the seats' memory, which the lookahead kernel's game loop keeps
  (memory.py).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from analyzer.games.fightsong.engine import R_TARGET, run
from analyzer.games.fightsong.events import STK_ACT, STK_FS, STK_GP
from analyzer.games.fightsong.memory import popcount
from analyzer.games.fightsong.policies import PB_HORIZON, PB_OTHERS, PB_READ, allowed_held, decide
from analyzer.games.fightsong.rules import N_CORNERS, N_KINDS
from analyzer.games.fightsong.state import (
    N_RESUME, O_PL, O_PLC, O_SEQ, O_TCARD, O_TEXTRA, O_TPTS, RESUME_HAND, RS_BOARD, RS_END, RS_MOVE, RS_NPLAYS, RS_PAUSE,
    RS_PENDING, RS_PLAY, RS_STOP, RS_WIN_MASK, S_BASE, S_CNT, S_FREE, S_HANDS, S_N, S_SIZE, S_TOP, clear_hand, hand_add, hand_remove_kind,
    hn_at, team_of)
from analyzer.games.layout import Layout
from analyzer.games.search.unseen import sort_first
from analyzer.rng import reset_streams, shuffle

DECISION_POINT = Layout("a Fight Song search position's decision point (`at`)", [
    ("AT_RESUME", N_RESUME, "engine.run's resume array (state.RS_...: where the game is, the playouts' stop, how a "
                            "run ended): `at` is given to apply's and the playout's run as its resume array"),
    ("AT_LAYER", 1, "the board's layer: 0 a regular hand, 1 a Fight Song hand"),
    ("AT_PLAY", 1, "the play being decided (j; the board's plays before it are made)"),
    ("AT_NPLAYS", 1, "the board's plays"),
    ("AT_OVER", 1, "1: played out (to the game's end or the playout's stop)"),
], size_name="AT_SIZE")
DECISION_POINT.define(globals())

# A search position (the root: the real game's arrays and the lookahead's root_at; sample and work: copies).
Position = namedtuple("Position", ("st", "rg", "hand", "at"))

# The search's scratch and the seats' memory, allocated once per block of games or traced game (lookahead._scratch).
Look = namedtuple("Look", (
    "cfg",  # the playouts' engine.Config: the game's, with their own policies (tables.pol, par: every seat greedy)
    "par",  # the seats' own parameters (the game's tables.par: a lookahead seat's samples, horizon, read_plays)
    "rg",  # the game's stacks (engine.play_board does not hand them to choose)
    "root_at", "sample", "work",  # the root's decision point; a redealt copy of the game, a playout's copy
    "pool",  # the cards being redealt
    "tpol", "tpar",  # the team policy with its default weights (a decision)
    "rng2",  # the playouts' random state
    "dout", "dtr", "playout_traced",  # the result row and trace the playouts are given (never read); False
    "cand", "sums",  # the decisions (kind, corner) and their sums
    "known_by", "ruled_out", "board_context", "reads",  # the seats' memory (memory.py)
    "tree",  # the tree search's scratch (search.tree.new_tree, for the largest budget of a search seat)
    "tree_search",  # [0]: 1 while the tree search runs (sort_unseen; the pools of unseen cards sorted first), [1]: its seat
))

# The contract functions are inline="always": numba links and re-optimises a callee into every jitted layer above
# it, and as separate functions they were one more layer above the playouts' engine.run. A first lookahead batch's
# cold compile (CPU, a fresh process) took 127 to 143 s with them separate (three runs), 112 to 125 s inlined
# (five) and 103 to 114 s before the driver (six), alternated on this 2-core machine under a load of 3 to 6.

DECISION_WIDTH = 2  # kind, corner
MAXCAND = 2 + N_CORNERS + N_KINDS  # greedy's, team's, one per free corner, one per kind held
UNIT = 12  # outcome points per point of margin (a win counts UNIT x target; 12: a win shared by 2, 3 or 4 teams)
NO_STOP = 1 << 40


@njit(cache=True, inline="always")
def to_move(pos):
    """The seat of the board's play AT_PLAY; -1 once played out (to the game's end or the playouts' stop)."""
    at = pos.at
    if at[AT_OVER] != 0 or at[AT_PLAY] >= at[AT_NPLAYS]:
        return np.int64(-1)
    return pos.st[O_SEQ + at[AT_PLAY]]


@njit(cache=True, forceinline=True)
def _add(cand, m, kind, corner):
    """Append a decision unless it is already there; returns the new count."""
    for i in range(m):
        if cand[i, 0] == kind and cand[i, 1] == corner:
            return m
    cand[m, 0] = kind
    cand[m, 1] = corner
    return m + 1


@njit(cache=True)
def _candidates(st, hand, gp_kind, score, vers, cval, gtab, lf, deck_k, tpol, tpar, rng, board, layer, seat, j,
                nplays, cand):
    """Greedy's play, the team policy's, for each free corner the card greedy would put there, and for each kind of
    card seat holds the corner greedy would put it on (duplicates dropped), into cand; returns how many."""
    free = st[S_FREE]
    held = allowed_held(st, layer, seat)  # (restricted play: the kinds it may play)
    mv = np.int64(gtab[board, free, held])
    m = _add(cand, 0, mv >> 2, mv & 3)
    kind, corner = decide(st, hand, gp_kind, score, vers, cval, gtab, lf, deck_k, tpol, tpar, rng, board, layer, seat,
                          j, nplays)
    m = _add(cand, m, kind, corner)
    for c in range(N_CORNERS):
        if (free >> c) & 1:
            mv = np.int64(gtab[board, 1 << c, held])
            m = _add(cand, m, mv >> 2, mv & 3)
    for k in range(N_KINDS):
        if (held >> k) & 1:
            mv = np.int64(gtab[board, free, 1 << k])
            m = _add(cand, m, mv >> 2, mv & 3)
    return m


@njit(cache=True, inline="always")
def decisions(pos, seat, rng, cand, look):
    """The plays the lookahead weighs (docs/fightsong.md, "lookahead"): _candidates, greedy's first (ties keep it).
    The last play of a regular hand, for a seat searching with horizon 1, is greedy's alone, unsearched: the
    playouts would end with it, more points never hurt there (the margin, the Fight Song opportunities and the end
    check all grow with them), and greedy's ties keep its versatile cards (a search could only mistake noise for a
    better play). In the tree search (tree_search[0]) of a seat whose `others` is greedy (PB_OTHERS 0), another
    seat's decision is greedy's alone, as in the rollouts. The team policy's play draws nothing."""
    st, at, tab = pos.st, pos.at, look.cfg.tables
    board, layer, j, nplays = at[RS_BOARD], at[AT_LAYER], at[AT_PLAY], at[AT_NPLAYS]
    searcher = look.tree_search[1]
    greedy_other = look.tree_search[0] != 0 and seat != searcher and look.par[searcher, PB_OTHERS] == 0.0
    if greedy_other or (j == nplays - 1 and layer == 0 and np.int64(look.par[seat, PB_HORIZON]) == 1):
        mv = np.int64(tab.gtab[board, st[S_FREE], allowed_held(st, layer, seat)])
        return _add(cand, 0, mv >> 2, mv & 3)
    return _candidates(st, pos.hand, tab.gp_kind, tab.score, tab.vers, tab.cval, tab.gtab, tab.lf, tab.deck_k,
                       look.tpol, look.tpar, rng, board, layer, seat, j, nplays, cand)


@njit(cache=True, inline="always")
def begin_search(root, seat, sample, work, look):
    """Nothing is shared by a decision's redeals: each gathers the unseen cards again (a redeal reorders them). The
    pool is gathered in place order, unsorted (the lookahead's redeals as they were) unless sort_unseen follows."""
    look.tree_search[0] = 0
    look.tree_search[1] = seat


@njit(cache=True, inline="always")
def sort_unseen(root, seat, look):
    """The tree search's redeals sort each pool of unseen cards before shuffling it: they then depend only on which
    cards seat does not know, not on where they are (deal_unknown)."""
    look.tree_search[0] = 1


@njit(cache=True, inline="always")
def _copy(src, dst):
    """dst = src: the state, the stacks, the hands and the decision point."""
    for i in range(src.st.shape[0]):
        dst.st[i] = src.st[i]
    for i in range(src.rg.shape[0]):
        dst.rg[i] = src.rg[i]
    hand, dhand = src.hand, dst.hand
    for a in range(hand.shape[0]):
        for b in range(hand.shape[1]):
            for c in range(hand.shape[2]):
                dhand[a, b, c] = hand[a, b, c]
    for i in range(AT_SIZE):
        dst.at[i] = src.at[i]


@njit(cache=True, inline="always")
def _ring_unknown_out(st, rg, w, offset, known_by, seat_bit, pool, u):
    """Append the cards of stack w that seat does not know (known_by[offset + card]) to pool[u:]; returns the new
    length."""
    base, top, size = st[S_BASE + w], st[S_TOP + w], st[S_SIZE + w]
    for i in range(st[S_CNT + w]):
        place = top + i
        if place >= size:
            place -= size
        card = rg[base + place]
        if not known_by[offset + card] & seat_bit:
            pool[u] = card
            u += 1
    return u


@njit(cache=True, inline="always")
def _ring_unknown_in(st, rg, w, offset, known_by, seat_bit, pool, p, drg):
    """Put pool[p:] into the places of stack w (in rg) that hold a card seat does not know, in drg; returns the
    next position in pool."""
    base, top, size = st[S_BASE + w], st[S_TOP + w], st[S_SIZE + w]
    for i in range(st[S_CNT + w]):
        place = top + i
        if place >= size:
            place -= size
        if not known_by[offset + rg[base + place]] & seat_bit:
            drg[base + place] = pool[p]
            p += 1
    return p


@njit(cache=True)
def deal_unknown(st, rg, hand, gp_kind, seat, rng, stream, sst, srg, shand, pool, known_by, ruled_out, read_plays,
                 sort_pool=False):
    """sst, srg, shand (a copy of the game st, rg, hand) with the cards seat does not know dealt again on its
    stream: the Game Play cards of the other hands (regular and Fight Song) and of the Game Play stack that it does
    not know are shuffled together and put back in the places they came from, a hand's place (read_plays) taking
    the first card left of a kind not ruled out there (any card if none is left); the cards of the Activity and of
    the Fight Song stack that it does not know are shuffled in their places. The cards it knows stay where they
    are. sort_pool: each pool is sorted before it is shuffled (the tree search: sort_unseen)."""
    n = st[S_N]
    n_gp = st[S_SIZE + STK_GP]
    seat_bit = 1 << seat
    u = 0
    for layer in range(2):
        for o in range(n):
            if o != seat:
                for i in range(st[hn_at(layer, o)]):
                    card = hand[layer, o, i]
                    if not known_by[card] & seat_bit:
                        pool[u] = card
                        u += 1
    u = _ring_unknown_out(st, rg, STK_GP, 0, known_by, seat_bit, pool, u)
    if sort_pool:
        sort_first(pool, u)
    shuffle(rng, stream, pool, u)
    p = 0
    for layer in range(2):
        for o in range(n):
            if o != seat:
                clear_hand(sst, layer, o)
                for i in range(st[hn_at(layer, o)]):
                    card = hand[layer, o, i]
                    if not known_by[card] & seat_bit:
                        excluded_kinds = ruled_out[seat, card] if read_plays else 0
                        if excluded_kinds != 0:
                            q = p
                            while q < u and (excluded_kinds >> gp_kind[pool[q]]) & 1:
                                q += 1
                            if q < u:
                                pool[p], pool[q] = pool[q], pool[p]
                        card = pool[p]
                        p += 1
                    hand_add(sst, shand, gp_kind, layer, o, card)
    _ring_unknown_in(st, rg, STK_GP, 0, known_by, seat_bit, pool, p, srg)
    u = _ring_unknown_out(st, rg, STK_ACT, n_gp, known_by, seat_bit, pool, 0)
    if sort_pool:
        sort_first(pool, u)
    shuffle(rng, stream, pool, u)
    _ring_unknown_in(st, rg, STK_ACT, n_gp, known_by, seat_bit, pool, 0, srg)
    fs_offset = n_gp + st[S_SIZE + STK_ACT]
    u = _ring_unknown_out(st, rg, STK_FS, fs_offset, known_by, seat_bit, pool, 0)
    if sort_pool:
        sort_first(pool, u)
    shuffle(rng, stream, pool, u)
    _ring_unknown_in(st, rg, STK_FS, fs_offset, known_by, seat_bit, pool, 0, srg)


@njit(cache=True)
def _replayed_order(st, hand, gp_kind, layer, j):
    """The hands of the board's plays before play j as the lookahead's playouts had them when they replayed the
    board from its first play (before the engine resumed within a board): each card played back at the end of its
    player's hand, then the first card of its kind taken out again (the card played, as far as every rule and
    policy can tell: the same kind). Which card of a kind is where changes no decision; it changes where the cards
    left in a Fight Song hand go under the stack, so the lookahead's results stay as they were with it."""
    for i in range(j):
        hand_add(st, hand, gp_kind, layer, st[O_SEQ + i], st[O_PL + i])
    for i in range(j):
        card = hand_remove_kind(st, hand, gp_kind, layer, st[O_SEQ + i], gp_kind[st[O_PL + i]])
        st[O_PL + i] = card
        st[O_TCARD + st[O_PLC + i]] = card


@njit(cache=True, inline="always")
def redeal(root, seat, rng, sample, look):
    """sample = root with the cards seat does not know dealt again (deal_unknown); with read_plays, the places in
    the other hands take kinds its reading has not ruled out there. The board's earlier players' hands are then in
    the lookahead's replayed order (_replayed_order)."""
    _copy(root, sample)
    deal_unknown(root.st, root.rg, root.hand, look.cfg.tables.gp_kind, seat, rng, 1 + seat, sample.st, sample.rg,
                 sample.hand, look.pool, look.known_by, look.ruled_out, look.par[seat, PB_READ] != 0.0,
                 look.tree_search[0] != 0)
    _replayed_order(sample.st, sample.hand, look.cfg.tables.gp_kind, root.at[AT_LAYER], root.at[AT_PLAY])


@njit(cache=True, inline="always")
def copy_position(src, dst, look):
    _copy(src, dst)


@njit(cache=True, inline="always")
def key_playouts(key, look):
    """Every stream of the playouts' random state from the key (greedy draws nothing: they stay unused)."""
    reset_streams(look.rng2, key, 0)


@njit(cache=True, inline="always")
def _run(pos, look):
    """engine.run resuming the game at pos (its resume array: at); a playout's seats' policies (look.cfg)."""
    # (the seed is unused: a resumed run keeps its random state, keyed by key_playouts)
    run(np.uint64(0), np.int64(0), np.int64(0), np.int64(1), look.cfg, look.dout, look.dtr, look.playout_traced[0],
        pos.st, pos.rg, pos.hand, look.rng2, None, pos.at)


@njit(cache=True, inline="always")
def apply(pos, cand, i, look):
    """to_move(pos) plays cand[i]; engine.run plays on to the next decision of any seat (a play of this board or a
    later one), the game's end or the playouts' stop (at[RS_STOP]: stop_after's)."""
    at = pos.at
    at[RS_MOVE] = cand[i, 0] * 4 + cand[i, 1]
    at[RS_PAUSE] = 1
    _run(pos, look)
    at[RS_PAUSE] = 0
    if at[RS_PENDING] == 0:  # the end, or the stop
        at[AT_OVER] = 1
    else:  # paused before the next decision
        at[AT_LAYER] = 0 if at[RS_PENDING] == RESUME_HAND else 1
        at[AT_PLAY] = at[RS_PLAY]
        at[AT_NPLAYS] = at[RS_NPLAYS]


@njit(cache=True, inline="always")
def stop_after(root, horizon):
    """Hands: the playouts stop once `horizon` regular hands counting this one are played (in a Fight Song hand,
    S_HANDS already counts its regular hand), its Fight Song rounds included. Written into the root's resume array
    too: apply stops there (the search's positions are copies of the root)."""
    stop = root.st[S_HANDS] + horizon - root.at[AT_LAYER] if horizon > 0 else np.int64(NO_STOP)
    root.at[RS_STOP] = stop
    return stop


@njit(cache=True, inline="always")
def playout(pos, stop, look):
    """engine.run resuming the position up to `stop`, every seat greedy (nothing left to play once over). It reports
    how it ended in the resume array (at)."""
    at = pos.at
    if at[AT_OVER] != 0:
        return
    at[RS_STOP] = stop
    _run(pos, look)
    at[AT_OVER] = 1


@njit(cache=True, inline="always")
def score(pos, seat, look):
    """UNIT x (seat's team's total - the best other team's total), plus UNIT x target if its team won (divided by k
    if k teams share the win), minus that if it lost (a stall has no winner)."""
    st, at = pos.st, pos.at
    n = st[S_N]
    target = look.cfg.rules[R_TARGET]
    mine = team_of(seat, n)
    other = np.int64(-(1 << 40))
    for t in range(2 if n == 4 else n):
        if t != mine:
            other = max(other, st[O_TPTS + t] + st[O_TEXTRA + t])
    v = UNIT * (st[O_TPTS + mine] + st[O_TEXTRA + mine] - other)
    win_mask = at[RS_WIN_MASK]
    if at[RS_END] >= 0 and win_mask != 0:
        if not (win_mask >> mine) & 1:
            return v - UNIT * target
        return v + UNIT * target // popcount(win_mask)
    return v
