"""How Battle of the Bards' helpers are compiled: for jitted callers only.

numba compiles a CPython entry with every jitted function so that Python can call it. Only the kernel
(engine.run) and the functions the rules tests call from Python need one; for the other helpers that
entry was about 8% of Bards' cold compile (numba's own `@overload` functions go without it too).
Calling a `helper` from Python raises TypeError instead of calling an entry that does not exist.
Helpers are cached on their own, as IR (analyzer/jit_deferred.py: nothing runs a helper's own machine code, so it
has none): two processes compiling kernels that call the same helpers (a cold start's two, the test suite's) compile
them once.
"""
import numba
from numba.core.registry import CPUDispatcher


class _JittedCallersOnly(CPUDispatcher):
    def add_overload(self, cres):
        self.overloads[tuple(cres.signature.args)] = cres  # no entry for Python calls: there is none

    def _compile_for_args(self, *args, **kws):
        raise TypeError(f"{self.py_func.__qualname__} is compiled for jitted callers only")


# the two CPUDispatcher methods overridden above are numba internals: with a numba that lacks them, plain njit
_INTERNALS_PRESENT = all(hasattr(CPUDispatcher, m) for m in ("add_overload", "_compile_for_args"))


def helper(**options):
    """numba.njit(**options) for a function that only jitted code calls."""
    if not _INTERNALS_PRESENT:
        return numba.njit(**options)

    def compile_on_first_call(func):
        dispatcher = _JittedCallersOnly(func, targetoptions={
            "nopython": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True, **options})
        dispatcher.enable_caching()
        return dispatcher
    return compile_on_first_call
