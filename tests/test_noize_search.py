"""Bring the Noize `search` policy (issue 28): it selects the lookahead kernel, its parameters have ranges, a
traced game is the batch's game, and it beats threshold head to head with the seats rotated."""
import numpy as np
import pytest

from analyzer.errors import ScenarioError
from analyzer.games.noize import GAME
from analyzer.games.noize import lookahead as LA
from analyzer.scenario import from_dict
from test_noize_properties import check_game


def _rows(raw):
    sc = from_dict(raw)
    out = np.zeros((raw["games"], len(GAME.columns(raw["players"]))), dtype=np.int64)
    GAME.run_batch(sc.arms[0].encoded(GAME), raw["seed"], 0, out)
    return out


def test_a_search_seat_selects_the_lookahead_kernel():
    sc = from_dict({"game": "noize", "games": 10, "seed": 1, "players": 3, "all_seats": {"policy": "threshold"},
                    "seats": {"1": {"policy": "search", "rollout": "random"}}})
    rules, deck, pol, par = sc.arms[0].encoded(GAME)[:4]
    assert LA.uses_lookahead(pol)
    assert list(par[1]) == [256, 0.7, 1, 1]  # budget, c, rollout (tree.ROLLOUTS' index), horizon


@pytest.mark.parametrize("bad", [{"budget": 0}, {"budget": 100001}, {"c": -0.1}, {"c": 10.5}, {"rollout": "best"},
                                 {"horizon": -1}, {"horizon": 501}])
def test_search_parameters_have_ranges(bad):
    with pytest.raises(ScenarioError):
        from_dict({"game": "noize", "games": 10, "seed": 1, "players": 2, "all_seats": {"policy": "search", **bad}})


def test_traced_search_game_equals_batch_game():
    raw = {"game": "noize", "games": 6, "seed": 3, "players": 3, "all_seats": {"policy": "threshold"},
           "seats": {"0": {"policy": "search", "budget": 16}, "2": {"policy": "search", "budget": 24,
                                                                    "rollout": "random", "horizon": 2}}}
    rows = _rows(raw)
    sc = from_dict(raw)
    enc = sc.arms[0].encoded(GAME)
    for index in (0, 5):
        events, row = GAME.play_traced(enc, raw["seed"], index)
        assert np.array_equal(row, rows[index])
        check_game(events, row, 3, sc.arms[0].rules)
        assert any(e["type"] == "bid" and e["policy_note"] == "search" for e in events)


def test_search_beats_threshold_head_to_head_with_seats_rotated():
    """2 players, GAMES deals played from both seats: search (budget 128) against threshold (default
    parameters), its win share with a 95% interval above an even half (measured: 63.0%, interval from 59.7%;
    budget 48 gave only 52.5%, interval from 48.5%: too few iterations for its 13 or so first moves)."""
    players, games = 2, GAMES
    share = 0.0
    for seat in range(players):
        raw = {"game": "noize", "games": games, "seed": 5, "players": players, "all_seats": {"policy": "threshold"},
               "seats": {str(seat): {"policy": "search", "budget": 128}}}
        out = _rows(raw)
        share += float((out[:, seat] / out[:, players]).sum())
    total = players * games
    share /= total
    low = share - 1.96 * (share * (1 - share) / total) ** 0.5
    assert low > 1 / players, (share, low, total)


GAMES = 400
