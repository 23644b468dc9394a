"""A scenario's `[tune]` table: which settings to search, toward which objectives, on what budget.

    [tune]
    trials = 40                # trials, the rulebook's own settings first (trial 0)
    games = 20_000             # deals per trial, played in `blocks` blocks (pruning looks after each)
    blocks = 8
    sampler = "tpe"            # "tpe", "cmaes", "random"; "nsga2" with pareto = true
    pareto = false             # several objectives: a Pareto front instead of their weighted sum
    finalists = 3              # the best trials replayed against the rulebook in the confirmation race
    confirm_games = 200_000    # most deals of the race (it stops once its answer is known)

    [[tune.settings]]          # one table per setting searched (a path as a sweep's)
    path = "rules.target"
    low = 10                   # whole numbers for an integer setting, else real numbers
    high = 30
    step = 1                   # optional
    [[tune.settings]]
    path = "rules.dealer"
    choices = ["fixed", "rotating"]

    [[tune.objectives]]        # metrics of the summary (`analyzer games GAME` lists them)
    metric = "first_player_edge"
    goal = "zero"              # "zero", "min", "max" or a target value in the metric's unit
    weight = 1

A trial's loss is the weighted sum of its objectives' losses, each in the unit the report shows: points
for a share or an edge (0.01 is 1 point), the metric's own unit otherwise; |value - target| for a target
("zero": target 0), the value for "min", minus the value for "max".
"""
from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass

from analyzer import metrics as M
from analyzer.comparisons import check_path, sweep_goal
from analyzer.configs import read_int
from analyzer.errors import MISSING, ScenarioError

TUNE_KEYS = ("trials", "games", "blocks", "sampler", "pareto", "finalists", "confirm_games", "settings",
             "objectives")
SETTING_KEYS = ("path", "low", "high", "step", "log", "choices")
OBJECTIVE_KEYS = ("metric", "goal", "weight")
SAMPLERS = ("tpe", "cmaes", "random", "nsga2")
MAX_TRIALS = 10_000
MAX_SETTINGS = 12
MAX_BLOCKS = 64
MAX_FINALISTS = 8
MAX_GAMES = 10**9
# the whole numbers of [tune]: key -> (lowest, highest, default); games is also at least 2 x blocks, and
# confirm_games defaults to max(10 x games, 100,000)
COUNTS = {"trials": (2, MAX_TRIALS, 30), "blocks": (1, MAX_BLOCKS, 8), "games": (2, MAX_GAMES, 10_000),
          "finalists": (1, MAX_FINALISTS, 3), "confirm_games": (1_000, MAX_GAMES, None)}


@dataclass(frozen=True)
class Setting:
    path: str  # "rules.target", "all_seats.bluff", "seats.1.challenge_below", "players"
    kind: str  # "int", "float" or "choice"
    low: float | int | None = None
    high: float | int | None = None
    step: float | int | None = None
    log: bool = False
    choices: tuple = ()


@dataclass(frozen=True)
class Objective:
    metric: str
    goal: str | float  # "zero", "min", "max" or a target value
    target: float | None  # the value aimed at (None: min or max)
    weight: float

    def loss(self, value, shown_scale):
        """This objective's loss at value (in the metric's unit), in the unit shown (shown_scale: 100 for shares)."""
        if self.target is not None:
            return shown_scale * abs(value - self.target)
        return shown_scale * (value if self.goal == "min" else -value)

    def describe(self, metric):
        if self.goal == "zero":
            return f"{metric.label}: as close to zero as possible"
        if self.goal in ("min", "max"):
            return f"{metric.label}: as {'low' if self.goal == 'min' else 'high'} as possible"
        return f"{metric.label}: as close to {metric.fmt(self.target)} as possible"


@dataclass(frozen=True)
class TuneSpec:
    settings: tuple
    objectives: tuple
    trials: int
    games: int  # deals per trial
    blocks: int
    sampler: str
    pareto: bool
    finalists: int
    confirm_games: int

    @property
    def block_games(self):
        return self.games // self.blocks


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _int(spec, key, source, low, high, default):
    """tune.<key>, an integer from low to high (configs.read_int, said of its place in [tune])."""
    try:
        return read_int(spec, key, source, low, high, default)
    except ScenarioError as e:
        raise e.renamed(key=f"tune.{key}") from None


def _table(source, spec, where, keys, shape):
    """spec, a table with only the given keys, or ScenarioError (shape: what the table holds, said if it is not one)."""
    if not isinstance(spec, dict):
        raise ScenarioError(source, where, spec, "must be a table: " + shape)
    for k in spec:
        if k not in keys:
            raise ScenarioError(source, f"{where}.{k}", spec[k], "unknown key; allowed: " + ", ".join(keys))
    return spec


def _setting(sc, spec, i):
    where = f"tune.settings[{i}]"
    _table(sc.source, spec, where, SETTING_KEYS, 'path = "..." and low/high or choices')
    path = spec.get("path", MISSING)
    if not isinstance(path, str):
        raise ScenarioError(sc.source, f"{where}.path", path, 'must name a setting, e.g. "rules.target"')
    check_path(sc, path, f"{where}.path")
    if "choices" in spec:
        extra = [k for k in ("low", "high", "step", "log") if k in spec]
        if extra:
            raise ScenarioError(sc.source, f"{where}.{extra[0]}", spec[extra[0]], "give choices or low/high, not both")
        choices = spec["choices"]
        if not isinstance(choices, list) or len(choices) < 2:
            raise ScenarioError(sc.source, f"{where}.choices", choices, "must be a list of at least two values")
        for j, c in enumerate(choices):
            if not (isinstance(c, (str, bool)) or _number(c)):
                raise ScenarioError(sc.source, f"{where}.choices[{j}]", c, "must be a number, a string or true/false")
            if c in choices[:j] and any(type(c) is type(d) for d in choices[:j] if d == c):
                raise ScenarioError(sc.source, f"{where}.choices[{j}]", c, "appears twice: every choice once")
        return Setting(path, "choice", choices=tuple(choices))
    for k in ("low", "high"):
        if not _number(spec.get(k)):
            raise ScenarioError(sc.source, f"{where}.{k}", spec.get(k, MISSING),
                                "must be a number (or give choices = [...] instead of low and high)")
    low, high, step = spec["low"], spec["high"], spec.get("step")
    if high <= low:
        raise ScenarioError(sc.source, f"{where}.high", high, f"must be above low ({low:g})")
    if step is not None and (not _number(step) or step <= 0 or step > high - low):
        raise ScenarioError(sc.source, f"{where}.step", step, f"must be a number above 0 and at most high - low "
                                                               f"({high - low:g})")
    log = spec.get("log", False)
    if not isinstance(log, bool):
        raise ScenarioError(sc.source, f"{where}.log", log, "must be true or false")
    if log and (low <= 0 or step is not None):
        raise ScenarioError(sc.source, f"{where}.log", log, "a log scale needs low > 0 and no step")
    whole = all(isinstance(x, int) for x in (low, high) + ((step,) if step is not None else ()))
    return Setting(path, "int" if whole else "float", low, high, step if step is not None else (1 if whole else None),
                   log)


def _objective(sc, spec, i, known):
    where = f"tune.objectives[{i}]"
    _table(sc.source, spec, where, OBJECTIVE_KEYS, 'metric = "...", goal = ...')
    metric = spec.get("metric", MISSING)
    if metric not in known:
        raise ScenarioError(sc.source, f"{where}.metric", metric, "must be a metric of every trial: "
                                                                  + ", ".join(sorted(known)))
    try:
        goal, target = sweep_goal(sc, spec.get("goal", MISSING))
    except ScenarioError as e:
        raise e.renamed(key=f"{where}.goal") from None
    weight = spec.get("weight", 1.0)
    if not _number(weight) or weight <= 0:
        raise ScenarioError(sc.source, f"{where}.weight", weight, "must be a number above 0")
    return Objective(metric, goal, target, float(weight))


def parse(sc, players_values):
    """The TuneSpec of scenario sc's [tune] table, or ScenarioError; players_values: every player count a trial
    can have (the objectives' metrics must be measured at each)."""
    spec = _table(sc.source, sc.raw.get("tune", MISSING), "tune", TUNE_KEYS, "[tune] with settings and objectives")
    raw_settings = spec.get("settings", MISSING)
    if not isinstance(raw_settings, list) or not raw_settings:
        raise ScenarioError(sc.source, "tune.settings", raw_settings,
                            'must be a list of [[tune.settings]] tables (path = "...", low/high or choices)')
    if len(raw_settings) > MAX_SETTINGS:
        raise ScenarioError(sc.source, "tune.settings", f"({len(raw_settings)} settings)",
                            f"at most {MAX_SETTINGS} settings")
    settings = tuple(_setting(sc, s, i) for i, s in enumerate(raw_settings))
    paths = [s.path for s in settings]
    for i, p in enumerate(paths):
        if p in paths[:i]:
            raise ScenarioError(sc.source, f"tune.settings[{i}].path", p, "is searched twice: every setting once")
    rotations = lambda n: n if sc.comparison.get("rotate_seats") else 1  # noqa: E731
    known = None
    for n in players_values:
        keys = {m.key for m in M.standard_metrics(sc.game, n, rotations(n))}
        known = keys if known is None else known & keys
    raw_objectives = spec.get("objectives", MISSING)
    if not isinstance(raw_objectives, list) or not raw_objectives:
        raise ScenarioError(sc.source, "tune.objectives", raw_objectives,
                            'must be a list of [[tune.objectives]] tables (metric = "...", goal = ...)')
    objectives = tuple(_objective(sc, o, i, known) for i, o in enumerate(raw_objectives))
    pareto = spec.get("pareto", False)
    if not isinstance(pareto, bool):
        raise ScenarioError(sc.source, "tune.pareto", pareto, "must be true or false")
    if pareto and len(objectives) < 2:
        raise ScenarioError(sc.source, "tune.pareto", pareto, "a Pareto front needs two objectives or more")
    sampler = spec.get("sampler", "nsga2" if pareto else "tpe")
    if sampler not in SAMPLERS:
        raise ScenarioError(sc.source, "tune.sampler", sampler, "must be one of " + ", ".join(f'"{s}"' for s in SAMPLERS))
    if sampler == "cmaes" and importlib.util.find_spec("cmaes") is None:
        raise ScenarioError(sc.source, "tune.sampler", sampler, 'CMA-ES needs the cmaes package (pip install cmaes); '
                                                                '"tpe" needs nothing more')
    if sampler == "cmaes" and any(s.kind == "choice" for s in settings):
        raise ScenarioError(sc.source, "tune.sampler", sampler, 'CMA-ES searches numbers only: use "tpe" with choices')
    if sampler == "nsga2" and not pareto:
        raise ScenarioError(sc.source, "tune.sampler", sampler, 'NSGA-II searches a Pareto front: set pareto = true')
    trials = _int(spec, "trials", sc.source, *COUNTS["trials"])
    blocks = _int(spec, "blocks", sc.source, *COUNTS["blocks"])
    _, high, default = COUNTS["games"]
    games = _int(spec, "games", sc.source, blocks * 2, high, default)
    if games % blocks:
        raise ScenarioError(sc.source, "tune.games", games, f"must be a multiple of tune.blocks ({blocks}): every "
                                                            f"block plays the same number of deals")
    finalists = _int(spec, "finalists", sc.source, *COUNTS["finalists"])
    low, high, _ = COUNTS["confirm_games"]
    confirm = _int(spec, "confirm_games", sc.source, low, high, max(10 * games, 100_000))
    return TuneSpec(settings, objectives, trials, games, blocks, sampler, pareto, finalists, confirm)


def rulebook_values(sc, spec):
    """{path: the scenario's own value} of every searched setting (a rule's resolved default where the file says
    none), for trial 0."""
    out = {}
    for s in spec.settings:
        parts = s.path.split(".")
        if parts[0] == "rules":
            out[s.path] = sc.rules[parts[1]]
        elif parts[0] == "players":
            out[s.path] = sc.players
        else:  # a policy or a parameter of seat 0 (all_seats) or seat N, defaults filled in
            seat = sc.seats[0 if parts[0] == "all_seats" else int(parts[1])]
            out[s.path] = seat.policy if parts[-1] == "policy" else seat.params.get(parts[-1], MISSING)
    return out
