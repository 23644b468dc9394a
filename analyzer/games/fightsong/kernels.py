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
    battle, a run-time branch of fight_song_round's caller) took about 0.6 s of the helper's 10 s. A signature that no
    longer matches only costs the command's time (tests/test_compile_parts.py checks that it matches)."""
    from numba import types

    from analyzer.games.fightsong import choices

    a, i = types.int64[::1], types.int64
    return [(choices.count_battle, (a, a, a, types.int8[:, :, ::1], types.int64[:, :, ::1], i, i))]
