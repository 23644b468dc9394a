"""`analyzer schema [GAME]`: a JSON Schema (draft 2020-12) of scenario files, for the editors that check TOML with
one (Taplo, Even Better TOML): they complete keys and flag bad values as the designer types (docs/schema.md).

Generated from the declarations the analyzer validates with, never from copied lists: each game's rule settings
and policies (Param: kind, low, high, choices, help, default), scenario.TOP_KEYS, and the keys and limits of each
table's parser (comparisons, stopping, margins, tuning.spec, profiling.spec). A schema says what one key or value may
be, which keys go together and which exclude each other; what depends on several values at once (finish_cards
above start_cards, a sweep's range, names that must differ, files on disk) stays the analyzer's alone, and the
schema is looser there (tests/test_schema.py lists those refusals). Keywords are kept to those editors know:
if/then, $ref, enum, const, no unevaluatedProperties.
"""
from __future__ import annotations

import dataclasses
import re

from analyzer import comparisons as C, margins, profiling, stopping, tuning
from analyzer.games import game_names, get_game
from analyzer.profiling import spec as profile_spec
from analyzer.scenario import MAX_GAMES, MAX_MARGIN, MAX_SEED, TOP_KEYS, game_metrics
from analyzer.tuning import spec as tune_spec

DRAFT = "https://json-schema.org/draft/2020-12/schema"
NON_BLANK = {"type": "string", "pattern": r"\S"}
LABEL = {**NON_BLANK, "description": "the name the report gives it (default: its policy's name); names must differ"}


def _num(x):
    """A bound as JSON writes it: 3, not 3.0."""
    return int(x) if float(x).is_integer() else float(x)


def _range(schema, low, high):
    if low is not None:
        schema["minimum"] = _num(low)
    if high is not None:
        schema["maximum"] = _num(high)
    return schema


def param_schema(p) -> dict:
    """A rule setting or policy parameter (games.base.Param) as a JSON Schema: its type, range or choices, its help
    as the description and its default (a derived default has none: its help says how it is derived)."""
    if p.kind == "int":
        out = _range({"type": "integer"}, p.low, p.high)  # (3.0 is an integer, for the analyzer as for JSON Schema)
    elif p.kind == "float":
        out = _range({"type": "number"}, p.low, p.high)
    elif p.kind == "bool":
        out = {"type": "boolean"}
    elif p.kind == "choice":
        out = {"enum": list(p.choices)}
    elif p.kind == "str":
        out = dict(NON_BLANK)
    elif p.kind == "intlist":
        out = {"type": "array", "minItems": 1, "uniqueItems": True, "items": _range({"type": "integer"}, p.low, p.high)}
    else:
        raise ValueError(f"parameter {p.name}: no schema for kind {p.kind!r}")
    out["description"] = p.help
    if p.default is not None:
        out["default"] = p.default
    return out


def _int(low, high, description, default=None):
    out = {"type": "integer", "minimum": low, "maximum": high, "description": description}
    return out if default is None else {**out, "default": default}


def _positive(description, high=None, default=None):
    out = {"type": "number", "exclusiveMinimum": 0, "description": description}
    if high is not None:
        out["maximum"] = high
    return out if default is None else {**out, "default": default}


def _table(keys, schemas, description, **extra):
    """An object of exactly `keys` (a parser's own list: a key without a schema here is a KeyError)."""
    return {"type": "object", "description": description, "properties": {k: schemas[k] for k in keys},
            "additionalProperties": False, **extra}


def _described(schema, text):
    """schema with a description (beside a $ref, inside an allOf: editors of older drafts ignore $ref's siblings)."""
    return {"allOf": [schema], "description": text} if "$ref" in schema else {**schema, "description": text}


def _excludes(key, others, why):
    """If `key` is present, none of `others` may be."""
    return {"description": why, "if": {"required": [key]}, "then": {"properties": {k: False for k in others}}}


def _when(prop, value):
    """The condition "prop = value" (present: an absent key satisfies any `properties` test)."""
    return {"required": [prop], "properties": {prop: {"const": value}}}


class _Game:
    """The $defs of one game, named "<game>.<what>" so that every game's fit in one document."""

    def __init__(self, game):
        self.game = game
        self.defs = {}

    def ref(self, what):
        return {"$ref": f"#/$defs/{self.game.name}.{what}"}

    def define(self, what, schema):
        self.defs[f"{self.game.name}.{what}"] = schema
        return self.ref(what)

    # --- seats: a policy and its parameters ------------------------------------------------------------------
    def params(self):
        """A def per parameter name, for a seat whose policy is not known: each policy's own schema when they
        agree, else any of them."""
        g = self.game
        for name in C.seat_keys(g)[1:]:
            found = [(pol.name, pol.param(name)) for pol in g.policies if pol.param(name) is not None]
            shapes = []
            for _, p in found:
                s = {k: v for k, v in param_schema(p).items() if k not in ("description", "default")}
                if s not in shapes:
                    shapes.append(s)
            helps = list(dict.fromkeys(p.help for _, p in found))
            text = helps[0] if len(helps) == 1 else "; ".join(f"{pol}: {p.help}" for pol, p in found)
            owners = [pol for pol, _ in found]
            if len(owners) < len(g.policies):
                text = f"(policies {', '.join(owners)}) {text}"
            schema = shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
            self.define(f"param.{name}", {**schema, "description": text})
        for pol in g.policies:
            own = {p.name: param_schema(p) for p in pol.params}
            others = {k: False for k in C.seat_keys(g)[1:] if k not in own}
            self.define(f"policy.{pol.name}", {"description": f"the parameters of policy {pol.name!r}",
                                               "properties": {**own, **others}})

    def seat(self, what, *, label=False, required=False, default=None):
        """A seat table: policy (required, or `default` when absent, or any) and its parameters."""
        g = self.game
        names = ", ".join(p.name for p in g.policies)
        policy = {"enum": [p.name for p in g.policies],
                  "description": f"the bot policy ({names}; `analyzer games {g.name}` describes each):\n"
                                 + "\n".join(f"- {p.name}: {p.help}" for p in g.policies),
                  "x-taplo": {"docs": {"enumValues": [p.help for p in g.policies]}}}  # (Taplo's hover per value)
        props = {"policy": policy} | ({"label": LABEL} if label else {})
        props |= {k: self.ref(f"param.{k}") for k in C.seat_keys(g)[1:]}
        rules = [{"if": _when("policy", p.name), "then": self.ref(f"policy.{p.name}")} for p in g.policies]
        if default is not None:
            rules.append({"if": {"not": {"required": ["policy"]}}, "then": self.ref(f"policy.{default}")})
        out = {"type": "object", "properties": props, "additionalProperties": False, "allOf": rules}
        if required:
            out["required"] = ["policy"]
        return self.define(what, out)

    def level(self):
        """A skill level (comparisons.parse_level): a policy name, "name:budget" or a table of parameters."""
        g = self.game
        budgeted = [p.name for p in g.policies if p.param("budget") is not None]
        names = "|".join(re.escape(p.name) for p in g.policies)
        forms = [{"enum": [p.name for p in g.policies]}, {"type": "string", "pattern": rf"^\s*({names})\s*$"}]
        if budgeted:
            forms.append({"type": "string", "pattern": rf"^\s*({'|'.join(map(re.escape, budgeted))})\s*:\s*[0-9]+\s*$"})
        forms.append(self.ref("rung"))
        return self.define("level", {"description": "a skill level: a policy name (\"greedy\"), a name with a search "
                                                    "budget (\"search:64\") or a table of policy parameters with an "
                                                    "optional label", "anyOf": forms})

    # --- the tables ------------------------------------------------------------------------------------------
    def players(self):
        g = self.game
        return _int(g.min_players, g.max_players, TOP_KEYS["players"] + (f" (only {g.min_players})" if
                                                                          g.min_players == g.max_players else ""))

    def value_rules(self, what):
        """The schema of a value written at each setting path (comparisons.setting_paths), on the items of `what`:
        [{"if": path is one of them, "then": the value's schema}]."""
        g = self.game
        groups = {"players": (["players"], self.players())}
        for p in g.settings:
            groups[f"rules.{p.name}"] = ([f"rules.{p.name}"], param_schema(p))
        for k in C.seat_keys(g):
            value = self.ref(f"param.{k}") if k != "policy" else {"enum": [p.name for p in g.policies]}
            groups[k] = ([f"all_seats.{k}"] + [f"seats.{n}.{k}" for n in range(g.max_players)], value)
        assert sorted(p for paths, _ in groups.values() for p in paths) == sorted(C.setting_paths(g))
        return [{"if": {"required": ["path"], "properties": {"path": {"enum": paths}}},
                 "then": {"properties": {what: {"items": value}}}} for paths, value in groups.values()]

    def sweep(self):
        paths = {"enum": C.setting_paths(self.game),
                 "description": "the setting swept: players, rules.<setting>, all_seats.<parameter> or "
                                "seats.<n>.<parameter>"}
        axis = _table(C.AXIS_KEYS, {
            "path": paths,
            "values": {"type": "array", "minItems": 1, "maxItems": C.MAX_AXIS_POINTS, "uniqueItems": True,
                       "description": "the values, each once, each one the setting may take"},
            "range": {"type": "array", "minItems": 3, "maxItems": 3, "items": {"type": "number"},
                      "prefixItems": [{"type": "number"}, {"type": "number"}, {"type": "number", "exclusiveMinimum": 0}],
                      "description": f"[start, stop, step], stop included, step > 0, stop >= start, at most "
                                     f"{C.MAX_AXIS_POINTS} points (every point a value the setting may take)"},
        }, "an axis: path = \"...\" and values = [...] or range = [start, stop, step]", required=["path"],
            oneOf=[{"required": ["values"]}, {"required": ["range"]}], allOf=self.value_rules("values"))
        axis = self.define("axis", axis)
        return _table(C.SWEEP_KEYS, {
            "x": _described(axis, "the axis: path = \"...\" and values = [...] or range = [start, stop, step]"),
            "y": _described(axis, "a second axis (a heatmap): another path than x's"),
            "metric": {"type": "string", "default": "win_share_0",
                       "description": "what the best point maximises, minimises or brings to the goal: win_share_S, "
                                      "policy_share_J (with rotate_seats), an edge (first_player_edge...) or a result "
                                      "column"},
            "goal": {"anyOf": [{"enum": list(C.GOAL_WORDS)}, {"type": "number"}], "default": "max",
                     "description": "\"max\", \"min\", \"zero\" (the point closest to zero: the fairest for an edge) "
                                    "or a number (the point closest to it)"},
        }, TOP_KEYS["sweep"], required=["x"])

    def strength(self):
        g = self.game
        rungs = {"type": "array", "minItems": 1, "uniqueItems": True, "items": self.ref("rung"),
                 "description": "the rungs, weakest first (default: the game's ladder without its search rung); "
                                "with the search budgets, at least two, their labels different"}
        search = g.policy(C.SEARCH)
        if search is None:  # (its strength curve is its ladder only)
            return _table(C.STRENGTH_KEYS, {"rungs": {**rungs, "minItems": 2}, "budgets": False, "search": False},
                          TOP_KEYS["strength"])
        budget = search.param("budget")
        others = [p for p in search.params if p.name != "budget"]
        return _table(C.STRENGTH_KEYS, {
            "rungs": rungs,
            "budgets": {"type": "array", "uniqueItems": True, "default": list(C.DEFAULT_BUDGETS),
                        "items": _range({"type": "integer"}, budget.low, budget.high),
                        "description": "the search rungs' budgets (iterations per decision), each once; [] for the "
                                       "rungs alone"},
            "search": {"type": "object", "additionalProperties": False,
                       "properties": {p.name: param_schema(p) for p in others},
                       "description": "the search rungs' parameters other than budget, e.g. {c = 0.7}"},
        }, TOP_KEYS["strength"], allOf=[
            {"description": "the curve needs at least two rungs", "if": {"required": ["budgets"], "properties": {
                "budgets": {"maxItems": 0}}}, "then": {"properties": {"rungs": {"minItems": 2}}}}])

    def stop(self):
        look = stopping.MIN_LOOK, stopping.MAX_GAMES
        return _table(stopping.STOP_KEYS, {
            "max_games": _int(*look, "never more deals than this (required; games, if given, caps it)"),
            "min_games": _int(*look, "the first look, then every doubling (at most max_games)",
                              stopping.DEFAULT_MIN),
            "precision": _positive("stop once every key metric's 95% interval is at most this wide each way (points "
                                   "for shares, else the metric's unit)"),
            "until": {"const": "decided", "description": "\"decided\": stop once every variant's (or strength "
                                                         "pairing's) difference is decided; needs equivalence"},
            "equivalence": _positive("with until: the margin inside which a difference does not matter (points "
                                     "for shares)"),
            "metric": {"type": "string", "default": "first_player_edge",
                       "description": "comparisons: the metric whose differences decide (one every variant measures)"},
        }, TOP_KEYS["stop"], required=["max_games"], anyOf=[{"required": ["precision"]}, {"required": ["until"]}],
            allOf=[{"if": {"required": ["until"]}, "then": {"required": ["equivalence"]}}])

    def margins(self, metrics):
        kinds = {k: _positive(f"{words} (default {d:g})", margins.MAX_MARGIN, d)
                 for k, (d, words) in margins.KINDS.items()}
        per_metric = {k: _positive(f"{m.label}, in {'points' if m.percent else 'its units'}", margins.MAX_MARGIN)
                      for k, m in metrics.items()}
        return _table(list(margins.KINDS) + list(per_metric), kinds | per_metric, TOP_KEYS["margins"])

    def tune(self, metrics):
        counts = {}
        for k, words in (("trials", "trials, the rulebook's own settings first (trial 0)"),
                         ("games", "deals per trial, a multiple of blocks (at least 2 x blocks)"),
                         ("blocks", "blocks a trial's deals are played in (pruning looks after each)"),
                         ("finalists", "the best trials replayed against the rulebook in the confirmation race"),
                         ("confirm_games", "the most deals of the race (default: 10 x games, at least 100,000)")):
            low, high, default = tune_spec.COUNTS[k]
            counts[k] = _int(low, high, words, default)
        number = {"type": "number"}
        setting = _table(tune_spec.SETTING_KEYS, {
            "path": {"enum": C.setting_paths(self.game), "description": "the setting searched (as a sweep's path)"},
            "low": {**number, "description": "the lowest value (whole numbers for an integer setting)"},
            "high": {**number, "description": "the highest value, above low"},
            "step": {**number, "exclusiveMinimum": 0, "description": "optional: the grid's step (at most high - low)"},
            "log": {"type": "boolean", "default": False, "description": "search on a log scale (low > 0, no step)"},
            "choices": {"type": "array", "minItems": 2, "items": {"type": ["string", "boolean", "number"]},
                        "description": "the values to choose from (instead of low and high), each once"},
        }, "a setting searched: path and low/high (step, log) or choices", required=["path"], allOf=[
            {"if": {"required": ["choices"]}, "then": {"properties": {k: False for k in ("low", "high", "step", "log")}},
             "else": {"required": ["low", "high"]}},
            {"if": _when("log", True), "then": {"properties": {"step": False, "low": {"exclusiveMinimum": 0}}}}])
        objective = _table(tune_spec.OBJECTIVE_KEYS, {
            "metric": {"enum": sorted(metrics), "description": "a metric of the summary (`analyzer games "
                                                               f"{self.game.name}` lists them), measured by every trial"},
            "goal": {"anyOf": [{"enum": list(C.GOAL_WORDS)}, {"type": "number"}],
                     "description": "\"zero\", \"min\", \"max\" or a target value in the metric's unit"},
            "weight": _positive("its weight in the trial's loss", default=1),
        }, "an objective: metric, goal and weight", required=["metric", "goal"])
        return _table(tune_spec.TUNE_KEYS, counts | {
            "sampler": {"enum": list(tune_spec.SAMPLERS), "description": "Optuna's sampler (default \"tpe\"; "
                                                                        "\"nsga2\" with pareto = true)"},
            "pareto": {"type": "boolean", "default": False,
                       "description": "several objectives: a Pareto front instead of their weighted sum"},
            "settings": {"type": "array", "minItems": 1, "maxItems": tune_spec.MAX_SETTINGS, "items": setting,
                         "description": "[[tune.settings]]: the settings searched, each once"},
            "objectives": {"type": "array", "minItems": 1, "items": objective,
                           "description": "[[tune.objectives]]: what a trial's loss weighs"},
        }, TOP_KEYS["tune"], required=["settings", "objectives"], allOf=[
            {"if": _when("pareto", True), "then": {"properties": {"objectives": {"minItems": 2}}},
             "else": {"properties": {"sampler": {"not": {"const": "nsga2"}}}}}])

    def profile(self):
        defaults = {f.name: f.default for f in dataclasses.fields(profile_spec.ProfileSpec)
                    if f.default is not dataclasses.MISSING}
        counts = {}
        for k, words in (("deals", "deals of the luck split, each played `replays` times"),
                         ("replays", "decision replays of every deal"),
                         ("card_deals", "deals per card kind in restricted play (each seat restricted in turn)"),
                         ("kingmaker_deals", "deals per seat of the kingmaking replays (3+ players)"),
                         ("policy_deals", "deals per pairing of the dominant-strategy check"),
                         ("traced_games", "games traced for the runaway-leader check")):
            low, high = profile_spec.COUNTS[k]
            counts[k] = _int(low, high, words, defaults[k])
        flags = {f.key: {"type": "number", "minimum": _num(f.low), "maximum": _num(f.high), "default": f.default,
                         "description": f"in {f.unit}: {f.help}"} for f in profile_spec.FLAGS}
        return _table(profile_spec.KEYS, counts | {
            "levels": {"type": "array", "minItems": 1, "maxItems": profile_spec.MAX_LEVELS, "uniqueItems": True,
                       "items": self.ref("level"),
                       "description": "1 or 2 skill levels, weakest first (default: the scenario's seats); two must "
                                      "differ"},
            "thresholds": _table(profile_spec.FLAG_KEYS, flags, "when a warning flag is raised"),
        }, TOP_KEYS["profile"])

    # --- the whole file --------------------------------------------------------------------------------------
    def scenario(self):
        """The schema of a scenario of this game (its defs gathered in self.defs)."""
        g = self.game
        self.params()
        seat = self.seat("all_seats", default=g.default_policy)
        override = self.seat("seat")  # (its policy, if absent, is all_seats')
        self.seat("rung", label=True, required=True)
        self.level()
        seats = self.define("seats", {"type": "object", "additionalProperties": False,
                                      "properties": {str(n): override for n in range(g.max_players)},
                                      "description": TOP_KEYS["seats"] + " (from 0 to players - 1)"})
        rules = self.define("rules", {"type": "object", "additionalProperties": False,
                                      "properties": {p.name: param_schema(p) for p in g.settings},
                                      "description": TOP_KEYS["rules"] + f" (`analyzer games {g.name}`)"})
        players = self.players()
        metrics = game_metrics(g)
        variant = _table(("name",) + C.VARIANT_KEYS, {"name": {**NON_BLANK, "description": "the variant's name "
                                                                                           "(names must differ)"},
                                                      "rules": rules, "players": players, "all_seats": override,
                                                      "seats": seats},
                         "a variant: its name and what it changes", required=["name"])
        top = {
            "name": {"type": "string"}, "description": {"type": "string"}, "question": {"type": "string"},
            "game": {"const": g.name},
            "games": {"type": "integer", "minimum": 1, "maximum": MAX_GAMES},
            "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            "players": players, "rules": rules, "all_seats": seat, "seats": seats,
            "variants": {"type": "array", "minItems": 2, "uniqueItems": True, "items": variant},
            "rotate_seats": {"type": "boolean", "default": False},
            # (no uniqueItems: two entries without label or policy are labelled "policy 0" and "policy 1")
            "policies": {"type": "array", "minItems": 2, "items": self.seat("entry", label=True)},
            "sweep": self.sweep(),
            "practical_margin": _positive("", MAX_MARGIN),
            "margins": self.margins(metrics),
            "key_metric": {"enum": sorted(metrics)},
            "ladder": _table(C.LADDER_KEYS, {
                "rungs": {"type": "array", "minItems": 2, "uniqueItems": True, "items": self.ref("rung"),
                          "description": "the rungs, weakest first (default: the game's ladder)"},
                "field": _described(self.seat("field", required=True), "the policy and parameters of the other "
                                                                        "seats (default: random)")},
                TOP_KEYS["ladder"]),
            "strength": self.strength(),
            "skill": _table(C.SKILL_KEYS, {"levels": {"type": "array", "minItems": 2, "maxItems": C.MAX_LEVELS,
                                                      "uniqueItems": True, "items": self.ref("level"),
                                                      "description": "the skill levels, weakest first; they differ"}},
                            TOP_KEYS["skill"], required=["levels"]),
            "stop": self.stop(),
            "tune": self.tune(metrics),
            "profile": self.profile(),
        }
        props = {k: _described(top[k], TOP_KEYS[k]) for k in TOP_KEYS}
        return {"type": "object", "properties": props, "additionalProperties": False,
                "required": ["game", "seed"] + (["players"] if g.min_players != g.max_players else []),
                "allOf": self.together()}

    def together(self):
        """What the analyzer says of keys together (comparisons.expand, check_skill, stopping, margins, tune and
        profile): each an if/then."""
        g = self.game
        out = [
            {"description": "games is required without [stop], and with one at least its first look",
             "if": {"not": {"required": ["stop"]}}, "then": {"required": ["games"]},
             "else": {"properties": {"games": {"minimum": stopping.MIN_LOOK}}}},
            *[_excludes(k, [o for o in C.COMPARISON_KEYS if o != k],
                        f"one of {', '.join(C.COMPARISON_KEYS)} per scenario") for k in C.COMPARISON_KEYS],
            _excludes("strength", C.COMPARISON_KEYS + ("ladder",) + C.OWN_SEATS,
                      "the strength curve plays its own pairings and seats its rungs itself"),
            _excludes("ladder", ("sweep", "policies") + C.OWN_SEATS,
                      "a ladder seats its rungs and field itself; it combines with [[variants]] only"),
            _excludes("policies", ("seats", "rotate_seats"), "a round-robin seats every policy in every seat itself"),
            {"description": "a round-robin needs two players", "if": {"required": ["policies"]},
             "then": {"properties": {"players": {"const": 2}}}},
            _excludes("skill", C.NOT_WITH_SKILL + ("all_seats",),
                      "[skill] levels set all_seats; they combine with variants, a sweep and rotate_seats"),
            {"description": "[skill] levels set all_seats: no variant or sweep path may", "if": {"required": ["skill"]},
             "then": {"properties": {
                 "variants": {"items": {"properties": {"all_seats": False}}},
                 "sweep": {"properties": {a: {"properties": {"path": {"not": {"pattern": r"^all_seats\."}}}}
                                          for a in ("x", "y")}}}}},
            {"description": "stop.until works with [[variants]] and [strength] only",
             "if": {"required": ["stop"], "properties": {"stop": {"required": ["until"]}}},
             "then": {"anyOf": [{"required": ["variants"]}, {"required": ["strength"]}]}},
            {"description": "practical_margin is [margins] shares: keep one", "if": {"required": ["practical_margin"]},
             "then": {"properties": {"margins": {"properties": {"shares": False}}}}},
            _excludes("tune", tuning.NOT_WITH_TUNE, "`analyzer tune` searches the settings of one configuration"),
            _excludes("profile", profiling.NOT_WITH_PROFILE, "`analyzer profile` plays one configuration"),
        ]
        # a seat table without a policy takes all_seats' (the game's default without one)
        for pol in g.policies:
            chosen = {"required": ["all_seats"], "properties": {"all_seats": _when("policy", pol.name)}}
            if pol.name == g.default_policy:
                chosen = {"anyOf": [chosen, {"not": {"required": ["all_seats"]}},
                                    {"properties": {"all_seats": {"not": {"required": ["policy"]}}}}]}
            out.append({"if": chosen, "then": {"properties": {"seats": {"patternProperties": {"": {
                "if": {"not": {"required": ["policy"]}}, "then": self.ref(f"policy.{pol.name}")}}}}}})
        # seats are numbered below players
        for n in range(g.min_players, g.max_players):
            out.append({"if": _when("players", n),
                        "then": {"properties": {"seats": {"propertyNames": {"enum": [str(s) for s in range(n)]}}}}})
        return out


def scenario_schema(game=None) -> dict:
    """The JSON Schema of scenario files of `game` (a name), or of every game (then the `game` key selects)."""
    names = [game] if game is not None else game_names()
    defs, bodies = {}, {}
    for name in names:
        g = get_game(name)
        if g is None:
            raise ValueError(f"no game {name!r}")
        made = _Game(g)
        bodies[name] = made.scenario()
        defs |= made.defs
    head = {"$schema": DRAFT, "title": "Scenario file of the card-game analyzer"}
    if game is not None:
        g = get_game(game)
        return {**head, "title": f"{head['title']}: {g.title}",
                "description": f"A scenario of {g.title} ({g.name}): `analyzer run FILE` plays it. Generated by "
                               f"`analyzer schema {g.name}` (docs/schema.md).",
                **bodies[game], "$defs": defs}
    for name, body in bodies.items():
        defs[name] = body
    return {**head, "description": "A scenario file: `analyzer run FILE` plays it; its game key selects the rest. "
                                   "Generated by `analyzer schema` (docs/schema.md).",
            "type": "object", "required": ["game"], "additionalProperties": False,
            "properties": {k: {"description": v} for k, v in TOP_KEYS.items()} | {
                "game": {"enum": names, "description": TOP_KEYS["game"]}},
            "allOf": [{"if": _when("game", name), "then": {"$ref": f"#/$defs/{name}"}} for name in names],
            "$defs": defs}
