"""analyzer/jit_deferred.py: a jitted function gets machine code only when Python calls it; until then its callers
hold its code. These tests show a callee left as IR, a callee called from Python later (and a kernel compiled after
that), exceptions raised in a deferred callee, a kernel optimised once (optimise_once), and numba's cache across
processes (IR first, machine code once called)."""
import os
import subprocess
import sys

import numba
import pytest

from analyzer import jit_deferred, jit_setup  # noqa: F401  (jit_setup installs jit_deferred)


def _pair():
    @numba.njit
    def callee(x):
        if x < 0:
            raise ValueError("negative")
        if x > 1000:
            raise ValueError("too large:", x)  # (a raise with a value known at run time)
        return 3 * x + 1

    @numba.njit
    def kernel(x):
        total = 0
        for i in range(x):
            total += callee(i)
        return total + callee(x)

    return callee, kernel


def _only_compile(dispatcher):
    """The dispatcher's one compile (numba's CompileResult)."""
    (cres,) = dispatcher.overloads.values()
    return cres


def test_a_callee_stays_ir_and_the_kernel_python_calls_holds_its_code():
    callee, kernel = _pair()
    assert kernel(4) == sum(3 * i + 1 for i in range(4)) + 13
    assert not jit_deferred.is_deferred(_only_compile(kernel).library)
    cres = _only_compile(callee)
    assert jit_deferred.is_deferred(cres.library), "compiled for the kernel only: no machine code of its own"
    assert isinstance(cres.entry_point, jit_deferred.DeferredEntry)


def test_a_callee_called_from_python_later_gets_its_machine_code_then():
    callee, kernel = _pair()
    kernel(2)
    assert callee(5) == 16
    cres = _only_compile(callee)
    assert not jit_deferred.is_deferred(cres.library)
    assert not isinstance(cres.entry_point, jit_deferred.DeferredEntry)
    assert callee(6) == 19  # (now through numba's own dispatch)


def test_a_function_python_called_first_is_still_a_callee_for_kernels_compiled_later():
    callee, kernel = _pair()
    assert callee(5) == 16  # (its machine code made for this call)
    assert kernel(2) == 1 + 4 + 7  # (typed and lowered against the entry point the call gave it)


def test_exceptions_raised_in_a_deferred_callee_reach_python():
    callee, kernel = _pair()
    with pytest.raises(ValueError, match="negative"):
        kernel(-1)
    with pytest.raises(ValueError, match="too large"):
        kernel(1001)
    assert jit_deferred.is_deferred(_only_compile(callee).library)


def test_a_kernel_declared_optimise_once_gets_one_round_of_the_full_pipeline(monkeypatch):
    from numba.core import codegen

    full_rounds = []  # the cost of each module pass manager made ("cheap": the deferred finalize's; else full)
    made = codegen.CPUCodegen._module_pass_manager

    def counted(self, **kws):
        full_rounds.append(kws.get("cost"))
        return made(self, **kws)

    monkeypatch.setattr(codegen.CPUCodegen, "_module_pass_manager", counted)
    monkeypatch.setattr(jit_deferred, "_ONE_ROUND", set())  # (the test's kernel is not kept in the real one)

    def full_rounds_for_a_kernel(once):
        _, kernel = _pair()
        if once:
            jit_deferred.optimise_once(kernel)
        full_rounds.clear()
        assert kernel(3) == 1 + 4 + 7 + 10
        return sum(cost is None for cost in full_rounds)

    assert full_rounds_for_a_kernel(once=False) == jit_deferred.FULL_ROUNDS == 2
    assert full_rounds_for_a_kernel(once=True) == 1


MODULE = """
import numba
from analyzer import jit_setup  # noqa: F401

@numba.njit(cache=True)
def callee(x):
    return 2 * x + 1

@numba.njit(cache=True)
def kernel(x):
    return callee(x) + callee(x + 1)
"""

# compile (or load) without calling, as compile_aside's jobs do, then call: what each library was at each step
STEPS = """
import numba
from analyzer import jit_deferred
import cached
sig = (numba.int64,)
cached.kernel.compile(sig)
cached.callee.compile(sig)
before = [jit_deferred.is_deferred(d.overloads[sig].library) for d in (cached.kernel, cached.callee)]
value = cached.kernel(20)
hits = cached.kernel.stats.cache_hits[sig]
after = [jit_deferred.is_deferred(d.overloads[sig].library) for d in (cached.kernel, cached.callee)]
print(before, value, hits, after)
"""


def test_a_kernel_is_cached_as_ir_until_called_then_with_its_machine_code(tmp_path):
    (tmp_path / "cached.py").write_text(MODULE)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(jit_setup._PACKAGE_PARENT)])}
    env.pop("NUMBA_CACHE_DIR", None)

    def steps(script=STEPS):
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout.split("\n")[0]

    # cold: both compiled as IR; the call makes the kernel's machine code (and caches it), the callee stays IR
    assert steps() == "[True, True] 84 0 [False, True]"
    # warm: the kernel loaded with its machine code, the callee as IR (its code is in the kernel's)
    assert steps() == "[False, True] 84 1 [False, True]"
    # the callee called from Python in a later process: loaded as IR, made into machine code there, then cached so
    assert steps("import cached; print(cached.callee(5), cached.callee.stats.cache_hits)") == \
        "11 Counter({(int64,): 1})"
    assert steps("import cached, numba; from analyzer import jit_deferred; cached.callee.compile((numba.int64,)); "
                 "print(jit_deferred.is_deferred(cached.callee.overloads[(numba.int64,)].library))") == "False"
