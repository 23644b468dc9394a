"""Fight Song's side of `analyzer profile` (issue 32): the decision counts (plays and battles, choices.py) on
hand-built decisions and over random games, counting on playing the very same games as counting off; restricted
play (a seat told not to play one division) checked from the traces; the deck without a division."""
import numpy as np
import pytest

from analyzer.games.fightsong import GAME
from analyzer.games.fightsong import choices as CH
from analyzer.games.fightsong import engine as E
from analyzer.games.fightsong import fast as F
from analyzer.games.fightsong import policies as P
from analyzer.games.fightsong import rules as R
from analyzer.games.fightsong.events import STK_FS, STK_GP
from analyzer.games.fightsong.state import (
    MAXP, O_AVOID, O_CHOICES, O_HM, S_BASE, S_FREE, S_LEFT, S_SIZE, S_TOP, ST_SIZE)
from analyzer.games.fightsong.trace import play_traced
from fightsong_helpers import Table, interleave, of_type

KIND = {R.kind_name(k): k for k in range(R.N_KINDS)}
BB, BW, CF, CB, FS_, FP = "Band/Brass", "Band/Woodwind", "Cheer/Flyer", "Cheer/Base", "Fans/Students", "Fans/Parents"
COUNTS = ("n", "options", "forced", "real")


def _seats(specs):
    return [GAME.validate_seat(s if isinstance(s, dict) else {"policy": s}, "test", f"seat{i}")
            for i, s in enumerate(specs)]


def _rows(n, specs, games, count, rules=None, seed=11):
    rules = GAME.validate_rules(rules or {}, n, "test")
    enc = GAME.encode({**rules, "count_choices": True} if count else rules, _seats(specs))
    out = np.zeros((games, len(GAME.columns(n))), dtype=np.int64)
    GAME.run_batch(enc, seed, 0, out)
    return out


def _choices(row, n, kind):
    cols = GAME.columns(n)
    return tuple(int(row[cols.index(f"ch_{kind}_{k}")]) for k in COUNTS)


# --- hand-built decisions ------------------------------------------------------------------------------
def _play_state(held_kinds, free_corners, avoid=0):
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[S_FREE] = sum(1 << c for c in free_corners)
    st[O_HM + 0 * MAXP + 1] = sum(1 << KIND[k] for k in held_kinds)
    st[O_AVOID + 1] = avoid
    return st


def _board(corners, bonus):
    """The score table (1 board x 4 corners x 9 kinds) of one Activity card."""
    return np.array([[[R.score_of(R.how_scores(k, *R._parse_color_pair(c), R.DIVISIONS.index(bonus) if i == 3 else -1))
                       for k in range(R.N_KINDS)] for i, c in enumerate(corners)]], dtype=np.int64)


BOARD = _board([BB, BB, CF, FS_], "Cheer")  # Brass: 3, 3, 0, 0; Flyer: 0, 0, 3, 1 (bonus); Parents: 0, 0, 0, 2


@pytest.mark.parametrize("held, free, want", [
    ([FP], [3], (1, 1, 1, 0)),                 # one kind, one corner: forced
    ([BW, CF, FP], [0, 2, 3], (1, 9, 0, 1)),   # 3 kinds x 3 corners: the Flyer's 3, then the Woodwind's 2: real
    ([BB, CF, FP], [0, 2, 3], (1, 9, 0, 0)),   # the Brass's 3 and the Flyer's 3: the best two tie, not real
    ([BB, CF], [0, 1], (1, 4, 0, 0)),          # Brass scores 3 on both corners: not real
    ([CF, FP], [2, 3], (1, 4, 0, 1)),          # Flyer 3 on corner 2, Parents 2 on corner 3: real
    ([BW, CB], [2], (1, 2, 0, 1)),             # on Cheer/Flyer the Base scores 2, the Woodwind 0: real
])
def test_a_play_is_counted_with_its_options_and_whether_it_is_real(held, free, want):
    st = _play_state(held, free)
    CH.count_play(st, BOARD, 0, 0, 1)
    assert tuple(st[O_CHOICES:O_CHOICES + 4]) == want
    assert not st[O_CHOICES + 4:O_CHOICES + 8].any()


def test_a_play_counts_every_kind_held_even_the_avoided_division():
    """Restricted play is a policy's restraint: the rules' options stay every kind held on every free corner."""
    st = _play_state([BB, CF, FP], [0, 1, 2, 3], avoid=1 + R.DIVISIONS.index("Band"))
    CH.count_play(st, BOARD, 0, 0, 1)
    assert tuple(st[O_CHOICES:O_CHOICES + 4]) == (1, 12, 0, 0)  # Brass 3 on two corners and Flyer 3: a tie


def _battle_state(stack_kinds):
    """3 players, seat 0 left of the dealer; the Game Play stack (one card per kind given, top first) and one Fight
    Song card whose upper-left corner alone scores for Band and Fans cards (Band/Woodwind: 3 for a Woodwind, 2 for
    another Band card; the others Cheer/Spotter, bonus Cheer)."""
    score = np.concatenate([BOARD, _board([BW, "Cheer/Spotter", "Cheer/Spotter", "Cheer/Spotter"], "Cheer")])
    gtab = P.greedy_table(score, score[:1].sum(axis=(0, 1)), score.sum(axis=2))
    gp_kind = np.array([KIND[k] for k in stack_kinds], dtype=np.int64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    rg = np.zeros(len(stack_kinds) + 1, dtype=np.int64)
    rg[:len(stack_kinds)] = np.arange(len(stack_kinds))
    st[S_SIZE + STK_GP], st[S_BASE + STK_FS], st[S_SIZE + STK_FS] = len(stack_kinds), len(stack_kinds), 1
    st[S_TOP + STK_GP], st[S_LEFT] = 0, 0
    return st, rg, gp_kind, gtab, score


@pytest.mark.parametrize("stack, real", [
    # chooser seat 1, playing first: against seat 2 she is dealt cards 0, 2, 4; against seat 0 cards 1, 3, 5
    ([BW, FP, BW, FP, BW, FP], 1),  # the Woodwinds are hers against seat 2 (her point), seat 0's against seat 0
    ([FP, BW, FP, BW, FP, BW], 1),  # (a tie against seat 2: her Parents takes the corner; her point against seat 0)
    ([BW, BW, BW, BW, BW, BW], 0),  # her point against either
    ([BB, BW, BB, BW, BB, BW], 0),  # her point against either: she plays first on the one corner that scores
    ([FP, FS_, FP, FS_, FP, FS_], 0),  # Fans cards score nothing there: a tie against either
])
def test_a_battle_has_two_options_and_is_real_when_the_first_fight_song_hand_would_end_otherwise(stack, real):
    st, rg, gp_kind, gtab, score = _battle_state(stack)
    CH.count_battle(st, rg, gp_kind, gtab, score, 1, 1)
    assert tuple(st[O_CHOICES + 4:O_CHOICES + 8]) == (1, 2, 0, real)
    assert not st[O_CHOICES:O_CHOICES + 4].any()


def test_a_hand_built_game_counts_each_play(tmp_path):
    """2 players, one hand (target 1): seat 0 holds two Brass, seat 1 a Flyer and a Base; the Activity card's
    corners Band/Brass, Band/Brass, Cheer/Flyer, Fans/Students (bonus Cheer). Seat 0: Brass on 4 corners, 3 points
    on two (not real); seat 1: 2 kinds x 3 corners, the Flyer's 3 alone (real); seat 0: Brass on 2 corners, 3 or 0
    (real); seat 1: the Base on the last corner (forced)."""
    t = Table(tmp_path, 2, [([BB, BB, CF, FS_], "Cheer")], [([BW, BW, BW, BW], "Band")], target=1, fs_step=100,
              hand_size=2, refill_at=1, refill_cards=2)
    deal = interleave([[BB, BB], [CF, CB]])
    t.rules = {**t.rules, "count_choices": True}
    events, row = t.play(deal)
    assert [(e["seat"], e["card"].split(" ")[1], e["corner"]) for e in of_type(events, "play")] == \
        [(0, BB, 0), (1, CF, 2), (0, BB, 1), (1, CB, 3)]
    assert tuple(row[f"ch_play_{k}"] for k in COUNTS) == (4, 13, 1, 2)
    assert tuple(row[f"ch_battle_{k}"] for k in COUNTS) == (0, 0, 0, 0)
    t.rules = {k: v for k, v in t.rules.items() if k != "count_choices"}
    assert not any(v for k, v in t.play(deal)[1].items() if k.startswith("ch_"))


# --- over random games ----------------------------------------------------------------------------------
TABLES = [
    (2, ["greedy", "random"], {}),
    (3, ["greedy", {"policy": "random", "battle": "random"}, {"policy": "team", "battle": "weakest"}], {"fs_step": 3}),
    (4, ["greedy", "team", "blocker", "random"], {}),
    (4, ["greedy"] * 4, {}),
]


@pytest.mark.parametrize("n, specs, rules", TABLES)
def test_counting_plays_the_very_same_games_and_its_counts_are_consistent(n, specs, rules):
    off = _rows(n, specs, 300, False, rules)
    on = _rows(n, specs, 300, True, rules)
    k = len(GAME.columns(n)) - len(E.CHOICE_COLUMNS)
    assert np.array_equal(off[:, :k], on[:, :k]), "counting changed a game"
    assert not off[:, k:].any(), "counting off, the columns stay 0"
    cols = GAME.columns(n)
    for kind in ("play", "battle"):
        c = {x: on[:, cols.index(f"ch_{kind}_{x}")] for x in COUNTS}
        assert (c["forced"] <= c["n"]).all() and (c["real"] <= c["n"] - c["forced"]).all()
        assert (c["options"] >= c["n"]).all()
    plays = on[:, cols.index("ch_play_n")]
    assert (plays >= on[:, cols.index("plays")]).all() and plays.sum() > 0  # regular hands' plays, and Fight Song's
    battles = on[:, cols.index("ch_battle_n")]
    assert (on[:, cols.index("ch_battle_options")] == 2 * battles).all() and not on[:, cols.index("ch_battle_forced")].any()
    assert (battles.sum() > 0) == (n == 3)


@pytest.mark.parametrize("n, specs", [
    (3, [{"policy": "lookahead", "samples": 2, "battle": "weakest"}, "random", "greedy"]),
    (4, [{"policy": "search", "budget": 8}, "greedy", "team", "greedy"]),
])
def test_every_seats_decisions_are_counted_and_none_of_the_searchs(n, specs):
    """The counts are the traced game's plays and battles, a lookahead or search seat's included, never the
    decisions of its playouts; and the batch's games are the same with counting on."""
    rules = GAME.validate_rules({"target": 10, "fs_step": 3}, n, "test")
    seats = _seats(specs)
    assert np.array_equal(_rows(n, specs, 3, True, {"target": 10, "fs_step": 3})[:, :-8],
                          _rows(n, specs, 3, False, {"target": 10, "fs_step": 3})[:, :-8])
    enc = GAME.encode({**rules, "count_choices": True}, seats)
    for game in range(2):
        events, row = play_traced(enc, 11, game)
        assert _choices(row, n, "play")[0] == len(of_type(events, "play"))
        assert _choices(row, n, "battle")[0] == len(of_type(events, "battle"))


# --- restricted play ------------------------------------------------------------------------------------
def _division(card_label):
    return card_label.split(" ")[1].split("/")[0]


def _check_avoid(events, seat, division):
    """From the trace: every hand as dealt and played; seat plays `division` only when every card of the hand it
    plays from is of it. Returns (its plays of the division while holding another, others' plays of the division
    while holding another: the others are free)."""
    hands = {}
    forced = free_others = 0
    for e in events:
        if e["type"] == "deal":
            hands.setdefault((e["seat"], e["hand"]), []).extend(e["cards"])
        elif e["type"] == "play":
            hand = hands[(e["seat"], "fight_song" if e["fight_song"] else "regular")]
            other = any(_division(c) != division for c in hand)
            if _division(e["card"]) == division:
                if e["seat"] == seat:
                    assert not other, f"seat {seat} played {e['card']} holding {hand}"
                    forced += 1
                elif other:
                    free_others += 1
            hand.remove(e["card"])
        elif e["type"] == "fight_song_end":
            for key in [k for k in hands if k[1] == "fight_song"]:
                del hands[key]
    return forced, free_others


@pytest.mark.parametrize("n, specs, seat, division", [
    (4, ["greedy", {"policy": "greedy", "avoid": "Band"}, "greedy", "greedy"], 1, "Band"),
    (3, ["team", "greedy", {"policy": "random", "avoid": "Cheer"}], 2, "Cheer"),
    (2, [{"policy": "blocker", "avoid": "Fans"}, "team"], 0, "Fans"),
])
def test_a_seat_told_to_avoid_a_division_plays_it_only_when_it_holds_nothing_else(n, specs, seat, division):
    rules = GAME.validate_rules({"fs_step": 4}, n, "test")
    enc = GAME.encode(rules, _seats(specs))
    forced = free = 0
    for game in range(100):
        f, o = _check_avoid(play_traced(enc, 3, game)[0], seat, division)
        forced, free = forced + f, free + o
    assert forced > 0 and free > 0  # it did play the division when it had to; the others played it freely


@pytest.mark.parametrize("n, specs", [
    (4, [{"policy": "search", "budget": 8, "avoid": "Band"}, "greedy", "greedy", "greedy"]),
    (3, [{"policy": "lookahead", "samples": 2, "avoid": "Band"}, "random", "greedy"]),
])
def test_a_searching_seat_honours_its_avoid(n, specs):
    enc = GAME.encode(GAME.validate_rules({"target": 14}, n, "test"), _seats(specs))
    plays = 0
    for game in range(10):
        events = play_traced(enc, 3, game)[0]
        _check_avoid(events, 0, "Band")
        plays += sum(e["seat"] == 0 for e in of_type(events, "play"))
    assert plays > 50


def _avoid_table(tmp_path, avoid):
    t = Table(tmp_path, 2, [([BB, BB, CF, FS_], "Cheer")], [([BW, BW, BW, BW], "Band")], target=1, fs_step=100,
              hand_size=2, refill_at=1, refill_cards=2)
    enc = GAME.encode(t.rules, _seats([{"policy": "greedy", "avoid": avoid}, "greedy"]))
    return t, enc


def test_the_avoided_division_is_played_when_it_is_all_the_seat_holds(tmp_path):
    t, enc = _avoid_table(tmp_path, "Band")
    order = (t.gp_order(interleave([[BB, BB], [CF, CB]])), [0], [0])
    events, _ = play_traced(enc, 1, 0, stacked=order)
    assert [(e["seat"], e["card"].split(" ")[1]) for e in of_type(events, "play")][::2] == [(0, BB), (0, BB)]
    # holding a Flyer too, the seat plays it first, 3 points on the Cheer/Flyer corner, though a Brass scores 3 as well
    order = (t.gp_order(interleave([[BB, CF], [FP, CB]])), [0], [0])
    events, _ = play_traced(enc, 1, 0, stacked=order)
    assert [(e["card"].split(" ")[1], e["corner"]) for e in of_type(events, "play") if e["seat"] == 0] == \
        [(CF, 2), (BB, 0)]


def test_avoid_none_is_every_game_as_before():
    specs = ["greedy", "random", "team", "blocker"]
    assert np.array_equal(_rows(4, specs, 200, False), _rows(4, [{"policy": s, "avoid": "none"} for s in specs], 200,
                                                             False))
    cfg = GAME.encode(GAME.validate_rules({}, 4, "test"), _seats(["greedy"] * 4))
    assert F.greedy_fast(cfg)
    for changed in ({"count_choices": True}, None):
        rules = GAME.validate_rules({}, 4, "test")
        seats = ["greedy"] * 3 + [{"policy": "greedy", "avoid": "Fans"}] if changed is None else ["greedy"] * 4
        assert not F.greedy_fast(GAME.encode({**rules, **(changed or {})}, _seats(seats))), "the general path"


@pytest.mark.parametrize("division", R.DIVISIONS)
def test_the_deck_without_a_division_has_none_of_its_cards_and_all_else(division):
    rules = GAME.validate_rules({}, 4, "test")
    full, without = R.deck_of(rules), R.deck_of(GAME.deck_without(rules, division, 4))
    d = R.DIVISIONS.index(division)
    assert [without.kind_copies[k] for k in range(R.N_KINDS)] == \
        [0 if k // 3 == d else full.kind_copies[k] for k in range(R.N_KINDS)]
    assert not any(k // 3 == d for k in without.gp_kind) and without.n_gp == full.n_gp - 24
    assert without.act_ids == full.act_ids and without.fs_ids == full.fs_ids
    assert np.array_equal(without.corners, full.corners) and np.array_equal(without.bonus, full.bonus)
    assert GAME.deck_without(rules, division, 4) == GAME.deck_without(rules, division, 4)  # one file, reused


def test_no_deck_without_a_division_when_the_cards_left_cannot_deal_the_hands():
    rules = GAME.validate_rules({"hand_size": 12}, 4, "test")  # 4 x (12 + 3) = 60 cards: 72 do, 48 do not
    assert GAME.deck_without(rules, "Band", 4) is None
    assert GAME.deck_without(GAME.validate_rules({"hand_size": 12}, 3, "test"), "Band", 3) is not None
