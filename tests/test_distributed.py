"""Runs on a local Dask cluster give the very same numbers as in-process runs, survive a killed worker,
and stop on Ctrl-C with a reproducible prefix of games. (Small: a LocalCluster of 2 workers.)"""
import os
import signal

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer import distributed, runner
from analyzer.cli import main
from analyzer.scenario import load

pytest.importorskip("distributed")

SCEN = """
name = "tiny comparison"
game = "noize"
games = 12000
seed = 8
players = 3
rotate_seats = true
[all_seats]
policy = "threshold"
[seats.1]
policy = "random"
[[variants]]
name = "rulebook"
[[variants]]
name = "shuffle"
rules.shuffle_each_round = true
"""


@pytest.fixture
def scenario_file(tmp_path):
    f = tmp_path / "tiny.toml"
    f.write_text(SCEN)
    return f


def test_in_process_one_worker_and_two_workers_write_the_same_summary(tmp_path, scenario_file):
    runs = {}
    for name, extra in (("local", []), ("w1", ["--workers", "1"]), ("w2", ["--workers", "2", "--chunk-size", "1000"])):
        out = tmp_path / name
        r = CliRunner().invoke(main, ["run", str(scenario_file), "-q", "--out", str(out), "--keep-games", *extra])
        assert r.exit_code == 0, r.output
        runs[name] = out
    local = (runs["local"] / "summary.csv").read_bytes()
    assert (runs["w1"] / "summary.csv").read_bytes() == local
    assert (runs["w2"] / "summary.csv").read_bytes() == local
    rows = pd.read_parquet(runs["local"] / "games-shuffle.parquet").sort_values(["game", "rotation"])
    dataset = pd.read_parquet(runs["w2"] / "games-shuffle").sort_values(["game", "rotation"])  # one table
    assert rows.reset_index(drop=True).equals(dataset.reset_index(drop=True)) and len(rows) == 3 * 12000


def test_a_killed_worker_costs_time_not_results(scenario_file):
    sc = load(scenario_file)
    expected = runner.run(load(scenario_file), progress=False)
    killed = []

    def kill_one(client, finished):
        if finished == 2 and not killed:
            pids = client.run(os.getpid)
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    got = distributed.run(sc, workers=2, chunk_size=1000, progress=False, log=lambda _: None, after_task=kill_one)
    assert killed and not got.partial and got.games == 12000
    for a, b in zip(expected.groups, got.groups):
        assert (a.summary.sums == b.summary.sums).all() and (a.summary.xtx == b.summary.xtx).all()
        assert a.summary.examples == b.summary.examples


def test_ctrl_c_keeps_a_contiguous_prefix_of_games(scenario_file):
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        pytest.skip("SIGINT is ignored in this process (started as a background job): the run rightly ignores it")
    sc = load(scenario_file)

    def interrupt(client, finished):
        if finished == 3:
            os.kill(os.getpid(), signal.SIGINT)

    got = distributed.run(sc, workers=2, chunk_size=1000, progress=False, log=lambda _: None, after_task=interrupt)
    assert got.partial and 0 < got.games < 12000 and got.games % 1000 == 0
    prefix = runner.run(load(scenario_file), games=got.games, progress=False)
    for a, b in zip(prefix.groups, got.groups):
        assert a.summary.n == b.summary.n == got.games
        assert (a.summary.sums == b.summary.sums).all()


def test_without_dask_the_error_says_how_to_install_it(monkeypatch, scenario_file):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)
    r = CliRunner().invoke(main, ["run", str(scenario_file), "-q", "--workers", "2"])
    assert r.exit_code != 0 and "pip install 'analyzer[dask]'" in r.output


def test_a_local_cluster_starts_quietly_while_port_8787_is_taken():
    """The scheduler's HTTP server used port 8787 whenever it was free and printed a UserWarning in the middle of
    the run when it was not (another cluster, another run on the machine): it now takes a free loopback port."""
    import socket
    import warnings

    with socket.socket() as held:
        try:
            held.bind(("0.0.0.0", 8787))
            held.listen()
        except OSError:
            pass  # (taken already, by someone else: the same situation)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            client, cluster = distributed.connect(None, 1)
            client.close()
            cluster.close()
    assert not [w for w in caught if "8787" in str(w.message)], [str(w.message) for w in caught]
