"""High Card's trace: the kernel's event rows decoded as events.py declares them, and lines a person reads."""
from types import SimpleNamespace

import numpy as np

from analyzer.games.base import record_events

from .events import EVENTS
from .kernel import play_game
from .state import C_DECK, C_PLAYERS, ROW, TRACE_WIDTH


def context(encoded):
    """What decoding and checking an event needs: the players, the deck's size."""
    return SimpleNamespace(players=int(encoded[0][C_PLAYERS]), deck=int(encoded[0][C_DECK]))


def play_traced(encoded, seed, game_index):
    """(events, result row) of one game, played by the batch's own code."""
    ctx = context(encoded)
    out = np.zeros(ROW.width(ctx.players), dtype=np.int64)
    rows = record_events(lambda buf: play_game(np.uint64(seed), game_index, encoded[0], out, buf, np.int64(1)),
                         128, TRACE_WIDTH)
    return [EVENTS.decode(row, ctx) for row in rows], out


LINES = {"deal": "Seat {seat} is dealt {cards}", "trick": "\n-- Trick {trick}: seat {leader} leads",
         "play": "  seat {seat} plays {card}", "won": "  seat {seat} wins the trick with {card}",
         "end": "\nGame over ({end}): the winners are seats {winners}; tricks per seat: {tricks}"}


def format_event(ev):
    return LINES[ev["type"]].format(**ev)
