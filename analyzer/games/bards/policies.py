"""Battle of the Bards policies in numba.

A seat makes four kinds of decision: how to split the five cards it draws (the policy's name:
random, balanced, greedy, bait), which group to take when the opponent splits (`choose`), how to
play the cards it receives (`play`), and, for seat 1, how to deal the four setup cards (`setup`).

Every value a policy uses comes from ONE evaluation, `keep_value`, of a tale summary (see
docs/bards.md): the greedy play policy picks the move that most raises (banked points + sum of
keep_value over its two tales), and the value of a group of cards for a seat is what that greedy play
gains by playing the group on the seat's current tales (`greedy_sim`, the very same decision code
run on a copy of the summaries), minus what it would gain with no cards at all.

Inside a simulated play, a conclusion that scores meme points makes the next meme unknown: from
then on the simulation counts no meme points (`mg`, "meme gone").
"""
import numpy as np
from numba import njit

from analyzer.games.bards.rules import C_EXCUSE, C_PACK, C_RANK, C_SUITS, C_VALUE
from analyzer.games.bards.state import (
    CH_AT_LEAST, CH_EXPECTED, CH_RANDOM, I_CHOOSE, I_PLAY, I_SETUP, I_SPLIT, NF, O_PILE, O_TF,
    P_CONCLUDE_AT, P_HOPE, P_MEME_KEEP, P_SPITE, P_THRESHOLD, PL_RANDOM, POP6, RS_CHOSEN, RS_END,
    RS_EXCUSE, RS_FORCED, S_MASK, S_MEXC, S_N, S_POS, SP_BALANCED, SP_GREEDY, SP_RANDOM,
    SU_RANDOM, T_BLK, T_H1, T_H2, T_H3, T_LAST, T_MP, T_MV, T_N, T_PACK, T_SET, add_fields,
    best_suits, clear_tale, conclude, fits, meme_pts, place, placed_fields, tbase)
from analyzer.rng import below

RECOVER = 0.3     # share of set points a tale that has lost the audience is still worth kept open
E0_FACTOR = 1.0   # an empty tale slot is worth E0_FACTOR * hope
SLACK_CAP = 3     # at most this many further cards count towards a tale's hope
EPS = 1e-9

PAIRS = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], dtype=np.int64)


# =================================================================================================
# the evaluation
# =================================================================================================
@njit(cache=True)
def kv(n, mv, setp, mp, blk, hope, mk, cat):
    """keep value of a tale: n cards, highest audience value mv, set points, meme points mp,
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


@njit(cache=True)
def keep_value(n, mv, setp, mp, blk, pr):
    return kv(n, mv, setp, mp, blk, pr[P_HOPE], pr[P_MEME_KEEP], pr[P_CONCLUDE_AT])


@njit(cache=True)
def kv_at(a, b, mg, hope, mk, cat):
    return kv(a[b + T_N], a[b + T_MV], a[b + T_SET], 0 if mg else a[b + T_MP], a[b + T_BLK], hope, mk, cat)


@njit(cache=True)
def set_gain(h1, h2, h3, r):
    """Set points gained by adding a card of pairing rank r to a tale holding ranks h1/h2/h3."""
    if r < 0:
        return 0
    bit = np.int64(1) << r
    if (h1 & bit) == 0:
        return 0
    if (h2 & bit) == 0:
        return 4
    if (h3 & bit) == 0:
        return 5
    return 0


@njit(cache=True)
def cgain(n, mv, setp, mpc, mpk, blk, on, omv, oset, omp, oblk, mg, hope, mk, cat):
    """Gain of concluding a tale that would score meme points mpc now (mpk: its meme points as
    counted while open); the other tale (on, omv, oset, omp, oblk) loses its meme points from the
    value if the conclusion changes the meme. Returns (gain, mg after)."""
    holds = mv >= n
    now = setp + mpc if holds else 0
    gain = now + E0_FACTOR * hope - kv(n, mv, setp, mpk, blk, hope, mk, cat)
    mg2 = mg
    if holds and mpc > 0 and not mg:
        mg2 = True
        if on > 0:
            gain += kv(on, omv, oset, 0, oblk, hope, mk, cat) - kv(on, omv, oset, omp, oblk, hope, mk, cat)
    return gain, mg2


@njit(cache=True)
def conclude_gain(a, t, mg, extra, mask, mexc, hope, mk, cat):
    """Gain in value of concluding tale t of the summaries a (two tales, NF fields each).

    extra: further suits the player names (1 after playing the Excuse). Returns (gain, mg after)."""
    b = t * NF
    o = (1 - t) * NF
    if mg:
        mpc = meme_pts(a[b + T_PACK], 0, extra) if extra > 0 else 0
        mpk = 0
    else:
        mpk = a[b + T_MP]
        mpc = meme_pts(a[b + T_PACK], mask, extra + mexc) if extra > 0 else mpk
    return cgain(a[b + T_N], a[b + T_MV], a[b + T_SET], mpc, mpk, a[b + T_BLK],
                 a[o + T_N], a[o + T_MV], a[o + T_SET], a[o + T_MP], a[o + T_BLK], mg, hope, mk, cat)


@njit(cache=True)
def sim_conclude(a, t, mg, extra, mask, mexc):
    """Conclude tale t of the summaries a; returns (points, mg after)."""
    b = t * NF
    n = a[b + T_N]
    holds = a[b + T_MV] >= n
    if mg:
        mp = meme_pts(a[b + T_PACK], 0, extra) if extra > 0 else 0
    elif extra > 0:
        mp = meme_pts(a[b + T_PACK], mask, extra + mexc)
    else:
        mp = a[b + T_MP]
    now = a[b + T_SET] + mp if holds else 0
    clear_tale(a, b)
    return now, mg or (holds and mp > 0)


@njit(cache=True)
def best_voluntary(a, mg, mask, mexc, hope, mk, cat):
    """The tale whose conclusion gains most, if that gain is positive; else -1."""
    bt = -1
    bg = EPS
    for t in range(2):
        if a[t * NF + T_N] == 0:
            continue
        g, _ = conclude_gain(a, t, mg, 0, mask, mexc, hope, mk, cat)
        if g > bg:
            bg = g
            bt = t
    return bt


@njit(cache=True)
def best_excuse_conclusion(a, mg, mask, mexc, hope, mk, cat):
    """Which tale to conclude right after playing the Excuse (one suit named)."""
    bt = -1
    bg = -1e18
    for t in range(2):
        if a[t * NF + T_N] == 0:
            continue
        g, _ = conclude_gain(a, t, mg, 1, mask, mexc, hope, mk, cat)
        if g > bg + EPS:
            bg = g
            bt = t
    return bt


@njit(cache=True)
def excuse_option(a, pre, slot, c, mg, mask, mexc, tbl, hope, mk, cat, tmp):
    """Value change of placing the Excuse c on `slot` (after concluding `pre`) and concluding the
    best tale right after (not counting pre's own gain)."""
    for j in range(2 * NF):
        tmp[j] = a[j]
    if pre >= 0:
        clear_tale(tmp, pre * NF)
    b = slot * NF
    old = kv_at(tmp, b, mg, hope, mk, cat)
    add_fields(tmp, b, c, tbl, 0 if mg else mask, 0 if mg else mexc)
    d = kv_at(tmp, b, mg, hope, mk, cat) - old
    t = best_excuse_conclusion(tmp, mg, mask, mexc, hope, mk, cat)
    g, _ = conclude_gain(tmp, t, mg, 1, mask, mexc, hope, mk, cat)
    return d + g


@njit(cache=True)
def place_delta(n, mv, setp, mp, pk, h1, h2, h3, blk, ls, empty, cs, v, r, pc, mg1, mx1, dmp,
                hope, mk, cat):
    """(legal, value change) of adding a (non-Excuse) card to a tale; all scalars."""
    if not empty:
        if blk != 0 or (cs & ls) == 0:
            return False, 0.0
        nn = n + 1
        nmv = mv if mv > v else v
        nset = setp + set_gain(h1, h2, h3, r)
        npk = pk + pc
        nmp = mp + dmp
        old = kv(n, mv, setp, 0 if mg1 else mp, blk, hope, mk, cat)
    else:
        nn = 1
        nmv = v
        nset = 0
        npk = pc
        nmp = dmp
        old = E0_FACTOR * hope
    if mg1:
        nmp = 0
    elif mx1 != 0:
        nmp = meme_pts(npk, 0, 1)
    return True, kv(nn, nmv, nset, nmp, 0, hope, mk, cat) - old


@njit(cache=True)
def greedy_pick(a, cards, k, used, mg, mask, mexc, tbl, hope, mk, cat, tmp):
    """The greedy move: (index in cards, tale to conclude first or -1, tale to play on)."""
    best = -1e18
    bi = -1
    bp = -1
    bs = -1
    n0 = a[T_N]
    mv0 = a[T_MV]
    s0 = a[T_SET]
    m0 = a[T_MP]
    p0 = a[T_PACK]
    h10 = a[T_H1]
    h20 = a[T_H2]
    h30 = a[T_H3]
    b0 = a[T_BLK]
    l0 = tbl[a[T_LAST], C_SUITS] if n0 > 0 else 0
    n1 = a[NF + T_N]
    mv1 = a[NF + T_MV]
    s1 = a[NF + T_SET]
    m1 = a[NF + T_MP]
    p1 = a[NF + T_PACK]
    h11 = a[NF + T_H1]
    h21 = a[NF + T_H2]
    h31 = a[NF + T_H3]
    b1 = a[NF + T_BLK]
    l1 = tbl[a[NF + T_LAST], C_SUITS] if n1 > 0 else 0
    g0 = 0.0
    g1 = 0.0
    mga = mg
    mgb = mg
    if n0 > 0:
        g0, mga = conclude_gain(a, 0, mg, 0, mask, mexc, hope, mk, cat)
    if n1 > 0:
        g1, mgb = conclude_gain(a, 1, mg, 0, mask, mexc, hope, mk, cat)
    for i in range(k):
        if (used >> i) & 1:
            continue
        c = cards[i]
        cs = tbl[c, C_SUITS]
        exc = tbl[c, C_EXCUSE]
        v = tbl[c, C_VALUE]
        r = tbl[c, C_RANK]
        pc = tbl[c, C_PACK]
        for pre in range(-1, 2):
            if pre == 0:
                if n0 == 0:
                    continue
                g = g0
                mg1 = mga
            elif pre == 1:
                if n1 == 0:
                    continue
                g = g1
                mg1 = mgb
            else:
                g = 0.0
                mg1 = mg
            mx1 = 0 if mg1 else mexc
            dmp = 0 if (mg1 or mexc != 0) else POP6[cs & mask]
            for slot in range(2):
                if exc != 0:
                    empty = slot == pre or a[slot * NF + T_N] == 0
                    if not empty and a[slot * NF + T_BLK] != 0:
                        continue
                    d = g + excuse_option(a, pre, slot, c, mg1, mask, mexc, tbl, hope, mk, cat, tmp)
                elif slot == 0:
                    ok, d = place_delta(n0, mv0, s0, m0, p0, h10, h20, h30, b0, l0, pre == 0 or n0 == 0,
                                        cs, v, r, pc, mg1, mx1, dmp, hope, mk, cat)
                    if not ok:
                        continue
                    d += g
                else:
                    ok, d = place_delta(n1, mv1, s1, m1, p1, h11, h21, h31, b1, l1, pre == 1 or n1 == 0,
                                        cs, v, r, pc, mg1, mx1, dmp, hope, mk, cat)
                    if not ok:
                        continue
                    d += g
                if d > best + EPS:
                    best = d
                    bi = i
                    bp = pre
                    bs = slot
    return bi, bp, bs


@njit(cache=True)
def greedy_sim(a, cards, k, mask, mexc, tbl, hope, mk, cat, tmp):
    """Play cards[:k] greedily on the summaries a (modified); returns the gain in value."""
    v0 = kv_at(a, 0, False, hope, mk, cat) + kv_at(a, NF, False, hope, mk, cat)
    mg = False
    banked = 0
    while True:
        t = best_voluntary(a, mg, mask, mexc, hope, mk, cat)
        if t < 0:
            break
        p, mg = sim_conclude(a, t, mg, 0, mask, mexc)
        banked += p
    used = 0
    for _ in range(k):
        i, pre, slot = greedy_pick(a, cards, k, used, mg, mask, mexc, tbl, hope, mk, cat, tmp)
        used |= 1 << i
        c = cards[i]
        if pre >= 0:
            p, mg = sim_conclude(a, pre, mg, 0, mask, mexc)
            banked += p
        add_fields(a, slot * NF, c, tbl, 0 if mg else mask, 0 if mg else mexc)
        if tbl[c, C_EXCUSE] != 0:
            t = best_excuse_conclusion(a, mg, mask, mexc, hope, mk, cat)
            p, mg = sim_conclude(a, t, mg, 1, mask, mexc)
            banked += p
        while True:
            t = best_voluntary(a, mg, mask, mexc, hope, mk, cat)
            if t < 0:
                break
            p, mg = sim_conclude(a, t, mg, 0, mask, mexc)
            banked += p
    return banked + kv_at(a, 0, mg, hope, mk, cat) + kv_at(a, NF, mg, hope, mk, cat) - v0


@njit(cache=True)
def load_sim(st, seat, sim):
    o = O_TF + seat * 2 * NF
    for j in range(2 * NF):
        sim[j] = st[o + j]


@njit(cache=True)
def prep_base(st, tbl, seat, pr, base, tmp):
    """base = the seat's tale summaries after the conclusions greedy play would make before any
    card (the same for every group, so group values start from here)."""
    load_sim(st, seat, base)
    greedy_sim(base, tmp, 0, st[S_MASK], st[S_MEXC], tbl, pr[P_HOPE], pr[P_MEME_KEEP], pr[P_CONCLUDE_AT], tmp)


@njit(cache=True)
def value_from(st, tbl, base, cards, k, pr, sim, tmp):
    """Value of receiving cards[:k] for the seat whose prepared summaries are `base`."""
    for j in range(2 * NF):
        sim[j] = base[j]
    return greedy_sim(sim, cards, k, st[S_MASK], st[S_MEXC], tbl, pr[P_HOPE], pr[P_MEME_KEEP],
                      pr[P_CONCLUDE_AT], tmp)


@njit(cache=True)
def value_of(st, tbl, seat, cards, k, pr, sim, tmp, base):
    """Value for `seat` of receiving cards[:k] (greedy play of them minus greedy play of nothing)."""
    prep_base(st, tbl, seat, pr, base, tmp)
    return value_from(st, tbl, base, cards, k, pr, sim, tmp)


@njit(cache=True)
def group_values(st, tbl, seat, hand, pr, sim, tmp, base, g, vals):
    """vals[m] = value for `seat` of the cards of `hand` in bitmask m, m = 1..30."""
    prep_base(st, tbl, seat, pr, base, tmp)
    vals[0] = 0.0
    vals[31] = 0.0
    for m in range(1, 31):
        k = 0
        for i in range(5):
            if (m >> i) & 1:
                g[k] = hand[i]
                k += 1
        vals[m] = value_from(st, tbl, base, g, k, pr, sim, tmp)


@njit(cache=True)
def pile_value_sum(st, tbl, seat, pr, sim, tmp, base, g):
    """Sum over the cards left in the draw pile of their value for `seat` as one-card groups."""
    prep_base(st, tbl, seat, pr, base, tmp)
    total = 0.0
    for p in range(st[S_POS], st[S_N]):
        g[0] = st[O_PILE + p]
        total += value_from(st, tbl, base, g, 1, pr, sim, tmp)
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


@njit(cache=True)
def voluntary_real(st, tbl, seat, pint, pr, rng, sim, tr, on):
    while True:
        load_sim(st, seat, sim)
        t = best_voluntary(sim, False, st[S_MASK], st[S_MEXC], pr[P_HOPE], pr[P_MEME_KEEP],
                           pr[P_CONCLUDE_AT])
        if t < 0:
            break
        do_conclude(st, tbl, seat, t, RS_CHOSEN, 0, pint, rng, tr, on)


@njit(cache=True)
def play_greedy(st, tbl, seat, cards, k, pint, pr, rng, sim, tmp, tr, on):
    """Play cards[:k] for seat: order, placements and conclusions by greedy_pick."""
    voluntary_real(st, tbl, seat, pint, pr, rng, sim, tr, on)
    used = 0
    for _ in range(k):
        load_sim(st, seat, sim)
        i, pre, slot = greedy_pick(sim, cards, k, used, False, st[S_MASK], st[S_MEXC], tbl, pr[P_HOPE],
                                   pr[P_MEME_KEEP], pr[P_CONCLUDE_AT], tmp)
        used |= 1 << i
        c = cards[i]
        if pre >= 0:
            forced = not (fits(st, tbl, seat, 0, c) or fits(st, tbl, seat, 1, c))
            do_conclude(st, tbl, seat, pre, RS_FORCED if forced else RS_CHOSEN, 0, pint, rng, tr, on)
        place(st, tbl, seat, slot, c, 0, tr, on)
        if tbl[c, C_EXCUSE] != 0:
            load_sim(st, seat, sim)
            t = best_excuse_conclusion(sim, False, st[S_MASK], st[S_MEXC], pr[P_HOPE], pr[P_MEME_KEEP],
                                       pr[P_CONCLUDE_AT])
            do_conclude(st, tbl, seat, t, RS_EXCUSE, 1, pint, rng, tr, on)
        voluntary_real(st, tbl, seat, pint, pr, rng, sim, tr, on)


@njit(cache=True)
def play_random(st, tbl, seat, cards, k, pint, rng, scr, tr, on):
    """Play cards[:k] for seat uniformly at random: a random card next, then a uniform choice among
    the legal (conclude nothing / tale 0 / tale 1 first) x (play on tale 0 / 1) moves; after the
    Excuse a uniform open tale is concluded; after the last card a uniform choice of concluding
    nothing, either tale or both."""
    stream = 1 + seat
    for j in range(k):
        scr[j] = cards[j]
    nrem = k
    while nrem > 0:
        j = below(rng, stream, nrem)
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
def play_group(st, tbl, seat, cards, k, pint, pflt, rng, sim, tmp, scr, tr, on):
    if pint[seat, I_PLAY] == PL_RANDOM:
        play_random(st, tbl, seat, cards, k, pint, rng, scr, tr, on)
    else:
        play_greedy(st, tbl, seat, cards, k, pint, pflt[seat], rng, sim, tmp, tr, on)


# =================================================================================================
# split, choose, setup, final order
# =================================================================================================
@njit(cache=True)
def _mean_unseen(pile_sum, n_pile, vals, down):
    """Mean single-card value over the draw pile plus the cards of `down` (one-card groups)."""
    s = pile_sum
    n = n_pile
    for i in range(5):
        if (down >> i) & 1:
            s += vals[1 << i]
            n += 1
    return s / n if n > 0 else 0.0


@njit(cache=True)
def split_decide(st, tbl, s, hand, pint, pflt, rng, vs, vc, sim, tmp, base, g):
    """The face-up group as a bitmask over hand[0..4] (1..30; the rest goes face down)."""
    code = pint[s, I_SPLIT]
    if code == SP_RANDOM:
        return 1 + below(rng, 1 + s, 30)
    pr = pflt[s]
    c = 1 - s
    spite = pr[P_SPITE]
    thr = pr[P_THRESHOLD]
    group_values(st, tbl, s, hand, pr, sim, tmp, base, g, vs)
    group_values(st, tbl, c, hand, pr, sim, tmp, base, g, vc)
    if code == SP_GREEDY:
        ch = pint[s, I_CHOOSE]
        sum_c = 0.0
        sum_s = 0.0
        n_pile = st[S_N] - st[S_POS]
        if ch == CH_EXPECTED:
            sum_c = pile_value_sum(st, tbl, c, pr, sim, tmp, base, g)
            if spite != 0.0:
                sum_s = pile_value_sum(st, tbl, s, pr, sim, tmp, base, g)
        best = -1e18
        bm = 1
        for m in range(1, 31):
            d = 31 ^ m
            a_ = vs[d] - spite * vc[m]
            b_ = vs[m] - spite * vc[d]
            if ch == CH_RANDOM:
                p = 0.5
            elif ch == CH_AT_LEAST:
                p = 1.0 if vc[m] >= thr else 0.0
            else:
                kd = POP6[d]
                ec = kd * _mean_unseen(sum_c, n_pile, vc, d)
                es = kd * _mean_unseen(sum_s, n_pile, vs, d) if spite != 0.0 else 0.0
                p = 1.0 if vc[m] - spite * es >= ec - spite * vs[m] else 0.0
            v = p * a_ + (1.0 - p) * b_
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
        if POP6[m] > 2:
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


@njit(cache=True)
def choose_decide(st, tbl, c, hand, up, pint, pflt, rng, sim, tmp, base, g):
    """1 if the chooser c takes the face-up group (cards of hand in bitmask up), else 0."""
    code = pint[c, I_CHOOSE]
    if code == CH_RANDOM:
        return below(rng, 1 + c, 2)
    pr = pflt[c]
    s = 1 - c
    k = 0
    for i in range(5):
        if (up >> i) & 1:
            g[k] = hand[i]
            k += 1
    vcu = value_of(st, tbl, c, g, k, pr, sim, tmp, base)
    if code == CH_AT_LEAST:
        return 1 if vcu >= pr[P_THRESHOLD] else 0
    spite = pr[P_SPITE]
    vsu = value_of(st, tbl, s, g, k, pr, sim, tmp, base) if spite != 0.0 else 0.0
    down = 31 ^ up
    kd = POP6[down]
    # the unseen cards: the draw pile and the face-down group (the chooser knows them as a set)
    sum_c = pile_value_sum(st, tbl, c, pr, sim, tmp, base, g)
    sum_s = pile_value_sum(st, tbl, s, pr, sim, tmp, base, g) if spite != 0.0 else 0.0
    n_unseen = st[S_N] - st[S_POS] + kd
    for i in range(5):
        if (down >> i) & 1:
            g[0] = hand[i]
            sum_c += value_of(st, tbl, c, g, 1, pr, sim, tmp, base)
            if spite != 0.0:
                sum_s += value_of(st, tbl, s, g, 1, pr, sim, tmp, base)
    ec = kd * sum_c / n_unseen
    es = kd * sum_s / n_unseen
    return 1 if vcu - spite * es >= ec - spite * vsu else 0


@njit(cache=True)
def setup_decide(st, tbl, d, pint, pflt, rng):
    """Seat 1's setup: index into PAIRS of the two cards (of d[0..3]) that start her own tales."""
    if pint[1, I_SETUP] == SU_RANDOM:
        return below(rng, 2, 6)
    pr = pflt[1]
    spite = pr[P_SPITE]
    mask = st[S_MASK]
    mexc = st[S_MEXC]
    best = -1e18
    bj = 0
    for j in range(6):
        v = 0.0
        for q in range(4):
            n, mv, setp, mp, blk = placed_fields(st, 0, True, d[q], tbl, mask, mexc)
            kq = keep_value(n, mv, setp, mp, blk, pr)
            if q == PAIRS[j, 0] or q == PAIRS[j, 1]:
                v += kq
            else:
                v -= spite * kq
        if v > best + EPS:
            best = v
            bj = j
    return bj


@njit(cache=True)
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


@njit(cache=True)
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



