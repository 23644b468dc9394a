"""Every plot kind of analyzer/report/plots.py, drawn with worst-case inputs of the shipped scenarios (long
variant names, many labels, 7x7 annotated cells): no two texts overlap, and no text leaves the figure.

The texts checked are those matplotlib actually draws (Text.draw is recorded during one canvas draw: tick
labels inside the view, axis labels, titles, legend texts, annotations, colour-bar labels), each by its
window extent (the axis-aligned bounding box)."""
import numpy as np
import pytest
from matplotlib.text import Text

from analyzer.report import plots

PAD = 0.5  # pixels: boxes that touch by less than this do not count as overlapping

# the variant names of scenarios/fightsong-targets.toml, whose report's tick labels overlapped
FS_VARIANTS = ["rulebook: target 28, step 6", "target 21", "target 35", "step 4", "step 8",
               "no Fight Song rounds (step 100)"]
LONG_LABELS = [f"{name}, {extra}" for name, extra in
               zip(["seconds", "thirds", "fourths", "fifths", "sixths", "sevenths"] * 2,
                   ["hand 7", "hand 9 with two wilds", "no passing", "pass left then right",
                    "draw until a play", "target 35, step 4"] * 2)]
POLICIES = ["random", "greedy", "lookahead depth 1", "lookahead depth 2 (pruned)", "search 64 iterations",
            "search 256 iterations", "search 1024 iterations, no rollouts"]


def drawn_texts(fig):
    """The non-empty texts one full draw of the figure renders, with their window extents."""
    drawn = {}
    original = Text.draw

    def recording(self, renderer):
        original(self, renderer)
        if self.get_visible() and self.get_text().strip():
            drawn[id(self)] = self

    Text.draw = recording
    try:
        fig.canvas.draw()
    finally:
        Text.draw = original
    renderer = fig.canvas.get_renderer()
    return [(t.get_text(), t.get_window_extent(renderer)) for t in drawn.values()]


def layout_faults(fig):
    texts = drawn_texts(fig)
    faults = []
    width, height = fig.bbox.width, fig.bbox.height
    for s, b in texts:
        if b.x0 < -PAD or b.y0 < -PAD or b.x1 > width + PAD or b.y1 > height + PAD:
            faults.append(f"outside the figure ({width:.0f}x{height:.0f} px): {s!r} at {b.bounds}")
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            (s, a), (t, b) = texts[i], texts[j]
            if min(a.x1, b.x1) - max(a.x0, b.x0) > PAD and min(a.y1, b.y1) - max(a.y0, b.y0) > PAD:
                faults.append(f"overlap: {s!r} and {t!r}")
    return faults, len(texts)


def geometric(mean, size, offset=0, rng=None):
    """Counts indexed by value of a long-tailed integer distribution (like turns per game)."""
    x = np.arange(size)
    p = np.where(x >= offset, (1 / mean) * (1 - 1 / mean) ** np.maximum(x - offset, 0), 0)
    return np.round(p * 200_000).astype(np.int64)


def ci(values, half=2.0):
    v = np.asarray(values, dtype=float)
    return v, v - half, v + half


CASES = {
    "bars single, the fightsong-targets variants": lambda: plots._draw_bars_with_ci(
        FS_VARIANTS, *ci(np.array([13.4, 19.1, 15.0, 18.9, 14.9, 7.4]) / 100, 0.02),
        "The edge of team of seats 0+2 (plays first) over an even share, by variant", "points (95% CI)",
        reference=0.0, ref_label="even", margin=0.005),
    "bars single, 12 long labels": lambda: plots._draw_bars_with_ci(
        LONG_LABELS, *ci(np.linspace(0.2, 0.3, 12), 0.01), "Fight Song rounds per game by variant, all seats",
        "share (%)"),
    "bars grouped, 6 variants x 4 seats": lambda: plots._draw_bars_with_ci(
        [f"seat {i} (plays {'first second third fourth'.split()[i]})" for i in range(4)], None, None, None,
        "Win share minus an even share, by seat and variant", "points (95% CI)", reference=0.0,
        ref_label="even share", margin=0.005,
        groups=[(name, *ci(np.array([0.05, -0.01, -0.02, -0.02]) * (1 + k), 0.01))
                for k, name in enumerate(FS_VARIANTS)]),
    "bars grouped, 12 long labels x 3": lambda: plots._draw_bars_with_ci(
        LONG_LABELS, None, None, None, "Win share of each rung against the field", "win share (%)",
        reference=0.25, ref_label="even share",
        groups=[(name, *ci(np.linspace(0.1, 0.4, 12), 0.02)) for name in FS_VARIANTS[:3]]),
    "histograms, 1 long-tailed series": lambda: plots._draw_histograms(
        [("", geometric(60, 900, offset=9))], "Turns per game", "turns"),
    "histograms, 1 short series": lambda: plots._draw_histograms(
        [("", np.array([0, 0, 0, 0, 790, 1210, 0, 0]))], "Hands per game", "hands"),
    "histograms, 2 series": lambda: plots._draw_histograms(
        [(FS_VARIANTS[0], geometric(8, 40)), (FS_VARIANTS[5], geometric(6, 40, 2))],
        "Cards left at the end", "cards left at the end"),
    "histograms, 6 series": lambda: plots._draw_histograms(
        [(name, geometric(20 + 15 * k, 900, offset=5 + k)) for k, name in enumerate(LONG_LABELS[:6])],
        "Turns per game by variant", "turns"),
    "histograms, 6 short series": lambda: plots._draw_histograms(
        [(name, np.roll(np.array([0, 0, 0, 0, 790, 1210, 300, 20, 0, 0, 0]), k % 3)) for k, name in
         enumerate(FS_VARIANTS)], "Hands per game by variant", "hands"),
    "curve_with_band": lambda: plots._draw_curve_with_band(
        [21, 24, 28, 31, 35, 40, 45, 50],
        [("Win share of the team of seats 0+2 (plays first), all games", *ci(np.linspace(0.55, 0.6, 8), 0.01)),
         ("Win share of the team of seats 1+3", *ci(np.linspace(0.45, 0.4, 8), 0.01))],
        "Win share of the team of seats 0+2 (plays first) against the target score, with its 95% band",
        "rules.target", "win share of the team of seats 0+2 (%)", percent=True, mark=28),
    "heatmap 7x7, annotated": lambda: plots._draw_heatmap(
        np.linspace(0.2, 0.8, 49).reshape(7, 7), POLICIES, POLICIES, "Head-to-head win share (row vs column)",
        "opponent", "policy",
        annotations=[["" if i == j else f"{52.3 + i:.1f}\n({50.1 + i:.1f}-{54.5 + i:.1f})" for j in range(7)]
                     for i in range(7)]),
    "heatmap, long tick labels": lambda: plots._draw_heatmap(
        np.linspace(0.3, 0.7, 24).reshape(4, 6), [f"rules.hand_size={h} with the bonus step at {h + 2}"
                                                  for h in range(6)],
        [f"rules.target={t} (the rulebook plays to 28 points)" for t in (21, 28, 35, 42)],
        "First player's win share over rules.hand_size (across) and rules.target (down)",
        "rules.hand_size", "rules.target", mark=(1, 2),
        annotations=[[f"{30 + i + j:.1f}% (±1.2)" for j in range(6)] for i in range(4)]),
    "ratings_with_ci, 12 labels": lambda: plots._draw_ratings_with_ci(
        ["random", "greedy", "lookahead", "lookahead depth 2"] + [f"search {2 ** k}" for k in range(4, 12)],
        *ci(np.linspace(0, 900, 12), 40), "Fight Song, 4 players: strength by rung",
        "rating (Elo, random = 0)", highlight=list(range(4, 12))),
    "ratings_with_ci, long labels without spaces": lambda: plots._draw_ratings_with_ci(
        ["[x](javascript:alert(1))", '=HYPERLINK("http://evil.example","x")<script>alert(1)</script>',
         "-2+3<img_src=x_onerror=alert(1)>"], *ci([0, 100, 200], 50), "@SUM(A1), 3 players: strength by rung",
        "rating (Elo, [x](javascript:alert(1)) = 0)"),
    "trajectory, 4 units": lambda: plots._draw_trajectory(
        np.arange(143), (np.linspace(0, 1.6, 143), np.zeros(143), np.linspace(0, 3, 143)),
        [(f"seat {s}", np.linspace(7, 4.5 + s / 4, 143)) for s in range(4)], np.linspace(100, 10, 143),
        "How a game unfolds, turn by turn", "turn", "lead (cards in hand)", "cards in hand"),
    "tune trials, 30 with the best so far": lambda: plots._draw_trials(
        np.arange(30), np.linspace(20, 5, 30) + np.tile([0, 6], 15), ["complete", "pruned"] * 15,
        np.minimum.accumulate(np.linspace(20, 5, 30)), "The search: each trial's distance from the goal",
        "trial (0: the rulebook)", "loss (points and units, weighted; lower is better)", "best so far"),
    "tune trials map, two settings": lambda: plots._draw_trials_map(
        np.arange(30) % 7 + 4, np.arange(30) % 8 + 1, np.linspace(40, 2, 30), ["complete"] * 25 + ["pruned"] * 5,
        "The loss over rules.hand_size and rules.draw_limit", "rules.hand_size", "rules.draw_limit",
        "loss (points and units, weighted; lower is better)"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_no_text_overlaps_or_leaves_the_figure(case):
    fig = CASES[case]()
    try:
        faults, count = layout_faults(fig)
    finally:
        plots.plt.close(fig)
    assert count >= 5, f"only {count} texts drawn: the collector is not seeing the figure"
    assert not faults, "\n".join(faults)


def test_the_check_catches_an_overlap():
    """The checker itself: two texts at one spot, and one past the canvas, are faults."""
    fig, ax = plots.plt.subplots(figsize=(4, 3))
    ax.set_title("a title")
    ax.text(0.5, 0.5, "one label", transform=ax.transAxes)
    ax.text(0.52, 0.5, "another label", transform=ax.transAxes)
    ax.text(1.1, 0.5, "far to the right of the canvas", transform=ax.transAxes)
    faults, _ = layout_faults(fig)
    plots.plt.close(fig)
    assert sum(f.startswith("overlap: 'one label'") for f in faults) == 1
    assert sum(f.startswith("outside the figure") for f in faults) == 1


def test_wrappers_write_pngs(tmp_path):
    """The public functions still save a PNG and return its path (the report's callers rely on it)."""
    # Only the figures these calls open count: another test in the same process may hold one of its own.
    open_before = set(plots.plt.get_fignums())
    written = [
        plots.bars_with_ci(tmp_path / "b.png", FS_VARIANTS, *ci(np.linspace(0.1, 0.2, 6), 0.01), "t", "y"),
        plots.histograms(tmp_path / "h.png", [("", geometric(10, 50))], "t", "turns"),
        plots.curve_with_band(tmp_path / "c.png", [1, 2, 3], [("s", *ci([0.1, 0.2, 0.3], 0.01))], "t", "x", "y"),
        plots.heatmap(tmp_path / "m.png", np.eye(3) / 2, list("abc"), list("abc"), "t", "x", "y"),
        plots.ratings_with_ci(tmp_path / "r.png", list("abc"), *ci([0, 50, 100], 10), "t", "y"),
    ]
    for path in written:
        assert path.exists() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(plots.plt.get_fignums()) <= open_before, "a figure was left open"


def test_histograms_do_not_hide_one_another():
    """One series: bars; two: unfilled outlines on one axis; six: one panel each on a shared x axis; integer
    ticks only; a long thin tail is cut and the x label says where."""
    from matplotlib.patches import Rectangle, StepPatch

    one = plots._draw_histograms([("", np.array([0, 0, 0, 0, 790, 1210, 0]))], "Hands per game", "hands")
    (ax,) = one.axes
    heights = sorted(round(p.get_height(), 6) for p in ax.patches if isinstance(p, Rectangle))
    assert heights == [39.5, 60.5]  # 790 and 1210 of 2,000 games
    plots.plt.close(one)

    two = plots._draw_histograms([("a", geometric(8, 40)), ("b", geometric(6, 40, 2))], "t", "cards")
    (ax,) = two.axes
    steps = [p for p in ax.patches if isinstance(p, StepPatch)]
    assert len(steps) == 2 and not any(p.get_fill() for p in steps)
    plots.plt.close(two)

    six = plots._draw_histograms([(f"v{k}", geometric(20 + 15 * k, 900, offset=5)) for k in range(6)], "t", "turns")
    assert len(six.axes) == 6 and len({tuple(a.get_xlim()) for a in six.axes}) == 1
    ticks = six.axes[-1].get_xticks()
    assert np.all(ticks == np.round(ticks))
    # the slowest series (mean 95 from 5 turns, 199,966 games once rounded to whole counts) reaches 99.9% of its
    # games at 642 turns (99.8999830% at 641, 99.9009832% at 642): drawn from 5 to 642, in bins of 20
    lo, hi, left_off = plots._shown_range([(f"v{k}", geometric(20 + 15 * k, 900, offset=5)) for k in range(6)])
    assert (lo, hi) == (5, 642) and 0 < left_off <= plots.TAIL
    assert "bins of 20" in six.axes[-1].get_xlabel() and "drawn from 5 to 642" in six.axes[-1].get_xlabel()
    plots.plt.close(six)
