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
