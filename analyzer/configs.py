"""What a scenario is made of, below the file that says it: the `Scenario` and each `Arm` it plays (one
configuration: rules and seats), the validation of one configuration against its game, and paths into a
scenario's dict ("rules.x", "seats.0.bluff", "variants.1.name").

analyzer/scenario.py reads and builds a whole scenario from its file; analyzer/comparisons.py expands it into
arms and groups. Both build on this module, which imports neither.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.errors import MISSING, ScenarioError
from analyzer.games.base import Game, Seat
from analyzer.textfiles import whole_number


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
    margin: float = 0.01  # practical margin for win shares, as a fraction (margins["shares"])
    margins: dict = field(default_factory=dict)  # {kind or metric key: practical margin} (analyzer/margins.py)
    question: str = ""  # the scenario's question, answered first in its report
    key_metric: str | None = None  # the metric that answers it (None: chosen by the kind of run)
    overrides: list = field(default_factory=list)  # (path, value, origin) given on the command line
    stop: object = None  # analyzer.stopping.StopRule, or None: play `games` deals
    warnings: list = field(default_factory=list)  # lines about values that cannot change any game (idle_settings)



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
    """raw[a][b][c] for path 'a.b.c' (list items by number), or default if there is no such item."""
    node = raw
    for part in path.split("."):
        if isinstance(node, list) and whole_number(part) is not None and whole_number(part) < len(node):
            node = node[whole_number(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return default
    return node


def read_int(raw, key, source, low, high, default=MISSING):
    """raw[key] (default if absent), an integer from low to high, or ScenarioError."""
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
    return read_int(raw, "players", source, game.min_players, game.max_players, fixed)
