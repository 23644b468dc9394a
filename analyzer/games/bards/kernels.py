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


def compile_parts(arm):
    """The batch kernel's callees that compile apart from it (Game.extra["compile_parts"]: on a cold start a helper
    process compiles the kernel while the command compiles these, the last listed first: analyzer.compile_aside), with
    the types engine.run (or, for pick, play_group) calls them with. play_group and the greedy evaluation under it
    (pick, move_values...) are about a third of the kernel's compile; the others are the callees the kernel's typing
    reaches last (the pile's values, the split, the game's end), done by the command by the time the helper gets there
    (cold bards-greedy: the helper's callees done 0.5 s sooner). pick, listed last, comes first: the helper's
    group_values calls move_values, which play_group's typing reached only after do_conclude's, so the helper waited
    for the command's compile of it (about 1 s of a cold start, docs/performance.md). A signature that no longer
    matches only costs the command's time (tests/test_compile_parts.py checks that they match)."""
    from numba import types

    from analyzer.games.bards import policies, state

    arr, table, i, f = types.int64[::1], types.int64[:, ::1], types.int64, types.float64
    floats, float_table = types.float64[::1], types.float64[:, ::1]
    tale = types.UniTuple(types.int64, 10)  # (policies: a tale in the simulation)
    return [(state.finish, (arr, arr)),
            (policies.conclude_all, (arr, table, i, table, types.uint64[::1], table, types.boolean)),
            (policies.choice_sides, (arr, table, i, i, float_table, floats, floats, floats)),
            (policies.split_payoff, (i, floats, floats, i, f, f, f, f, i)),
            (policies.pile_sum_cached, (arr, table, i, i, float_table, floats)),
            # play_group(st, tbl, seat, cards, k, pint, pflt, rng, scr, tr, on, counts): counts None, as a plain run's
            (policies.play_group, (arr, table, i, arr, i, table, float_table, types.uint64[::1], arr, table,
                                   types.boolean, types.none)),
            # pick(t0, t1, avail, used, mg, tbl, cards, mask, mexc, hope, meme_keep, conclude_at), play_group's
            (policies.pick, (tale, tale, i, i, types.boolean, table, arr, i, i, f, f, f))]
