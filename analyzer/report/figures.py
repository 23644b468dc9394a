"""The report's figures: each kind of analyzer/report/plots.py, drawn in this process or by two others.

The report code calls `figures.histograms(path, ...)` and the like (the arguments of plots' function of that name),
which returns the path the PNG is written to. Inside `drawn_aside()` (the `analyzer run` command) a process forked
as the command starts imports matplotlib (about half a second) while the command loads and plays its kernels, then
forks a second one; the two draw the figures as the report asks for them while the command goes on with the rest
(the traced games, the tables, report.md); `done()`, called before the pages that embed the pictures are written,
waits for them. On 2 cores that takes the import and most of the drawing off the run's path. Anywhere else (the
API, tune, profile, the tests) and where a fork is not safe (another thread running, no fork), a figure is drawn at
once, here.

Ctrl-C is the command's to answer (analyzer.interrupts): the drawing processes ignore it. Should one end (SIGTERM
to the process group), the figures it did not finish are drawn here."""
from __future__ import annotations

import io
import os
import signal
import sys
import threading
import traceback
from contextlib import contextmanager

KINDS = ("bars_with_ci", "curve_with_band", "heatmap", "histograms", "ratings_with_ci", "stacked_shares",
         "trajectory", "trials", "trials_map")

_aside = None  # the drawing processes, inside drawn_aside()


def _draw(kind, path, args, kwargs):
    from analyzer.report import plots  # (matplotlib: imported only where a figure is drawn)

    return getattr(plots, kind)(path, *args, **kwargs)


def _serve(ends):
    """The drawing processes: the first imports matplotlib, then forks the second; the i-th draws the jobs received
    on ends[i], its end of a pipe, answering None or the error."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (not the command's handler: it would print a traceback here)
    try:
        from analyzer.report import plots

        # one small figure, so that the fonts and the PNG writer are loaded once, before the fork, and not on the way
        # of the first figure asked for
        plots.histograms(io.BytesIO(), [("", [1, 2])], "warm-up", "x")
    except Exception:  # noqa: BLE001  (ended: the command draws every figure itself, and meets the error there)
        return
    second = os.fork() if len(ends) > 1 else 1
    if second == 0:  # (the second process: no return into the first one's code)
        try:
            _keep_only(ends, 1)
            _lane(ends[1])
        finally:
            os._exit(0)
    _keep_only(ends, 0)
    _lane(ends[0])
    if second > 0:
        os.waitpid(second, 0)


def _keep_only(ends, mine):
    """Close the other processes' ends (a process holding one would keep the command from seeing it end)."""
    for i, end in enumerate(ends):
        if i != mine:
            end.close()


def _lane(conn):
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
            try:
                conn.send(answer)
            except Exception:  # noqa: BLE001  (an error that does not pickle: its traceback as text)
                conn.send(RuntimeError(f"drawing {job[0]}: " + "".join(traceback.format_exception(answer)).strip()))
        except OSError:  # (the command has gone)
            return


class _Drawer:
    """The drawing processes (PROCESSES of them, one forked from the other once matplotlib is imported), the
    figures sent to each and not yet drawn, and those asked for and not yet sent: a process is sent the next
    figure as it finishes one (the costliest waiting first), so that neither sits idle while the other has a
    queue, whatever each figure costs."""

    PROCESSES = 2  # (by the time the figures are asked for, the command is mostly waiting: 2 cores, 2 drawers)
    IN_FLIGHT = 2  # figures sent to a process at once: the next waits in its pipe while the command is busy

    def __init__(self):
        import multiprocessing

        import numpy  # noqa: F401  (both sides need it: imported once, before the fork; OpenBLAS's threads are fork-safe)

        context = multiprocessing.get_context("fork")
        pipes = [context.Pipe() for _ in range(self.PROCESSES)]
        self.lanes = [(mine, []) for mine, _ in pipes]  # (this end, the jobs sent on it and not yet answered)
        self.waiting = []  # jobs asked for, not yet sent
        self.lost = []  # jobs sent to a process that ended before answering (drawn here)
        self.error = None  # the first error a drawing process answered
        sys.stdout.flush()  # (nothing buffered here is written twice)
        sys.stderr.flush()
        self.process = context.Process(target=_close_then_serve, args=(pipes,), daemon=True)
        self.process.start()
        for _, theirs in pipes:
            theirs.close()  # (so that a drawing process ending is an end of file here)
        self.sent = False

    def send(self, job):
        self.sent = True
        self.waiting.append(job)
        self._answers(block=False)
        self._dispatch()

    def _dispatch(self):
        """Send the waiting jobs, costliest first, to the processes with room for them, the least busy first."""
        while self.waiting:
            open_lanes = [lane for lane in self.lanes if not lane[0].closed and len(lane[1]) < self.IN_FLIGHT]
            if not open_lanes:
                return
            conn, pending = min(open_lanes, key=lambda lane: len(lane[1]))
            job = max(self.waiting, key=_cost)
            self.waiting.remove(job)
            pending.append(job)
            try:
                conn.send(job)
            except OSError:  # (the process has ended)
                self._lose(conn, pending)

    def _answers(self, block):
        """Read the answers in (block: wait for at least one, while any job is out)."""
        from multiprocessing.connection import wait

        busy = [conn for conn, pending in self.lanes if pending and not conn.closed]
        if not busy:
            return
        for conn in wait(busy, None if block else 0):
            pending = next(p for c, p in self.lanes if c is conn)
            try:
                answer = conn.recv()
            except (EOFError, OSError):
                self._lose(conn, pending)
                continue
            pending.pop(0)
            if answer is not None and self.error is None:
                self.error = answer

    def _lose(self, conn, pending):
        self.lost += pending
        pending.clear()
        conn.close()

    def done(self):
        while self.waiting or any(pending for _, pending in self.lanes):
            if self.error is not None:
                break
            self._dispatch()
            if all(conn.closed for conn, _ in self.lanes):  # (every process has ended: the rest are drawn here)
                self.lost += self.waiting
                self.waiting.clear()
                break
            self._answers(block=True)
        error, self.error = self.error, None
        if error is not None:
            self.waiting.clear()
            for _, pending in self.lanes:
                pending.clear()
            self.lost.clear()
            raise error
        lost, self.lost = self.lost, []
        for job in lost:
            _draw(*job)

    def close(self):
        """End the drawing processes: at the end of file they see once they are idle (the first waits for the
        second); or at once when no figure was asked for (bad input: the first may still be importing)."""
        for conn, _ in self.lanes:
            conn.close()
        self.process.join(1.0 if self.sent else 0)
        for end in (self.process.terminate, self.process.kill):  # (SIGKILL: should it not answer SIGTERM)
            if self.process.is_alive():
                end()
                self.process.join(1.0)


def _cost(job):
    """A figure's cost, roughly, in panels: the longest are sent first (fewer left to the end of the wait)."""
    kind, _, args, kwargs = job
    if kind == "trajectory":
        return 3
    if kind == "histograms":
        series = args[0] if args else kwargs.get("series", ())
        return len(series) if len(series) > 3 else 1  # (more than plots.OVERLAY_MAX series: a panel each)
    return 1


def _close_then_serve(pipes):
    for mine, _ in pipes:
        mine.close()  # (the command's ends: so that the command closing them, or ending, is an end of file here)
    _serve([theirs for _, theirs in pipes])


def _can_fork():
    """Whether this process may fork a drawing process: it has no thread but this one, native ones included (a
    fork copies only the forking thread: a lock another one held stays locked in the child; the kernels' play
    threads and OpenBLAS's start with their first use and with numpy's import), and fork exists. The command forks as
    it starts; a process that has played or imported numpy (a test calling the command) draws here."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods() or "numpy" in sys.modules:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return threading.active_count() == 1


@contextmanager
def drawn_aside():
    """Within: figures are drawn by two other processes, started now (when a fork is safe here)."""
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
