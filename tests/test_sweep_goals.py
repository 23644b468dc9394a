"""A sweep on an edge with a goal (issue 29): `metric = "first_player_edge"` (or a seat's, team's or policy's
edge) and `goal = "zero"` or a number: the best point is the closest to the target, and its comparison with
every other point is paired over the same deals.

The per-deal target of an edge is its credit column plus its even share's no_winner column (summary.Tally),
checked here against the group summaries' own sums; the paired gaps are checked against metrics.diff_ci, which
reads the fold's cross products of each point with the first (an independent path to the same numbers)."""
import math
from dataclasses import replace

import pytest

from analyzer import metrics as M
from analyzer.fold import CREDIT
from analyzer.report import write_report
from analyzer.report.comparison import sweep_best, sweep_gaps
from analyzer.runner import run
from analyzer.scenario import from_dict

# two-player Distance with a low turn cap: some games stall (no winner), so an edge's even share is not 50%
STALLS = {"game": "distance", "games": 3000, "seed": 29, "players": 2, "all_seats": {"policy": "greedy"},
          "sweep": {"x": {"path": "rules.turn_cap", "values": [12, 16, 20, 2000]}, "metric": "first_player_edge",
                    "goal": "zero"}}


@pytest.fixture(scope="module")
def stalls():
    return run(from_dict(STALLS), progress=False, threads=1)


def edge_of(result, g):
    return M.metric_for(result.scenario.game, g.players, g.rotations, "first_player_edge")


def with_goal(result, goal, target):
    comp = {**result.scenario.comparison, "goal": goal, "target": target}
    return replace(result, scenario=replace(result.scenario, comparison=comp))


def test_an_edge_target_is_its_credit_plus_its_even_share_of_the_stalls(stalls):
    nobody = [g.summary.s("no_winner") for g in stalls.groups]
    assert nobody[0] > 0 and nobody[-1] == 0, "the turn caps make some games stall, the rulebook's none"
    w = CREDIT // 2  # the even share's no_winner weight: CREDIT / 2 seats
    for i, g in enumerate(stalls.groups):
        s = g.summary
        assert stalls.metric_sums[i] == s.s("credit_0") + w * s.s("no_winner")
        assert stalls.metric_xtx[i, i] == (s.ss("credit_0", "credit_0") + 2 * w * s.ss("credit_0", "no_winner")
                                           + w * w * s.ss("no_winner", "no_winner"))


def test_goal_zero_picks_the_point_closest_to_zero_and_says_so(stalls, tmp_path):
    values = [M.value_ci(edge_of(stalls, g), g.summary, g.rotations)[0] for g in stalls.groups]
    best, vals = sweep_best(stalls)
    assert [v[0] for v in vals] == values
    assert best == min(range(len(values)), key=lambda i: abs(values[i]))
    write_report(stalls, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "(closest to zero is best)" in md
    assert f"Closest to zero: **{stalls.groups[best].label}**" in md
    assert "the difference of the two distances from zero, deal by deal" in md


def test_a_target_gap_is_the_paired_difference_of_the_distances(stalls):
    g0 = stalls.groups[0]
    e0 = edge_of(stalls, g0)
    v0, lo0, hi0 = M.value_ci(e0, g0.summary, g0.rotations)
    sides = set()
    for target in (0.0, 0.012):  # (every point above zero; 0.012 between the points)
        same, gaps = sweep_gaps(with_goal(stalls, "zero" if target == 0 else target, target), 0)  # all vs the first
        assert same == [] and len(gaps) == 3
        for j, d, lo, hi in gaps:
            g = stalls.groups[j]
            vj, loj, hij = M.value_ci(edge_of(stalls, g), g.summary, g.rotations)
            assert d == pytest.approx(abs(vj - target) - abs(v0 - target), abs=1e-12)
            dd, dlo, dhi = M.diff_ci(edge_of(stalls, g), g.summary, g.rotations, g0.summary, g0.rotations)
            if (vj >= target) == (v0 >= target):  # the same side: the distance difference is +-(vj - v0)
                side = 1 if v0 >= target else -1
                assert (d, lo, hi) == pytest.approx((side * dd, *sorted((side * dlo, side * dhi))), abs=1e-12)
            else:  # opposite sides: +-(vj + v0 - 2 target), whose variance is 2 var(vj) + 2 var(v0) - var(vj - v0)
                half = math.sqrt(2 * ((hij - loj) / 2) ** 2 + 2 * ((hi0 - lo0) / 2) ** 2 - ((dhi - dlo) / 2) ** 2)
                assert (lo, hi) == pytest.approx((d - half, d + half), abs=1e-12)
            sides.add((vj >= target) == (v0 >= target))
    assert sides == {True, False}


def test_a_numeric_goal_is_a_target_and_max_is_the_paired_difference(stalls):
    values = [v[0] for v in sweep_best(stalls)[1]]
    target = values[2] + 1e-9
    assert sweep_best(with_goal(stalls, target, target))[0] == 2
    g0 = stalls.groups[0]
    _, gaps = sweep_gaps(with_goal(stalls, "max", None), 0)
    for j, d, lo, hi in gaps:
        g = stalls.groups[j]
        dj, loj, hij = M.diff_ci(edge_of(stalls, g), g.summary, g.rotations, g0.summary, g0.rotations)
        assert (d, lo, hi) == pytest.approx((-dj, -hij, -loj), abs=1e-12)


def test_an_edge_over_player_counts_takes_each_count_own_even_share(tmp_path):
    sc = from_dict({"game": "noize", "games": 2000, "seed": 29, "players": 4, "all_seats": {"policy": "threshold"},
                    "sweep": {"x": {"path": "players", "values": [3, 4, 5]}, "metric": "first_player_edge",
                              "goal": 0.002}})
    assert sc.comparison["goal"] == 0.002 and sc.comparison["target"] == 0.002
    r = run(sc, progress=False, threads=1)
    values = [M.value_ci(edge_of(r, g), g.summary, g.rotations)[0] for g in r.groups]
    best, _ = sweep_best(r)
    assert best == min(range(3), key=lambda i: abs(values[i] - 0.002))
    g0 = r.groups[0]
    _, gaps = sweep_gaps(r, 0)
    for j, d, lo, hi in gaps:
        g = r.groups[j]
        vj = values[j]
        assert d == pytest.approx(abs(vj - 0.002) - abs(values[0] - 0.002), abs=1e-12)
        if (vj >= 0.002) == (values[0] >= 0.002):
            side = 1 if values[0] >= 0.002 else -1
            dj, loj, hij = M.diff_ci(edge_of(r, g), g.summary, g.rotations, g0.summary, g0.rotations,
                                     base_metric=edge_of(r, g0))
            assert (d, lo, hi) == pytest.approx((side * dj, *sorted((side * loj, side * hij))), abs=1e-12)
    write_report(r, tmp_path)
    assert "(closest to +0.2 pts is best)" in (tmp_path / "report.md").read_text()


def test_an_edge_target_is_the_same_whatever_the_threads_and_chunks(stalls):
    again = run(from_dict(STALLS), progress=False, threads=2, chunk_size=700)
    assert (again.metric_sums == stalls.metric_sums).all() and (again.metric_xtx == stalls.metric_xtx).all()
