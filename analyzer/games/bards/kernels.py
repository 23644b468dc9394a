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


def compile_parts(encoded):
    """The batch kernel's callees that compile apart from it (Game.extra["compile_parts"]: on a cold start a helper
    process compiles some while the command compiles the rest: analyzer.compile_aside), with the types engine.run
    calls them with. play_group and the greedy evaluation under it (group_values, pile_sum_cached, pick...) are about
    a third of the kernel's compile. A signature that no longer matches only costs the helper's time."""
    from numba import types

    from analyzer.games.bards import policies

    arr, table, i = types.int64[::1], types.int64[:, ::1], types.int64
    # play_group(st, tbl, seat, cards, k, pint, pflt, rng, scr, tr, on, counts): counts None, as a plain run's
    return [(policies.play_group, (arr, table, i, arr, i, table, types.float64[:, ::1], types.uint64[::1], arr, table,
                                   types.boolean, types.none))]
