"""`analyzer tune`: which values of a game's settings bring its balance where the designer wants it?

A tune scenario is one configuration (the rulebook's, as `analyzer run` would play it) with a `[tune]` table
(analyzer/tuning/spec.py): the settings to search, the objectives and the budget. The search
(analyzer/tuning/study.py) plays the rulebook, then the trials Optuna's sampler proposes, every trial on the same
deals, pruning trials clearly worse than the best; the confirmation race (analyzer/tuning/race.py) replays the best
few and the rulebook on fresh deals until their differences are known; the report (analyzer/tuning/report.py)
answers with the race's figures.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from analyzer.errors import ScenarioError
from analyzer.tuning.spec import TuneSpec, parse

# a tune searches one configuration's settings: what would make the scenario several is refused
NOT_WITH_TUNE = ("variants", "sweep", "policies", "ladder", "strength", "skill", "stop")


@dataclass
class TuneResult:
    scenario: object  # the tune scenario (its rulebook configuration)
    spec: TuneSpec
    run: object  # study.TuneRun
    race: object | None  # the race's RunResult (None: stopped before it, or nothing to race)
    race_rows: list  # race.race_table(...)
    wall: float
    threads: int

    @property
    def partial(self):
        return self.run.stopped_by is not None or (self.race is not None and self.race.partial)


def load(path, overrides=()):
    """(scenario, TuneSpec) of a tune scenario file, or ScenarioError naming the file, the key and the value;
    every setting's ends (and choices) are checked playable with the rest of the rulebook before any game."""
    from analyzer import scenario as scen

    raw = scen.load_raw(path)
    return build(raw, str(path), overrides)


def build(raw, source, overrides=()):
    from analyzer import scenario as scen

    if "tune" not in raw:
        raise ScenarioError(source, "tune", "(missing)", "a tune scenario needs a [tune] table (settings, objectives); "
                                                         "docs/tuning.md shows one")
    for key in NOT_WITH_TUNE:
        if key in raw:
            raise ScenarioError(source, key, "(table)", "a tune searches the settings of one configuration: drop it "
                                                        "(the confirmation race compares the best trials itself)")
    sc = scen.build_with(copy.deepcopy(raw), source, overrides)
    try:
        return sc, _checked_spec(sc, source)
    except ScenarioError as e:  # a value set on the command line is named by its flag (as build_with does)
        raise scen.named_by_flag(e, source, overrides) from None


def _checked_spec(sc, source):
    from analyzer import scenario as scen
    from analyzer.tuning import study

    players = {sc.players}
    for s in parse(sc, players).settings:  # (a first pass, for the player counts a trial can have)
        if s.path == "players":
            players |= set(s.choices) if s.kind == "choice" else set(range(int(s.low), int(s.high) + 1))
    spec = parse(sc, sorted(players))
    for i, s in enumerate(spec.settings):
        ends = ([("choices", j, c) for j, c in enumerate(s.choices)] if s.kind == "choice"
                else [("low", None, s.low), ("high", None, s.high)])
        for key, j, value in ends:
            try:
                scen.build(study.trial_raw(sc.raw, {s.path: value}), source)
            except ScenarioError as e:
                where = f"tune.settings[{i}].{key}" + (f"[{j}]" if j is not None else "")
                raise ScenarioError(source, where, value, f"cannot be played with the scenario's other settings "
                                                          f"({e.key} = {e.value}: {e.allowed})") from None
    return spec


def tune(sc, spec, *, threads=None, interrupts=None, on_trial=None, race=True, study_path=None, workers=None,
         scheduler=None, log=print):
    """Search, then race (unless stopped or race=False); the TuneResult. study_path: the journal file that keeps
    the study (a tune stopped early resumes from it: study.search). workers, scheduler: play the trials' blocks and
    the race on a Dask cluster (analyzer.distributed): the same results."""
    import time

    from analyzer import runner, scenario as scen
    from analyzer.tuning import race as R
    from analyzer.tuning.study import DaskBlocks, search

    t0 = time.perf_counter()
    used = runner.used_threads(threads)
    cluster = DaskBlocks(workers, scheduler, threads) if workers or scheduler else None
    try:
        run = search(sc, spec, threads=threads, interrupts=interrupts, on_trial=on_trial, study_path=study_path,
                     cluster=cluster)
        race_result, rows = None, []
        chosen = R.finalists(run)
        if race and run.stopped_by is None and chosen and run.trials[0].state == "complete":
            race_sc = scen.build(R.race_raw(sc, spec, chosen), sc.source)
            if cluster is not None:
                from analyzer import distributed

                race_result = distributed.run(race_sc, threads=cluster.threads, progress=False, log=log,
                                              scheduler=cluster.client.scheduler.address, interrupts=interrupts)
            else:
                race_result = runner.run(race_sc, threads=threads, progress=False, interrupts=interrupts)
            rows = R.race_table(run, race_result) if race_result.games else []
    finally:
        if cluster is not None:
            cluster.close()
    return TuneResult(sc, spec, run, race_result, rows, time.perf_counter() - t0, used)


def write_report(result, out_dir, command=None):
    """Write the tune's report folder (analyzer/tuning/report.py)."""
    from analyzer.tuning import report

    return report.write(result, out_dir, command)
