"""The plain fast path (plain.py: every seat threshold with bluff 0, untraced, uncounted) plays the very games
engine.run plays: the same result rows, every column, at several player counts, seeds, thresholds and deals."""
import numpy as np
import pytest

from analyzer.games import get_game
from analyzer.games.noize import engine as E
from analyzer.games.noize import kernels as K
from analyzer.games.noize import plain as P
from analyzer.scenario import from_dict

GAME = get_game("noize")

CASES = {
    "4p as noize.c": {"players": 4, "all_seats": {"policy": "threshold", "bluff": 0.0, "compare_raise": False}},
    "2p low threshold": {"players": 2, "all_seats": {"policy": "threshold", "bluff": 0.0, "challenge_below": 0.2}},
    "3p shuffled each round, start 2 finish 9": {
        "players": 3, "rules": {"shuffle_each_round": True, "start_cards": 2, "finish_cards": 9},
        "all_seats": {"policy": "threshold", "bluff": 0.0, "challenge_below": 0.7}},
    "5p mixed thresholds": {"players": 5, "all_seats": {"policy": "threshold", "bluff": 0.0},
                            "seats": {"1": {"policy": "threshold", "bluff": 0.0, "challenge_below": 0.9,
                                            "compare_raise": False}}},
    "7p": {"players": 7, "all_seats": {"policy": "threshold", "bluff": 0.0}},
}


def _encoded(raw):
    sc = from_dict({"game": "noize", "games": 1, "seed": 1, **raw})
    return sc.arms[0].encoded(GAME), len(sc.arms[0].seats)


@pytest.mark.parametrize("name", CASES)
def test_the_plain_path_plays_the_games_of_the_general_kernel(name):
    enc, players = _encoded(CASES[name])
    rules, _, _, par, _, _, seat_rows, _ = enc
    assert P.applies(rules, par, seat_rows)
    for seed, first, games in ((3, 0, 1500), (11, 123_456_789, 700)):
        plain = np.full((games, len(GAME.columns(players))), -7, dtype=np.int64)
        general = plain.copy()
        P.batch(np.uint64(seed), first, *enc, plain)
        E.batch(np.uint64(seed), first, *enc, general)
        if not np.array_equal(plain, general):
            bad = np.flatnonzero((plain != general).any(axis=1))
            cols = [GAME.columns(players)[c] for c in np.flatnonzero(plain[bad[0]] != general[bad[0]])]
            raise AssertionError(f"{bad.size} games differ; the first, game {bad[0]}, in {cols}")
        # real games: several rounds, every row written
        assert (plain != -7).all() and plain[:, GAME.columns(players).index("length")].mean() > 2


@pytest.mark.parametrize("name", ["4p as noize.c", "3p shuffled each round, start 2 finish 9"])
def test_two_games_in_flight_play_every_block_size_as_one_game_at_a_time(name):
    """run_plain keeps two games in flight, and a slot with no game left plays a spare one (into a row of its own) until
    the other's game ends: blocks of 1, 2, 3 and 5 games, which end in either slot (or both in the same round), give
    engine.run's rows, and write nothing outside the block."""
    enc, players = _encoded(CASES[name])
    rules, deck, _, par, _, actions, seat_rows, _ = enc
    offsets = P.row_offsets(rules, actions.shape[1], seat_rows)
    games = 40
    general = np.full((games, len(GAME.columns(players))), -7, dtype=np.int64)
    E.batch(np.uint64(5), 1000, *enc, general)
    for size in (1, 2, 3, 5):
        plain = np.full_like(general, -7)
        for lo in range(0, games, size):
            hi = min(lo + size, games)
            P.play_chunk(np.uint64(5), 1000, lo, hi, rules, deck, actions, *offsets, plain)
            assert (plain[hi:] == -7).all()
        assert np.array_equal(plain, general), size


def test_only_a_plain_table_takes_the_plain_path(monkeypatch):
    for raw in ({"players": 4, "all_seats": {"policy": "threshold"}},  # bluffs (the default 0.1)
                {"players": 4, "all_seats": {"policy": "threshold", "bluff": 0.0},
                 "seats": {"2": {"policy": "random"}}}):
        enc, _ = _encoded(raw)
        rules, _, _, par, _, _, seat_rows, _ = enc
        assert not P.applies(rules, par, seat_rows)
    enc, _ = _encoded(CASES["4p as noize.c"])
    rules, _, _, par, _, _, seat_rows, _ = enc
    counting = rules.copy()
    counting[E.R_COUNT] = 1
    assert not P.applies(counting, par, seat_rows)
    # the batch entry chooses it for a plain table (run_batch: kernels.batch)
    chosen = []
    monkeypatch.setattr(P, "batch", lambda *a: chosen.append(1))
    K.batch(np.uint64(1), 0, *enc, np.zeros((4, 1), dtype=np.int64))
    assert chosen == [1]


NOT_PLAIN = {
    "a seat bluffs": {"players": 4, "all_seats": {"policy": "threshold", "bluff": 0.0}, "seats": {"2": {"bluff": 0.1}}},
    "a seat avoids Drums": {"players": 3, "all_seats": {"policy": "threshold", "bluff": 0.0, "avoid": "drums"}},
    "a random seat": {"players": 3, "all_seats": {"policy": "threshold", "bluff": 0.0},
                      "seats": {"0": {"policy": "random"}}},
    "a lookahead seat": {"players": 3, "all_seats": {"policy": "threshold", "bluff": 0.0},
                         "seats": {"1": {"policy": "lookahead"}}},
}


@pytest.mark.parametrize("name", list(CASES) + list(NOT_PLAIN))
def test_the_cold_start_reads_plain_from_the_seats_as_the_batch_does(name):
    """kernels._plain_seats (the warm-up's compile parts, before any encoding) says plain exactly where plain.applies
    does on the encoding, for settings whose table of moves fits."""
    raw = {**CASES, **NOT_PLAIN}[name]
    sc = from_dict({"game": "noize", "games": 1, "seed": 1, **raw})
    rules, _, _, par, _, _, seat_rows, _ = sc.arms[0].encoded(GAME)
    assert K._plain_seats(sc.arms[0]) == P.applies(rules, par, seat_rows) == (name in CASES)
