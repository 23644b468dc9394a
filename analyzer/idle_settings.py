"""Warnings about values a scenario writes that cannot change any game (issue 26).

A value warns when, in every configuration (arm) it reaches, the game says it is idle (`Game.idle`: e.g. a
partner weight in a 3-player Fight Song), or when it reaches no seat at all. Only values the user wrote warn: in
the file, a variant, a sweep axis, a ladder rung or field, a round-robin entry, or via --set; a default nobody
wrote never does. Each warning is one line naming the file (and the flag), the key as written, its value and why:

    Warning: my.toml: seats.2.partner_weight = 0.5: has no effect: a 3-player game has no partners

Also a [stop] metric in a run that is not a [[variants]] comparison: only those stop on a metric.
"""
from __future__ import annotations

import re
import sys

from analyzer.configs import get_path
from analyzer.errors import MISSING, toml_value
from analyzer.textfiles import printable

# what a stopped run that is not a [[variants]] comparison looks at instead of stop.metric (stopping.key_intervals)
_STOPS_ON = {"single": "every seat's (team's) win share", "sweep": "the sweep's metric at every point",
             "round_robin": "every pairing's head-to-head share", "ladder": "every rung's win share",
             "strength": "every pairing's head-to-head share"}


def collect(sc) -> list[str]:
    """The warning lines of a validated scenario, each once, in the order of the keys' first use."""
    found = {}  # user key -> {"value", "whys", "live"}
    for user_key in _written_all_seats(sc):  # (an all_seats no seat plays stays idle: no arm reaches it)
        found[user_key] = {"value": get_path(sc.raw, _dotted(user_key)), "whys": [], "live": False}
    group_index = {label: gi for gi, label in enumerate(sc.groups)}
    for arm in sc.arms:
        idle = {}
        for path, why in sc.game.idle(arm.rules, arm.seats, len(arm.seats)):
            idle.setdefault(path, why)
        source = _source_of(sc, group_index[arm.group])
        for path, (user_key, value) in _written(sc, arm, source).items():
            entry = found.setdefault(user_key, {"value": value, "whys": [], "live": False})
            if path in idle:
                if idle[path] not in entry["whys"]:
                    entry["whys"].append(idle[path])
            else:
                entry["live"] = True
    lines = []
    for user_key, entry in found.items():
        if entry["live"]:
            continue
        why = "; ".join(entry["whys"]) or "no seat plays with all_seats: every seat names another policy"
        lines.append(_line(sc, user_key, entry["value"], why))
    stop = sc.raw.get("stop")
    kind = sc.comparison.get("kind")
    if isinstance(stop, dict) and "metric" in stop and kind != "variants":
        lines.append(_line(sc, "stop.metric", stop["metric"], f"only a [[variants]] comparison stops on a metric; "
                                                            f"this run looks at {_STOPS_ON[kind]}"))
    return lines


def print_warnings(sc):
    """Say the scenario's warnings on stderr, one line each (before any game is played)."""
    for line in sc.warnings:
        print(line, file=sys.stderr, flush=True)


def _line(sc, user_key, value, why):
    """One warning line; a key set on the command line names its flag, as a ScenarioError does."""
    source = sc.source
    dotted = _dotted(user_key.split(":")[0])  # (a sweep's values: "sweep.x: <path>", written as sweep.x)
    for key, _, origin in reversed(sc.overrides):  # the last override of a key is the one in force
        if dotted == key or dotted.startswith(key + "."):
            source = f"{source}, {origin}"
            break
    return printable(f"Warning: {source}: {user_key} = {toml_value(value)}: has no effect: {why}")


def _dotted(key):
    """variants[1].rules.x -> variants.1.rules.x (the form of --set and get_path)."""
    return re.sub(r"\[(\d+)\]", r".\1", key)


def _written_all_seats(sc):
    """The parameters written in all_seats (the file's, and each variant's): they may reach no seat."""
    if "ladder" in sc.raw:  # (a ladder refuses all_seats; its field is ladder.field)
        return []
    out = [f"all_seats.{k}" for k in (sc.raw.get("all_seats") or {}) if k != "policy"]
    for i, v in enumerate(sc.raw.get("variants") or []):
        out += [f"variants[{i}].all_seats.{k}" for k in (v.get("all_seats") or {}) if k != "policy"]
    return out


def _source_of(sc, gi):
    """A function: a path in group gi's scenario dict -> (the key the user wrote it under, its value), or None
    for a value nobody wrote (a ladder's default rungs or field, a skill level's defaults)."""
    if "levels" not in sc.comparison:
        return _source_in_group(sc, gi)
    li, gi = divmod(gi, sc.comparison["per_level"])  # [skill]: the level's all_seats, then the group within it
    inner = _source_in_group(sc, gi)
    level = sc.raw["skill"]["levels"][li]

    def source(path):
        head, _, k = path.partition(".")
        if head != "all_seats":
            return inner(path)
        return (f"skill.levels[{li}].{k}", level[k]) if isinstance(level, dict) and k in level else None
    return source


def _source_in_group(sc, gi):
    """_source_of for a scenario without [skill] levels (or one level's groups)."""
    raw = sc.raw
    kind = sc.comparison.get("kind")

    def base(path, prefix=""):
        value = get_path(raw, _dotted(prefix + path))
        return None if value is MISSING else (prefix + path, value)

    def variant_or_base(path, vi):
        if vi is not None and get_path(raw["variants"][vi], path) is not MISSING:
            return base(path, f"variants[{vi}].")
        return base(path)

    if kind == "ladder":
        spec = raw["ladder"]
        n_rungs = len(sc.comparison["rungs"])
        vi, ri = divmod(gi, n_rungs)

        def source(path):
            head, _, rest = path.partition(".")
            if head == "seats":  # seats.0.<k>: the rung
                return base(rest.partition(".")[2], f"ladder.rungs[{ri}].") if "rungs" in spec else None
            if head == "all_seats":  # the field
                return base(rest, "ladder.field.") if "field" in spec else None
            return variant_or_base(path, vi if "variants" in raw else None)
        return source
    if kind == "variants":
        return lambda path: variant_or_base(path, gi)
    if kind == "strength":
        spec = raw["strength"]
        pair = sc.comparison["pairs"][gi]
        ladder = sc.comparison["ladder_rungs"]

        def source(path):
            head, _, rest = path.partition(".")
            if head == "seats":  # seats.<s>.<k>: the rung of the even or the odd seats
                seat, _, k = rest.partition(".")
                rung = pair[int(seat) % 2]
                if rung < ladder:
                    return base(k, f"strength.rungs[{rung}].") if "rungs" in spec else None
                return base(k, "strength.search.") if k != "budget" else None
            return base(path)
        return source
    if kind == "sweep":
        axes = dict(zip(("x", "y"), sc.comparison["axes"]))

        def source(path):
            for name, (axis_path, values) in axes.items():
                if path == axis_path:
                    return f"sweep.{name}: {path}", values
            return base(path)
        return source
    if kind == "round_robin":
        pair = sc.comparison["pairs"][gi]

        def source(path):
            head, _, rest = path.partition(".")
            if head == "seats":  # seats.<0 or 1>.<k>: a policies entry
                seat, _, k = rest.partition(".")
                return base(k, f"policies[{pair[int(seat)]}].")
            return base(path)
        return source
    return base


def _written(sc, arm, source):
    """{path in the arm's seats (as played) -> (user key, value)} of every rule and seat parameter the user wrote
    that reaches this arm, following resolve_seats: a seat plays [seats.N] over all_seats, or [seats.N] alone
    when it names another policy."""
    graw = arm.raw
    paths = {f"rules.{k}": f"rules.{k}" for k in (graw.get("rules") or {})}
    every = graw.get("all_seats") or {}
    every_policy = every.get("policy", sc.game.default_policy)
    per_seat = graw.get("seats") or {}
    n = len(arm.seats)
    for s in range(n):
        b = (s - arm.rotation) % n  # the scenario's seat that plays here (comparisons._rotated)
        spec = per_seat.get(str(b)) or {}
        keys = {}
        if spec.get("policy", every_policy) == every_policy:
            keys.update({k: f"all_seats.{k}" for k in every if k != "policy"})
        keys.update({k: f"seats.{b}.{k}" for k in spec if k != "policy"})
        paths.update({f"seats.{s}.{k}": where for k, where in keys.items()})
    out = {}
    for path, where in paths.items():
        written = source(where)
        if written is not None:
            out[path] = written
    return out
