"""Playing a profile's games: result rows of one configuration over chosen game indices, on the run's threads.

The profile needs every game's row (the luck split pairs games deal by deal, replay by replay), so it calls the
game's kernel directly (`Game.run_batch`) in blocks of deals, not the runner's folding; a signal between blocks
stops it with every finished block kept (the caller reads `Stopped`).
"""
from __future__ import annotations

import numpy as np

from analyzer.rng import REPLAY_SHIFT

BLOCK_DEALS = 500  # deals a block of play (every replay of them): a stop keeps whole blocks


class Stopped(Exception):
    """A signal came: the games of the blocks finished are kept (`rows`: deals played so far)."""

    def __init__(self, rows):
        super().__init__("stopped")
        self.rows = rows


def seats_at(game, level_seat, own_seats, players, source="(profile)"):
    """The seats of a level: every seat plays level_seat (a seat spec dict), or own_seats when it is None."""
    if level_seat is None:
        return list(own_seats)
    return [game.validate_seat(dict(level_seat), source, "level") for _ in range(players)]


def encode(game, rules, seats, count_choices=True):
    """The kernel's arrays for rules and seats, the decision counts on (base.Choices) unless told otherwise."""
    return game.encode({**rules, "count_choices": True} if count_choices else rules, seats)


def replay_index(deal, replay):
    """The game index of `replay` of deal `deal` (analyzer.rng: the deal's shuffles, decisions of its own)."""
    return deal + (replay << REPLAY_SHIFT)


def rows(game, encoded, seed, players, deals, replays=1, interrupts=None):
    """Result rows (replays, deals, columns) of deals 0 .. deals - 1, each played `replays` times (replay 0: the
    game a run plays at that index). Raises Stopped (with the rows of the whole blocks played) if a signal comes."""
    width = len(game.columns(players))
    out = np.zeros((replays, deals, width), dtype=np.int64)
    for lo in range(0, deals, BLOCK_DEALS):
        hi = min(deals, lo + BLOCK_DEALS)
        for r in range(replays):
            game.run_batch(encoded, seed, replay_index(lo, r), out[r, lo:hi])
        if interrupts is not None and interrupts.signal is not None and hi < deals:
            raise Stopped(out[:, :hi])
    return out
