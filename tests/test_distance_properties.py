"""The Distance over many random games: an independent referee replays every traced game by the rules
(cards conserved after every event, every play legal, must-play, draws and passes, reshuffles, human
errors, the end), across player counts, policies and options; and every batch game ends."""
import numpy as np
import pytest

from analyzer.games.distance import GAME
from distance_helpers import encoded, play, referee

CONFIGS = [
    (4, {}, [{"policy": "greedy"}] * 4),
    (2, {"interval": "sevenths"}, [{"policy": "random"}, {"policy": "conserve"}]),
    (3, {"interval": "thirds", "draw_limit": 0}, [{"policy": "conserve"}, {"policy": "random"}, {"policy": "greedy"}]),
    (5, {"interval": "random", "misplay_rate": 0.2, "forget_call_rate": 0.5},
     [{"policy": "random"}, {"policy": "greedy", "declare": "easy_self"}] * 2 + [{"policy": "conserve"}]),
    (4, {"interval": "chooser", "hand_size": 12, "draw_limit": 1},
     [{"policy": "greedy"}, {"policy": "random", "declare": "block_next"}, {"policy": "conserve", "wild_reserve": 5},
      {"policy": "greedy", "interval": "worst_for_next"}]),
    (2, {"interval": "fourths", "hand_size": 20, "misplay_rate": 0.05}, [{"policy": "greedy"}, {"policy": "random"}]),
    (3, {"interval": "random", "misplay_rate": 0.05, "forget_call_rate": 0.2},
     [{"policy": "lookahead", "samples": 2}, {"policy": "random"}, {"policy": "lookahead", "samples": 3, "horizon": 3,
                                                                     "declare": "easy_self"}]),
]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_the_referee_replays_many_games(config):
    players, rules, seats = CONFIGS[config]
    enc, r = encoded(players, rules, seats)
    for game in range(40):
        events, out = play(enc, seed=100 + config, game=game)
        referee(events, out, r, players)


def test_stalls_are_reached_and_replayed():
    """Two players dealt 20 cards each, drawing until something fits: stalls happen, and are checked."""
    enc, r = encoded(2, {"hand_size": 20, "draw_limit": 0, "interval": "sevenths"}, [{"policy": "conserve"}] * 2)
    ends = set()
    for game in range(60):
        events, out = play(enc, seed=7, game=game)
        referee(events, out, r, 2)
        ends.add(events[-1]["end"])
    assert "won" in ends


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_batch_games_end_with_one_winner_or_a_reported_stall(players):
    enc, r = encoded(players, {"interval": "random"}, [{"policy": "random"}] * players)
    out = np.zeros((5000, len(GAME.columns(players))), dtype=np.int64)
    GAME.run_batch(enc, 3, 0, out)
    cols = GAME.columns(players)
    nwin = out[:, cols.index("n_winners")]
    end = out[:, cols.index("end")]
    assert set(np.unique(nwin)) <= {0, 1}
    assert ((nwin == 1) == (end == 0)).all()
    left = out[:, [cols.index(f"cards_left_{s}") for s in range(players)]]
    winners = out[:, :players].argmax(axis=1)
    assert (left[np.arange(5000), winners][nwin == 1] == 0).all()
