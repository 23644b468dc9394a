"""`analyzer profile`: the luck split's estimators on outcomes whose split is known, the replays' common random
numbers, the decision counts and restricted play on the toy game (tests/toygame), and the command's report."""
import csv
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.errors import ScenarioError
from analyzer.profiling import build, checks, luck, play as P, profile

pytestmark = pytest.mark.usefixtures("test_games")

SMALL = dict(deals=200, replays=4, card_deals=100, kingmaker_deals=100, policy_deals=50, traced_games=40)


@pytest.fixture
def toy(test_games):
    from analyzer.games import get_game

    return get_game("toy")


def toy_raw(players=3, hand=3, deck=30, policy="random", **profile_keys):
    raw = {"game": "toy", "players": players, "seed": 5, "games": 10, "name": "toy profile",
           "rules": {"hand_size": hand, "deck_size": deck}, "all_seats": {"policy": policy}}
    raw["profile"] = {**SMALL, **profile_keys}
    return raw


def toy_profile(**kw):
    sc, spec = build(toy_raw(**kw), "(test)")
    return sc, spec, profile(sc, spec)


# --- the estimators, on outcomes whose split is known

def test_an_outcome_fixed_by_the_deal_is_all_deal():
    rng = np.random.default_rng(1)
    y = np.broadcast_to(rng.normal(size=(400, 1, 3)), (400, 6, 3)).copy()
    s = luck.split(y, "win").shares
    assert s["decisions"] == (0.0, 0.0, 0.0)
    assert s["deal"][0] > 0.98 and s["seat"][0] < 0.02


def test_an_outcome_of_the_decisions_alone_is_all_decisions():
    y = np.random.default_rng(2).normal(size=(400, 6, 3))
    s = luck.split(y, "win").shares
    assert s["decisions"][0] > 0.98 and s["deal"][0] < 0.02
    assert s["decisions"][1] <= s["decisions"][0] <= s["decisions"][2]


def test_a_seat_effect_takes_its_share():
    """Seat means (1, 0, 0) under unit noise: the seats' variance 2/9 of 2/9 + 1."""
    y = np.random.default_rng(3).normal(size=(2000, 4, 3)) + np.array([1.0, 0.0, 0.0])
    s = luck.split(y, "win").shares
    expected = (2 / 9) / (2 / 9 + 1)
    assert s["seat"][1] <= expected <= s["seat"][2]
    assert abs(s["seat"][0] - expected) < 0.02


def test_win_credit_and_margin():
    # two seats: win_0, win_1, n_winners, then scores (tricks_)
    rows = np.array([[1, 0, 1, 5, 2], [1, 1, 2, 3, 3], [0, 0, 0, 1, 1]])
    assert luck.win_credit(rows, 2).tolist() == [[1, 0], [0.5, 0.5], [0, 0]]
    margin = luck.score_margin(rows, ["win_0", "win_1", "n_winners", "s_0", "s_1"], 2, ("s_", 1))
    assert margin.tolist() == [[3, -3], [0, 0], [0, 0]]
    assert luck.score_margin(rows, ["win_0", "win_1", "n_winners", "s_0", "s_1"], 2, ("s_", -1)).tolist() == \
        [[-3, 3], [0, 0], [0, 0]]


# --- the replays: the same deal, other decisions

def test_a_replay_deals_the_same_cards_and_decides_its_own_way(toy):
    sc, spec = build(toy_raw(), "(test)")
    enc = P.encode(toy, sc.rules, sc.seats, count_choices=False)
    differ = 0
    for deal in range(20):
        first = toy.trace(enc, sc.seed, deal)
        again = toy.trace(enc, sc.seed, P.replay_index(deal, 3))
        assert [e for e in first if e["type"] == "deal"] == [e for e in again if e["type"] == "deal"]
        differ += [e for e in first if e["type"] == "play"] != [e for e in again if e["type"] == "play"]
    assert differ > 10  # random seats with three cards each: most replays play otherwise


def test_replay_zero_is_the_run_and_counting_changes_no_game(toy):
    sc, _ = build(toy_raw(), "(test)")
    rows = P.rows(toy, P.encode(toy, sc.rules, sc.seats), sc.seed, 3, 300, replays=2)
    run = np.zeros((300, rows.shape[2]), dtype=np.int64)
    toy.run_batch(P.encode(toy, sc.rules, sc.seats, count_choices=False), sc.seed, 0, run)
    counts = [toy.columns(3).index(f"ch_play_{k}") for k in ("n", "options", "forced", "real")]
    rest = [i for i in range(rows.shape[2]) if i not in counts]
    assert (rows[0][:, rest] == run[:, rest]).all()
    assert (run[:, counts] == 0).all()
    n, options, forced, real = (rows[..., i] for i in counts)
    assert (n == 9).all() and (options == 3 * (3 + 2 + 1)).all() and (forced == 3).all()
    assert (real <= n - forced).all() and real.sum() > 0


# --- the toy's profile end to end

def test_one_card_each_is_decided_by_the_deal_and_no_card_matters():
    """Hand size 1: every play is forced, so the replays are the same games (no decisions' share), no choice is
    real, and telling a seat not to play a kind of card changes nothing."""
    sc, spec, res = toy_profile(hand=1, deck=12)
    lv = res.levels[0]
    assert lv.splits["win"].shares["decisions"] == (0.0, 0.0, 0.0)
    assert lv.splits["win"].shares["deal"][0] > 0.95
    (plays,) = lv.choices
    assert plays.forced[0] == 1.0 and plays.real[0] == 0.0 and plays.options[0] == 1.0
    assert {r.kind for r in res.cards} == {"low", "high"}
    for r in res.cards:
        assert r.impact[:1] == (0.0,), r
    high = next(r for r in res.cards if r.kind == "high")
    assert high.deck_length is not None and next(r for r in res.cards if r.kind == "low").deck_note
    assert not res.partial and res.games["luck split"] == 200 * 4


def test_real_choices_and_the_flags_of_a_game_with_choices():
    sc, spec, res = toy_profile(policy="greedy")
    lv = res.levels[0]
    assert 0 < lv.choices[0].real[0] < 1
    keys = [c.key for c in res.checks()]
    assert keys == ["first_seat_edge", "dominant_edge", "runaway_leader", "decided_early", "kingmaker",
                    "real_choices", "unfinished"]
    measured = {c.key: c.flagged is not None for c in res.checks()}
    # the toy has no standings reader (analyzer/report/trajectory.py) and one heuristic policy (greedy): the runaway
    # leader and the dominant strategy are not measured, and say why
    assert measured == {k: k not in ("runaway_leader", "dominant_edge") for k in keys}
    words = {c.key: c.words for c in res.checks()}
    assert "no standings reader" in words["runaway_leader"] and "two or more heuristic" in words["dominant_edge"]
    for r in res.cards:
        assert r.impact[1] <= r.impact[0] <= r.impact[2] and 0 <= r.restricted[0] <= 1


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_a_seat_told_to_avoid_high_cards_plays_one_only_when_it_holds_nothing_else(toy, policy):
    from analyzer.profiling.cards import restricted_seats

    sc, _ = build(toy_raw(policy=policy, hand=4, deck=24), "(test)")
    seats = restricted_seats(toy, sc.seats, 1, "high")
    enc = P.encode(toy, sc.rules, seats, count_choices=False)
    forced = 0
    for game in range(150):
        events = toy.trace(enc, sc.seed, game)
        hands = {e["seat"]: list(e["cards"]) for e in events if e["type"] == "deal"}
        for e in events:
            if e["type"] != "play":
                continue
            hand = hands[e["seat"]]
            if e["seat"] == 1 and 2 * e["card"] > 24:
                assert all(2 * c > 24 for c in hand), (game, e, hand)
                forced += 1
            hand.remove(e["card"])
    assert forced > 0  # (some hands held high cards only: the rule's other half was met)


def test_a_policy_that_beats_every_other_is_dominant(monkeypatch):
    import analyzer.profiling as PR

    edges = {"a": {"b": (30.0, 25.0, 35.0), "c": (40.0, 35.0, 45.0)},
             "b": {"a": (-30.0, -35.0, -25.0), "c": (5.0, 0.0, 10.0)},
             "c": {"a": (-40.0, -45.0, -35.0), "b": (-5.0, -10.0, 0.0)}}
    check = checks.dominant(edges, 25.0)
    assert check.flagged and check.figure == (30.0, 25.0, 35.0) and "a wins at least +30.0" in check.words
    calm = checks.dominant(edges, 35.0)
    assert not calm.flagged and "no rule of thumb dominates: the best, a, wins +30.0" in calm.words
    # played: the toy's greedy against its lookahead (searching policies are left out unless told otherwise)
    monkeypatch.setattr(PR, "SKIPPED_RUNGS", ("random",))
    _, _, res = toy_profile(policy="greedy")
    assert set(res.dominance_edges) == {"greedy", "lookahead"}
    g = res.dominance_edges["greedy"]["lookahead"]
    assert g[1] <= g[0] <= g[2] and res.dominance.flagged is not None
    assert res.games["dominant strategy"] == 2 * 3 * 50


def test_a_threshold_moves_the_flag():
    _, _, strict = toy_profile(policy="greedy", thresholds={"unfinished": 0.0, "real_choices": 100})
    real = next(c for c in strict.checks() if c.key == "real_choices")
    assert real.flagged  # fewer than 100% of decisions are real


def test_the_kingmaker_share_counts_only_a_losing_seat_that_changes_the_winner():
    base = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
    changed = np.array([[0, 1, 0], [0, 1, 0], [1, 0, 0], [1, 0, 0]])
    # seat 2 lost in game 0 both times and the winner changed: counted; game 2 it won once: not counted
    assert checks.kingmaker_share(base, changed, 2, [0, 1, 2])[0] == 0.25


@pytest.mark.parametrize("key, value, where", [
    ("replays", 1, "profile.replays"), ("deals", "many", "profile.deals"), ("colour", 1, "profile.colour"),
    ("thresholds", {"first_seat_edge": -1}, "profile.thresholds.first_seat_edge"),
    ("thresholds", {"bogus": 1}, "profile.thresholds.bogus"), ("levels", ["greedy", "greedy"], "profile.levels"),
    ("levels", ["nope"], "profile.levels[0].policy"),
])
def test_bad_profile_tables_are_refused_by_key(key, value, where):
    raw = toy_raw()
    raw["profile"][key] = value
    with pytest.raises(ScenarioError) as e:
        build(raw, "s.toml")
    assert e.value.key == where


def test_a_profile_plays_one_configuration():
    raw = toy_raw()
    raw["variants"] = [{"name": "a"}, {"name": "b"}]
    with pytest.raises(ScenarioError, match="one configuration"):
        build(raw, "s.toml")


def _toml(raw):
    lines = [f'game = "{raw["game"]}"', f'players = {raw["players"]}', f'seed = {raw["seed"]}',
             f'name = "{raw["name"]}"', f'games = {raw["games"]}', "[rules]"]
    lines += [f"{k} = {v}" for k, v in raw["rules"].items()]
    lines += ["[all_seats]", f'policy = "{raw["all_seats"]["policy"]}"', "[profile]"]
    lines += [f"{k} = {v}" for k, v in raw["profile"].items()]
    return "\n".join(lines) + "\n"


def test_the_command_answers_first_and_writes_profile_csv(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(_toml(toy_raw(policy="greedy")))
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["profile", str(path), "--out", str(out), "-q", "--threads", "1"])
    assert r.exit_code == 0, r.output
    html = (out / "index.html").read_text()
    assert html.index("the deal explains") < html.index("Warning flags") < html.index("The luck split")
    with open(out / "profile.csv") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["metric", "level", "value", "low", "high", "games"]
    metrics = {r["metric"] for r in rows}
    assert {"luck.win.deal", "luck.win.seat", "luck.win.decisions", "choices.plays.real_share",
            "check.first_seat_edge", "card.high.impact"} <= metrics
    deal = next(r for r in rows if r["metric"] == "luck.win.deal")
    assert float(deal["low"]) <= float(deal["value"]) <= float(deal["high"])
    man = json.loads((out / "manifest.json").read_text())
    assert man["kind"] == "profile" and man["deals"] == 200 and not man["partial"]
    # the same profile on two threads: the same figures
    out2 = tmp_path / "out2"
    r = CliRunner().invoke(main, ["profile", str(path), "--out", str(out2), "-q", "--threads", "2"])
    assert r.exit_code == 0, r.output
    assert (out / "profile.csv").read_text() == (out2 / "profile.csv").read_text()


def test_the_command_refuses_a_bad_level_in_one_line(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(_toml(toy_raw()))
    r = CliRunner().invoke(main, ["profile", str(path), "--level", "nope"])
    assert r.exit_code == 2
    assert "--level" in r.output and "nope" in r.output and "Traceback" not in r.output


def test_ctrl_c_keeps_the_parts_finished_and_writes_their_report(tmp_path):
    """SIGINT as the runaway-leader part begins: the luck split is kept and reported, marked partial (exit 3)."""
    from signal_at import run_signalled

    path = tmp_path / "p.toml"
    path.write_text('name = "noize profile"\ngame = "noize"\ngames = 100\nseed = 11\nplayers = 3\n'
                    '[all_seats]\npolicy = "threshold"\n[profile]\ndeals = 600\nreplays = 2\n')
    out = tmp_path / "out"
    p = run_signalled("SIGINT", ["analyzer.profiling:_runaway:1"], ["profile", path, "-q", "--out", out, "--threads", 1])
    assert p.returncode == 3, p.stderr
    assert "Traceback" not in p.stderr and "partial profile" in p.stderr
    man = json.loads((out / "manifest.json").read_text())
    assert man["partial"] and man["stopped_by"] == "SIGINT" and man["games"] == {"luck split": 1200}
    html = (out / "index.html").read_text()
    assert "Stopped by SIGINT" in html and "the deal explains" in html


@pytest.mark.parametrize("name, players", [("bards", 2), ("distance", 4), ("fightsong", 4), ("noize", 4)])
def test_a_restricted_seat_plays_the_same_games_in_a_batch_as_traced(name, players):
    """Every kernel path honours `avoid` (a fast path that ignored it played The Distance's restricted seats as free
    ones): the batch's rows are the traced games' rows, for a seat told to avoid each kind in turn."""
    from analyzer.games import get_game
    from analyzer.profiling.cards import restricted_seats

    game = get_game(name)
    sc, _ = build({"game": name, "players": players, "seed": 4, "games": 10}, "(test)")
    for kind in game.card_kinds:
        seats = restricted_seats(game, P.seats_at(game, {"policy": "greedy" if name != "noize" else "threshold"},
                                                  sc.seats, players), 1, kind)
        enc = P.encode(game, sc.rules, seats, count_choices=False)
        batch = P.rows(game, enc, sc.seed, players, 25)[0]
        for i in range(25):
            assert (game.play_traced(enc, sc.seed, i)[1] == batch[i]).all(), (kind, i)
