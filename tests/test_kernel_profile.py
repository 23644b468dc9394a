"""`analyzer bench --where`: jitted code named from numba's engine, samples counted while the games play."""
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import kernel_profile
from analyzer.cli import main


def test_a_numba_symbol_reads_as_its_python_name():
    assert kernel_profile.short_name(
        "_ZN8analyzer5games5bards8policies4pickB4v201B48c8tJTIeFIjxB2IKSgI4CrvQClUaPLCRh1KgFS2gCAA_3d_3dE8UniTupleIxLi10EE"
    ) == "bards.policies.pick"
    assert kernel_profile.short_name("_ZN8analyzer3rng5mix64B2v3Ey") == "rng.mix64"
    assert kernel_profile.short_name("gc_collect_main") == "gc_collect_main"


def test_the_perf_map_names_the_kernels_compiled_in_this_process(tmp_path):
    from analyzer.scenario import from_dict

    sc = from_dict({"game": "bards", "players": 2, "games": 4, "seed": 1,
                    "all_seats": {"policy": "greedy", "play": "greedy"}})
    sc.game.run_batch(sc.arms[0].encoded(sc.game), 1, 0, np.empty((4, len(sc.game.columns(2))), dtype=np.int64))
    symbols = kernel_profile.engine_symbols()
    names = {kernel_profile.short_name(name) for _, name in symbols}
    assert {"bards.engine.run", "bards.policies.group_values"} <= names
    path = tmp_path / "perf.map"
    kernel_profile.write_perf_map(symbols, path)
    rows = [line.split(" ", 2) for line in path.read_text().splitlines()]
    assert len(rows) == len(symbols)
    starts = [int(a, 16) for a, _, _ in rows]
    assert starts == sorted(starts) and all(int(size, 16) > 0 for _, size, _ in rows)
    assert all(a + int(size, 16) <= b for (a, (_, size, _)), b in zip(zip(starts, rows), starts[1:]))


@pytest.mark.parametrize("where, message", [("nope", "'nope' names no bench cases"),
                                            ("noize", "'noize' names 4 bench cases")])
def test_a_where_that_names_no_single_case_is_refused_in_one_line(where, message):
    result = CliRunner().invoke(main, ["bench", "--where", where])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_lines_without_where_is_refused():
    result = CliRunner().invoke(main, ["bench", "--lines"])
    assert result.exit_code == 2 and "--lines" in result.output and "only with --where" in result.output


def _perf_samples_here():
    if shutil.which("perf") is None:
        return False
    probe = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-o", "/dev/null", "--", "true"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _perf_samples_here(), reason="needs Linux perf able to sample this process")
def test_where_names_bards_evaluation_as_its_largest_part():
    lines = []
    kernel_profile.profile("bards: greedy split", games=3000, echo=lines.append)
    assert lines[0].startswith("bards: greedy split + greedy play: 3,000 games on one thread")
    rows = [line.split() for line in lines[1:]]
    shares = {name: float(share.rstrip("%")) for share, name in rows}
    assert max(shares, key=shares.get) == "bards.policies.group_values"
    assert 95 <= sum(shares.values()) <= 100.5 or len(rows) == kernel_profile.TOP


def test_lines_numba_inlined_are_numbered_in_their_own_file(tmp_path):
    """numba's debug information names a line of code it inlined with its caller's file: --lines numbers such a
    line in a file of its own (kernel_profile._number_lines_by_file), checked on a two-module function's IR."""
    (tmp_path / "callee_mod.py").write_text("from numba import njit\n\n\n@njit(inline='always')\n"
                                            "def triple(x):\n    return 3 * x + 1\n")
    (tmp_path / "caller_mod.py").write_text("from numba import njit\nfrom callee_mod import triple\n\n\n"
                                            "@njit\ndef outer(a):\n    return triple(a) - 2\n")
    script = ("import sys; sys.path.insert(0, sys.argv[1]); from analyzer import kernel_profile as kp; "
              "save = kp._number_lines_by_file(sys.argv[1]); from caller_mod import outer; outer(2); save(); "
              "print(outer.inspect_llvm(outer.signatures[0]))")
    env = {**os.environ, "NUMBA_DEBUGINFO": "1", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    ir = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env, capture_output=True, text=True,
                        check=True).stdout
    files = (tmp_path / "files.txt").read_text().splitlines()
    assert [os.path.basename(f) for f in files] == ["callee_mod.py"]
    lines = {int(n) for n in re.findall(r"DILocation\(line: (\d+)", ir)}
    assert kernel_profile.FILE_STRIDE + 6 in lines  # triple's `return`, line 6 of callee_mod.py
    assert 7 in lines  # outer's own `return`, in caller_mod.py


def test_each_address_gets_its_own_frames_however_many_inlined_functions_it_is_in(monkeypatch):
    """llvm-symbolizer prints a (function, location) pair per frame, more than one where LLVM inlined a function:
    the frames are told apart by the address printed before them, the innermost first."""
    printed = "\n".join(["0x10", "apply_move[abi:v1]", "/src/policies.py:356", "group_values[abi:v1]",
                         "/src/policies.py:680", "0x20", "group_values[abi:v1]", "/src/policies.py:581", ""])

    class Done:
        stdout = printed

    monkeypatch.setattr(kernel_profile.subprocess, "run", lambda *a, **k: Done())
    frames = kernel_profile._symbolize("lib.o", [0x10, 0x20])
    assert frames == {0x10: [("apply_move[abi:v1]", "/src/policies.py:356"),
                             ("group_values[abi:v1]", "/src/policies.py:680")],
                      0x20: [("group_values[abi:v1]", "/src/policies.py:581")]}
