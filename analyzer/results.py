"""What a run gives back: a RunResult holding each group's GroupResult (its Summary, arms and reference
group) and how the run went (deals played, partial, timings, why it stopped). The report reads only these."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.comparisons import arm_groups
from analyzer.configs import Scenario
from analyzer.summary import Summary, Tally


@dataclass
class GroupResult:
    label: str
    players: int
    rotations: int
    arms: list
    summary: Summary
    reference: "GroupResult | None" = None  # the group its paired differences are taken from
    level: str = ""  # with [skill]: the skill level that played (the label of skill.levels' entry)


@dataclass
class RunResult:
    scenario: Scenario
    groups: list[GroupResult]
    games: int  # deals played (each by every arm)
    partial: bool
    wall: float
    threads: int
    chunk_size: int
    parquet: list[str] = field(default_factory=list)
    games_requested: int | None = None
    metric_sums: np.ndarray | None = None  # sweeps: the target metric's per-deal sum per group...
    metric_xtx: np.ndarray | None = None  # ...and cross products between all groups (paired comparisons)
    stopped_by: int | None = None  # the signal that stopped a partial run
    workers: int = 0  # Dask worker processes (0: played in this process)
    task_seconds: list = field(default_factory=list)  # with workers: each task's time on its worker
    stop_reason: str | None = None  # with [stop]: why the run stopped where it did

    @property
    def games_per_second(self):
        plays = sum(g.summary.n * g.rotations for g in self.groups)  # (a settled pairing plays fewer deals)
        return plays / self.wall if self.wall > 0 else float("nan")


def group_results(sc: Scenario, tally: Tally):
    """The GroupResults of a tally: each group's label, shape, arms and Summary, with its reference group."""
    groups = [GroupResult(label, len(arms[0].seats), len(arms), arms, summary)
              for label, arms, summary in zip(sc.groups, arm_groups(sc), tally.summaries)]
    for g, ref in zip(groups, tally.refs):
        g.reference = None if ref is None else groups[ref]
    levels = sc.comparison.get("levels")
    for g, li in zip(groups, sc.comparison.get("group_levels", ())):
        g.level = levels[li]
    return groups
