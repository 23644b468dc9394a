"""Bring the Noize policies decide as documented (hand-built hands, exact expected moves)."""
import numpy as np
import pytest
from scipy.stats import hypergeom

from analyzer.games.noize import engine as E
from analyzer.rng import new_streams
from noize_helpers import D, G, K, V, X, bid, setup

COUNTS = np.array([20, 19, 18, 17, 6], dtype=np.int64)
TABLE = E.tail_table(COUNTS, 3, 8, 4)




def decide(cur, hand_types, **kw):
    cnt, hand, pol, par = setup(hand_types, **kw)
    hidden = 9  # three other hands of three
    rng = new_streams(1, 0, 5)
    return E.decide(0, cur, pol, par, cnt, hand, 3, hidden, TABLE, 12, rng)


def p_hold(count, inst, own):
    # population 77 unseen cards, successes inst + Groupies not in own hand, 9 hidden cards drawn
    return hypergeom(77, COUNTS[inst] + 6 - own, 9).sf(count - own - 1)


def test_opening_bids_the_highest_certain_bid():
    # Guitar, Guitar, Groupie: 3 Guitars are certain; 3 Drums would need 2 more -> bids 3 Guitar
    assert decide(-1, [G, G, X]) == (bid(3, G), E.BID_PLAIN)


def test_raises_to_the_bid_it_is_most_confident_in():
    # standing 3 Guitar; own V, V, X. Candidates: 3 Drums (own 1), 4 Vocals (own 3), 4 Keyboard, 4 Guitar.
    cands = {bid(3, D): p_hold(3, D, 1), bid(4, V): p_hold(4, V, 3), bid(4, K): p_hold(4, K, 1),
             bid(4, G): p_hold(4, G, 1)}
    best = max(cands, key=cands.get)
    assert best == bid(4, V)
    # challenge only if the standing bid (3 Guitar, own 1) holds with p below the threshold
    assert p_hold(3, G, 1) > 0.05
    assert decide(bid(3, G), [V, V, X], challenge_below=0.05, compare=0.0) == (bid(4, V), E.BID_PLAIN)


def test_challenges_below_the_threshold():
    p = p_hold(5, G, 1)  # standing 5 Guitar, own V, V, X
    assert decide(bid(5, G), [V, V, X], challenge_below=p + 1e-9, compare=0.0)[0] == -1
    assert decide(bid(5, G), [V, V, X], challenge_below=p - 1e-9, compare=0.0)[0] != -1


def test_compare_raise_challenges_when_a_challenge_is_the_better_bet():
    # standing 5 Guitar: 1 - p(5 Guitar) against the best raise, 6 Vocals (own 3)
    p = p_hold(5, G, 1)
    best = max(p_hold(6, V, 3), p_hold(5, D, 1), p_hold(6, K, 1), p_hold(6, G, 1))
    assert 1 - p > best
    assert decide(bid(5, G), [V, V, X], challenge_below=0.0, compare=1.0)[0] == -1
    assert decide(bid(5, G), [V, V, X], challenge_below=0.0, compare=0.0)[0] != -1


def test_a_bid_that_cannot_hold_is_always_challenged():
    # 13 Drums: own none; at most 9 hidden cards -> impossible
    assert decide(bid(13, D), [V, V, V], challenge_below=0.0, compare=0.0)[0] == -1


@pytest.mark.parametrize("seed", range(20))
def test_bluffs_are_riskier_raises(seed):
    cnt, hand, pol, par = setup([G, G, X], bluff=1.0, max_jump=3)
    rng = new_streams(seed, 0, 5)
    key, kind = E.decide(0, -1, pol, par, cnt, hand, 3, 9, TABLE, 12, rng)
    if kind == E.BID_JUMP_BLUFF:
        assert key % 4 == G and 4 <= key // 4 <= 6  # 3 Guitar plus a jump of 1..3
    else:
        assert kind == E.BID_WEAK_BLUFF and key == bid(1, D)  # holds no Drums (ties: the stronger)


def test_random_policy_stays_within_its_bounded_set():
    cnt, hand, pol, par = setup([V, K, G], policy=E.P_RANDOM)
    par[0, E.RANDOM_MAX_RAISE] = 3
    rng = new_streams(2, 0, 5)
    seen = set()
    for _ in range(2000):
        key, _ = E.decide(0, bid(2, K), pol, par, cnt, hand, 3, 9, TABLE, 12, rng)
        seen.add(key)
    assert seen == {-1, bid(2, G), bid(2, D), bid(3, V)}
    # at the top of the bounded set (12 cards in play) only a challenge is left
    key, _ = E.decide(0, bid(12, D), pol, par, cnt, hand, 3, 9, TABLE, 12, rng)
    assert key == -1
