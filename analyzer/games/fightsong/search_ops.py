"""Fight Song's side of the search contract (analyzer/games/search/contract.py), from the engine's own game loop:
a playout is engine.run resuming the current board (every rule is written once).

- a position: a Position (below): the game's state, stacks and hands as the engine keeps them at a play of a
  board (the board's earlier plays made), and the decision point `at` (DECISION_POINT: the board, its layer, the
  play and, first, engine.run's resume array: where the game is, for a playout to resume it).
- a decision row: (kind, corner): the card kind seat plays and the free corner it goes on.
- what a seat sees, and what redeal deals again: its memory (memory.py; docs/fightsong.md, "lookahead").
- the playouts: every seat greedy (battle: the leader), on the random state in look (greedy draws nothing).
- apply scripts the decision rather than making it: the engine resumes a board only from its first play, so a
  playout replays the board, its earlier plays and the decision scripted (their cards back in their players'
  hands; the scripts are the playouts' policies, in look.cfg), then plays on. A position after apply is such a
  replay: it can be played out and scored, while decisions (which reads the board as played so far) is for
  positions the engine reached (the search's root). Enough for the flat search (driver.lookahead); a tree search
  would need the engine to stop within a board.
- look: a Look (below): the search's scratch and the seats' memory, which the lookahead kernel's game loop keeps
  (memory.py).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from analyzer.games.fightsong.engine import R_TARGET, run
from analyzer.games.fightsong.events import STK_ACT, STK_FS, STK_GP
from analyzer.games.fightsong.memory import popcount
from analyzer.games.fightsong.policies import P_GREEDY, P_SCRIPT, PB_HORIZON, PB_READ, decide
from analyzer.games.fightsong.rules import N_CORNERS, N_KINDS
from analyzer.games.fightsong.state import (
    MAXP, N_RESUME, O_HM, O_MOVES, O_PL, O_PLC, O_SEQ, O_TEXTRA, O_TPTS, RS_BOARD, RS_END, RS_STOP, RS_WIN_MASK, S_BASE,
    S_CNT, S_FREE, S_HANDS, S_N, S_SIZE, S_TOP, clear_hand, hand_add, hn_at, team_of)
from analyzer.games.layout import Layout
from analyzer.rng import reset_streams, shuffle

DECISION_POINT = Layout("a Fight Song search position's decision point (`at`)", [
    ("AT_RESUME", N_RESUME, "engine.run's resume array (state.RS_...: at the root, where the game is; a playout's "
                            "stop and how it ended): `at` is given to the playout's run as its resume array"),
    ("AT_LAYER", 1, "the board's layer: 0 a regular hand, 1 a Fight Song hand"),
    ("AT_PLAY", 1, "the play being decided (j; the board's plays before it are made, or after apply scripted)"),
    ("AT_NPLAYS", 1, "the board's plays"),
    ("AT_OVER", 1, "1: played out (to the game's end or the playout's stop)"),
], size_name="AT_SIZE")
DECISION_POINT.define(globals())

# A search position (the root: the real game's arrays and the lookahead's root_at; sample and work: copies).
Position = namedtuple("Position", ("st", "rg", "hand", "at"))

# The search's scratch and the seats' memory, allocated once per block of games or traced game (lookahead._scratch).
Look = namedtuple("Look", (
    "cfg",  # the playouts' engine.Config: the game's, with their own policies (tables.pol, par: see _script)
    "par",  # the seats' own parameters (the game's tables.par: a lookahead seat's samples, horizon, read_plays)
    "rg",  # the game's stacks (engine.play_board does not hand them to choose)
    "root_at", "sample", "work",  # the root's decision point; a redealt copy of the game, a playout's copy
    "pool",  # the cards being redealt
    "tpol", "tpar",  # the team policy with its default weights (a decision)
    "rng2",  # the playouts' random state
    "dout", "dtr", "playout_traced",  # the result row and trace the playouts are given (never read); False
    "cand", "sums",  # the decisions (kind, corner) and their sums
    "known_by", "ruled_out", "board_context", "reads",  # the seats' memory (memory.py)
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
    """The seat of the board's play AT_PLAY; -1 once played out, or past the board's last play (after apply: the
    next decision is the playout's to reach)."""
    at = pos.at
    if at[AT_OVER] != 0 or at[AT_PLAY] >= at[AT_NPLAYS]:
        return np.int64(-1)
    return pos.st[O_SEQ + at[AT_PLAY]]


@njit(cache=True, inline="always")
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
    held = st[O_HM + layer * MAXP + seat]
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
    better play). The team policy's play draws nothing."""
    st, at, tab = pos.st, pos.at, look.cfg.tables
    board, layer, j, nplays = at[RS_BOARD], at[AT_LAYER], at[AT_PLAY], at[AT_NPLAYS]
    if j == nplays - 1 and layer == 0 and np.int64(look.par[seat, PB_HORIZON]) == 1:
        mv = np.int64(tab.gtab[board, st[S_FREE], st[O_HM + seat]])
        return _add(cand, 0, mv >> 2, mv & 3)
    return _candidates(st, pos.hand, tab.gp_kind, tab.score, tab.vers, tab.cval, tab.gtab, tab.lf, tab.deck_k,
                       look.tpol, look.tpar, rng, board, layer, seat, j, nplays, cand)


@njit(cache=True, inline="always")
def begin_search(root, seat, sample, work, look):
    """Nothing is shared by a decision's redeals: each gathers the unseen cards again (a redeal reorders them)."""
    return


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
def deal_unknown(st, rg, hand, gp_kind, seat, rng, stream, sst, srg, shand, pool, known_by, ruled_out, read_plays):
    """sst, srg, shand (a copy of the game st, rg, hand) with the cards seat does not know dealt again on its
    stream: the Game Play cards of the other hands (regular and Fight Song) and of the Game Play stack that it does
    not know are shuffled together and put back in the places they came from, a hand's place (read_plays) taking
    the first card left of a kind not ruled out there (any card if none is left); the cards of the Activity and of
    the Fight Song stack that it does not know are shuffled in their places. The cards it knows stay where they
    are."""
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
    shuffle(rng, stream, pool, u)
    _ring_unknown_in(st, rg, STK_ACT, n_gp, known_by, seat_bit, pool, 0, srg)
    fs_offset = n_gp + st[S_SIZE + STK_ACT]
    u = _ring_unknown_out(st, rg, STK_FS, fs_offset, known_by, seat_bit, pool, 0)
    shuffle(rng, stream, pool, u)
    _ring_unknown_in(st, rg, STK_FS, fs_offset, known_by, seat_bit, pool, 0, srg)


@njit(cache=True, inline="always")
def redeal(root, seat, rng, sample, look):
    """sample = root with the cards seat does not know dealt again (deal_unknown); with read_plays, the places in
    the other hands take kinds its reading has not ruled out there."""
    _copy(root, sample)
    deal_unknown(root.st, root.rg, root.hand, look.cfg.tables.gp_kind, seat, rng, 1 + seat, sample.st, sample.rg,
                 sample.hand, look.pool, look.known_by, look.ruled_out, look.par[seat, PB_READ] != 0.0)


@njit(cache=True, inline="always")
def copy_position(src, dst, look):
    _copy(src, dst)


@njit(cache=True, inline="always")
def key_playouts(key, look):
    """Every stream of the playouts' random state from the key (greedy draws nothing: they stay unused)."""
    reset_streams(look.rng2, key, 0)


@njit(cache=True, inline="always")
def _script(st, hand, gp_kind, layer, seat, j, move, spol, spar):
    """The playout replays the board from its start: the board's plays before play j go back to their players'
    hands of `layer` and into their scripts, then seat's script plays `move` (kind x 4 + corner); every seat plays
    greedy after its script."""
    n = st[S_N]
    for s in range(n):
        spol[s] = P_GREEDY
        st[O_MOVES + s] = 0
        for k in range(spar.shape[1]):
            spar[s, k] = 0.0  # (greedy seats: battle the leader)
    for i in range(j + 1):
        s = st[O_SEQ + i]
        if spol[s] != P_SCRIPT:
            spol[s] = P_SCRIPT
            for k in range(spar.shape[1]):
                spar[s, k] = -1.0  # (a script's end: greedy; in a battle choice, the leader)
        k = 0
        while spar[s, k] >= 0.0:
            k += 1
        if i < j:
            card = st[O_PL + i]
            hand_add(st, hand, gp_kind, layer, s, card)
            spar[s, k] = gp_kind[card] * 4 + st[O_PLC + i]
        else:
            spar[s, k] = move


@njit(cache=True, inline="always")
def apply(pos, cand, i, look):
    """The decision cand[i] scripted for the playout (the module docstring): pos becomes the board's replay."""
    st, at, tables = pos.st, pos.at, look.cfg.tables
    j = at[AT_PLAY]
    _script(st, pos.hand, tables.gp_kind, at[AT_LAYER], st[O_SEQ + j], j, cand[i, 0] * 4 + cand[i, 1], tables.pol,
            tables.par)
    at[AT_PLAY] = j + 1


@njit(cache=True, inline="always")
def stop_after(root, horizon):
    """Hands: the playouts stop once `horizon` regular hands counting this one are played (in a Fight Song hand,
    S_HANDS already counts its regular hand)."""
    return root.st[S_HANDS] + horizon - root.at[AT_LAYER] if horizon > 0 else np.int64(NO_STOP)


@njit(cache=True, inline="always")
def playout(pos, stop, look):
    """engine.run resuming the board (its replay, after apply) up to `stop`: every seat greedy after its script.
    It reports how it ended in the resume array (at)."""
    at = pos.at
    at[RS_STOP] = stop
    # (the seed is unused: a playout keeps its random state, keyed by key_playouts)
    run(np.uint64(0), np.int64(0), np.int64(0), np.int64(1), look.cfg, look.dout, look.dtr, look.playout_traced[0],
        pos.st, pos.rg, pos.hand, look.rng2, None, at)
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
