import numpy as np
from scipy.stats import chisquare

from analyzer.rng import REPLAY_SHIFT, below, new_streams, next_u64, reset_streams, shuffle, stream_key, uniform


def test_streams_are_keyed_by_seed_game_and_stream():
    keys = {stream_key(s, g, t) for s in (0, 1) for g in (0, 1, 2) for t in (0, 1, 2)}
    assert len(keys) == 18


def test_a_replay_shares_the_deal_stream_and_nothing_else():
    """Game deal + (r << REPLAY_SHIFT) keys stream 0 as game `deal` and its decision streams as a game of its own;
    reset_streams keys as new_streams does."""
    deal, n = 12345, 4
    plain = new_streams(9, deal, n)
    for r in (1, 2, 3):
        replay = new_streams(9, deal + (r << REPLAY_SHIFT), n)
        assert replay[0] == plain[0]
        assert all(replay[2 * s] != plain[2 * s] for s in range(1, n))
        state = np.zeros(2 * n, dtype=np.uint64)
        reset_streams(state, 9, deal + (r << REPLAY_SHIFT))
        assert (state == replay).all()
    state = np.zeros(2 * n, dtype=np.uint64)
    reset_streams(state, 9, deal)
    assert (state == plain).all()
    # distinct replays have distinct decisions
    keys = {stream_key(9, deal + (r << REPLAY_SHIFT), 1) for r in range(20)}
    assert len(keys) == 20


def test_a_stream_replays_exactly():
    a, b = new_streams(5, 7, 3), new_streams(5, 7, 3)
    xs = [next_u64(a, 1) for _ in range(100)]
    assert xs == [next_u64(b, 1) for _ in range(100)]
    # other streams are not disturbed by draws on stream 1
    c = new_streams(5, 7, 3)
    assert next_u64(a, 2) == next_u64(c, 2)


def test_below_and_uniform_are_uniform():
    st = new_streams(1, 0, 1)
    draws = np.array([below(st, 0, 7) for _ in range(70_000)])
    assert draws.min() == 0 and draws.max() == 6
    assert chisquare(np.bincount(draws, minlength=7)).pvalue > 1e-4
    u = np.array([uniform(st, 0) for _ in range(50_000)])
    assert 0 <= u.min() and u.max() < 1
    assert chisquare(np.histogram(u, bins=20, range=(0, 1))[0]).pvalue > 1e-4


def test_shuffle_is_a_permutation_and_unbiased():
    st = new_streams(3, 0, 1)
    first = np.zeros(5, dtype=np.int64)
    for _ in range(20_000):
        a = np.arange(5)
        shuffle(st, 0, a, 5)
        assert sorted(a) == list(range(5))
        first[a[0]] += 1
    assert chisquare(first).pvalue > 1e-4


def test_shuffle_drawn_makes_the_permutation_shuffle_makes():
    """shuffle_drawn (its draws first, into scratch) is shuffle, faster: same permutation, same stream position."""
    from analyzer.rng import shuffle_drawn

    for n in (0, 1, 2, 5, 80, 301):
        a, b = np.arange(n), np.arange(n)
        st_a, st_b = new_streams(9, n, 2), new_streams(9, n, 2)
        for _ in range(3):
            shuffle(st_a, 1, a, n)
            shuffle_drawn(st_b, 1, b, n, np.full(max(n - 1, 0), -5, dtype=np.int64))
            assert a.tolist() == b.tolist() and st_a.tolist() == st_b.tolist()
