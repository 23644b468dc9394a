"""Matplotlib figures for reports (Agg backend: no display needed).

Each plot kind is a `_draw_<kind>` function that builds and returns the figure, laid out (tests/test_plot_layout.py
inspects it: no two texts overlap, no text leaves the canvas), and a thin public wrapper that saves it as a PNG.
Every figure is a column of panels (with a colour bar beside one, at most), laid out by _layout: it measures the texts
around each panel once (tick labels, axis labels, titles, a legend outside) and sets the figure's margins and the
gaps between panels to hold them. (Matplotlib's constrained layout did the same for any grid, but measured every
tick label several times over: it took a third of a report's time.) What the margins cannot do (tick labels wider
than their slot, a title wider than the figure, cell annotations wider than their cell) is fitted here by measuring
the laid-out text and wrapping, rotating or shrinking it; saving a figure then draws it once."""
from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]
DPI = 110
# a legend whose names are longer than this (or that has more entries than LEGEND_INSIDE_MAX) goes to the right
# of the axes, where it hides no data; its names are wrapped to LEGEND_WRAP characters a line
LEGEND_INSIDE_CHARS = 18
LEGEND_INSIDE_MAX = 3
LEGEND_WRAP = 28
# histograms: more series than this are drawn as small multiples (one panel each) rather than outlines on one axis
OVERLAY_MAX = 3
# histograms: at most this many bars across; a wider range of values is binned (bins of 2, 5, 10, 20, 50...)
MAX_BINS = 40
# histograms: the share of games in each tail left off the x axis (a long thin tail squeezes the body to a spike)
TAIL = 0.001


def _figure(width, height, nrows=1, **kw):
    fig, ax = plt.subplots(nrows, 1, figsize=(width, height), dpi=DPI, **kw)
    return fig, ax


def _save(fig, path):
    # zlib level 1: the same pixels as the default level 6, encoded in about 70% of the time
    fig.savefig(path, dpi=DPI, pil_kwargs={"compress_level": 1})
    plt.close(fig)
    return path


PAD = 5  # pixels between a text and the figure's edge, and between the texts of two panels


def _boxes(ax, renderer):
    """(the boxes of ax's texts beside and below or above its frame, of its titles): its axes' tick labels and
    labels, a legend; its titles (centred above it: _fit_title wraps one too wide, so they set no side margin)."""
    beside = [axis.get_tightbbox(renderer) for axis in (ax.xaxis, ax.yaxis) if axis.get_visible()]
    legend = ax.get_legend()
    beside.append(legend.get_window_extent(renderer) if legend is not None else None)
    titles = [t.get_window_extent(renderer) for t in (ax.title, ax._left_title, ax._right_title) if t.get_text()]
    return [b for b in beside if b is not None and b.width > 0], titles


MIN_SHARE = 0.2  # the least share of the figure's width (and height) the panels keep, however long the texts


def _layout(fig):
    """Lay the figure out and return a renderer to measure text with (the texts stand where a draw puts them).

    The figure is a column of panels, each row maybe with a colour bar (fig.colorbar takes its room from the
    panel's grid cell). Each panel's texts are measured once, where the panel stands now; the margins are then
    set to hold the widest of them (plus PAD), below a suptitle and right of a supylabel (kept where matplotlib
    puts them, at the figure's edge), and the gap between two rows to hold the lower edge's texts of the one
    and the upper edge's of the other. A text's size does not depend on where its panel stands, so one
    measurement does."""
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    sp = fig.subplotpars
    rows = {}  # row -> (overhang above, overhang below) of its panels' texts, in pixels
    left = right = 0.0  # overhang left of the grid's left edge, right of its right edge
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        frame = ax.get_window_extent(renderer)
        beside, titles = _boxes(ax, renderer)
        row = ax.get_subplotspec().get_topmost_subplotspec().rowspan.start
        above, below = rows.get(row, (0.0, 0.0))
        for box in beside:
            left = max(left, sp.left * width - box.x0)
            right = max(right, box.x1 - sp.right * width)
        for box in beside + titles:
            above, below = max(above, box.y1 - frame.y1), max(below, frame.y0 - box.y0)
        rows[row] = above, below
    top_edge, left_edge = PAD, PAD  # where the panels' texts may begin: past a suptitle, a supylabel
    if getattr(fig, "_suptitle", None) is not None:
        top_edge = height - fig._suptitle.get_window_extent(renderer).y0 + PAD
    if getattr(fig, "_supylabel", None) is not None:
        left_edge = fig._supylabel.get_window_extent(renderer).x1 + PAD
    n = max(rows) + 1
    lo = min((left_edge + left) / width, (1 - MIN_SHARE) / 2)
    hi = max(1 - (right + PAD) / width, lo + MIN_SHARE)
    bottom = min((PAD + rows[n - 1][1]) / height, (1 - MIN_SHARE) / 2)
    top = max(1 - (top_edge + rows[0][0]) / height, bottom + MIN_SHARE)
    gap = max((rows[i][1] + rows[i + 1][0] + PAD for i in range(n - 1)), default=0.0)
    cell = max((top - bottom) * height - (n - 1) * gap, MIN_SHARE * height) / n  # (the mean height of a panel)
    fig.subplots_adjust(left=lo, right=hi, bottom=bottom, top=top, hspace=gap / cell if n > 1 else sp.hspace)
    return renderer


def _freeze(fig, laid_out=False):
    """The figure, laid out: once more unless laid_out (nothing has changed since _layout)."""
    if not laid_out:
        _layout(fig)
    return fig


def _overlaps(boxes, pad=1.0):
    """Whether any two of the display-space boxes overlap by more than pad pixels."""
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i], boxes[j]
            if (min(a.x1, b.x1) - max(a.x0, b.x0) > pad) and (min(a.y1, b.y1) - max(a.y0, b.y0) > pad):
                return True
    return False


def _shown_ticklabels(axis):
    """The tick labels the axis draws: visible, not empty, at a tick inside the view."""
    lo, hi = sorted(axis.get_view_interval())
    eps = 1e-9 * max(1.0, abs(hi - lo))
    return [t.label1 for t in axis.get_major_ticks()
            if t.label1.get_visible() and t.label1.get_text() and lo - eps <= t.get_loc() <= hi + eps]


def _fit_xticklabels(fig, ax, positions, labels):
    """Tick labels at positions: horizontal if they fit their slots, else wrapped to the slot's width (at most
    3 lines, cut with an ellipsis), else upright (rotated 90 degrees, cut with an ellipsis past 40 characters)."""
    labels = [str(s) for s in labels]
    ax.set_xticks(positions, labels)
    renderer = _layout(fig)

    def fits():
        boxes = [t.get_window_extent(renderer) for t in _shown_ticklabels(ax.xaxis)]
        return not _overlaps(boxes, pad=-4)  # (a gap of at least 4 px between neighbours)

    if fits():
        return
    slot_px = ax.get_window_extent(renderer).width / max(1, len(labels))
    char_px = 0.6 * ax.get_xticklabels()[0].get_fontsize() * DPI / 72
    width = max(6, int(slot_px / char_px))
    # (a label longer than 3 lines ends its third with an ellipsis: the report's tables give it whole)
    wrapped = [textwrap.wrap(s, width, max_lines=3, placeholder="…") for s in labels]
    ax.set_xticks(positions, ["\n".join(lines) for lines in wrapped])
    renderer = _layout(fig)
    if fits():
        return
    short = [s if len(s) <= 40 else s[:39] + "…" for s in labels]
    ax.set_xticks(positions, short, rotation=90)
    # (the figure grows by the labels' length, so that the upright labels do not crush the axes)
    fig.set_figheight(fig.get_figheight() + 0.09 * max(len(s) for s in short))
    _layout(fig)


def _slot_inches(labels, least=0.9):
    """The width of a tick's slot that holds its label on at most 3 wrapped lines (up to 16 characters a line;
    an estimate of 0.09 inch a character, 0.6 of a 10-point font's size, plus a margin)."""
    longest = max((len(str(s)) for s in labels), default=0)
    return max(least, 0.09 * min(16, -(-longest // 3)) + 0.2)


def _fit_title(fig, ax, title, laid_out=False):
    """A title wrapped onto as many lines as it needs to stay inside the figure (it is centred on the axes,
    which a legend at their right pushes off the figure's centre). The figure is left laid out with it.
    laid_out: the caller set this title before laying the figure out (as _fit_xticklabels does), so that it is
    measured where it stands, without another layout."""
    if not laid_out:
        ax.set_title(title)
    renderer = fig.canvas.get_renderer() if laid_out else _layout(fig)
    chars = len(title)
    for _ in range(4):
        box = ax.title.get_window_extent(renderer)
        centre = (box.x0 + box.x1) / 2
        avail = 2 * min(centre, fig.bbox.width - centre) - 8
        if box.width <= avail or chars <= 20:
            return
        chars = max(20, min(chars - 1, int(chars * avail / box.width)))
        ax.set_title(textwrap.fill(title, chars))
        renderer = _layout(fig)


def _wrap(s, width):
    return textwrap.fill(str(s), width) if s else s


def _legend(ax, handles=None, labels=None, force_outside=False):
    """A legend inside the axes when short, else to the right of them with wrapped names."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    outside = force_outside or len(handles) > LEGEND_INSIDE_MAX or max(len(s) for s in labels) > LEGEND_INSIDE_CHARS
    if outside:
        return ax.legend(handles, [_wrap(s, LEGEND_WRAP) for s in labels], fontsize=8, loc="upper left",
                         bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return ax.legend(handles, labels, fontsize=8)


def _draw_bars_with_ci(labels, values, los, his, title, ylabel, reference=None, ref_label="", percent=True,
                       groups=None, margin=None):
    groups = groups or [("", values, los, his)]
    named = any(name for name, *_ in groups)
    legend_room = 2.2 if (named and (len(groups) > LEGEND_INSIDE_MAX
                                     or max(len(n) for n, *_ in groups) > LEGEND_INSIDE_CHARS)) else 0
    slot = max(_slot_inches(labels), 0.3 * len(groups))  # (0.3 inch a bar in a group)
    fig, ax = _figure(max(5, slot * len(labels) + 2) + legend_room, 3.8)
    x = np.arange(len(labels))
    width = 0.8 / len(groups)
    k = 100 if percent else 1
    for i, (name, v, lo, hi) in enumerate(groups):
        v, lo, hi = (np.asarray(a, dtype=float) * k for a in (v, lo, hi))
        # (clipped at 0: an interval of zero width, at a share of 100%, can end a rounding error inside its value)
        errors = [np.maximum(v - lo, 0), np.maximum(hi - v, 0)]
        ax.bar(x + (i - (len(groups) - 1) / 2) * width, v, width, yerr=errors, capsize=3,
               label=name or None, color=COLORS[i % len(COLORS)])
    if reference is not None:
        ax.axhline(reference * k, color="black", linestyle="--", linewidth=1, label=ref_label)
        if margin is not None:
            ax.axhspan((reference - margin) * k, (reference + margin) * k, color="grey", alpha=0.15,
                       label=f"practical margin (±{margin * k:g})")
    ax.set_ylabel(ylabel)
    if len(groups) > 1 or reference is not None:
        _legend(ax, force_outside=len(groups) > 1)
    ax.set_title(title)
    _fit_xticklabels(fig, ax, x, labels)
    _fit_title(fig, ax, title, laid_out=True)
    return _freeze(fig, laid_out=True)


def bars_with_ci(path, labels, values, los, his, title, ylabel, reference=None, ref_label="", percent=True,
                 groups=None, margin=None):
    """Bars with 95% error bars; groups: list of (name, values, los, his) to draw side by side; margin: a
    band of +-margin around the reference (the practical margin)."""
    return _save(_draw_bars_with_ci(labels, values, los, his, title, ylabel, reference, ref_label, percent, groups,
                                    margin), path)


def _draw_stacked_shares(rows, parts, title, xlabel):
    fig, ax = _figure(7.5, 1.2 + 0.55 * len(rows))
    y = np.arange(len(rows))[::-1]
    left = np.zeros(len(rows))
    for j, name in enumerate(parts):
        widths = np.array([100 * shares[j] for _, shares in rows])
        ax.barh(y, widths, 0.6, left=left, color=COLORS[j % len(COLORS)], label=name)
        for yi, x0, w in zip(y, left, widths):
            if w >= 8:  # (a share written inside its segment when there is room for it)
                ax.text(x0 + w / 2, yi, f"{w:.0f}%", ha="center", va="center", fontsize=8, color="white")
        left += widths
    ax.set_yticks(y, [_wrap(label, 28) for label, _ in rows], fontsize=8)
    ax.set_xlim(0, 100)
    ax.set_xlabel(xlabel)
    _legend(ax, force_outside=True)
    _fit_title(fig, ax, title)
    return _freeze(fig, laid_out=True)


def stacked_shares(path, rows, parts, title, xlabel):
    """rows: [(label, shares)], each a split of 100% into the parts (fractions, in the order of parts): one
    horizontal bar a row, the parts side by side."""
    return _save(_draw_stacked_shares(rows, parts, title, xlabel), path)


def _nice_bin(span):
    """The smallest of 1, 2, 5, 10, 20, 50... that cuts span values into at most MAX_BINS bins."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if span / (step * m) <= MAX_BINS:
                return step * m
        step *= 10


def _shown_range(series):
    """(lo, hi, left_off): the values from lo to hi cover all but the TAIL share of games at each end of every
    series; left_off: the largest share of one series' games outside them."""
    lo, hi = None, None
    for _, c in series:
        c = np.asarray(c, dtype=float)
        if c.sum() <= 0:
            continue
        cum = np.cumsum(c) / c.sum()
        nonzero = np.flatnonzero(c)
        if nonzero[-1] - nonzero[0] < MAX_BINS:  # a short range is drawn whole
            a, b = int(nonzero[0]), int(nonzero[-1])
        else:  # the first value whose cumulative share passes TAIL, the first that reaches 1 - TAIL
            a = int(np.searchsorted(cum, TAIL, side="right"))
            b = int(np.searchsorted(cum, 1 - TAIL, side="left"))
        lo = a if lo is None else min(lo, a)
        hi = b if hi is None else max(hi, b)
    if lo is None:
        return 0, 1, 0.0
    left_off = 0.0
    for _, c in series:
        c = np.asarray(c, dtype=float)
        if c.sum() > 0:
            left_off = max(left_off, (c[:lo].sum() + c[hi + 1:].sum()) / c.sum())
    return lo, hi, left_off


def _binned(counts, lo, hi, step):
    """Shares of games in bins [lo + i*step, lo + (i+1)*step) over lo..hi (the share of all the games)."""
    c = np.zeros(hi + 1)
    counts = np.asarray(counts, dtype=float)
    c[:min(len(counts), hi + 1)] = counts[:hi + 1]
    total = max(1.0, counts.sum())
    body = c[lo:hi + 1]
    nbins = -(-len(body) // step)
    padded = np.zeros(nbins * step)
    padded[:len(body)] = body
    return 100 * padded.reshape(nbins, step).sum(axis=1) / total


def _median(counts):
    c = np.asarray(counts, dtype=float)
    return int(np.searchsorted(np.cumsum(c), c.sum() / 2)) if c.sum() > 0 else 0


def _draw_histograms(series, title, xlabel):
    series = [(name, np.asarray(c)) for name, c in series]
    lo, hi, left_off = _shown_range(series)
    step = _nice_bin(hi - lo + 1)
    # (a bin of integers a .. a + step - 1 spans a - 0.5 to a + step - 0.5: centred on its values)
    edges = lo - 0.5 + step * np.arange(-(-(hi - lo + 1) // step) + 1)
    shares = [_binned(c, lo, hi, step) for _, c in series]
    xlabel_full = xlabel + (f" (bins of {step})" if step > 1 else "")
    if left_off > 0:
        share = (f"{100 * left_off:.2g}% of the games" if len(series) == 1 else
                 f"at most {100 * left_off:.2g}% of one series' games")
        xlabel_full += f"; drawn from {lo} to {hi} ({share} lie outside)"
    many = len(series) > OVERLAY_MAX
    if many:
        fig, axes = _figure(7, 0.95 * len(series) + 1.4, nrows=len(series), sharex=True, sharey=True)
        for i, ((name, c), share) in enumerate(zip(series, shares)):
            ax = axes[i]
            ax.stairs(share, edges, fill=True, color=COLORS[i % len(COLORS)], alpha=0.85)
            if i > 0:  # the first series (the baseline, or seat 0) outlined in every other panel, to compare
                ax.stairs(shares[0], edges, color="black", linewidth=0.8, alpha=0.6)
            ax.set_title(f"{name}: median {_median(c)}", loc="left", fontsize=8, pad=2)
            ax.yaxis.set_major_locator(MaxNLocator(nbins=3))
            ax.tick_params(labelsize=8)
        axes[-1].set_xlabel(_wrap(f"{xlabel_full}; the black outline in every panel: {series[0][0]}", 90))
        axes[-1].xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        axes[-1].set_xlim(edges[0] - 0.5, edges[-1] + 0.5)
        fig.supylabel("% of games" + (" per bin" if step > 1 else ""), fontsize=9)
        fig.suptitle(_wrap(title, 70))
        return _freeze(fig)
    fig, ax = _figure(7, 3.8)
    for i, (name, c) in enumerate(series):
        if len(series) == 1:
            if step == 1:
                ax.bar(np.arange(lo, hi + 1), shares[0], 0.8, color=COLORS[0])
            else:
                ax.stairs(shares[0], edges, fill=True, color=COLORS[0], edgecolor="white")
        else:
            ax.stairs(shares[i], edges, color=COLORS[i % len(COLORS)], linewidth=1.8,
                      linestyle=("-", "--", ":")[i % 3], label=f"{name} (median {_median(c)})")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    ax.set_xlim(edges[0] - 0.5, edges[-1] + 0.5)
    ax.set_xlabel(_wrap(xlabel_full, 90))
    ax.set_ylabel("% of games" + (" per bin" if step > 1 else ""))
    ax.set_ylim(bottom=0)
    if len(series) > 1:
        _legend(ax)
    _fit_title(fig, ax, title)
    return _freeze(fig, laid_out=True)


def histograms(path, series, title, xlabel):
    """series: list of (name, counts indexed by value: integers 0, 1, 2...). Drawn as the share of games per
    value (or per bin of values when they span more than MAX_BINS), the thin tails left off and said so: one
    series as bars, up to OVERLAY_MAX as outlines on one axis, more as one panel each on a shared x axis."""
    return _save(_draw_histograms(series, title, xlabel), path)


def _draw_curve_with_band(xs, series, title, xlabel, ylabel, percent=False, mark=None):
    fig, ax = _figure(7.5, 3.8)
    k = 100 if percent else 1
    for i, (name, v, lo, hi) in enumerate(series):
        color = COLORS[i % len(COLORS)]
        ax.plot(xs, np.asarray(v) * k, marker="o", color=color, label=name or None)
        ax.fill_between(xs, np.asarray(lo) * k, np.asarray(hi) * k, color=color, alpha=0.2)
    if mark is not None:
        ax.axvline(mark, color="black", linestyle=":", linewidth=1, label="best")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_wrap(ylabel, 40))
    _legend(ax)
    _fit_title(fig, ax, title)
    return _freeze(fig, laid_out=True)


def curve_with_band(path, xs, series, title, xlabel, ylabel, percent=False, mark=None):
    """series: list of (name, values, los, his) over xs."""
    return _save(_draw_curve_with_band(xs, series, title, xlabel, ylabel, percent, mark), path)


def _fit_annotations(fig, ax, texts, renderer):
    """Shrink the cell annotations until each fits its cell (and no two touch)."""
    cell = ax.get_window_extent(renderer)
    rows, cols = (abs(np.diff(ax.get_ylim()))[0], abs(np.diff(ax.get_xlim()))[0])
    cell_w, cell_h = cell.width / cols, cell.height / rows
    worst = 1.0
    for t in texts:
        if not t.get_text():
            continue
        box = t.get_window_extent(renderer)
        worst = min(worst, 0.9 * cell_w / max(box.width, 1), 0.9 * cell_h / max(box.height, 1))
    if worst < 1.0:
        size = max(4.0, texts[0].get_fontsize() * worst)
        for t in texts:
            t.set_fontsize(size)


def _draw_heatmap(matrix, xlabels, ylabels, title, xlabel, ylabel, percent=True, annotations=None, mark=None):
    m = np.asarray(matrix, dtype=float)
    ylabels = [_wrap(s, 30) for s in ylabels]
    # a row tall enough for its label's lines (a line of 10-point text is about 0.2 inch)
    row_height = max(0.65, 0.2 * max((s.count("\n") + 1 for s in ylabels), default=1) + 0.15)
    fig, ax = _figure(max(5.5, _slot_inches(xlabels) * len(xlabels) + 3.5), max(4, row_height * len(ylabels) + 2.2))
    im = ax.imshow(m * (100 if percent else 1), cmap="RdBu_r" if percent else "viridis", aspect="auto",
                   vmin=0 if percent else None, vmax=100 if percent else None)
    fig.colorbar(im, ax=ax, label="%" if percent else "")
    ax.set_yticks(range(len(ylabels)), ylabels)
    texts = []
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if annotations is not None:
                txt = annotations[i][j]
            else:
                txt = "" if np.isnan(m[i, j]) else (f"{100 * m[i, j]:.1f}" if percent else f"{m[i, j]:.3g}")
            rgba = im.cmap(im.norm(m[i, j] * (100 if percent else 1))) if not np.isnan(m[i, j]) else (1, 1, 1, 1)
            dark = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] < 0.5
            texts.append(ax.text(j, i, txt, ha="center", va="center", fontsize=8, color="white" if dark else "black"))
    if mark is not None:
        ax.add_patch(plt.Rectangle((mark[1] - 0.5, mark[0] - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=2.5))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _fit_xticklabels(fig, ax, range(len(xlabels)), xlabels)
    _fit_title(fig, ax, title, laid_out=True)
    _fit_annotations(fig, ax, texts, fig.canvas.get_renderer())
    return _freeze(fig)  # (smaller annotations may let the layout take back room it gave them)


def heatmap(path, matrix, xlabels, ylabels, title, xlabel, ylabel, percent=True, annotations=None, mark=None):
    """mark: (row, column) of a cell to outline (e.g. the best point of a sweep)."""
    return _save(_draw_heatmap(matrix, xlabels, ylabels, title, xlabel, ylabel, percent, annotations, mark), path)


def _draw_ratings_with_ci(labels, values, los, his, title, ylabel, highlight=()):
    fig, ax = _figure(max(5.5, _slot_inches(labels) * len(labels) + 2), 3.8)
    x = np.arange(len(labels))
    v, lo, hi = (np.asarray(a, dtype=float) for a in (values, los, his))
    ax.plot(x, v, color="grey", linewidth=1, zorder=1)
    for idx, color, name in ((sorted(set(range(len(labels))) - set(highlight)), COLORS[0], None),
                             (sorted(highlight), COLORS[1], None)):
        if not idx:
            continue
        idx = np.asarray(idx)
        errors = [np.maximum(v[idx] - lo[idx], 0), np.maximum(hi[idx] - v[idx], 0)]
        ax.errorbar(x[idx], v[idx], yerr=errors, fmt="o", capsize=4, color=color, zorder=2, label=name)
    ax.axhline(0, color="black", linestyle="--", linewidth=0.8)
    ax.set_ylabel(_wrap(ylabel, 40))
    ax.set_title(title)
    _fit_xticklabels(fig, ax, x, labels)
    _fit_title(fig, ax, title, laid_out=True)
    return _freeze(fig, laid_out=True)


def ratings_with_ci(path, labels, values, los, his, title, ylabel, highlight=()):
    """Points with 95% error bars, one per label left to right, joined by a line (a curve of rungs);
    highlight: indices drawn in a second colour (e.g. the search budgets)."""
    return _save(_draw_ratings_with_ci(labels, values, los, his, title, ylabel, highlight), path)


def _draw_trajectory(turns, margin, units, going_pct, title, xlabel, margin_label, standing_label):
    fig, axes = _figure(7.5, 6.2, nrows=3, sharex=True, height_ratios=[3, 3, 1.4])
    mean, p10, p90 = (np.asarray(a, dtype=float) for a in margin)
    ax = axes[0]
    ax.fill_between(turns, p10, p90, color=COLORS[0], alpha=0.25, label="10th to 90th percentile")
    ax.plot(turns, mean, color=COLORS[0], label="mean")
    ax.set_ylabel(_wrap(margin_label, 24))
    ax.set_ylim(bottom=0)
    _legend(ax)
    ax = axes[1]
    for i, (name, values) in enumerate(units):
        ax.plot(turns, values, color=COLORS[i % len(COLORS)], linestyle=("-", "--", ":", "-.")[i % 4], label=name)
    ax.set_ylabel(_wrap(standing_label, 24))
    _legend(ax, force_outside=len(units) > LEGEND_INSIDE_MAX)
    ax = axes[2]
    ax.plot(turns, going_pct, color="grey")
    ax.set_ylim(0, 105)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=3))
    ax.set_ylabel("% going", fontsize=9)
    ax.set_xlabel(xlabel)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    ax.set_xlim(turns[0], turns[-1])
    fig.suptitle(_wrap(title, 70))
    return _freeze(fig)


def trajectory(path, turns, margin, units, going_pct, title, xlabel, margin_label, standing_label):
    """How games unfold by turn: margin = (mean, 10th, 90th percentile) of the leader's lead; units: list of
    (name, mean standing by turn); going_pct: the share of games still going."""
    return _save(_draw_trajectory(turns, margin, units, going_pct, title, xlabel, margin_label, standing_label), path)


STATE_MARKERS = {"complete": ("o", 1.0), "pruned": ("x", 0.7)}  # (marker, alpha) of a trial in the tune's plots


def _draw_trials(xs, losses, states, best, title, xlabel, ylabel, best_label=None):
    """The tune's trials: each trial's loss against xs (its number, or a setting's value), complete trials as dots,
    pruned ones as crosses (their loss over the blocks they played); best: the running best over xs in order when
    best_label is given, else None."""
    fig, ax = _figure(7.5, 3.8)
    xs, losses = np.asarray(xs, dtype=float), np.asarray(losses, dtype=float)
    for state, (marker, alpha) in STATE_MARKERS.items():
        pick = np.array([s == state for s in states], dtype=bool)
        if pick.any():
            ax.scatter(xs[pick], losses[pick], marker=marker, alpha=alpha, color=COLORS[0 if state == "complete" else 3],
                       label=f"{state} trials")
    if best is not None:
        ax.step(xs, best, where="post", color="black", linewidth=1.2, label=best_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_wrap(ylabel, 40))
    _legend(ax)
    _fit_title(fig, ax, title)
    return _freeze(fig, laid_out=True)


def trials(path, xs, losses, states, best, title, xlabel, ylabel, best_label=None):
    """A tune's trials: loss against trial number (with the best so far) or against one setting's value."""
    return _save(_draw_trials(xs, losses, states, best, title, xlabel, ylabel, best_label), path)


def _draw_trials_map(xs, ys, losses, states, title, xlabel, ylabel, loss_label):
    """Two settings' values of each trial, coloured by its loss (complete trials) or marked x (pruned)."""
    fig, ax = _figure(7.5, 4.2)
    xs, ys, losses = (np.asarray(a, dtype=float) for a in (xs, ys, losses))
    done = np.array([s == "complete" for s in states], dtype=bool)
    if done.any():
        dots = ax.scatter(xs[done], ys[done], c=losses[done], cmap="viridis", s=60, edgecolors="black",
                          linewidths=0.5, label="complete trials")
        fig.colorbar(dots, ax=ax, label=_wrap(loss_label, 30))
    pruned = np.array([s == "pruned" for s in states], dtype=bool)
    if pruned.any():
        ax.scatter(xs[pruned], ys[pruned], marker="x", color="grey", label="pruned trials")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _legend(ax)
    _fit_title(fig, ax, title)
    return _freeze(fig, laid_out=True)


def trials_map(path, xs, ys, losses, states, title, xlabel, ylabel, loss_label):
    """A tune's trials over two numeric settings, coloured by their loss (the objective's surface, as sampled)."""
    return _save(_draw_trials_map(xs, ys, losses, states, title, xlabel, ylabel, loss_label), path)
