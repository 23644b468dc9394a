"""Verdicts by skill level (issue 28, `[skill] levels`): every group at every level on the same deals, what a level
is, what it combines with, summary.csv's level and baseline columns, and a report whose verdict table opens it and
says the numbers summary.csv holds."""
import csv
import math

import pytest

from analyzer.errors import ScenarioError
from analyzer.report import write_report
from analyzer.report.skill import KeyFigure, across_skill
from analyzer.metrics import Metric
from analyzer.runner import run
from analyzer.scenario import build_with, from_dict

NOIZE = {"game": "noize", "games": 300, "seed": 7, "players": 3}
LEVELS = ["random", "threshold"]


def summary(tmp_path, raw):
    """(the run, summary.csv's rows as dicts, report.md) of a scenario."""
    result = run(from_dict(raw), progress=False)
    write_report(result, tmp_path)
    with open(tmp_path / "summary.csv") as f:
        rows = list(csv.DictReader(f))
    return result, rows, (tmp_path / "report.md").read_text()


def test_every_group_is_played_at_every_level_with_all_seats_the_levels():
    sc = from_dict({**NOIZE, "skill": {"levels": ["random", "threshold", {"policy": "threshold", "bluff": 0.3,
                                                                          "label": "bluffer"}]},
                    "variants": [{"name": "rulebook"}, {"name": "shuffle", "rules": {"shuffle_each_round": True}}]})
    assert sc.groups == ["random: rulebook", "random: shuffle", "threshold: rulebook", "threshold: shuffle",
                         "bluffer: rulebook", "bluffer: shuffle"]
    assert sc.comparison["levels"] == ["random", "threshold", "bluffer"]
    assert sc.comparison["group_levels"] == [0, 0, 1, 1, 2, 2]
    # a level's baseline against the first level's (paired across skill), its variant against its baseline
    assert sc.comparison["refs"] == [None, 0, 0, 2, 0, 4]
    policies = [(a.group, {s.policy for s in a.seats}, a.seats[0].params.get("bluff"), a.rules["shuffle_each_round"])
                for a in sc.arms]
    assert policies == [("random: rulebook", {"random"}, None, False), ("random: shuffle", {"random"}, None, True),
                        ("threshold: rulebook", {"threshold"}, 0.1, False),
                        ("threshold: shuffle", {"threshold"}, 0.1, True),
                        ("bluffer: rulebook", {"threshold"}, 0.3, False), ("bluffer: shuffle", {"threshold"}, 0.3, True)]


def test_a_budget_after_the_colon_is_the_search_budget_and_named_seats_keep_their_policy():
    sc = from_dict({"game": "bards", "games": 10, "seed": 1, "players": 2, "seats": {"1": {"policy": "random"}},
                    "skill": {"levels": ["greedy", "search:48"]}})
    assert sc.groups == ["greedy", "search:48"]
    seats = [[(s.policy, s.params.get("budget")) for s in a.seats] for a in sc.arms]
    assert seats == [[("greedy", None), ("random", None)], [("search", 48), ("random", None)]]


@pytest.mark.parametrize("extra, key, words", [
    ({"skill": ["greedy"]}, "skill", "must be a table"),
    ({"skill": {"levels": ["random", "threshold"], "budget": 3}}, "skill.budget", "unknown key"),
    ({"skill": {"levels": ["threshold"]}}, "skill.levels", "2 to 8 skill levels"),
    ({"skill": {"levels": "threshold"}}, "skill.levels", "2 to 8 skill levels"),
    ({"skill": {"levels": ["random"] * 9}}, "skill.levels", "2 to 8 skill levels"),
    ({"skill": {"levels": ["random", "lookahead:32"]}}, "skill.levels[1]", "has no budget"),
    ({"skill": {"levels": ["random", "search:lots"]}}, "skill.levels[1]", "whole number"),
    ({"skill": {"levels": ["random", "search:0"]}}, "skill.levels[1].budget", "budget"),
    ({"skill": {"levels": ["random", "expert"]}}, "skill.levels[1].policy", "must be one of"),
    ({"skill": {"levels": ["random", 3]}}, "skill.levels[1]", "2 to 8 skill levels"),
    ({"skill": {"levels": ["random", {"policy": "threshold", "nerve": 1}]}}, "skill.levels[1].nerve",
     "not a parameter"),
    ({"skill": {"levels": ["threshold", {"policy": "threshold", "bluff": 0.3}]}}, "skill.levels", "'threshold' twice"),
    ({"skill": {"levels": LEVELS}, "all_seats": {"policy": "threshold"}}, "all_seats", "remove all_seats"),
    ({"skill": {"levels": LEVELS}, "variants": [{"name": "a"}, {"name": "b", "all_seats": {"bluff": 0.2}}]},
     "variants[1].all_seats", "set all_seats"),
    ({"skill": {"levels": LEVELS}, "sweep": {"x": {"path": "all_seats.bluff", "values": [0.1, 0.2]}}},
     "sweep.x.path", "set all_seats"),
    ({"skill": {"levels": LEVELS}, "players": 2, "policies": [{"policy": "random"}, {"policy": "threshold"}]},
     "policies", "not with a round-robin"),
    ({"skill": {"levels": LEVELS}, "ladder": {}}, "ladder", "not with a round-robin, a ladder"),
    ({"skill": {"levels": LEVELS}, "strength": {}}, "strength", "a strength curve"),
    ({"skill": {"levels": LEVELS}, "stop": {"max_games": 1000, "until": "decided"}, "games": None}, "stop", "[stop]"),
    ({"skill": {"levels": LEVELS}, "seats": {"0": {"bluff": 0.2}}}, "skill.levels[0]: seats.0.bluff",
     "not a parameter of policy 'random'"),
])
def test_bad_skill_tables_get_one_line_naming_the_key(extra, key, words):
    raw = {**NOIZE, **extra}
    raw = {k: v for k, v in raw.items() if v is not None}
    with pytest.raises(ScenarioError) as err:
        build_with(raw, "my.toml")
    message = str(err.value)
    assert "\n" not in message and "my.toml" in message and key in message and words in message, message


def test_a_level_plays_exactly_the_games_of_the_scenario_without_skill_levels(tmp_path):
    """The same deals, the same seeds: a level's figures are those of the plain scenario with all_seats = the level
    (bit for bit, every metric of summary.csv)."""
    _, rows, _ = summary(tmp_path / "skill", {**NOIZE, "skill": {"levels": LEVELS}})
    for level in LEVELS:
        _, alone, _ = summary(tmp_path / level, {**NOIZE, "all_seats": {"policy": level}})
        mine = {r["metric"]: (r["value"], r["ci_low"], r["ci_high"]) for r in rows if r["level"] == level}
        assert mine == {r["metric"]: (r["value"], r["ci_low"], r["ci_high"]) for r in alone}


def test_summary_names_each_rows_level_and_baseline_and_the_report_opens_with_the_verdict(tmp_path):
    raw = {**NOIZE, "games": 400, "skill": {"levels": LEVELS},
           "variants": [{"name": "rulebook"}, {"name": "shuffle", "rules": {"shuffle_each_round": True}}]}
    result, rows, md = summary(tmp_path, raw)
    pairs = {(r["group"], r["level"], r["baseline"]) for r in rows if r["kind"] == "metric"}  # (card power: no diff)
    assert pairs == {("random: rulebook", "random", ""), ("random: shuffle", "random", "random: rulebook"),
                     ("threshold: rulebook", "threshold", "random: rulebook"),
                     ("threshold: shuffle", "threshold", "threshold: rulebook")}
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert headings[:2] == [f"# {result.scenario.name}: balance report", "## Answer"]
    table = md[md.index("| figure |"):].split("\n\n")[0].splitlines()
    assert table[0] == "| figure | random | threshold | across skill |"
    # the shuffle's difference in the first seat's edge, as summary.csv has it, at each level
    line = next(t for t in table if t.startswith("| shuffle minus baseline: seat 0 (plays first)"))
    for level in LEVELS:
        row = next(r for r in rows if r["group"] == f"{level}: shuffle" and r["metric"] == "first_player_edge")
        assert f"{100 * float(row['diff_vs_baseline']):+.1f} pts ({100 * float(row['diff_low']):+.1f} to" in line
    assert "<details><summary>The full report at level threshold</summary>" in (tmp_path / "index.html").read_text()
    assert not list(tmp_path.glob(".level-*")), "the levels' scratch folders are removed"


def test_the_headline_says_the_paired_change_from_the_first_level_to_the_last(tmp_path):
    _, rows, md = summary(tmp_path, {**NOIZE, "games": 400, "rotate_seats": True, "seats": {"0": {"policy": "threshold"}},
                                     "skill": {"levels": LEVELS}})
    headline = next(line for line in md.splitlines() if line.startswith("> "))
    assert headline.startswith("> The policy of seat 0 (threshold, against the level): win share minus an even share")
    row = next(r for r in rows if r["group"] == "threshold" and r["metric"] == "first_player_edge")
    assert row["baseline"] == "random"
    # the first figure is the named policy's edge: threshold against random players wins more than against itself
    assert "From random to threshold it moves by -" in headline and "it is lower with stronger play" in headline


def test_a_sweep_names_its_best_point_at_each_level(tmp_path):
    raw = {**NOIZE, "games": 400, "rotate_seats": True, "seats": {"0": {"policy": "threshold"}},
           "skill": {"levels": LEVELS}, "sweep": {"x": {"path": "seats.0.bluff", "values": [0.0, 0.5]},
                                                  "metric": "policy_share_0"}}
    _, rows, md = summary(tmp_path, raw)
    verdict = next(line for line in md.splitlines() if line.startswith("> Best point"))
    for level in LEVELS:
        shares = {r["group"].split(": ")[1]: float(r["value"]) for r in rows
                  if r["level"] == level and r["metric"] == "policy_share_0"}
        best = max(shares, key=shares.get)
        assert f"{best} at {level} ({100 * shares[best]:.1f}%" in verdict, (verdict, shares)
    assert (tmp_path / "skill_sweep.png").exists()


PTS = Metric("e", "edge", "c", percent=True, points=True)


@pytest.mark.parametrize("cells, words, flagged", [
    ([(0.05, 0.02, 0.08), (0.04, 0.01, 0.07)], "holds at every level", False),
    ([(-0.05, -0.08, -0.02), (0.04, 0.01, 0.07)], "FLIPS: above zero at strong, below at weak", True),
    ([(0.05, 0.02, 0.08), (0.01, -0.02, 0.04)], "CHANGES: shown at weak, not at strong", True),
    ([(0.01, -0.02, 0.04), (0.0, -0.01, 0.01)], "no difference shown at any level", False),
    ([(0.01, math.nan, math.nan), (0.05, 0.02, 0.08)], "CHANGES: shown at strong, not at weak", True),
])
def test_a_verdict_that_flips_or_is_shown_at_one_level_only_is_flagged(cells, words, flagged):
    assert across_skill(KeyFigure("edge", PTS, cells, True), ["weak", "strong"]) == (words, flagged)


def test_a_level_table_parameter_that_cannot_change_a_game_warns():
    sc = build_with({"game": "fightsong", "games": 10, "seed": 1, "players": 3,
                     "skill": {"levels": ["greedy", {"policy": "team", "partner_weight": 0.5}]}}, "my.toml")
    assert sc.warnings == ["Warning: my.toml: skill.levels[1].partner_weight = 0.5: has no effect: a 3-player game "
                           "has no partners"]


def test_every_report_names_its_bots_and_places_them_on_a_known_strength_curve(tmp_path, monkeypatch):
    from analyzer.report import skill_labels
    from analyzer.report.blocks import plain
    sc = from_dict({**NOIZE, "players": 2, "seats": {"1": {"policy": "random"}}})
    [line] = skill_labels.skill_lines(sc)
    assert plain(line.text).startswith("Skill of the bots: the seats play threshold, random. None plays search, the "
                                "strongest policy of Bring the Noize")
    curve = {"players": 2, "games": 500, "budgets": [16, 64], "saturation": "gaining",
             "rungs": [{"label": "random", "seat": {"policy": "random"}, "rating": 0.0},
                       {"label": "threshold", "seat": {"policy": "threshold"}, "rating": 250.0},
                       {"label": "search 16", "seat": {"policy": "search", "budget": 16}, "rating": 300.0},
                       {"label": "search 64", "seat": {"policy": "search", "budget": 64}, "rating": 420.5}]}
    (tmp_path / "noize-2p.json").write_text(__import__("json").dumps(curve))
    monkeypatch.setattr(skill_labels, "KNOWN_CURVES", tmp_path)
    [line] = skill_labels.skill_lines(sc)
    assert ("On the game's strength curve for 2 players (500 deals per pairing): threshold rates 170 Elo below "
            "search 64; random rates 420 Elo below search 64; search is still gaining at 64") in plain(line.text)
    # another player count has no known curve; a seat off the curve is said to be unmeasured
    assert "strength curve" not in plain(skill_labels.skill_lines(from_dict({**NOIZE, "players": 3}))[0].text)
    off = from_dict({**NOIZE, "players": 2, "all_seats": {"policy": "threshold", "bluff": 0.3}})
    assert "None of them is a rung" in plain(skill_labels.skill_lines(off)[0].text)
