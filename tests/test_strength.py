"""The strength curve (issue 28): Bradley-Terry ratings on hand-built counts with known answers, the pairings'
counts against a replay of their games, the saturation words against their numbers, and `analyzer strength`
end to end on The Distance with tiny settings (its search kernel compiles on first use: minutes on a cold
numba cache, seconds after)."""
import csv
import math

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import metrics as M
from analyzer import ratings, runner
from analyzer.cli import main
from analyzer.comparisons import arm_groups
from analyzer.report.strength import CSV_COLUMNS, Curve, saturation
from analyzer.scenario import from_dict


# ---- Bradley-Terry ---------------------------------------------------------------------------------------

def counts(share, games=100):
    """wins and games matrices from a matrix of i's share against j (upper triangle given)."""
    share = np.asarray(share, dtype=float)
    k = share.shape[0]
    g = np.full((k, k), float(games))
    np.fill_diagonal(g, 0)
    w = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            w[i, j] = share[i, j] * games
            w[j, i] = games - w[i, j]
    return w, g


def test_equal_counts_give_equal_ratings():
    w, g = counts(np.full((4, 4), 0.5))
    assert np.allclose(ratings.elo(ratings.fit(w, g)), 0, atol=1e-9)


def test_two_rungs_known_answer_with_the_prior():
    w, g = counts([[0, 0.25], [0, 0]])  # the second rung wins 75 of 100
    theta = ratings.fit(w, g)
    assert theta[0] == 0  # anchored
    # half a win added to each side: 25.5 to 75.5 for the second rung
    assert ratings.elo(theta)[1] == pytest.approx(400 * math.log10(75.5 / 25.5), abs=1e-6)


def test_a_dominant_rung_rates_highest_and_the_anchor_is_zero():
    w, g = counts([[0, 0.4, 0.3, 0.1], [0, 0, 0.45, 0.2], [0, 0, 0, 0.3], [0, 0, 0, 0]])
    r = ratings.elo(ratings.fit(w, g))
    assert r[0] == 0 and r[3] == max(r) and r[3] > r[2] > r[1] > 0
    shifted = ratings.elo(ratings.fit(w, g, anchor=2))
    assert shifted[2] == 0 and np.allclose(shifted - shifted[0], r, atol=1e-6)  # the anchor only shifts


def test_fit_matches_a_general_optimiser():
    from scipy.optimize import minimize

    w, g = counts([[0, 0.36, 0.1], [0, 0, 0.36], [0, 0, 0]])

    def minus_loglik(t):
        th = np.r_[0.0, t]
        return -sum((w[i, j] + 0.5) * (th[i] - np.logaddexp(th[i], th[j]))
                    for i in range(3) for j in range(3) if i != j)

    best = minimize(minus_loglik, [0.0, 0.0], tol=1e-12).x
    assert np.allclose(ratings.fit(w, g)[1:], best, atol=1e-4)


def test_a_rung_that_won_every_game_is_finite_and_batches_fit_alike():
    w, g = counts([[0, 0.0, 0.0], [0, 0, 0.5], [0, 0, 0]])
    one = ratings.fit(w, g)
    assert np.all(np.isfinite(one)) and one[1] > 5  # far above, not infinite
    batch = ratings.fit(np.stack([w, counts(np.full((3, 3), 0.5))[0]]), g)
    assert np.allclose(batch[0], one) and np.allclose(batch[1], 0, atol=1e-9)


def test_unconnected_rungs_have_no_rating():
    w, g = counts(np.full((3, 3), 0.5))
    g[0, 1:] = g[1:, 0] = 0
    assert np.isnan(ratings.fit(w, g)).all()


def test_bootstrap_is_seeded_and_brackets_the_fit():
    w, g = counts([[0, 0.4, 0.2], [0, 0, 0.35], [0, 0, 0]], games=400)
    a = ratings.bootstrap(w, g, seed=7, draws=300)
    b = ratings.bootstrap(w, g, seed=7, draws=300)
    assert np.array_equal(a, b) and not np.array_equal(a, ratings.bootstrap(w, g, seed=8, draws=300))
    lo, hi = ratings.percentile_interval(ratings.elo(a))
    r = ratings.elo(ratings.fit(w, g))
    assert lo[0] == hi[0] == 0 and np.all(lo[1:] < r[1:]) and np.all(r[1:] < hi[1:])
    # fewer effective games, wider intervals
    lo2, hi2 = ratings.percentile_interval(ratings.elo(ratings.bootstrap(w, g, g / 4, seed=7, draws=300)))
    assert np.all((hi2 - lo2)[1:] > (hi - lo)[1:])


def test_effective_games_only_shrink():
    wins, games = np.array([[0, 30.0], [70, 0]]), np.array([[0, 100.0], [100, 0]])
    binomial = 100 * 0.3 * 0.7
    assert np.allclose(M.effective_games(wins, games, np.full((2, 2), binomial / 2)), games)
    assert np.allclose(M.effective_games(wins, games, np.full((2, 2), binomial * 2)), games / 2)


# ---- the pairings' counts --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_pairing_counts_match_a_replay_of_their_games(players):
    """Each pairing's wins, read from the fold's credits, are the games an even-seat (rung i) or an odd-seat
    (rung j) player won, counted game by game from the arms' result rows (a game nobody won: half)."""
    raw = {"game": "noize", "games": 150, "seed": 11, "players": players,
           "strength": {"rungs": [{"policy": "random"}, {"policy": "threshold"},
                                  {"label": "bluffer", "policy": "threshold", "bluff": 0.3}], "budgets": []}}
    sc = from_dict(raw)
    result = runner.run(sc, progress=False, threads=1)
    comp = sc.comparison
    wins, games, _ = M.pairwise_counts(result.groups, comp["pairs"], 3)
    expect_w, expect_g = np.zeros((3, 3)), np.zeros((3, 3))
    g = sc.game
    for arms, (a, b) in zip(arm_groups(sc), comp["pairs"]):
        for arm in arms:
            out = np.empty((150, len(g.columns(players))), dtype=np.int64)
            g.run_batch(arm.encoded(g), sc.seed, 0, out)
            for row in out:
                won = row[:players]
                if row[players] == 0:
                    a_share = 0.5
                else:  # the seats of rung a in this rotation: seat s holds base seat (s - r) % n
                    a_seats = [s for s in range(players) if (s - arm.rotation) % players % 2 == 0]
                    a_share = sum(won[s] for s in a_seats) / won.sum()
                expect_w[a, b] += a_share
                expect_w[b, a] += 1 - a_share
                expect_g[a, b] += 1
                expect_g[b, a] += 1
    assert np.array_equal(games, expect_g)
    assert np.allclose(wins, expect_w, atol=1e-2)  # (credits are 840ths of a game)
    assert len(sc.groups) == (6 if players % 2 else 3)


def test_stop_until_decided_looks_at_every_pairing():
    raw = {"game": "noize", "seed": 3, "players": 2,
           "strength": {"rungs": [{"policy": "random"}, {"policy": "threshold"}], "budgets": []},
           "stop": {"max_games": 4_000, "min_games": 200, "until": "decided", "equivalence": 2.0}}
    sc = from_dict(raw)
    result = runner.run(sc, progress=False, threads=1)
    assert result.stop_reason.startswith("every pairing decided after 200 deals")  # threshold crushes random


# ---- words ------------------------------------------------------------------------------------------------

def curve(share_top, games=2_000, budgets=(256, 512), search=True):
    labels = ["random", "greedy"] + [f"search {b}" for b in budgets]
    k = len(labels)
    w, g = counts(np.full((k, k), 0.5), games)
    if len(budgets) > 1:
        w[k - 1, k - 2], w[k - 2, k - 1] = share_top * games, (1 - share_top) * games
    z = np.zeros(k)
    return Curve(labels, labels, z, z, z, w, g, g, 1.959963984540054, 0.95, list(budgets), search, 2)


class Game:
    title = "Test game"


@pytest.mark.parametrize("share, kind, words", [
    (0.502, "saturated", ["**Saturated at 256**", "doubling the budget from 256 to 512 gains 0.2 points",
                          "95% CI -2.0 to +2.4", "over 2,000 games", "gains at most 2.4 points"]),
    (0.56, "gaining", ["**Still gaining at 512**", "gains 6.0 points", "a lower bound"]),
    (0.44, "worse", ["**More budget played worse**", "loses 6.0 points", "The strongest budget measured is 256"]),
])
def test_saturation_words_match_the_numbers(share, kind, words):
    text, got = saturation(curve(share), Game)
    assert got == kind
    for w in words:
        assert w in text, text


def test_saturation_without_search_or_with_one_budget():
    assert saturation(curve(0.5, search=False, budgets=()), Game)[1] == "no_search"
    assert saturation(curve(0.5, budgets=(64,)), Game)[1] == "one_budget"
    assert "raising the budget from 64 to 256" in saturation(curve(0.5, budgets=(64, 256)), Game)[0]


# ---- the command --------------------------------------------------------------------------------------------

def strength_csv(tmp_path, name, *extra):
    out = tmp_path / name
    r = CliRunner().invoke(main, ["strength", "distance", "--players", "2", "--budgets", "4,8", "--games", "24",
                                  "-q", "--threads", "1", "--out", str(out), *extra])
    assert r.exit_code == 0, r.output
    return out


def test_the_command_writes_the_curve_and_the_same_seed_gives_the_same_csv(tmp_path):
    a = strength_csv(tmp_path, "a")
    with open(a / "strength.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == CSV_COLUMNS
    assert [r["rung"] for r in rows] == ["random", "conserve", "greedy", "lookahead", "search 4", "search 8"]
    assert rows[0]["rating"] == "0.0" and rows[0]["win_vs_previous"] == ""
    for r in rows[1:]:
        assert float(r["rating_low"]) <= float(r["rating"]) <= float(r["rating_high"])
        assert float(r["win_vs_previous_low"]) <= float(r["win_vs_previous"]) <= float(r["win_vs_previous_high"])
        assert int(r["games_vs_previous"]) == 48 and int(r["games"]) == 5 * 48
    for name in ("report.md", "index.html", "strength.png", "summary.csv", "manifest.json"):
        assert (a / name).is_file(), name
    md = (a / "report.md").read_text()
    first = md.split("<details>")[0]
    assert "rates highest" in first and "strength.png" in first  # the answer and the picture come first
    assert any(w in first for w in ("Saturated at 4", "Still gaining at 8", "More budget played worse"))
    b = strength_csv(tmp_path, "b")
    assert (a / "strength.csv").read_bytes() == (b / "strength.csv").read_bytes()


def test_a_settled_pairing_stops_while_the_others_play_on():
    """Under [stop], random against threshold is decided at the first look and plays no more deals, while the
    pairing of two identical threshold players (even, but not known to within +-0.5 points in 1,600 deals) plays
    on to max_games; the same counts whatever the threads."""
    raw = {"game": "noize", "seed": 5, "players": 2,
           "strength": {"rungs": [{"policy": "random"}, {"policy": "threshold"},
                                  {"label": "threshold 2", "policy": "threshold"}], "budgets": []},
           "stop": {"max_games": 1_600, "min_games": 200, "until": "decided", "equivalence": 0.5}}
    results = [runner.run(from_dict(raw), progress=False, threads=t) for t in (1, 2)]
    for result in results:
        deals = {g.label: g.summary.n for g in result.groups}
        assert deals["random vs threshold"] == 200 and deals["random vs threshold 2"] == 200
        assert deals["threshold vs threshold 2"] > 200 and result.games == deals["threshold vs threshold 2"]
    a, b = (M.pairwise_counts(r.groups, r.scenario.comparison["pairs"], 3) for r in results)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
