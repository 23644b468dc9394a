"""Bring the Noize's kernel entries: the default kernels (engine.py) or, when a seat plays lookahead, the
lookahead's (lookahead.py, compiled on first use; the default kernels never compile it). Above both, so that
neither imports the other."""
from analyzer.games.noize import engine, lookahead


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """Games first_game .. first_game + len(out) - 1 into out (engine.batch, or lookahead.batch_look)."""
    kernel = lookahead.batch_look if lookahead.uses_lookahead(pol) else engine.batch
    kernel(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out)


def play_game(seed, game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace, trace_on):
    """One game, its events into trace (engine.play_game, or lookahead.play_game_look)."""
    play = lookahead.play_game_look if lookahead.uses_lookahead(pol) else engine.play_game
    return play(seed, game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace, trace_on)
