"""The search of `analyzer tune`: Optuna's sampler proposes settings through its ask/tell interface, each trial
plays the same deals (common random numbers: every trial plays the same game indices of one seed, in blocks), and
a trial clearly worse than the best so far is pruned after a block (Optuna's Wilcoxon pruner on the per-block
losses, paired by block).

The rulebook's own settings are played first, whole (they are the first incumbent, so pruning compares every
trial with at least them); trials run one after another, in the order asked, so the same scenario and seed give
the same trials whatever the threads (which only share a trial's games: analyzer.runner).
"""
from __future__ import annotations

import copy
import math
import warnings
from dataclasses import dataclass, field, replace

import numpy as np

from analyzer import metrics as M
from analyzer import runner
from analyzer.stopping import unit
from analyzer.configs import set_path
from analyzer.errors import ScenarioError
from analyzer.tuning.spec import TuneSpec, rulebook_values

# keys of a scenario that a trial does not take from it: the tune itself, and its stopping rule (a tune scenario is
# one configuration, checked by analyzer.tuning.load)
TRIAL_DROPS = ("tune", "stop")
PRUNE_P = 0.1  # the Wilcoxon pruner's p threshold (Optuna's default)
PRUNE_AFTER = 2  # blocks played before a trial may be pruned (Optuna's default n_startup_steps)
# the samplers' settings do not depend on the budget, so that a tune stopped early and resumed with more trials
# plays the trials a longer tune would have
RANDOM_FIRST = 5  # TPE: trials proposed at random before its model guides the search
POPULATION = 16  # NSGA-II: trials per generation
SEED_STREAM = 0x74756E65  # "tune": the seeds of the trials, the race and the samplers come from (seed, SEED_STREAM, k)
TRIALS_STREAM = 0  # k of the seed every trial's deals are played with
RACE_STREAM = 1 << 20  # k of the confirmation race's seed
SAMPLER_STREAM = 1 << 21  # k of the seed of the sampler that proposes trial n: SAMPLER_STREAM + n


def derived_seed(seed, k):
    """A seed of its own for stream k (TRIALS_STREAM, RACE_STREAM, SAMPLER_STREAM + n) of a tune with master seed
    `seed`."""
    state = np.random.SeedSequence([seed, SEED_STREAM, k]).generate_state(2, np.uint64)
    return int(state[0] >> np.uint64(1))


@dataclass
class Trial:
    number: int  # 0: the rulebook; then the order the sampler proposed them
    values: dict  # {path: value}
    state: str = "complete"  # complete, pruned, invalid (the settings cannot be played together), stopped
    blocks: int = 0  # blocks played
    metric_blocks: list = field(default_factory=list)  # per block: {metric key: value}
    losses: list = field(default_factory=list)  # per block: the weighted loss
    note: str = ""  # why invalid
    block_games: int = 0  # deals per block

    @property
    def deals(self):
        return self.blocks * self.block_games

    def value(self, key):
        """The metric's mean over the blocks played (equal blocks of deals)."""
        xs = [b[key] for b in self.metric_blocks]
        return float(np.mean(xs)) if xs else math.nan

    def stderr(self, key):
        xs = [b[key] for b in self.metric_blocks]
        return float(np.std(xs, ddof=1) / math.sqrt(len(xs))) if len(xs) > 1 else math.nan


@dataclass
class TuneRun:
    spec: TuneSpec
    trials: list  # Trial, the rulebook first
    study: object  # the optuna Study
    stopped_by: int | None = None  # a signal that ended the search early
    metric_defs: dict = field(default_factory=dict)  # {key: metrics.Metric} (the rulebook's player count)

    def loss(self, trial):
        """The trial's weighted loss from its mean metric values (nan unless complete)."""
        if trial.state != "complete":
            return math.nan
        return weighted_loss(self.spec, self._means(trial), self.metric_defs)

    def objective_losses(self, trial):
        return objective_losses(self.spec, self._means(trial), self.metric_defs)

    def _means(self, trial):
        return {o.metric: trial.value(o.metric) for o in self.spec.objectives}

    def shown_loss(self, trial):
        """The loss a report shows: a complete trial's, a pruned one's mean over the blocks it played (nan if none)."""
        if trial.state == "complete":
            return self.loss(trial)
        return float(np.mean(trial.losses)) if trial.losses else math.nan

    def ranked(self):
        """The complete trials, best first (lowest loss; Pareto: the front first, then by weighted loss)."""
        done = [t for t in self.trials if t.state == "complete"]
        if self.spec.pareto:
            front = {t.number for t in self.pareto_front()}
            return sorted(done, key=lambda t: (t.number not in front, self.loss(t), t.number))
        return sorted(done, key=lambda t: (self.loss(t), t.number))

    def pareto_front(self):
        done = [t for t in self.trials if t.state == "complete"]
        losses = {t.number: self.objective_losses(t) for t in done}

        def dominated(a):
            return any(all(x <= y for x, y in zip(losses[b.number], losses[a.number]))
                       and losses[b.number] != losses[a.number] for b in done)
        return [t for t in done if not dominated(t)]


def objective_losses(spec, values, metrics):
    """Each objective's loss at values ({metric key: value}), in the unit shown (metrics: {key: Metric})."""
    return [o.loss(values[o.metric], unit(metrics[o.metric])) for o in spec.objectives]


def weighted_loss(spec, values, metrics):
    """The loss of values: the objectives' losses, weighted and summed."""
    return sum(o.weight * loss for o, loss in zip(spec.objectives, objective_losses(spec, values, metrics)))


def objective_metrics(sc, spec):
    """{metric key: Metric} of the objectives in sc, one configuration (its even share depends on its players)."""
    return {o.metric: M.metric_for(sc.game, len(sc.seats), len(sc.arms), o.metric) for o in spec.objectives}


def settings_key(values):
    """values ({path: value}) as a key that two trials of the same settings share."""
    return tuple(sorted(values.items(), key=str))


def trial_raw(base_raw, values):
    """The scenario dict of one trial: the tune scenario's, its settings set to values."""
    raw = {k: copy.deepcopy(v) for k, v in base_raw.items() if k not in TRIAL_DROPS}
    for path, value in values.items():
        set_path(raw, path, value)
    return raw


def _distributions(spec):
    import optuna.distributions as D

    out = {}
    for s in spec.settings:
        if s.kind == "choice":
            out[s.path] = D.CategoricalDistribution(list(s.choices))
        elif s.kind == "int":
            out[s.path] = D.IntDistribution(s.low, s.high, step=s.step or 1, log=s.log)
        else:
            out[s.path] = D.FloatDistribution(s.low, s.high, step=s.step, log=s.log)
    return out


def _sampler(spec, seed):
    import optuna

    seed = int(seed % 2**32)
    if spec.sampler == "tpe":
        return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=RANDOM_FIRST)
    if spec.sampler == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed)
    if spec.sampler == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=POPULATION)
    return optuna.samplers.RandomSampler(seed=seed)


def new_study(spec, seed, storage=None, name="tune"):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():  # (Optuna marks the Wilcoxon pruner experimental: its interface may change)
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        pruner = (optuna.pruners.NopPruner() if spec.pareto or spec.blocks < 2 else
                  optuna.pruners.WilcoxonPruner(p_threshold=PRUNE_P, n_startup_steps=PRUNE_AFTER))
    directions = ["minimize"] * (len(spec.objectives) if spec.pareto else 1)
    return optuna.create_study(storage=storage, study_name=name, sampler=_sampler(spec, seed), pruner=pruner,
                               directions=directions, load_if_exists=storage is not None)


class _BlockSums:
    """One block's sums of a group's summary (the difference of two snapshots): what metrics read for a value."""

    def __init__(self, summary, sums, n):
        self.index, self.sums, self.n = summary.index, sums, n

    def s(self, name):
        return int(self.sums[self.index[name]])


def block_values(metrics, rotations, group_summary, sums, n):
    """{metric key: value} of one block of deals (its group's sums over the block, n deals)."""
    view = _BlockSums(group_summary, sums, n)
    return {key: M.value_of(metric, view, rotations) for key, metric in metrics.items()}


def play_trial(trial, base_raw, source, spec, seed, threads, interrupts, optuna_trial=None, metric_defs=None,
               cluster=None):
    """Play the trial's deals in blocks (all of them, or until pruned or a signal); fills trial in place. Every trial
    plays the same game indices, 0 .. spec.games - 1, of the same seed: block b is indices b x block_games onward.
    cluster: a DaskBlocks that plays the blocks on Dask workers instead of this process's threads (the same
    block sums, so the same trial)."""
    from analyzer import scenario as scen

    raw = trial_raw(base_raw, trial.values)
    raw["seed"] = derived_seed(seed, TRIALS_STREAM)
    raw["games"] = spec.games
    try:
        sc = scen.build(raw, source)
    except ScenarioError as e:
        trial.state, trial.note = "invalid", f"{e.key} = {e.value}: {e.allowed}"
        return trial
    trial.block_games = spec.block_games
    metrics = objective_metrics(sc, spec)  # (the trial's own: its player count may be searched)
    if metric_defs is not None:
        for key, metric in metrics.items():
            metric_defs.setdefault(key, metric)

    def take(summary, sums, n):
        """One block's sums: its values and loss into the trial; True if the pruner stops the trial here."""
        values = block_values(metrics, len(sc.arms), summary, sums, n)
        trial.metric_blocks.append(values)
        trial.blocks += 1
        loss = weighted_loss(spec, values, metrics)
        trial.losses.append(loss)
        b = trial.blocks - 1
        if optuna_trial is not None and not spec.pareto and spec.blocks > 1:
            optuna_trial.report(loss, b)
            if b < spec.blocks - 1 and optuna_trial.should_prune():  # (after the last block it is complete)
                trial.state = "pruned"
                return True
        return False

    if cluster is not None:
        if not cluster.play(raw, source, spec, take, interrupts):
            trial.state = "stopped"
        return trial
    before = {"sums": None, "n": 0}

    def on_block(played, tally):
        summary = tally.summaries[0]
        sums = summary.sums.copy()
        delta = sums if before["sums"] is None else sums - before["sums"]
        n = summary.n - before["n"]
        before.update(sums=sums, n=summary.n)
        return take(summary, delta, n)

    result = runner.run(sc, games=spec.games, threads=threads, progress=False, interrupts=interrupts,
                        block=spec.block_games, on_block=on_block)
    if result.partial:  # a signal: the trial is not whole, and so not counted
        trial.state = "stopped"
    return trial


class DaskBlocks:
    """A tune's trials played on a Dask cluster (--workers: a local one; --scheduler: a running one): each block of a
    trial is a task (analyzer.distributed.play_task on its game indices), all submitted at once and taken in block
    order, so the trial's values, pruning included, are those of a trial played in this process; the blocks after a
    prune are cancelled."""

    def __init__(self, workers=None, scheduler=None, threads=None):
        from analyzer import distributed

        distributed.require_dask()
        self.client, self.cluster = distributed.connect(scheduler, workers)
        self.threads = threads or (1 if self.cluster is not None else None)  # (one thread per local worker)

    def play(self, raw, source, spec, take, interrupts):
        """Play raw's blocks, handing each block's (summary, sums, n) to take in order until it returns True;
        False if a signal came first."""
        from distributed import wait

        from analyzer.distributed import play_task

        key = f"{source}:{hash(repr(raw))}"
        k = spec.block_games
        futures = [self.client.submit(play_task, raw, source, key, b * k, k, None, self.threads, pure=False)
                   for b in range(spec.blocks)]
        try:
            for future in futures:
                while not future.done():
                    if interrupts is not None and interrupts.signal is not None:
                        return False
                    try:  # (wakes twice a second, so that Ctrl-C is honoured while a block plays)
                        wait([future], timeout=0.5)
                    except TimeoutError:
                        pass
                summary = future.result()[0].summaries[0]
                if take(summary, summary.sums, summary.n):
                    break
            return True
        finally:
            for future in futures:
                future.cancel()

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _record(trial):
    """What the study's storage keeps of a played trial (a resumed tune reads it back: Trial(**record))."""
    return {"number": trial.number, "values": trial.values, "state": trial.state, "blocks": trial.blocks,
            "metric_blocks": trial.metric_blocks, "losses": trial.losses, "note": trial.note,
            "block_games": trial.block_games}


def scenario_key(sc):
    """What a study file must have been made by to be resumed: the scenario (its [tune] budget aside) and seed."""
    import hashlib
    import json

    raw = {k: v for k, v in sc.raw.items() if k != "tune"}
    raw["tune"] = {k: v for k, v in sc.raw["tune"].items() if k != "trials"}
    return hashlib.sha1(json.dumps([raw, sc.seed], sort_keys=True, default=str).encode()).hexdigest()


def open_study(sc, spec, path):
    """The study of a tune: in memory (path None), or in the journal file at path, created or resumed; a file made
    by another scenario (or seed) is refused (ScenarioError on --study)."""
    storage = None
    if path is not None:
        from optuna.storages import JournalStorage
        from optuna.storages.journal import JournalFileBackend

        storage = JournalStorage(JournalFileBackend(str(path)))
    study = new_study(spec, sc.seed, storage)
    key = study.user_attrs.get("scenario")
    if key is None:
        study.set_user_attr("scenario", scenario_key(sc))
    elif key != scenario_key(sc):
        raise ScenarioError(sc.source, "--study", str(path), "holds the trials of another scenario or seed: give a new "
                                                             "file, or the scenario that made it")
    return study


def search(sc, spec, *, threads=None, interrupts=None, on_trial=None, study_path=None, cluster=None):
    """Play the rulebook, then the trials the sampler proposes up to spec.trials in all (fewer if a signal comes), and
    return the TuneRun. on_trial(trial): called after each trial (progress). study_path: a journal file that keeps
    the study; the trials already in it are taken as played (a resumed tune plays on where it stopped, the same
    trials as one never stopped: each trial's sampler is seeded by its number)."""
    from optuna.trial import TrialState, create_trial

    base_raw = sc.raw
    study = open_study(sc, spec, study_path)
    distributions = _distributions(spec)
    run = TuneRun(spec, [], study)
    kept = study.user_attrs.get("rulebook")
    if kept is not None:
        rulebook = Trial(**kept)
        run.metric_defs.update(objective_metrics(sc, spec))
    else:
        rulebook = play_trial(Trial(0, rulebook_values(sc, spec)), base_raw, sc.source, spec, sc.seed, threads,
                              interrupts, metric_defs=run.metric_defs, cluster=cluster)
    run.trials.append(rulebook)
    if on_trial and kept is None:
        on_trial(rulebook)
    if rulebook.state == "stopped":
        run.stopped_by = interrupts.signal if interrupts else None
        return run
    if kept is None:
        in_range = all(distributions[p]._contains(distributions[p].to_internal_repr(v))
                       for p, v in rulebook.values.items())
        if rulebook.state == "complete" and in_range:  # the sampler learns from it; the pruner compares with it
            values = run.objective_losses(rulebook) if spec.pareto else run.loss(rulebook)
            study.add_trial(create_trial(params=rulebook.values, distributions=distributions,
                                         values=values if spec.pareto else None,
                                         value=None if spec.pareto else values,
                                         intermediate_values=dict(enumerate(rulebook.losses))))
        study.set_user_attr("rulebook", _record(rulebook))
    resumed = sorted((t.user_attrs["record"] for t in study.trials if "record" in t.user_attrs),
                     key=lambda r: r["number"])
    run.trials += [Trial(**r) for r in resumed]
    for number in range(len(run.trials), spec.trials):
        study.sampler = _sampler(spec, derived_seed(sc.seed, SAMPLER_STREAM + number))
        asked = study.ask(distributions)
        trial = Trial(number, dict(asked.params))
        played = next((t for t in run.trials if t.values == trial.values and t.state in ("complete", "invalid")), None)
        if played is not None:  # the sampler proposed settings already played whole: the same deals, the same games
            trial = replace(played, number=number,
                            note=played.note or f"the settings of trial {played.number}: its games, not played again")
        else:
            play_trial(trial, base_raw, sc.source, spec, sc.seed, threads, interrupts, asked, run.metric_defs, cluster)
        run.trials.append(trial)
        if trial.state != "stopped":
            asked.set_user_attr("record", _record(trial))
        if trial.state == "complete":
            study.tell(asked, run.objective_losses(trial) if spec.pareto else run.loss(trial))
        elif trial.state == "pruned":
            study.tell(asked, state=TrialState.PRUNED)
        else:  # invalid settings, or stopped by a signal (not kept: a resumed tune plays it again)
            study.tell(asked, state=TrialState.FAIL)
        if on_trial:
            on_trial(trial)
        if trial.state == "stopped":
            run.trials.pop()
            run.stopped_by = interrupts.signal if interrupts else None
            break
    return run
