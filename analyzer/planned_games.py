"""How many games the command in this process means to play: for a kernel whose compile pays only over many games.

Fight Song's greedy fast path (analyzer/games/fightsong/fast.py) plays a game 1.3 us faster than the general kernel
on two threads but adds 1.0-1.5 s to a cold start: a short run plays by the general kernel unless the fast path is
compiled already (in this process or numba's cache). The outermost caller that knows the whole plan sets it (`analyzer tune` all its trials,
the runner one run); a call that sets none (the bench, a test calling a batch kernel) plays as a long run does.
Which kernel plays never changes a result: both play the same games.
"""
from __future__ import annotations

from contextlib import contextmanager

_games = None  # games (deals x configurations) planned; None: no plan known


@contextmanager
def planning(games: int):
    """Within it, the plan is `games`, unless a caller around it has set one already (it knows more)."""
    global _games
    before = _games
    if before is None:
        _games = int(games)
    try:
        yield
    finally:
        _games = before


def planned() -> int | None:
    """The games planned, or None if nothing set a plan."""
    return _games
