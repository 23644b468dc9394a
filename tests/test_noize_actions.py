"""The threshold policy's tabulated moves (actions.py) play exactly the games of deciding in play.

`encode` tabulates a threshold seat's every move when the table fits; otherwise (or forced here with
`scalar_only`) every seat decides in play from the probability table. Both must give the same games,
bit for bit, for every mix of policies and parameters."""
import numpy as np
import pytest

from analyzer.games import get_game
from analyzer.games.noize import actions as A
from analyzer.games.noize import engine as E
from analyzer.scenario import from_dict

GAME = get_game("noize")

CASES = {
    "4p default": {"players": 4, "all_seats": {"policy": "threshold"}},
    "4p as noize.c": {"players": 4, "all_seats": {"policy": "threshold", "bluff": 0.0, "compare_raise": False}},
    "4p mixed": {"players": 4, "all_seats": {"policy": "threshold"},
                 "seats": {"1": {"policy": "random"},
                           "2": {"policy": "threshold", "challenge_below": 0.3, "bluff": 0.5, "max_jump": 5}}},
    "2p never challenges below": {"players": 2, "all_seats": {"policy": "threshold", "challenge_below": 0.0,
                                                              "compare_raise": False, "bluff": 0.0}},
    "3p shuffled each round": {"players": 3, "rules": {"shuffle_each_round": True},
                               "all_seats": {"policy": "threshold", "challenge_below": 0.9}},
    "7p jump bluffs": {"players": 7, "all_seats": {"policy": "threshold", "bluff": 1.0, "max_jump": 10}},
    "4p odd deck": {"players": 4, "rules": {"vocals": 3, "keyboard": 30, "guitar": 0, "drums": 9, "groupies": 15,
                                            "start_cards": 2, "finish_cards": 8},
                    "all_seats": {"policy": "threshold", "bluff": 0.0}},
}


def _encoded(raw):
    sc = from_dict({"game": "noize", "games": 1, "seed": 1, **raw})
    return sc.arms[0].encoded(GAME), len(sc.arms[0].seats)


def _games(encoded, players, games=3000, seed=99, first=7):
    out = np.zeros((games, len(GAME.columns(players))), dtype=np.int64)
    GAME.run_batch(encoded, seed, first, out)
    return out


def _in_play(encoded, players):
    """The same arms with every seat deciding in play (the fallback for tables too large)."""
    return encoded[:5] + A.scalar_only(players)


@pytest.mark.parametrize("name", sorted(CASES))
def test_looked_up_moves_play_the_same_games_as_deciding_in_play(name):
    encoded, players = _encoded(CASES[name])
    actions, seat_rows = encoded[5], encoded[6]
    assert actions.size > 0 and (seat_rows >= 0).any(), "this case should use the table"
    table_games = _games(encoded, players)
    assert np.array_equal(table_games, _games(_in_play(encoded, players), players))
    # and the trace (which takes the general bidding loop) replays batch game i exactly
    for i in (0, 5):
        assert np.array_equal(GAME.play_traced(encoded, 99, 7 + i)[1], table_games[i])


def test_every_move_in_the_table_is_the_policy_s_move():
    encoded, players = _encoded(CASES["4p mixed"])
    rules, _, pol, par, table, actions, seat_rows, first_hand = encoded
    start, finish = int(rules[E.R_START]), int(rules[E.R_FINISH])
    rng = np.random.default_rng(5)
    bits = E.count_bits(finish)
    lo, hi = A.hidden_range(players, start, finish)
    cnt = np.zeros((players, E.N_TYPES), dtype=np.int64)
    hand = np.zeros(players, dtype=np.int64)
    for _ in range(2000):
        seat = int(rng.choice(np.flatnonzero(seat_rows >= 0)))
        h = int(rng.integers(start, finish))
        cnt[seat] = rng.multinomial(h, [0.2] * 5)
        hand[seat] = h
        hidden = int(rng.integers(lo, hi + 1))
        cur = int(rng.integers(-1, 4 * (h + hidden) + 12))
        packed = sum(int(cnt[seat, t]) << (E.FIELD * t) for t in range(4))
        row = seat_rows[seat] + E.hand_index(packed, h, start, bits, first_hand) * (hi - lo + 1) + hidden - lo
        looked_up = actions[row, min(cur + 1, actions.shape[1] - 1)]
        assert looked_up == E.threshold_move(seat, cur, par, cnt, hand, start, hidden, table, -1)


def test_too_large_a_table_falls_back_to_deciding_in_play():
    # 3 players up to 19 cards: up to 57 cards in play, so a raise's key does not fit in a byte
    encoded, players = _encoded({"players": 3, "rules": {"start_cards": 5, "finish_cards": 20},
                                 "all_seats": {"policy": "threshold"}})
    assert encoded[5].size == 0 and (encoded[6] < 0).all()
    out = _games(encoded, players, games=200)
    assert (out[:, GAME.columns(players).index("length")] > 0).all()


def test_a_set_built_once_gives_the_tables_built_afresh():
    # a sweep's rotations and variants reuse each parameter set's block (actions._block); the table made from
    # blocks built for another order of the seats is the one built with no block kept
    raw = {"players": 4, "all_seats": {"policy": "threshold"},
           "seats": {"1": {"policy": "threshold", "challenge_below": 0.3}, "3": {"policy": "random"}}}
    A._BLOCKS.clear()
    fresh, _ = _encoded(raw)
    rotated = {**raw, "seats": {"2": raw["seats"]["1"], "0": raw["seats"]["3"]}}
    _encoded(rotated)  # (builds the same two sets, the other one first)
    assert len(A._BLOCKS) == 2
    again, _ = _encoded(raw)
    for kept, new in zip(again[5:], fresh[5:]):
        assert np.array_equal(kept, new)
    assert again[5].ctypes.data % 64 == 0 and again[5].flags.writeable
