"""Every shipped scenario gives the same summary.csv as when the digests were stored, byte for byte: a
change of how the games are played, folded or summed up that moves any result fails here.

The digests (tests/golden/summary_digests.json) were taken at a small number of deals per scenario. After a
change meant to alter results (a rule fixed, a policy changed), regenerate them with
ANALYZER_UPDATE_DIGESTS=1 pytest tests/test_summary_digests.py, and say in the commit which moved and why."""
import csv
import hashlib
import io
import json
import os
from pathlib import Path

import pytest

from analyzer.report import write_summary
from analyzer.report.sections import summary_rows
from analyzer.runner import run
from analyzer.scenario import load

ROOT = Path(__file__).parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
DIGESTS = Path(__file__).parent / "golden" / "summary_digests.json"
DEALS = 600
# scenarios whose every seat searches at one skill level (seconds per hundred deals), and Bards' ladder (its search
# rung): fewer deals, their digests stored at this count (every level, rung and metric is still summed up)
DEALS_OF = {"noize-first-player-by-skill": 60, "bards-first-player-by-skill": 60,
            "distance-first-player-by-skill": 120, "fightsong-first-team-by-skill": 120, "bards-ladder": 200}
# a [stop] table looks first at min_games: small runs look at DEALS / 2 and stop there or at DEALS
STOP = [("stop.min_games", DEALS // 2, "test"), ("stop.max_games", DEALS, "test")]


# summary.csv's columns when the digests were stored, digested as written then; the columns added since (level,
# baseline: issue 28) say which group a row compares with, not what was measured. Only the rows of kind "metric" are
# digested: the kind column and the card power rows (issue 29) came later, and are read from the same sums
DIGESTED = ["group", "metric", "label", "value", "ci_low", "ci_high", "diff_vs_baseline", "diff_low", "diff_high",
            "games", "partial"]


def digest(path, tmp_path):
    sc = load(path, [("games", DEALS_OF.get(path.stem, DEALS), "test")] + (STOP if "stop" in load(path).raw else []))
    result = run(sc, progress=False, threads=1)
    out = tmp_path / "summary.csv"
    write_summary(result, summary_rows(result), out)
    with open(out, newline="") as f:
        rows = list(csv.reader(f))
    keep = [rows[0].index(c) for c in DIGESTED]
    kind = rows[0].index("kind")
    text = io.StringIO()
    csv.writer(text).writerows([row[i] for i in keep] for row in rows[:1] + [r for r in rows[1:] if r[kind] == "metric"])
    return hashlib.sha256(text.getvalue().encode()).hexdigest()


@pytest.fixture(scope="module")
def stored():
    return json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_shipped_scenario_sums_up_as_before(path, tmp_path, stored):
    got = digest(path, tmp_path)
    if os.environ.get("ANALYZER_UPDATE_DIGESTS"):
        stored[path.stem] = got
        DIGESTS.write_text(json.dumps(dict(sorted(stored.items())), indent=1) + "\n")
        return
    assert path.stem in stored, f"no stored digest for {path.name}: run with ANALYZER_UPDATE_DIGESTS=1"
    assert got == stored[path.stem], f"{path.name}: summary.csv changed"


def test_every_stored_digest_has_its_scenario(stored):
    assert set(stored) == {p.stem for p in SCENARIOS}
    assert set(DEALS_OF) <= set(stored)
