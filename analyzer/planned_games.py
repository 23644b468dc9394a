"""How many games the command in this process plays before its report replays traced games: for a kernel whose
compile pays only over many games.

Fight Song's greedy fast path (analyzer/games/fightsong/fast.py) plays a game about 1.3 us faster than the general
kernel on two threads, but a report's traced games are played by the general kernel, so `analyzer run` compiles both:
the fast path adds 1.0-1.5 s to its cold start. Under a plan of fewer games than pay for that, the batch plays by the
general kernel unless the fast path is compiled already (in this process or numba's cache). Only a command that
writes such a report sets a plan (`analyzer run`: cli._play_and_write); a run without one (the API, `analyzer tune`'s
trials, the bench, the tests) compiles no general kernel for traces and plays by the fast path as it always did.
Which kernel plays never changes a result: both play the same games.
"""
from __future__ import annotations

from contextlib import contextmanager

_games = None  # games (deals x configurations) planned before the traced ones; None: no plan


@contextmanager
def planning(games: int):
    """Within it, the plan is `games`."""
    global _games
    before, _games = _games, int(games)
    try:
        yield
    finally:
        _games = before


def planned() -> int | None:
    """The games planned, or None if nothing set a plan."""
    return _games
