"""analyzer/jit_setup.py changes how numba compiles: the analyzer's Bards functions compile once per
argument type, not once per constant value; every compile starts from a frame of its own stack chunk.
These tests show each change in effect (numba is capped in pyproject.toml at the versions tested here)."""
import numba
from numba.core import dispatcher

from analyzer import jit_setup


def _two_callees(module):
    """f, called by g with the constants 0 and 1, as if defined in `module`."""
    def f(x, k):
        return x + k

    f.__module__ = module
    f = numba.njit(f)

    @numba.njit
    def g(x):
        return f(x, 0) + f(x, 1)

    assert g(1) == 3
    return f


def test_the_bards_functions_compile_once_per_type_not_per_constant():
    assert jit_setup.PLAIN_CONSTANT_MODULES == ("analyzer.games.bards.",)
    in_bards = _two_callees("analyzer.games.bards.test_module")
    elsewhere = _two_callees("analyzer.games.noize.test_module")
    assert len(in_bards.signatures) == 1, in_bards.signatures
    assert len(elsewhere.signatures) == 2, "numba's own behaviour: one compile per constant value"


def test_compiles_start_from_a_frame_of_their_own_stack_chunk():
    patched = dispatcher.Dispatcher._compile_for_args
    assert getattr(patched, "_analyzer", False), "jit_setup's compile entry is in place"

    @numba.njit
    def h(x):
        return 2 * x

    assert h(21) == 42  # (compiled through it)
