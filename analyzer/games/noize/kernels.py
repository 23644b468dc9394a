"""Bring the Noize's kernel entries: the default kernels (engine.py); when a seat plays lookahead, the lookahead's
(lookahead.py); for a batch of plain tables (every seat threshold with bluff 0, nothing counted), the plain fast path
(plain.py). Each compiled on first use; the default kernels compile neither. Above them all, so that none imports
another."""
from analyzer.games.noize import engine, lookahead, plain


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """Games first_game .. first_game + len(out) - 1 into out (engine.batch, lookahead.batch_look or plain.batch: the
    same games)."""
    if lookahead.uses_lookahead(pol):
        kernel = lookahead.batch_look
    elif plain.applies(rules, par, seat_rows):
        kernel = plain.batch
    else:
        kernel = engine.batch
    kernel(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out)


def play_game(seed, game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace, trace_on):
    """One game, its events into trace (engine.play_game, or lookahead.play_game_look)."""
    play = lookahead.play_game_look if lookahead.uses_lookahead(pol) else engine.play_game
    return play(seed, game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace, trace_on)
