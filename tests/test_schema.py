"""`analyzer schema [GAME]` (issue 33): the JSON Schema of scenario files, generated from the declarations the
analyzer validates with. It is a valid draft 2020-12 schema; every shipped scenario validates against it; every file
the analyzer refuses for a key or a value (tests/test_bad_inputs.py, and the doors below) is refused by the schema
too, except the kinds of refusal a schema cannot say (BEYOND_A_SCHEMA, each with its reason), which it accepts; the
command prints what scenario_schema returns. No game is played."""
import copy
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from analyzer import profiling, scenario, tuning
from analyzer.cli import main
from analyzer.errors import ScenarioError, parse_toml
from analyzer.games import game_names, get_game
from analyzer.schema import scenario_schema
from test_bad_inputs import BARDS, CASES, NOIZE, V

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))
TOY = sorted((ROOT / "tests" / "toygame" / "scenarios").glob("*.toml"))

RELATED = ("a rule relating several values (a schema checks each value against constants, not against another "
           "value, a sum or a product)")
MEASURED = "what the run's configurations measure (the metrics depend on the players, seat rotation and variants)"
# The kinds of refusal a schema cannot say, with the bad-input cases of each (by the text the analyzer's line holds).
# The test checks the schema accepts each of them (a case it learns to refuse leaves the list) and that each is a case.
BEYOND_A_SCHEMA = {
    RELATED: ("rules.finish_cards = 8: must be greater than rules.start_cards", "rules.finish_cards = 8",
              "probability table would need", "sweep.x.range = [0.5, 0.1, 0.1]", "at most 200 per axis",
              "gives more than 1e308 points", "more than 2,000 configurations",
              'sweep.y.path = "all_seats.bluff": is the path of sweep.x too', "labels must differ",
              "stop.min_games = 5000: must be at most stop.max_games = 1000",
              "stop.min_games = 5000: must be at most games = 100, which caps stop.max_games = 100000",
              "must be at most 2,000,000"),
    MEASURED: ('sweep.metric = "happiness"', 'sweep.metric = "edge_policy_0": must be one of',
               "sweep.goal = 25: win_share_0 is a share: give the target as a fraction from 0 to 1",
               "sweep.goal = -2.0: first_player_edge is an edge: give the target as a fraction from -1 to 1",
               'stop.metric = "fun"',
               'stop.metric = "win_share_3": must be one of the metrics every variant measures'),
    "a file on disk: whether a deck file exists, what it is and what it holds":
        ('rules.deck_file = "/dev/zero": the deck file /dev/zero is a device', "the deck file /dev/urandom is a device",
         "deck.toml does not exist"),
    "a command's own refusal of a file `analyzer run` plays: `analyzer profile` refuses a comparison even without a "
    "[profile] table (the schema refuses one beside a [profile] table)": ("a profile plays one configuration",),
}
# (and the cases that schema_cases leaves out: the file itself, read before there is a key, and the deck files
# written beside a scenario)


def as_json(value):
    """A scenario as an editor validates it: JSON has no nan or inf, which Taplo (0.9.3, tried) reads as null."""
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return None if isinstance(value, float) and not math.isfinite(value) else value


def toml(text):
    return as_json(parse_toml(text, "x.toml", "scenario"))


def schema_cases():
    """(id, scenario, expected text) of the bad-input cases that are scenario files `analyzer run` or `analyzer
    profile` reads as they are (no other flag), with keys to check: not those refused before there is a key (no
    file, a folder, a FIFO, not UTF-8, not TOML, nested or dotted too deep: parse_toml's refusals), nor those
    about the deck files written beside them (a dict case)."""
    for i, (text, args, expected) in enumerate(CASES):
        if args not in ([], ["PROFILE"]) or not isinstance(text, str) or text in ("DIR", "FIFO"):
            continue  # (a flag's refusal, a command that adds tables of its own, or no scenario text)
        try:
            yield f"{i:03d}", toml(text), expected
        except ScenarioError:
            continue


SCHEMA_CASES = list(schema_cases())
BEYOND = {text: kind for kind, texts in BEYOND_A_SCHEMA.items() for text in texts}


@pytest.fixture(scope="module")
def every_game():
    return Draft202012Validator(scenario_schema())


# the keywords editors know (Taplo reads up to draft 7: if/then/else, const, propertyNames), draft 2020-12's prefixItems
# (beside items, which says the same type for a reader without it), Taplo's extension, the annotations
KEYWORDS = {"$schema", "$ref", "$defs", "title", "description", "default", "x-taplo", "type", "enum", "const",
            "minimum", "maximum", "exclusiveMinimum", "pattern", "minItems", "maxItems", "uniqueItems", "items",
            "prefixItems", "properties", "patternProperties", "additionalProperties", "propertyNames", "required",
            "allOf", "anyOf", "oneOf", "not", "if", "then", "else"}
SUBSCHEMA = {"items", "additionalProperties", "propertyNames", "not", "if", "then", "else"}


def keywords(schema):
    """Every keyword used anywhere in schema."""
    if not isinstance(schema, dict):
        return set()
    out = set(schema)
    for k, v in schema.items():
        if k in ("properties", "patternProperties", "$defs"):
            out |= set().union(*map(keywords, v.values()))
        elif k in ("allOf", "anyOf", "oneOf", "prefixItems"):
            out |= set().union(*map(keywords, v))
        elif k in SUBSCHEMA:
            out |= keywords(v)
    return out


def test_the_schemas_are_valid_draft_2020_12_in_keywords_editors_know():
    for game in [None] + game_names():
        schema = scenario_schema(game)
        Draft202012Validator.check_schema(schema)
        assert keywords(schema) <= KEYWORDS


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_scenario_validates(path, every_game):
    raw = scenario.load_raw(path)
    assert not list(every_game.iter_errors(raw))
    assert not list(Draft202012Validator(scenario_schema(raw["game"])).iter_errors(raw))


def test_the_toy_scenarios_validate(test_games):
    with_toy = Draft202012Validator(scenario_schema())
    own = Draft202012Validator(scenario_schema("toy"))
    assert "toy" in with_toy.schema["properties"]["game"]["enum"]
    for path in TOY:
        raw = scenario.load_raw(path)
        assert not list(with_toy.iter_errors(raw)), path
        assert not list(own.iter_errors(raw)), path


@pytest.mark.parametrize("case, raw, expected", SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES])
def test_a_file_the_analyzer_refuses_the_schema_refuses(case, raw, expected, every_game):
    errors = list(every_game.iter_errors(raw))
    if expected in BEYOND:
        assert not errors, f"the schema refuses it now: take {expected!r} out of BEYOND_A_SCHEMA"
    else:
        assert errors, f"the analyzer refuses it ({expected}); the schema accepts it"


def test_every_refusal_beyond_a_schema_is_a_case():
    said = {expected for _, _, expected in SCHEMA_CASES}
    assert not set(BEYOND) - said


# --- the doors, one by one: a file both refuse (or both accept), the analyzer's command as it reads it -------------
def analyzer_refuses(raw, command):
    build = {"run": scenario.from_dict, "tune": lambda r: tuning.build(copy.deepcopy(r), "x.toml"),
             "profile": lambda r: profiling.build(copy.deepcopy(r), "x.toml")}[command]
    try:
        build(raw)
    except ScenarioError as e:
        return str(e)
    return None


TUNE = NOIZE + '[[tune.objectives]]\nmetric = "first_player_edge"\ngoal = "zero"\n'
SETTING = '[[tune.settings]]\npath = "rules.start_cards"\n'
DOORS = [  # (scenario text, the command that reads it)
    # a seat without a policy plays all_seats' (without one, the game's default: noize's threshold)
    (NOIZE + '[all_seats]\npolicy = "random"\n[seats.1]\nbluff = 0.2\n', "run"),
    (NOIZE + '[seats.1]\nmax_raise = 3\n', "run"),
    (NOIZE + '[seats.1]\npolicy = "random"\nbluff = 0.2\n', "run"),
    (NOIZE.replace("players = 4", "players = 2") + '[seats.2]\npolicy = "random"\n', "run"),
    (NOIZE.replace("games = 100\n", ""), "run"),
    (NOIZE.replace("seed = 1\n", ""), "run"),
    (BARDS + '[all_seats]\npolicy = "search"\nbudget = 0\n', "run"),
    (V + 'all_seats = {policy = "random", bluff = 0.5}\n', "run"),
    (NOIZE + '[sweep]\nx = {path = "seats.0.policy", values = ["random", "clever"]}\n', "run"),
    (NOIZE + '[sweep]\nx = {path = "players", values = [2, 9]}\n', "run"),
    (NOIZE + '[sweep]\nx = {path = "players"}\n', "run"),
    (NOIZE + '[skill]\nlevels = ["threshold", "threshold:64"]\n', "run"),
    (NOIZE + '[skill]\nlevels = ["threshold"]\n', "run"),
    (NOIZE + '[skill]\nlevels = ["threshold", "search"]\n[[variants]]\nname = "a"\n[[variants]]\nname = "b"\n'
     'all_seats.policy = "random"\n', "run"),
    (NOIZE + '[skill]\nlevels = ["threshold", "search"]\n[sweep]\nx = {path = "all_seats.bluff", values = [0.1]}\n',
     "run"),
    (NOIZE + '[strength]\nrungs = [{policy = "threshold"}]\nbudgets = []\n', "run"),
    (NOIZE + '[strength]\nbudgets = [0, 16]\n', "run"),
    (NOIZE + '[strength]\nsearch = {budget = 16}\n', "run"),
    (NOIZE + '[ladder]\nfield = {bluff = 0.1}\n', "run"),
    (NOIZE + '[stop]\nmax_games = 1000\nmin_games = 50\nprecision = 1\n', "run"),
    (NOIZE + 'key_metric = "length"\n[margins]\nfun_per_game = 1\n', "run"),
    (TUNE + SETTING + "choices = [1, 2]\nlow = 1\n", "tune"),
    (TUNE + SETTING + "low = 1\n", "tune"),
    (TUNE + SETTING + "low = 1\nhigh = 4\nlog = true\nstep = 1\n", "tune"),
    (TUNE + SETTING + "low = 1\nhigh = 4\n[tune]\nsampler = \"nsga2\"\n", "tune"),
    (TUNE + SETTING + "low = 1\nhigh = 4\n[tune]\npareto = true\n", "tune"),
    (TUNE + SETTING + 'low = 1\nhigh = 4\n[tune]\nblocks = 100\n', "tune"),
    (TUNE + SETTING + 'low = 1\nhigh = 4\n[[variants]]\nname = "a"\n[[variants]]\nname = "b"\n', "tune"),
    (NOIZE + '[profile]\nlevels = ["threshold", "search:64", "lookahead"]\n', "profile"),
    (NOIZE + '[profile]\nlevels = [" threshold : 64"]\n', "profile"),
    (NOIZE + '[profile.thresholds]\nunfinished = -1\n', "profile"),
    (NOIZE + '[profile]\n[stop]\nmax_games = 1000\nprecision = 1\n', "profile"),
]
GOOD = [  # files both accept, at the schema's edges
    (NOIZE + '[all_seats]\npolicy = "random"\n[seats.1]\nmax_raise = 3\n[seats.2]\npolicy = "threshold"\nbluff = 0.2\n',
     "run"),
    (NOIZE + '[rules]\nvocals = 20.0\n[seats.3]\nbluff = 0.3\n', "run"),
    (NOIZE + '[skill]\nlevels = [" threshold ", "search: 64", {policy = "search", budget = 8, label = "s8"}]\n'
             '[seats.0]\npolicy = "threshold"\nbluff = 0.2\n', "run"),
    (NOIZE + '[strength]\nrungs = [{policy = "threshold"}, {policy = "random"}]\nbudgets = []\n', "run"),
    (NOIZE + '[sweep]\nx = {path = "seats.0.policy", values = ["random", "threshold"]}\n'
             'y = {path = "rules.finish_cards", range = [8, 10, 1]}\nmetric = "length"\ngoal = 5\n', "run"),
    (NOIZE + 'rotate_seats = true\nkey_metric = "length"\npractical_margin = 2\n', "run"),
    (NOIZE.replace("games = 100\n", "") + '[stop]\nmax_games = 1000\nprecision = 1\n', "run"),
    (TUNE + SETTING + 'low = 1\nhigh = 4\nlog = true\n[[tune.settings]]\npath = "all_seats.policy"\n'
                      'choices = ["random", "threshold"]\n', "tune"),
    (NOIZE + '[profile]\nlevels = ["search:64"]\n[profile.thresholds]\nkingmaker = 5\n', "profile"),
]


@pytest.mark.parametrize("text, command", DOORS, ids=[f"door{i:02d}" for i in range(len(DOORS))])
def test_a_door_refuses_in_both(text, command, every_game):
    raw = toml(text)
    assert analyzer_refuses(raw, command), "the analyzer accepts it: not a door"
    assert list(every_game.iter_errors(raw)), analyzer_refuses(raw, command)


@pytest.mark.parametrize("text, command", GOOD, ids=[f"good{i:02d}" for i in range(len(GOOD))])
def test_a_good_file_passes_both(text, command, every_game):
    raw = toml(text)
    assert analyzer_refuses(raw, command) is None
    assert not [e.message for e in every_game.iter_errors(raw)]


def bad_values(p):
    """Values a declared Param refuses, by its kind and range."""
    out = {"int": ["x", 1.5, True], "float": ["x", True], "bool": [1, "yes"], "choice": ["not one of them", 1],
           "str": ["", "  ", 3], "intlist": [[], [True], "x"]}[p.kind]
    if p.kind in ("int", "float", "intlist") and p.high is not None:
        above = p.high + 1 if p.kind != "float" else p.high + abs(p.high) + 1
        out.append([int(above)] if p.kind == "intlist" else above)
    if p.kind in ("int", "float", "intlist") and p.low is not None:
        below = p.low - 1
        out.append([int(below)] if p.kind == "intlist" else below)
    return out


def declared(game):
    """(path into a scenario, Param) of every rule setting and policy parameter of the game."""
    for p in game.settings:
        yield ("rules", p.name), p
    for pol in game.policies:
        for p in pol.params:
            yield ("all_seats", p.name, pol.name), p


@pytest.mark.parametrize("name", game_names())
def test_every_declared_value_is_checked_as_the_analyzer_checks_it(name):
    """Each rule setting and policy parameter: its default passes both, a value of the wrong type or out of its
    range is refused by both."""
    game = get_game(name)
    validator = Draft202012Validator(scenario_schema(name))
    base = {"game": name, "games": 100, "seed": 1, "players": game.min_players}
    for where, p in declared(game):
        values = [(v, False) for v in bad_values(p)] + ([(p.default, True)] if p.default is not None else [])
        for value, good in values:
            raw = copy.deepcopy(base)
            raw[where[0]] = {p.name: value} | ({"policy": where[2]} if len(where) == 3 else {})
            said = f"{where} = {value!r}"
            assert (analyzer_refuses(raw, "run") is None) == good, said
            assert (not list(validator.iter_errors(raw))) == good, said


# --- the command ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [None] + game_names())
def test_the_command_prints_scenario_schema(name):
    result = CliRunner().invoke(main, ["schema"] + ([name] if name else []))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == scenario_schema(name)


def test_the_command_writes_the_file(tmp_path):
    out = tmp_path / "noize.schema.json"
    result = CliRunner().invoke(main, ["schema", "noize", "--out", str(out)])
    assert result.exit_code == 0 and result.output == ""
    assert json.loads(out.read_text()) == scenario_schema("noize")
    # (an unknown game and an --out it cannot write: one line each, in test_bad_inputs.py)
