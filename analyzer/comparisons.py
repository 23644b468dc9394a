"""Expand a scenario into the arms the runner plays on every deal.

- plain: one arm;
- [[variants]]: one group per variant (the first is the baseline), each a copy of the scenario with
  the variant's keys merged over it;
- [sweep]: one group per point of one or two swept paths (every path a scenario key, e.g.
  "rules.shuffle_each_round" or "seats.0.challenge_below");
- policies = [...] (two-player round-robin): one group per ordered pair of different policies;
- rotate_seats = true: within each group, one arm per cyclic rotation of the seats.
Every arm plays the same game indices with the same master seed, hence the same deal stream: the
groups are compared pair by pair on identical shuffles. arm_groups and reference_groups read the plan back:
the arms of each group, and the group each one's paired differences are taken from.
"""
from __future__ import annotations

import copy
import itertools
import math

import numpy as np

from analyzer import metrics as M
from analyzer.configs import Arm, check_players, set_path, validate_arm
from analyzer.errors import MISSING, ScenarioError, toml_value
from analyzer.textfiles import whole_number

COMPARISON_KEYS = ("variants", "sweep", "policies")  # one per scenario
OWN_SEATS = ("seats", "all_seats", "rotate_seats")  # what a ladder and a strength curve set themselves
NOT_WITH_SKILL = ("policies", "ladder", "strength", "stop")  # what [skill] does not combine with
VARIANT_KEYS = ("rules", "players", "all_seats", "seats")
AXIS_KEYS = ("path", "values", "range")
MAX_AXIS_POINTS = 200  # values on one sweep axis
MAX_ARMS = 2_000  # configurations played on every deal (groups x seat rotations)


def merge(base: dict, over: dict) -> dict:
    """base with over merged in (nested tables merged; a table naming another policy replaces)."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            if "policy" in v and v["policy"] != out[k].get("policy"):
                out[k] = copy.deepcopy(v)
            else:
                out[k] = merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _strip(raw):
    return {k: v for k, v in raw.items() if k not in COMPARISON_KEYS + ("rotate_seats", "ladder", "strength", "skill")}


def _rotated(seats, r):
    """Seat s of rotation r plays the base policy of seat (s - r) mod n: policy j moves r seats on."""
    n = len(seats)
    return [seats[(s - r) % n] for s in range(n)]


def _groups_from_variants(sc, base):
    variants = sc.raw["variants"]
    if not isinstance(variants, list) or len(variants) < 2:
        raise ScenarioError(sc.source, "variants", variants,
                            "must be a list of at least two [[variants]] tables (the first is the baseline)")
    groups, seen = [], set()
    for i, v in enumerate(variants):
        if not isinstance(v, dict):
            raise ScenarioError(sc.source, f"variants[{i}]", v, "must be a table: name = \"...\" and what it changes")
        name = v.get("name", MISSING)
        if not isinstance(name, str) or not name.strip():
            raise ScenarioError(sc.source, f"variants[{i}].name", name, "every variant needs a name (a non-empty string)")
        if name in seen:
            raise ScenarioError(sc.source, f"variants[{i}].name", name, "variant names must differ")
        seen.add(name)
        over = {k: x for k, x in v.items() if k != "name"}
        for k in over:
            if k not in VARIANT_KEYS:
                raise ScenarioError(sc.source, f"variants[{i}].{k}", over[k],
                                    "unknown key in a variant; a variant may change " + ", ".join(VARIANT_KEYS))
        groups.append((name, merge(base, over), f"variants[{i}]"))
    return groups


def _axis_values(sc, spec, key):
    where = f"sweep.{key}"
    if not isinstance(spec, dict) or not isinstance(spec.get("path"), str):
        raise ScenarioError(sc.source, where, spec,
                            'must be a table with path = "..." and values = [...] or range = [start, stop, step]')
    for k in spec:
        if k not in AXIS_KEYS:
            raise ScenarioError(sc.source, f"{where}.{k}", spec[k], "unknown key; allowed: " + ", ".join(AXIS_KEYS))
    check_path(sc, spec["path"], f"{where}.path")
    if "values" in spec and "range" in spec:
        raise ScenarioError(sc.source, f"{where}.range", spec["range"], "give values or range, not both")
    if "values" in spec:
        values = spec["values"]
        if not isinstance(values, list) or not values:
            raise ScenarioError(sc.source, f"{where}.values", values, "must be a non-empty list")
        if len(values) > MAX_AXIS_POINTS:
            raise ScenarioError(sc.source, f"{where}.values", f"({len(values)} values)",
                                f"at most {MAX_AXIS_POINTS} values per axis")
        for i, v in enumerate(values):
            if isinstance(v, float) and not math.isfinite(v):
                raise ScenarioError(sc.source, f"{where}.values[{i}]", v, "must be a finite number")
            if any(_same(v, w) for w in values[:i]):
                raise ScenarioError(sc.source, f"{where}.values[{i}]", v, "appears twice: every value once")
    elif "range" in spec:
        r = spec["range"]
        ok = (isinstance(r, list) and len(r) == 3
              and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in r))
        if not ok or r[2] <= 0 or r[1] < r[0]:
            raise ScenarioError(sc.source, f"{where}.range", r,
                                "must be [start, stop, step] of finite numbers with step > 0, stop >= start "
                                "(stop included)")
        try:
            steps = (r[1] - r[0]) / r[2]
        except OverflowError:  # (integers too large for a float)
            steps = math.inf
        if not steps < MAX_AXIS_POINTS:  # (inf when the span overflows a float: 1e308 / 1e-300)
            many = (f"{int(steps) + 1:,}" if steps < 1e15 else f"about {steps:.0e}" if math.isfinite(steps)
                    else "more than 1e308")
            raise ScenarioError(sc.source, f"{where}.range", r,
                                f"gives {many} points; at most {MAX_AXIS_POINTS} per axis (use a larger step)")
        count = int(np.floor(steps + 1e-9)) + 1
        values = [r[0] + i * r[2] for i in range(count)]
        if all(isinstance(x, int) for x in r):
            values = [int(v) for v in values]
        else:
            values = [round(v, 10) for v in values]
    else:
        raise ScenarioError(sc.source, where, spec, "needs values = [...] or range = [start, stop, step]")
    return spec["path"], values


def _label(value):
    """A sweep value in a point's label: as written in TOML, but text unquoted."""
    return value if isinstance(value, str) else toml_value(value)


def _same(a, b):
    """Equal sweep values (1 and 1.0 are the same setting; true and 1 are not)."""
    return type(a) is type(b) and a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                             and not isinstance(a, bool) and not isinstance(b, bool) and a == b)


def seat_keys(game):
    """The keys a seat table of the game may hold: policy, then every policy's parameters (each once)."""
    return list(dict.fromkeys(["policy"] + [p.name for pol in game.policies for p in pol.params]))


def setting_paths(game):
    """Every path a sweep or a tune may set: players, rules.<setting>, all_seats.<policy or parameter>,
    seats.<n>.<policy or parameter> (n from 0 to the game's most seats less one)."""
    keys = seat_keys(game)
    return (["players"] + [f"rules.{p.name}" for p in game.settings] + [f"all_seats.{k}" for k in keys]
            + [f"seats.{n}.{k}" for n in range(game.max_players) for k in keys])


def check_path(sc, path, key):
    """A sweep path must name a setting the scenario has (setting_paths)."""
    game = sc.game
    if path not in setting_paths(game):
        raise ScenarioError(sc.source, key, path,
                            "must name a setting: players, rules.<setting>, all_seats.<parameter> or "
                            f"seats.<n>.<parameter> (settings: {', '.join(p.name for p in game.settings)}; "
                            f"parameters: {', '.join(sorted(seat_keys(game)))})")


SWEEP_KEYS = ("x", "y", "metric", "goal")
GOAL_WORDS = ("max", "min", "zero")  # or a number: the target value


def sweep_goal(sc, goal):
    """(goal, target): "max" or "min" with target None, else the value the best point is closest to ("zero": 0)."""
    if goal in ("max", "min"):
        return goal, None
    if goal == "zero":
        return goal, 0.0
    if isinstance(goal, (int, float)) and not isinstance(goal, bool) and math.isfinite(goal):
        return goal, float(goal)
    raise ScenarioError(sc.source, "sweep.goal", goal, 'must be "max", "min", "zero" (the point closest to zero, e.g. '
                                                       'the fairest for first_player_edge) or a number (the point '
                                                       'closest to that value is best)')


def _groups_from_sweep(sc, base):
    sw = sc.raw["sweep"]
    if not isinstance(sw, dict) or "x" not in sw:
        raise ScenarioError(sc.source, "sweep", sw, "must be a table with x = {path = ..., values = [...]}")
    for k in sw:
        if k not in SWEEP_KEYS:
            raise ScenarioError(sc.source, f"sweep.{k}", sw[k], "unknown key; allowed: " + ", ".join(SWEEP_KEYS))
    axes = [_axis_values(sc, sw["x"], "x")]
    if "y" in sw:
        axes.append(_axis_values(sc, sw["y"], "y"))
        if axes[1][0] == axes[0][0]:
            raise ScenarioError(sc.source, "sweep.y.path", axes[1][0], "is the path of sweep.x too: sweep two settings")
    goal, target = sweep_goal(sc, sw.get("goal", "max"))
    sc.comparison.update(kind="sweep", axes=axes, metric=sw.get("metric", "win_share_0"), goal=goal, target=target)
    groups = []
    for point in itertools.product(*[vals for _, vals in axes]):
        raw = copy.deepcopy(base)
        for (path, _), value in zip(axes, point):
            set_path(raw, path, value, sc.source)
        label = ", ".join(f"{path}={_label(value)}" for (path, _), value in zip(axes, point))
        groups.append((label, raw, f"sweep point {label}:"))
    return groups


def _groups_from_round_robin(sc, base):
    pols = sc.raw["policies"]
    if sc.players != 2:
        raise ScenarioError(sc.source, "policies", "(list)", "a round-robin needs a two-player game (players = 2)")
    if not isinstance(pols, list) or len(pols) < 2:
        raise ScenarioError(sc.source, "policies", pols, "must list at least two policies")
    for key in ("seats", "rotate_seats"):
        if key in sc.raw:
            raise ScenarioError(sc.source, key, sc.raw[key],
                                "a round-robin seats every policy in every seat itself: remove this key "
                                "(give each policy's parameters in its policies entry)")
    labels = []
    all_seats = sc.raw.get("all_seats", {})
    for i, p in enumerate(pols):
        if not isinstance(p, dict):
            raise ScenarioError(sc.source, f"policies[{i}]", p, "must be a table: label, policy and parameters")
        label = p.get("label", p.get("policy", f"policy {i}"))
        if not isinstance(label, str) or not label.strip():
            raise ScenarioError(sc.source, f"policies[{i}].label", label, "must be a non-empty string")
        labels.append(label)
        spec = {k: v for k, v in p.items() if k != "label"}
        if isinstance(all_seats, dict) and spec.get("policy", all_seats.get("policy")) == all_seats.get("policy"):
            spec = {**all_seats, **spec}  # as resolve_seats will merge it
        sc.game.validate_seat(spec, sc.source, f"policies[{i}]")
    if len(set(labels)) != len(labels):
        raise ScenarioError(sc.source, "policies", labels, "labels must differ (add label = \"...\")")
    sc.comparison.update(kind="round_robin", labels=labels)
    groups = []
    for a, b in itertools.combinations(range(len(pols)), 2):
        raw = copy.deepcopy(base)
        raw["seats"] = {"0": {k: v for k, v in pols[a].items() if k != "label"},
                        "1": {k: v for k, v in pols[b].items() if k != "label"}}
        groups.append((f"{labels[a]} vs {labels[b]}", raw, f"policies[{a}] vs policies[{b}]:"))
    sc.comparison["pairs"] = list(itertools.combinations(range(len(pols)), 2))
    return groups


LADDER_KEYS = ("rungs", "field")


def default_ladder(game):
    """The game's own ladder, weakest first (Game.ladder), else every policy with its defaults."""
    return [dict(r) for r in game.ladder] or [{"label": p.name, "policy": p.name} for p in game.policies]


def _groups_from_ladder(sc, variant_groups):
    """One group per (variant, rung): the rung in seat 0 against a field in the other seats, seats
    rotated. A rung's groups in later variants take their paired differences from the same rung of the
    first variant (comparison refs)."""
    spec = sc.raw["ladder"]
    if not isinstance(spec, dict):
        raise ScenarioError(sc.source, "ladder", spec, "must be a table: [ladder] with optional rungs and field")
    for k in spec:
        if k not in LADDER_KEYS:
            raise ScenarioError(sc.source, f"ladder.{k}", spec[k], "unknown key; allowed: " + ", ".join(LADDER_KEYS))
    for key in OWN_SEATS:
        if key in sc.raw:
            raise ScenarioError(sc.source, key, sc.raw[key], "a ladder seats its rungs and its field itself: give "
                                                            "them as ladder.rungs and ladder.field")
    rungs = spec.get("rungs", default_ladder(sc.game))
    if not isinstance(rungs, list) or len(rungs) < 2:
        raise ScenarioError(sc.source, "ladder.rungs", rungs, "must list at least two policies, weakest first")
    field_spec = spec.get("field", {"policy": "random"})
    if not isinstance(field_spec, dict):
        raise ScenarioError(sc.source, "ladder.field", field_spec, "must be a table: policy and parameters")
    sc.game.validate_seat(dict(field_spec), sc.source, "ladder.field")
    labels = []
    for i, r in enumerate(rungs):
        if not isinstance(r, dict):
            raise ScenarioError(sc.source, f"ladder.rungs[{i}]", r, "must be a table: label, policy and parameters")
        label = r.get("label", r.get("policy", f"rung {i}"))
        if not isinstance(label, str) or not label.strip():
            raise ScenarioError(sc.source, f"ladder.rungs[{i}].label", label, "must be a non-empty string")
        labels.append(label)
        sc.game.validate_seat({k: v for k, v in r.items() if k != "label"}, sc.source, f"ladder.rungs[{i}]")
    if len(set(labels)) != len(labels):
        raise ScenarioError(sc.source, "ladder.rungs", labels, "labels must differ (add label = \"...\")")
    groups, refs = [], []
    for vi, (vname, vraw, origin) in enumerate(variant_groups):
        if vi > 0 and any(k in {kk: 1 for kk in sc.raw["variants"][vi]} for k in ("seats", "all_seats")):
            raise ScenarioError(sc.source, f"variants[{vi}]", vname, "in a ladder, a variant may change rules and "
                                                                      "players, not seats")
        for ri, r in enumerate(rungs):
            graw = copy.deepcopy(vraw)
            graw["all_seats"] = dict(field_spec)
            graw["seats"] = {"0": {k: v for k, v in r.items() if k != "label"}}
            label = labels[ri] if len(variant_groups) == 1 else f"{vname}: {labels[ri]}"
            groups.append((label, graw, origin))
            refs.append(None if vi == 0 else ri)
    sc.comparison.update(kind="ladder", rungs=labels, variants=[v[0] for v in variant_groups], refs=refs,
                         field=dict(field_spec))
    return groups


STRENGTH_KEYS = ("rungs", "budgets", "search")
DEFAULT_BUDGETS = (16, 64, 256)  # search budgets of the strength curve (games with a `search` policy)
SEARCH = "search"  # the policy whose budget the strength curve raises


def strength_rungs(sc):
    """(labels, seat specs, budgets) of a [strength] table: the ladder's rungs (strength.rungs, default the
    game's ladder), then `search` at each budget (strength.budgets, smallest first) if the game has it."""
    spec = sc.raw["strength"]
    game = sc.game
    if not isinstance(spec, dict):
        raise ScenarioError(sc.source, "strength", spec, "must be a table: [strength] with optional rungs, budgets "
                                                          "and search")
    for k in spec:
        if k not in STRENGTH_KEYS:
            raise ScenarioError(sc.source, f"strength.{k}", spec[k], "unknown key; allowed: " + ", ".join(STRENGTH_KEYS))
    # (the ladder's search rung is left out: the curve plays search at each of its budgets)
    rungs = spec.get("rungs", [r for r in default_ladder(game) if r.get("policy") != SEARCH])
    if not isinstance(rungs, list) or not rungs:
        raise ScenarioError(sc.source, "strength.rungs", rungs, "must list at least one policy, weakest first")
    labels, specs = [], []
    for i, r in enumerate(rungs):
        if not isinstance(r, dict):
            raise ScenarioError(sc.source, f"strength.rungs[{i}]", r, "must be a table: label, policy and parameters")
        label = r.get("label", r.get("policy", f"rung {i}"))
        if not isinstance(label, str) or not label.strip():
            raise ScenarioError(sc.source, f"strength.rungs[{i}].label", label, "must be a non-empty string")
        seat = {k: v for k, v in r.items() if k != "label"}
        game.validate_seat(dict(seat), sc.source, f"strength.rungs[{i}]")
        labels.append(label)
        specs.append(seat)
    search = game.policy(SEARCH)
    if search is None:
        for key in ("budgets", "search"):
            if key in spec:
                raise ScenarioError(sc.source, f"strength.{key}", spec[key],
                                    f"{game.name} has no {SEARCH!r} policy: its strength curve is its ladder only "
                                    f"(leave {key} out)")
        budgets = []
    else:
        budgets = spec.get("budgets", list(DEFAULT_BUDGETS))
        param = search.param("budget")
        allowed = (f"must be a list of distinct whole numbers from {param.low:,} to {param.high:,} (search "
                   f"iterations per decision), e.g. [16, 64, 256], or [] for the rungs alone")
        if not isinstance(budgets, list):
            raise ScenarioError(sc.source, "strength.budgets", budgets, allowed)
        for i, b in enumerate(budgets):
            if isinstance(b, bool) or not isinstance(b, int) or not param.low <= b <= param.high:
                raise ScenarioError(sc.source, f"strength.budgets[{i}]", b, allowed)
            if b in budgets[:i]:
                raise ScenarioError(sc.source, f"strength.budgets[{i}]", b, "appears twice: every budget once")
        budgets = sorted(budgets)
        extra = spec.get("search", {})
        if not isinstance(extra, dict):
            raise ScenarioError(sc.source, "strength.search", extra, "must be a table of the search rungs' "
                                                                     "parameters other than budget, e.g. {c = 0.7}")
        for k in ("policy", "budget", "label"):
            if k in extra:
                raise ScenarioError(sc.source, f"strength.search.{k}", extra[k],
                                    "the search rungs set it themselves (give budgets in strength.budgets)")
        for b in budgets:
            seat = {"policy": SEARCH, **extra, "budget": b}
            game.validate_seat(dict(seat), sc.source, "strength.search")
            labels.append(f"{SEARCH} {b}")
            specs.append(seat)
    if len(labels) < 2:
        raise ScenarioError(sc.source, "strength.rungs", rungs, "the curve needs at least two rungs (give more rungs, "
                                                                "or budgets)")
    for i, label in enumerate(labels):
        if label in labels[:i]:
            raise ScenarioError(sc.source, "strength.rungs", labels, f"labels must differ ({label!r} twice; add "
                                                                     f"label = \"...\")")
    return labels, specs, budgets


def _groups_from_strength(sc, base):
    """One group per pair of rungs (i, j), i weaker: i in the even seats and j in the odd ones (i, j, i, j...),
    every rotation of the seats played on the same deals; with an odd number of seats also the group j, i, j...,
    so that each rung sits as often as the other. A pairing's result: whether an i-seat or a j-seat won."""
    for key in OWN_SEATS:
        if key in sc.raw:
            raise ScenarioError(sc.source, key, sc.raw[key], "the strength curve seats its rungs itself: give them "
                                                            "as strength.rungs (and strength.budgets)")
    labels, specs, budgets = strength_rungs(sc)
    players = check_players(sc.game, base, sc.source)
    groups, pairs = [], []
    for i, j in itertools.combinations(range(len(labels)), 2):
        for a, b in ((i, j), (j, i)) if players % 2 else ((i, j),):
            graw = copy.deepcopy(base)
            graw["seats"] = {str(s): copy.deepcopy(specs[a] if s % 2 == 0 else specs[b]) for s in range(players)}
            groups.append((f"{labels[a]} vs {labels[b]}", graw, f"strength pairing {labels[a]} vs {labels[b]}:"))
            pairs.append((a, b))
    search = sc.game.policy(SEARCH) is not None
    sc.comparison.update(kind="strength", rungs=labels, rung_seats=specs, pairs=pairs, budgets=budgets, search=search,
                         ladder_rungs=len(labels) - len(budgets), refs=[None] * len(groups))
    return groups


SKILL_KEYS = ("levels",)
MAX_LEVELS = 8


def skill_levels(sc):
    """(labels, seat specs) of [skill] levels, weakest first: each a policy name ("greedy"), a name with a budget
    ("search:64": the policy's `budget` parameter), or a table of policy parameters (with an optional label)."""
    spec = sc.raw["skill"]
    game = sc.game
    if not isinstance(spec, dict):
        raise ScenarioError(sc.source, "skill", spec, 'must be a table: [skill] levels = ["greedy", "search:64"]')
    for k in spec:
        if k not in SKILL_KEYS:
            raise ScenarioError(sc.source, f"skill.{k}", spec[k], "unknown key; allowed: " + ", ".join(SKILL_KEYS))
    levels = spec.get("levels", MISSING)
    allowed = (f"must list 2 to {MAX_LEVELS} skill levels, weakest first: policy names, \"name:budget\" (e.g. "
               f"\"search:64\") or tables of policy parameters; policies: "
               + ", ".join(p.name for p in game.policies))
    if not isinstance(levels, list) or not 2 <= len(levels) <= MAX_LEVELS:
        raise ScenarioError(sc.source, "skill.levels", levels, allowed)
    labels, specs = [], []
    for i, level in enumerate(levels):
        label, seat = parse_level(game, level, sc.source, f"skill.levels[{i}]", allowed)
        labels.append(label)
        specs.append(seat)
    for i, label in enumerate(labels):
        if label in labels[:i]:
            raise ScenarioError(sc.source, "skill.levels", levels, f"levels must differ ({label!r} twice; a table "
                                                                   f"level may take label = \"...\")")
    return labels, specs


def parse_level(game, level, source, key, allowed=None):
    """(label, seat spec) of one skill level: a policy name ("greedy"), a name with a budget ("search:64": the
    policy's `budget` parameter), or a table of policy parameters with an optional label; validated as a seat."""
    allowed = allowed or ("a skill level is a policy name, \"name:budget\" (e.g. \"search:64\") or a table of policy "
                          "parameters; policies: " + ", ".join(p.name for p in game.policies))
    if isinstance(level, str):
        name, colon, budget = level.partition(":")
        seat = {"policy": name.strip()}
        if colon:
            pol = game.policy(seat["policy"])
            if pol is not None and pol.param("budget") is None:
                raise ScenarioError(source, key, level,
                                    f"policy {pol.name!r} has no budget: give a table of its parameters, e.g. "
                                    f"{{policy = \"{pol.name}\", label = \"...\", ...}}")
            seat["budget"] = whole_number(budget.strip())
            if seat["budget"] is None:
                raise ScenarioError(source, key, level, "after the colon comes a whole number: the search "
                                                           "budget (iterations per decision), e.g. \"search:64\"")
        label = level.strip()
    elif isinstance(level, dict):
        seat = {k: v for k, v in level.items() if k != "label"}
        label = level.get("label", seat.get("policy", key))
        if not isinstance(label, str) or not label.strip():
            raise ScenarioError(source, f"{key}.label", label, "must be a non-empty string")
    else:
        raise ScenarioError(source, key, level, allowed)
    game.validate_seat(dict(seat), source, key)
    return label, seat


def check_skill(raw, source):
    """What [skill] combines with (checked before the rest of the scenario is read): a plain run, variants, a sweep,
    seat rotation; the levels set all_seats."""
    for key in NOT_WITH_SKILL:
        if key in raw:
            raise ScenarioError(source, key, "(table)" if isinstance(raw[key], dict) else raw[key],
                                "[skill] plays the scenario at each skill level: it combines with variants, a sweep "
                                "and rotate_seats, not with a round-robin, a ladder, a strength curve or [stop] "
                                "(give games)")
    if "all_seats" in raw:
        raise ScenarioError(source, "all_seats", raw["all_seats"],
                            "[skill] levels set the policy of every seat (all_seats) at each level: remove all_seats "
                            "(seats the scenario names in [seats.N] keep their own policy)")
    for i, v in enumerate(raw.get("variants") or []):
        if isinstance(v, dict) and "all_seats" in v:
            raise ScenarioError(source, f"variants[{i}].all_seats", v["all_seats"],
                                "[skill] levels set all_seats: a variant may change rules, players and [seats.N]")
    sweep = raw.get("sweep")
    if isinstance(sweep, dict):
        for axis in ("x", "y"):
            path = sweep.get(axis, {}).get("path") if isinstance(sweep.get(axis), dict) else None
            if isinstance(path, str) and path.startswith("all_seats."):
                raise ScenarioError(source, f"sweep.{axis}.path", path,
                                    "[skill] levels set all_seats: sweep rules, players or seats.<n>.<parameter>")


def _groups_by_level(sc, groups):
    """Every group (variant, sweep point, or the plain scenario) at every skill level, level by level: all_seats
    is the level's policy. References: a level's first group is compared with the first level's (does the answer
    change with skill, paired on the same deals), its other groups with its first (the usual comparison)."""
    labels, specs = skill_levels(sc)
    out, refs, group_levels = [], [], []
    for li, (level, seat) in enumerate(zip(labels, specs)):
        for gi, (label, graw, origin) in enumerate(groups):
            graw = copy.deepcopy(graw)
            graw["all_seats"] = dict(seat)
            at = f"skill.levels[{li}]"  # (an error names the level, then the variant or sweep point)
            out.append((level if len(groups) == 1 else f"{level}: {label}", graw, f"{at}, {origin}" if origin else f"{at}:"))
            refs.append((None if li == 0 else 0) if gi == 0 else li * len(groups))
            group_levels.append(li)
    sc.comparison.update(levels=labels, level_seats=specs, group_levels=group_levels, per_level=len(groups),
                         refs=refs, inner_labels=[label for label, _, _ in groups])
    return out


def expand(sc):
    raw = sc.raw
    present = [k for k in COMPARISON_KEYS if k in raw]
    if len(present) > 1:
        raise ScenarioError(sc.source, present[1], "(table)", f"use one of {', '.join(COMPARISON_KEYS)} per scenario, not {' and '.join(present)}")
    if "strength" in raw and any(k in raw for k in COMPARISON_KEYS + ("ladder",)):
        other = next(k for k in COMPARISON_KEYS + ("ladder",) if k in raw)
        raise ScenarioError(sc.source, other, "(table)", "the strength curve plays its own pairings: it combines with "
                                                         "no variants, sweep, round-robin or ladder")
    if "ladder" in raw and ("sweep" in raw or "policies" in raw):
        raise ScenarioError(sc.source, "ladder", "(table)", "a ladder combines with [[variants]] only, not with a "
                                                            "sweep or a round-robin")
    rotate = raw.get("rotate_seats", False)
    if not isinstance(rotate, bool):
        raise ScenarioError(sc.source, "rotate_seats", rotate, "must be true or false")
    base = _strip(raw)
    if "strength" in raw:
        groups = _groups_from_strength(sc, base)
        rotate = True  # seat advantages cancel: every rotation on every deal
    elif "ladder" in raw:
        variant_groups = _groups_from_variants(sc, base) if "variants" in raw else [("baseline", base, "")]
        groups = _groups_from_ladder(sc, variant_groups)
        rotate = True  # a rung's share, whatever seat it has: every rotation
    elif "variants" in raw:
        sc.comparison.update(kind="variants")
        groups = _groups_from_variants(sc, base)
    elif "sweep" in raw:
        groups = _groups_from_sweep(sc, base)
    elif "policies" in raw:
        groups = _groups_from_round_robin(sc, base)
        rotate = True  # head-to-head means both seat orders
    else:
        sc.comparison.update(kind="single")
        groups = [("baseline", base, "")]
    if "skill" in raw:
        groups = _groups_by_level(sc, groups)
    sc.comparison["rotate_seats"] = rotate
    arms = []
    for label, graw, origin in groups:
        try:
            players = check_players(sc.game, graw, sc.source)
            rules, seats = validate_arm(sc.game, graw, players, sc.source)
        except ScenarioError as e:  # say which variant, sweep point or pairing the bad value came from
            if not origin:
                raise
            variant = origin.startswith("variants[") or origin.startswith("skill.levels[") and ", variants[" in origin
            raise e.renamed(key=f"{origin}.{e.key}" if variant else f"{origin} {e.key}") from None
        if len(arms) + (players if rotate else 1) > MAX_ARMS:
            raise ScenarioError(sc.source, next((k for k in ("sweep", "variants", "strength", "skill") if k in raw), "policies"),
                                f"({len(groups)} configurations)",
                                f"more than {MAX_ARMS:,} configurations to play on every deal (seat rotations "
                                "included): split the question into smaller scenarios")
        for r in range(players if rotate else 1):
            arms.append(Arm(label=label if not rotate else f"{label} / rotation {r}", rules=rules,
                            seats=_rotated(seats, r), raw=graw, rotation=r, group=label))
    sc.arms = arms
    sc.groups = [label for label, _, _ in groups]
    if sc.comparison.get("kind") == "sweep":
        sc.comparison["metric_column"] = sweep_metric_column(sc, rotate)
    if sc.stop is not None and sc.comparison.get("kind") == "variants":
        # every variant's difference is looked at: the metric must be one each measures (its player count's)
        measured = [[m.key for m in M.standard_metrics(sc.game, len(a.seats), len(a.seats) if rotate else 1)]
                    for a in arms if a.rotation == 0]
        known = [k for k in measured[0] if all(k in keys for keys in measured[1:])]
        if sc.stop.metric not in known:
            raise ScenarioError(sc.source, "stop.metric", sc.stop.metric,
                                "must be one of the metrics every variant measures: " + ", ".join(known))


def sweep_metric_column(sc, rotate):
    """The per-deal column behind the sweep's target metric (of an edge: the first group's credit column, its
    even share's no_winner added per group by summary.new_tally), or ScenarioError listing the choices; a
    numeric goal is checked against the metric's range."""
    metric = sc.comparison["metric"]
    players = {len(a.seats) for a in sc.arms}
    n = min(players)
    known = {f"win_share_{s}": f"credit_{s}" for s in range(n)}
    teams = sc.game.teams(n) if len(players) == 1 else None
    known.update({f"team_share_{t}": f"tcredit_{t}" for t in range(len(teams or ()))})
    if rotate:
        known.update({f"policy_share_{j}": f"pcredit_{j}" for j in range(n)})
    # the edges (a share minus an even share of the games won), where every group has one
    shapes = [(len(g[0].seats), len(g)) for g in arm_groups(sc)]
    edges = ["first_player_edge"] + [u.edge.key for u in M.win_units(sc.game, n)]
    if rotate:
        edges += [M.policy_edge(j, n).key for j in range(n)]
    for key in edges:
        found = [M.sweep_metric_for(sc.game, p, r, key) for p, r in shapes]
        if all(m is not None for m in found):
            known[key] = found[0].num
    known.update({c: c for c in sc.game.columns(n) if not c.startswith("win_")})
    if metric not in known:
        raise ScenarioError(sc.source, "sweep.metric", metric, "must be one of " + ", ".join(known))
    target = sc.comparison.get("target")
    if target is not None and sc.comparison["goal"] != "zero":
        m = M.sweep_metric_for(sc.game, *shapes[0], metric)
        if m is not None and m.percent and not ((-1 if m.points else 0) <= target <= 1):
            raise ScenarioError(sc.source, "sweep.goal", sc.comparison["goal"],
                                f"{metric} is an edge: give the target as a fraction from -1 to 1 (e.g. 0.01 for "
                                f"+1 point)" if m.points else
                                f"{metric} is a share: give the target as a fraction from 0 to 1 (e.g. 0.25 for 25%)")
    return known[metric]


def arm_groups(sc):
    """The arms of each group, in the scenario's group order."""
    by_group = {}
    for arm in sc.arms:
        by_group.setdefault(arm.group, []).append(arm)
    return [by_group[label] for label in sc.groups]


def reference_groups(sc):
    """Per group, the group its paired differences are measured from: the scenario's own choice
    (comparison["refs"], e.g. a ladder's baseline variant), else the first group for every other."""
    refs = sc.comparison.get("refs")
    return list(refs) if refs is not None else [None] + [0] * (len(sc.groups) - 1)
