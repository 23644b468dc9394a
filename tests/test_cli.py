"""The command line end to end: run writes a report, trace replays a game, errors are one clear line."""
import json

from click.testing import CliRunner

from analyzer.cli import main

SCEN = """
name = "tiny"
game = "noize"
games = 3000
seed = 5
players = 3
[all_seats]
policy = "threshold"
"""


def test_run_writes_every_report_file(tmp_path):
    f = tmp_path / "tiny.toml"
    f.write_text(SCEN)
    out = tmp_path / "rep"
    r = CliRunner().invoke(main, ["run", str(f), "--out", str(out), "--keep-games", "-q", "--games", "2000"])
    assert r.exit_code == 0, r.output
    for name in ("index.html", "report.md", "summary.csv", "manifest.json", "win_share.png", "length.png",
                 "games.parquet"):
        assert (out / name).exists(), name
    man = json.loads((out / "manifest.json").read_text())
    assert man["games_played"] == 2000 and man["seed"] == 5 and not man["partial"]
    html = (out / "index.html").read_text()
    assert "data:image/png;base64" in html and "Seat 0 (plays first)" in html


def test_run_reports_bad_values_without_a_traceback(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text(SCEN.replace('policy = "threshold"', 'policy = "threshold"\nbluff = 3'))
    r = CliRunner().invoke(main, ["run", str(f), "-q"])
    assert r.exit_code != 0
    assert "bad.toml: all_seats.bluff = 3: must be a number from 0 to 1" in r.output
    assert "Traceback" not in r.output
    # the file is validated as written: a flag that would override the bad value does not hide it
    r = CliRunner().invoke(main, ["run", str(f), "-q", "--set", "all_seats.bluff=0.2"])
    assert r.exit_code == 2 and "bad.toml: all_seats.bluff = 3" in r.output
    f.write_text(SCEN)
    r = CliRunner().invoke(main, ["run", str(f), "-q", "--set", "all_seats.bluff=0.2", "--set", "players=11"])
    assert "players = 11: must be an integer from 2 to 7" in r.output


def test_trace_text_and_jsonl_agree(tmp_path):
    f = tmp_path / "tiny.toml"
    f.write_text(SCEN)
    runner = CliRunner()
    j = runner.invoke(main, ["trace", "noize", "--scenario", str(f), "--game-index", "17", "--format", "jsonl"])
    assert j.exit_code == 0, j.output
    events = [json.loads(line) for line in j.output.splitlines()]
    assert events[0]["type"] == "game" and events[0]["game_index"] == 17 and events[0]["seed"] == 5
    assert events[1]["type"] == "deck" and events[-1]["type"] == "end"
    t = runner.invoke(main, ["trace", "noize", "--scenario", str(f), "--game-index", "17"])
    n_bids = sum(1 for e in events if e["type"] == "bid")
    assert t.output.count(" bids ") == n_bids and "Game over after" in t.output


def test_games_lists_settings_and_policies():
    r = CliRunner().invoke(main, ["games"])
    assert r.exit_code == 0
    assert "shuffle_each_round (default false; true or false)" in r.output
    assert "challenge_below (default 0.5; a number from 0 to 1)" in r.output


def test_trace_picks_a_variant(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text(SCEN + '[[variants]]\nname = "a"\n[[variants]]\nname = "b"\nrules.shuffle_each_round = true\n')
    r = CliRunner().invoke(main, ["trace", "noize", "--scenario", str(f), "--variant", "b", "--format", "jsonl"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.splitlines()[0])["rules"]["shuffle_each_round"] is True
    r = CliRunner().invoke(main, ["trace", "noize", "--scenario", str(f), "--variant", "c"])
    assert r.exit_code != 0 and "variants: 'a', 'b'" in r.output


def test_impossible_options_are_refused_up_front(tmp_path):
    f = tmp_path / "tiny.toml"
    f.write_text(SCEN)
    r = CliRunner().invoke(main, ["run", str(f), "-q", "--threads", "999"])
    assert r.exit_code == 2 and "at most" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["run", str(f), "-q", "--chunk-size", "0"])
    assert r.exit_code == 2 and "--chunk-size" in r.output


def test_the_replay_command_in_a_report_replays_that_game(tmp_path):
    """The command the report prints, run as printed, traces the very game the run played."""
    import re
    import shlex

    import pyarrow.parquet as pq

    f = tmp_path / "v.toml"
    f.write_text(SCEN + '[[variants]]\nname = "as written"\n[[variants]]\nname = "the shuffle house rule"\n'
                 'rules.shuffle_each_round = true\n')
    out = tmp_path / "rep"
    r = CliRunner().invoke(main, ["run", str(f), "--out", str(out), "-q", "--games", "400", "--keep-games",
                                  "--set", "all_seats.bluff=0.3", "--set", "players=4"])
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    command = re.search(r"^(analyzer trace .*--game-index N)$", md, re.M).group(1)
    assert "--set all_seats.bluff=0.3" in command and "--set players=4" in command
    assert "--variant 'as written'" in command and "`" not in command
    args = shlex.split(command.replace(" N", " 123"))[1:] + ["--format", "jsonl"]
    t = CliRunner().invoke(main, args)
    assert t.exit_code == 0, t.output
    events = [json.loads(line) for line in t.output.splitlines()]
    rows = pq.read_table(out / "games-as-written.parquet").to_pandas()
    row = rows[(rows.game == 123) & (rows.rotation == 0)].iloc[0]
    end = events[-1]
    assert end["type"] == "end" and end["rounds"] == row["length"]
    assert end["winners"] == [s for s in range(4) if row[f"win_{s}"]]
    assert events[0]["players"] == 4 and events[0]["seats"][0]["bluff"] == 0.3
