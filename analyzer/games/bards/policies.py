"""Battle of the Bards policies in numba.

A seat makes four kinds of decision: how to split the five cards it draws (the policy's name:
random, balanced, greedy, bait), which group to take when the opponent splits (`choose`), how to
play the cards it receives (`play`), and, for seat 1, how to deal the four setup cards (`setup`).

Every value a policy uses comes from ONE evaluation, `kv` (the keep value of a tale, see
docs/bards.md): the greedy play policy picks the move that most raises (banked points + kv of its
two tales), and the value of a group of cards for a seat is what that greedy play gains by playing
the group on the seat's current tales (`sim`, the very same decision code, `pick`, run on copies of
the tales), compared with receiving no cards. The split computes the 30 groups' values at once on a
tree of positions (`group_values`) and the chooser's expectation values the draw pile card by card
(`pile_value_sum`): both replay `pick`'s scan exactly, so they give what `sim` gives, bit for bit.

In the simulation a tale is a tuple of 10 ints (n, highest value, suits of the latest card, set
points, meme points, packed suit counts, ranks held once / twice / three times, blocked) passed by
value: the hot loops touch no arrays, so they pay no reference counting, and the small helpers are
compiled `forceinline` (LLVM inlines them: no call per helper). A function with one caller is
inlined by numba itself (`inline="always"`, marked "one caller"): numba compiles every jitted function
on its own and then again inside each caller's module, so a function that needs no entry of its own
is cheaper to compile inside its caller only. Not the largest ones (group_values, play_group): LLVM's
time grows faster than a function's size, and inlining those into `run` cost more than it saved. A conclusion that scores
meme points makes the next meme unknown: from then on the simulation counts no meme points
(`mg`, "meme gone").
"""
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from analyzer.games.bards.jitted import helper
from analyzer.games.bards.rules import C_COPY, C_EXCUSE, C_KIND, C_PACK, C_RANK, C_SUITS, C_TYPE, C_VALUE
from analyzer.games.bards.events import RS_CHOSEN, RS_END, RS_EXCUSE, RS_FORCED
from analyzer.games.bards.state import (
    CH_AT_LEAST, CH_EXPECTED, CH_RANDOM, DC_FORCED, DC_N, DC_OPTIONS, DC_REAL, DK_CHOICE, DK_PLAY, DK_SETUP, DK_SPLIT,
    I_AVOID, I_CHOOSE, I_PLAY, I_SETUP, I_SPLIT, MAXC, NO_AVOID, O_HAND, O_PILE, O_STAT, R_CHOICES,
    P_CONCLUDE_AT, P_HOPE, P_MEME_KEEP, P_SPITE, P_THRESHOLD, PL_RANDOM, S_MASK, S_MEXC, S_N, S_POS, SP_BALANCED, SP_GREEDY, SP_LOOKAHEAD, SP_RANDOM, SP_SEARCH,
    SU_RANDOM, T_BLK, T_H1, T_H2, T_H3, T_LAST, T_MP, T_MV, T_N, T_PACK, T_SET, best_suits,
    conclude, fits, meme_pts, place, tbase)
from analyzer import rng as random_streams
from analyzer.games.layout import Layout

RECOVER = 0.3     # share of set points a tale that has lost the audience is still worth kept open
E0_FACTOR = 1.0   # an empty tale slot is worth E0_FACTOR * hope
SLACK_CAP = 3     # at most this many further cards count towards a tale's hope
EPS = 1e-9

@helper(forceinline=True)
def below(rng, stream, n):
    """analyzer.rng.below, inlined by LLVM: numba's own inlining copied its IR into each of 11 callers."""
    return random_streams.below(rng, stream, n)


PAIRS = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], dtype=np.int64)


# =================================================================================================
# the evaluation
# =================================================================================================
@helper(forceinline=True)
def kv(n, mv, setp, mp, blk, hope, mk, cat):
    """Keep value of a tale: n cards, highest audience value mv, set points, meme points mp,
    blocked by an Excuse; parameters hope, meme_keep (mk), conclude_at (cat)."""
    if n == 0:
        return E0_FACTOR * hope
    if mv < n:
        return RECOVER * setp
    now = setp + mp
    if blk != 0 or now >= cat:
        return float(now)
    slack = mv - n
    if slack > SLACK_CAP:
        slack = SLACK_CAP
    return setp + mk * mp + hope * slack


@helper(forceinline=True)
def pop6(x):
    return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1) + ((x >> 4) & 1) + ((x >> 5) & 1)


@helper(forceinline=True)
def empty_tale():
    z = np.int64(0)
    return (z, z, z, z, z, z, z, z, z, z)


@helper(forceinline=True)
def tale_of(st, tbl, seat, slot):
    """The simulation tuple of a real tale."""
    b = tbase(seat, slot)
    n = st[b + T_N]
    ls = tbl[st[b + T_LAST], C_SUITS] if n > 0 else np.int64(0)
    return (n, st[b + T_MV], ls, st[b + T_SET], st[b + T_MP], st[b + T_PACK], st[b + T_H1],
            st[b + T_H2], st[b + T_H3], st[b + T_BLK])


@helper(forceinline=True)
def t_add(t, cs, v, r, pc, exc, mask, mexc):
    """The tale t with one more card (suits cs, value v, pairing rank r, packed suits pc, Excuse)."""
    n, mv, ls, setp, mp, pk, h1, h2, h3, blk = t
    n += 1
    if v > mv:
        mv = v
    if r >= 0:
        bit = np.int64(1) << r
        if (h1 & bit) == 0:
            h1 |= bit
        elif (h2 & bit) == 0:
            h2 |= bit
            setp += 4
        elif (h3 & bit) == 0:
            h3 |= bit
            setp += 5
    pk += pc
    if mexc != 0:
        mp = meme_pts(pk, mask, 1)
    else:
        mp += pop6(cs & mask)
    return (n, mv, cs, setp, mp, pk, h1, h2, h3, exc)


@helper(forceinline=True)
def kv_t(t, mg, hope, mk, cat):
    return kv(t[0], t[1], t[3], 0 if mg else t[4], t[9], hope, mk, cat)


@helper(forceinline=True)
def score_t(t, mg, extra, mask, mexc):
    """(points if concluded now, whether that scores meme points) with `extra` named suits."""
    holds = t[1] >= t[0]
    if mg:
        mp = meme_pts(t[5], 0, extra) if extra > 0 else 0
    elif extra > 0:
        mp = meme_pts(t[5], mask, extra + mexc)
    else:
        mp = t[4]
    if not holds:
        return 0, False
    return t[3] + mp, mp > 0


@helper(forceinline=True)
def cgain_t(t, o, mg, extra, mask, mexc, hope, mk, cat):
    """Gain in value of concluding tale t (the other tale is o); returns (gain, mg after)."""
    now, sm = score_t(t, mg, extra, mask, mexc)
    gain = now + E0_FACTOR * hope - kv_t(t, mg, hope, mk, cat)
    mg2 = mg
    if sm and not mg:
        mg2 = True
        if o[0] > 0:
            gain += kv_t(o, True, hope, mk, cat) - kv_t(o, False, hope, mk, cat)
    return gain, mg2


@helper(forceinline=True)
def best_vol_t(t0, t1, mg, mask, mexc, hope, mk, cat):
    """The tale whose conclusion gains most, if that gain is positive; else -1."""
    bt = -1
    bg = EPS
    if t0[0] > 0:
        g, _ = cgain_t(t0, t1, mg, 0, mask, mexc, hope, mk, cat)
        if g > bg:
            bg = g
            bt = 0
    if t1[0] > 0:
        g, _ = cgain_t(t1, t0, mg, 0, mask, mexc, hope, mk, cat)
        if g > bg:
            bt = 1
    return bt


@helper()
def best_exc_t(t0, t1, mg, mask, mexc, hope, mk, cat):
    """Which tale to conclude right after playing the Excuse (one suit named); (tale, gain)."""
    bt = -1
    bg = -1e18
    if t0[0] > 0:
        g, _ = cgain_t(t0, t1, mg, 1, mask, mexc, hope, mk, cat)
        if g > bg + EPS:
            bg = g
            bt = 0
    if t1[0] > 0:
        g, _ = cgain_t(t1, t0, mg, 1, mask, mexc, hope, mk, cat)
        if g > bg + EPS:
            bg = g
            bt = 1
    return bt, bg


@helper()
def excuse_delta(t0, t1, pre, slot, cs, v, r, pc, mg1, mask, mexc, hope, mk, cat):
    """(legal, value change) of placing the Excuse on `slot` after concluding `pre` (its gain not
    counted) and concluding the best tale right after."""
    if pre == 0:
        t0 = empty_tale()
    elif pre == 1:
        t1 = empty_tale()
    me = 0 if mg1 else mask
    mx = 0 if mg1 else mexc
    if slot == 0:
        if t0[0] > 0 and t0[9] != 0:
            return False, 0.0
        old = kv_t(t0, mg1, hope, mk, cat)
        t0 = t_add(t0, cs, v, r, pc, 1, me, mx)
        d = kv_t(t0, mg1, hope, mk, cat) - old
    else:
        if t1[0] > 0 and t1[9] != 0:
            return False, 0.0
        old = kv_t(t1, mg1, hope, mk, cat)
        t1 = t_add(t1, cs, v, r, pc, 1, me, mx)
        d = kv_t(t1, mg1, hope, mk, cat) - old
    _, g = best_exc_t(t0, t1, mg1, mask, mexc, hope, mk, cat)
    return True, d + g


@helper(forceinline=True)
def on_tale(t, kt, cs, v, r, pc, m, mask, mexc, hope, mk, cat):
    """Value change of adding a non-Excuse card to the open tale t (keep value kt), meme gone or not
    (m); the caller has checked that it fits."""
    nt = t_add(t, cs, v, r, pc, 0, 0 if m else mask, 0 if m else mexc)
    return kv_t(nt, m, hope, mk, cat) - kt


@helper(forceinline=True)
def pos_values(t0, t1, mg, mask, mexc, hope, mk, cat):
    """A position's keep values and conclusion gains, computed once for all their uses: (k, gains)
    with k = kv_t of tale 0 and tale 1, meme known (f) and gone (t): (k0f, k0t, k1f, k1t), and gains
    = (g0, g1, mga, mgb) as cgain_t gives them. Only the keep values that something reads are
    computed (the others are 0.0): the meme-gone ones if the meme is gone, or for a tale whose
    keep value changes when concluding the other one scores meme points (cgain_t, move_values)."""
    o0 = t0[0] > 0
    o1 = t1[0] > 0
    n0 = 0
    s0 = False
    n1 = 0
    s1 = False
    if o0:
        n0, s0 = score_t(t0, mg, 0, mask, mexc)
    if o1:
        n1, s1 = score_t(t1, mg, 0, mask, mexc)
    k0f = 0.0
    k0t = 0.0
    k1f = 0.0
    k1t = 0.0
    if mg:
        k0t = kv_t(t0, True, hope, mk, cat)
        k1t = kv_t(t1, True, hope, mk, cat)
    else:
        k0f = kv_t(t0, False, hope, mk, cat)
        k1f = kv_t(t1, False, hope, mk, cat)
        if s1 and o0:
            k0t = kv_t(t0, True, hope, mk, cat)
        if s0 and o1:
            k1t = kv_t(t1, True, hope, mk, cat)
    g0 = 0.0
    g1 = 0.0
    mga = mg
    mgb = mg
    if o0:  # (cgain_t)
        g0 = n0 + E0_FACTOR * hope - (k0t if mg else k0f)
        if s0 and not mg:
            mga = True
            if o1:
                g0 += k1t - k1f
    if o1:
        g1 = n1 + E0_FACTOR * hope - (k1t if mg else k1f)
        if s1 and not mg:
            mgb = True
            if o0:
                g1 += k0t - k0f
    return (k0f, k0t, k1f, k1t), (g0, g1, mga, mgb)


@helper(forceinline=True)
def card_news(cs, v, r, pc, mask, mexc, hope, mk, cat):
    """move_values' change in value of a card starting a tale, meme known (nf) and gone (ntg): the
    same in every position."""
    e0 = E0_FACTOR * hope
    nf = kv_t(t_add(empty_tale(), cs, v, r, pc, 0, mask, mexc), False, hope, mk, cat) - e0
    ntg = kv_t(t_add(empty_tale(), cs, v, r, pc, 0, 0, 0), True, hope, mk, cat) - e0
    return nf, ntg


@helper()
def pick(t0, t1, avail, used, mg, tbl, cards, mask, mexc, hope, mk, cat):
    """The greedy move among the cards i with bit i of avail and not of used (cards[i], attributes
    in tbl): (card index, tale to conclude first or -1, tale to play on).

    Moves considered: conclude nothing, tale 0 or tale 1 first, then play on tale 0 or tale 1 (an
    empty or just concluded slot starts a new tale); value = gain of the conclusion + change in the
    played tale's keep value (`move_values`). Ties go to the first found (card order, then -1/0/1,
    then slot)."""
    kp, gains = pos_values(t0, t1, mg, mask, mexc, hope, mk, cat)
    g0, g1, mga, mgb = gains
    best = -1e18
    bi = -1
    bk = -1
    for i in range(5):
        if ((avail >> i) & 1) == 0 or ((used >> i) & 1) != 0:
            continue
        c = cards[i]  # (array loads: indexing a tuple by a variable is a jump table)
        nf, ntg = card_news(tbl[c, C_SUITS], tbl[c, C_VALUE], tbl[c, C_RANK], tbl[c, C_PACK], mask, mexc, hope, mk,
                            cat)
        x = move_values(t0, t1, mg, g0, g1, mga, mgb, kp, nf, ntg, tbl[c, C_SUITS], tbl[c, C_VALUE], tbl[c, C_RANK],
                        tbl[c, C_PACK], tbl[c, C_EXCUSE], mask, mexc, hope, mk, cat)
        for k in range(6):
            if x[k] > best + EPS:
                best = x[k]
                bi = i
                bk = k
    return bi, bk // 2 - 1, bk % 2


@helper(forceinline=True)
def vol_t(t0, t1, mg, mask, mexc, hope, mk, cat):
    """Make every conclusion that raises the value; returns (t0, t1, mg, points banked, k, gains), k and
    gains: the final position's pos_values (a pick from there needs them)."""
    banked = 0
    while True:
        k, gains = pos_values(t0, t1, mg, mask, mexc, hope, mk, cat)
        g0, g1, _, _ = gains
        bt = -1  # (best_vol_t, from the gains pos_values gives)
        bg = EPS
        if t0[0] > 0 and g0 > bg:
            bg = g0
            bt = 0
        if t1[0] > 0 and g1 > bg:
            bt = 1
        if bt < 0:
            break
        if bt == 0:
            p, sm = score_t(t0, mg, 0, mask, mexc)
            t0 = empty_tale()
        else:
            p, sm = score_t(t1, mg, 0, mask, mexc)
            t1 = empty_tale()
        banked += p
        mg = mg or sm
    return t0, t1, mg, banked, k, gains


@helper(forceinline=True)
def apply_move(t0, t1, mg, banked, pre, slot, cs, v, r, pc, ex, mask, mexc, hope, mk, cat):
    """One step of `sim` after `pick`: (t0, t1, mg, banked) once the move is played, with that
    position's keep values (pos_values) and conclusion gains."""
    if pre == 0:
        p, sm = score_t(t0, mg, 0, mask, mexc)
        t0 = empty_tale()
        banked += p
        mg = mg or sm
    elif pre == 1:
        p, sm = score_t(t1, mg, 0, mask, mexc)
        t1 = empty_tale()
        banked += p
        mg = mg or sm
    me = 0 if mg else mask
    mx = 0 if mg else mexc
    if slot == 0:
        t0 = t_add(t0, cs, v, r, pc, ex, me, mx)
    else:
        t1 = t_add(t1, cs, v, r, pc, ex, me, mx)
    if ex != 0:
        e, _ = best_exc_t(t0, t1, mg, mask, mexc, hope, mk, cat)
        if e == 0:
            p, sm = score_t(t0, mg, 1, mask, mexc)
            t0 = empty_tale()
        else:
            p, sm = score_t(t1, mg, 1, mask, mexc)
            t1 = empty_tale()
        banked += p
        mg = mg or sm
    t0, t1, mg, p, k, gains = vol_t(t0, t1, mg, mask, mexc, hope, mk, cat)
    return t0, t1, mg, banked + p, k, gains


# -------------------------------------------------------------------------------------------------
# the same greedy play, shared between groups: `sim` replayed depth first over the positions it reaches
# -------------------------------------------------------------------------------------------------
# The value of each of the 30 groups of a hand is what `sim` returns for it. Every step of `sim` is
# `pick` (a scan over the group's cards and their moves, keeping the first strictly better value)
# followed by playing the chosen move; the values of one card's moves depend only on the position
# (the two tales and whether the meme is gone), not on the other cards of the group. So the
# positions reached are nodes of a tree: a node is reached by the cards played so far (U) and holds
# the groups through it as a family (bit R set: a group of U plus the cards R, still to play); its
# cards' move values are computed once, each group's next move is pick's over its own cards R, and the
# groups making the same move (card, move) go on together to one child. A group whose last card is
# played there ends at the child (the family's bit 0). The results are those of `sim`, bit for bit.
# Usually a node's scan is an argmax: when every card's six values are apart (card_top) and the
# cards' best values are equal or more than 4 EPS apart, `pick` over any subset of the cards takes
# the card with the highest best value (the first one on a tie). Then a node whose family is every
# subset of its cards S sends to the child of each card c of S the subsets of the cards ranking below
# c (no scan per group); so does a node whose family lacks only S itself (the root: the whole hand is not a
# group, nor then is the top card's child's S), its top card's child lacking its S in turn. The tree is walked
# depth first: only the nodes on the path to the one being expanded are kept (the rows of `ni`), at most one
# per card played, so a group's cards are at most 4.
ALL_GROUPS = (1 << 31) - 2  # group_values' `want`: every group m = 1..30
DEPTHS = 4  # nodes on the path: 0..3 cards played (a node with groups still to play has played at most 3)
HAND_ROW = DEPTHS  # ni: the five cards' attributes (CARD_ATTRS each); nf: their card_news (2 each)
SCAN_ROW = DEPTHS + 1  # the node being expanded: nf its cards' move values and best values; ni their best moves
NODES = DEPTHS + 2
N_KEYS = 30  # a child's key: 6 * card + move ((pre + 1) * 2 + slot)
GV = Layout("Battle of the Bards' group values, a row of ni per node on the path (policies.group_values)", [
    ("GV_T0", 10, "the node's tale 0 (a simulation tuple)"),
    ("GV_T1", 10, "its tale 1"),
    ("GV_MG", 1, "1 if the meme is gone"),
    ("GV_BANK", 1, "points banked on the way"),
    ("GV_U", 1, "the cards played (a bitmask over the hand)"),
    ("GV_PEND", 1, "the children still to play, a bit per key"),
    ("GV_FAM", N_KEYS, "per key: the family of the groups that go on to that child (bit R: R the cards still to "
                       "play after it; bit 0: the group ends there)"),
    ("GV_LEFT", N_KEYS, "per key: the cards those groups still play (the union of the family)"),
], size_name="GV_WIDTH")
GV.define(globals())
CARD_ATTRS = 5  # a card's suits, value, rank, packed suits, Excuse (HAND_ROW)
SCAN_TOP = 6 * 5  # nf[SCAN_ROW]: 6 move values per card, then each card's best value
SCAN_SEP = 5  # ni[SCAN_ROW]: each card's best move, then whether its six values are apart
N_NI = max(GV_WIDTH, 5 * CARD_ATTRS, SCAN_SEP + 5)
N_NF = SCAN_TOP + 5
# DOWN[s]: a family's bitmask with bit r set for every subset r of the cards s, the empty one too
DOWN = np.array([sum(1 << r for r in range(32) if r & ~s == 0) for s in range(32)], dtype=np.int64)


@helper(forceinline=True)
def move_values(t0, t1, mg, g0, g1, mga, mgb, kp, nf, ntg, cs, v, r, pc, ex, mask, mexc, hope, mk, cat):
    """The values `pick` gives one card's six moves (index (pre + 1) * 2 + slot; -inf: not a move)
    in position (t0, t1, mg), with the conclusion gains g0, g1, meme-gone flags mga, mgb, keep
    values kp (pos_values) and the card's card_news nf, ntg."""
    neg = -np.inf
    x0 = x1 = x2 = x3 = x4 = x5 = neg
    o0 = t0[0] > 0
    o1 = t1[0] > 0
    if ex != 0:
        for k in range(6):  # one call site: excuse_delta is inlined once, not six times
            pre = k // 2 - 1
            if (pre == 0 and not o0) or (pre == 1 and not o1):
                continue
            ok, d = excuse_delta(t0, t1, pre, k % 2, cs, v, r, pc, mg if pre < 0 else (mga if pre == 0 else mgb),
                                 mask, mexc, hope, mk, cat)
            if ok:
                d += 0.0 if pre < 0 else (g0 if pre == 0 else g1)
                if k == 0:
                    x0 = d
                elif k == 1:
                    x1 = d
                elif k == 2:
                    x2 = d
                elif k == 3:
                    x3 = d
                elif k == 4:
                    x4 = d
                else:
                    x5 = d
        return x0, x1, x2, x3, x4, x5
    f0 = t0[2] if (o0 and t0[9] == 0) else np.int64(0)
    f1 = t1[2] if (o1 and t1[9] == 0) else np.int64(0)
    fit0 = (cs & f0) != 0
    fit1 = (cs & f1) != 0
    p0f = on_tale(t0, kp[0], cs, v, r, pc, False, mask, mexc, hope, mk, cat) if (fit0 and not mg) else 0.0
    p0t = on_tale(t0, kp[1], cs, v, r, pc, True, mask, mexc, hope, mk, cat) if (fit0 and (mg or mgb)) else 0.0
    p1f = on_tale(t1, kp[2], cs, v, r, pc, False, mask, mexc, hope, mk, cat) if (fit1 and not mg) else 0.0
    p1t = on_tale(t1, kp[3], cs, v, r, pc, True, mask, mexc, hope, mk, cat) if (fit1 and (mg or mga)) else 0.0
    # conclude nothing first
    new = ntg if mg else nf
    if not o0:
        x0 = new + 0.0
    elif fit0:
        x0 = (p0t if mg else p0f) + 0.0
    if not o1:
        x1 = new + 0.0
    elif fit1:
        x1 = (p1t if mg else p1f) + 0.0
    # conclude tale 0 first
    if o0:
        new = ntg if mga else nf
        x2 = new + g0
        if not o1:
            x3 = new + g0
        elif fit1:
            x3 = (p1t if mga else p1f) + g0
    # conclude tale 1 first
    if o1:
        new = ntg if mgb else nf
        if not o0:
            x4 = new + g1
        elif fit0:
            x4 = (p0t if mgb else p0f) + g1
        x5 = new + g1
    return x0, x1, x2, x3, x4, x5


@helper(forceinline=True)
def card_top(x):
    """A card's six move values x as pick scans them: (top value, first move with it, whether they are
    apart). Apart: every value is the top or more than 4 EPS below it. Then, from any best value so
    far, pick's scan of the six (keep the first that beats the best by EPS) ends on the top move if
    the top value beats the best by EPS (any value it takes before is below the top by more than
    EPS), and keeps the best otherwise: one comparison instead of a chain of six."""
    top = x[0]
    tk = 0
    for k in range(1, 6):
        if x[k] > top:
            top = x[k]
            tk = k
    apart = True
    for k in range(6):
        gap = top - x[k]  # (+inf for a move that is not one)
        if gap != 0.0 and gap <= 4 * EPS:
            apart = False
    return top, tk, apart


@helper(forceinline=True)
def row_tale(ni, n, b):
    return (ni[n, b], ni[n, b + 1], ni[n, b + 2], ni[n, b + 3], ni[n, b + 4], ni[n, b + 5], ni[n, b + 6],
            ni[n, b + 7], ni[n, b + 8], ni[n, b + 9])


@helper(forceinline=True)
def node_fin(banked, mg, k, v0):
    """The value of a group whose play ends in this position (banked points, meme gone, keep values k)."""
    return banked + (k[1] if mg else k[0]) + (k[3] if mg else k[2]) - v0


@helper()
def base_tales(st, tbl, seat, pr):
    """The seat's tales after the conclusions greedy play makes before any card (the same for
    every group, so group values start from here)."""
    t0 = tale_of(st, tbl, seat, 0)
    t1 = tale_of(st, tbl, seat, 1)
    t0, t1, _, _, _, _ = vol_t(t0, t1, False, st[S_MASK], st[S_MEXC], pr[P_HOPE], pr[P_MEME_KEEP],
                               pr[P_CONCLUDE_AT])
    return t0, t1


@helper()
def group_values(st, tbl, seat, hand, pr, vals, want, ni, nf):
    """vals[m] = value for `seat` of the cards of hand[0..4] in bitmask m, m in `want` (1..30): `sim`
    of each group, depth first over the tree of positions (ni, nf: scratch of NODES rows, see above)."""
    t0, t1 = base_tales(st, tbl, seat, pr)
    mask = st[S_MASK]
    mexc = st[S_MEXC]
    hope = pr[P_HOPE]
    mk = pr[P_MEME_KEEP]
    cat = pr[P_CONCLUDE_AT]
    k, gains = pos_values(t0, t1, False, mask, mexc, hope, mk, cat)
    v0 = k[0] + k[2]
    # the cards' attributes and card_news (loads: indexing a tuple by a variable is a jump table)
    for i in range(5):
        c = hand[i]
        ni[HAND_ROW, CARD_ATTRS * i] = tbl[c, C_SUITS]
        ni[HAND_ROW, CARD_ATTRS * i + 1] = tbl[c, C_VALUE]
        ni[HAND_ROW, CARD_ATTRS * i + 2] = tbl[c, C_RANK]
        ni[HAND_ROW, CARD_ATTRS * i + 3] = tbl[c, C_PACK]
        ni[HAND_ROW, CARD_ATTRS * i + 4] = tbl[c, C_EXCUSE]
        a, b = card_news(tbl[c, C_SUITS], tbl[c, C_VALUE], tbl[c, C_RANK], tbl[c, C_PACK], mask, mexc, hope, mk, cat)
        nf[HAND_ROW, 2 * i] = a
        nf[HAND_ROW, 2 * i + 1] = b
    vals[0] = 0.0
    vals[31] = 0.0
    fam = want & ALL_GROUPS  # the root's family: the groups wanted
    s = np.int64(0)
    r = fam
    while r != 0:
        s |= trailing_zeros(r)
        r &= r - 1
    if fam == 0:
        return
    depth = 0
    mg = False
    banked = np.int64(0)
    u = np.int64(0)
    expand = True
    while True:
        if expand:  # the node (t0, t1, mg, banked) at `depth`, its groups `fam` playing cards `s`
            g0, g1, mga, mgb = gains
            argmax = True
            rs = s
            while rs != 0:  # (one place, so that move_values is inlined once)
                i = trailing_zeros(rs)
                rs &= rs - 1
                x = move_values(t0, t1, mg, g0, g1, mga, mgb, k, nf[HAND_ROW, 2 * i], nf[HAND_ROW, 2 * i + 1],
                                ni[HAND_ROW, CARD_ATTRS * i], ni[HAND_ROW, CARD_ATTRS * i + 1],
                                ni[HAND_ROW, CARD_ATTRS * i + 2], ni[HAND_ROW, CARD_ATTRS * i + 3],
                                ni[HAND_ROW, CARD_ATTRS * i + 4], mask, mexc, hope, mk, cat)
                top, tk, apart = card_top(x)
                if not apart:  # (pick's scan reads the six values of such a card only)
                    for j in range(6):
                        nf[SCAN_ROW, 6 * i + j] = x[j]
                    argmax = False
                nf[SCAN_ROW, SCAN_TOP + i] = top
                ni[SCAN_ROW, i] = tk
                ni[SCAN_ROW, SCAN_SEP + i] = 1 if apart else 0
            # lower: bits 5c..5c+4 = the cards of s ranking below card c (a lower best value, or equal and later)
            lower = np.int64(0)
            if argmax:
                ri = s
                while ri != 0:
                    i = trailing_zeros(ri)
                    ri &= ri - 1
                    ti = nf[SCAN_ROW, SCAN_TOP + i]
                    rj = ri
                    while rj != 0:
                        j = trailing_zeros(rj)
                        rj &= rj - 1
                        tj = nf[SCAN_ROW, SCAN_TOP + j]
                        gap = abs(ti - tj)
                        if gap != 0.0 and gap <= 4 * EPS:
                            argmax = False
                        if tj <= ti:
                            lower |= np.int64(1) << (5 * i + j)
                        else:
                            lower |= np.int64(1) << (5 * j + i)
            for j in range(10):
                ni[depth, GV_T0 + j] = t0[j]
                ni[depth, GV_T1 + j] = t1[j]
            ni[depth, GV_MG] = 1 if mg else 0
            ni[depth, GV_BANK] = banked
            ni[depth, GV_U] = u
            pend = np.int64(0)
            full = DOWN[s] & ~np.int64(1)
            if argmax and (fam | (np.int64(1) << s)) == full:  # every subset of s (but s itself perhaps): no scan
                nofull = ((fam >> s) & 1) == 0
                rc = s
                while rc != 0:
                    c = trailing_zeros(rc)
                    rc &= rc - 1
                    key = 6 * c + ni[SCAN_ROW, c]
                    below = (lower >> (5 * c)) & 31
                    f = DOWN[below]
                    if nofull and below == s & ~(np.int64(1) << c):  # c is the top card: s's own group is not wanted
                        f &= ~(np.int64(1) << below)
                        if f == 0:
                            continue
                    ni[depth, GV_FAM + key] = f
                    ni[depth, GV_LEFT + key] = below
                    pend |= np.int64(1) << key
            else:  # pick's scan for each group through the node: the first strictly better (by EPS) move,
                r = fam  # cards in order, then moves in order
                while r != 0:
                    g = trailing_zeros(r)
                    r &= r - 1
                    best = -1e18
                    bi = 0
                    bk = 0
                    for i in range(5):
                        if ((g >> i) & 1) == 0:
                            continue
                        if ni[SCAN_ROW, SCAN_SEP + i] != 0:  # card_top gives the outcome of the card's six at once
                            if nf[SCAN_ROW, SCAN_TOP + i] > best + EPS:
                                best = nf[SCAN_ROW, SCAN_TOP + i]
                                bi = i
                                bk = ni[SCAN_ROW, i]
                            continue
                        for j in range(6):
                            d = nf[SCAN_ROW, 6 * i + j]
                            if d > best + EPS:
                                best = d
                                bi = i
                                bk = j
                    key = 6 * bi + bk
                    rest = g & ~(np.int64(1) << bi)
                    if ((pend >> key) & 1) == 0:
                        pend |= np.int64(1) << key
                        ni[depth, GV_FAM + key] = 0
                        ni[depth, GV_LEFT + key] = 0
                    ni[depth, GV_FAM + key] |= np.int64(1) << rest
                    ni[depth, GV_LEFT + key] |= rest
            ni[depth, GV_PEND] = pend
        # the next child: of the deepest node on the path with children left
        pend = ni[depth, GV_PEND]
        while pend == 0:
            if depth == 0:
                return
            depth -= 1
            pend = ni[depth, GV_PEND]
        key = trailing_zeros(pend)
        ni[depth, GV_PEND] = pend & (pend - 1)
        c = key // 6
        move = key - 6 * c
        t0, t1, mg, banked, k, gains = apply_move(
            row_tale(ni, depth, GV_T0), row_tale(ni, depth, GV_T1), ni[depth, GV_MG] != 0, ni[depth, GV_BANK],
            move // 2 - 1, move % 2, ni[HAND_ROW, CARD_ATTRS * c], ni[HAND_ROW, CARD_ATTRS * c + 1],
            ni[HAND_ROW, CARD_ATTRS * c + 2], ni[HAND_ROW, CARD_ATTRS * c + 3], ni[HAND_ROW, CARD_ATTRS * c + 4], mask,
            mexc, hope, mk, cat)
        f = ni[depth, GV_FAM + key]
        u = ni[depth, GV_U] | (np.int64(1) << c)
        if (f & 1) != 0:
            vals[u] = node_fin(banked, mg, k, v0)
        fam = f & ~np.int64(1)
        expand = fam != 0
        if expand:
            s = ni[depth, GV_LEFT + key]
            depth += 1


# the per-turn cache (engine: `cache`, N_CACHE entries, the first N_CACHE_TURN reset every turn):
# [0..3] pile_value_sum of (seat, owner of the parameters), [4..7] their filled flags, [C_GV] 1 when
# split_decide's vs / vc hold this turn's group values; from C_PV, scratch per card type.
C_GV = 8
N_CACHE_TURN = 9
C_PV = 9
N_CACHE = C_PV + MAXC


@helper()
def same_values(pflt, a, b):
    """Do seats a and b value groups alike (the parameters `kv` uses are equal)?"""
    return (pflt[a, P_HOPE] == pflt[b, P_HOPE] and pflt[a, P_MEME_KEEP] == pflt[b, P_MEME_KEEP]
            and pflt[a, P_CONCLUDE_AT] == pflt[b, P_CONCLUDE_AT])


@helper()
def pile_sum_cached(st, tbl, seat, owner, pflt, cache):
    """pile_value_sum for `seat` with the parameters of seat `owner`, computed once per turn
    (cache[0..3] values, cache[4..7] filled flags; seats that value alike share)."""
    o = 0 if same_values(pflt, 0, 1) else owner
    k = seat * 2 + o
    if cache[4 + k] == 0.0:
        cache[k] = pile_value_sum(st, tbl, seat, pflt[o], cache)
        cache[4 + k] = 1.0
    return cache[k]


@helper(inline="always")  # one caller
def pile_value_sum(st, tbl, seat, pr, cache):
    """Sum over the cards left in the draw pile of their value for `seat` as one-card groups
    (`sim` of each card, sharing the work that does not depend on the card; with a double deck
    the two copies of a card are worth the same: cache[C_PV + type] holds a type's value)."""
    t0, t1 = base_tales(st, tbl, seat, pr)
    mask = st[S_MASK]
    mexc = st[S_MEXC]
    hope = pr[P_HOPE]
    mk = pr[P_MEME_KEEP]
    cat = pr[P_CONCLUDE_AT]
    kp, gains = pos_values(t0, t1, False, mask, mexc, hope, mk, cat)
    v0 = kp[0] + kp[2]
    g0, g1, mga, mgb = gains
    n = st[S_N]
    dbl = tbl[n - 1, C_COPY] != 0
    if dbl:
        for ty in range(n // 2):
            cache[C_PV + ty] = np.nan
    total = 0.0
    for p in range(st[S_POS], n):
        c = st[O_PILE + p]
        ty = tbl[c, C_TYPE]
        if dbl and cache[C_PV + ty] == cache[C_PV + ty]:
            total += cache[C_PV + ty]
            continue
        cs = tbl[c, C_SUITS]
        v = tbl[c, C_VALUE]
        r = tbl[c, C_RANK]
        pc = tbl[c, C_PACK]
        ex = tbl[c, C_EXCUSE]
        nfc, ntg = card_news(cs, v, r, pc, mask, mexc, hope, mk, cat)
        x = move_values(t0, t1, False, g0, g1, mga, mgb, kp, nfc, ntg, cs, v, r, pc, ex, mask, mexc, hope, mk, cat)
        best = -1e18
        bk = -1
        for k in range(6):
            if x[k] > best + EPS:
                best = x[k]
                bk = k
        a0, a1, amg, ab, ak, _ = apply_move(t0, t1, False, np.int64(0), bk // 2 - 1, bk % 2, cs, v, r, pc, ex,
                                            mask, mexc, hope, mk, cat)
        val = node_fin(ab, amg, ak, v0)
        if dbl:
            cache[C_PV + ty] = val
        total += val
    return total


# =================================================================================================
# conclusions with named suits, and playing a group
# =================================================================================================
@njit(cache=True)
def do_conclude(st, tbl, seat, slot, reason, excuse, pint, rng, tr, on):
    """Conclude with the suits the policy names: after the Excuse (excuse=1) and/or because the
    meme is the Excuse. Greedy names the suits the tale holds most of; random names any suit."""
    mexc = st[S_MEXC]
    ne = -1
    nm = -1
    if excuse != 0 or mexc != 0:
        if pint[seat, I_PLAY] == PL_RANDOM:
            if mexc != 0:
                nm = below(rng, 1 + seat, 6)
            if excuse != 0:
                ne = below(rng, 1 + seat, 6)
        else:
            s1, s2 = best_suits(st[tbase(seat, slot) + T_PACK], st[S_MASK])
            if mexc != 0:
                nm = s1
                if excuse != 0:
                    ne = s2
            else:
                ne = s1
    return conclude(st, tbl, seat, slot, reason, ne, nm, tr, on)


@helper()
def voluntary_real(st, tbl, seat, pint, pr, rng, tr, on):
    """Make every conclusion that raises the value (before and after each card)."""
    while True:
        t0 = tale_of(st, tbl, seat, 0)
        t1 = tale_of(st, tbl, seat, 1)
        t = best_vol_t(t0, t1, False, st[S_MASK], st[S_MEXC], pr[P_HOPE], pr[P_MEME_KEEP],
                       pr[P_CONCLUDE_AT])
        if t < 0:
            break
        do_conclude(st, tbl, seat, t, RS_CHOSEN, 0, pint, rng, tr, on)


@helper(inline="always")  # one caller
def play_greedy(st, tbl, seat, cards, k, pint, pr, rng, tr, on, counts):
    """Play cards[:k] for seat: order, placements and conclusions by `pick` (as `sim` does); a seat that avoids a
    kind of card picks among its other cards while it has any. Each play is counted unless counts is None."""
    hope = pr[P_HOPE]
    mk = pr[P_MEME_KEEP]
    cat = pr[P_CONCLUDE_AT]
    avail = (1 << k) - 1
    avoided = kind_mask(tbl, cards, k, pint[seat, I_AVOID]) if pint[seat, I_AVOID] != NO_AVOID else 0
    voluntary_real(st, tbl, seat, pint, pr, rng, tr, on)
    used = 0
    while used != avail:
        if counts is not None:
            count_play(st, tbl, seat, cards, avail & ~used, pr)
        skip = used  # (pick's `used`: the cards it does not consider)
        if avoided != 0 and (avail & ~used & ~avoided) != 0:
            skip = used | avoided
        t0 = tale_of(st, tbl, seat, 0)
        t1 = tale_of(st, tbl, seat, 1)
        i, pre, slot = pick(t0, t1, avail, skip, False, tbl, cards, st[S_MASK], st[S_MEXC],
                            hope, mk, cat)
        used |= 1 << i
        c = cards[i]
        if pre >= 0:
            forced = not (fits(st, tbl, seat, 0, c) or fits(st, tbl, seat, 1, c))
            do_conclude(st, tbl, seat, pre, RS_FORCED if forced else RS_CHOSEN, 0, pint, rng, tr, on)
        place(st, tbl, seat, slot, c, 0, tr, on)
        if tbl[c, C_EXCUSE] != 0:
            t0 = tale_of(st, tbl, seat, 0)
            t1 = tale_of(st, tbl, seat, 1)
            e, _ = best_exc_t(t0, t1, False, st[S_MASK], st[S_MEXC], hope, mk, cat)
            do_conclude(st, tbl, seat, e, RS_EXCUSE, 1, pint, rng, tr, on)
        voluntary_real(st, tbl, seat, pint, pr, rng, tr, on)


@helper(inline="always")  # one caller
def play_random(st, tbl, seat, cards, k, pint, pr, rng, scr, tr, on, counts):
    """Play cards[:k] for seat uniformly at random: a random card next (a seat that avoids a kind of card: among
    its other cards while it has any), then a uniform choice among the legal (conclude nothing / tale 0 / tale 1
    first) x (play on tale 0 / 1) moves; after the Excuse a uniform open tale is concluded; after the last card a
    uniform choice of concluding nothing, either tale or both."""
    stream = 1 + seat
    for j in range(k):
        scr[j] = cards[j]
    nrem = k
    avoid = pint[seat, I_AVOID]
    while nrem > 0:
        if counts is not None:
            count_play(st, tbl, seat, scr, (1 << nrem) - 1, pr)
        others = nrem  # the cards left that it may play
        if avoid != NO_AVOID:
            others = nrem - pop6(kind_mask(tbl, scr, nrem, avoid))
        if others == 0 or others == nrem:
            j = below(rng, stream, nrem)
        else:  # the j-th card left not of the avoided kind
            j = nth_bit(((1 << nrem) - 1) & ~kind_mask(tbl, scr, nrem, avoid), below(rng, stream, others))
        c = scr[j]
        scr[j] = scr[nrem - 1]
        nrem -= 1
        no = 0
        free = False
        for pre in range(-1, 2):
            if pre >= 0 and st[tbase(seat, pre) + T_N] == 0:
                continue
            for slot in range(2):
                if slot == pre or fits(st, tbl, seat, slot, c):
                    scr[8 + no] = (pre + 1) * 2 + slot
                    no += 1
                    if pre < 0:
                        free = True
        o = scr[8 + below(rng, stream, no)]
        pre = o // 2 - 1
        slot = o % 2
        if pre >= 0:
            do_conclude(st, tbl, seat, pre, RS_CHOSEN if free else RS_FORCED, 0, pint, rng, tr, on)
        place(st, tbl, seat, slot, c, 0, tr, on)
        if tbl[c, C_EXCUSE] != 0:
            o0 = st[tbase(seat, 0) + T_N] > 0
            o1 = st[tbase(seat, 1) + T_N] > 0
            t = 0 if o0 else 1
            if o0 and o1:
                t = below(rng, stream, 2)
            do_conclude(st, tbl, seat, t, RS_EXCUSE, 1, pint, rng, tr, on)
    o0 = st[tbase(seat, 0) + T_N] > 0
    o1 = st[tbase(seat, 1) + T_N] > 0
    nopt = 1 + (1 if o0 else 0) + (1 if o1 else 0) + (1 if (o0 and o1) else 0)
    x = below(rng, stream, nopt)
    if x == 0:
        return
    if o0 and o1:
        if x == 1 or x == 3:
            do_conclude(st, tbl, seat, 0, RS_CHOSEN, 0, pint, rng, tr, on)
        if x == 2 or x == 3:
            do_conclude(st, tbl, seat, 1, RS_CHOSEN, 0, pint, rng, tr, on)
    else:
        do_conclude(st, tbl, seat, 0 if o0 else 1, RS_CHOSEN, 0, pint, rng, tr, on)


@njit(cache=True)
def play_group(st, tbl, seat, cards, k, pint, pflt, rng, scr, tr, on, counts):
    """Play cards[:k] for seat by its play policy, each play counted unless counts is None (engine.count_scratch:
    the counting is compiled only for an array there)."""
    if pint[seat, I_PLAY] == PL_RANDOM:
        play_random(st, tbl, seat, cards, k, pint, pflt[seat], rng, scr, tr, on, counts)
    else:
        play_greedy(st, tbl, seat, cards, k, pint, pflt[seat], rng, tr, on, counts)


# =================================================================================================
# restricted play (`avoid`) and the decision counts (`analyzer profile`, issue 32; docs/bards.md, "Profile")
# =================================================================================================
ALL_PAIRS = (1 << 6) - 1  # every pair of PAIRS (a bit per pair)
MARGIN = 1.0  # a decision is real when its best option beats the second best by more than this (points)


@helper(forceinline=True)
def kind_mask(tbl, cards, k, kind):
    """The cards of cards[:k] (at most 5) of kind `kind` (rules.CARD_KINDS), a bit each."""
    m = 0
    for i in range(k):
        if tbl[cards[i], C_KIND] == kind:
            m |= 1 << i
    return m


@helper(forceinline=True)
def nth_bit(m, x):
    """The index of bit x (0: the lowest) of the bits set in m."""
    for _ in range(x):
        m &= m - 1
    return trailing_zeros(m)


@helper()
def pairs_without(tbl, d, kind):
    """The setup pairs (a bit per PAIRS row) whose two cards of d[0..3] are not of `kind`; every pair if none is."""
    km = kind_mask(tbl, d, 4, kind)
    ok = 0
    for j in range(6):
        if ((km >> PAIRS[j, 0]) & 1) == 0 and ((km >> PAIRS[j, 1]) & 1) == 0:
            ok |= 1 << j
    return ok if ok != 0 else ALL_PAIRS


@helper()
def avoided_group(tbl, hand, up, kind, take):
    """The choice of a chooser that avoids `kind`: the group without a card of that kind when only one group has
    one (1: the face-up group), else `take`, its own policy's."""
    km = kind_mask(tbl, hand, 5, kind)
    in_up = (km & up) != 0
    in_down = (km & (31 ^ up)) != 0
    if in_up and not in_down:
        return 0
    if in_down and not in_up:
        return 1
    return take


@helper(forceinline=True)
def top_two(best, second, v):
    """The best and second best values once v is seen too."""
    if v > best:
        return v, best
    if v > second:
        return best, v
    return best, second


@helper()
def count_decision(st, kind, options, best, second):
    """One decision of `kind` (DK_...) with `options` distinct legal options, the best and second best of their
    values, into the result row (R_CHOICES): counted, forced if one option, real if the two best are more than
    MARGIN apart."""
    b = O_STAT + R_CHOICES + kind
    st[b + DC_N] += 1
    st[b + DC_OPTIONS] += options
    if options == 1:
        st[b + DC_FORCED] += 1
    elif best - second > MARGIN:
        st[b + DC_REAL] += 1


@helper()
def same_types(tbl, hand, m1, m2):
    """Do the cards of hand in bitmasks m1 and m2 make the same multiset of card types (the same group, for the
    rules, with a double deck)?"""
    if pop6(m1) != pop6(m2):
        return False
    for i in range(5):
        if (m1 >> i) & 1:
            n1 = 0
            n2 = 0
            for j in range(5):
                if tbl[hand[j], C_TYPE] == tbl[hand[i], C_TYPE]:
                    n1 += (m1 >> j) & 1
                    n2 += (m2 >> j) & 1
            if n1 != n2:
                return False
    return True


@helper()
def count_split(st, tbl, s, pint, pflt, vs, vc, cache, ni, nf):
    """Count seat s's split of its hand (st[O_HAND..]): the distinct face-up groups (30, fewer with two cards of
    one type), valued by greedy's payoff (split_payoff) with the seat's own parameters and choose rule, whatever
    its policy. vs, vc, cache: scratch of its own (the real decisions' values and cache are left alone)."""
    hand = st[O_HAND:O_HAND + 5]
    pr = pflt[s]
    c = 1 - s
    spite = pr[P_SPITE]
    ch = pint[s, I_CHOOSE]
    group_values(st, tbl, s, hand, pr, vs, ALL_GROUPS, ni, nf)
    group_values(st, tbl, c, hand, pr, vc, ALL_GROUPS, ni, nf)
    for i in range(N_CACHE_TURN):
        cache[i] = 0.0
    sum_c = 0.0
    sum_s = 0.0
    if ch == CH_EXPECTED:
        sum_c = pile_sum_cached(st, tbl, c, s, pflt, cache)
        if spite != 0.0:
            sum_s = pile_sum_cached(st, tbl, s, s, pflt, cache)
    twins = False  # two cards of one type (a double deck)
    for i in range(5):
        for j in range(i):
            if tbl[hand[i], C_TYPE] == tbl[hand[j], C_TYPE]:
                twins = True
    options = 0
    best = -np.inf
    second = -np.inf
    for m in range(1, 31):
        seen = False
        if twins:
            for m2 in range(1, m):
                if same_types(tbl, hand, m, m2):
                    seen = True
                    break
        if not seen:
            options += 1
            value = split_payoff(m, vs, vc, ch, spite, pr[P_THRESHOLD], sum_c, sum_s, st[S_N] - st[S_POS])
            best, second = top_two(best, second, value)
    count_decision(st, DK_SPLIT, options, best, second)


@helper()
def count_choice(st, tbl, c, up, pflt, vs, vc, cache, ni, nf):
    """Count chooser c's choice of a group (up: the face-up group, a bitmask over st[O_HAND..]): two options (the
    groups differ in size), valued by the `expected` rule's two sides (choice_sides) with its own parameters,
    whatever its choose rule. vs, vc, cache: scratch of its own."""
    hand = st[O_HAND:O_HAND + 5]
    pr = pflt[c]
    want = np.int64(1) << up
    for i in range(5):
        if ((31 ^ up) >> i) & 1:
            want |= np.int64(1) << (1 << i)
    group_values(st, tbl, c, hand, pr, vc, want, ni, nf)
    if pr[P_SPITE] != 0.0:
        group_values(st, tbl, 1 - c, hand, pr, vs, want, ni, nf)
    for i in range(N_CACHE_TURN):
        cache[i] = 0.0
    take_up, take_down = choice_sides(st, tbl, c, up, pflt, cache, vs, vc)
    count_decision(st, DK_CHOICE, 2, max(take_up, take_down), min(take_up, take_down))


@helper()
def count_setup(st, tbl, d, pr):
    """Count seat 1's setup (d[0..3]: the four cards): the distinct pairs it can keep (6, fewer with two cards of
    one type), valued by setup_value with its parameters pr, whatever its setup rule."""
    options = 0
    best = -np.inf
    second = -np.inf
    for j in range(6):
        a = tbl[d[PAIRS[j, 0]], C_TYPE]
        b = tbl[d[PAIRS[j, 1]], C_TYPE]
        seen = False
        for j2 in range(j):
            a2 = tbl[d[PAIRS[j2, 0]], C_TYPE]
            b2 = tbl[d[PAIRS[j2, 1]], C_TYPE]
            if (a == a2 and b == b2) or (a == b2 and b == a2):
                seen = True
        if not seen:
            options += 1
            best, second = top_two(best, second, setup_value(st, tbl, d, j, pr))
    count_decision(st, DK_SETUP, options, best, second)


@helper(forceinline=True)
def card_moves(t0, t1, kp, gains, tbl, c, mask, mexc, hope, mk, cat):
    """pick's values of card c's six moves in position (t0, t1) (-inf: not a legal move)."""
    g0, g1, mga, mgb = gains
    cs = tbl[c, C_SUITS]
    v = tbl[c, C_VALUE]
    r = tbl[c, C_RANK]
    pc = tbl[c, C_PACK]
    nf, ntg = card_news(cs, v, r, pc, mask, mexc, hope, mk, cat)
    return move_values(t0, t1, False, g0, g1, mga, mgb, kp, nf, ntg, cs, v, r, pc, tbl[c, C_EXCUSE], mask, mexc, hope,
                       mk, cat)


@helper(forceinline=True)
def move_result(t0, t1, tbl, c, move, mask, mexc):
    """What move ((pre + 1) * 2 + slot) of card c leaves: (tale 0, tale 1, the tale concluded first or an empty
    one). Two moves are the same for the rules when they leave the same card type played, the same tale concluded
    and the same two tales, whichever slot holds which."""
    pre = move // 2 - 1
    cut = empty_tale()
    if pre == 0:
        cut = t0
        t0 = empty_tale()
    elif pre == 1:
        cut = t1
        t1 = empty_tale()
    if move % 2 == 0:
        t0 = t_add(t0, tbl[c, C_SUITS], tbl[c, C_VALUE], tbl[c, C_RANK], tbl[c, C_PACK], tbl[c, C_EXCUSE], mask, mexc)
    else:
        t1 = t_add(t1, tbl[c, C_SUITS], tbl[c, C_VALUE], tbl[c, C_RANK], tbl[c, C_PACK], tbl[c, C_EXCUSE], mask, mexc)
    return t0, t1, cut


@helper()
def same_move(t0, t1, tbl, c1, k1, c2, k2, mask, mexc):
    """Are move k1 of card c1 and move k2 of card c2 the same for the rules (move_result)?"""
    if tbl[c1, C_TYPE] != tbl[c2, C_TYPE]:
        return False
    a0, a1, acut = move_result(t0, t1, tbl, c1, k1, mask, mexc)
    b0, b1, bcut = move_result(t0, t1, tbl, c2, k2, mask, mexc)
    return acut == bcut and ((a0 == b0 and a1 == b1) or (a0 == b1 and a1 == b0))


@helper()
def count_play(st, tbl, seat, cards, rem, pr):
    """Count one play of `seat`: the next card (one of cards[i], bit i of rem) with its move (at most one conclusion
    first, then the tale it goes on), as pick and play_random choose it. The legal moves are counted once per
    distinct outcome (same_move), valued by pick's move values with the seat's parameters pr, whatever its policy.
    Identical moves have equal values (the same arithmetic on equal tales), so only moves of equal value are
    compared."""
    t0 = tale_of(st, tbl, seat, 0)
    t1 = tale_of(st, tbl, seat, 1)
    mask = st[S_MASK]
    mexc = st[S_MEXC]
    hope = pr[P_HOPE]
    mk = pr[P_MEME_KEEP]
    cat = pr[P_CONCLUDE_AT]
    kp, gains = pos_values(t0, t1, False, mask, mexc, hope, mk, cat)
    options = 0
    best = -np.inf
    second = -np.inf
    for i in range(5):
        if ((rem >> i) & 1) == 0:
            continue
        x = card_moves(t0, t1, kp, gains, tbl, cards[i], mask, mexc, hope, mk, cat)
        seen = 0  # the moves of card i that an earlier move (of an earlier card, or of i) is the same as
        for i2 in range(i + 1):
            if ((rem >> i2) & 1) == 0:
                continue
            x2 = x if i2 == i else card_moves(t0, t1, kp, gains, tbl, cards[i2], mask, mexc, hope, mk, cat)
            for k in range(6):
                for k2 in range(6 if i2 < i else k):
                    if x[k] != -np.inf and x2[k2] == x[k] and same_move(t0, t1, tbl, cards[i], k, cards[i2], k2, mask,
                                                                       mexc):
                        seen |= 1 << k
        for k in range(6):
            if x[k] != -np.inf and ((seen >> k) & 1) == 0:
                options += 1
                best, second = top_two(best, second, x[k])
    count_decision(st, DK_PLAY, options, best, second)


# =================================================================================================
# split, choose, setup, final order
# =================================================================================================
@helper()
def _mean_unseen(pile_sum, n_pile, vals, down):
    """Mean single-card value over the draw pile plus the cards of `down` (one-card groups)."""
    s = pile_sum
    n = n_pile
    for i in range(5):
        if (down >> i) & 1:
            s += vals[1 << i]
            n += 1
    return s / n if n > 0 else 0.0


@helper(forceinline=True)
def split_payoff(m, vs, vc, ch, spite, thr, sum_c, sum_s, n_pile):
    """The greedy split's payoff of face-up group m (vs, vc: the splitter's and the chooser's group values, by the
    splitter's parameters): p x A + (1 - p) x B, p whether the chooser takes m by the splitter's own choose rule ch
    (sum_c, sum_s: the draw pile's one-card values for the chooser and the splitter, with ch = expected)."""
    d = 31 ^ m
    a_ = vs[d] - spite * vc[m]
    b_ = vs[m] - spite * vc[d]
    if ch == CH_RANDOM:
        p = 0.5
    elif ch == CH_AT_LEAST:
        p = 1.0 if vc[m] >= thr else 0.0
    else:
        kd = pop6(d)
        ec = kd * _mean_unseen(sum_c, n_pile, vc, d)
        es = kd * _mean_unseen(sum_s, n_pile, vs, d) if spite != 0.0 else 0.0
        p = 1.0 if vc[m] - spite * es >= ec - spite * vs[m] else 0.0
    return p * a_ + (1.0 - p) * b_


@helper(inline="always")  # one caller
def split_decide(st, tbl, s, hand, pint, pflt, rng, vs, vc, cache, ni, nf):
    """The face-up group as a bitmask over hand[0..4] (1..30; the rest goes face down): at random, or
    from both seats' group values (balanced, greedy, bait)."""
    code = pint[s, I_SPLIT]
    if code == SP_RANDOM:
        return 1 + below(rng, 1 + s, 30)
    pr = pflt[s]
    c = 1 - s
    spite = pr[P_SPITE]
    thr = pr[P_THRESHOLD]
    group_values(st, tbl, s, hand, pr, vs, ALL_GROUPS, ni, nf)
    group_values(st, tbl, c, hand, pr, vc, ALL_GROUPS, ni, nf)
    cache[C_GV] = 1.0
    if code == SP_GREEDY or code == SP_LOOKAHEAD or code == SP_SEARCH:  # (greedy's: the searches' first candidate)
        ch = pint[s, I_CHOOSE]
        sum_c = 0.0
        sum_s = 0.0
        n_pile = st[S_N] - st[S_POS]
        if ch == CH_EXPECTED:
            sum_c = pile_sum_cached(st, tbl, c, s, pflt, cache)
            if spite != 0.0:
                sum_s = pile_sum_cached(st, tbl, s, s, pflt, cache)
        best = -1e18
        bm = 1
        for m in range(1, 31):
            v = split_payoff(m, vs, vc, ch, spite, thr, sum_c, sum_s, n_pile)
            if v > best + EPS:
                best = v
                bm = m
        return bm
    if code == SP_BALANCED:
        best_d = 1e18
        best_min = -1e18
        bm = 1
        for m in range(1, 31):
            d = 31 ^ m
            if m > d:
                continue
            a_ = vs[d] - spite * vc[m]
            b_ = vs[m] - spite * vc[d]
            diff = abs(a_ - b_)
            mn = min(a_, b_)
            if diff < best_d - EPS or (diff <= best_d + EPS and mn > best_min + EPS):
                best_d = diff
                best_min = mn
                bm = m
        if below(rng, 1 + s, 2) == 1:
            bm = 31 ^ bm
        return bm
    # SP_BAIT: a small tempting group face up, the real value face down
    best_t = -1e18
    bt = -1
    best_f = -1e18
    bf = 1
    for m in range(1, 31):
        if pop6(m) > 2:
            continue
        d = 31 ^ m
        a_ = vs[d] - spite * vc[m]
        b_ = vs[m] - spite * vc[d]
        if vc[m] >= thr and a_ > best_t + EPS:
            best_t = a_
            bt = m
        mn = min(a_, b_)
        if mn > best_f + EPS:
            best_f = mn
            bf = m
    return bt if bt >= 0 else bf


@helper(inline="always")  # one caller
def choose_decide(st, tbl, c, hand, up, pint, pflt, rng, cache, vs, vc, ni, nf):
    """1 if the chooser c takes the face-up group (cards of hand in bitmask up), else 0: at random, or
    (face_up_at_least, expected) from the group values vc (the chooser's) and vs (the splitter's). The
    splitter's values of this turn serve when the two seats value alike; otherwise the groups needed are
    valued here with the chooser's parameters (into vc and vs)."""
    code = pint[c, I_CHOOSE]
    if code == CH_RANDOM:
        return below(rng, 1 + c, 2)
    pr = pflt[c]
    s = 1 - c
    spite = pr[P_SPITE]
    down = 31 ^ up
    if cache[C_GV] == 0.0 or not same_values(pflt, c, s):
        want = np.int64(1) << up
        if code != CH_AT_LEAST:
            for i in range(5):
                if (down >> i) & 1:
                    want |= np.int64(1) << (1 << i)
        group_values(st, tbl, c, hand, pr, vc, want, ni, nf)
        if code != CH_AT_LEAST and spite != 0.0:
            group_values(st, tbl, s, hand, pr, vs, want, ni, nf)
    if code == CH_AT_LEAST:
        return 1 if vc[up] >= pr[P_THRESHOLD] else 0
    take_up, take_down = choice_sides(st, tbl, c, up, pflt, cache, vs, vc)
    return 1 if take_up >= take_down else 0


@helper(forceinline=True)
def choice_sides(st, tbl, c, up, pflt, cache, vs, vc):
    """The `expected` chooser's two sides, by its parameters: (taking the face-up group: V_c(up) - spite x E_s(k),
    taking the face-down one: E_c(k) - spite x V_s(up)), E_x(k) k times the mean one-card value for x of the
    unseen cards (vc, vs: the chooser's and the splitter's values of the face-up group and of each face-down card)."""
    s = 1 - c
    spite = pflt[c, P_SPITE]
    down = 31 ^ up
    vcu = vc[up]
    vsu = vs[up] if spite != 0.0 else 0.0
    kd = pop6(down)
    # the unseen cards: the draw pile and the face-down group (the chooser knows them as a set)
    sum_c = pile_sum_cached(st, tbl, c, c, pflt, cache)
    sum_s = pile_sum_cached(st, tbl, s, c, pflt, cache) if spite != 0.0 else 0.0
    n_unseen = st[S_N] - st[S_POS] + kd
    for i in range(5):
        if (down >> i) & 1:
            sum_c += vc[1 << i]
            if spite != 0.0:
                sum_s += vs[1 << i]
    ec = kd * sum_c / n_unseen
    es = kd * sum_s / n_unseen
    return vcu - spite * es, ec - spite * vsu


@helper(inline="always")  # one caller
def setup_decide(st, tbl, d, pint, pflt, rng):
    """Seat 1's setup: index into PAIRS of the two cards (of d[0..3]) that start her own tales. A seat that avoids
    a kind of card keeps a pair without it if there is one (the other pairs are not considered)."""
    allowed = ALL_PAIRS
    if pint[1, I_AVOID] != NO_AVOID:
        allowed = pairs_without(tbl, d, pint[1, I_AVOID])
    if pint[1, I_SETUP] == SU_RANDOM:
        if allowed == ALL_PAIRS:
            return below(rng, 2, 6)
        return nth_bit(allowed, below(rng, 2, pop6(allowed)))
    pr = pflt[1]
    best = -1e18
    bj = 0
    for j in range(6):
        if ((allowed >> j) & 1) == 0:
            continue
        v = setup_value(st, tbl, d, j, pr)
        if v > best + EPS:
            best = v
            bj = j
    return bj


@helper(forceinline=True)
def setup_value(st, tbl, d, j, pr):
    """Seat 1's value of keeping the pair PAIRS[j] of d[0..3], by its parameters pr: the keep values of her two
    one-card tales minus spite x those of seat 0's."""
    spite = pr[P_SPITE]
    mask = st[S_MASK]
    mexc = st[S_MEXC]
    v = 0.0
    for q in range(4):
        c = d[q]
        t = t_add(empty_tale(), tbl[c, C_SUITS], tbl[c, C_VALUE], tbl[c, C_RANK], tbl[c, C_PACK],
                  tbl[c, C_EXCUSE], mask, mexc)
        kq = kv_t(t, False, pr[P_HOPE], pr[P_MEME_KEEP], pr[P_CONCLUDE_AT])
        if q == PAIRS[j, 0] or q == PAIRS[j, 1]:
            v += kq
        else:
            v -= spite * kq
    return v


@helper(inline="always")  # one caller
def final_first(st, seat, pint, rng):
    """At the end, which of two open tales the seat concludes first (the other one follows)."""
    if pint[seat, I_PLAY] == PL_RANDOM:
        return below(rng, 1 + seat, 2)
    best = -1.0
    bf = 0
    for first in range(2):
        b = tbase(seat, first)
        o = tbase(seat, 1 - first)
        holds = st[b + T_MV] >= st[b + T_N]
        mp = st[b + T_MP]
        v = (st[b + T_SET] + mp) if holds else 0
        oh = st[o + T_MV] >= st[o + T_N]
        if holds and mp > 0:
            v += st[o + T_SET] if oh else 0  # the next meme is unknown
        else:
            v += (st[o + T_SET] + st[o + T_MP]) if oh else 0
        if v > best:
            best = v
            bf = first
    return bf


@helper()
def conclude_all(st, tbl, seat, pint, rng, tr, on):
    o0 = st[tbase(seat, 0) + T_N] > 0
    o1 = st[tbase(seat, 1) + T_N] > 0
    if o0 and o1:
        f = final_first(st, seat, pint, rng)
        do_conclude(st, tbl, seat, f, RS_END, 0, pint, rng, tr, on)
        do_conclude(st, tbl, seat, 1 - f, RS_END, 0, pint, rng, tr, on)
    elif o0:
        do_conclude(st, tbl, seat, 0, RS_END, 0, pint, rng, tr, on)
    elif o1:
        do_conclude(st, tbl, seat, 1, RS_END, 0, pint, rng, tr, on)



