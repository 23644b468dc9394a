"""Matplotlib figures for reports (Agg backend: no display needed)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def _save(fig, path):
    fig.tight_layout()
    # zlib level 1: the same pixels as the default level 6, encoded in about 70% of the time
    fig.savefig(path, dpi=110, pil_kwargs={"compress_level": 1})
    plt.close(fig)
    return path


def bars_with_ci(path, labels, values, los, his, title, ylabel, reference=None, ref_label="", percent=True,
                 groups=None, margin=None):
    """Bars with 95% error bars; groups: list of (name, values, los, his) to draw side by side; margin: a
    band of +-margin around the reference (the practical margin)."""
    groups = groups or [("", values, los, his)]
    fig, ax = plt.subplots(figsize=(max(5, 0.9 * len(labels) * len(groups) + 2), 3.6))
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
    ax.set_xticks(x, labels, rotation=0 if len(labels) < 8 else 30, ha="center" if len(labels) < 8 else "right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(groups) > 1 or reference is not None:
        ax.legend(fontsize=8)
    return _save(fig, path)


def histograms(path, series, title, xlabel):
    """series: list of (name, counts indexed by value). Drawn as share of games per value."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    nonzero = [np.flatnonzero(c) for _, c in series if np.any(c)]
    lo = min(int(nz[0]) for nz in nonzero) if nonzero else 0
    hi = max(int(nz[-1]) for nz in nonzero) if nonzero else 1
    xs = np.arange(lo, hi + 1)
    width = 0.8 / max(1, len(series))
    for i, (name, counts) in enumerate(series):
        c = np.zeros(hi + 1)
        c[:len(counts)] = counts[:hi + 1]
        share = c[lo:hi + 1] / max(1, c.sum())
        ax.bar(xs + (i - (len(series) - 1) / 2) * width, 100 * share, width, label=name or None,
               color=COLORS[i % len(COLORS)])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of games")
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _save(fig, path)


def curve_with_band(path, xs, series, title, xlabel, ylabel, percent=False, mark=None):
    """series: list of (name, values, los, his) over xs."""
    fig, ax = plt.subplots(figsize=(7, 3.8))
    k = 100 if percent else 1
    for i, (name, v, lo, hi) in enumerate(series):
        color = COLORS[i % len(COLORS)]
        ax.plot(xs, np.asarray(v) * k, marker="o", color=color, label=name or None)
        ax.fill_between(xs, np.asarray(lo) * k, np.asarray(hi) * k, color=color, alpha=0.2)
    if mark is not None:
        ax.axvline(mark, color="black", linestyle=":", linewidth=1, label="best")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    return _save(fig, path)


def heatmap(path, matrix, xlabels, ylabels, title, xlabel, ylabel, percent=True, annotations=None, mark=None):
    """mark: (row, column) of a cell to outline (e.g. the best point of a sweep)."""
    m = np.asarray(matrix, dtype=float)
    fig, ax = plt.subplots(figsize=(max(5, 0.8 * len(xlabels) + 3), max(4, 0.6 * len(ylabels) + 2)))
    im = ax.imshow(m * (100 if percent else 1), cmap="RdBu_r" if percent else "viridis", aspect="auto",
                   vmin=0 if percent else None, vmax=100 if percent else None)
    fig.colorbar(im, ax=ax, label="%" if percent else "")
    ax.set_xticks(range(len(xlabels)), xlabels, rotation=30, ha="right")
    ax.set_yticks(range(len(ylabels)), ylabels)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if annotations is not None:
                txt = annotations[i][j]
            else:
                txt = "" if np.isnan(m[i, j]) else (f"{100 * m[i, j]:.1f}" if percent else f"{m[i, j]:.3g}")
            rgba = im.cmap(im.norm(m[i, j] * (100 if percent else 1))) if not np.isnan(m[i, j]) else (1, 1, 1, 1)
            dark = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] < 0.5
            ax.text(j, i, txt, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    if mark is not None:
        ax.add_patch(plt.Rectangle((mark[1] - 0.5, mark[0] - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=2.5))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return _save(fig, path)


def ratings_with_ci(path, labels, values, los, his, title, ylabel, highlight=()):
    """Points with 95% error bars, one per label left to right, joined by a line (a curve of rungs);
    highlight: indices drawn in a second colour (e.g. the search budgets)."""
    fig, ax = plt.subplots(figsize=(max(5.5, 0.9 * len(labels) + 2), 3.8))
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
    ax.set_xticks(x, labels, rotation=0 if len(labels) < 7 else 30, ha="center" if len(labels) < 7 else "right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return _save(fig, path)
