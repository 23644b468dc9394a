"""The greedy fast path (engine.greedy_turns, packed hands) plays the very games the general turn loop plays:
the same deals through both paths give the same result rows, at every player count and interval and with the
hand, draw-limit, turn-cap, interval-mode and deck options (docs/distance.md, "How the greedy kernel is fast")."""
import numpy as np
import pytest

from analyzer.games.distance import GAME
from analyzer.games.distance import engine as E
from analyzer.games.distance import state as S
from distance_helpers import encoded, write_deck

INTERVALS = ("seconds", "thirds", "fourths", "fifths", "sixths", "sevenths")


def both_paths(enc, players, games, seed=5, first_game=0):
    """The result rows of the same games by the fast path and by the general loop."""
    config, rates, _ = enc
    fast = np.full((games, len(GAME.columns(players))), -7, dtype=np.int64)
    general = fast.copy()
    E.batch(np.uint64(seed), first_game, config, rates, fast)
    E.batch(np.uint64(seed), first_game, config, rates, general, fast_path=0)
    return fast, general


def assert_same(fast, general, players):
    if not np.array_equal(fast, general):
        bad = np.flatnonzero((fast != general).any(axis=1))
        cols = np.flatnonzero((fast[bad[0]] != general[bad[0]]))
        names = [GAME.columns(players)[c] for c in cols]
        raise AssertionError(f"{bad.size} games differ; the first, game {bad[0]}, in {names}: "
                             f"fast {fast[bad[0], cols].tolist()} general {general[bad[0], cols].tolist()}")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_interval_plays_the_same_games_by_both_paths(players):
    for interval in INTERVALS:
        (config, rates, names), _ = encoded(players, {"interval": interval})
        assert E.greedy_fast(config, rates) == 1
        fast, general = both_paths((config, rates, names), players, 3000)
        assert_same(fast, general, players)
        # the games are real games: someone won most of them, and reshuffles happened
        cols = GAME.columns(players)
        assert fast[:, cols.index("n_winners")].mean() > 0.9
        assert fast[:, cols.index("reshuffles")].sum() > 0


@pytest.mark.parametrize("rules", [
    {"hand_size": 1}, {"hand_size": 3, "draw_limit": 1}, {"hand_size": 10, "draw_limit": 0},
    {"draw_limit": 5, "interval": "fourths"}, {"draw_limit": 50}, {"turn_cap": 10},
    {"interval": "random", "random_intervals": [3, 7]}, {"interval": "chooser"},
])
def test_the_rule_options_play_the_same_games_by_both_paths(rules):
    for players in (2, 5):
        if players * rules.get("hand_size", 7) + 1 > 54:
            continue
        (config, rates, names), _ = encoded(players, rules)
        assert E.greedy_fast(config, rates) == 1
        fast, general = both_paths((config, rates, names), players, 2000)
        assert_same(fast, general, players)
    if rules == {"turn_cap": 10}:  # the cap is reached, and by both alike
        assert (fast[:, GAME.columns(players).index("end")] == E.END_CAP).any()


def test_a_deck_of_its_own_packs_or_takes_the_general_loop(tmp_path):
    # three wild kinds (laid in deck order) and a kind of 15 copies still pack
    path = write_deck(tmp_path, "A,A,15\nB,B,3\nC,C,2\nX,*,1\nD,D,3\nY,*,2\nE,E,2\nF,F,2\nF#/Gb,F G,2\nG,G,2\nZ,*,1\n")
    (config, rates, names), _ = encoded(3, {"deck_file": path, "hand_size": 4})
    assert config[S.C_PACKED] == 1 and E.greedy_fast(config, rates) == 1
    fast, general = both_paths((config, rates, names), 3, 3000)
    assert_same(fast, general, 3)
    # a deck of 10 cards stalls most games (a round of passes with nothing to draw): the same stalls
    path = write_deck(tmp_path, "A#/Bb,A B,1\nC,C,1\nD,D,2\nE,E,2\nF,F,2\nG,G,2\n")
    (config, rates, names), _ = encoded(2, {"deck_file": path, "hand_size": 3})
    fast, general = both_paths((config, rates, names), 2, 3000)
    assert_same(fast, general, 2)
    assert (fast[:, GAME.columns(2).index("end")] == 1).mean() > 0.5
    # 16 copies of a kind do not fit a 4-bit count: the general loop plays (the fast path is not taken)
    path = write_deck(tmp_path, "A,A,16\nB,B,4\nC,C,4\nD,D,4\nE,E,4\nF,F,4\nG,G,4\nW,*,2\n")
    (config, rates, _), _ = encoded(3, {"deck_file": path})
    assert config[S.C_PACKED] == 0 and E.greedy_fast(config, rates) == 0


def test_long_games_play_the_same_across_the_flushes_of_the_packed_counters(tmp_path):
    # no F or G in the deck: the letter F waits for a wild, so many games run past greedy_turns' SEGMENT turns,
    # after which its row counts and drama lanes are flushed and started afresh
    path = write_deck(tmp_path, "A,A,6\nB,B,6\nC,C,6\nD,D,6\nE,E,6\nW,*,2\n")
    (config, rates, names), _ = encoded(3, {"deck_file": path, "hand_size": 4})
    assert E.greedy_fast(config, rates) == 1
    fast, general = both_paths((config, rates, names), 3, 500)
    assert_same(fast, general, 3)
    cols = GAME.columns(3)
    assert (fast[:, cols.index("length")] > 2 * E.SEGMENT).any()
    assert (fast[:, cols.index("decided_at")] > E.SEGMENT).any()  # a last turn trailing in a later segment


def test_the_fast_path_is_only_for_untraced_greedy_games_without_human_error():
    (config, rates, _), _ = encoded(4, {"misplay_rate": 0.01})
    assert E.greedy_fast(config, rates) == 0
    (config, rates, _), _ = encoded(4, {"forget_call_rate": 0.5})
    assert E.greedy_fast(config, rates) == 0
    (config, rates, _), _ = encoded(4, seats=[{"policy": "greedy"}] * 3 + [{"policy": "conserve"}])
    assert E.greedy_fast(config, rates) == 0


def test_a_fast_game_leaves_the_state_the_general_loop_leaves():
    # the packed hands are written back: counts, wilds, hand sizes, stock, discard pile and its counts
    (config, rates, _), _ = encoded(4, {"interval": "thirds"})
    out = np.zeros(len(GAME.columns(4)), dtype=np.int64)
    dummy = np.zeros((1, 1), dtype=np.int64)
    for game in range(200):
        states = []
        for fast in (1, 0):
            rng = np.zeros(2 * (4 + E.N_STREAMS_EXTRA), dtype=np.uint64)
            st = config.copy()
            E.play_games(np.uint64(9), np.int64(game), np.int64(0), np.int64(1), config, rates, out[None],
                         np.int64(fast), dummy, np.int64(0), st, rng)  # (the batch's kernel, in st)
            # the live state: counts, the stock and discard pile as far as they go, the rest
            states.append(np.concatenate([st[S.O_HN:S.O_STOCK], st[S.O_STOCK:S.O_STOCK + st[S.S_NSTOCK]],
                                          st[S.O_DISC:S.O_DISC + st[S.S_NDISC]], st[S.O_DCNT:S.O_PHAND]]))
        assert np.array_equal(states[0], states[1]), game
