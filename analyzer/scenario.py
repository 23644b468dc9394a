"""Scenario files: TOML a designer edits -> a validated `Scenario` the runner plays.

    name = "Bring the Noize, four threshold players"
    game = "noize"
    games = 1_000_000
    seed = 1
    players = 4
    [rules]                 # rule settings of the game (see `analyzer games`)
    shuffle_each_round = false
    [all_seats]             # the policy every seat plays unless [seats.N] says otherwise
    policy = "threshold"
    challenge_below = 0.5
    [seats.0]               # optional, per seat (seats are numbered from 0, clockwise; 0 plays first)
    bluff = 0.2

Every value is checked before a game is played; a bad one raises ScenarioError naming the file,
the key, the value and what is allowed. Comparisons (variants, seat rotation, round-robins, sweeps)
are expanded into `arms` by analyzer/comparisons.py.
"""
from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.errors import MISSING, ScenarioError, toml_value
from analyzer.games import game_names, get_game
from analyzer.games.base import Game, Seat
from analyzer.textfiles import (MAX_DEPTH, MAX_KEY_PARTS, MAX_SCENARIO_BYTES, TextFileError, long_dotted_key,
                               nesting_depth, read_text, whole_number)

MAX_SEED = 2**63 - 1
MAX_GAMES = 10**10

TOP_KEYS = {
    "name": "a title for the report",
    "description": "what question the scenario answers",
    "game": "the game's short name",
    "games": "number of games to play",
    "seed": "master seed: the same seed gives the same games",
    "players": "number of players (seats)",
    "rules": "table of rule settings",
    "all_seats": "table: policy and parameters for every seat",
    "seats": "table of per-seat overrides, keyed by seat number",
    "variants": "list of house-rule / policy variants to compare (the first is the baseline)",
    "rotate_seats": "play every deal once in each cyclic rotation of the seats",
    "policies": "list of policies for a round-robin (two-player games)",
    "sweep": "table: one or two parameters to sweep",
    "practical_margin": "win-share points a difference must exceed to matter in practice (default 0.5)",
    "ladder": "table: play every rung of a skill ladder against a field (rungs, field)",
    "stop": "table: play until the answer is known (max_games, min_games, precision, until, equivalence)",
}
MAX_MARGIN = 50.0


@dataclass
class Arm:
    """One configuration to play on every deal: rules and seats, validated and ready to encode."""

    label: str
    rules: dict
    seats: list[Seat]
    raw: dict  # the scenario dict this arm was validated from
    rotation: int = 0  # seat s of this arm plays the policy of seat (s + rotation) % n of the base
    group: str = ""  # variant / sweep point this arm belongs to (rotations share a group)
    _encoded: object = None

    def encoded(self, game: Game):
        if self._encoded is None:
            self._encoded = game.encode(self.rules, self.seats)
        return self._encoded


@dataclass
class Scenario:
    source: str
    raw: dict
    name: str
    description: str
    game: Game
    games: int
    seed: int
    players: int
    rules: dict
    seats: list[Seat]
    arms: list[Arm] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)  # labels: one per variant / sweep point / pairing
    comparison: dict = field(default_factory=dict)  # what kind of comparison the arms make
    margin: float = 0.005  # practical margin for win shares, as a fraction (practical_margin / 100)
    overrides: list = field(default_factory=list)  # (path, value, origin) given on the command line
    stop: object = None  # analyzer.stopping.StopRule, or None: play `games` deals
    warnings: list = field(default_factory=list)  # lines about values that cannot change any game (idle_settings)


def parse_value(text: str):
    """A --set value: TOML syntax (true, 0.3, "x", [1, 2]); anything else is a plain string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def set_path(raw: dict, path: str, value, source="--set"):
    """raw[a][b][c] = value for path 'a.b.c' (list items by number: 'variants.1.name')."""
    parts = path.split(".")
    node = raw
    for i, part in enumerate(parts):
        where = ".".join(parts[:i + 1])
        if isinstance(node, list):
            k = whole_number(part)
            if k is None or k >= len(node):
                raise ScenarioError(source, where, part, f"no item {part} in a list of {len(node)}")
            if i == len(parts) - 1:
                node[k] = value
            elif isinstance(node[k], (dict, list)):
                node = node[k]
            else:
                raise ScenarioError(source, where, node[k], f"is a single value: {'.'.join(parts[i + 1:])} cannot "
                                                            f"be set inside it")
        elif i == len(parts) - 1:
            node[part] = value
        else:
            if part not in node or not isinstance(node[part], (dict, list)):
                node[part] = {}
            node = node[part]


def get_path(raw: dict, path: str, default=MISSING):
    node = raw
    for part in path.split("."):
        if isinstance(node, list) and whole_number(part) is not None and whole_number(part) < len(node):
            node = node[whole_number(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return default
    return node


def load_raw(path: str | Path) -> dict:
    """The TOML of a scenario file, or ScenarioError naming the file: only a regular UTF-8 file of bounded
    size (a byte-order mark and CRLF line ends are fine), nested no deeper than a scenario needs."""
    try:
        text = read_text(path, MAX_SCENARIO_BYTES, "scenario")
    except TextFileError as e:
        raise ScenarioError(str(path), None, None, str(e)) from None
    return parse_toml(text, str(path), "scenario")


def parse_toml(text: str, source: str, what: str) -> dict:
    """tomllib.loads, with every failure said in one line naming source."""
    line = long_dotted_key(text)
    if line is not None:
        raise ScenarioError(source, None, None, f"line {line:,} has a dotted key of more than {MAX_KEY_PARTS} parts "
                                                f"(a.b.c...): a {what} needs a few")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(source, None, None, f"is not valid TOML: {e}") from None
    except RecursionError:  # (tomllib parses nested arrays and inline tables recursively)
        raise ScenarioError(source, None, None, f"nests lists or tables more than {MAX_DEPTH} levels deep: "
                                                f"a {what} needs a few") from None
    depth, where = nesting_depth(raw)
    if depth > MAX_DEPTH:
        raise ScenarioError(source, None, None, f"nests lists or tables more than {MAX_DEPTH} levels deep "
                                                f"(at {where[:60]}...): a {what} needs a few")
    return raw


def _int(raw, key, source, low, high, default=MISSING):
    value = raw.get(key, default)
    if value is MISSING:
        raise ScenarioError(source, key, MISSING, f"is required: an integer from {low:,} to {high:,}")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError(source, key, value, f"must be an integer from {low:,} to {high:,}")
    return value


def resolve_seats(game: Game, raw: dict, players: int, source: str) -> list[Seat]:
    base = raw.get("all_seats", {"policy": game.default_policy})
    if not isinstance(base, dict):
        raise ScenarioError(source, "all_seats", base, "must be a table: policy = \"...\" and its parameters")
    base = dict(base)
    base.setdefault("policy", game.default_policy)
    per_seat = raw.get("seats", {})
    if not isinstance(per_seat, dict):
        raise ScenarioError(source, "seats", per_seat, "must be a table of seat numbers, e.g. [seats.0]")
    for key, spec in per_seat.items():
        if not (whole_number(key) is not None and str(int(key)) == key and int(key) < players):
            raise ScenarioError(source, f"seats.{key}", spec, f"seat numbers run from 0 to {players - 1}")
        if not isinstance(spec, dict):
            raise ScenarioError(source, f"seats.{key}", spec, "must be a table: policy and/or parameters")
    seats = []
    for s in range(players):
        spec = per_seat.get(str(s))
        if spec is None:
            seats.append(game.validate_seat(base, source, "all_seats"))
            continue
        if "policy" in spec and spec["policy"] != base["policy"]:
            merged = dict(spec)  # another policy: the base's parameters do not apply
        else:
            merged = {**base, **spec}
        seats.append(game.validate_seat(merged, source, f"seats.{s}"))
    return seats


def validate_arm(game: Game, raw: dict, players: int, source: str):
    """(rules, seats) for one configuration, or ScenarioError."""
    rules_raw = raw.get("rules", {})
    if not isinstance(rules_raw, dict):
        raise ScenarioError(source, "rules", rules_raw, "must be a table of rule settings")
    rules = game.validate_rules(dict(rules_raw), players, source)
    return rules, resolve_seats(game, raw, players, source)


def check_players(game: Game, raw: dict, source: str):
    fixed = game.min_players if game.min_players == game.max_players else MISSING
    return _int(raw, "players", source, game.min_players, game.max_players, fixed)


def build(raw: dict, source: str, flags=None) -> Scenario:
    """The validated Scenario of raw; flags: {key: the command-line flag that set it}, for errors that name a
    value set elsewhere than the key they are about."""
    for key in raw:
        if key not in TOP_KEYS:
            raise ScenarioError(source, key, raw[key], "unknown key; allowed: " + ", ".join(TOP_KEYS))
    name = raw.get("game", MISSING)
    game = get_game(name) if isinstance(name, str) else None
    if game is None:
        raise ScenarioError(source, "game", name, "must be one of " + ", ".join(toml_value(g) for g in game_names()))
    games = _int(raw, "games", source, 1, MAX_GAMES) if "games" in raw or "stop" not in raw else None
    from analyzer.stopping import parse as parse_stop

    kind = next((k for k in ("ladder", "variants", "sweep", "policies") if k in raw), "single")
    stop = parse_stop(raw, source, {"policies": "round_robin"}.get(kind, kind), games, flags or {})
    if stop is not None:
        games = stop.max_games
    seed = _int(raw, "seed", source, 0, MAX_SEED)
    players = check_players(game, raw, source)
    for key in ("name", "description"):
        if key in raw and not isinstance(raw[key], str):
            raise ScenarioError(source, key, raw[key], "must be a string")
    margin = raw.get("practical_margin", 0.5)
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 < margin <= MAX_MARGIN:
        raise ScenarioError(source, "practical_margin", margin,
                            f"must be a number of win-share points above 0 and at most {MAX_MARGIN:g} (e.g. 0.5)")
    rules, seats = validate_arm(game, raw, players, source)
    sc = Scenario(source=source, raw=raw, name=raw.get("name", Path(source).stem), description=raw.get("description", ""),
                  game=game, games=games, seed=seed, players=players, rules=rules, seats=seats, margin=margin / 100,
                  stop=stop)
    from analyzer.comparisons import expand  # comparisons build on the validation above

    expand(sc)
    return sc


def load(path: str | Path, overrides=()) -> Scenario:
    """Read, apply overrides (path, value[, origin]), validate. The file name is in every error, and an
    error about a value that came from the command line names its flag (origin, default "--set")."""
    return build_with(load_raw(path), str(path), overrides)


def build_with(raw: dict, source: str, overrides=()) -> Scenario:
    """Apply overrides (path, value[, origin]) to raw and validate (see load); sc.warnings then holds the lines
    about values it writes that cannot change any game (analyzer/idle_settings.py)."""
    origins = []
    for key, value, *origin in overrides:
        origins.append((key, origin[0] if origin else "--set"))
        set_path(raw, key, value, f"{source}, {origins[-1][1]}")
    try:
        sc = build(raw, source, dict(origins))
        sc.overrides = [(key, value, origin) for (key, origin), (_, value, *_) in zip(origins, overrides)]
    except ScenarioError as e:
        said = None if e.key is None else re.sub(r"\[(\d+)\]", r".\1", e.key)  # variants[1].x is --set variants.1.x
        for key, origin in reversed(origins):  # the last override of a key is the one in force
            if said is not None and (said == key or said.startswith(key + ".") or key.startswith(said + ".")):
                raise e.renamed(source=f"{source}, {origin}") from None
        raise
    from analyzer.idle_settings import collect

    sc.warnings = collect(sc)
    return sc


def from_dict(raw: dict, source="(scenario)") -> Scenario:
    return build(copy.deepcopy(raw), source)
