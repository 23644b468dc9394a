"""Write a run's report folder: index.html (self-contained), report.md, PNG plots, summary.csv,
manifest.json."""
from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

from analyzer import __version__
from analyzer.report.blocks import Heading, Text, to_html, to_markdown
from analyzer.report.sections import build_blocks
from analyzer.runner import slug


def default_dir(sc, root="reports"):
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(root) / f"{slug(Path(sc.source).stem)}-{stamp}"


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
        "partial": result.partial,
        "analyzer_version": __version__,
        "wall_seconds": round(result.wall, 3),
        "games_per_second": round(result.games_per_second, 1),
        "threads": result.threads,
        "chunk_size": result.chunk_size,
        "command": command,
        "created": dt.datetime.now().isoformat(timespec="seconds"),
        "parquet": [Path(p).name for p in result.parquet],
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
                    "diff_high"])
        w.writerows(rows)
    (out / "manifest.json").write_text(json.dumps(man, indent=2, default=str))
    return out
