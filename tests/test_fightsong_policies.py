"""Fight Song policy decisions on hand-built positions: greedy (and its one-look-up table against a
plain search), ties toward keeping versatile cards, team and blocker looking ahead, the 3-player
battle choice, random play covering its choices."""
from collections import Counter

import numpy as np
import pytest

from analyzer.games.fightsong import GAME
from analyzer.games.fightsong import policies as P
from analyzer.games.fightsong import rules as R
from fightsong_helpers import KIND, Table, interleave, of_type

F = "Fans/Students"


def test_greedy_table_is_the_plain_search():
    """The look-up table equals a direct search: highest score, then the least versatile kind, then the
    corner worth least to the deck, then the lowest corner and kind."""
    deck = R.load_deck(R.DEFAULT_DECK)
    enc = GAME.encode(GAME.validate_rules({}, 4, "t"), [GAME.validate_seat({"policy": "greedy"}, "t", "s")] * 4)
    score, vers, cval, gtab = enc.tables.score, enc.tables.vers, enc.tables.cval, enc.tables.gtab
    rng = np.random.default_rng(5)
    for _ in range(3000):
        b = int(rng.integers(score.shape[0]))
        free = int(rng.integers(1, 16))
        held = int(rng.integers(1, 512))
        cands = [(-score[b, c, k], vers[k], cval[b, c], c, k) for c in range(4) if free >> c & 1
                 for k in range(9) if held >> k & 1]
        *_, c, k = min(cands)
        assert gtab[b, free, held] == k * 4 + c
    assert deck.n_act + deck.n_fs == score.shape[0]


def test_greedy_keeps_the_versatile_card_on_a_tie(tmp_path):
    """Band/Woodwind scores on many corners of the deck's Activity cards, Cheer/Flyer on few: with 3
    points either way, greedy plays Cheer/Flyer and keeps Band/Woodwind."""
    act = [(["Band/Woodwind", "Cheer/Flyer", "Fans/Students", "Band/Brass"], "Cheer"),
           (["Band/Woodwind", "Band/Woodwind", "Band/Percussion", "Band/Woodwind"], "Band")]
    t = Table(tmp_path, 4, act, [act[0]], hand_size=2, refill_at=0, refill_cards=1, target=1, fs_step=100)
    vers = t.encoded().tables.vers
    assert vers[KIND["Band/Woodwind"]] > vers[KIND["Cheer/Flyer"]]
    hands = [["Band/Woodwind", "Cheer/Flyer"], [F, F], [F, F], [F, F]]
    ev, _ = t.play(interleave(hands))
    first = of_type(ev, "play")[0]
    assert first["card"].endswith("Cheer/Flyer") and first["corner"] == 1 and first["score"] == 3


def test_greedy_takes_the_best_score(tmp_path):
    act = [(["Band/Brass", "Cheer/Brass", "Fans/Woodwind", "Fans/Flyer"], "Band")]
    t = Table(tmp_path, 4, act, act, hand_size=3, target=1, fs_step=100)
    hands = [["Cheer/Base", "Band/Woodwind", "Band/Brass"], [F] * 3, ["Fans/Alumni"] * 3, ["Fans/Parents"] * 3]
    ev, _ = t.play(interleave(hands))
    first = of_type(ev, "play")[0]
    assert first["card"].endswith("Band/Brass") and first["corner"] == 0 and first["score"] == 3


def first_plays(tmp_path, act, hands, seats, players=4, copies=8, scripts=None):
    """The plays of hand 1 (target 1: the game ends after it) with the given seat specs."""
    t = Table(tmp_path, players, act, act, copies=copies, hand_size=len(hands[0]), target=1, fs_step=100,
              refill_at=0 if players > 2 else 1, refill_cards=2)
    from analyzer.games.fightsong.trace import Encoded, play_traced

    enc = GAME.encode(t.rules, [GAME.validate_seat(dict(x), "t", "s") for x in seats])
    if scripts:
        width = max(len(m) for m in scripts if m) + 1
        par = np.full((players, max(width, P.N_PAR)), -1.0)
        for s_, moves in enumerate(scripts):
            if moves:
                enc.tables.pol[s_] = P.P_SCRIPT
                par[s_, :len(moves)] = [KIND[k] * 4 + c for k, c in moves]
            else:
                par[s_, :P.N_PAR] = enc.tables.par[s_]
        enc = Encoded(enc._replace(tables=enc.tables._replace(par=par)), t.deck)
    events, _ = play_traced(enc, 1, 0, stacked=(t.gp_order(interleave(hands)), [0], [0]))
    return of_type(events, "play")


# a deck of mostly Band cards: an Activity card whose Band corner nearly every unseen card scores on
MOSTLY_BAND = {"Band/Woodwind": 20, "Band/Brass": 20, "Band/Percussion": 20, "Cheer/Flyer": 3, "Cheer/Base": 3,
               "Cheer/Spotter": 3, "Fans/Students": 3, "Fans/Alumni": 3, "Fans/Parents": 3}
BLOCK_BOARD = [(["Band/Woodwind", "Cheer/Base", "Cheer/Spotter", "Fans/Parents"], "Cheer")]
BLOCK_HANDS = [["Cheer/Flyer", "Cheer/Flyer"], ["Band/Percussion"] * 2, ["Band/Percussion"] * 2,
               ["Band/Percussion"] * 2]


@pytest.mark.parametrize("seat0, blocks", [
    ({"policy": "greedy"}, False),
    ({"policy": "blocker", "block_weight": 0.2}, False),
    ({"policy": "blocker", "block_weight": 2.0}, True),
    ({"policy": "team", "partner_weight": 0.0, "opponent_weight": 2.0}, True),
])
def test_blocker_spoils_the_corner_the_next_opponent_could_use_best(tmp_path, seat0, blocks):
    """Seat 0 holds two Cheer/Flyer: 2 points on a Cheer corner, 0 on the Band/Woodwind corner, where
    nearly every card it cannot see scores 2 or 3. Greedy takes the 2 points; a blocker that weighs the
    next opponent enough spoils the Band corner with its card instead."""
    plays = first_plays(tmp_path, BLOCK_BOARD, BLOCK_HANDS, [seat0] + [{"policy": "greedy"}] * 3,
                        copies=MOSTLY_BAND)
    if blocks:
        assert (plays[0]["corner"], plays[0]["score"]) == (0, 0)
    else:
        assert plays[0]["score"] == 2


@pytest.mark.parametrize("policy, first, points", [("greedy", "Band/Brass", 2), ("team", "Band/Woodwind", 3)])
def test_team_plans_its_own_second_card_with_two_players(tmp_path, policy, first, points):
    """2 players. Seat 0 holds Band/Woodwind and Band/Brass: 2 each on the Band/Percussion corner, and
    only Brass scores on the Fans/Brass corner (1, inner). Greedy ties and plays the less versatile
    Brass first, leaving the Woodwind nothing; the team policy plays the Woodwind first and keeps the
    Brass for the Fans/Brass corner. (The opponent is scripted onto the two Cheer corners.)"""
    act = [(["Band/Percussion", "Fans/Brass", "Cheer/Flyer", "Cheer/Base"], "Cheer"),
           (["Band/Woodwind"] * 4, "Band")]
    hands = [["Band/Woodwind", "Band/Brass"], ["Band/Percussion", "Band/Percussion"]]
    plays = first_plays(tmp_path, act, hands, [{"policy": policy}, {"policy": "greedy"}], players=2,
                        scripts=[None, [("Band/Percussion", 2), ("Band/Percussion", 3)]])
    assert plays[0]["card"].endswith(first) and plays[0]["corner"] == 0
    assert plays[0]["score"] + plays[2]["score"] == points


@pytest.mark.parametrize("seat", [{"policy": "team", "partner_weight": 0.0, "opponent_weight": 0.0},
                                  {"policy": "blocker", "block_weight": 0.0}])
def test_with_zero_weights_team_and_blocker_play_exactly_like_greedy(seat):
    from analyzer.scenario import from_dict

    outs = []
    for spec in ({"policy": "greedy"}, seat):
        s = from_dict({"game": "fightsong", "games": 1, "seed": 2, "players": 4, "all_seats": spec})
        out = np.zeros((400, len(GAME.columns(4))), dtype=np.int64)
        GAME.run_batch(s.arms[0].encoded(GAME), 2, 0, out)
        outs.append(out)
    assert np.array_equal(outs[0], outs[1])


def test_expected_best_is_a_probability_sum():
    lf = P.log_factorials(72)
    # one unseen card in 72 scores 3 (and so >= 1, >= 2); a hand of 1: 1/72 * 3
    assert P.expected_best(lf, 72, 1, 1, 1, 1) == pytest.approx(3 / 72)
    # every unseen card scores >= 1: certain
    assert P.expected_best(lf, 72, 72, 0, 0, 5) == pytest.approx(1.0)
    # hypergeometric: P(none of 8 in a hand of 8 from 64) = C(56, 8) / C(64, 8)
    from math import comb
    assert P.nohit(lf, 64, 8, 8) == pytest.approx(comb(56, 8) / comb(64, 8))


@pytest.mark.parametrize("rule, totals, want", [
    ("leader", (0, 5, 2), 1), ("leader", (0, 2, 5), 2), ("leader", (0, 3, 3), 1),
    ("weakest", (0, 5, 2), 2), ("weakest", (0, 2, 5), 1), ("weakest", (0, 3, 3), 1),
])
def test_three_player_battle_choice(rule, totals, want):
    from analyzer.games.fightsong import state as S

    st = np.zeros(S.ST_SIZE, dtype=np.int64)
    st[S.S_N] = 3
    for s in range(3):
        st[S.O_TPTS + s] = totals[s]
    pol = np.array([P.P_GREEDY] * 3, dtype=np.int64)
    par = np.zeros((3, P.N_PAR))
    par[0, P.PB_BATTLE] = P.BATTLE_CHOICES.index(rule)
    rng = np.zeros(8, dtype=np.uint64)
    assert P.choose_battle(st, pol, par, rng, 0) == want


def test_random_battle_picks_both_opponents():
    from analyzer.games.fightsong import state as S
    from analyzer.rng import new_streams

    st = np.zeros(S.ST_SIZE, dtype=np.int64)
    st[S.S_N] = 3
    pol = np.array([P.P_RANDOM] * 3, dtype=np.int64)
    par = np.zeros((3, P.N_PAR))
    par[:, P.PB_BATTLE] = P.BATTLE_RANDOM
    got = Counter()
    for g in range(400):
        got[int(P.choose_battle(st, pol, par, new_streams(np.uint64(1), g, 4), 1))] += 1
    assert set(got) == {0, 2} and min(got.values()) > 150


def test_random_play_covers_every_card_and_free_corner():
    sc = {"game": "fightsong", "games": 1, "seed": 4, "players": 4, "all_seats": {"policy": "random"}}
    from analyzer.scenario import from_dict

    s = from_dict(sc)
    enc = s.arms[0].encoded(GAME)
    firsts = Counter()
    for g in range(300):
        ev, _ = GAME.play_traced(enc, 4, g)
        p = of_type(ev, "play")[0]
        firsts[p["corner"]] += 1
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 40


@pytest.mark.parametrize("policy", ["random", "greedy", "team", "blocker"])
def test_every_policy_plays_legal_moves_at_every_table(policy):
    for players in (2, 3, 4):
        from analyzer.scenario import from_dict

        s = from_dict({"game": "fightsong", "games": 1, "seed": 9, "players": players, "all_seats": {"policy": policy}})
        out = np.zeros((500, len(GAME.columns(players))), dtype=np.int64)
        GAME.run_batch(s.arms[0].encoded(GAME), 9, 0, out)
        cols = GAME.columns(players)
        assert (out[:, cols.index("plays")] == out[:, cols.index("length")] * (4 if players == 2 else players)).all()
        assert (out[:, cols.index("end")] < 4).all(), "every game reaches the target"


def test_greedy_pairs_beat_random_pairs():
    """With seats rotated (each pair sits at 0+2 and at 1+3 on the same deals), greedy partners win
    almost every game against random partners."""
    from analyzer.runner import run
    from analyzer.scenario import from_dict

    raw = {"game": "fightsong", "games": 500, "seed": 12, "players": 4, "rotate_seats": True,
           "all_seats": {"policy": "greedy"}, "seats": {"0": {"policy": "random"}, "2": {"policy": "random"}}}
    s = run(from_dict(raw), progress=False).groups[0].summary
    random_share = (s.s("pcredit_0") + s.s("pcredit_2")) / (840 * s.n * 4)
    assert random_share < 0.05
