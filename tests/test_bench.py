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
