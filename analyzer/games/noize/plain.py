"""Bring the Noize's plain fast path: a block of games where every seat looks its moves up and none bluffs (every seat
`threshold` with bluff 0: its moves tabulated, actions.py), untraced and uncounted, played by a kernel compiled for
that case only. engine.run decides at run time (trace_on, its `plain` test, keep_counts) and carries the general
bidding, the events and the counting in the same function: there LLVM kept about a dozen of the deal's loop
invariants on the stack (callgrind: 64 instructions a seat dealt, 14 of them loads from the stack) and tested the flags
at every seat. Here those are constants, and the game is engine's own pieces (begin_game, _open_round, _deal,
_plain_bidding, _settle, drama_lanes, end_game), so its result rows are engine.run's to the last column
(tests/test_noize_plain.py plays the same games both ways).

(Four games in flight per thread, as noize.c's kernel 2, was built on this case and measured no faster:
docs/performance.md, "eighth session".)
"""
import numpy as np
from numba import njit

from analyzer.games.noize import drama_lanes
from analyzer.games.noize import engine as E
from analyzer.rng import reset_streams
from analyzer.threads import run_in_blocks


def applies(rules, par, seat_rows):
    """Whether a batch of these settings is plain: every seat has a row of tabulated moves (so it plays threshold and
    avoids nothing) and never bluffs, and no decision is counted (analyzer profile)."""
    return (rules[E.R_COUNT] == 0 and bool((seat_rows >= 0).all())
            and bool((par[:, E.TH_BLUFF] == 0.0).all()))


@njit(cache=True, _nrt=False, nogil=True)
def run_plain(seed, first_game, lo, hi, rules, deck, moves_flat, width, seat_rows, first_hand, rng, stack, prefix, hand,
              cnt, row_at, moves, out):
    """engine.run's games first_game + lo .. first_game + hi - 1 into out[lo:hi], for a plain table (`applies`)."""
    n = rules[E.R_PLAYERS]
    finish = rules[E.R_FINISH]
    start = rules[E.R_START]
    D = deck.shape[0]
    geometry = E.geometry_of(rules, D, width)
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        row = out[i]
        E.begin_game(rules, deck, rng, stack, prefix, hand, moves, row, E.NO_TRACE, False)
        standings = drama_lanes.deal(n, start)
        power = 0
        pos = 0
        dealer = n - 1
        rounds = 0
        while True:
            starter, pos, _ = E._open_round(rules, n, D, rng, stack, prefix, pos, dealer, rounds, E.NO_TRACE, 0, False)
            _, in_play_cards, pos, power, _ = E._deal(geometry, pos, starter, rounds, False, stack, prefix, hand, cnt,
                                                      seat_rows, first_hand, moves_flat, row_at, power, E.NO_TRACE, 0,
                                                      False)
            cur, bidder, seat, bids = E._plain_bidding(moves_flat, row_at, starter, n)
            over, loser, rounds, _ = E._settle(n, cur, bidder, seat, bids, in_play_cards, starter, rounds, finish, hand,
                                               cnt, row, E.NO_TRACE, 0, False)
            standings = drama_lanes.lost(standings, loser, rounds)
            if over:
                break
            dealer = starter
        E.end_game(n, finish, hand, rounds, loser, standings, power, row, E.NO_TRACE, 0, False)


def play_chunk(seed, first_game, lo, hi, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.play_chunk's games for a plain table (untraced, uncounted), with one set of scratch arrays."""
    n = int(rules[E.R_PLAYERS])
    stack, prefix, hand, cnt, row_at, moves = E._scratch(deck, n)
    run_plain(np.uint64(seed), np.int64(first_game), np.int64(lo), np.int64(hi), rules, deck,
              actions.reshape(actions.size), np.int64(actions.shape[1]), seat_rows, first_hand,
              np.zeros(2 * (1 + n), dtype=np.uint64), stack, prefix, hand, cnt, row_at, moves, out)


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.batch's games for a plain table, in blocks on numba.get_num_threads() threads."""
    run_in_blocks(play_chunk, out.shape[0], E.CHUNK, (seed, first_game),
                  (rules, deck, pol, par, table, actions, seat_rows, first_hand, out))
