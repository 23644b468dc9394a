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


def test_every_misplay_records_what_the_table_saw():
    """Many games with frequent misplays. The referee checks each misplay event by the rulebook: the cards put
    down come from the seat's hand and, with the letter said, are no legal play; the play meant is legal.
    Here: both slips happen (a wrong card, called as the letter meant; the cards meant, called wrongly), and
    nothing left the seat's hand: her next turn finds her holding her cards plus every card she drew."""
    enc, r = encoded(3, {"interval": "random", "misplay_rate": 0.3},
                     [{"policy": "random"}, {"policy": "greedy"}, {"policy": "conserve"}])
    slips = {"wrong card": 0, "wrong letter": 0}
    for game in range(60):
        events, out = play(enc, seed=11, game=game)
        referee(events, out, r, 3)
        turn_start = 0
        for i, ev in enumerate(events):
            if ev["type"] == "turn":
                turn_start = i
            if ev["type"] != "penalty" or ev["kind"] != "misplay":
                continue
            seat = ev["seat"]
            if ev["cards_taken_back"] != ev["intended_cards"]:
                slips["wrong card"] += 1
                assert len(ev["cards_taken_back"]) == 1 and ev["letter"] == ev["intended_letter"]
            else:
                slips["wrong letter"] += 1
                assert ev["letter"] != ev["intended_letter"]
            nxt = next((e for e in events[i:] if e["type"] == "turn" and e["seat"] == seat), None)
            if nxt is not None:
                drew = sum(e["type"] == "draw" and e["seat"] == seat for e in events[turn_start:events.index(nxt)])
                assert nxt["hand_size"] == events[turn_start]["hand_size"] + drew
    assert min(slips.values()) >= 20, slips


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
