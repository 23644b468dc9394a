"""Fight Song's kernel entries: the default kernels (engine.py) or, when a seat plays lookahead, the lookahead's
(lookahead.py, compiled on first use; the default kernels never compile it). Above both, so that neither imports
the other."""
from analyzer.games.fightsong import engine, fast, lookahead


def batch(seed, first_game, cfg, out):
    """Games first_game .. first_game + len(out) - 1 of the run configured by cfg into out (fast.batch: the greedy
    fast path or engine.batch; or lookahead.batch_look)."""
    kernel = lookahead.batch_look if lookahead.uses_lookahead(cfg.tables.pol) else fast.batch
    kernel(seed, first_game, cfg, out)


def play_game(seed, game, cfg, out, trace):
    """One game, its events into trace (engine.play_game, or lookahead.play_game_look)."""
    play = lookahead.play_game_look if lookahead.uses_lookahead(cfg.tables.pol) else engine.play_game
    return play(seed, game, cfg, out, trace)


def compile_parts(arm):
    """The general kernel's callees that compile apart from it (Game.extra["compile_parts"]: on a cold start the
    command compiles them beside the greedy fast path and the fold while a helper compiles engine.run:
    analyzer.compile_aside), with the types engine.run calls them with. count_battle (the profile's count of a
    battle, a run-time branch of fight_song_round's caller) took about 0.6 s of the helper's 10 s. For an arm with a
    lookahead or search seat, also the search playouts' engine.run (resume_signature): the helper compiling the
    lookahead kernel reaches it about 10 s in and spent 8-9 s on it while the command, its own jobs done, waited
    (docs/performance.md, issue 30's thirteenth session); listed last, the command compiles it first. For an arm whose
    batch plays by engine.run (not the greedy fast path: fast.plays_fast), also fight_song_round and play_board.
    A signature that no longer matches only costs the command's time (tests/test_compile_parts.py checks that they
    match)."""
    import numba
    from numba import types

    from analyzer.games import get_game
    from analyzer.games.fightsong import choices

    a, i = types.int64[::1], types.int64
    parts = [(choices.count_battle, (a, a, a, types.int8[:, :, ::1], types.int64[:, :, ::1], i, i))]
    # (no compile: what an encoding compiles is compiled by the scenario's load already). The kernels are given an
    # engine.Config (the batch builds one from the encoding's fields), not the encoding (a subclass: another type to
    # numba)
    cfg = engine.Config(*arm.encoded(get_game("fightsong")))
    if lookahead.uses_lookahead(cfg.tables.pol):
        parts.append((engine.run, resume_signature(cfg)))
    elif not fast.plays_fast(cfg):
        # the batch plays by engine.run, which the helper compiles for the traced games (the same signature): the
        # command compiles its two largest callees meanwhile (a cold fightsong-4p of 1,000 deals: 7.6-8.3 s against
        # 8.9-10.3 s with the fast path compiled, docs/performance.md)
        tab, om = numba.typeof(cfg.tables), types.Omitted(None)
        a3, u, t2, b = types.int64[:, :, ::1], types.uint64[::1], types.int64[:, ::1], types.boolean
        parts.append((engine.fight_song_round, (a, a, a3, tab, u, t2, b, i, i, i, i, om, om)))
        parts.append((engine.play_board, (a, a3, tab, u, t2, b, i, i, i, om, om)))
    return parts


def resume_signature(cfg):
    """The argument types of engine.run as search_ops._run calls it (a playout resuming a game), for a game configured
    by cfg: the batch's (engine.play_block), but for the result row and trace the playouts are given and `resume`."""
    import numba
    from numba import types

    ints, table = types.int64[::1], types.int64[:, ::1]
    return (types.uint64, types.int64, types.int64, types.int64, numba.typeof(cfg), table, table, types.boolean, ints,
            ints, types.int64[:, :, ::1], types.uint64[::1], types.none, ints)
