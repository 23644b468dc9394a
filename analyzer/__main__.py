"""The `analyzer` command's first moments (the console script and `python -m analyzer` start here).

Importing the command takes a fraction of a second, more on a busy machine; a Ctrl-C or SIGTERM
meanwhile ends it as at any other moment before play: one line, status 130 (analyzer.interrupts). So
this module imports nothing of the analyzer before its handlers are in place."""
import gc
import signal
import sys

# Python's cyclic garbage collector, run less often: by default a full collection comes every 70,000 or so objects
# allocated and kept, and each one walks every object alive (the kernels' compiler and matplotlib make millions of
# short-lived ones). Measured on a 4-player Fight Song run of 1,000 deals: 0.74 s of collections on a cold start
# (0.57 s of them full ones) -> 0.23 s; 0.10 -> 0.02 s on a cached one; in the test suite's processes 23.5 -> 8.3 s
# (docs/performance.md, issue 30's fifteenth session). Memory at its peak: 4 MB more (of 250).
GC_THRESHOLDS = (10_000, 20, 100)  # (gc.set_threshold's: allocations between young collections, then the ratios)


def collect_less():
    gc.set_threshold(*GC_THRESHOLDS)


def entry():
    collect_less()
    received = []

    def stop(signum, frame):
        received.append(signum)
        raise KeyboardInterrupt

    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) != signal.SIG_IGN:  # (a background job ignores Ctrl-C: the shell wants it so)
            signal.signal(sig, stop)
    try:
        from analyzer.cli import entry as command
    except KeyboardInterrupt:
        name = signal.Signals(received[0]).name if received else "SIGINT"
        sys.stderr.write(f"Stopped by {name}: nothing written.\n")
        sys.exit(130)  # (analyzer.interrupts.EXIT_NOTHING, not imported: this module must stay light)
    command(program=True)


if __name__ == "__main__":
    entry()
