"""Every shipped scenario's report opens with its answer (issue 29): in report.md a `## Answer` section right
under the title, and in index.html a <section id="answer"> before any table, each holding a figure with its 95%
interval in words and the picture that shows it. Small runs: what is checked is the report's shape, not its
figures (tests/test_summary_digests.py holds those).

The answer's picture is drawn and saved; every other picture of the report is built and laid out on the report's
data (analyzer/report/plots.py's code: `_draw_<kind>`) but not rasterised, its PNG a placeholder: saving the 424
pictures of the shipped reports was three quarters of this file's time (each kind is saved by
tests/test_plot_layout.py, and the command's reports by tests/test_cli.py and tests/test_signals.py)."""
import re
from pathlib import Path

import pytest

from analyzer.report import figures, plots, write_report
from analyzer.runner import run
from analyzer.scenario import load

ROOT = Path(__file__).parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
DEALS = 60
# the skill scenarios, whose every seat searches at one level (most of this file's play at 60 deals): 20 deals a level
FEWER = {"noize-first-player-by-skill": 20, "bards-first-player-by-skill": 20, "distance-first-player-by-skill": 20,
         "fightsong-first-team-by-skill": 20}
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


PLACEHOLDER = b"\x89PNG\r\n\x1a\n(laid out, not rasterised)"


@pytest.fixture
def laid_out(monkeypatch):
    """figures drawn as figures._draw would, but laid out only (a placeholder file): {path: the job}."""
    jobs = {}

    def lay_out(kind, path, args, kwargs):
        plots.plt.close(getattr(plots, f"_draw_{kind}")(*args, **kwargs))
        Path(path).write_bytes(PLACEHOLDER)
        jobs[Path(path)] = (kind, path, args, kwargs)
        return path

    monkeypatch.setattr(figures, "_draw", lay_out)
    return jobs


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_shipped_report_answers_first(path, tmp_path, laid_out, monkeypatch):
    raw_stop = "stop" in load(path).raw
    overrides = ([("games", STOP_DEALS, "test"), ("stop.min_games", STOP_DEALS // 2, "test"),
                  ("stop.max_games", STOP_DEALS, "test")] if raw_stop else [("games", FEWER.get(path.stem, DEALS), "test")])
    sc = load(path, overrides)
    write_report(run(sc, progress=False, threads=1), tmp_path)
    answer = answer_of_markdown((tmp_path / "report.md").read_text())
    assert "**Question**:" in answer
    assert INTERVAL.search(answer), answer  # a figure with its interval
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", answer)
    assert len(pictures) == 1 and (tmp_path / pictures[0]).exists(), pictures
    monkeypatch.undo()
    figures._draw(*laid_out[tmp_path / pictures[0]])  # (the answer's picture, drawn and saved)
    png = (tmp_path / pictures[0]).read_bytes()
    assert png[:8] == PLACEHOLDER[:8] and png != PLACEHOLDER
    assert "**Skill of the bots**" in answer  # the bots a verdict rests on
    page = (tmp_path / "index.html").read_text()
    start = page.index("<section id='answer'>")
    assert "<table" not in page[:start] and "<details" not in page[:start]
    section = page[start:page.index("</section>", start)]
    assert "<img" in section and "95%" in section
