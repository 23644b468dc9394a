"""analyzer/report/figures.py: figures drawn by a second process (`analyzer run`) are written before done() returns,
without matplotlib in the command's own process; a figure the process did not draw (it was killed) is drawn
here; a figure's error is raised where the command waits; outside drawn_aside a figure is drawn at once.

The drawing process is forked only from a process with no other thread (pytest-xdist's workers have some), so
the script runs in a process of its own. A process that has imported numpy (this one) draws its figures itself."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from analyzer.report import figures

SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from analyzer.report import figures

    out = Path(sys.argv[1])
    counts = [("", [0, 3, 5, 2])]  # (numpy is not imported yet: drawn_aside imports it before it forks)
    with figures.drawn_aside():
        assert figures._aside is not None, "no drawing process"
        drawn = figures.histograms(out / "aside.png", counts, "Turns per game", "turns")
        figures.done()
        assert drawn.exists() and "matplotlib" not in sys.modules, "drawn here, not aside"
        figures.histograms(out / "never.png", counts, "Turns per game", "turns", "an argument too many")
        try:
            figures.done()
        except TypeError as e:
            print("raised:", e)
        os.kill(figures._aside.process.pid, signal.SIGKILL)
        figures._aside.process.join()
        figures.histograms(out / "after_kill.png", counts, "Turns per game", "turns")
        figures.done()
    assert figures._aside is None
""")


def test_figures_drawn_aside_are_written_before_done_returns(tmp_path):
    script = tmp_path / "aside.py"
    script.write_text(SCRIPT)
    root = Path(__file__).resolve().parent.parent
    p = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(root)})
    assert p.returncode == 0, p.stderr
    for name in ("aside.png", "after_kill.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    assert "raised: histograms() takes 4 positional arguments but 5 were given" in p.stdout
    assert not (tmp_path / "never.png").exists()


def test_outside_drawn_aside_a_figure_is_drawn_at_once(tmp_path):
    with figures.drawn_aside():
        assert figures._aside is None, "forked from a process with numpy (and its threads) loaded"
    path = figures.histograms(tmp_path / "here.png", [("", np.array([0, 3, 5, 2]))], "Turns per game", "turns")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


SKILL_LEVELS = """name = "skill levels, their figures drawn aside"
game = "noize"
games = 40
seed = 1
players = 4

[skill]
levels = ["random", "threshold"]
"""


def test_a_skill_report_moves_each_level_s_figures_once_they_are_drawn(tmp_path):
    """`analyzer run` in a process of its own (so that its figures are drawn aside): a skill report writes each
    level's figures in a folder of its own and then moves them beside index.html, which must wait for them."""
    scenario = tmp_path / "skill.toml"
    scenario.write_text(SKILL_LEVELS)
    root = Path(__file__).resolve().parent.parent
    p = subprocess.run([sys.executable, "-m", "analyzer", "run", str(scenario), "-q", "--out", str(tmp_path / "r")],
                       capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(root)})
    assert p.returncode == 0, p.stderr
    for level in (0, 1):
        assert (tmp_path / "r" / f"level{level}-win_share.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "level1-win_share.png" in (tmp_path / "r" / "report.md").read_text()
