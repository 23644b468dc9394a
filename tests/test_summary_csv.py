"""summary.csv as data a designer can reuse (issue 29): its kind column, and the card power rows that hold the
report's "Card power" table, figure for figure."""
import csv
import re

from analyzer.report import write_report
from analyzer.runner import run
from analyzer.scenario import from_dict
from analyzer.stats import pct, signed_points

BARDS = {"game": "bards", "games": 400, "seed": 29, "players": 2, "all_seats": {"policy": "greedy"}}


def report(tmp_path, raw):
    """(summary.csv's rows as dicts, report.md) of a scenario's run."""
    write_report(run(from_dict(raw), progress=False, threads=1), tmp_path)
    with open(tmp_path / "summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return rows, (tmp_path / "report.md").read_text()


def table_rows(md, heading):
    """The cells of each body row of the first table after the heading (or folded section) `heading`."""
    lines = md[md.index(heading):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    out = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        out.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return out


def test_card_power_rows_hold_the_figures_of_the_reports_table(tmp_path):
    rows, md = report(tmp_path, BARDS)
    assert {r["kind"] for r in rows} == {"metric", "card_power"}
    assert all(r["games"] == "400" for r in rows if r["kind"] == "metric")
    power = [r for r in rows if r["kind"] == "card_power"]
    assert all(r["diff_vs_baseline"] == r["diff_low"] == r["diff_high"] == "nan" and r["baseline"] == "" for r in power)
    any_seat, = [r for r in power if r["metric"] == "card_power.any_seat"]
    assert any_seat["label"] == "any seat" and any_seat["games"] == str(2 * 400)
    table = {cells[0]: cells[1:] for cells in table_rows(md, "Card power: what a seat was dealt")}
    cats = [r for r in power if r is not any_seat]
    assert len(cats) == len(table) >= 5
    for r in cats:
        p, lo, hi = float(r["value"]), float(r["ci_low"]), float(r["ci_high"])
        assert table[r["label"]] == [f"{int(r['games']):,}", f"{pct(p)} ({pct(lo)} to {pct(hi)})",
                                     f"{signed_points(p - float(any_seat['value']))} pts"]
        assert re.fullmatch(r"card_power\.[a-z0-9_]+\.[a-z0-9_]+", r["metric"]), r["metric"]
    # each declaration's categories split every seat-game: their counts add up to two seats x 400 deals
    for decl in ("best_setup_card", "the_bard_or_the_excuse_in_its_tales"):
        assert sum(int(r["games"]) for r in cats if r["metric"].startswith(f"card_power.{decl}.")) == 800
    crown, = [r for r in cats if r["metric"] == "card_power.best_setup_card.a_crown_10"]
    assert crown["label"] == "Best setup card: a Crown (10)"


def test_no_card_power_rows_where_the_report_has_no_card_power(tmp_path):
    # Bards' categories depend on the players' choices: with seat rotations the report cannot show them
    rows, md = report(tmp_path, {**BARDS, "rotate_seats": True})
    assert "Not shown with seat rotations" in md
    assert rows and {r["kind"] for r in rows} == {"metric"}
