"""Variants, seat rotation, round-robins and sweeps: the same deals for every arm, paired statistics."""
import csv

import numpy as np
import pytest

from analyzer import metrics as M
from analyzer.errors import ScenarioError
from analyzer.fold import CREDIT
from analyzer.games import get_game
from analyzer.report import write_report
from analyzer.runner import run
from analyzer.scenario import from_dict
from analyzer.stats import unpaired_diff_ci

NOIZE = get_game("noize")
BASE = {"game": "noize", "games": 20_000, "seed": 4, "players": 4, "all_seats": {"policy": "threshold"}}


def metric(result, g, key):
    return next(m for m in M.standard_metrics(NOIZE, g.players, g.rotations) if m.key == key)


def test_identical_variants_differ_by_exactly_zero():
    sc = from_dict({**BASE, "variants": [{"name": "a"}, {"name": "b", "rules": {"shuffle_each_round": False}}]})
    r = run(sc, progress=False)
    a, b = r.groups
    assert np.array_equal(a.summary.sums, b.summary.sums)
    for key in ("win_share_0", "length", "challenger_wins_per_length", "first_player_edge"):
        m = metric(r, a, key)
        assert M.diff_ci(m, b.summary, 1, a.summary, 1) == (0.0, 0.0, 0.0)


def test_paired_interval_is_narrower_than_unpaired_on_the_same_games():
    sc = from_dict({**BASE, "variants": [{"name": "rulebook"}, {"name": "shuffle", "rules": {"shuffle_each_round": True}}]})
    r = run(sc, progress=False)
    a, b = r.groups
    m = metric(r, a, "length")
    d, lo, hi = M.diff_ci(m, b.summary, 1, a.summary, 1)
    du, ulo, uhi = M.diff_ci(m, b.summary, 1, a.summary, 1, paired=False)
    assert d == pytest.approx(du)
    assert hi - lo < uhi - ulo
    # and the unpaired helper of stats.py agrees with the metrics layer
    sa, sb = b.summary, a.summary
    u = unpaired_diff_ci(sa.s("length"), sb.s("length"), sa.ss("length"), sb.ss("length"), sa.n)
    assert u[1] == pytest.approx(ulo) and u[2] == pytest.approx(uhi)


def test_variants_play_the_same_opening_deal():
    sc = from_dict({**BASE, "variants": [{"name": "rulebook"}, {"name": "shuffle", "rules": {"shuffle_each_round": True}}]})
    for index in (0, 123):
        traces = [NOIZE.trace(arm.encoded(NOIZE), sc.seed, index) for arm in sc.arms]
        first = [[e for e in t if e["type"] == "deal"][:4] for t in traces]
        assert first[0] == first[1]
        assert traces[0][0] == traces[1][0]  # the same deck order


def test_rotation_moves_each_policy_through_every_seat():
    raw = {**BASE, "rotate_seats": True, "seats": {"2": {"policy": "random"}}}
    sc = from_dict(raw)
    assert [[s.policy for s in a.seats] for a in sc.arms] == [
        ["threshold", "threshold", "random", "threshold"], ["threshold", "threshold", "threshold", "random"],
        ["random", "threshold", "threshold", "threshold"], ["threshold", "random", "threshold", "threshold"]]
    r = run(sc, progress=False)
    g = r.groups[0]
    s = g.summary
    for j in range(4):
        assert s.s(f"pcredit_{j}") == sum(s.s(f"pseat_{j}_{t}") for t in range(4))
    assert sum(s.s(f"pcredit_{j}") for j in range(4)) == CREDIT * 4 * s.n
    # the random policy (base seat 2) is far weaker than an even share, from every seat
    share = M.value_ci(metric(r, g, "policy_share_2"), s, 4)
    assert share[2] < 0.2
    # rotation 0 of the group is the unrotated game: same as a plain run
    plain = run(from_dict({**BASE, "seats": {"2": {"policy": "random"}}}), progress=False).groups[0].summary
    out = np.zeros((20_000, len(NOIZE.columns(4))), dtype=np.int64)
    NOIZE.run_batch(sc.arms[0].encoded(NOIZE), 4, 0, out)
    assert out[:, NOIZE.columns(4).index("length")].sum() == plain.s("length")


def test_sweep_names_the_best_point_with_paired_statistics(tmp_path):
    raw = {**BASE, "games": 6000, "sweep": {"x": {"path": "seats.0.challenge_below", "values": [0.3, 0.9]},
                                            "metric": "win_share_0"}}
    sc = from_dict(raw)
    assert sc.groups == ["seats.0.challenge_below=0.3", "seats.0.challenge_below=0.9"]
    r = run(sc, progress=False)
    assert r.metric_sums[0] == r.groups[0].summary.s("credit_0")
    assert r.metric_xtx[1, 1] == r.groups[1].summary.ss("credit_0")
    write_report(r, tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert "Best: **seats.0.challenge_below=0.3**" in text and "the best value is clear" in text


def test_two_axis_sweep_is_a_grid(tmp_path):
    raw = {**BASE, "games": 2000, "sweep": {"x": {"path": "seats.0.challenge_below", "range": [0.2, 0.4, 0.1]},
                                            "y": {"path": "rules.shuffle_each_round", "values": [False, True]},
                                            "metric": "length", "goal": "min"}}
    sc = from_dict(raw)
    assert len(sc.groups) == 6
    assert sc.groups[1] == "seats.0.challenge_below=0.2, rules.shuffle_each_round=true"
    assert sc.arms[1].rules["shuffle_each_round"] is True and sc.arms[2].seats[0].params["challenge_below"] == 0.3
    r = run(sc, progress=False)
    write_report(r, tmp_path)
    lengths = [g.summary.s("length") for g in r.groups]
    best = sc.groups[int(np.argmin(lengths))]
    assert f"Best: **{best}**" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "sweep_target.png").exists()


@pytest.mark.parametrize("sweep, match", [
    ({"x": {"path": "seats.0.challenge_below", "values": [0.1, 1.5]}}, r"seats.0.challenge_below = 1.5"),
    ({"x": {"path": "rules.colour", "values": [1]}}, r'sweep.x.path = "rules.colour": must name a setting'),
    ({"x": {"path": "seats.0.bluff", "range": [0.5, 0.1, 0.1]}}, r"sweep.x.range"),
    ({"x": {"path": "seats.0.bluff", "values": [0.1]}, "metric": "happiness"}, r'sweep.metric = "happiness"' ),
])
def test_sweep_errors_name_the_key(sweep, match):
    with pytest.raises(ScenarioError, match=match):
        from_dict({**BASE, "sweep": sweep})


def test_round_robin_needs_two_players_and_gives_a_matrix(tmp_path):
    pols = [{"policy": "threshold", "label": "cautious", "challenge_below": 0.7},
            {"policy": "threshold", "label": "default"}, {"policy": "random", "label": "random"}]
    with pytest.raises(ScenarioError, match="two-player"):
        from_dict({**BASE, "policies": pols})
    sc = from_dict({**BASE, "players": 2, "games": 4000, "policies": pols})
    assert len(sc.arms) == 6 and sc.groups[0] == "cautious vs default"
    r = run(sc, progress=False)
    write_report(r, tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert "| 3 | random |" in text  # random play ranks last
    assert (tmp_path / "round_robin.png").exists()


def test_report_words_agree_with_the_numbers(tmp_path):
    sc = from_dict({**BASE, "games": 10_000, "key_metric": "length", "variants": [
        {"name": "2 players", "players": 2}, {"name": "5 players", "players": 5}]})
    r = run(sc, progress=False)
    write_report(r, tmp_path)
    rows = list(csv.DictReader(open(tmp_path / "summary.csv")))
    md = (tmp_path / "report.md").read_text()
    table = {tuple(cells[:2]): cells for cells in (
        [c.strip() for c in line.strip("|").split("|")] for line in md.splitlines() if line.startswith("| 5 players |"))}
    checked = 0
    for row in rows:  # every difference's verdict in the report's table agrees with summary.csv's interval
        if row["group"] != "5 players" or not row["diff_low"] or (row["group"], row["label"]) not in table:
            continue
        cells = table[(row["group"], row["label"])]
        d, lo, hi = float(row["diff_vs_baseline"]), float(row["diff_low"]), float(row["diff_high"])
        margin = float(cells[4].split()[0]) / (100 if cells[4].endswith("pts") else 1)
        real = lo > 0 or hi < 0
        assert cells[5] == ("not shown" if not real else "matters" if abs(d) >= margin else "below the margin"), cells
        checked += 1
    assert checked >= 10
    # the key metric (the game's length) heads the answer with summary.csv's figures
    answer = md[md.index("## Answer"):md.index("<details>")]
    length = {r["group"]: r for r in rows if r["metric"] == "length"}
    five = length["5 players"]
    assert (f"With 5 players, rounds per game is {float(five['value']):.3g}, against "
            f"{float(length['2 players']['value']):.3g} with 2 players: a change of "
            f"{float(five['diff_vs_baseline']):+.3g} (95% CI {float(five['diff_low']):+.3g} to "
            f"{float(five['diff_high']):+.3g}), a real difference that matters") in answer


def reference_rows(outs, players, rotations, teams=None):
    """The per-deal rows of a group, as plain numpy (the definition analyzer.fold must match)."""
    n = players
    units = teams or [(s,) for s in range(n)]
    total, credits = None, []
    for out in outs:
        win, nw = out[:, :n], out[:, n:n + 1]
        credit = win * (CREDIT // np.maximum(nw, 1))
        units_won = np.stack([win[:, u[0]] for u in units], axis=1).sum(axis=1, keepdims=True)
        credits.append(credit)
        block = [out, credit, win * (units_won == 1), units_won > 1, nw == 0]
        if teams:
            block.append(np.stack([credit[:, list(u)].sum(axis=1) for u in units], axis=1))
        block = np.hstack(block)
        total = block if total is None else total + block
    if rotations > 1:
        pc = sum(credit[:, (np.arange(n) + r) % n] for r, credit in enumerate(credits))
        ps = np.stack([credits[(s - j) % n][:, s] for j in range(n) for s in range(n)], axis=1)
        total = np.hstack([total, pc, ps])
    return total


def fake_outs(rng, rotations, deals, players, extra, teams):
    """Random result rows with consistent wins: a team or seat wins, teams tie, or nobody wins."""
    units = teams or [(s,) for s in range(players)]
    outs = np.zeros((rotations, deals, players + 3 + extra), dtype=np.int64)
    for r in range(rotations):
        for i in range(deals):
            kind = rng.integers(4)
            winners = [] if kind == 0 else [u for u in units if rng.random() < 0.5] or [units[0]]
            for u in winners:
                outs[r, i, list(u)] = 1
            outs[r, i, players] = outs[r, i, :players].sum()
            outs[r, i, players + 1:] = rng.integers(0, 9, size=2 + extra)
    return outs


@pytest.mark.parametrize("players, rotations, teams, extra", [
    (4, 1, ((0, 2), (1, 3)), 3), (4, 4, ((0, 2), (1, 3)), 3), (3, 1, None, 3), (5, 5, None, 3), (2, 2, None, 3),
    (4, 1, ((0, 2), (1, 3)), 60), (3, 1, None, 60)])  # (60: rows too wide for fold.BLOCK deals in L1)
def test_numba_fold_matches_the_numpy_definition(players, rotations, teams, extra):
    """Sums, cross products with itself and with a baseline, and histograms, exactly, every pair folded."""
    from analyzer import fold
    from analyzer.summary import Summary

    rng = np.random.default_rng(players * 10 + rotations)
    outs = fake_outs(rng, rotations, 700, players, extra, teams)
    base_outs = fake_outs(rng, 1, 700, players, extra, teams)
    outs[:, 400:, -1] = rng.integers(0, 200, size=outs[:, 400:, -1].shape)  # many values, some beyond 64
    spec = fold.group_spec(players, rotations, outs.shape[2], teams)
    base_spec = fold.group_spec(players, 1, outs.shape[2], teams)
    rows = reference_rows(list(outs), players, rotations, teams)
    base_rows = reference_rows(list(base_outs), players, 1, teams)
    names = [f"c{k}" for k in range(rows.shape[1])]
    base = Summary([f"b{k}" for k in range(base_rows.shape[1])], base_spec)
    base.add(base_outs)
    s = Summary(names, spec)
    # (contiguous copies: the layout a run's blocks have; a slice of several rotations would make numba compile
    # fold_rows for a layout pair that only this test passes)
    s.add(np.ascontiguousarray(outs[:, :300]), base, base_outs[:, :300])
    s.add(np.ascontiguousarray(outs[:, 300:]), base, base_outs[:, 300:])
    assert s.n == 700
    assert np.array_equal(s.sums, rows.sum(axis=0))
    assert np.array_equal(s.xtx, rows.T @ rows)
    assert np.array_equal(s.cross, rows.T @ base_rows)
    assert np.array_equal(base.xtx, base_rows.T @ base_rows)
    for k in range(outs.shape[2]):
        assert np.array_equal(np.trim_zeros(s.hists[f"c{k}"], "b"), np.trim_zeros(np.bincount(outs[:, :, k].ravel()), "b"))
    dest = np.empty(700, dtype=np.int64)
    fold.column_values(outs, spec, rows.shape[1] - 1, dest)
    assert np.array_equal(dest, rows[:, -1])


def test_a_summary_folds_only_the_pairs_it_is_given_and_refuses_to_read_the_others():
    """The folded pairs (and cross pairs with a baseline) are exact; any other pair raises, never reads 0;
    histograms are kept of the columns asked for only."""
    from analyzer import fold
    from analyzer.summary import Summary

    rng = np.random.default_rng(3)
    outs = fake_outs(rng, 4, 500, 4, 3, None)
    base_outs = fake_outs(rng, 1, 500, 4, 3, None)
    spec = fold.group_spec(4, 4, outs.shape[2], None)
    base_spec = fold.group_spec(4, 1, outs.shape[2], None)
    rows = reference_rows(list(outs), 4, 4, None)
    base_rows = reference_rows(list(base_outs), 4, 1, None)
    names = [f"c{k}" for k in range(rows.shape[1])]
    base_names = [f"c{k}" for k in range(base_rows.shape[1])]
    pairs = [("c1", "c5"), ("c7", "c2"), ("c3", "c3"), ("c2", "c7")]  # (a duplicate, in the other order)
    cross_pairs = [("c0", "c0"), ("c9", "c4")]
    base = Summary(base_names, base_spec)
    base.add(base_outs)
    s = Summary(names, spec, pairs, ["c2", "c5"])
    s.set_baseline(base, cross_pairs)
    s.add(outs[:, :200], base, base_outs[:, :200])
    s.add(outs[:, 200:], base, base_outs[:, 200:])
    full, full_cross = rows.T @ rows, rows.T @ base_rows
    for a, b in pairs:
        assert s.ss(a, b) == s.ss(b, a) == full[s.index[a], s.index[b]]
    for a, b in cross_pairs:
        assert s.xb(s.index[a], base.index[b]) == full_cross[s.index[a], base.index[b]]
    assert np.array_equal(s.sums, rows.sum(axis=0))
    with pytest.raises(KeyError, match="c1 and c2 were not folded"):
        s.ss("c1", "c2")
    with pytest.raises(KeyError, match="c0 and c4 were not folded"):
        s.ss("c0", "c4")
    assert np.array_equal(np.diag(s.xtx), np.diag(full))  # every column's square is folded
    with pytest.raises(KeyError, match="baseline"):
        s.xb(s.index["c4"], base.index["c9"])
    assert sorted(s.hists) == ["c2", "c5"]
    assert np.array_equal(np.trim_zeros(s.hists["c5"], "b"), np.bincount(outs[:, :, 5].ravel()))


def test_fold_stays_exact_with_large_values():
    """Game values near 2**19 over 5 rotations: row entries near 2**21.3, their products near 2**42.6 (beyond
    float64's exact integers when summed), and the int64 sums over 3,000 deals are still exact."""
    from analyzer import fold
    from analyzer.summary import Summary

    rng = np.random.default_rng(19)
    outs = fake_outs(rng, 5, 3000, 5, 2, None)
    high = 2 ** 19
    outs[:, :, -1] = rng.integers(high - 1000, high + 1, size=(5, 3000))
    spec = fold.group_spec(5, 5, outs.shape[2], None)
    rows = reference_rows(list(outs), 5, 5, None)
    s = Summary([f"c{k}" for k in range(rows.shape[1])], spec)
    s.add(outs)
    assert np.array_equal(s.sums, rows.sum(axis=0))
    assert np.array_equal(s.xtx, rows.T @ rows)


def test_team_and_no_winner_columns():
    """Partners split their team's credit; a tie between teams is shared; a stall credits nobody and
    the even share is taken over the games that had a winner."""
    from analyzer import fold
    from analyzer.summary import Summary

    # columns: win_0..win_3, n_winners, length, end
    out = np.array([[1, 0, 1, 0, 2, 5, 0],    # team 0+2 wins
                    [1, 1, 1, 1, 4, 5, 0],    # the two teams tie
                    [0, 0, 0, 0, 0, 5, 1],    # a stall: no winner
                    [0, 1, 0, 1, 2, 5, 0]])   # team 1+3 wins
    teams = ((0, 2), (1, 3))
    rows = reference_rows([out], 4, 1, teams)
    k = out.shape[1]
    credit, solo = rows[:, k:k + 4], rows[:, k + 4:k + 8]
    shared, no_winner, tcredit = rows[:, k + 8], rows[:, k + 9], rows[:, k + 10:k + 12]
    assert credit.tolist() == [[420, 0, 420, 0], [210] * 4, [0] * 4, [0, 420, 0, 420]]
    assert solo.tolist() == [[1, 0, 1, 0], [0] * 4, [0] * 4, [0, 1, 0, 1]]
    assert shared.tolist() == [0, 1, 0, 0] and no_winner.tolist() == [0, 0, 1, 0]
    assert tcredit.tolist() == [[840, 0], [420, 420], [0, 0], [0, 840]]
    names = [f"win_{s}" for s in range(4)] + ["n_winners", "length", "end"] + [f"credit_{s}" for s in range(4)] + \
        [f"solo_{s}" for s in range(4)] + ["shared", "no_winner", "tcredit_0", "tcredit_1"]
    summ = Summary(names, fold.group_spec(4, 1, k, teams))
    summ.add(out[None])
    assert np.array_equal(summ.sums, rows.sum(axis=0))
    edge = M.even_edge("e", "", "tcredit_0", 2)
    # team 0+2 won 1.5 of 4 games; an even share of the 3 games with a winner is 1.5: no edge
    assert M.value_ci(edge, summ, 1)[0] == pytest.approx(0.0)
    assert M.even_share(summ, 2, 1) == pytest.approx(0.375)


def test_a_ladder_plays_each_rung_against_the_field_in_every_seat_and_pairs_variants_rung_by_rung(tmp_path):
    from analyzer.report import write_report

    raw = {**{k: v for k, v in BASE.items() if k != "all_seats"}, "games": 4000, "ladder": {"rungs": [{"policy": "random"}, {"label": "sharp", "policy": "threshold"}]},
           "variants": [{"name": "rulebook"}, {"name": "shuffle", "rules": {"shuffle_each_round": True}}]}
    sc = from_dict(raw)
    assert sc.groups == ["rulebook: random", "rulebook: sharp", "shuffle: random", "shuffle: sharp"]
    assert sc.comparison["refs"] == [None, None, 0, 1]
    sharp = [a for a in sc.arms if a.group == "rulebook: sharp"]
    # the rung sits in a different seat in each rotation; every other seat plays the random field
    assert [[s.policy for s in a.seats] for a in sharp] == [
        ["threshold", "random", "random", "random"], ["random", "threshold", "random", "random"],
        ["random", "random", "threshold", "random"], ["random", "random", "random", "threshold"]]
    r = run(sc, progress=False)
    assert r.groups[3].reference is r.groups[1]
    write_report(r, tmp_path)
    md = (tmp_path / "report.md").read_text()
    m = M.Metric("p", "", "pcredit_0", scale=1 / CREDIT, percent=True)
    share = M.value_ci(m, r.groups[1].summary, 4)[0]
    assert f"the best player (sharp) wins {100 * share:.1f}% of 4-player games" in md
    assert "shuffle" in md and "value of skill" in md
    # identical policies rotated are the same game: the random rung wins exactly an even share
    assert M.value_ci(m, r.groups[0].summary, 4)[0] == pytest.approx(0.25)


def test_rungs_level_with_the_strongest_are_named():
    """A field that every good rung beats almost always cannot rank them: the report says which rungs it
    cannot tell from the strongest (intervals overlapping), and nothing when the strongest stands alone."""
    from analyzer.report.blocks import plain
    from analyzer.report.comparison import _level_with_the_best

    shares = [(0.5, 0.5, 0.5), (0.998, 0.997, 0.999), (0.9985, 0.9978, 0.9992), (0.95, 0.94, 0.96)]
    [note] = _level_with_the_best(["random", "greedy", "team", "cautious"], shares, 2)
    assert plain(note.text).startswith("Against this field, greedy does as well as team (95% intervals overlap)")
    shares[3] = (0.9975, 0.996, 0.9979)
    assert "greedy and cautious do as well as team" in plain(_level_with_the_best(
        ["random", "greedy", "team", "cautious"], shares, 2)[0].text)
    assert _level_with_the_best(["random", "sharp"], [(0.25, 0.25, 0.25), (0.4, 0.39, 0.41)], 1) == []


def test_the_ladder_command_writes_a_skill_report(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    out = tmp_path / "lad"
    # a scenario's rules and variants are played; its seats, which the ladder replaces, get a warning
    f = tmp_path / "s.toml"
    f.write_text('game = "noize"\ngames = 100_000\nseed = 2\nplayers = 4\n[all_seats]\npolicy = "threshold"\n'
                 '[[variants]]\nname = "rulebook"\n[[variants]]\nname = "shuffle"\nrules.shuffle_each_round = true\n'
                 'all_seats.bluff = 0.2\n')
    result = CliRunner().invoke(main, ["ladder", "noize", "--scenario", str(f), "--games", "30", "-q", "--out", str(out),
                                       "--players", "3"])
    assert result.exit_code == 0, result.output
    assert (f"Warning: {f}: all_seats, variants[1].all_seats: not used: the ladder seats its rungs and its field "
            f"itself") in result.output
    report = (out / "report.md").read_text()
    assert "skill number" in report[:report.index("</details>")] and "shuffle" in report


def test_identical_policies_with_different_partners_are_not_called_chance(tmp_path):
    """In a team game a random player partnered with a strong one wins with it: the report must not say
    that its share and the other random players' differ by chance only."""
    raw = {"game": "fightsong", "games": 300, "seed": 2, "players": 4, "rotate_seats": True,
           "all_seats": {"policy": "random"}, "seats": {"0": {"policy": "greedy"}}}
    res = run(from_dict(raw), progress=False)
    write_report(res, tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert "| policy of seat 1 | random (battle = \"random\") — identical to seat 3 |" in text
    assert "| policy of seat 2 | random (battle = \"random\") |" in text
    assert "Seats 1 and 3 play the same policy with the same parameters (and partners of the same policies)" in text
