"""Run the `analyzer` command as its console script does, sending itself a signal at chosen moments
(tests/test_signals.py): the moments are calls of the analyzer's own functions, so each lands in the
phase it names whatever the machine's speed.

    python tests/signal_at.py SIGNAL WHERE [WHERE ...] -- analyzer arguments...

WHERE is `module:function:N` (the signal is sent just before the N-th call of module.function, counting
from 1; function may be Class.method), optionally followed by `@module:function:M` (count only the calls
made once the M-th call of that one has begun), or `import:click` (while the command's modules are
imported). The signal goes to the whole process group, as a terminal's Ctrl-C does (start this in a
session of its own)."""
import importlib
import importlib.abc
import os
import signal
import sys

calls = {}  # "module:function" -> calls begun so far
triggers = []  # [key, n, after key or None, after m, calls counted, signal]


def send(sig):
    os.killpg(os.getpgrp(), sig)


class SignalOnImport(importlib.abc.MetaPathFinder):
    """Sends the signal when `name` starts being imported."""

    def __init__(self, name, sig):
        self.name, self.sig = name, sig

    def find_spec(self, fullname, path, target=None):
        if fullname == self.name:
            sys.meta_path.remove(self)
            send(self.sig)
        return None


def watch(key):
    """Count the calls of module:function (or module:Class.method), and fire the triggers on them."""
    if key in calls:
        return
    calls[key] = 0
    module_name, function = key.split(":")
    owner = importlib.import_module(module_name)
    *classes, name = function.split(".")
    for cls in classes:
        owner = getattr(owner, cls)
    real = getattr(owner, name)

    def wrapped(*args, **kwargs):
        calls[key] += 1
        for trigger in triggers:
            target, n, after, m, _, sig = trigger
            if target == key and (after is None or calls[after] >= m):
                trigger[4] += 1
                if trigger[4] == n:
                    send(sig)
        return real(*args, **kwargs)

    setattr(owner, name, wrapped)  # (callers in that module look the name up at each call)


def parse(where):
    module_name, function, *n = where.split(":")
    return f"{module_name}:{function}", int(n[0]) if n else 1


def run_signalled(sig, wheres, args, timeout=600):
    """The CompletedProcess (text output) of `analyzer ARGS` run by this script, sending itself `sig` (a name:
    "SIGINT") at each of wheres. It runs in a session of its own, so that the signal goes to its process group, not
    to pytest's, and with Ctrl-C as in a terminal even where the tests run with it ignored (a background job)."""
    import subprocess

    return subprocess.run([sys.executable, __file__, sig, *wheres, "--", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, start_new_session=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def main():
    split = sys.argv.index("--")
    sig = getattr(signal, sys.argv[1])
    wheres, sys.argv = sys.argv[2:split], ["analyzer"] + sys.argv[split + 1:]
    for where in wheres:
        if where.startswith("import:"):
            sys.meta_path.insert(0, SignalOnImport(where.split(":")[1], sig))
            continue
        target, _, after = where.partition("@")
        key, n = parse(target)
        after_key, m = parse(after) if after else (None, 0)
        triggers.append([key, n, after_key, m, 0, sig])
        for k in (key, after_key):
            if k is not None:
                watch(k)
    from analyzer.__main__ import entry

    entry()


if __name__ == "__main__":
    main()
