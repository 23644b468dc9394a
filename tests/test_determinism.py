"""Results depend on (scenario, seed, game index) only: not on threads, chunks or tracing."""
import numba
import numpy as np
import pytest

from analyzer.games import get_game
from analyzer.runner import run
from analyzer.scenario import from_dict

RAW = {"game": "noize", "games": 30_000, "seed": 99, "players": 5,
       "all_seats": {"policy": "threshold", "bluff": 0.2}, "seats": {"1": {"policy": "random"}}}


def summary_state(result):
    s = result.groups[0].summary
    return s.n, s.sums.copy(), s.xtx.copy(), {k: v.copy() for k, v in s.hists.items()}, dict(s.examples)


def same(a, b):
    assert a[0] == b[0]
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])
    assert a[3].keys() == b[3].keys() and all(np.array_equal(a[3][k], b[3][k]) for k in a[3])
    assert a[4] == b[4]


def test_threads_and_chunks_do_not_change_results(tmp_path):
    before = numba.get_num_threads()
    try:
        one = run(from_dict(RAW), threads=1, chunk_size=30_000, progress=False, keep_games_dir=tmp_path / "a")
        two = run(from_dict(RAW), threads=2, chunk_size=7_001, progress=False, keep_games_dir=tmp_path / "b")
    finally:
        numba.set_num_threads(before)
    same(summary_state(one), summary_state(two))
    import pyarrow.parquet as pq

    a = pq.read_table(tmp_path / "a" / "games.parquet").to_pandas()
    b = pq.read_table(tmp_path / "b" / "games.parquet").to_pandas()
    assert a.equals(b) and len(a) == 30_000


def test_another_seed_gives_other_games():
    a = run(from_dict(RAW), games=5000, progress=False)
    b = run(from_dict({**RAW, "seed": 100}), games=5000, progress=False)
    assert not np.array_equal(a.groups[0].summary.sums, b.groups[0].summary.sums)


@pytest.mark.parametrize("index", [0, 1, 4_321, 29_999])
def test_batch_game_equals_traced_game(index):
    game = get_game("noize")
    sc = from_dict(RAW)
    enc = sc.arms[0].encoded(game)
    out = np.zeros((index + 1, len(game.columns(5))), dtype=np.int64)
    game.run_batch(enc, 99, 0, out)
    from analyzer.games.noize.trace import play_traced

    events, row = play_traced(enc, 99, index)
    assert np.array_equal(out[index], row)
    # and the same game from a batch starting elsewhere
    out2 = np.zeros((1, out.shape[1]), dtype=np.int64)
    game.run_batch(enc, 99, index, out2)
    assert np.array_equal(out2[0], row)
    assert events[-1]["type"] == "end"
