"""The Distance `search` policy (issue 28) against `lookahead` head to head, seats rotated on shared deals, and its
counters (analyzer bench)."""
import numpy as np
import pytest

from analyzer.games.distance import GAME
from analyzer.games.search.tree import COUNT_DECISIONS, COUNT_PLAYOUTS
from analyzer.scenario import from_dict


def _rows(raw):
    sc = from_dict(raw)
    out = np.zeros((raw["games"], len(GAME.columns(raw["players"]))), dtype=np.int64)
    GAME.run_batch(sc.arms[0].encoded(GAME), raw["seed"], 0, out)
    return out


def _share(players, games, seed, search):
    """search's share of the games (a shared win split, a game without a winner nobody's) in one seat against
    lookahead (default parameters) in the others, the seat rotated over the same deals; and its 95% interval's
    lower end."""
    share = 0.0
    for seat in range(players):
        raw = {"game": "distance", "games": games, "seed": seed, "players": players,
               "all_seats": {"policy": "lookahead"}, "seats": {str(seat): {"policy": "search", **search}}}
        out = _rows(raw)
        winners = out[:, players]
        share += float(np.divide(out[:, seat], winners, out=np.zeros(games), where=winners > 0).sum())
    total = players * games
    share /= total
    return share, share - 1.96 * (share * (1 - share) / total) ** 0.5


def test_search_beats_lookahead_head_to_head_with_seats_rotated():
    """2 players, 1,000 deals from both seats, seed 2026, both at default parameters (search budget 256): its
    share with a 95% interval above an even half (docs/distance.md, "search")."""
    share, low = _share(2, 1000, 2026, {})
    assert low > 1 / 2, (share, low)


@pytest.mark.strength
def test_search_beats_three_lookahead_players_decisively():
    """4 players, 1,000 deals per seat, seed 2026: above an even quarter (docs/distance.md, "search")."""
    share, low = _share(4, 1000, 2026, {})
    assert low > 1 / 4, (share, low)


def test_the_search_counters_count_decisions_and_playouts():
    """GAME.search_block (analyzer bench) plays the batch's games; every decision searched runs budget playouts."""
    budget, games = 16, 3
    raw = {"game": "distance", "games": games, "seed": 4, "players": 2, "all_seats": {"policy": "greedy"},
           "seats": {"0": {"policy": "search", "budget": budget}}}
    enc = from_dict(raw).arms[0].encoded(GAME)
    out = np.zeros((games, len(GAME.columns(2))), dtype=np.int64)
    counts = GAME.search_block(np.uint64(4), 0, 0, games, *enc, out)
    assert np.array_equal(out, _rows(raw))
    assert counts[COUNT_DECISIONS] > 0 and counts[COUNT_PLAYOUTS] % budget == 0
    assert 0 < counts[COUNT_PLAYOUTS] <= budget * counts[COUNT_DECISIONS]
