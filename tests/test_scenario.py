"""Scenario validation: every bad value is an error naming the file, the key, the value, what is allowed."""
import pytest

from analyzer.errors import ScenarioError
from analyzer.scenario import from_dict, load

BASE = {"game": "noize", "games": 10, "seed": 1, "players": 4}


def err(raw, match):
    with pytest.raises(ScenarioError, match=match) as e:
        from_dict(raw, "my.toml")
    assert str(e.value).startswith("my.toml: ")
    return str(e.value)


def test_valid_scenario_fills_defaults():
    sc = from_dict({**BASE, "all_seats": {"policy": "threshold", "bluff": 0.3}, "seats": {"2": {"policy": "random"}}})
    assert [s.policy for s in sc.seats] == ["threshold", "threshold", "random", "threshold"]
    assert sc.seats[0].params == {"challenge_below": 0.5, "bluff": 0.3, "max_jump": 2, "compare_raise": True, "avoid": "none"}
    assert sc.seats[2].params == {"max_raise": 8, "avoid": "none"}
    assert sc.rules["start_cards"] == 3 and sc.rules["finish_cards"] == 8


@pytest.mark.parametrize("raw, match", [
    ({**BASE, "colour": 1}, r"colour = 1: unknown key"),
    ({**BASE, "game": "chess"}, r'game = "chess": must be one of "noize"' ),
    ({**BASE, "games": 0}, r"games = 0: must be an integer from 1"),
    ({**BASE, "games": "many"}, r'games = "many"' ),
    ({**BASE, "players": 9}, r"players = 9: must be an integer from 2 to 7"),
    ({k: v for k, v in BASE.items() if k != "seed"}, r"seed = \(missing\): is required"),
    ({**BASE, "rules": {"shuffle": True}}, r"rules.shuffle = true: unknown rule setting; known: start_cards"),
    ({**BASE, "rules": {"shuffle_each_round": "yes"}}, r'rules.shuffle_each_round = "yes": must be true or false'),
    ({**BASE, "rules": {"finish_cards": 2.5}}, r"rules.finish_cards = 2.5: must be an integer from 2 to 60"),
    ({**BASE, "all_seats": {"policy": "smart"}}, r'all_seats.policy = "smart": must be one of .random., .threshold.'),
    ({**BASE, "all_seats": {"policy": "threshold", "bluff": 1.5}}, r"all_seats.bluff = 1.5: must be a number from 0 to 1"),
    ({**BASE, "all_seats": {"policy": "random", "bluff": 0.1}}, r"all_seats.bluff = 0.1: not a parameter of policy 'random'"),
    ({**BASE, "seats": {"4": {"policy": "random"}}}, r"seats.4 = .*seat numbers run from 0 to 3"),
    ({**BASE, "rules": {"start_cards": 9}}, r"rules.finish_cards = 8: must be greater than rules.start_cards \(9\)"),
])
def test_bad_values_are_named(raw, match):
    err(raw, match)


def test_file_errors_name_the_file(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("game = 'noize'\ngames = [\n")
    with pytest.raises(ScenarioError, match=r"broken.toml: is not valid TOML"):
        load(p)
    with pytest.raises(ScenarioError, match="missing.toml: does not exist"):
        load(tmp_path / "missing.toml")


def test_overrides_apply_before_validation(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('game = "noize"\ngames = 10\nseed = 1\nplayers = 3\n[all_seats]\npolicy = "threshold"\n')
    sc = load(p, [("rules.shuffle_each_round", True), ("all_seats.bluff", 0.25), ("players", 5)])
    assert sc.rules["shuffle_each_round"] is True and sc.seats[4].params["bluff"] == 0.25 and sc.players == 5
    with pytest.raises(ScenarioError, match=r"s.toml, --set: all_seats.bluff = 2: must be a number from 0 to 1"):
        load(p, [("all_seats.bluff", 2)])


def test_shipped_scenarios_are_valid():
    from pathlib import Path

    files = sorted(Path(__file__).parent.parent.glob("scenarios/*.toml"))
    assert files
    for f in files:
        load(f)


def test_param_kinds_str_and_intlist():
    import pytest as _pytest

    from analyzer.errors import ScenarioError
    from analyzer.games.base import Param

    path = Param("deck_file", "str", "default", "a deck file")
    assert path.validate("my.csv", "f.toml", "rules.deck_file") == "my.csv"
    for bad in ("", "  ", 3, None, ["a"]):
        with _pytest.raises(ScenarioError, match="rules.deck_file"):
            path.validate(bad, "f.toml", "rules.deck_file")
    ints = Param("choices", "intlist", [2, 3], "intervals", 2, 7)
    assert ints.validate([2, 7], "f.toml", "rules.choices") == [2, 7]
    for bad in ([], [2, 2], [1], [8], [2.0], [True], "2,3", 3):
        with _pytest.raises(ScenarioError, match="must be a non-empty list of different integers, each from 2 to 7"):
            ints.validate(bad, "f.toml", "rules.choices")
