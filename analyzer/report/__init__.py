"""Write a run's report folder: index.html (self-contained), report.md, PNG plots, summary.csv,
manifest.json."""
from __future__ import annotations

import csv
import datetime as dt
import json
import os
import shutil
from pathlib import Path

from analyzer import __version__
from analyzer.report.blocks import Heading, Text, to_html, to_markdown
from analyzer.report.sections import build_blocks
from analyzer.runner import slug


def signal_name(signum):
    import signal

    return signal.Signals(signum).name


def default_dir(sc, root="reports", name=None):
    """reports/<scenario file name (or name)>-<time>"""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(root) / f"{slug(name or Path(sc.source).stem)}-{stamp}"


class OutError(Exception):
    """The report folder cannot be used (said before any game is played)."""


def prepare_out(out_dir) -> Path:
    """Check that the report folder can be written and make the temporary folder beside it that the
    report is written into (renamed into place by commit_out once complete).

    An existing folder is replaced whole only if it holds an analyzer report (manifest.json) or is empty."""
    out = Path(out_dir)
    if out.exists():
        if not out.is_dir():
            raise OutError(f"{out} exists and is not a folder")
        if any(out.iterdir()) and not (out / "manifest.json").exists():
            raise OutError(f"{out} exists, is not empty and holds no analyzer report: it would be replaced whole; "
                           f"choose a new or empty folder")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.parent / f".{out.name}.writing-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir()
    except OSError as e:
        raise OutError(f"{out} cannot be created: {e.strerror or e}") from None
    return tmp


def commit_out(tmp, out_dir):
    """Put the finished report folder tmp in place of out_dir (an older report there is replaced whole)."""
    out = Path(out_dir)
    old = None
    if out.exists():
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        out.rename(old)
    Path(tmp).rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return out


def manifest(result, command=None):
    sc = result.scenario
    return {
        "scenario_file": sc.source,
        "scenario": sc.raw,
        "game": sc.game.name,
        "seed": sc.seed,
        "games_requested": sc.games if result.games_requested is None else result.games_requested,
        "games_played": result.games,
        "arms": [a.label for a in sc.arms],
        "warnings": list(sc.warnings),  # values written that cannot change any game (analyzer/idle_settings.py)
        "partial": result.partial,
        "stop_reason": result.stop_reason,
        "stopped_by": None if result.stopped_by is None else signal_name(result.stopped_by),
        "analyzer_version": __version__,
        "wall_seconds": round(result.wall, 3),
        "games_per_second": round(result.games_per_second, 1),
        "threads": result.threads,
        "workers": result.workers,
        "task_seconds_median": (round(sorted(result.task_seconds)[len(result.task_seconds) // 2], 3)
                                if result.task_seconds else None),
        "chunk_size": result.chunk_size,
        "command": command,
        "created": dt.datetime.now().isoformat(timespec="seconds"),
        "parquet": [Path(p).name for p in result.parquet],  # files, or dataset folders with --workers
    }


def write_report(result, out_dir, command=None):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    man = manifest(result, command)
    blocks, rows = build_blocks(result, out, man)
    title = f"{result.scenario.name}: balance report"
    (out / "index.html").write_text(to_html(title, [Heading(title, 1)] + blocks))
    (out / "report.md").write_text(to_markdown([Heading(title, 1)] + blocks))
    with open(out / "summary.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "metric", "label", "value", "ci_low", "ci_high", "diff_vs_baseline", "diff_low",
                    "diff_high", "games", "partial"])
        w.writerows(row + [result.games, result.partial] for row in rows)
    (out / "manifest.json").write_text(json.dumps(man, indent=2, default=str))
    return out
