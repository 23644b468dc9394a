"""`analyzer bench`'s search figures (analyzer/bench.py): every game with a `search` policy is timed, at each budget;
every game's start-up is timed on a plain scenario and on its skill scenario."""
import tomllib
from pathlib import Path

from analyzer import bench
from analyzer.games import game_names, get_game


def test_every_game_with_a_search_policy_is_benched_at_each_budget():
    searching = [g for g in game_names() if get_game(g).policy("search") is not None]
    assert set(searching) >= {"bards", "distance", "noize"}
    cases = bench.search_cases()
    assert [(game.name, budget) for _, game, budget in cases] == [(g, b) for g in searching
                                                                  for b in bench.SEARCH_BUDGETS]
    assert all(get_game(g).search_block is not None for g in searching)
    assert [name for name, _, _ in bench.search_cases("noize: search 64")] == ["noize: search 64 vs threshold"]


def test_every_game_s_start_is_timed_on_a_plain_and_on_its_skill_scenario():
    for timed in (bench.START_SCENARIOS, bench.SKILL_START_SCENARIOS):
        assert sorted(game for game, _ in timed) == ["bards", "distance", "fightsong", "noize"]
        for game, name in timed:
            with open(Path(bench.SCENARIOS) / name, "rb") as f:
                scenario = tomllib.load(f)
            assert scenario["game"] == game
            assert ("skill" in scenario) == (timed is bench.SKILL_START_SCENARIOS), name


def test_an_earlier_revision_is_timed_from_this_checkout_s_history(tmp_path, capsys):
    """BASELINES: each case is a bench case, its revision is in this checkout's history (a clone's `make bench` can
    extract it), and a revision that is not gives one line saying so instead of a figure."""
    import subprocess

    git = ["git", "-C", bench.ROOT]
    full_history = (Path(bench.ROOT) / ".git").exists() and subprocess.run(
        git + ["rev-parse", "--is-shallow-repository"], capture_output=True, text=True).stdout.strip() == "false"
    for case, (rev, _) in bench.BASELINES.items():
        assert case in bench.CASES
        if full_history:  # (a shallow clone's bench says the revision is missing: the next assertion's case)
            assert subprocess.run(git + ["merge-base", "--is-ancestor", rev, "HEAD"]).returncode == 0
    assert bench._baseline_tree("0000000", str(tmp_path)) is None
    assert "has no 0000000" in capsys.readouterr().out


def test_a_case_s_figures_are_read_back_from_the_line_bench_prints():
    name = "bards: greedy split + greedy play"
    output = f"machine: 2 cores\n{bench._case_row(name + ' x', 1.0, 1.0)}\n{bench._case_row(name, 71247.4, 70279.0)}\n"
    assert bench._case_line(output, name) == (71247.0, 70279.0)
    assert bench._case_line(output, "bards: random") is None
