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


def compile_parts(arm):
    """The kernel to compile apart (Game.extra["compile_parts"]: on a cold start this process compiles it while a
    helper compiles the rest, analyzer.compile_aside): engine.run, which plays the batch (unless every seat plays plain)
    and always the traced games, with the types play_chunk calls it with. Not a callee but the kernel itself: the
    encoding (tail_table, actions' tables: about 2 s of compiles) must come before any call of it, so without this part
    this process encoded, then compiled run, while the helper folded and then waited (cold noize-4p: 2 s longer).
    With a lookahead or search seat the lookahead's kernel plays both, and its helper's compile is the start's
    critical path: the part is then the tree search it calls (lookahead.search_tree_signature), which the helper
    reached about 7 s in and compiled for 8 s while this process, its own jobs done, waited (a cold
    noize-first-player-by-skill: 26.1-26.3 -> 22.9-23.5 s, docs/performance.md). None when the seats make the batch
    plain (`_plain_seats`): there run is only the traced games' kernel, which a run without traces (the API's, tune's,
    the bench's) never compiles. A signature that no longer matches only costs the command's time
    (tests/test_compile_parts.py checks that it matches)."""
    from numba import types

    if any(seat.policy in ("lookahead", "search") for seat in arm.seats):
        return [(lookahead.search_tree, lookahead.search_tree_signature())]
    if _plain_seats(arm):
        return []
    i, ints, table = types.int64, types.int64[::1], types.int64[:, ::1]
    count = types.int64 if arm.rules.get("count_choices") else types.none
    # run(seed, first_game, lo, hi, rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, rng, stack,
    #     prefix, hand, cnt, row_at, moves, out, trace, trace_on, count)
    return [(engine.run, (types.uint64, i, i, i, ints, ints, ints, types.float64[:, ::1],
                          types.Array(types.float64, 5, "C"), types.int8[::1], i, ints, types.int32[::1],
                          types.uint64[::1], ints, ints, ints, table, ints, ints, table, table, i, count))]


def _plain_seats(arm):
    """Whether the arm's seats make its batch plain (plain.applies, read from the seats: every seat threshold, avoiding
    nothing, never bluffing, no decision counted). plain.applies on the encoding also asks that the seats' table of
    moves fits: where it does not, engine.run plays the batch and compile_parts has missed it (time, not results)."""
    return not arm.rules.get("count_choices") and all(
        seat.policy == "threshold" and seat.params["bluff"] == 0 and seat.params["avoid"] == "none"
        for seat in arm.seats)
