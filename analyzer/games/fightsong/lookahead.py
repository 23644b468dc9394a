"""The Fight Song `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the cards a seat does not know.

The pattern of analyzer/games/noize/lookahead.py: no second game loop.
- a separate kernel entry: `play_block_look` / `play_game_look` call engine.run with the lookahead's
  scratch (`look`); engine.play_board then lets `choose` decide for the lookahead seats, in regular and Fight
  Song hands, and the engine tells the seats' memory what they see (the observe_ functions). Given None (the
  default kernels), numba drops those branches before typing, so the default kernels never compile this
  module. The batch and the trace use this entry only when a seat plays lookahead (`uses_lookahead`).
- the playouts are engine.run too, given `resume` (None in every other kernel): it skips the game's start and
  replays the current board from its first play: a regular hand on its Activity card (already out of the
  stack), or a Fight Song hand on its Fight Song card (its cards dealt; the round's kind, hand number,
  initiating teams and playing seats from the resume array, the regular hand already recorded), the plays
  made so far and the candidate scripted (the tests' P_SCRIPT seats: their cards go back to their hands),
  every seat greedy after its script. The board is finished as the rules do (the hand's Fight Song rounds, its
  cards going back, the end check included) and the playout stops after the horizon. Every rule is written
  once.
- no allocation in the decision loop: the scratch (a sampled state and a working state, the pool of
  unseen cards, the playouts' policies, a random state, the resume array, a result row and trace the playouts
  are given but that nobody reads, the candidates and their sums, the seats' memory) is allocated once per
  block of games or traced game.
- reproducible: a decision draws only from the seat's own stream (1 + seat), the playouts from a private
  random state keyed from that stream (greedy draws nothing, so it stays unused); the memory is the game's
  own (reset at each game's start), so a game depends only on (seed, game index).

The decision, at each play of a regular or Fight Song hand (with 3 players it battles by its `battle` rule):
- what it sees: its own hands, the board and the cards on it, every hand's size, the scores, and what it has
  seen since the game began: every card played (where each goes: under the Game Play stack, in the order
  the rules return them), every card dealt to it, every board turned up. The stacks only cycle and cards are
  dealt from the top in a known order, so a card it has seen stays known to it wherever it goes, into another
  player's hand included (forget .. observe_return). What it does not see: the cards it has never seen, in
  the other hands and the stacks.
- reading plays (`read_plays`, default on): it takes every other player for a greedy player, as its playouts
  do: a card she leaves in her hand is none of the kinds greedy would have played before the one she played
  (more points on a free corner; a tie broken as greedy does), and it infers that about each card of her
  hand it does not know. Cards of a kind look alike, so it takes a played card for one it knew of that kind
  if any, else for the likeliest place. A play greedy could not have made (no place it could come from) ends
  the reading of that player for the game. Against greedy players the reading never rules out a card they
  hold (tests/test_fightsong_lookahead.py).
- candidates: greedy's play (first: ties keep it), the `team` policy's play (default weights), for each
  free corner the card greedy would put there, and for each kind of card it holds the corner greedy
  would put it on; duplicates dropped. With one candidate it plays it at once; the last play of a regular
  hand at horizon 1 is greedy's, unsearched (more points never hurt there, and greedy's ties keep its
  versatile cards).
- for each of `samples` redeals, the cards it does not know, in the other hands (regular and Fight Song)
  and the Game Play stack, are shuffled together on its stream and put back in their places, each place
  in a hand taking the first card left of a kind its reading has not ruled out there; the boards it has not
  seen are shuffled in their stacks; every card it knows stays where it is. Every candidate is played on
  that same redeal (common random numbers), then every seat plays greedy for `horizon` hands counting this
  one (0: to the end of the game).
- outcome of a playout: UNIT x (its team's total - the best other team's total), plus UNIT x target if
  its team won (divided by k if k teams share the win), minus that if it lost. It plays the candidate
  with the best sum, but in a regular hand greedy's play stands unless another beats it by more than EDGE
  per redeal (a quarter point); in a Fight Song hand the best sum is played (EDGE_FS 0: the cards not
  played there go back under the stack, so greedy's ties keep nothing).
- strength (docs/fightsong.md, "lookahead"): the hidden hands decide most of what a play is worth. Redeals
  that keep only what a seat has seen gained nothing over the old redeals (about half against greedy);
  reading plays and searching the Fight Song hands took lookahead partners to 57.8% +- 0.5 against greedy
  partners (4 players, seats rotated, 40,000 games of seed 5; before: 49.7% +- 0.5; given the true hands,
  65% with regular hands searched alone).
"""
from collections import namedtuple

import numpy as np
from numba import njit, typeof
from numba.core import types

from analyzer.games.fightsong.engine import (
    N_RESUME, NO_TRACE, R_PLAYERS, R_TARGET, RESUME_FS, RESUME_HAND, RS_BOARD, RS_FS_HAND, RS_FS_INIT, RS_FS_KIND,
    RS_END, RS_FS_PART, RS_PENDING, RS_REG_BOARD, RS_STOP, RS_WIN_MASK, run, scratch)
from analyzer.games.fightsong.events import STK_ACT, STK_FS, STK_GP
from analyzer.games.fightsong.policies import (
    P_GREEDY, P_LOOKAHEAD, P_SCRIPT, P_TEAM, PB_HORIZON, PB_OPPONENT, PB_PARTNER, PB_READ, PB_SAMPLES, N_PAR, decide)
from analyzer.games.fightsong.rules import N_CORNERS, N_KINDS
from analyzer.games.fightsong.state import (
    MAXP, O_HM, O_MOVES, O_PL, O_PLC, O_SEQ, O_TEXTRA, O_TPTS, S_BASE, S_CNT, S_FREE, S_HANDS, S_N, S_SIZE, S_TOP,
    clear_hand, hand_add, hn_at, team_of)
from analyzer.rng import next_u64, reset_streams, shuffle
from analyzer.threads import run_in_blocks

MAXCAND = 2 + N_CORNERS + N_KINDS  # greedy's, team's, one per free corner, one per kind held
UNIT = 12  # outcome points per point of margin (a win counts UNIT x target; 12: a win shared by 2, 3 or 4 teams)
EDGE = UNIT // 4  # regular hands: a quarter point of margin per redeal (see choose)
EDGE_FS = 0  # Fight Song hands: none (see choose)
NO_STOP = 1 << 40

# The decision scratch (see the module docstring), allocated once per block of games or traced game (_scratch).
Look = namedtuple("Look", (
    "cfg",  # the playouts' engine.Config: the game's, with their own policies (tables.pol, par: see _script)
    "rg",  # the game's stacks (engine.play_board does not hand them to choose)
    "sst", "srg", "shand",  # a redealt copy of the game (_redeal)
    "wst", "wrg", "whand",  # a playout's copy of it
    "pool",  # the cards being redealt
    "tpol", "tpar",  # the team policy with its default weights (a candidate)
    "rng2",  # the playouts' random state
    "res",  # a playout's resume array (engine.RS_...)
    "dout", "dtr", "playout_traced",  # the result row and trace the playouts are given (never read); False
    "cand",  # the candidates (kind, corner) and their sums
    "known_by", "ruled_out", "board_context", "reads",  # the seats' memory: see forget .. observe_return
))


def uses_lookahead(pol):
    """True if some seat of this encoded configuration plays lookahead (then the lookahead kernel runs)."""
    return bool((pol == P_LOOKAHEAD).any())


@njit(cache=True, inline="always")
def _add(cand, m, kind, corner):
    """Append a candidate play unless it is already there; returns the new count."""
    for i in range(m):
        if cand[i, 0] == kind and cand[i, 1] == corner:
            return m
    cand[m, 0] = kind
    cand[m, 1] = corner
    return m + 1


@njit(cache=True)
def _candidates(st, hand, gp_kind, score, vers, cval, gtab, lf, deck_k, tpol, tpar, rng, board, layer, seat, j,
                nplays, cand):
    """The candidate plays (see the module docstring) from seat's hand of `layer` into cand; returns how many."""
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
def _copy(st, rg, hand, dst, drg, dhand):
    for i in range(st.shape[0]):
        dst[i] = st[i]
    for i in range(rg.shape[0]):
        drg[i] = rg[i]
    for a in range(hand.shape[0]):
        for b in range(hand.shape[1]):
            for c in range(hand.shape[2]):
                dhand[a, b, c] = hand[a, b, c]


@njit(cache=True, inline="always")
def _popcount(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


# The seats' memory, kept by the lookahead kernel's engine.run and play_board through the observe_ functions
# (every seat's, as any seat may be a lookahead seat; cheap beside the playouts):
# - known_by[card]: bit s when seat s knows where that card is. Game Play cards 0..D-1, then the boards (D +
#   board: the Activity cards, then the Fight Song cards). A card a seat has seen stays known to it: a card
#   played goes under its stack at a place everyone sees, the stacks only cycle, cards are dealt from the top
#   one at a time in an order everyone knows, and a card in a hand stays there until it is played face up.
# - ruled_out[s, card], for a card in another player's hand that s does not know: the kinds (bits) that card
#   cannot be if that player plays as greedy does: it is the place in her hand that s reasons about.
# - reads[s]: bit p while s still reads p's plays as greedy's (until one of them is impossible for greedy).
# - board_context: where the game is (the regular hand's Activity card; the Fight Song round's kind, hand,
#   initiating teams and playing seats), laid out as engine's resume array, for a playout to start from.
@njit(cache=True)
def forget(look):
    """A new game: the seats know nothing yet and read every other player's plays as greedy's."""
    known_by, ruled_out, reads = look.known_by, look.ruled_out, look.reads
    for i in range(known_by.shape[0]):
        known_by[i] = 0
    for s in range(ruled_out.shape[0]):
        reads[s] = (1 << ruled_out.shape[0]) - 1
        for i in range(ruled_out.shape[1]):
            ruled_out[s, i] = 0


@njit(cache=True)
def observe_hand(look, board):
    """A regular hand begins on this Activity card."""
    look.board_context[RS_REG_BOARD] = board


@njit(cache=True)
def observe_fs_hand(look, kind, k, init_mask, part_mask):
    """Fight Song hand k (1..3) of a round of this kind (engine FSK_), initiating teams and playing seats, begins."""
    board_context = look.board_context
    board_context[RS_FS_KIND] = kind
    board_context[RS_FS_HAND] = k
    board_context[RS_FS_INIT] = init_mask
    board_context[RS_FS_PART] = part_mask


@njit(cache=True)
def observe_board(look, st, hand, board, layer, nplays):
    """A board is played: every seat sees it, and each playing seat sees its own cards (every card dealt to a seat
    is in its hand at the start of the next board it plays)."""
    known_by = look.known_by
    n_gp = st[S_SIZE + STK_GP]
    every_seat = (1 << st[S_N]) - 1
    known_by[n_gp + board] = every_seat
    for j in range(nplays):
        player = st[O_SEQ + j]
        for i in range(st[hn_at(layer, player)]):
            known_by[hand[layer, player, i]] |= 1 << player


@njit(cache=True)
def observe_play(look, st, hand, gp_kind, score, vers, cval, board, layer, player, card, corner):
    """player has played card from her hand of `layer` (the card is out of it) on corner (still free in
    st[S_FREE]): every seat sees it, and reads the play.
    - Cards of one kind look alike: a seat that did not know this card takes it for a card of that kind it knew in
      her hand, if any (that one becomes unknown to it); else for the card it does not know that can be of that
      kind and is the most constrained (the likeliest). The card really left in the place it takes to be still
      held inherits what it had inferred about that place (the engine plays the first card of a kind in the
      hand; which one, a seat cannot see).
    - Read as greedy's play: she held no card that would have come before it in greedy's order (more points on a
      free corner; on a tie, a less versatile kind, then a corner worth less to the deck, then the lower corner
      and kind), so each card left in her hand is none of those kinds. If the card she played cannot be one she
      could hold by that reading, she does not play as greedy: the seat stops reading her plays."""
    known_by, ruled_out, reads = look.known_by, look.ruled_out, look.reads
    n = st[S_N]
    kind = gp_kind[card]
    played = score[board, corner, kind]
    free = st[S_FREE]
    kinds_before = np.int64(0)  # the kinds greedy would have played before this one
    for k in range(N_KINDS):
        for c in range(N_CORNERS):
            if (free >> c) & 1:
                v = score[board, c, k]
                comes_first = v > played
                if v == played and k != kind:  # greedy's ties, in its order
                    if vers[k] != vers[kind]:
                        comes_first = vers[k] < vers[kind]
                    elif cval[board, c] != cval[board, corner]:
                        comes_first = cval[board, c] < cval[board, corner]
                    else:
                        comes_first = c < corner or (c == corner and k < kind)
                if comes_first:
                    kinds_before |= 1 << k
                    break
    size = st[hn_at(layer, player)]
    for s in range(n):
        if s == player:
            continue
        if not (known_by[card] >> s) & 1:
            taken = -1  # the card s takes for the one played, if not that one
            for i in range(size):
                other = hand[layer, player, i]
                if gp_kind[other] == kind and (known_by[other] >> s) & 1:
                    taken = other
                    known_by[other] &= ~(1 << s)
                    break
            if taken < 0:
                most_ruled_out = -1  # kinds ruled out in the likeliest place so far (-1: no place fits yet)
                if not (ruled_out[s, card] >> kind) & 1:
                    most_ruled_out = _popcount(ruled_out[s, card])
                for i in range(size):
                    other = hand[layer, player, i]
                    if not (known_by[other] >> s) & 1 and not (ruled_out[s, other] >> kind) & 1:
                        if _popcount(ruled_out[s, other]) > most_ruled_out:
                            most_ruled_out = _popcount(ruled_out[s, other])
                            taken = other
                if most_ruled_out < 0 and (reads[s] >> player) & 1:  # impossible for greedy
                    reads[s] &= ~(1 << player)
                    for i in range(size):
                        ruled_out[s, hand[layer, player, i]] = 0
            if taken >= 0:
                ruled_out[s, taken] = ruled_out[s, card]
        if (reads[s] >> player) & 1:
            for i in range(size):
                ruled_out[s, hand[layer, player, i]] |= kinds_before
    for s in range(n):
        ruled_out[s, card] = 0
    known_by[card] = (1 << n) - 1


@njit(cache=True)
def observe_return(look, card):
    """A card left in a Fight Song hand goes under the Game Play stack: what was inferred about it lapses."""
    ruled_out = look.ruled_out
    for s in range(ruled_out.shape[0]):
        ruled_out[s, card] = 0


@njit(cache=True, inline="always")
def _ring_unknown_out(st, rg, w, offset, known_by, seat_bit, pool, u):
    """Append the cards of stack w that seat does not know (known_by[offset + card]) to pool[u:]; returns the new
    length."""
    base, top, size = st[S_BASE + w], st[S_TOP + w], st[S_SIZE + w]
    for i in range(st[S_CNT + w]):
        pos = top + i
        if pos >= size:
            pos -= size
        card = rg[base + pos]
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
        pos = top + i
        if pos >= size:
            pos -= size
        if not known_by[offset + rg[base + pos]] & seat_bit:
            drg[base + pos] = pool[p]
            p += 1
    return p


@njit(cache=True)
def _redeal(st, rg, hand, gp_kind, seat, rng, stream, sst, srg, shand, pool, known_by, ruled_out, read_plays):
    """A copy of the game (sst, srg, shand) with the cards seat does not know redealt on its stream: the Game Play
    cards of the other hands (regular and Fight Song) and of the Game Play stack that it does not know are
    shuffled together and put back in the places they came from, a hand's place (read_plays) taking the first card
    left of a kind not ruled out there (any card if none is left); the cards of the Activity and of the Fight Song
    stack that it does not know are shuffled in their places. The cards it knows stay where they are."""
    _copy(st, rg, hand, sst, srg, shand)
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
def _script(st, wst, whand, gp_kind, layer, seat, j, move, spol, spar):
    """The playout replays the board from its start: the board's plays so far go back to their players' hands of
    `layer` and into their scripts, then seat's script plays `move`; every seat plays greedy after its script."""
    n = st[S_N]
    for s in range(n):
        spol[s] = P_GREEDY
        wst[O_MOVES + s] = 0
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
            hand_add(wst, whand, gp_kind, layer, s, card)
            spar[s, k] = gp_kind[card] * 4 + st[O_PLC + i]
        else:
            spar[s, k] = move


@njit(cache=True, inline="always")
def _outcome(wst, res, seat, n, target):
    """A playout's outcome for seat (see the module docstring), from its state and how it ended (res)."""
    mine = team_of(seat, n)
    other = np.int64(-(1 << 40))
    for t in range(2 if n == 4 else n):
        if t != mine:
            other = max(other, wst[O_TPTS + t] + wst[O_TEXTRA + t])
    v = UNIT * (wst[O_TPTS + mine] + wst[O_TEXTRA + mine] - other)
    win_mask = res[RS_WIN_MASK]
    if res[RS_END] >= 0 and win_mask != 0:  # (a stall has no winner)
        if not (win_mask >> mine) & 1:
            return v - UNIT * target
        return v + UNIT * target // _popcount(win_mask)
    return v


@njit(cache=True)
def choose(st, hand, tab, rng, board, layer, seat, j, nplays, look):
    """The lookahead seat's (kind, corner) for play j of the board, the game's tables tab (engine.play_board calls
    it): a regular hand (layer 0) or a Fight Song hand (layer 1). look: the scratch (a Look)."""
    par, gp_kind, gtab, cand, res, wst = tab.par, tab.gp_kind, tab.gtab, look.cand, look.res, look.wst
    horizon = np.int64(par[seat, PB_HORIZON])
    if j == nplays - 1 and layer == 0 and horizon == 1:
        # the last play of a regular hand, the playouts ending with it: more points never hurt there (the margin,
        # the Fight Song opportunities and the end check all grow with them), and greedy's ties keep its versatile
        # cards: greedy's play (a search could only mistake noise for a better play)
        mv = np.int64(gtab[board, st[S_FREE], st[O_HM + seat]])
        return mv >> 2, mv & 3
    m = _candidates(st, hand, gp_kind, tab.score, tab.vers, tab.cval, gtab, tab.lf, tab.deck_k, look.tpol, look.tpar,
                    rng, board, layer, seat, j, nplays, cand)
    if m == 1:
        return cand[0, 0], cand[0, 1]
    n = st[S_N]
    target = look.cfg.rules[R_TARGET]
    samples = np.int64(par[seat, PB_SAMPLES])
    read_plays = par[seat, PB_READ] != 0.0
    stop = st[S_HANDS] + horizon - layer if horizon > 0 else NO_STOP  # (in a Fight Song hand, S_HANDS counts its hand)
    stream = 1 + seat
    for c in range(m):
        cand[c, 2] = 0
    for _ in range(samples):
        _redeal(st, look.rg, hand, gp_kind, seat, rng, stream, look.sst, look.srg, look.shand, look.pool,
                look.known_by, look.ruled_out, read_plays)
        key = next_u64(rng, stream)
        for c in range(m):
            _copy(look.sst, look.srg, look.shand, wst, look.wrg, look.whand)
            _script(st, wst, look.whand, gp_kind, layer, seat, j, cand[c, 0] * 4 + cand[c, 1], look.cfg.tables.pol,
                    look.cfg.tables.par)
            reset_streams(look.rng2, key, 0)
            for i in range(N_RESUME):
                res[i] = look.board_context[i]
            res[RS_PENDING] = RESUME_HAND if layer == 0 else RESUME_FS
            res[RS_BOARD] = board
            res[RS_STOP] = stop
            run(key, np.int64(0), np.int64(0), np.int64(1), look.cfg, look.dout, look.dtr, look.playout_traced[0], wst,
                look.wrg, look.whand, look.rng2, None, res)
            cand[c, 2] += _outcome(wst, res, seat, n, target)
    # greedy's play (candidate 0) stands unless another beats it by more than the edge per redeal: in a regular hand
    # smaller differences are mostly noise, and greedy's ties keep its most versatile cards for later hands, which a
    # short horizon does not see; a Fight Song hand's cards that are not played go back under the stack
    best = 0
    edge = (EDGE if layer == 0 else EDGE_FS) * samples
    for c in range(1, m):
        if cand[c, 2] > cand[best, 2] + (edge if best == 0 else 0):
            best = c
    return cand[best, 0], cand[best, 1]


def _scratch(cfg, rg, width):
    """The decision scratch (a Look) of the game configured by cfg, whose stacks are rg, for result rows of `width`.
    The playouts' seats play greedy (battle: the leader); the candidates' team play uses its default weights."""
    n = int(cfg.rules[R_PLAYERS])
    sample = scratch(cfg)[:3]
    work = scratch(cfg)[:3]
    spol = np.full(n, P_GREEDY, dtype=np.int64)
    spar = np.zeros((n, max(N_PAR, 4)), dtype=np.float64)  # (scripts: 2 players replay up to 3 plays of a seat)
    tpol = np.full(n, P_TEAM, dtype=np.int64)
    tpar = np.zeros((n, N_PAR), dtype=np.float64)
    tpar[:, PB_PARTNER] = 1.0
    tpar[:, PB_OPPONENT] = 1.0
    n_gp, n_act, n_fs = cfg.order_gp.shape[0], cfg.order_act.shape[0], cfg.order_fs.shape[0]
    return Look(
        cfg._replace(tables=cfg.tables._replace(pol=spol, par=spar)), rg, *sample, *work, np.zeros(max(n_gp, n_act, n_fs), dtype=np.int64),
        tpol, tpar, np.zeros(2 * (1 + n), dtype=np.uint64), np.zeros(N_RESUME, dtype=np.int64),
        np.zeros((1, width), dtype=np.int64), np.zeros((1, 1), dtype=np.int64),
        # playout_traced: False, read at run time so that the playouts' engine.run sees a plain bool, as the
        # default kernels do (whose compiled play_board and fight_song_round they then share), not the
        # literal False a constant would give (one more compile of each)
        np.zeros(1, dtype=np.bool_),
        np.zeros((MAXCAND, 3), dtype=np.int64),
        known_by=np.zeros(n_gp + n_act + n_fs, dtype=np.int64), ruled_out=np.zeros((n, n_gp), dtype=np.int64),
        board_context=np.zeros(N_RESUME, dtype=np.int64), reads=np.zeros(n, dtype=np.int64))


def _compile_choose(game_arrays, cfg, look):
    """Compile choose (and with it the playouts' engine.run) before the kernel that calls it: numba would type a
    call to engine.run or play_board made while they are being compiled as a recursive call, and not link it."""
    st, rg, hand, rng = game_arrays
    i = types.int64
    choose.compile((typeof(st), typeof(hand), typeof(cfg.tables), typeof(rng), i, i, i, i, i, typeof(look)))


def play_game_look(seed, game, cfg, out, trace):
    """engine.play_game for a configuration with lookahead seats (the trace uses it)."""
    game_arrays = scratch(cfg)
    look = _scratch(cfg, game_arrays[1], out.shape[-1])
    _compile_choose(game_arrays, cfg, look)
    return run(seed, game, 0, 1, cfg, out.reshape(1, -1), trace, True, *game_arrays, look, None)


def play_block_look(seed, first_game, lo, hi, cfg, out):
    """engine.play_block for a configuration with lookahead seats."""
    game_arrays = scratch(cfg)
    look = _scratch(cfg, game_arrays[1], out.shape[1])
    _compile_choose(game_arrays, cfg, look)
    run(seed, first_game, lo, hi, cfg, out, NO_TRACE, False, *game_arrays, look, None)


LOOK_CHUNK = 4  # games per block at the least: a lookahead game costs hundreds of greedy playouts


def batch_look(seed, first_game, cfg, out):
    """engine.batch with the lookahead kernel (blocks of LOOK_CHUNK games on the thread pool)."""
    run_in_blocks(play_block_look, out.shape[0], LOOK_CHUNK, (seed, first_game), (cfg, out))
