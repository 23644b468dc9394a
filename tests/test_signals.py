"""Ctrl-C and SIGTERM at every phase of a run, in real processes, on every game: the status, the one line
said and the files left follow the contract of analyzer/interrupts.py (0 complete, 3 partial, 130
nothing written; a finished game is never lost to a first or second signal; no half-written report).

Each run sends itself the signal at a named moment (tests/signal_at.py), as a terminal's Ctrl-C does:
to its whole process group."""
import csv
import json

import pytest

from analyzer.interrupts import EXIT_COMPLETE, EXIT_NOTHING, EXIT_PARTIAL
from signal_at import run_signalled

PLAYERS = {"noize": 3, "bards": 2, "distance": 3, "fightsong": 4}
GAMES = 6000
CHUNK = 1000  # with one thread: chunks of 1,000 deals, the first one included (runner.FIRST_PLAYS / 2 arms)

SCENARIO = """
name = "signals"
game = "{game}"
games = {games}
seed = 7
players = {players}
[[variants]]
name = "as scenario"
[[variants]]
name = "random play"
all_seats = {{ policy = "random" }}
"""


def run(tmp_path, game, sig, *wheres, extra=()):
    """(status, what it said on stderr, report folder) of `analyzer run` signalled at wheres."""
    f = tmp_path / "s.toml"
    f.write_text(SCENARIO.format(game=game, games=GAMES, players=PLAYERS[game]))
    out = tmp_path / "rep"
    p = run_signalled(sig, wheres, ["run", f, "--out", out, "-q", "--threads", "1", "--chunk-size", CHUNK, *extra])
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr
    return p.returncode, p.stderr, out


def report(out):
    man = json.loads((out / "manifest.json").read_text())
    with open(out / "summary.csv", newline="") as f:
        games = {row["games"] for row in csv.DictReader(f) if row["kind"] == "metric"}  # (card power: seat-games)
    assert games == {str(man["games_played"])}, "every metric row of summary.csv speaks of the games in the manifest"
    assert set(man["files"]) == {p.name for p in out.iterdir()}, "the manifest lists every file, written last"
    return man


def no_leftovers(tmp_path):
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".rep.")]
    assert not left, f"temporary folders left behind: {left}"


BEFORE_PLAY = [("start-up", "import:click"), ("validation", "analyzer.scenario:build"),
               ("compile", "analyzer.runner:warm_up")]


@pytest.mark.parametrize("phase, where", BEFORE_PLAY, ids=[p for p, _ in BEFORE_PLAY])
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_before_play_nothing_is_written(tmp_path, phase, where, sig):
    status, said, out = run(tmp_path, "noize", sig, where)
    assert status == EXIT_NOTHING, said
    assert said.strip().splitlines()[-1].startswith(f"Stopped by {sig}") and "nothing written" in said, said
    assert not out.exists()
    no_leftovers(tmp_path)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_during_play_the_finished_chunks_are_reported(tmp_path, game):
    # before the second chunk: the first is reported, marked partial, in every file alike
    status, said, out = run(tmp_path, game, "SIGINT", "analyzer.runner:play_and_fold:2")
    assert status == EXIT_PARTIAL, said
    man = report(out)
    assert man["partial"] and man["games_played"] == CHUNK and man["stopped_by"] == "SIGINT"
    assert f"Stopped by SIGINT after {CHUNK:,} of {GAMES:,} deals: writing the partial report..." in said
    no_leftovers(tmp_path)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_between_two_arms_a_chunk_counts_whole_or_not_at_all(tmp_path, game):
    # once the second chunk has begun, after its first block's first arm: that block is played for the
    # other arm too, then the chunk is dropped (its other blocks were not played)
    status, said, out = run(tmp_path, game, "SIGTERM",
                            "analyzer.games.base:Game.run_batch:2@analyzer.runner:play_and_fold:2")
    assert status == EXIT_PARTIAL, said
    man = report(out)
    assert man["partial"] and man["games_played"] == CHUNK and man["stopped_by"] == "SIGTERM"


# the summing up and the replacing of the folder are the same code for every game: one game is enough
AFTER_PLAY = ([("noize", "summary", "analyzer.report:build_blocks"),
               ("noize", "replacing the folder", "analyzer.report:commit_out")]
              + [(game, "report writing", "analyzer.report:to_markdown") for game in PLAYERS])


@pytest.mark.parametrize("game, phase, where", AFTER_PLAY, ids=[f"{g}, {p}" for g, p, _ in AFTER_PLAY])
def test_after_play_a_signal_never_costs_the_games(tmp_path, game, phase, where):
    status, said, out = run(tmp_path, game, "SIGINT", where)
    assert status == EXIT_COMPLETE, said
    man = report(out)
    assert not man["partial"] and man["games_played"] == GAMES
    assert f"Writing the report of {GAMES:,} deals; Ctrl-C twice more quits without it." in said
    no_leftovers(tmp_path)


def test_a_second_signal_still_writes_the_report(tmp_path):
    status, said, out = run(tmp_path, "distance", "SIGINT", "analyzer.runner:play_and_fold:3",
                            "analyzer.report:to_markdown")
    assert status == EXIT_PARTIAL, said
    assert report(out)["games_played"] == 2 * CHUNK
    assert f"Writing the report of {2 * CHUNK:,} deals; Ctrl-C once more quits without it." in said


def test_a_third_signal_quits_saying_what_is_lost_and_leaves_the_old_report(tmp_path):
    old = tmp_path / "rep"
    status, _, _ = run(tmp_path, "fightsong", "SIGINT", extra=["--games", "300"])
    assert status == EXIT_COMPLETE and json.loads((old / "manifest.json").read_text())["games_played"] == 300
    before = {p.name: p.read_bytes() for p in old.iterdir()}
    status, said, out = run(tmp_path, "fightsong", "SIGINT", "analyzer.runner:play_and_fold:2",
                            "analyzer.report:to_html", "analyzer.report:to_markdown")
    assert status == EXIT_NOTHING, said
    assert said.strip().splitlines()[-1] == f"Quit on a third signal: the report of {CHUNK:,} finished deals was not written."
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before, "the old report is untouched"
    no_leftovers(tmp_path)


@pytest.mark.parametrize("where, status", [("analyzer.distributed:connect", EXIT_NOTHING),
                                           ("analyzer.distributed:_take:2", EXIT_PARTIAL)],
                         ids=["starting the cluster", "playing"])
def test_dask_workers_stop_quietly(tmp_path, where, status):
    got, said, out = run(tmp_path, "noize", "SIGINT", where, extra=["--workers", "1"])
    assert got == status, said
    if status == EXIT_PARTIAL:
        assert report(out)["partial"]
    assert "Error" not in said and "Warning" not in said, said
