"""analyzer/threads.py: the blocks a batch is cut into cover every game once, whatever the thread count."""
import numpy as np
import pytest

from analyzer.threads import blocks, run_in_blocks


@pytest.mark.parametrize("n", [1, 63, 64, 65, 1000, 12_345])
@pytest.mark.parametrize("threads", [1, 2, 3, 8])
@pytest.mark.parametrize("most", [None, 64, 1024])
def test_blocks_cover_every_game_once(n, threads, most):
    todo = blocks(n, 64, threads, most)
    assert todo[0][0] == 0 and todo[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(todo, todo[1:]))
    assert all(lo < hi and (hi - lo) % 64 == 0 or hi == n for lo, hi in todo)
    assert most is None or all(hi - lo <= most for lo, hi in todo)
    sizes = [hi - lo for lo, hi in todo]
    assert sizes == sorted(sizes, reverse=True) or sizes[-1] < 64, "decreasing sizes (guided)"


def test_run_in_blocks_fills_every_row(monkeypatch):
    import numba

    monkeypatch.setattr(numba, "get_num_threads", lambda: 3)
    out = np.zeros(1000, dtype=np.int64)

    def kernel(base, lo, hi, arr):
        arr[lo:hi] += base + np.arange(lo, hi)

    run_in_blocks(kernel, 1000, 64, (7,), (out,))
    assert (out == 7 + np.arange(1000)).all()
