"""Fight Song decisions (numba): which card to play on which free corner, and whom to battle.

Every policy sees only what a player sees: its own cards (both its regular hand and, in a Fight Song
round, its Fight Song hand), the card being played on (Activity or Fight Song card), the cards already
on it, the hand sizes and the scores. The `team` and `blocker` policies estimate what the players
still to play this board could score on the corners left, from the cards they cannot see (the whole
Game Play deck minus their own cards and the cards on the table; no memory of earlier hands): a hand
of h cards drawn from those U unseen cards scores at least s on some corner left unless it holds none
of the m_s unseen cards that would, so its expected best score is the sum over s = 1, 2, 3 of
1 - C(U - m_s, h) / C(U, h). The later players are taken in turn, each using up the corner a random
unseen card scores most on, so a player late in the order sees fewer corners.
"""
import math

import numpy as np
from numba import njit

from analyzer.games.fightsong.rules import N_CORNERS, N_KINDS
from analyzer.games.fightsong.state import (
    MAXP, O_AVOID, O_HM, O_MOVES, O_SEQ, O_TCARD, O_TEXTRA, O_TPTS, O_UNSEEN, S_FREE, S_N, hc_at, hn_at, team_of)
from analyzer.rng import below

P_RANDOM, P_GREEDY, P_TEAM, P_BLOCKER, P_SCRIPT = 0, 1, 2, 3, 4  # P_SCRIPT: tests only
# decided in lookahead.py (engine.play_board calls it), never by `decide`
P_LOOKAHEAD = 5  # flat Monte Carlo (the search driver's lookahead)
P_SEARCH = 6  # information-set tree search (the search driver's ismcts)
# par columns (PB_HORIZON: lookahead's and search's horizon; PB_READ: both read plays)
PB_BATTLE, PB_PARTNER, PB_OPPONENT, PB_BLOCK, PB_SAMPLES, PB_HORIZON, PB_READ, PB_BUDGET, PB_C, PB_ROLLOUT, PB_OTHERS = \
    range(11)
N_PAR = 11
OTHERS_CHOICES = ("greedy", "candidates")  # search: what the other seats' nodes of its tree consider (PB_OTHERS)
BATTLE_CHOICES = ("leader", "weakest", "random")
BATTLE_LEADER, BATTLE_WEAKEST, BATTLE_RANDOM = 0, 1, 2
EPS = 1e-9


def log_factorials(d):
    """lf[x] = log(x!) for x = 0..d (the policies' hypergeometric look-ups)."""
    lf = np.zeros(d + 1, dtype=np.float64)
    for x in range(2, d + 1):
        lf[x] = lf[x - 1] + math.log(x)
    return lf


@njit(cache=True, forceinline=True)
def nohit(lf, unseen, m, h):
    """P(h cards drawn from `unseen` hold none of m given ones) = C(unseen - m, h) / C(unseen, h)."""
    if m == 0:
        return 1.0
    if h > unseen - m:
        return 0.0
    return math.exp(lf[unseen - m] - lf[unseen - m - h] - lf[unseen] + lf[unseen - h])


@njit(cache=True, inline="always")
def expected_best(lf, unseen, m1, m2, m3, h):
    """Expected best score of a player holding h unseen cards, where m_s unseen cards score >= s."""
    return 3.0 - nohit(lf, unseen, m1, h) - nohit(lf, unseen, m2, h) - nohit(lf, unseen, m3, h)


@njit(cache=True, inline="always")
def script_move(st, par, seat):
    """Tests: the next scripted decision of seat (-1 when its script has run out)."""
    k = st[O_MOVES + seat]
    st[O_MOVES + seat] = k + 1
    if k >= par.shape[1]:
        return np.int64(-1)
    return np.int64(par[seat, k])


_WITH_CORNER = [np.flatnonzero(np.arange(1 << N_CORNERS) >> c & 1) for c in range(N_CORNERS)]  # free sets holding c
_WITH_KIND = [np.flatnonzero(np.arange(1 << N_KINDS) >> k & 1) for k in range(N_KINDS)]  # held sets holding k


def greedy_table(score, vers, cval):
    """best[board, free corners (bits), kinds held (bits)] = kind * 4 + corner of the greedy play: the
    highest score; ties: the least versatile kind, then the corner worth least to the deck, then the
    lowest corner and kind (-1 where nothing can be played). A greedy decision is one look-up.
    numpy, not numba: the plays of a board ranked by that order, each written over every (free, held) that allows
    it, best last (about 15 ms; jitted, its compile was 0.35 s of a cold start before the first kernel's)."""
    n_boards = score.shape[0]
    c = np.repeat(np.arange(N_CORNERS), N_KINDS)
    k = np.tile(np.arange(N_KINDS), N_CORNERS)
    best = np.full((n_boards, 1 << N_CORNERS, 1 << N_KINDS), -1, dtype=np.int8)
    for b in range(n_boards):
        for j in np.lexsort((k, c, cval[b, c], vers[k], -score[b, c, k]))[::-1]:  # (lexsort: the last key first)
            best[b][np.ix_(_WITH_CORNER[c[j]], _WITH_KIND[k[j]])] = k[j] * 4 + c[j]
    return best


@njit(cache=True, inline="always")
def expected_best_on(st, score, lf, board, corners, unseen, h):
    """Expected best score of a hand of h cards drawn from the unseen ones (counts in st[O_UNSEEN..]) on
    the corners in the bit set `corners`."""
    m1 = 0  # unseen cards that could score >= 1 (>= 2, >= 3) on one of those corners
    m2 = 0
    m3 = 0
    for k in range(N_KINDS):
        b = 0
        for c in range(N_CORNERS):
            if (corners >> c) & 1 and score[board, c, k] > b:
                b = score[board, c, k]
        u = st[O_UNSEEN + k]
        if b >= 1:
            m1 += u
        if b >= 2:
            m2 += u
        if b >= 3:
            m3 += u
    return expected_best(lf, unseen, m1, m2, m3, h)


@njit(cache=True, inline="always")
def likeliest_corner(st, score, board, corners):
    """The corner of the bit set a random unseen card scores most on (ties: the lowest)."""
    best = -1
    best_c = -1
    for c in range(N_CORNERS):
        if (corners >> c) & 1:
            v = 0
            for k in range(N_KINDS):
                v += st[O_UNSEEN + k] * score[board, c, k]
            if v > best:
                best = v
                best_c = c
    return best_c


DIVISION_KINDS = 7  # the kinds of division 0 as bits (a kind's division is kind // 3); division d: << 3d


@njit(cache=True, forceinline=True)
def allowed_held(st, layer, seat):
    """The kinds seat may play from its hand of `layer` (bits): every kind it holds, less those of the division it
    avoids (O_AVOID, restricted play) while it holds a card of another."""
    held = st[O_HM + layer * MAXP + seat]
    avoid = st[O_AVOID + seat]
    if avoid != 0:
        rest = held & ~(DIVISION_KINDS << (3 * (avoid - 1)))
        if rest != 0:
            return rest
    return held


@njit(cache=True, inline="always")
def decide(st, hand, gp_kind, score, vers, cval, gtab, lf, deck_k, pol, par, rng, board, layer, seat, j, nplays):
    """The (kind, corner) seat plays as play j of the board's nplays (st[O_SEQ..] holds who plays)."""
    n = st[S_N]
    p = pol[seat]
    if p == P_SCRIPT:  # tests: par[seat, k] = kind * 4 + corner of its k-th decision; -1 or none left: greedy
        mv = script_move(st, par, seat)
        if mv >= 0:
            return mv // 4, mv % 4
        p = P_GREEDY
    may = allowed_held(st, layer, seat)  # (restricted play; every kind held when the seat avoids none)
    if p == P_GREEDY:
        mv = gtab[board, st[S_FREE], may]
        return np.int64(mv >> 2), np.int64(mv & 3)
    if p == P_RANDOM:  # uniform over the cards held (it may play), then uniform over the free corners
        if may == st[O_HM + layer * MAXP + seat]:
            slot = below(rng, 1 + seat, st[hn_at(layer, seat)])
        else:
            n_may = 0
            for k in range(N_KINDS):
                if (may >> k) & 1:
                    n_may += st[hc_at(layer, seat, k)]
            r = below(rng, 1 + seat, n_may)
            slot = 0
            while True:
                if (may >> gp_kind[hand[layer, seat, slot]]) & 1:
                    if r == 0:
                        break
                    r -= 1
                slot += 1
        kind = gp_kind[hand[layer, seat, slot]]
        n_free = 0
        for c in range(N_CORNERS):
            if st[O_TCARD + c] < 0:
                n_free += 1
        r = below(rng, 1 + seat, n_free)
        for c in range(N_CORNERS):
            if st[O_TCARD + c] < 0:
                if r == 0:
                    return kind, c
                r -= 1
        return kind, -1  # unreachable: a board is played only while a corner is free
    # team / blocker: look at the players still to play this board
    unseen = 0
    my_team = team_of(seat, n)
    for k in range(N_KINDS):
        st[O_UNSEEN + k] = deck_k[k] - st[hc_at(0, seat, k)] - st[hc_at(1, seat, k)]
    for c in range(N_CORNERS):
        if st[O_TCARD + c] >= 0:
            st[O_UNSEEN + gp_kind[st[O_TCARD + c]]] -= 1
    for k in range(N_KINDS):
        unseen += st[O_UNSEEN + k]
    best_v = -1e18
    best_k = -1
    best_c = -1
    for c in range(N_CORNERS):
        if st[O_TCARD + c] >= 0:
            continue
        # the later plays in order: each player's expected best on the corners left, then she is taken
        # to use the corner a random unseen card scores most on
        adj = 0.0
        left = st[S_FREE] & ~(1 << c)
        own_left = -1  # 2 players: the corners left when its own second card is played
        for jj in range(j + 1, nplays):
            if left == 0:
                break
            r = st[O_SEQ + jj]
            if r == seat:
                own_left = left
            else:
                e = expected_best_on(st, score, lf, board, left, unseen, st[hn_at(layer, r)])
                if p == P_TEAM:
                    if team_of(r, n) == my_team:
                        adj += par[seat, PB_PARTNER] * e
                    else:
                        adj -= par[seat, PB_OPPONENT] * e
                elif team_of(r, n) != my_team:  # blocker: the next opponent only
                    adj -= par[seat, PB_BLOCK] * e
                    break
            left &= ~(1 << likeliest_corner(st, score, board, left))
        for k in range(N_KINDS):
            if not (may >> k) & 1:
                continue
            v = score[board, c, k] + adj
            if own_left > 0 and p == P_TEAM:  # its own second card (known) on the corners left then
                bo = 0
                for k2 in range(N_KINDS):
                    if st[hc_at(layer, seat, k2)] - (1 if k2 == k else 0) > 0:
                        for c2 in range(N_CORNERS):
                            if (own_left >> c2) & 1 and score[board, c2, k2] > bo:
                                bo = score[board, c2, k2]
                v += par[seat, PB_PARTNER] * bo
            better = False
            if v > best_v + EPS:
                better = True
            elif v > best_v - EPS:
                # ties: keep the more versatile card, then leave the corners worth more to others
                if vers[k] < vers[best_k]:
                    better = True
                elif vers[k] == vers[best_k] and cval[board, c] < cval[board, best_c]:
                    better = True
            if better:
                best_v = v
                best_k = k
                best_c = c
    return best_k, best_c


@njit(cache=True, forceinline=True)
def total(st, team):
    return st[O_TPTS + team] + st[O_TEXTRA + team]


@njit(cache=True)
def choose_battle(st, pol, par, rng, chooser):
    """3 players, one eligible player: the opponent she battles (the next two seats clockwise)."""
    a = (chooser + 1) % 3
    b = (chooser + 2) % 3
    rule = np.int64(par[chooser, PB_BATTLE])
    if pol[chooser] == P_SCRIPT:  # tests: the seat to battle; -1 or none left: the leader
        mv = script_move(st, par, chooser)
        if mv >= 0:
            return mv
        rule = BATTLE_LEADER
    if rule == BATTLE_RANDOM:
        return a if below(rng, 1 + chooser, 2) == 0 else b
    ta = total(st, a)
    tb = total(st, b)
    if rule == BATTLE_LEADER:
        return b if tb > ta else a
    return b if tb < ta else a

