"""The fifth game (issue 27, "prove it"): the toy of docs/adding-a-game.md (tests/toygame, High Card), written
only against the documented contract, gets the analyzer for free. One test per thing it gets:
- it is a game: registered (analyzer.games.register, or ANALYZER_GAMES on the command line), listed by
  `analyzer games`, its kernels cached apart (jit_setup.cache_for);
- scenarios with variants and a sweep, each a report (index.html, report.md, summary.csv), and the skill
  ladder;
- traces (`analyzer trace toy`), which its referee (tests/toygame/referee.py) replays by the rulebook;
- the conformance suite and the layout checks: tests/test_conformance.py and tests/test_layouts.py run on it
  with the shipped games;
- lookahead: the search driver's, through analyzer/games/shape.py, and it beats greedy;
- its plumbing (everything but rules.py) stays under 150 lines.
Small game counts: the toy's kernels compile once per source version (about half a minute), then load from
the cache."""
import ast
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.games import game_module, game_names, get_game, register, unregister
from analyzer.scenario import from_dict, load
from toy_helpers import TEST_GAMES, referee

ROOT = Path(__file__).resolve().parent.parent
TOY = Path(__file__).parent / "toygame"
SCENARIOS = TOY / "scenarios"
pytestmark = pytest.mark.usefixtures("test_games")


def cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r.output


def summary(folder):
    """{(group, metric): value} of a report's summary.csv."""
    with open(folder / "summary.csv", newline="") as f:
        return {(row["group"], row["metric"]): float(row["value"]) for row in csv.DictReader(f)}


def test_registering_a_game():
    assert "toy" in game_names() and game_names()[:4] == ["noize", "bards", "distance", "fightsong"]
    assert game_module("toy") == "toygame" and get_game("toy").name == "toy"
    with pytest.raises(ValueError, match="built-in"):
        register("noize", "toygame")
    register("other", "toygame")  # a game is registered under its own name
    try:
        with pytest.raises(ValueError, match="named 'toy'"):
            get_game("other")
    finally:
        unregister("other")
    assert get_game("other") is None and "other" not in game_names()


def test_ANALYZER_GAMES_registers_without_code(monkeypatch):
    unregister("toy")
    monkeypatch.setenv("ANALYZER_GAMES", " toy = toygame:GAME ")
    assert "toy" in game_names() and get_game("toy").title == "High Card (the toy game)"
    monkeypatch.setenv("ANALYZER_GAMES", "toygame")
    with pytest.raises(ValueError, match="not name=module"):
        game_names()


def test_the_command_line_sees_a_game_named_in_ANALYZER_GAMES():
    env = {**os.environ, "ANALYZER_GAMES": "toy=toygame",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-m", "analyzer", "games", "toy"], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("toy: High Card (the toy game), 2-4 players")


@pytest.mark.parametrize("value, says", [("toygame", "'toygame' is not name=module"),
                                         ("toy=no_such_package.toy", "no module 'no_such_package.toy'"),
                                         ("tot=toygame", "this game is named 'toy'")])
def test_a_bad_ANALYZER_GAMES_is_one_line_naming_it(value, says):
    env = {**os.environ, "ANALYZER_GAMES": value,
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    game = value.partition("=")[0] if "=" in value else "toy"
    r = subprocess.run([sys.executable, "-m", "analyzer", "games", game], env=env, capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], r.stderr
    assert "ANALYZER_GAMES" in lines[0] or "registry" in lines[0]


def test_analyzer_games_lists_its_settings_and_policies():
    every = cli("games")
    assert "toy: High Card (the toy game), 2-4 players" in every and "distance: The Distance" in every
    out = cli("games", "toy")
    assert "hand_size (default 5; an integer from 1 to 10)" in out
    for name in ("random:", "greedy:", "lookahead:", "samples (default 8", "horizon (default 0", "toy.md"):
        assert name in out, name


def test_its_kernels_are_cached_in_a_folder_of_their_own():
    """Named by the toy's sources (jit_setup.cache_for), within the analyzer's cache folder: an edit to one of its
    helpers compiles afresh, as for the shipped games."""
    from numba import config

    if not config.CACHE_DIR:
        pytest.skip("numba caches beside the sources here")
    game = get_game("toy")
    toy = sys.modules[game_module("toy")]
    for fn in (sys.modules["toygame.rules"].play_card, toy.KERNELS.play_games, toy.KERNELS.search.lookahead):
        path = Path(fn._cache._cache_path)
        assert path.parent.parent == Path(config.CACHE_DIR) / "games", path
    assert not Path(sys.modules["analyzer.games.distance.engine"].run._cache._cache_path).is_relative_to(
        Path(config.CACHE_DIR) / "games")


def test_a_sweep_scenario_makes_a_report(tmp_path):
    out = tmp_path / "sweep"
    cli("run", SCENARIOS / "toy-hand-size.toml", "--games", 400, "--out", out, "-q")
    for name in ("index.html", "report.md", "summary.csv", "manifest.json"):
        assert (out / name).is_file(), name
    values = summary(out)
    assert all((f"rules.hand_size={h}", "win_share_0") in values for h in range(1, 11))
    assert values["rules.hand_size=1", "length"] == 1 and values["rules.hand_size=10", "length"] == 10
    report = (out / "report.md").read_text()
    assert "## Sweep" in report and (out / "sweep_target.png").is_file()
    assert "[tests/toygame/toy.md](" in report  # (its docs page, linked)


def test_variants_make_a_report_and_lookahead_beats_greedy(tmp_path):
    out = tmp_path / "variants"
    cli("run", SCENARIOS / "toy-lookahead.toml", "--games", 1500, "--out", out, "-q")
    assert (out / "index.html").is_file() and (out / "report.md").is_file()
    values = summary(out)
    assert values["greedy vs greedy", "policy_share_0"] == pytest.approx(0.5)
    # seats rotated, 3,000 games a variant: 61.8% at 20,000 deals (toy.md); far above an even 50%
    assert values["lookahead vs greedy", "policy_share_0"] > 0.57
    assert values["lookahead (32 samples) vs greedy", "policy_share_0"] > 0.57


def test_the_skill_ladder(tmp_path):
    out = tmp_path / "ladder"
    cli("ladder", "toy", "--players", 2, "--games", 300, "--out", out, "-q")
    assert "lookahead" in (out / "report.md").read_text() and (out / "summary.csv").is_file()


def test_traces_replay_by_the_rulebook():
    path = SCENARIOS / "toy-lookahead.toml"
    lines = cli("trace", "toy", "--scenario", path, "--variant", "lookahead vs greedy", "--game-index", 7,
                "--format", "jsonl").splitlines()
    head, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert head["game"] == "toy" and [s["policy"] for s in head["seats"]] == ["lookahead", "greedy"]
    arm = next(a for a in load(path).arms if a.group == "lookahead vs greedy" and a.rotation == 0)
    game = get_game("toy")
    replayed, row = game.play_traced(arm.encoded(game), head["seed"], 7)
    assert replayed == events
    referee(events, row, arm)
    text = cli("trace", "toy")  # (defaults: 4 greedy players)
    assert text.startswith("High Card (the toy game): game 0 of seed 1, 4 players") and "Game over" in text


def test_the_referee_refuses_a_move_against_the_rules():
    arm = from_dict({"game": "toy", "games": 1, "seed": 3, "players": 3, "all_seats": {"policy": "greedy"}}).arms[0]
    game = get_game("toy")
    events, row = game.play_traced(arm.encoded(game), 3, 0)
    referee(events, row, arm)
    plays = [i for i, e in enumerate(events) if e["type"] == "play"]
    a, b = plays[0], plays[1]  # two seats' first cards swapped: each plays a card it does not hold
    swapped = [dict(e) for e in events]
    swapped[a]["card"], swapped[b]["card"] = events[b]["card"], events[a]["card"]
    with pytest.raises(AssertionError):
        referee(swapped, row, arm)


def test_the_conformance_suite_runs_on_it():
    import test_conformance
    import test_layouts
    from referees import REFEREES

    assert set(TEST_GAMES) <= set(test_conformance.GAMES) & set(test_layouts.GAMES) & set(REFEREES)


# the toy's modules that are plumbing: everything but its rules (and its referee, which is not the game's code)
PLUMBING = ("__init__.py", "events.py", "row.py", "search_ops.py")


def code_lines(path):
    """Lines of code: not blank, not a comment, not a docstring."""
    text = path.read_text()
    docs = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            docs |= set(range(body[0].lineno, body[0].end_lineno + 1))
    return sum(1 for i, line in enumerate(text.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#") and i not in docs)


def test_its_plumbing_stays_small():
    assert sorted(p.name for p in TOY.glob("*.py")) == sorted([*PLUMBING, "rules.py", "referee.py"])
    plumbing = sum(code_lines(TOY / name) for name in PLUMBING)
    assert plumbing < 150, f"the toy's plumbing is {plumbing} lines of code"
