"""Every shipped scenario's report opens with its answer (issue 29): in report.md a `## Answer` section right
under the title, and in index.html a <section id="answer"> before any table, each holding a figure with its 95%
interval in words and the picture that shows it. Small runs: what is checked is the report's shape, not its
figures (tests/test_summary_digests.py holds those)."""
import re
from pathlib import Path

import pytest

from analyzer.report import write_report
from analyzer.runner import run
from analyzer.scenario import load

ROOT = Path(__file__).parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
DEALS = 60
STOP_DEALS = 200  # a [stop] table's max_games is at least 100: such a scenario looks at 100 deals and stops there or at 200
INTERVAL = re.compile(r"95% CI [-+]?\d|\(\d[\d.,]*%? to \d|\d[\d.]*% \(\d[\d.]*% to \d")


def answer_of_markdown(md):
    """The text of report.md's answer: from `## Answer`, which must be the first section, to the next section."""
    lines = md.splitlines()
    assert lines[0].startswith("# ")
    first = next(i for i, line in enumerate(lines) if line.startswith("## ") or line.startswith("<details>")
                 or line.startswith("|"))
    assert lines[first] == "## Answer", f"the report's first section is {lines[first]!r}"
    end = next((i for i in range(first + 1, len(lines)) if lines[i].startswith("## ") or lines[i].startswith("<details>")),
               len(lines))
    return "\n".join(lines[first:end])


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_shipped_report_answers_first(path, tmp_path):
    raw_stop = "stop" in load(path).raw
    overrides = ([("games", STOP_DEALS, "test"), ("stop.min_games", STOP_DEALS // 2, "test"),
                  ("stop.max_games", STOP_DEALS, "test")] if raw_stop else [("games", DEALS, "test")])
    sc = load(path, overrides)
    write_report(run(sc, progress=False, threads=1), tmp_path)
    answer = answer_of_markdown((tmp_path / "report.md").read_text())
    assert "**Question**:" in answer
    assert INTERVAL.search(answer), answer  # a figure with its interval
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", answer)
    assert len(pictures) == 1 and (tmp_path / pictures[0]).exists(), pictures
    assert "**Skill of the bots**" in answer  # the bots a verdict rests on
    page = (tmp_path / "index.html").read_text()
    start = page.index("<section id='answer'>")
    assert "<table" not in page[:start] and "<details" not in page[:start]
    section = page[start:page.index("</section>", start)]
    assert "<img" in section and "95%" in section
