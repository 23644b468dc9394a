"""Write a run's report folder: index.html (self-contained), report.md, PNG plots, summary.csv,
manifest.json."""
from __future__ import annotations

import csv
import datetime as dt
import json
import os
import re
import shutil
from pathlib import Path

from analyzer import __version__
from analyzer.report import figures
from analyzer.report.blocks import Details, Heading, Text, to_html, to_markdown
from analyzer.textfiles import TextFileError, read_text, slug

# (the sections are imported where used: `analyzer run` imports this package as it starts, and its figure
# process imports analyzer.report.plots: neither needs the kernels and the games these bring)


def signal_name(signum):
    import signal

    return signal.Signals(signum).name


def default_dir(sc, root="reports", name=None):
    """reports/<scenario file name (or name)>-<time>"""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(root) / f"{slug(name or Path(sc.source).stem)}-{stamp}"


class OutError(Exception):
    """The report folder cannot be used (said before any game is played)."""


# what a report folder written before manifests listed their files holds (see foreign_files)
OLD_REPORT_FILES = ("index.html", "report.md", "summary.csv", "manifest.json", "*.png", "games.parquet",
                    "games-*.parquet", "games-*")


def foreign_files(out: Path) -> list[str]:
    """The names in an existing folder that no analyzer report wrote: all but the files its manifest lists
    (for a manifest of an older version, which lists none: all but the files such a report holds)."""
    import fnmatch

    names = sorted(p.name for p in out.iterdir())
    if "manifest.json" not in names:
        return names
    try:
        data = json.loads(read_text(out / "manifest.json", 10_000_000, "report manifest"))
    except (TextFileError, ValueError):
        return names  # not a manifest of ours
    if not isinstance(data, dict) or "analyzer_version" not in data:
        return names
    listed = data.get("files")
    if isinstance(listed, list):
        return [n for n in names if n not in listed and n != "manifest.json"]
    return [n for n in names if not any(fnmatch.fnmatch(n, pattern) for pattern in OLD_REPORT_FILES)]


def prepare_out(out_dir) -> Path:
    """Check that the report folder can be written and make the temporary folder beside it that the
    report is written into (renamed into place by commit_out once complete).

    An existing folder is replaced only if it is empty or holds nothing but an analyzer report: the files
    its manifest lists. Anything else there (a scenario, a deck, a thesis) means a refusal, before any game
    is played."""
    out = Path(out_dir)
    if out.exists() or out.is_symlink():
        if not out.is_dir() or out.is_symlink():
            raise OutError(f"{out} exists and is not a folder")
        try:
            foreign = foreign_files(out)
        except OSError as e:
            raise OutError(f"{out} cannot be read: {e.strerror or e}") from None
        if foreign:
            shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5:,} more" if len(foreign) > 5 else "")
            raise OutError(f"{out} holds files that no analyzer report wrote ({shown}): the report would replace "
                           f"the folder; choose a new or empty folder")
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


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may read as the start of a formula
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value):
    """A CSV cell that a spreadsheet opens as the text it is: text starting like a formula (=, +, -, @, tab,
    CR: e.g. a variant named '=HYPERLINK(...)' or '-2+3') gets a leading ' (the usual defence against CSV
    injection); numbers, and text that is just a number such as "-1.2", are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def write_csv(path, header, rows):
    """Every CSV the analyzer writes goes through here, each cell through csv_cell."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([csv_cell(c) for c in header])
        w.writerows([csv_cell(c) for c in row] for row in rows)


def build_blocks(result, out, manifest):
    """(the report's blocks, the rows of summary.csv): the introduction, one group's sections or the
    comparison's, where every game's rows are (--keep-games), the manifest."""
    from analyzer.report import sections, skill
    from analyzer.report.answer import answer_section
    from analyzer.report.comparison import comparison_sections

    if "levels" in result.scenario.comparison:  # [skill]: the verdict by level is the answer, each level's report below
        return (skill.answer_section(result, out) + sections.intro(result, out) + skill.level_details(result, out)
                + sections.parquet_section(result, out) + _reproduce(manifest), sections.summary_rows(result))
    if result.scenario.comparison.get("kind") == "single" or len(result.groups) == 1:
        body = sections.intro(result, out) + sections.group_sections(result, result.groups[0], out, prefix="")
    else:
        body = sections.intro(result, out) + comparison_sections(result, out)
    first = answer_section(result, out, body)  # (takes its picture out of the body)
    return first + body + sections.parquet_section(result, out) + _reproduce(manifest), sections.summary_rows(result)


def _reproduce(manifest):
    from analyzer.report import sections

    blocks = sections.manifest_section(manifest)
    return [Details("Reproduce this report: the command, seed, version and speed", blocks[1:])]


def write_pages(out, title, blocks):
    """report.md and index.html of a report folder: its title, then its blocks. index.html embeds the pictures:
    it waits for any still being drawn (analyzer.report.figures)."""
    (out / "report.md").write_text(to_markdown([Heading(title, 1)] + blocks))
    figures.done()
    (out / "index.html").write_text(to_html(title, [Heading(title, 1)] + blocks))


def write_manifest(out, man):
    """manifest.json, written last: it lists the files of the folder, so that a later run may replace them and
    nothing else."""
    man["files"] = sorted(p.name for p in out.iterdir()) + ["manifest.json"]
    (out / "manifest.json").write_text(json.dumps(man, indent=2, default=str))


def reproduce_details(command, seed, threads, wall):
    """The folded block that ends a tune's or a profile's report: the command, seed, version, threads and time."""
    return Details("Reproduce this report: the command, seed and version",
                   [Text(command, "code"),
                    Text(f"seed {seed}; analyzer {__version__}; {threads} thread(s); {wall:.1f} s")])


def pages(result, out, man):
    """(title, blocks, summary.csv rows, {file name: what writes it, given its path}) of a run's report, its plots
    drawn into out: the strength curve's (with strength.csv and curve.json) or the balance report's."""
    from analyzer.report import sections
    from analyzer.report.strength import CSV_COLUMNS, strength_report

    if result.scenario.comparison.get("kind") == "strength":  # (the answer first: analyzer/report/strength.py)
        title, blocks, curve_rows, record = strength_report(result, out, man)
        return (title, blocks, sections.summary_rows(result),
                {"strength.csv": lambda path: write_csv(path, CSV_COLUMNS, curve_rows),
                 "curve.json": lambda path: path.write_text(json.dumps(record, indent=2))})
    blocks, rows = build_blocks(result, out, man)
    return f"{result.scenario.name}: balance report", blocks, rows, {}


def write_report(result, out_dir, command=None):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    man = manifest(result, command)
    title, blocks, rows, files = pages(result, out, man)
    for name, write in files.items():
        write(out / name)
    write_pages(out, title, blocks)
    write_summary(result, rows, out / "summary.csv")
    write_manifest(out, man)
    return out


SUMMARY_COLUMNS = ["group", "level", "kind", "metric", "label", "value", "ci_low", "ci_high", "baseline",
                   "diff_vs_baseline", "diff_low", "diff_high", "games", "partial"]


def summary_table(result, rows):
    """summary.csv's rows (SUMMARY_COLUMNS) from sections.summary_rows: every metric of every group with its
    interval, then its card power."""
    by_label = {g.label: g for g in result.groups}
    deals = {g.label: g.summary.n for g in result.groups}  # (a strength curve's settled pairing played fewer)

    def framed(row):  # the group's skill level after its label, and the group its difference is from
        kind, label, games = row[0], row[1], row[-1]
        g = by_label.get(label)
        level = g.level if g is not None else ""
        baseline = g.reference.label if g is not None and g.reference is not None and kind == "metric" else ""
        games = deals.get(label, result.games) if games is None else games
        return [label, level, kind] + row[2:7] + [baseline] + row[7:10] + [games, result.partial]
    return [framed(row) for row in rows]


def write_summary(result, rows, path):
    """summary.csv (summary_table's rows)."""
    write_csv(path, SUMMARY_COLUMNS, summary_table(result, rows))
