"""Guards for the kernels' speed that a functional test would not notice (figures live in `make bench`).

Each game's loop (`engine.run`) is compiled without numba's reference counting: with it, every call of
a helper that takes an array costs an atomic increment and decrement, which was a quarter to a third
of a turn's time in The Distance, Bring the Noize and Fight Song (measured with perf)."""
import importlib

import pytest

from analyzer.games import game_names


@pytest.mark.parametrize("name", game_names())
def test_game_loop_compiled_without_reference_counting(name):
    engine = importlib.import_module(f"analyzer.games.{name}.engine")
    assert engine.run.targetoptions.get("_nrt") is False, f"{name}: engine.run must be @njit(..., _nrt=False)"


def test_constant_arguments_do_not_multiply_signatures():
    """In an opted-in game, a jitted call with a constant argument compiles the callee for the plain type
    (analyzer/__init__.py)."""
    import numpy as np
    from numba import njit

    import analyzer  # noqa: F401  (installs the rule)

    @njit
    def callee(x, flag):
        return x + flag

    callee.__module__ = "analyzer.games.bards.test_guard"
    callee.py_func.__module__ = "analyzer.games.bards.test_guard"

    @njit
    def caller(x):
        return callee(x, 0) + callee(x, 1) + callee(x, np.int64(2))

    assert caller(np.int64(1)) == 6
    assert len(callee.signatures) == 1, callee.signatures
