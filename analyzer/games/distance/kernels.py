"""The Distance's kernel entries: the default kernels (engine.py) or, when a seat plays lookahead, the
lookahead's (lookahead.py, compiled on first use; the default kernels never compile it). Above both, so that
neither imports the other."""
from analyzer.games.distance import engine, lookahead


def batch(seed, first_game, config, rates, out):
    """Games first_game .. first_game + len(out) - 1 into out (engine.batch, or lookahead.batch_look)."""
    if lookahead.uses_lookahead(config):
        lookahead.batch_look(seed, first_game, config, rates, out)
    else:
        engine.batch(seed, first_game, config, rates, out)


def play_game(seed, game, config, rates, out, trace, trace_on):
    """One game, its events into trace (engine.play_game, or lookahead.play_game_look)."""
    play = lookahead.play_game_look if lookahead.uses_lookahead(config) else engine.play_game
    return play(seed, game, config, rates, out, trace, trace_on)


def compile_parts(arm):
    """The batch kernel's callees that compile apart from it, largest first, with the types engine.run calls them
    with (Game.extra["compile_parts"]: on a cold start a helper process compiles some while the command compiles the
    rest: analyzer.compile_aside). A signature that no longer matches only costs the helper's time."""
    from numba import types

    from analyzer.games.distance import policies

    st, row, rng, trace, i = types.int64[::1], types.int64[::1], types.uint64[::1], types.int64[:, ::1], types.int64
    return [(engine.begin, (st, rng, row, trace, i)),
            (engine.greedy_turns, (st, i, i, i, i, rng, row, trace)),
            (policies.avoiding_play, (st, i, i, rng, i)),
            (engine._record_misplay, (st, i, i, i, i, i, types.float64, trace, i)),
            (engine._end_settled, (st, row, trace, i, i, i, i))]
