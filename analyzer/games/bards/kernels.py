"""Battle of the Bards' kernel entries: the default kernel (engine.py) or, when a seat plays lookahead, the
lookahead's (lookahead.py, compiled on first use; the default kernel never compiles it). Above both, so that
neither imports the other."""
from analyzer.games.bards import engine, lookahead


def batch(seed, first_game, tbl, pint, pflt, out):
    """Games first_game .. first_game + len(out) - 1 into out (engine.batch, or lookahead.batch_look)."""
    if lookahead.uses_lookahead(pint):
        lookahead.batch_look(seed, first_game, tbl, pint, pflt, out)
    else:
        engine.batch(seed, first_game, tbl, pint, pflt, out)


def play_one(seed, game, tbl, pint, pflt, out, trace, order=engine.NO_ORDER):
    """One game, its events into trace (engine.play_one, or lookahead.play_one_look); returns the number of
    events written (-1 if the trace buffer was too small)."""
    play = lookahead.play_one_look if lookahead.uses_lookahead(pint) else engine.play_one
    return play(seed, game, tbl, pint, pflt, out, trace, order)
