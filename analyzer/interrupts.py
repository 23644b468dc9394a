"""Ctrl-C (SIGINT) and SIGTERM: what they do at each moment of a run, and the exit statuses.

The contract (docs/running.md, "Stopping a run"):
- before any game is played (start-up, reading the scenario, compiling, starting Dask): the command
  stops at once; nothing was played, nothing is written (exit 130);
- while games are played: the first signal is noted; the play threads finish the blocks in play and
  stop, the chunk in play is dropped whole, and the report of every finished game is written, marked
  partial (exit 3);
- once the games are played (summing up, writing the report): a signal is noted and the report is
  finished all the same: a signal never costs a finished game;
- a third signal (Ctrl-C pressed three times) quits at once without writing the report, and says how
  many finished games that leaves unwritten (exit 130); a report folder is replaced only once complete,
  so no half-written report is ever left behind.
A run started with SIGINT ignored (a background job of a shell script) keeps ignoring it, as the shell
intends; SIGTERM always counts.
"""
from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager

EXIT_COMPLETE = 0
EXIT_INTERNAL = 1  # a bug: one line asking for a report (ANALYZER_TRACEBACK=1 shows the traceback)
EXIT_BAD_INPUT = 2  # refused before any game was played
EXIT_PARTIAL = 3  # stopped by a signal: the report of the games finished was written, marked partial
EXIT_NOTHING = 130  # stopped before any game finished, or quit on a third signal: nothing written

SIGNALS = (signal.SIGINT, signal.SIGTERM)
QUIT_AFTER = 3  # the signal that abandons the report of finished games


def signal_name(signum):
    return signal.Signals(signum).name


class Quit(BaseException):
    """A third signal: give up at once (raised by the handler; not an Exception, so that no `except
    Exception` on the way swallows it)."""


class Interrupts:
    """The signal handlers of a run, and what they have seen.

    `signal` is the first signal received (None: none); `count` how many. Until `note_from_now()`, a
    signal raises KeyboardInterrupt (nothing played yet: stop at once). From then on signals are noted
    and acted on between blocks and chunks of games (a chunk is committed to every summary and Parquet
    file whole, or not at all); once play is over (`writing(...)`), the report is written whatever the
    first two signals; the third raises Quit.

    As a context manager (`with Interrupts() as it:`) it installs its handlers on the main thread and
    restores the previous ones on exit; on another thread it installs nothing (signals go to the main
    thread) and only serves as a flag."""

    def __init__(self, say=None):
        self.signal = None
        self.count = 0
        self.noting = False  # False: a signal raises KeyboardInterrupt; True: it is noted
        self.after_play = None  # what is being done with the finished games, once play is over
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self._old = {}

    def _handle(self, signum, frame):
        self.count += 1
        if self.signal is None:
            self.signal = signum
        if not self.noting:
            raise KeyboardInterrupt
        if self.count >= QUIT_AFTER:
            raise Quit
        left = "twice more" if QUIT_AFTER - self.count == 2 else "once more"
        if self.after_play is not None:
            self.say(f"{self.after_play}; {_key(signum)} {left} quits without it.")
        elif self.count > 1:  # (the first, during play, is answered as soon as play stops)
            self.say(f"Stopping: finishing the games in play, then writing their report; {_key(signum)} {left} "
                     f"quits without it.")

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in SIGNALS:
                if sig == signal.SIGINT and signal.getsignal(sig) == signal.SIG_IGN:
                    continue  # started in the background with Ctrl-C ignored: the shell wants it so
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc):
        for sig, handler in self._old.items():
            signal.signal(sig, handler)
        self._old = {}
        return False

    def note_from_now(self):
        """Games are about to be played: from now on, signals are noted, not raised."""
        self.noting = True

    def writing(self, sentence):
        """Play is over; sentence says what is being done with the finished games ("Writing the report of
        1,000 deals"), should a signal come while it is done."""
        self.noting = True
        self.after_play = sentence


def _key(signum):
    return "Ctrl-C" if signum == signal.SIGINT else signal_name(signum)


@contextmanager
def sigint_ignored():
    """Ignore Ctrl-C for a moment: a process started meanwhile (Dask's fork server, whose children are the
    worker processes) inherits it ignored, and so never sees the terminal's Ctrl-C, which goes to the
    whole process group; this process stops its workers itself. A Ctrl-C in that moment (a fork and an
    exec: milliseconds) is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
