"""Practical margins: how large a difference must be to matter to a designer, per metric.

A difference can be real (its 95% interval excludes zero) and still too small to care about: 0.01 points of
win share in a million deals. Every metric has a margin in its own units, from its kind unless the scenario's
`[margins]` table names the metric itself:

    [margins]
    shares = 1          # win shares and every other rate, in points (default 1)
    scores = 1          # scores, final margins, comebacks, per-hand points, in the game's points (default 1)
    counts = 0.5        # everything else per game: turns, rounds, hands, cards, bids, lead changes (default 0.5)
    length = 1          # or one metric by its key (`analyzer games GAME` lists them), in its own units

`practical_margin = X` (older scenarios) is the same as `[margins] shares = X`.

A difference then gets one of three verdicts (`verdict`): it matters (real, and its estimate is at least the
margin), it is real but below the margin, or it is not shown (the interval includes zero).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from analyzer.errors import ScenarioError

KINDS = {"shares": (1.0, "win shares and other rates, in points"),
         "scores": (1.0, "scores, final margins, comebacks and per-hand points, in the game's points"),
         "counts": (0.5, "other per-game numbers (turns, rounds, hands, cards, bids, lead changes), in their units")}
MAX_MARGIN = 1e6
SCORE_KEYS = ("score_", "seat_points_", "final_margin", "comeback", "points_per_length")


def kind_of(metric) -> str:
    """The kind whose default margin a metric takes (shares: any rate, shown in %)."""
    if metric.percent:
        return "shares"
    return "scores" if metric.key.startswith(SCORE_KEYS) else "counts"


def parse(raw: dict, source: str, metric_keys) -> dict:
    """{kind or metric key: margin in the metric's units (rates as fractions)} from [margins] and
    practical_margin; every kind present. metric_keys: {key: Metric} of the scenario's game."""
    table = raw.get("margins", {})
    if not isinstance(table, dict):
        raise ScenarioError(source, "margins", table, "must be a table, e.g. [margins] shares = 1")
    if "practical_margin" in raw and "shares" in table:
        raise ScenarioError(source, "practical_margin", raw["practical_margin"],
                            "is the same as [margins] shares, which is set too: keep one")
    given = dict(table)
    if "practical_margin" in raw:
        given["shares"] = raw["practical_margin"]
    out = {kind: default for kind, (default, _) in KINDS.items()}
    for key, value in given.items():
        where = "practical_margin" if key == "shares" and "practical_margin" in raw else f"margins.{key}"
        if key not in KINDS and key not in metric_keys:
            raise ScenarioError(source, where, value,
                                "unknown margin; allowed: " + ", ".join(KINDS) + " or a metric key of the game "
                                "(`analyzer games GAME` lists them)")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_MARGIN \
                or math.isnan(value):
            unit = "points" if key == "shares" or (key in metric_keys and metric_keys[key].percent) else "units"
            raise ScenarioError(source, where, value, f"must be a number above 0 ({unit}), e.g. 1")
        out[key] = value
    # rates are kept as fractions, as the metrics compute them
    return {k: v / 100 if k == "shares" or (k in metric_keys and metric_keys[k].percent) else v
            for k, v in out.items()}


def margin_of(margins: dict, metric) -> float:
    """The practical margin of a metric, in its units (a fraction for rates)."""
    return margins.get(metric.key, margins[kind_of(metric)])


@dataclass(frozen=True)
class Verdict:
    word: str  # "matters", "below the margin", "not shown"
    text: str  # the plain words, e.g. "a real difference that matters"


MATTERS, BELOW, NOT_SHOWN = "matters", "below the margin", "not shown"


def verdict(d, lo, hi, margin) -> Verdict:
    """One of three verdicts on a difference d with 95% interval [lo, hi] against a practical margin."""
    if math.isnan(lo) or (lo <= 0 <= hi):
        return Verdict(NOT_SHOWN, "no difference shown")
    if abs(d) >= margin:
        sure = (lo > margin or hi < -margin)
        return Verdict(MATTERS, "a real difference that matters" if sure else
                       "a real difference that matters (the interval reaches below the margin: more deals would "
                       "settle it)")
    return Verdict(BELOW, "a real difference, but too small to matter")
