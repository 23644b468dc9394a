"""The report's figures: each kind of analyzer/report/plots.py, drawn in this process or by a second one.

The report code calls `figures.histograms(path, ...)` and the like (the arguments of plots' function of that name),
which returns the path the PNG is written to. Inside `drawn_aside()` (the `analyzer run` command) a process forked
as the command starts imports matplotlib (about half a second) while this one loads and plays
its kernels, then draws each figure as the report asks for it while this one goes on with the rest (the traced
games, the tables, report.md); `done()`, called before the pages that embed the pictures are written, waits for
them. On 2 cores that takes the import and most of the drawing off the run's path. Anywhere else (the API, tune,
profile, the tests) and where a fork is not safe (another thread running, no fork), a figure is drawn at once, here.

Ctrl-C is the command's to answer (analyzer.interrupts): the drawing process ignores it. Should it end (SIGTERM
to the process group), the figures it did not finish are drawn here."""
from __future__ import annotations

import signal
import sys
import threading
import traceback
from contextlib import contextmanager

KINDS = ("bars_with_ci", "curve_with_band", "heatmap", "histograms", "ratings_with_ci", "stacked_shares",
         "trajectory", "trials", "trials_map")

_aside = None  # the drawing process, inside drawn_aside()


def _draw(kind, path, args, kwargs):
    from analyzer.report import plots  # (matplotlib: imported only where a figure is drawn)

    return getattr(plots, kind)(path, *args, **kwargs)


def _serve(conn, parent_end):
    """The drawing process: import matplotlib, then draw each job received, answering None or the error."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (not the command's handler: it would print a traceback here)
    parent_end.close()  # (so that the command's end closing, or the command ending, is an end of file here)
    try:
        from analyzer.report import plots  # noqa: F401
    except Exception:  # noqa: BLE001  (ended: the command draws every figure itself, and meets the error there)
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            _draw(*job)
            answer = None
        except Exception as e:  # noqa: BLE001  (sent back: the command raises it where it waits)
            answer = e
        try:
            conn.send(answer)
        except Exception:  # noqa: BLE001  (an error that does not pickle: its traceback as text)
            conn.send(RuntimeError(f"drawing {job[0]}: " + "".join(traceback.format_exception(answer)).strip()))


class _Drawer:
    """The drawing process and the figures sent to it, not yet drawn."""

    def __init__(self):
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.conn, child_end = context.Pipe()
        sys.stdout.flush()  # (nothing buffered here is written twice)
        sys.stderr.flush()
        self.process = context.Process(target=_serve, args=(child_end, self.conn), daemon=True)
        self.process.start()
        child_end.close()
        self.pending = []

    def send(self, job):
        self.pending.append(job)
        try:
            self.conn.send(job)
        except OSError:  # (the process has ended: done() draws it here)
            pass

    def done(self):
        while self.pending:
            try:
                answer = self.conn.recv()
            except (EOFError, OSError):
                break
            self.pending.pop(0)
            if answer is not None:
                self.pending = []
                raise answer
        left, self.pending = self.pending, []
        for job in left:
            _draw(*job)

    def close(self):
        self.conn.close()
        self.process.terminate()
        self.process.join()


def _can_fork():
    import multiprocessing

    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


@contextmanager
def drawn_aside():
    """Within: figures are drawn by a second process, started now (when a fork is safe here)."""
    global _aside
    if _aside is not None or not _can_fork():
        yield
        return
    _aside = _Drawer()
    try:
        yield
    finally:
        drawer, _aside = _aside, None
        drawer.close()


def done():
    """Wait until every figure asked for is written (at once outside drawn_aside)."""
    if _aside is not None:
        _aside.done()


def _kind(kind):
    def draw(path, *args, **kwargs):
        if _aside is None:
            return _draw(kind, path, args, kwargs)
        _aside.send((kind, path, args, kwargs))
        return path

    draw.__name__ = draw.__qualname__ = kind
    draw.__doc__ = f"analyzer.report.plots.{kind}, drawn here or aside; returns the PNG's path."
    return draw


bars_with_ci, curve_with_band, heatmap, histograms, ratings_with_ci, stacked_shares, trajectory, trials, \
    trials_map = (_kind(k) for k in KINDS)
