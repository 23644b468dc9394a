"""The Python API (analyzer/api.py, docs/api.md): the CLI's numbers to the last digit for the same scenario and
seed, whatever form the scenario takes; bad input as one ScenarioError carrying the CLI's line; Ctrl-C gives back
the games finished; per-game rows, verdicts, the notebook view; ladder, strength, tune, profile and trace as
their commands; and docs/api.md's example, run as written.

Small runs of kernels the other tests compile too (four threshold players of Bring the Noize, the toy game)."""
import ast
import csv
import json
import os
import re
import signal
import warnings
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main

ROOT = Path(__file__).resolve().parent.parent
NOIZE = ROOT / "scenarios" / "noize-4p.toml"
TOY_SCENARIOS = Path(__file__).parent / "toygame" / "scenarios"
GAMES, SEED = 2_000, 7
pytestmark = pytest.mark.usefixtures("test_games")  # (the toy game, registered for each test)


def cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    return r.exit_code, r.output


def cli_run(tmp_path, scenario, *args):
    out = tmp_path / "cli"
    code, output = cli("run", scenario, "-q", "--out", out, *args)
    assert code == 0, output
    return out


@pytest.fixture(scope="module")
def noize():
    return analyzer.run(NOIZE, games=GAMES, seed=SEED, progress=False, keep_games=True)


def test_the_public_names_are_listed_and_load_on_first_use():
    assert set(analyzer.__all__) <= set(dir(analyzer))
    for name in analyzer.__all__:
        assert getattr(analyzer, name) is not None
    with pytest.raises(AttributeError):
        analyzer.no_such_name


def test_a_run_gives_the_clis_numbers(noize, tmp_path):
    out = cli_run(tmp_path, NOIZE, "--games", GAMES, "--seed", SEED, "--keep-games")
    mine = noize.report(tmp_path / "api")
    assert (mine / "summary.csv").read_bytes() == (out / "summary.csv").read_bytes()
    written = pd.read_csv(out / "summary.csv", keep_default_na=False)
    assert list(written.columns) == list(noize.summary.columns) and len(written) == len(noize.summary)
    for column in ("value", "ci_low", "ci_high", "games"):
        assert written[column].tolist() == noize.summary[column].tolist()
    assert noize.manifest["games_played"] == GAMES and not noize.partial
    kept = pd.read_parquet(out / "games.parquet")
    assert noize.games.drop(columns="group").equals(kept) and set(noize.games.group) == {"baseline"}
    assert json.loads((mine / "manifest.json").read_text())["parquet"] == ["games.parquet"]


def test_a_path_toml_text_and_a_dict_are_the_same_scenario(noize):
    text = NOIZE.read_text()
    from_text = analyzer.run(text, games=GAMES, seed=SEED, progress=False)
    import tomllib

    from_dict = analyzer.run(tomllib.loads(text), games=GAMES, seed=SEED, progress=False)
    for other in (from_text, from_dict):
        assert other.summary[["value", "ci_low", "ci_high"]].equals(noize.summary[["value", "ci_low", "ci_high"]])


def test_set_overrides_as_a_dict_or_as_the_clis_key_value_lines(tmp_path):
    out = cli_run(tmp_path, NOIZE, "--games", 500, "--set", "rules.shuffle_each_round=true", "--set",
                  "all_seats.bluff=0.3")
    by_dict = analyzer.run(NOIZE, games=500, set={"rules.shuffle_each_round": True, "all_seats.bluff": 0.3},
                           progress=False)
    by_lines = analyzer.run(NOIZE, games=500, set=["rules.shuffle_each_round=true", "all_seats.bluff=0.3"],
                            progress=False)
    written = pd.read_csv(out / "summary.csv")
    assert by_dict.summary.value.tolist() == written.value.tolist() == by_lines.summary.value.tolist()


def bad_cases(tmp_path):
    """(CLI arguments, API call) pairs that are refused for the same reason."""
    bad = tmp_path / "bad.toml"
    bad.write_text(NOIZE.read_text().replace("players = 4", "players = 9"))
    unknown = tmp_path / "unknown.toml"
    unknown.write_text(NOIZE.read_text() + "\ncolour = \"red\"\n")
    return [(["run", bad], lambda: analyzer.run(bad)),
            (["run", unknown], lambda: analyzer.run(unknown)),
            (["run", tmp_path / "missing.toml"], lambda: analyzer.run(tmp_path / "missing.toml")),
            (["run", NOIZE, "--set", "all_seats.bluff=2"], lambda: analyzer.run(NOIZE, set={"all_seats.bluff": 2})),
            (["trace", "noize", "--scenario", NOIZE, "--variant", "x"],
             lambda: analyzer.trace("noize", scenario=NOIZE, variant="x"))]


def test_bad_input_is_one_scenario_error_saying_what_the_cli_says(tmp_path):
    for args, call in bad_cases(tmp_path):
        code, output = cli(*args)
        assert code == 2, output
        with pytest.raises(analyzer.ScenarioError) as e:
            call()
        said = output.strip().removeprefix("Error: ")
        flag = re.compile(r"--(set|variant)")  # the CLI names its flag, the API its argument
        assert flag.sub(r"\1", said) == str(e.value), args
    with pytest.raises(analyzer.ScenarioError, match="not a scenario"):
        analyzer.run(42)
    with pytest.raises(analyzer.ScenarioError, match=r"^\(scenario text\): is not valid TOML"):
        analyzer.run('game = "noize"\nplayers = = 4')
    for argument, value in (("threads", "x"), ("threads", 0), ("workers", 0), ("workers", -2), ("workers", True)):
        with pytest.raises(analyzer.ScenarioError, match=f"^{argument}: .*: give a whole number from 1 to "):
            analyzer.run(NOIZE, **{argument: value})
    with pytest.raises(analyzer.ScenarioError, match=r"noize-4p.toml, games: games = 0: must be an integer from 1"):
        analyzer.run(NOIZE, games=0)


def test_a_value_that_changes_no_game_is_a_warning():
    with pytest.warns(analyzer.IdleSettingWarning, match="all_seats.max_jump = 4: has no effect"):
        analyzer.run(NOIZE, games=200, set={"all_seats.bluff": 0.0, "all_seats.max_jump": 4}, progress=False)


def test_ctrl_c_gives_back_the_games_finished(monkeypatch):
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # (as the signal tests: a background job ignores Ctrl-C)
        pytest.skip("SIGINT is ignored in this process (started as a background job)")
    from analyzer import runner

    real, calls = runner.play_and_fold, []

    def play_and_fold(*args):  # a Ctrl-C while the third chunk is played
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*args)

    monkeypatch.setattr(runner, "play_and_fold", play_and_fold)
    with pytest.warns(UserWarning, match="partial result"):
        result = analyzer.run(NOIZE, games=10**7, seed=SEED, progress=False)
    assert result.partial and 0 < result.run.games < 10**7 and result.manifest["stopped_by"] == "SIGINT"
    metrics = result.summary[result.summary.kind == "metric"]
    assert result.summary.partial.all() and (metrics.games == result.run.games).all()
    whole = analyzer.run(NOIZE, games=result.run.games, seed=SEED, progress=False)
    assert result.summary.value.tolist() == whole.summary.value.tolist()  # (the finished games, none lost)


def test_verdicts_answer_and_the_notebook_view(noize, tmp_path):
    first = noize.verdicts.iloc[0]
    assert first.metric == "first_player_edge" and first.versus == "an even share"
    row = noize.summary[noize.summary.metric == "first_player_edge"].iloc[0]
    assert (first.difference, first.low, first.high) == (row.value, row.ci_low, row.ci_high)
    assert noize.answer.startswith("Question:") and "Seat 0 (plays first) wins" in noize.answer
    html = noize._repr_html_()
    assert "id='answer'" in html and "<table" in html and "first_player_edge" in html
    shuffle = analyzer.run(ROOT / "scenarios" / "noize-shuffle-vs-no-shuffle.toml", games=GAMES, progress=False)
    differences = shuffle.verdicts[shuffle.verdicts.versus != "an even share"]
    assert len(differences) and set(differences.verdict) <= {"matters", "below the margin", "not shown"}
    written = pd.read_csv(cli_run(tmp_path, ROOT / "scenarios" / "noize-shuffle-vs-no-shuffle.toml", "--games",
                                  GAMES) / "summary.csv")
    for _, d in differences.iterrows():
        line = written[(written.group == d.group) & (written.metric == d.metric)].iloc[0]
        assert (d.difference, d.low, d.high) == (line.diff_vs_baseline, line.diff_low, line.diff_high)


def test_trace_is_the_clis_jsonl_as_a_dataframe():
    path = TOY_SCENARIOS / "toy-lookahead.toml"
    args = ["trace", "toy", "--scenario", path, "--variant", "lookahead vs greedy", "--game-index", 3, "--format",
            "jsonl"]
    code, output = cli(*args)
    assert code == 0, output
    head, *events = [json.loads(line) for line in output.splitlines()]
    frame = analyzer.trace("toy", scenario=path, variant="lookahead vs greedy", game_index=3)
    assert frame.attrs["seats"] == head["seats"] and frame.attrs["seed"] == head["seed"]
    assert [{k: v for k, v in e.items() if v is not pd.NA and v is not None}
            for e in frame.to_dict("records")] == events



def test_ladder_and_strength_are_their_commands(tmp_path):
    code, output = cli("ladder", "toy", "--players", 2, "--games", 300, "-q", "--out", tmp_path / "ladder")
    assert code == 0, output
    ladder = analyzer.ladder("toy", players=2, games=300, progress=False)
    assert ladder.summary.value.tolist() == pd.read_csv(tmp_path / "ladder" / "summary.csv").value.tolist()
    code, output = cli("strength", "toy", "--games", 100, "-q", "--out", tmp_path / "strength")
    assert code == 0, output
    curve = analyzer.strength("toy", games=100, progress=False)
    written = pd.read_csv(tmp_path / "strength" / "strength.csv")
    assert curve.strength.rating.tolist() == written.rating.tolist()
    with pytest.raises(analyzer.ScenarioError, match="^budgets: 4: toy has no search policy"):
        analyzer.strength("toy", budgets=[4])


def test_the_commands_scenarios_take_the_clis_set_lines_beside_its_flags():
    """--set gives (key, value) overrides, a flag (key, value, flag): command_scenarios takes both."""
    from analyzer import command_scenarios as CS

    sc, _ = CS.strength("toy", None, None, [("seed", 3), ("games", 50, "--games")])
    assert (sc.seed, sc.games) == (3, 50)
    sc, _ = CS.ladder("toy", None, None, [("seed", 4)])
    assert sc.seed == 4
    assert CS.trace("toy", None, None, [("seed", 5)]).seed == 5
    with pytest.raises(analyzer.ScenarioError, match=r"^--set: 4: toy has no search policy"):
        CS.strength("toy", None, None, [("strength.budgets", [4])])


def test_profile_and_tune_are_their_commands(tmp_path):
    toy = {"game": "toy", "players": 3, "seed": 5, "games": 10, "name": "toy profile",
           "all_seats": {"policy": "greedy"}, "rules": {"hand_size": 3, "deck_size": 30},
           "profile": {"deals": 100, "replays": 2, "card_deals": 100, "kingmaker_deals": 100, "policy_deals": 100,
                       "traced_games": 50}}
    path = tmp_path / "toy.toml"
    path.write_text(toml(toy))
    code, output = cli("profile", path, "-q", "--out", tmp_path / "profile")
    assert code == 0, output
    mine = analyzer.profile(path)
    with open(tmp_path / "profile" / "profile.csv", newline="") as f:
        written = list(csv.reader(f))
    assert [written[0]] + [[str(x) for x in row] for row in mine.table.itertuples(index=False)] == written
    assert "Question" in mine.answer and not mine.partial and "kingmaker" in set(mine.checks.key)
    tune = {"name": "noize tune", "game": "noize", "games": 1000, "seed": 11, "players": 4,
            "all_seats": {"policy": "threshold"},
            "tune": {"trials": 3, "games": 400, "blocks": 1, "finalists": 2, "confirm_games": 1000,
                     "settings": [{"path": "rules.finish_cards", "low": 6, "high": 12}],
                     "objectives": [{"metric": "length", "goal": "min"}]}}
    path = tmp_path / "tune.toml"
    path.write_text(toml(tune))
    code, output = cli("tune", path, "-q", "--out", tmp_path / "tune")
    assert code == 0, output
    mine = analyzer.tune(path)
    written = pd.read_csv(tmp_path / "tune" / "tune.csv")
    assert mine.trials["rules.finish_cards"].tolist() == written["rules.finish_cards"].tolist()
    assert mine.race is not None and (mine.report(tmp_path / "mine") / "tune.csv").read_text() == \
        (tmp_path / "tune" / "tune.csv").read_text()


def toml(d, prefix=""):
    """A small dict as TOML (scalars, lists of scalars, tables, arrays of tables)."""
    lines, tables = [], []
    for k, v in d.items():
        if isinstance(v, dict):
            tables.append((f"{prefix}{k}", v, False))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            tables += [(f"{prefix}{k}", item, True) for item in v]
        else:
            lines.append(f"{k} = {json.dumps(v)}")
    for name, table, array in tables:
        lines.append(f"[[{name}]]" if array else f"[{name}]")
        lines.append(toml(table, f"{name}."))
    return "\n".join(lines) + "\n"


def test_the_docs_example_runs_as_written(tmp_path, monkeypatch):
    """docs/api.md's Python blocks, in order, in a fresh namespace (their files written into tmp_path)."""
    page = (ROOT / "docs" / "api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    namespace = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", analyzer.IdleSettingWarning)
        for block in blocks:
            ast.parse(block)
            exec(compile(block, "docs/api.md", "exec"), namespace)
    assert (tmp_path / "shuffle.png").stat().st_size > 10_000


def test_dask_workers_give_the_same_numbers(noize):
    pytest.importorskip("distributed")
    on_dask = analyzer.run(NOIZE, games=GAMES, seed=SEED, workers=2, progress=False, keep_games=True)
    assert on_dask.run.workers == 2
    assert on_dask.summary[["value", "ci_low", "ci_high"]].equals(noize.summary[["value", "ci_low", "ci_high"]])
    assert on_dask.games.sort_values(["group", "game"], ignore_index=True).equals(noize.games)
