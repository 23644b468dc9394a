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
are expanded into `arms` by analyzer/comparisons.py; the records a scenario is made of (Scenario, Arm) and
the validation of one configuration are in analyzer/configs.py.
"""
from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path

from analyzer import comparisons, idle_settings, margins, stopping
from analyzer import metrics as M
from analyzer.configs import Scenario, check_players, read_int, set_path, validate_arm
from analyzer.errors import MISSING, ScenarioError, parse_toml, toml_value
from analyzer.games import game_names, get_game
from analyzer.textfiles import MAX_SCENARIO_BYTES, TextFileError, read_text

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
    "practical_margin": "win-share points a difference must exceed to matter in practice (as [margins] shares)",
    "margins": "table: how large a difference must be to matter, by kind (shares, scores, counts) or metric key",
    "question": "the question the report answers first, in the designer's words",
    "key_metric": "the metric that answers the question (a metric key: `analyzer games GAME` lists them)",
    "ladder": "table: play every rung of a skill ladder against a field (rungs, field)",
    "strength": "table: the strength curve, every pair of rungs head to head (rungs, budgets, search)",
    "skill": "table: play the scenario at each skill level (levels), mirror play: the level sets all_seats",
    "stop": "table: play until the answer is known (max_games, min_games, precision, until, equivalence)",
    "tune": "table: the settings `analyzer tune` searches, its objectives and budget (`analyzer run` plays the rulebook)",
    "profile": "table: what `analyzer profile` plays (levels, deals, replays) and its warning thresholds",
}
MAX_MARGIN = 50.0


def game_metrics(game) -> dict:
    """{key: Metric} of every metric the game's reports can show, at any player count, seats rotated or not: the
    keys key_metric and [margins] may name."""
    players = range(game.min_players, game.max_players + 1)
    return ({m.key: m for n in players for m in M.standard_metrics(game, n, 1)}
            | {m.key: m for n in players for m in M.standard_metrics(game, n, n)})


def parse_value(text: str):
    """A --set value: TOML syntax (true, 0.3, "x", [1, 2]); anything else is a plain string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def load_raw(path: str | Path) -> dict:
    """The TOML of a scenario file, or ScenarioError naming the file: only a regular UTF-8 file of bounded
    size (a byte-order mark and CRLF line ends are fine), nested no deeper than a scenario needs."""
    try:
        text = read_text(path, MAX_SCENARIO_BYTES, "scenario")
    except TextFileError as e:
        raise ScenarioError(str(path), None, None, str(e)) from None
    return parse_toml(text, str(path), "scenario")


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
    games = read_int(raw, "games", source, 1, MAX_GAMES) if "games" in raw or "stop" not in raw else None
    if "skill" in raw:
        comparisons.check_skill(raw, source)
    kind = next((k for k in ("strength", "ladder", "variants", "sweep", "policies") if k in raw), "single")
    stop = stopping.parse(raw, source, {"policies": "round_robin"}.get(kind, kind), games, flags or {})
    if stop is not None:
        games = stop.max_games
    seed = read_int(raw, "seed", source, 0, MAX_SEED)
    players = check_players(game, raw, source)
    for key in ("name", "description", "question"):
        if key in raw and not isinstance(raw[key], str):
            raise ScenarioError(source, key, raw[key], "must be a string")
    margin = raw.get("practical_margin", 1.0)
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 < margin <= MAX_MARGIN:
        raise ScenarioError(source, "practical_margin", margin,
                            f"must be a number of win-share points above 0 and at most {MAX_MARGIN:g} (e.g. 1)")
    metric_keys = game_metrics(game)
    margin_table = margins.parse(raw, source, metric_keys)
    key_metric = raw.get("key_metric")
    if key_metric is not None and key_metric not in metric_keys:
        raise ScenarioError(source, "key_metric", key_metric, "must be a metric key of " + game.name + ": "
                            + ", ".join(sorted(metric_keys)))
    rules, seats = validate_arm(game, raw, players, source)
    sc = Scenario(source=source, raw=raw, name=raw.get("name", Path(source).stem), description=raw.get("description", ""),
                  game=game, games=games, seed=seed, players=players, rules=rules, seats=seats, margin=margin_table["shares"],
                  margins=margin_table, question=raw.get("question", ""), key_metric=key_metric,
                  stop=stop)
    comparisons.expand(sc)  # (the arms and groups, on the validation above)
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
        raise named_by_flag(e, source, overrides) from None
    sc.warnings = idle_settings.collect(sc)
    return sc


def build_as_written_then(raw: dict, source: str, overrides=(), build=None, **options):
    """build(raw, source, overrides, **options) (default build_with; also tuning.build, profiling.build), once raw
    as written (a copy) has been built without them: a bad value in the file is refused even where an override
    would replace it, as every command and the Python API do."""
    build = build or build_with
    build(copy.deepcopy(raw), source, **options)
    return build(raw, source, overrides, **options)


def named_by_flag(e: ScenarioError, source: str, overrides=()) -> ScenarioError:
    """e, said of the command-line flag whose override (path, value[, origin]) set the key it is about (the last
    override of a key is the one in force), or e itself if none did."""
    said = None if e.key is None else re.sub(r"\[(\d+)\]", r".\1", e.key)  # variants[1].x is --set variants.1.x
    for key, _, *origin in reversed(list(overrides)):
        if said is not None and (said == key or said.startswith(key + ".") or key.startswith(said + ".")):
            return e.renamed(source=f"{source}, {origin[0] if origin else '--set'}")
    return e


def from_dict(raw: dict, source="(scenario)") -> Scenario:
    return build(copy.deepcopy(raw), source)
