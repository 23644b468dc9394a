"""Interrupts lose nothing and never lie; the report folder is written whole or not at all.

A chunk is committed to every summary, histogram, sweep sum and Parquet file as one unit: the tests
stop runs between two arms of a chunk, before the first chunk, by SIGINT and by SIGTERM, in-process
(a kernel call that signals the process, deterministic) and in a real subprocess (timed)."""
import contextlib
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from analyzer.cli import EXIT_NOTHING, EXIT_PARTIAL, main
from analyzer.games import get_game

VARIANTS = """
name = "interrupt me"
game = "noize"
games = 40000
seed = 3
players = 3
[[variants]]
name = "rulebook"
[[variants]]
name = "shuffle"
rules.shuffle_each_round = true
"""


@pytest.fixture
def signal_on_call(monkeypatch):
    """Make the n-th kernel call of a game send `sig` to this process (as Ctrl-C or kill would). Ctrl-C
    raises KeyboardInterrupt as in a terminal even when the tests were started where SIGINT is ignored
    (a background job of a script: there Python leaves it ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def arm(game_name, n, sig, first_game=0):
        """Signal after the n-th call, counting the calls that play from first_game on only."""
        game = get_game(game_name)
        real = game.run_batch
        calls = {"k": 0, "after": []}  # after: (first game, games) of each call after the signal

        def run_batch(encoded, seed, first, out):
            if calls["k"] >= n:
                calls["after"].append((first, len(out)))
                time.sleep(0.5)  # (a slow game: the signal is noted before any thread could end the chunk)
            real(encoded, seed, first, out)
            if first >= first_game:
                calls["k"] += 1
                if calls["k"] == n:
                    os.kill(os.getpid(), sig)

        monkeypatch.setattr(game, "run_batch", run_batch)
        return calls

    yield arm
    signal.signal(signal.SIGINT, previous)


def run_cli(tmp_path, *extra):
    f = tmp_path / "s.toml"
    f.write_text(VARIANTS)
    out = tmp_path / "rep"
    r = CliRunner().invoke(main, ["run", str(f), "--out", str(out), "-q", "--keep-games", *extra])
    return r, out


def check_consistent(out, arms=2):
    """Every file of a partial report speaks of the same games."""
    man = json.loads((out / "manifest.json").read_text())
    played = man["games_played"]
    assert man["partial"] and 0 < played < man["games_requested"]
    rows = list(csv.DictReader(open(out / "summary.csv")))
    metric_rows = [r for r in rows if r["kind"] == "metric"]  # (card power rows count seat-games)
    assert {int(r["games"]) for r in metric_rows} == {played} and {r["partial"] for r in rows} == {"True"}
    for name in ("games-rulebook.parquet", "games-shuffle.parquet"):
        table = pq.read_table(out / name).to_pandas()
        assert len(table) == played and sorted(table["game"]) == list(range(played))
    assert "PARTIAL RESULT" in (out / "index.html").read_text()
    return man


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("threads", [1, 2])
def test_a_signal_between_two_arms_drops_that_chunk_whole(tmp_path, signal_on_call, sig, threads):
    # the first chunk holds games 0-999; the signal arrives once the first arm has played the first block of
    # the second chunk (the play threads play a block of deals for every arm, then take the next block)
    calls = signal_on_call("noize", 1, sig, first_game=1000)
    r, out = run_cli(tmp_path, "--chunk-size", "1000", "--threads", str(threads))
    assert r.exit_code == EXIT_PARTIAL, r.output
    man = check_consistent(out)
    assert man["games_played"] == 1000 and man["stopped_by"] == signal.Signals(sig).name
    # no block starts after the signal: each thread only ends the block it is playing (its other arm)
    assert 1 <= len(calls["after"]) <= 2 * threads - 1, calls["after"]
    assert sum(games for _, games in calls["after"]) < 2 * 1000, "the chunk was not played to its end"
    assert "partial report of 1,000 of 40,000 deals" in r.output


# (each warm-up, the command's and then the runner's, plays game 0 of each of the scenario's two configurations)
@pytest.mark.parametrize("call, said", [(3, "Stopped by SIGINT before any game was played: nothing written."),
                                         (5, "Stopped by SIGINT before any game finished: no report written.")],
                         ids=["in the runner's warm-up", "in the first chunk"])
def test_a_signal_before_the_first_chunk_ends_writes_nothing(tmp_path, signal_on_call, call, said):
    signal_on_call("noize", call, signal.SIGINT)
    r, out = run_cli(tmp_path)
    assert r.exit_code == EXIT_NOTHING
    assert said in r.output
    assert not out.exists() and not any(p.name.startswith(".rep") for p in tmp_path.iterdir())


def test_ctrl_c_while_compiling_writes_nothing(tmp_path, signal_on_call):
    signal_on_call("noize", 1, signal.SIGINT)  # during the warm-up: the default handler raises
    r, out = run_cli(tmp_path)
    assert r.exit_code == EXIT_NOTHING and "before any game was played: nothing written" in r.output
    assert not out.exists()


def test_an_existing_report_folder_is_replaced_whole(tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "manifest.json").write_text('{"analyzer_version": "0.1.0"}')  # (an older version: no "files")
    (out / "old-plot.png").write_text("from an older run")
    r, out = run_cli(tmp_path, "--games", "500")
    assert r.exit_code == 0, r.output
    assert not (out / "old-plot.png").exists() and json.loads((out / "manifest.json").read_text())["games_played"] == 500


@pytest.mark.parametrize("make_bad", ["file", "foreign folder", "under a file"])
def test_an_unusable_out_folder_is_refused_before_any_game(tmp_path, make_bad, signal_on_call):
    calls = signal_on_call("noize", 10**9, signal.SIGINT)
    if make_bad == "file":
        target = tmp_path / "rep"
        target.write_text("not a folder")
    elif make_bad == "foreign folder":
        target = tmp_path / "home"
        target.mkdir()
        (target / "thesis.tex").write_text("precious")
    else:
        (tmp_path / "f").write_text("")
        target = tmp_path / "f" / "rep"
    f = tmp_path / "s.toml"
    f.write_text(VARIANTS)
    r = CliRunner().invoke(main, ["run", str(f), "--out", str(target), "-q"])
    assert r.exit_code == 2 and "--out" in r.output and "Traceback" not in r.output
    assert calls["k"] == 0, "no game was played"
    if make_bad == "foreign folder":
        assert (target / "thesis.tex").read_text() == "precious"


def _chunk_written(folder):
    """Whether the run writing its report under folder (a temporary .rep.* folder) has a chunk's rows in Parquet."""
    for path in folder.glob(".rep.*/games-rulebook.parquet"):
        with contextlib.suppress(OSError):  # (a folder removed meanwhile: the run ended)
            if path.stat().st_size > 4:
                return True
    return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_real_process_stopped_by_a_signal_writes_a_consistent_partial_report(tmp_path, sig):
    if signal.getsignal(sig) == signal.SIG_IGN:  # (the child inherits it and, as documented, keeps ignoring it)
        pytest.skip(f"{signal.Signals(sig).name} is ignored in this process (started as a background job)")
    f = tmp_path / "s.toml"
    f.write_text(VARIANTS.replace("games = 40000", "games = 500_000_000"))
    out = tmp_path / "rep"
    cmd = [sys.executable, "-m", "analyzer.cli", "run", str(f), "--out", str(out), "-q", "--keep-games", "--threads", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the signal once a chunk is committed (its rows in the Parquet file being written: more than the file's
        # 4-byte header), however long the start took (a fresh machine compiles first)
        deadline = time.perf_counter() + 120
        while not _chunk_written(tmp_path):
            assert proc.poll() is None and time.perf_counter() < deadline, "no chunk was committed"
            time.sleep(0.02)
        t = time.perf_counter()
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=60)
    finally:  # (never leave it playing its 500 million deals beside the other tests)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    honoured = time.perf_counter() - t
    assert proc.returncode == EXIT_PARTIAL, stderr
    assert "Traceback" not in stderr
    check_consistent(out)
    # within a chunk, report writing included: seconds, where the run it stopped had millions of deals to go (the
    # bound leaves room for a machine busy with the other test process: 13 s were measured at a load of 5)
    assert honoured < 30, "the signal is honoured within a chunk (report writing included)"


def test_a_report_folder_holding_the_users_files_is_refused_and_kept(tmp_path):
    # a report folder the user also keeps a scenario and a deck in: the analyzer may replace only what it wrote
    r, out = run_cli(tmp_path, "--games", "300")
    assert r.exit_code == 0, r.output
    listed = json.loads((out / "manifest.json").read_text())["files"]
    assert set(listed) == {p.name for p in out.iterdir()}
    (out / "my.toml").write_text("mine")
    (out / "deck.csv").write_text("mine too")
    f = tmp_path / "s.toml"
    r = CliRunner().invoke(main, ["run", str(f), "--out", str(out), "-q", "--games", "300"])
    assert r.exit_code == 2 and "holds files that no analyzer report wrote (deck.csv, my.toml)" in r.output
    assert (out / "my.toml").read_text() == "mine" and (out / "deck.csv").read_text() == "mine too"
    (out / "my.toml").unlink()
    (out / "deck.csv").unlink()
    r = CliRunner().invoke(main, ["run", str(f), "--out", str(out), "-q", "--games", "400"])
    assert r.exit_code == 0 and json.loads((out / "manifest.json").read_text())["games_played"] == 400


def test_a_scenario_saved_on_windows_runs(tmp_path):
    f = tmp_path / "s.toml"
    f.write_bytes(b"\xef\xbb\xbf" + VARIANTS.replace("\n", "\r\n").encode())  # UTF-8 byte-order mark, CRLF
    out = tmp_path / "rep"
    r = CliRunner().invoke(main, ["run", str(f), "--out", str(out), "-q", "--games", "300"])
    assert r.exit_code == 0, r.output
    assert json.loads((out / "manifest.json").read_text())["scenario"]["name"] == "interrupt me"
