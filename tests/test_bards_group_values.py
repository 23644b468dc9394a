"""Battle of the Bards' group values (policies.group_values, depth first over the positions the groups reach) are
`sim`'s, bit for bit: each group played on its own by its definition (pick, then the move, until its cards are
played), on random positions of every deck, with the Excuse in hand or as the meme, at several parameters, for
every group and for a few wanted ones (the chooser's)."""
import numpy as np
import pytest
from numba import njit

from analyzer.games.bards import policies as P
from analyzer.games.bards import rules as R
from analyzer.games.bards import state as S
from analyzer.games.bards.rules import C_EXCUSE, C_PACK, C_RANK, C_SUITS, C_VALUE

NO_TRACE = np.zeros((1, S.TRACE_WIDTH), dtype=np.int64)


@njit(cache=True)
def sim_value(st, tbl, seat, hand, pr, m):
    """`sim` of the group m (a bitmask over hand) as docs/bards.md defines it, one group at a time."""
    t0, t1 = P.base_tales(st, tbl, seat, pr)
    mask = st[S.S_MASK]
    mexc = st[S.S_MEXC]
    hope = pr[S.P_HOPE]
    mk = pr[S.P_MEME_KEEP]
    cat = pr[S.P_CONCLUDE_AT]
    k, _ = P.pos_values(t0, t1, False, mask, mexc, hope, mk, cat)
    v0 = k[0] + k[2]
    mg = False
    banked = np.int64(0)
    used = 0
    while used != m:
        i, pre, slot = P.pick(t0, t1, m, used, mg, tbl, hand, mask, mexc, hope, mk, cat)
        used |= 1 << i
        c = hand[i]
        t0, t1, mg, banked, k, _ = P.apply_move(t0, t1, mg, banked, pre, slot, tbl[c, C_SUITS], tbl[c, C_VALUE],
                                                tbl[c, C_RANK], tbl[c, C_PACK], tbl[c, C_EXCUSE], mask, mexc, hope,
                                                mk, cat)
    return P.node_fin(banked, mg, k, v0)


@njit(cache=True)
def both_ways(st, tbl, seat, hand, pr, want, ni, nf, fast, slow):
    """group_values into fast, sim_value of each wanted group into slow."""
    P.group_values(st, tbl, seat, hand, pr, fast, want, ni, nf)
    for m in range(1, 31):
        if (want >> m) & 1:
            slow[m] = sim_value(st, tbl, seat, hand, pr, m)


def random_position(rng, tbl, excuse_meme):
    """A state with a meme, up to four cards on each of the four tales (each fitting the one before) and a hand of
    five of the other cards."""
    n = tbl.shape[0]
    st = np.zeros(S.ST_SIZE, dtype=np.int64)
    S.init_state(st, n)
    deck = list(rng.permutation(n))
    excuses = [c for c in deck if tbl[c, C_EXCUSE]]
    meme = excuses[0] if excuse_meme and excuses else deck[0]
    deck.remove(meme)
    S.set_meme(st, meme, tbl)
    for seat in range(2):
        for slot in range(2):
            for _ in range(rng.integers(0, 5)):
                c = deck[-1]
                if not S.fits(st, tbl, seat, slot, c):
                    break
                S.place(st, tbl, seat, slot, deck.pop(), 0, NO_TRACE, False)
    hand = np.array(deck[:5], dtype=np.int64)
    if excuses and rng.random() < 0.3 and excuses[-1] in deck[5:]:  # the Excuse in hand
        hand[rng.integers(0, 5)] = excuses[-1]
    return st, hand


@pytest.mark.parametrize("deck,copies", [("basic", "single"), ("extended", "single"), ("extended", "double")])
def test_group_values_are_each_groups_own_play(deck, copies):
    rng = np.random.default_rng(30)
    tbl = R.card_table(deck, copies)
    ni = np.zeros((P.NODES, P.N_NI), dtype=np.int64)
    nf = np.zeros((P.NODES, P.N_NF), dtype=np.float64)
    differing = 0
    nonzero = 0
    for i in range(1500):
        st, hand = random_position(rng, tbl, excuse_meme=deck == "extended" and i % 5 == 0)
        pr = np.zeros(S.N_FLT)
        pr[S.P_CONCLUDE_AT] = (10.0, 6.0, 20.0)[i % 3]
        pr[S.P_HOPE] = (0.7, 0.0, 1.5)[i % 3]
        pr[S.P_MEME_KEEP] = (0.5, 1.0, 0.0)[i % 3]
        want = P.ALL_GROUPS if i % 4 else int(sum(1 << m for m in rng.choice(np.arange(1, 31), 5, replace=False)))
        fast = np.full(32, np.nan)
        slow = np.full(32, np.nan)
        both_ways(st, tbl, i % 2, hand, pr, want, ni, nf, fast, slow)
        wanted = [m for m in range(1, 31) if (want >> m) & 1]
        differing += int((fast[wanted].view(np.int64) != slow[wanted].view(np.int64)).sum())
        nonzero += int((fast[wanted] != 0).sum())
    assert differing == 0
    assert nonzero > 1500 * 10  # real values, not a run of zeros
