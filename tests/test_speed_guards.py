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
    loop = engine.run
    if loop.targetoptions.get("inline") == "always":  # (inlined into its one caller, the kernel: The Distance's)
        loop = engine.play_games
    assert loop.targetoptions.get("_nrt") is False, f"{name}: engine.run must be @njit(..., _nrt=False)"


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


def test_bards_batch_and_trace_share_one_kernel_compiled_once():
    """Battle of the Bards compiles one kernel (`engine.run`, jitted with nogil and run on Python threads),
    for the batch and the trace alike: a `prange` batch compiled the whole game a second time (a third of
    the cold compile), and a separate traced kernel a third time. Each further signature of `run` would be
    one more compile of the whole game."""
    import numpy as np
    from numba import types

    from analyzer.games.bards import GAME
    from analyzer.games.bards import engine as E

    assert E.run.targetoptions.get("nogil") is True
    assert not E.run.targetoptions.get("parallel"), "the batch runs engine.run on threads, not a prange"
    seat = GAME.validate_seat({"policy": "greedy"}, "test", "seat")
    enc = GAME.encode(GAME.validate_rules({}, 2, "test"), [seat, seat])
    out = np.zeros((3, len(GAME.columns(2))), dtype=np.int64)
    GAME.run_batch(enc, 1, 0, out)
    events, row = GAME.play_traced(enc, 1, 2)
    assert (row == out[2]).all()
    # (the lookahead's kernel, lookahead.run_look, is another function, compiled only for a lookahead seat:
    # test_bards_lookahead.py); the plain kernel is the one that counts no decision (counts: None), the profile's
    # (tests/test_bards_profile.py) another signature
    plain = [sig for sig in E.run.signatures if sig[-1] == types.none]
    assert len(plain) == 1, E.run.signatures


def test_fightsong_batch_and_trace_share_one_kernel_compiled_once():
    """Fight Song plays the batch (on a pool of threads) and the trace through one kernel, `engine.run`:
    a prange batch compiled the whole game again for its gufunc, and each layer of jitted functions above
    the game loop compiled it once more (numba links and re-optimises every callee into each caller)."""
    import numpy as np
    from numba.core import types

    from analyzer.games.fightsong import GAME
    from analyzer.games.fightsong import engine as E

    assert E.run.targetoptions.get("nogil") is True
    assert not E.run.targetoptions.get("parallel"), "the batch runs engine.run on threads, not a prange"
    seat = GAME.validate_seat({"policy": "greedy"}, "test", "seat")
    enc = GAME.encode(GAME.validate_rules({}, 4, "test"), [seat] * 4)
    out = np.zeros((3, len(GAME.columns(4))), dtype=np.int64)
    GAME.run_batch(enc, 1, 0, out)
    events, row = GAME.play_traced(enc, 1, 2)
    assert (row == out[2]).all()
    # the default kernel is the one given no lookahead scratch and no playout (look, resume: None); the
    # lookahead's specialisations (tests/test_fightsong_lookahead.py) compile only for a lookahead seat
    default = [sig for sig in E.run.signatures if sig[-2:] == (types.none, types.none)]
    assert len(default) == 1, E.run.signatures
