"""The Python API (docs/api.md): what the `analyzer` command does, called from a script or a notebook.

    import analyzer
    result = analyzer.run("scenarios/noize-4p.toml", games=20_000, seed=7)
    result.summary          # the DataFrame behind summary.csv
    result.verdicts         # every difference the report judges, with its verdict, as data
    result.report("reports/mine")

A scenario is a path, a TOML text or a dict (as tomllib reads a file). Every function validates it as the CLI
does and raises analyzer.ScenarioError with the very line the CLI prints; a setting it writes that cannot
change any game is an IdleSettingWarning. Ctrl-C while games are played gives back the games finished (a
partial result, as the CLI writes a partial report); before the first game it raises KeyboardInterrupt.
The same scenario and seed give the same numbers as the CLI (tests/test_api.py).
"""
from __future__ import annotations

import copy
import shutil
import tempfile
import warnings
from pathlib import Path

from analyzer.errors import ScenarioError, parse_toml
from analyzer.api_results import ProfileOutcome, Result, TuneOutcome

__all__ = ["run", "ladder", "strength", "tune", "profile", "trace", "Result", "ScenarioError",
           "IdleSettingWarning"]

TEXT_SOURCE = "(scenario text)"
DICT_SOURCE = "(scenario dict)"


class IdleSettingWarning(UserWarning):
    """A scenario value that cannot change any game (the CLI's "Warning: ..." lines, analyzer/idle_settings.py)."""


def _raw(scenario):
    """(the scenario's TOML as a dict, its source for messages): scenario is a path (str or Path), TOML text (a str
    holding a newline or an "="), or a dict."""
    from analyzer import scenario as scen
    from analyzer.textfiles import MAX_SCENARIO_BYTES

    if isinstance(scenario, dict):
        return copy.deepcopy(scenario), DICT_SOURCE
    if isinstance(scenario, Path) or (isinstance(scenario, str) and "\n" not in scenario and "=" not in scenario):
        return scen.load_raw(scenario), str(scenario)
    if isinstance(scenario, str):
        if len(scenario.encode()) > MAX_SCENARIO_BYTES:
            raise ScenarioError(TEXT_SOURCE, None, None, f"is larger than {MAX_SCENARIO_BYTES:,} bytes: a scenario "
                                                         f"needs a few kilobytes")
        return parse_toml(scenario, TEXT_SOURCE, "scenario"), TEXT_SOURCE
    raise ScenarioError("scenario", None, None, f"{type(scenario).__name__} is not a scenario: give a file path, "
                                                f"TOML text or a dict")


def _overrides(set, **named):
    """The (key, value, origin) overrides of `set` (a dict {"rules.x": value} or "key=value" strings, values in TOML
    syntax) and of the keyword arguments given (origin: the argument's name, as the CLI names its flag)."""
    from analyzer.scenario import parse_value

    out = []
    items = set.items() if isinstance(set, dict) else set or ()
    for item in items:
        if isinstance(item, str):
            key, eq, value = item.partition("=")
            if not eq:
                raise ScenarioError("set", None, None, f"{item!r}: expected key=value, e.g. "
                                                       f"rules.shuffle_each_round=true")
            item = (key.strip(), parse_value(value.strip()))
        key, value = item
        out.append((key, value, "set"))
    out += [(key.replace("__", "."), value, key.split("__")[-1]) for key, value in named.items() if value is not None]
    return out


def _scenario(scenario, overrides):
    """The validated Scenario: the file as written first (a bad value in it is refused even where an override
    would replace it, as the CLI does), then with the overrides; its idle-setting lines as warnings."""
    from analyzer import scenario as scen

    sc = scen.build_as_written_then(*_raw(scenario), overrides)
    _warn(sc)
    return sc


def _warn(sc):
    for line in sc.warnings:
        warnings.warn(line.removeprefix("Warning: "), IdleSettingWarning, stacklevel=4)


def _noting_signals():
    """Ctrl-C and SIGTERM noted from now on (analyzer.interrupts): the tune or profile stops after the trial or block
    in play and gives back what finished."""
    from analyzer.interrupts import Interrupts

    interrupts = Interrupts()
    interrupts.note_from_now()
    return interrupts


MAX_WORKERS = 256  # as the CLI's --workers


def _whole(name, value, low, high, why):
    """value, if None or a whole number from low to high (not a bool), else a ScenarioError naming the argument."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high):
        raise ScenarioError(name, None, None, f"{value!r}: give a whole number from {low:,} to {high:,} ({why})")
    return value


def _check_threads(threads):
    import numba

    _whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS, "this machine's cores")


def _check_workers(workers):
    return _whole("workers", workers, 1, MAX_WORKERS, "Dask worker processes; None plays in this process")


def _play(sc, *, threads=None, workers=None, keep_games=False, progress=True):
    """Play a validated scenario in this process (or on a local Dask cluster of `workers`): its Result."""
    from analyzer import distributed, runner

    _check_threads(threads)
    if _check_workers(workers):
        try:
            distributed.require_dask()
        except RuntimeError as e:  # (the analyzer[dask] extra is not installed)
            raise ScenarioError("workers", None, None, str(e)) from None
    games_dir = tempfile.mkdtemp(prefix="analyzer-games-") if keep_games else None
    run_result = None
    try:
        if workers:
            run_result = distributed.run(sc, threads=threads, keep_games_dir=games_dir, progress=progress,
                                         workers=workers, log=lambda line: None)
        else:
            run_result = runner.run(sc, threads=threads, keep_games_dir=games_dir, progress=progress)
    finally:
        if games_dir and (run_result is None or run_result.games == 0):  # (the Result owns it otherwise)
            shutil.rmtree(games_dir, ignore_errors=True)
    if run_result.games == 0:
        raise KeyboardInterrupt("stopped before any game finished")
    if run_result.partial:
        warnings.warn(f"stopped after {run_result.games:,} of {sc.games:,} deals: a partial result", stacklevel=3)
    return Result(run_result, games_dir)


def run(scenario, *, games=None, seed=None, set=None, threads=None, workers=None, keep_games=False,
        progress=True) -> Result:
    """Play a scenario (a path, TOML text or a dict) as `analyzer run` does; its Result.

    games, seed: instead of the scenario's; set: overrides as the CLI's --set ({"rules.shuffle_each_round": True},
    or ["all_seats.bluff=0.2"]); threads: numba threads; workers: a local Dask cluster of that many processes;
    keep_games: keep every game's result row (Result.games)."""
    sc = _scenario(scenario, _overrides(set, seed=seed, games=games))
    return _play(sc, threads=threads, workers=workers, keep_games=keep_games, progress=progress)


def ladder(game, *, scenario=None, players=None, games=None, seed=None, set=None, threads=None, workers=None,
           progress=True) -> Result:
    """Does skill matter in `game`? Its skill ladder, as `analyzer ladder` plays it (scenario: take its players,
    rules, variants and [ladder]); its Result."""
    from analyzer import command_scenarios as CS

    raw, source = _raw(scenario) if scenario is not None else (None, None)
    sc, lines = CS.ladder(game, raw, source, _overrides(set, players=players, games=games, seed=seed))
    for line in lines:
        warnings.warn(line, IdleSettingWarning, stacklevel=2)
    _warn(sc)
    return _play(sc, threads=threads, workers=workers, progress=progress)


def strength(game, *, scenario=None, players=None, budgets=None, games=None, seed=None, set=None, threads=None,
             workers=None, progress=True) -> Result:
    """How strong is strong enough in `game`? Its strength curve, as `analyzer strength` plays it (budgets: the
    search budgets, smallest first); its Result (Result.strength: the curve's table)."""
    from analyzer import command_scenarios as CS

    raw, source = _raw(scenario) if scenario is not None else (None, None)
    sc, lines = CS.strength(game, raw, source, _overrides(set, players=players, games=games, seed=seed,
                                                          strength__budgets=budgets))
    for line in lines:
        warnings.warn(line, IdleSettingWarning, stacklevel=2)
    _warn(sc)
    return _play(sc, threads=threads, workers=workers, progress=progress)


def tune(scenario, *, trials=None, games=None, seed=None, set=None, threads=None, study_path=None, workers=None,
         progress=True) -> TuneOutcome:
    """Which values of the [tune] settings bring the game where the scenario wants it? As `analyzer tune`; its
    TuneOutcome (.trials, .race, .report(path))."""
    from analyzer import tuning as T
    from analyzer.scenario import build_as_written_then

    overrides = _overrides(set, seed=seed, tune__trials=trials, tune__games=games)
    sc, spec = build_as_written_then(*_raw(scenario), overrides, T.build)
    _warn(sc)
    _check_threads(threads)
    _check_workers(workers)
    with _noting_signals() as interrupts:
        result = T.tune(sc, spec, threads=threads, interrupts=interrupts, study_path=study_path, workers=workers,
                        log=lambda line: None)
    if not any(t.blocks for t in result.run.trials):
        raise KeyboardInterrupt("stopped before any trial finished")
    return TuneOutcome(result)


def profile(scenario, *, levels=(), deals=None, replays=None, seed=None, set=None, threads=None) -> ProfileOutcome:
    """Where do the scenario's outcomes come from? As `analyzer profile` (levels: one or two skill levels, e.g.
    ["greedy", "search:64"]); its ProfileOutcome (.table: profile.csv's rows, .report(path))."""
    from analyzer import profiling as PR
    from analyzer.scenario import build_as_written_then

    overrides = _overrides(set, seed=seed, profile__deals=deals, profile__replays=replays)
    sc, spec = build_as_written_then(*_raw(scenario), overrides, PR.build, level_args=list(levels))
    _warn(sc)
    _check_threads(threads)
    with _noting_signals() as interrupts:
        result = PR.profile(sc, spec, threads=threads, interrupts=interrupts)
    if not result.levels:
        raise KeyboardInterrupt("stopped before any part of the profile finished")
    return ProfileOutcome(result)


def trace(game, seed=None, *, game_index=0, scenario=None, players=None, set=None, variant=None, rotation=0):
    """Every event of one game, as `analyzer trace` prints them (jsonl): a DataFrame, one row per event (its
    fields as columns, `type` first), with the game's rules and seats in .attrs."""
    from analyzer import command_scenarios as CS

    raw, source = _raw(scenario) if scenario is not None else (None, None)
    sc = CS.trace(game, raw, source, _overrides(set, players=players))
    _warn(sc)
    g, arm, seed = sc.game, CS.trace_arm(sc, variant, rotation), sc.seed if seed is None else seed
    events = _events_frame(g.trace(arm.encoded(g), seed, game_index))
    events.attrs = {"game": g.name, "seed": seed, "game_index": game_index, "players": len(arm.seats),
                    "rules": arm.rules, "seats": [{"policy": s.policy, **s.params} for s in arm.seats]}
    return events


def _events_frame(events):
    """Events (dicts of differing fields) as one DataFrame: a column per field, in order of first appearance; a
    field of whole numbers is a nullable Int64 column (<NA> where an event has no such field), any other holds the
    values as they are (None where absent)."""
    import pandas as pd

    names = list(dict.fromkeys(k for e in events for k in e))
    columns = {}
    for name in names:
        values = [e.get(name) for e in events]
        whole = all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in values)
        columns[name] = pd.array(values, dtype="Int64") if whole else pd.Series(values, dtype=object)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(events)))
