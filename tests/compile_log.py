"""What numba compiles while some code runs, and where the time goes: for measuring compile time, not a test.

    with CompileLog() as log:
        ...  # anything that compiles kernels
    print(log.table())

Each record is one compile of one function for one signature (a numba "numba:compile" event), with its time split
into numba's front end (its passes: bytecode, inlining, typing, rewrites, lowering to LLVM IR) and LLVM (the time
LLVM's lock was held: optimising and generating machine code), each without the compiles it started (callees that
are not inlined). `inlined` counts, per callee, how many times its IR was built to be inlined (`inline="always"`:
once per call site, each typed again with the caller). Loads from the cache are not compiles and are not listed.

`python tests/compile_log.py scenarios/X.toml [--games N]` plays a scenario with its report (as `analyzer run`
does) and prints the table; run it with an empty cache (XDG_CACHE_HOME=/tmp/empty) to see a cold start.
tests/conftest.py records every test's compiles when ANALYZER_COMPILE_LOG names a file (a line per compile).
"""
import threading
import time
from contextlib import ExitStack
from collections import Counter, defaultdict

from numba.core import codegen, event

FRONT_PASS = "translate_bytecode"  # the first pass of a function's IR: run once per compile and per inlined call site


class CompileLog(event.Listener):
    """Records every compile, on any thread, while installed (a context manager)."""

    def __init__(self):
        self.records = []  # dicts: name, sig, total, self, front, llvm, passes {pass: s}, inlined Counter
        self._stacks = {}  # thread id -> [[kind, detail, start, child time]] (numba compiles on one thread at a time)

    # event.Listener
    @property
    def _stack(self):
        return self._stacks.setdefault(threading.get_ident(), [])

    def on_start(self, ev):
        self._stack.append([ev.kind, ev.data, _clock(), 0.0])

    def on_end(self, ev):
        if not self._stack or self._stack[-1][0] != ev.kind:
            return
        kind, data, start, children = self._stack.pop()
        took = _clock() - start
        if kind == "numba:compile":
            for frame in reversed(self._stack):  # not the own time of the enclosing passes and compile
                frame[3] += took
                if frame[0] == "numba:compile":
                    break
            record = self._finish(data, took, took - children)
            outer = self._innermost()
            record["parent"] = outer["name"] if outer is not None else None
            return
        record = self._innermost()
        if record is None:
            return
        if kind == "numba:llvm_lock":
            if any(frame[0] == kind for frame in self._stack):
                return  # (taken again inside: counted once)
            record["llvm"] += took
        else:
            name = data["name"].split(" [")[0]
            record["passes"][name] += took - children
            if name == FRONT_PASS and data["qualname"] != record["qualname"]:
                record["inlined"][data["module"] + "." + data["qualname"]] += 1
        for frame in reversed(self._stack):  # not the own time of the enclosing pass
            if frame[0] == "numba:compile":
                break
            if frame[0] == "numba:run_pass":
                frame[3] += took
                break

    def _innermost(self):
        """The record of the calling thread's innermost compile, or None."""
        for frame in reversed(self._stack):
            if frame[0] == "numba:compile":
                if "_record" not in frame[1]:
                    frame[1]["_record"] = _new_record(frame[1])
                return frame[1]["_record"]
        return None

    def _finish(self, data, took, own):
        record = data.pop("_record", None) or _new_record(data)
        record["total"], record["self"] = took, own
        record["front"] = own - record["llvm"]
        self.records.append(record)
        return record

    def __enter__(self):
        for kind in ("numba:compile", "numba:llvm_lock", "numba:run_pass"):
            event.register(kind, self)
        self._patches = ExitStack()
        for method, part in LLVM_PARTS.items():
            self._patches.enter_context(_timing(self, codegen.CPUCodeLibrary, method, part))
        return self

    def __exit__(self, *exc):
        for kind in ("numba:compile", "numba:llvm_lock", "numba:run_pass"):
            event.unregister(kind, self)
        self._patches.close()

    def table(self, top=None):
        """One line per compile, the slowest (own time) first, then the functions compiled more than once and
        the callees inlined at the most call sites."""
        rows = sorted(self.records, key=lambda r: -r["self"])[:top]
        total = sum(r["self"] for r in self.records)
        llvm = sum(r["llvm"] for r in self.records)
        parts = {p: sum(r.get(p, 0.0) for r in self.records) for p in LLVM_PARTS.values()}
        lines = [f"{len(self.records)} compiles, {total:.1f} s of CPU (front end {total - llvm:.1f} s, LLVM {llvm:.1f} s: "
                 + ", ".join(f"{p[5:]} {s:.1f}" for p, s in parts.items()) + ")",
                 f"{'own s':>7s} {'front':>6s} {'typing':>6s} {'lower':>6s} {'llvm':>6s} {'opt':>6s} {'codegen':>7s}"
                 "  function [signature]"]
        for r in rows:
            lines.append(f"{r['self']:7.2f} {r['front']:6.2f} {r['passes'].get('nopython_type_inference', 0):6.2f} "
                         f"{r['passes'].get('native_lowering', 0):6.2f} {r['llvm']:6.2f} "
                         f"{r.get('llvm_fn_opt', 0) + r.get('llvm_module_opt', 0):6.2f} {r.get('llvm_codegen', 0):7.2f}"
                         f"  {r['name']} {r['sig'][:150]}")
        lines.append("with the callees each compile started (total s, the compile that started it): " + ", ".join(
            f"{r['name'].rsplit('.', 2)[-2]}.{r['qualname']} {r['total']:.1f} ({(r['parent'] or '-').rsplit('.', 1)[-1]})"
            for r in sorted(self.records, key=lambda r: -r["total"])[:15]))
        counts = Counter(r["name"] for r in self.records)
        several = [(n, c) for n, c in counts.most_common() if c > 1]
        if several:
            lines.append("compiled for several signatures: " + ", ".join(f"{n} x{c}" for n, c in several))
        inlined = Counter()
        for r in self.records:
            inlined.update(r["inlined"])
        lines.append("inlined call sites (IR built and typed again at each): "
                     + ", ".join(f"{n} x{c}" for n, c in inlined.most_common(25)))
        passes = defaultdict(float)
        for r in self.records:
            for name, s in r["passes"].items():
                passes[name] += s
        lines.append("numba passes (own time): " + ", ".join(
            f"{n} {s:.1f}" for n, s in sorted(passes.items(), key=lambda x: -x[1])[:10]))
        return "\n".join(lines)


# LLVM's part of a compile, split: CPUCodeLibrary's methods -> name (the rest of LLVM's time is mostly IR parsing)
LLVM_PARTS = {"_optimize_functions": "llvm_fn_opt", "_optimize_final_module": "llvm_module_opt",
              "_finalize_final_module": "llvm_codegen"}


def _clock():
    """CPU time of the calling thread: the machine is shared, and a compile runs on one thread."""
    return time.thread_time()


class _timing:
    """cls.method timed into the innermost compile's record[part] while installed."""

    def __init__(self, log, cls, method, part):
        self.log, self.cls, self.method, self.part = log, cls, method, part

    def __enter__(self):
        original = self.original = self.cls.__dict__[self.method]
        log, part = self.log, self.part

        def timed(*args, **kws):
            t = _clock()
            try:
                return original(*args, **kws)
            finally:
                record = log._innermost()
                if record is not None:
                    record[part] = record.get(part, 0.0) + _clock() - t

        setattr(self.cls, self.method, timed)

    def __exit__(self, *exc):
        setattr(self.cls, self.method, self.original)


def _new_record(data):
    func = data["dispatcher"].py_func
    return {"name": f"{func.__module__}.{func.__qualname__}", "qualname": func.__qualname__,
            "sig": "(" + ", ".join(str(a) for a in data["args"]) + ")", "total": 0.0, "self": 0.0, "front": 0.0,
            "llvm": 0.0, "passes": defaultdict(float), "inlined": Counter()}


def suite_table(path, top=25):
    """The lines tests/conftest.py appended to path (ANALYZER_COMPILE_LOG), summed per test and per function."""
    per_test, per_function, tests_of = defaultdict(float), defaultdict(float), defaultdict(set)
    for line in open(path):
        worker, test, seconds, name, sig = line.rstrip("\n").split("\t")
        per_test[test] += float(seconds)
        per_function[name, sig] += float(seconds)
        tests_of[name, sig].add(test)
    lines = [f"{sum(per_test.values()):.1f} s of CPU in compiles; the tests that compiled most:"]
    lines += [f"{s:7.1f}  {t}" for t, s in sorted(per_test.items(), key=lambda x: -x[1])[:top]]
    lines.append("the functions (one signature each) compiled longest, and by which tests:")
    for key, s in sorted(per_function.items(), key=lambda x: -x[1])[:top]:
        lines.append(f"{s:7.1f}  {key[0]} {key[1][:80]}  <- {', '.join(sorted(tests_of[key]))[:200]}")
    return "\n".join(lines)


def needs_table(path, compiles=None):
    """The lines of ANALYZER_COMPILE_NEEDS (tests/conftest.py; one test file per process): the signatures only one
    file needs, with their compile time from a compile log of the suite (ANALYZER_COMPILE_LOG lines), if given."""
    seconds = defaultdict(float)
    if compiles:
        for line in open(compiles):
            _, _, s, name, sig = line.rstrip("\n").split("\t")
            seconds[name, sig] += float(s)
    files_of = defaultdict(set)
    for line in open(path):
        files, name, sig = line.rstrip("\n").split("\t")
        files_of[name, sig].add(files)
    only = defaultdict(list)  # file -> [(seconds, name, sig)]
    for key, files in files_of.items():
        if len(files) == 1:
            only[next(iter(files))].append((seconds.get(key, 0.0), *key))
    lines = ["signatures that only one test file needs (seconds of CPU to compile each, from the compile log):"]
    for file, items in sorted(only.items(), key=lambda x: -sum(i[0] for i in x[1])):
        lines.append(f"{sum(i[0] for i in items):7.1f}  {file}: " + ", ".join(
            f"{name.rsplit('.', 1)[-1]} {sig[:60]} {s:.1f}" for s, name, sig in sorted(items, reverse=True)[:4]))
    return "\n".join(lines)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description="Play a scenario (with its report) and list what numba compiled; or "
                                             "sum up a test run's compile log (--suite).")
    ap.add_argument("scenario", nargs="?")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--suite", help="a file of ANALYZER_COMPILE_LOG lines (tests/conftest.py)")
    ap.add_argument("--needs", help="a file of ANALYZER_COMPILE_NEEDS lines (tests/conftest.py), with --suite's log")
    args = ap.parse_args(argv)
    if args.needs:
        print(needs_table(args.needs, args.suite))
        return
    if args.suite:
        print(suite_table(args.suite, args.top))
        return
    import tempfile

    from analyzer import compile_aside
    from analyzer.cli import main as cli

    compile_aside.can_fork = lambda: False  # (every compile in this process, where the log sees it: no helper)

    t, cpu = time.perf_counter(), time.process_time()
    with CompileLog() as log, tempfile.TemporaryDirectory() as out:
        try:
            cli(["run", args.scenario, "--games", str(args.games), "-q", "--out", out], standalone_mode=False)
        except SystemExit:
            pass
    print(f"{args.scenario}: {time.perf_counter() - t:.1f} s of wall, {time.process_time() - cpu:.1f} s of CPU")
    print(log.table(args.top))


if __name__ == "__main__":
    main()
