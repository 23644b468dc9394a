"""A cold start's kernels compiled on two cores: a forked helper process compiles some while this one compiles others.

A run's warm-up (runner.warm_up) is a list of jobs, each a call that compiles (or loads from numba's cache) and runs
kernels: the game's batch kernel, the fold, the kernels of the other configurations and of the traced games, and
independent parts of a kernel a game names (its `compile_parts`). `run(here, aside)` runs the jobs of `here` in this
process. While every job only loads from the cache (a warm start) that is all. At the first job that would compile
(a cold start), and if a fork is safe, a forked helper runs the jobs of `aside` (the same jobs in another order)
while this process goes on with its own: each writes what it compiled to the cache, where the other finds it.

The two share out the work through the file lock each compile holds (jit_setup._one_process_compiles_each_kernel):
a job whose kernel the other process is compiling is put off (jit_setup.Busy) and run once the rest is done, by then
a load from the cache (or a wait for it). A compile started inside another (a callee) waits, as it always did. When
this process has run every job, everything is compiled and loaded here: the helper is ended. A helper that fails or
is killed leaves its lock free; this process then compiles what is left itself. Results do not change: a kernel
loaded from the cache is the one compiled.

Only where a fork is safe: this process has no other thread (numba's threading layer not started, no thread of
Python's) but the native ones it had when this module was imported (numpy's OpenBLAS pool, which is fork-safe; the
drawing processes of analyzer/report/figures.py are forked under the same rule). The jobs run with
threads.on_this_thread(), so that they start no thread either. Ctrl-C reaches the helper too (the terminal's
process group; it dies of it), and any exception here ends it.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

from analyzer import threads
from analyzer.jit_setup import Busy, WouldCompile, in_cache, asked


def _tasks():
    try:
        return set(os.listdir("/proc/self/task"))
    except OSError:
        return None


# the native threads of a process that had no Python thread but the main one when the analyzer's numba code was
# imported: numpy's (OpenBLAS starts its pool when imported)
_BORN_WITH = _tasks() if threading.active_count() == 1 else None


def can_fork():
    """Whether a helper may be forked now (see the module's docstring)."""
    if not hasattr(os, "fork") or _BORN_WITH is None or threading.active_count() != 1:
        return False
    now = _tasks()
    return now is not None and now <= _BORN_WITH


@contextmanager
def _asking(**what):
    before = {k: getattr(asked, k, False) for k in what}
    for k, v in what.items():
        setattr(asked, k, v)
    try:
        yield
    finally:
        for k, v in before.items():
            setattr(asked, k, v)


def compile_job(kernel, sig):
    """A job that compiles a jitted function for a signature (a callee of a kernel, compiled apart), not calling it.
    Asked only to load (a start's check for a cold cache), it loads nothing when the compile is in the cache: the
    kernel that calls it is loaded whole, callees included."""
    def job():
        if getattr(asked, "no_compiling", False) and in_cache(kernel, kernel._cache, sig):
            return
        kernel.compile(sig)

    return job


def _first_cold(jobs):
    """Run jobs while each only loads from the cache; the index of the first that would compile (len(jobs): none)."""
    for i, job in enumerate(jobs):
        try:
            with _asking(no_compiling=True):
                job()
        except WouldCompile:
            return i
    return len(jobs)


def _share(jobs):
    """Run every job, those whose kernel the other process is compiling last (waiting for it, then loading)."""
    put_off = []
    for job in jobs:
        try:
            with _asking(no_waiting=True):
                job()
        except Busy:
            put_off.append(job)
    for job in put_off:
        job()


def _helper(jobs):
    """The forked helper: run the jobs, quietly (this process reports any error itself), then end."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # (the command's handlers raise; here Ctrl-C ends at once)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        with threads.on_this_thread():
            _share(jobs)
    except BaseException:  # noqa: BLE001  (what it left undone, this process compiles)
        pass
    finally:
        os._exit(0)


def run(here, aside, compiling=None):
    """Run every job of `here` (calls without arguments) in this process; on a cold cache, with a helper that runs
    `aside` (see the module's docstring). compiling: called once before the first compile, if any."""
    with threads.on_this_thread():
        first = _first_cold(here)
        if first == len(here):
            return
        if compiling is not None:
            compiling()
        helper = None
        if can_fork():
            sys.stdout.flush()  # (nothing buffered here is written twice)
            sys.stderr.flush()
            helper = os.fork()
            if helper == 0:
                _helper(aside)
        try:
            if helper:
                _share(here[first:])
            else:
                for job in here[first:]:
                    job()
        finally:
            if helper:
                os.kill(helper, signal.SIGKILL)  # (everything is compiled and loaded here: what it does is not needed)
                os.waitpid(helper, 0)
