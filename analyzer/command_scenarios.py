"""The scenarios that `analyzer ladder`, `analyzer strength` and `analyzer trace` build from a game's name and,
optionally, a scenario file: one place for what they take from the file and what they add, shared by the command
line (analyzer/cli.py) and the Python API (analyzer/api.py). Each takes the file's TOML (raw, already read) and its
source, and the overrides (key, value, origin), and raises ScenarioError naming the source (or the flag).
"""
from __future__ import annotations

import copy

from analyzer.errors import ScenarioError
from analyzer.textfiles import printable

# what a ladder takes from a scenario; the seats are the ladder's own (a warning says so)
LADDER_KEEP = ("name", "description", "question", "game", "games", "seed", "players", "rules", "variants",
               "practical_margin", "margins", "ladder", "stop")
LADDER_SEATS = ("all_seats", "seats", "rotate_seats")
LADDER_GAMES, LADDER_SEARCH_GAMES = 100_000, 4_000  # default deals per rung; with a search rung (its cost rules)
# what a strength curve takes from a scenario; the seats are the curve's own (a warning says so)
STRENGTH_KEEP = ("name", "description", "question", "game", "games", "seed", "players", "rules", "practical_margin",
                 "margins", "strength", "stop")
STRENGTH_GAMES = 1_000  # default deals: every pair of rungs plays each in every seat rotation


def game_named(name, source="GAME"):
    """The registered game called name, or ScenarioError listing the games."""
    from analyzer.games import game_names, get_game

    g = get_game(name) if isinstance(name, str) else None
    if g is None:
        raise ScenarioError(source, None, None, f"{name!r}: known games are {', '.join(game_names())}")
    return g


def ladder_games(game):
    """A ladder's default deals per rung."""
    from analyzer.comparisons import SEARCH, default_ladder

    return LADDER_SEARCH_GAMES if any(r.get("policy") == SEARCH for r in default_ladder(game)) else LADDER_GAMES


def _validated_as_run(raw, source, game):
    """The scenario file validated as `analyzer run` would (before anything is dropped), and for this game."""
    from analyzer import scenario as scen

    scen.build_with(copy.deepcopy(raw), source)
    if raw.get("game") != game:
        raise ScenarioError(source, "game", raw.get("game"), f"the scenario is for another game than {game!r}")


def ladder(game, raw, source, overrides):
    """(the ladder's Scenario, warning lines): the game's skill ladder, with the players, rules, variants and
    [ladder] of raw when given."""
    from analyzer import scenario as scen

    g = game_named(game)
    lines = []
    if raw is not None:
        _validated_as_run(raw, source, game)
        for key in ("sweep", "policies"):
            if key in raw:
                raise ScenarioError(source, key, raw[key], "a ladder combines with [[variants]] only: drop it, "
                                                           "or play this scenario with `analyzer run`")
        dropped = [key for key in LADDER_SEATS if key in raw]
        dropped += [f"variants[{i}].{key}" for i, v in enumerate(raw.get("variants", [])) for key in LADDER_SEATS
                    if key in v]
        if dropped:
            lines.append(f"{printable(source)}: {printable(', '.join(dropped))}: not used: the ladder seats its rungs "
                         f"and its field itself (see docs/scenarios.md, the skill ladder)")
        raw = {k: v for k, v in raw.items() if k in LADDER_KEEP}
        for v in raw.get("variants", []):
            for key in LADDER_SEATS:
                v.pop(key, None)
    else:
        count = 4 if g.min_players <= 4 <= g.max_players else g.min_players
        raw = {"name": f"{g.title}: the skill ladder", "game": game, "games": ladder_games(g), "seed": 1,
               "players": count}
        source = f"(analyzer ladder {game})"
    raw.setdefault("ladder", {})
    raw.setdefault("games", ladder_games(g))
    return scen.build_with(raw, source, overrides), lines


def strength(game, raw, source, overrides):
    """(the strength curve's Scenario, warning lines): the game's rungs head to head, with the players, rules,
    games, seed, [strength] and [stop] of raw when given."""
    from analyzer import scenario as scen

    g = game_named(game)
    # (an override is (key, value) or (key, value, origin): scenario.build_with)
    budgets = [(value, origin[0] if origin else "--set") for key, value, *origin in overrides
               if key == "strength.budgets"]
    if budgets and g.policy("search") is None:
        value, origin = budgets[-1]
        raise ScenarioError(origin, None, None, f"{','.join(map(str, value))}: {game} has no search policy, so its "
                                                f"curve is its ladder only: leave the budgets out")
    lines = []
    if raw is not None:
        _validated_as_run(raw, source, game)
        for key in ("variants", "sweep", "policies", "ladder"):
            if key in raw:
                raise ScenarioError(source, key, raw[key], "the strength curve plays its own pairings: drop "
                                                           "it, or play this scenario with `analyzer run`")
        dropped = [key for key in LADDER_SEATS if key in raw]
        if dropped:
            lines.append(f"{printable(source)}: {printable(', '.join(dropped))}: not used: the strength curve seats "
                         f"its rungs itself (see docs/running.md, the strength curve)")
        raw = {k: v for k, v in raw.items() if k in STRENGTH_KEEP}
    else:
        count = 2 if g.min_players <= 2 <= g.max_players else g.min_players
        raw = {"name": g.title, "game": game, "seed": 1, "players": count}
        source = f"(analyzer strength {game})"
    raw.setdefault("strength", {})
    if "stop" not in raw:
        raw.setdefault("games", STRENGTH_GAMES)
    return scen.build_with(raw, source, overrides), lines


def trace(game, raw, source, overrides):
    """The Scenario a traced game is taken from: raw's (validated as `analyzer run` would), or the game's defaults
    (4 players, or its only count)."""
    from analyzer import scenario as scen

    g = game_named(game)
    if raw is not None:
        sc = scen.build_as_written_then(raw, source, overrides)
        if raw.get("game") != game:
            raise ScenarioError(source, "game", raw.get("game"), f"the scenario is for another game than {game!r}")
        return sc
    n = 4 if g.min_players <= 4 <= g.max_players else g.min_players
    return scen.build_with({"game": game, "games": 1, "seed": 1, "players": n}, "(trace defaults)", overrides)


def trace_arm(sc, variant=None, rotation=0, names=("variant", "rotation")):
    """The arm of sc a trace replays: the variant (or sweep point, pairing) labelled `variant` (default the first)
    in seat rotation `rotation`; ScenarioError naming names[0] or names[1] (the flag or argument) otherwise."""
    label = sc.groups[0] if variant is None else variant
    arms = [a for a in sc.arms if a.group == label and a.rotation == rotation]
    if arms:
        return arms[0]
    if label not in sc.groups:
        raise ScenarioError(names[0], None, None, f"{variant!r} is not in the scenario; variants: "
                                                  f"{', '.join(repr(g) for g in sc.groups)}")
    rotations = sorted({a.rotation for a in sc.arms if a.group == label})
    raise ScenarioError(names[1], None, None, f"{rotation!r} is not in the scenario; rotations: {rotations}")
