"""`analyzer bench`'s search figures (analyzer/bench.py): every game with a `search` policy is timed, at each budget."""
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
