"""analyzer.compile_aside: on a cold cache a forked helper compiles some of the warm-up's jobs, this process loads them
from the cache; a warm cache forks nothing; a helper that dies leaves this process to compile everything. Each case
runs in a fresh process with a cache folder of its own and two small kernels of its own (a second or two)."""
import os
import subprocess
import sys
import textwrap

KERNELS = '''
from numba import njit

@njit(cache=True)
def a(x):
    return x + 1

@njit(cache=True)
def b(x):
    return x * 2
'''

SCRIPT = '''
import os, signal, sys, time
sys.path.insert(0, {folder!r})
from analyzer import compile_aside, jit_setup
import kernels
from numba import types

said = []
sig = (types.int64,)

def a():
    assert kernels.a(1) == 2

def b_when_the_helper_has_it():  # (so that the helper, not this process, compiles b)
    for _ in range(600):
        if jit_setup.in_cache(kernels.b, kernels.b._cache, sig):
            break
        time.sleep(0.1)
    assert kernels.b(3) == 6

def die():
    os.kill(os.getpid(), signal.SIGKILL)

helper = [die] if {die} else [lambda: kernels.b(3)]
here = [a, lambda: kernels.b(3)] if {die} else [a, b_when_the_helper_has_it]
compile_aside.run(here, helper, lambda: said.append(1))
print(len(said), kernels.a.stats.cache_misses.get(sig, 0), kernels.b.stats.cache_hits.get(sig, 0),
      kernels.b.stats.cache_misses.get(sig, 0))
'''


def _run(tmp_path, die=False):
    (tmp_path / "kernels.py").write_text(KERNELS)
    code = SCRIPT.format(folder=str(tmp_path), die=die)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr
    return [int(x) for x in out.stdout.split()]


def test_a_cold_start_compiles_in_a_helper_and_a_warm_one_forks_nothing(tmp_path):
    said, a_compiled, b_loaded, b_compiled = _run(tmp_path)
    # cold: said once; a compiled here; b compiled by the helper, loaded here from the cache
    assert (said, a_compiled, b_loaded, b_compiled) == (1, 1, 1, 0)
    said, a_compiled, b_loaded, b_compiled = _run(tmp_path)
    assert (said, a_compiled, b_loaded, b_compiled) == (0, 0, 1, 0)  # warm: nothing compiled, nothing said


def test_a_helper_that_dies_leaves_the_compiles_to_this_process(tmp_path):
    said, a_compiled, b_loaded, b_compiled = _run(tmp_path, die=True)
    assert (said, a_compiled, b_loaded, b_compiled) == (1, 1, 0, 1)


def test_no_fork_while_another_thread_runs():
    code = ("import threading; from analyzer import compile_aside as C; stop = threading.Event(); "
            "t = threading.Thread(target=stop.wait); before = C.can_fork(); t.start(); during = C.can_fork(); "
            "stop.set(); t.join(); print(before, during)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["True", "False"]
