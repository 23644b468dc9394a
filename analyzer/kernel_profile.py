"""`analyzer bench --where CASE`: where a bench case's kernel spends its time, by jitted function or source line.

The figures come from sampling, not from guesses: the case's batch kernel plays on one thread under
`perf record -e cpu-clock` (a software clock: it works on machines without hardware counters), and each
sample's address is named from numba's own JIT engine (every symbol it holds, written as a perf map,
/tmp/perf-<pid>.map, which perf reads). numba inlines most helpers into their callers, so the functions
named are the ones compiled on their own (Bards' group_values, pick...); with `lines`, the kernel is compiled
again with NUMBA_DEBUGINFO into an empty numba cache and each sample is named by the source line it came
from (llvm-symbolizer on the compiled objects: a helper LLVM inlined keeps its own name and lines; a function numba
inlined itself is renumbered into its own file, _number_lines_by_file), at the cost of that compile and of code a
little slower than the plain one (the shares, not the nanoseconds, are the result).

Needs Linux's `perf` (and `llvm-symbolizer` for lines); without them it says so in one line.
"""
from __future__ import annotations

import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import click

SAMPLE_HZ = 2000
SECONDS = 3.0  # of sampled play, when no number of games is given
TRIAL = 500  # games timed to find how many make SECONDS
TOP = 25  # rows printed


def engine_symbols():
    """(address, name) of every function numba's JIT engine holds in this process, by address."""
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine
    found = {}
    for name in engine._defined_symbols:  # (numba internals: the names of every module added to the engine)
        try:
            address = engine.get_function_address(name)
        except Exception:  # noqa: BLE001  (a global variable, not a function)
            address = 0
        if address:
            found.setdefault(address, name)
    return sorted(found.items())


def write_perf_map(symbols, path):
    """perf's map of JIT code (address size name a line; a symbol's size: up to the next one's address)."""
    with open(path, "w", encoding="utf-8") as f:
        for i, (address, name) in enumerate(symbols):
            size = symbols[i + 1][0] - address if i + 1 < len(symbols) else 1 << 16
            f.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")


def short_name(symbol):
    """A numba symbol's Python name: _ZN8analyzer5games5bards8policies4pickB4v201B48... -> bards.policies.pick."""
    if not symbol.startswith("_ZN"):
        return symbol
    names, rest = [], symbol[3:]
    while (m := re.match(r"\d+", rest)) is not None:
        n = int(m.group(0))
        names.append(rest[m.end():m.end() + n])
        rest = rest[m.end() + n:]
    names = [n for n in names if n not in ("analyzer", "games")]
    return ".".join(names) or symbol


def _objects():
    """(object code, its function's symbol, that function's address) of every library compiled in this process
    (numba keeps a library's object code when it compiles it, not when it loads it from its cache)."""
    import gc

    from numba.core.registry import CPUDispatcher
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine
    out = []
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher):
            continue
        for cres in list(obj.overloads.values()):
            code = getattr(cres.library, "_compiled_object", None)  # (kept by numba's object cache when compiled)
            if code:
                symbol = cres.fndesc.mangled_name
                out.append((bytes(code), symbol, engine.get_function_address(symbol)))
    return out


def _text_offset(obj_path, symbol):
    """The offset of `symbol` in its code section of an object file (nm: numba's objects have one, .ltext or .text)."""
    for line in subprocess.run(["nm", obj_path], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == symbol:
            return int(parts[0], 16)
    return None


FILE_STRIDE = 100_000  # a line numbered FILE_STRIDE x (k + 1) + n is line n of the k-th file of files.txt


def _number_lines_by_file(folder):
    """numba gives the code of a function it inlined itself (inline="always") its own line numbers but its caller's
    file in the debug information; from now on such a line is numbered FILE_STRIDE x (k + 1) + n, file k of
    files.txt, so that _by_line names the right file. (numba internals: Lower.lower_inst sets each instruction's
    location through DIBuilder.mark_location, which is given the line only.)"""
    import threading

    from numba.core import debuginfo, lowering

    current = threading.local()
    files = []

    def save():
        with open(os.path.join(folder, "files.txt"), "w", encoding="utf-8") as f:
            f.write("".join(name + "\n" for name in files))

    if not (hasattr(lowering.Lower, "lower_inst") and hasattr(debuginfo.DIBuilder, "mark_location")):
        return save  # (another numba: such lines keep their caller's file)
    lower_inst, mark_location = lowering.Lower.lower_inst, debuginfo.DIBuilder.mark_location

    def lower_inst_noting_file(self, inst):
        current.filename = os.path.abspath(self.loc.filename) if self.loc is not None and self.loc.filename else None
        return lower_inst(self, inst)

    def mark_location_with_file(self, builder, line):
        filename = getattr(current, "filename", None)
        if filename and filename != self.filepath and line < FILE_STRIDE:
            if filename not in files:
                files.append(filename)
            line += FILE_STRIDE * (files.index(filename) + 1)
        return mark_location(self, builder, line)

    lowering.Lower.lower_inst = lower_inst_noting_file
    debuginfo.DIBuilder.mark_location = mark_location_with_file
    return save


def play(case, games, folder, lines):
    """The child: warm the case's kernel, write the perf map (and, with lines, the compiled objects), then play
    `games` games on one thread."""
    import numba
    import numpy as np

    from analyzer.bench import CASES, _general_path, case_batch

    numba.set_num_threads(1)
    save_files = _number_lines_by_file(folder) if lines else None
    raw = dict(CASES[case])
    raw.pop("bench_games", None)
    general = raw.pop("general_path", False)
    sc, encoded, trial = case_batch(raw, TRIAL)
    game = sc.game
    with _general_path(general):
        game.run_batch(encoded, 1, 0, trial[:50])  # (compiled or loaded here)
        if games == 0:  # as many as SECONDS take
            began = time.perf_counter()
            game.run_batch(encoded, 1, 0, trial)
            games = int(min(10**7, max(TRIAL, SECONDS * TRIAL / (time.perf_counter() - began))))
        out = np.empty((games, trial.shape[1]), dtype=np.int64)
        write_perf_map(engine_symbols(), _perf_map(os.getpid()))
        with open(os.path.join(folder, "player.txt"), "w", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")  # (profile removes the map once read, or when stopped)
        if lines:
            save_files()
            with open(os.path.join(folder, "objects.txt"), "w", encoding="utf-8") as index:
                for k, (code, symbol, address) in enumerate(_objects()):
                    path = os.path.join(folder, f"lib{k}.o")
                    with open(path, "wb") as f:
                        f.write(code)
                    offset = _text_offset(path, symbol)
                    if offset is not None and address:
                        index.write(f"{path} {address - offset:x} {os.path.getsize(path):x}\n")
        out.fill(0)  # (its pages touched now, not while the games are sampled)
        began = time.clock_gettime(time.CLOCK_MONOTONIC)  # (perf's clock: perf record -k CLOCK_MONOTONIC)
        game.run_batch(encoded, 1, 0, out)
        ended = time.clock_gettime(time.CLOCK_MONOTONIC)
    with open(os.path.join(folder, "window.txt"), "w", encoding="utf-8") as f:
        f.write(f"{began} {ended} {games}\n")


def _perf_map(pid):
    return f"/tmp/perf-{pid}.map"


def _remove_perf_map(folder):
    """The player's perf map removed (it is named by its process id, player.txt), if it wrote one."""
    try:
        with open(os.path.join(folder, "player.txt"), encoding="utf-8") as f:
            os.remove(_perf_map(int(f.read())))
    except OSError:
        pass


def _window(folder):
    """(start, end) of the sampled games on perf's clock, and how many were played."""
    with open(os.path.join(folder, "window.txt"), encoding="utf-8") as f:
        began, ended, games = f.read().split()
    return float(began), float(ended), int(games)


def _samples(data, folder):
    """(address, symbol) of every sample taken while the timed games were played."""
    began, ended, _ = _window(folder)
    text = subprocess.run(["perf", "script", "-i", data, "-F", "time,ip,sym"], capture_output=True, text=True).stdout
    samples = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and began <= float(parts[0].rstrip(":")) <= ended:
            samples.append((int(parts[1], 16), parts[2] if len(parts) > 2 else "[unknown]"))
    return samples


def _by_function(samples):
    """Percent of the samples per jitted function (perf names them from the perf map) or other symbol."""
    shares = collections.Counter()
    for _, name in samples:
        shares[short_name(name) if name.startswith("_ZN") else f"({name})"] += 100.0 / len(samples)
    return shares


def _by_line(samples, folder):
    """Percent of the samples per source line: each sample's offset in the compiled object it fell in, named by
    llvm-symbolizer (the innermost function LLVM inlined, and the line), the file told by files.txt."""
    objects = []
    with open(os.path.join(folder, "objects.txt"), encoding="utf-8") as f:
        for line in f:
            path, base, size = line.split()
            objects.append((int(base, 16), int(size, 16), path))
    hits = collections.Counter()
    where = collections.Counter()
    for ip, _ in samples:
        for base, size, path in objects:
            if base <= ip < base + size:
                hits[(path, ip - base)] += 1
                break
        else:
            where["(outside the kernel's code)"] += 1
    with open(os.path.join(folder, "files.txt"), encoding="utf-8") as f:
        files = f.read().splitlines()
    by_object = collections.defaultdict(list)
    for (path, offset), n in hits.items():
        by_object[path].append((offset, n))
    for path, offsets in by_object.items():
        frames = _symbolize(path, [offset for offset, _ in offsets])
        for (offset, n) in offsets:
            function, location = frames[offset][0]  # (the innermost: the code's own function and line)
            m = re.search(r"::(\w+)\[abi", function)
            filename, _, line = location.split(" ")[0].rpartition(":")
            line = int(line) if line.isdigit() else 0
            if line >= FILE_STRIDE:  # (_number_lines_by_file)
                filename, line = files[line // FILE_STRIDE - 1], line % FILE_STRIDE
            where[f"{m.group(1) if m else function[:40]}  {os.path.basename(filename)}:{line}"] += n
    return collections.Counter({k: 100.0 * v / len(samples) for k, v in where.items()})


def _symbolize(path, offsets):
    """{offset: [(function, file:line), ...]} for offsets in the object at path, innermost frame first (a function
    LLVM inlined is a frame of its own: llvm-symbolizer prints one function and location pair per frame, so each
    address's frames are told apart by the address printed before them)."""
    answer = subprocess.run(["llvm-symbolizer", f"--obj={path}", "--output-style=GNU", "-f", "--print-address"],
                            input="\n".join(hex(o) for o in offsets) + "\n", capture_output=True,
                            text=True).stdout.splitlines()
    frames, current, k = {}, None, 0
    while k < len(answer):
        if answer[k].startswith("0x"):
            current = frames.setdefault(int(answer[k], 16), [])
            k += 1
        else:
            current.append((answer[k], answer[k + 1] if k + 1 < len(answer) else "??:0"))
            k += 2
    return frames


def profile(case, games=0, lines=False, echo=print):
    """Print where `case`'s kernel spends its time (the share of the samples of a run of `games` games, or of about
    SECONDS of games if 0)."""
    from analyzer.bench import CASES

    if case not in CASES:
        matches = [name for name in CASES if case in name]
        if len(matches) != 1:
            raise click.BadParameter(f"{case!r} names {'no' if not matches else len(matches)} bench cases; a case "
                                     f"is one of: {', '.join(CASES)} (or a part of one name only)",
                                     param_hint="--where")
        case = matches[0]
    needed = ["perf"] + (["llvm-symbolizer", "nm"] if lines else [])
    missing = [tool for tool in needed if shutil.which(tool) is None]
    if missing:
        raise click.ClickException(f"--where needs {' and '.join(missing)} on the PATH (Debian's packages linux-perf, "
                                   "llvm and binutils)")
    with tempfile.TemporaryDirectory(prefix="analyzer-where-") as folder:
        try:
            samples, played, shares = _sampled(case, games, lines, folder)
        finally:
            _remove_perf_map(folder)
    echo(f"{case}: {played:,} games on one thread, {len(samples):,} samples while they were played, by "
         f"{'source line (compiled with NUMBA_DEBUGINFO: a little slower)' if lines else 'jitted function'}")
    for name, share in shares.most_common(TOP):
        echo(f"{share:6.2f}%  {name}")


def _sampled(case, games, lines, folder):
    """The case played under perf in a child process (play): (the samples, games played, their shares)."""
    data = os.path.join(folder, "perf.data")
    env = dict(os.environ)
    if lines:
        env.update(NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=os.path.join(folder, "numba-cache"))
    child = [sys.executable, "-m", "analyzer.kernel_profile", case, str(games), folder, "1" if lines else "0"]
    run = subprocess.run(["perf", "record", "-q", "-k", "CLOCK_MONOTONIC", "-e", "cpu-clock", "-F", str(SAMPLE_HZ),
                          "-o", data, "--"] + child, env=env, capture_output=True, text=True)
    said = (run.stderr.strip().splitlines() or ["?"])[-1]  # (perf's or the player's last line)
    if run.returncode != 0:
        raise click.ClickException(f"--where: perf record failed: {said}")
    if not os.path.exists(os.path.join(folder, "window.txt")):
        raise click.ClickException(f"--where: the games were not played: {said}")
    samples = _samples(data, folder)
    if not samples:
        raise click.ClickException("--where: perf took no sample while the games were played (more --games?)")
    return samples, _window(folder)[2], _by_line(samples, folder) if lines else _by_function(samples)


if __name__ == "__main__":
    play(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1")
