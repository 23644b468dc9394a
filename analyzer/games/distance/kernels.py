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
