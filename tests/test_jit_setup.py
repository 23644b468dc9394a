"""analyzer/jit_setup.py changes how numba compiles: the analyzer's Bards functions, and the functions LLVM
inlines, compile once per argument type, not once per constant value; every compile starts from a frame of its own
stack chunk. These tests show each change in effect (numba is capped in pyproject.toml at the versions tested here)."""
import numba
import pytest
from numba.core import dispatcher

from analyzer import jit_setup


def _two_callees(module, **options):
    """f (jitted with options), called by g with the constants 0 and 1, as if defined in `module`."""
    def f(x, k):
        return x + k

    f.__module__ = module
    f = numba.njit(**options)(f)

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


def test_a_function_llvm_inlines_compiles_once_per_type_in_any_module():
    inlined = _two_callees("analyzer.games.noize.test_module", forceinline=True)
    assert len(inlined.signatures) == 1, inlined.signatures


def test_compiles_start_from_a_frame_of_their_own_stack_chunk():
    patched = dispatcher.Dispatcher._compile_for_args
    assert getattr(patched, "_analyzer", False), "jit_setup's compile entry is in place"

    @numba.njit
    def h(x):
        return 2 * x

    assert h(21) == 42  # (compiled through it)


def test_kernels_are_cached_by_their_path_in_the_package_so_every_checkout_shares_them(tmp_path):
    from pathlib import Path

    from numba.core import caching, config

    import analyzer.games.noize.engine as engine

    assert config.CACHE_LOCATOR_CLASSES.split(",")[0] == "analyzer.jit_setup.PackagePathCacheLocator"
    locator = jit_setup.PackagePathCacheLocator
    assert locator.get_suitable_cache_subpath(engine.__file__) == "analyzer_games_noize"
    # a file outside the package (a game imported through cache_for): numba's name, a hash of its folder
    outside = tmp_path / "game.py"
    assert locator.get_suitable_cache_subpath(str(outside)) == \
        caching.UserProvidedCacheLocator.get_suitable_cache_subpath(str(outside))
    # the kernels of a game really use it (the locator numba picked for one of them)
    impl = engine.run._cache._impl
    assert type(impl.locator).__name__ == "PackagePathCacheLocator"
    assert Path(impl.locator.get_cache_path()).name == "analyzer_games_noize"


def test_numba_notes_blas_without_importing_scipy_linalg():
    """numba's CPU target (numba.np.arraymath) imported scipy.linalg on loading the first kernel, only to note whether
    np.dot could compile; jit_setup has it note whether scipy is installed instead (a fresh process: this one may
    have imported scipy.linalg for a test)."""
    import subprocess
    import sys

    code = ("import sys, importlib.util, analyzer.jit_setup, numba.np.arraymath as a; "
            "print('scipy.linalg' in sys.modules, a._HAVE_BLAS == (importlib.util.find_spec('scipy') is not None))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_inlined_callees_are_not_deep_copied_and_still_inline_right():
    """jit_setup._inline_without_copying_fresh_ir: numba's inliner hands over the callee's freshly built IR without
    its two deep copies; a caller that inlines the same callee at two sites, each nesting another inlined callee,
    still gets each site's own variables."""
    from numba.core import inline_closurecall as icc

    assert getattr(icc.InlineWorker.inline_function, "_analyzer", False), "the numba this was written for"

    @numba.njit(inline="always")
    def inner(a):
        t = a * 3
        return t + 1

    @numba.njit(inline="always")
    def outer(a, b):
        t = inner(a) - b
        return t * 2

    @numba.njit
    def caller(x):
        return outer(x, 1) + outer(x + 1, 2) * 10

    assert caller(2) == ((2 * 3 + 1) - 1) * 2 + ((3 * 3 + 1) - 2) * 2 * 10


def test_a_none_test_of_an_argument_that_is_never_none_is_decided_before_typing():
    """jit_setup._none_tests_decided_for_every_type: `arg is None` (and `is not None`) on an array, a number or a
    tuple is decided before typing, as numba decides it for None: the branch never taken is not typed, and the
    function it calls is not compiled; an Optional argument, which may hold None, keeps both branches."""
    import numpy as np
    from numba import types
    from numba.core import untyped_passes

    assert getattr(untyped_passes.dead_branch_prune, "_analyzer", False), "the numba this was written for"

    @numba.njit
    def only_if_none(x):
        return -1

    @numba.njit
    def only_if_given(x):
        return x[0]

    @numba.njit
    def pick(x):
        if x is None:
            return only_if_none(x)
        return only_if_given(x)

    @numba.njit
    def pick_not(x):
        if x is not None:
            return only_if_given(x)
        else:
            return only_if_none(x)

    assert pick(np.array([7])) == 7 and pick_not(np.array([8])) == 8 and pick_not((9, 1)) == 9
    assert not only_if_none.signatures, "the branch for None was typed for an array and a tuple"
    assert pick(None) == -1 and pick_not(None) == -1
    assert only_if_none.signatures == [(types.none,)]

    @numba.njit
    def optional(flag):
        x = np.array([5]) if flag else None
        return pick_not(x)  # (x: an Optional array)

    assert optional(True) == 5 and optional(False) == -1


def test_compile_options_values_are_what_their_properties_say():
    """jit_setup._compile_options_compared_without_properties: Flags.values() from the stored values and the
    defaults is the dict numba's own method builds option by option."""
    from numba.core.compiler import Flags

    flags = Flags()
    flags.nrt = True
    flags.inline = "always"
    flags.error_model = "numpy"
    assert getattr(Flags.values, "_analyzer", False)
    assert flags.values() == {k: getattr(flags, k) for k in Flags.options}
    assert list(flags.values()) == list(Flags.options)
    assert flags.values()["nrt"] is True and flags.values()["no_cpython_wrapper"] is False
    assert flags == flags.copy() and hash(flags) == hash(flags.copy())
    other = flags.copy()
    other.nrt = False
    assert other != flags


KERNEL = """
from analyzer import jit_setup  # noqa: F401
from numba import njit


@njit(cache=True)
def plus_one(x):
    return x + 1
"""
# holds the lock file argv[1] names: "int64" or "float64" (the compile lock of plus_one for that argument type), or
# "index" (the lock numba's save of plus_one's cache index takes)
HOLDER = """
import fcntl, sys
from pathlib import Path
from numba import types
from analyzer import jit_setup
import kern
folder = Path(kern.plus_one._cache._cache_path)
folder.mkdir(parents=True, exist_ok=True)
if sys.argv[1] == "index":
    path = kern.plus_one._cache._cache_file._index_path + ".lock"
else:
    path = folder / jit_setup.compile_lock_name(kern.plus_one.py_func, (getattr(types, sys.argv[1]),))
lock = open(path, "a")
fcntl.flock(lock, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.readline()
"""
USER = """
import time
from numba.core import event
import kern
compiles = []
event.register("numba:compile", event.Listener.__new__(type("L", (event.Listener,), {
    "on_start": lambda self, ev: None, "on_end": lambda self, ev: compiles.append(1)})))
print("calling", flush=True)
t = time.perf_counter()
assert kern.plus_one(1) == 2
print(f"{len(compiles)} {time.perf_counter() - t:.2f}", flush=True)
"""


@pytest.mark.parametrize("held, waits", [("int64", True), ("float64", False), ("index", True)])
def test_a_compile_waits_for_the_process_compiling_the_same_kernel(tmp_path, held, waits):
    """A second process waits while another holds the compile lock of the kernel for the same argument types (int64:
    plus_one(1)), then compiles (or, had the first compiled it, loads it from the cache); not for another signature
    of it (float64); and its save to the cache waits while another process saves to the kernel's cache index."""
    import os
    import subprocess
    import sys
    import time

    (tmp_path / "kern.py").write_text(KERNEL)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(jit_setup._PACKAGE_PARENT)])}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, held], env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        user = subprocess.Popen([sys.executable, "-c", USER], env=env, stdout=subprocess.PIPE, text=True)
        assert user.stdout.readline().strip() == "calling"
        if waits:
            time.sleep(2)
            assert user.poll() is None, "the compile did not wait for the lock"
            holder.stdin.write("\n")
            holder.stdin.flush()
        out, _ = user.communicate(timeout=120)
        compiles, seconds = out.split()
        assert compiles == "1" and (float(seconds) >= 1.9) == waits
    finally:
        holder.kill()


def test_the_cache_keeps_the_most_recently_used_source_versions(tmp_path):
    import os

    from analyzer.jit_setup import KEPT_VERSIONS, _prune

    folders = [tmp_path / f"v{i}" for i in range(KEPT_VERSIONS + 3)]
    for i, folder in enumerate(folders):  # v0 used longest ago
        folder.mkdir()
        os.utime(folder, (1_000_000 + i, 1_000_000 + i))
    mine = folders[0]  # this process's own version, however old, stays
    _prune(tmp_path, mine)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([mine.name] + [f.name for f in folders[-KEPT_VERSIONS:]])
