"""The `analyzer` command's first moments (the console script and `python -m analyzer` start here).

Importing the command takes a fraction of a second, more on a busy machine; a Ctrl-C or SIGTERM
meanwhile ends it as at any other moment before play: one line, status 130 (analyzer.interrupts). So
this module imports nothing of the analyzer before its handlers are in place."""
import signal
import sys


def entry():
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
