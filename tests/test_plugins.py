"""Games as plugins (issue 33): a game in another package registers through an entry point of group
`analyzer.games` and is then a game like the built-in four; `analyzer check-game NAME` runs the conformance
checks (analyzer/conformance.py) on any registered game.

- the registry's reading of entry points, on made-up ones (importlib.metadata.entry_points monkeypatched): read
  once, and not at all for a built-in game; a misnamed game, one that fails to import, a missing module, a
  built-in's name taken, two packages giving one name two games: one line naming the entry point;
- the built-ins' entry points in pyproject.toml are the registry's built-in table;
- check-game's lines and exit status, for checks that pass, fail and skip (checks monkeypatched: no games);
- the toy plugin (tests/toyplugin) installed with pip in a virtual environment of its own, where
  `analyzer games` lists it, `analyzer run` writes the report of a toy scenario and `analyzer check-game toy`
  passes, its referee included. It shares the suite's numba cache, so the analyzer's own kernels are not
  compiled again for it (with the cache warm, 31.7 s in a cache of its own, 8.5 s in the suite's).
"""
import csv
import os
import shutil
import site
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import analyzer.games as registry
from analyzer import conformance
from analyzer.cli import main
from analyzer.errors import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


@pytest.fixture
def installed(monkeypatch):
    """Installs made-up entry points: installed({"name": "target", ...}, package="..."), several calls adding
    packages; the registry reads them afresh (its once-read table reset), and the calls are counted."""
    import importlib.metadata

    eps, calls = [], []

    def entry_points(group):
        calls.append(group)
        return [ep for ep in eps if ep.group == group]

    def add(table, package="analyzer-toy"):
        dist = SimpleNamespace(name=package)
        eps.extend(SimpleNamespace(name=n, value=v, group=registry.GROUP, dist=dist) for n, v in table.items())

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_INSTALLED", None)
    monkeypatch.delenv(registry.ENV, raising=False)
    add.calls = calls
    return add


def test_an_entry_point_registers_a_game_read_once_and_only_when_needed(installed):
    installed({"toy": "toygame"})
    assert registry.get_game("noize").name == "noize" and installed.calls == []  # (a built-in: no metadata read)
    assert registry.game_names() == ["noize", "bards", "distance", "fightsong", "toy"]
    assert registry.game_module("toy") == "toygame" and registry.get_game("toy").title == "High Card (the toy game)"
    assert registry.get_game("nothing") is None
    assert installed.calls == [registry.GROUP]  # (read once)


def test_the_analyzers_own_entry_points_are_the_built_in_games(installed):
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][registry.GROUP]
    assert declared == registry._BUILT_IN
    installed(declared, package="analyzer")  # (as installed: they agree with the built-in table)
    assert registry.game_names() == list(declared)


def one_line_error(name):
    with pytest.raises(ScenarioError) as err:
        registry.get_game(name)
    said = str(err.value)
    assert "\n" not in said
    return said


ENTRY = 'analyzer-toy, [project.entry-points."analyzer.games"]: '


def test_a_misnamed_game_is_one_line_naming_its_entry_point(installed):
    installed({"tot": "toygame"})
    assert one_line_error("tot") == ENTRY + 'tot = "toygame": this game is named \'toy\': register it under its own name'


def test_a_game_that_fails_to_import_is_one_line_naming_its_entry_point(installed, tmp_path, monkeypatch):
    (tmp_path / "broken_game.py").write_text('raise RuntimeError("needs numba 9\\nand more")\n')
    (tmp_path / "gameless.py").write_text("GAME = 'not a Game'\n")
    monkeypatch.syspath_prepend(tmp_path)
    installed({"broken": "broken_game", "missing": "no_such_module", "gameless": "gameless"})
    assert one_line_error("broken") == (ENTRY + 'broken = "broken_game": importing \'broken_game\' failed: '
                                        "RuntimeError: needs numba 9\\nand more")
    assert one_line_error("missing") == ENTRY + 'missing = "no_such_module": no module \'no_such_module\' can be imported'
    assert one_line_error("gameless") == ENTRY + 'gameless = "gameless": module \'gameless\' has no Game named GAME'
    assert "broken_game" not in sys.modules


def test_a_built_in_name_or_one_name_for_two_games_is_refused(installed):
    installed({"noize": "analyzer.games.noize"}, package="analyzer")  # (the analyzer's own: fine)
    installed({"noize": "toygame"}, package="other-noize")
    with pytest.raises(ScenarioError, match=r"^other-noize, .*: noize = \"toygame\": a built-in game's name"):
        registry.game_names()


def test_two_packages_giving_one_name_two_games_are_refused(installed):
    installed({"toy": "toygame"})
    installed({"toy": "another.toy"}, package="another-toy")
    with pytest.raises(ScenarioError, match=r"^another-toy, .*: toy = \"another.toy\": analyzer-toy, .* gives this "
                                            r"name to 'toygame': uninstall one of the two packages$"):
        registry.game_names()


def test_ANALYZER_GAMES_and_register_win_over_an_entry_point(installed, monkeypatch):
    installed({"toy": "no_such_module"})
    monkeypatch.setenv(registry.ENV, "toy=toygame")
    assert registry.get_game("toy").name == "toy"
    monkeypatch.delenv(registry.ENV)
    registry.register("toy", "toygame:GAME")
    try:
        assert registry.game_module("toy") == "toygame" and registry.game_names().count("toy") == 1
    finally:
        registry.unregister("toy")


# check-game's report, on checks made up here (conformance.results runs them as it runs the real ones)
def passes(name):
    """passes"""


# (AssertionError raised, not asserted: pytest rewrites this module's asserts, adding to their messages)
def fails_saying_why(name):
    """fails, saying why"""
    raise AssertionError(f"{name} is not other")


def fails_silently(name):
    """fails on a bare assert"""
    raise AssertionError


def runs_the_trace_command(name, invoke):
    """runs `analyzer trace --help`"""
    assert invoke(["trace", "--help"])[0] == 0


def test_check_game_says_each_check_and_exits_1_if_one_fails(monkeypatch):
    monkeypatch.setattr(conformance, "PLAIN", (passes, fails_saying_why, fails_silently))
    monkeypatch.setattr(conformance, "TRACE", runs_the_trace_command)
    monkeypatch.setattr(conformance, "REFEREED", (passes,))
    monkeypatch.setattr(conformance, "referee_of", lambda name: None)
    r = CliRunner().invoke(main, ["check-game", "noize"])
    assert r.exit_code == 1, r.output
    lines = r.output.splitlines()
    assert lines[1].startswith("pass  passes (") and lines[1].endswith(" s)")
    assert lines[2].startswith("FAIL  fails, saying why (") and lines[2].endswith(" s): noize is not other")
    bare = fails_silently.__code__.co_firstlineno + 2  # (its line)
    assert lines[3].startswith("FAIL  fails on a bare assert (")
    assert lines[3].endswith(f" s): test_plugins.py:{bare}: raise AssertionError")
    assert lines[4].startswith("pass  runs `analyzer trace --help` (")
    assert lines[5] == "skip  passes: no referee (a game's package offers one as its module referee.py)"
    assert lines[6:] == ["noize: 2 passed, 2 failed, 1 skipped"]


def test_check_game_passes_when_every_check_does(monkeypatch):
    monkeypatch.setattr(conformance, "PLAIN", (passes,))
    monkeypatch.setattr(conformance, "TRACE", runs_the_trace_command)
    monkeypatch.setattr(conformance, "REFEREED", ())
    r = CliRunner().invoke(main, ["check-game", "bards"])
    assert r.exit_code == 0 and r.output.splitlines()[-1] == "bards: 2 passed, 0 failed, 0 skipped", r.output


def test_check_game_refuses_an_unknown_game():
    r = CliRunner().invoke(main, ["check-game", "chess"])
    assert r.exit_code == 2 and "'chess': known games are noize, bards, distance, fightsong" in r.output


def test_the_toy_offers_its_referee_from_its_package(test_games):
    referee = conformance.referee_of("toy")  # (which imports the toy through the registry: never import it first)
    assert referee is sys.modules["toygame.referee"].referee and conformance.referee_of("noize") is None


def plugin_venv(tmp_path):
    """A virtual environment that sees this one's packages (a .pth file adding its site folders) and has the toy
    plugin installed by pip, offline: a copy of tests/toyplugin and tests/toygame (pip builds in the folder)."""
    from importlib.util import find_spec

    assert find_spec("setuptools.command.bdist_wheel"), (
        "setuptools >= 70.1 (the test extra) builds the plugin without the network: pip install -e '.[test]'")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    parents = site.getsitepackages() + ([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])
    Path(purelib, "_parent_venv.pth").write_text("".join(f"import site; site.addsitedir({p!r})\n" for p in parents))
    src = tmp_path / "src"
    for folder in ("toyplugin", "toygame"):
        shutil.copytree(TESTS / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    r = subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "-q",
                        str(src / "toyplugin")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return python, Path(purelib)


def test_the_toy_plugin_installs_and_is_a_game_like_the_others(tmp_path):
    python, purelib = plugin_venv(tmp_path)
    assert (purelib / "toygame" / "toy.md").is_file() and (purelib / "toygame" / "scenarios").is_dir()
    # this checkout's analyzer (tests/ not on the path: the toy comes from the plugin)
    env = {k: v for k, v in os.environ.items() if k != registry.ENV}
    env.update(PYTHONPATH=str(ROOT))

    def analyzer(*args):
        r = subprocess.run([python, "-m", "analyzer", *map(str, args)], env=env, capture_output=True, text=True,
                           cwd=tmp_path)
        return r.returncode, r.stdout, r.stderr

    code, out, err = analyzer("games")
    assert code == 0, err
    assert "\ntoy: High Card (the toy game), 2-4 players" in out and out.startswith("noize: ")
    code, out, err = analyzer("run", purelib / "toygame" / "scenarios" / "toy-hand-size.toml", "--games", 200, "-q",
                              "--out", tmp_path / "report")
    assert code == 0, err
    with open(tmp_path / "report" / "summary.csv", newline="") as f:
        rows = {(row["group"], row["metric"]): row for row in csv.DictReader(f)}
    length = rows["rules.hand_size=10", "length"]
    assert float(length["value"]) == 10 and int(length["games"]) == 200
    assert f"[{purelib / 'toygame' / 'toy.md'}](" in (tmp_path / "report" / "report.md").read_text()
    code, out, err = analyzer("check-game", "toy")
    assert code == 0, out + err
    lines = out.splitlines()
    assert [line[:6] for line in lines[1:-1]] == ["pass  "] * 10, out  # (the referee's two among them)
    assert lines[-1] == "toy: 10 passed, 0 failed, 0 skipped"
