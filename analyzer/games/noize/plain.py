"""Bring the Noize's plain fast path: a block of games where every seat looks its moves up and none bluffs (every seat
`threshold` with bluff 0: its moves tabulated, actions.py), untraced and uncounted, played by a kernel compiled for
that case only. engine.run decides at run time (trace_on, its `plain` test, keep_counts) and carries the general
bidding, the events and the counting in the same function: there LLVM kept about a dozen of the deal's loop
invariants on the stack (callgrind: 64 instructions a seat dealt, 14 of them loads from the stack) and tested the flags
at every seat. Here those are constants, the deal finds a seat's row of moves from offsets computed once per batch
(`row_offsets`), the row is written once at the game's end (`_end`), and the game is otherwise engine's own pieces
(opening_deck, _plain_bidding, _settle, _shuffle, drama_lanes), so its result rows are engine.run's to the last column
(tests/test_noize_plain.py plays the same games both ways, every column of rows filled with -7 first).

(Four games in flight per thread, as noize.c's kernel 2, was built on this case and measured no faster:
docs/performance.md, "eighth session".)
"""
import functools

import numpy as np
from numba import njit

from analyzer.games import drama
from analyzer.games.layout import col
from analyzer.games.noize import drama_lanes
from analyzer.games.noize import engine as E
from analyzer.prefetch import prefetch
from analyzer.rng import reset_streams
from analyzer.threads import run_in_blocks


def applies(rules, par, seat_rows):
    """Whether a batch of these settings is plain: every seat has a row of tabulated moves (so it plays threshold and
    avoids nothing) and never bluffs, and no decision is counted (analyzer profile)."""
    return (rules[E.R_COUNT] == 0 and bool((seat_rows >= 0).all())
            and bool((par[:, E.TH_BLUFF] == 0.0).all()))


def row_offsets(rules, width, seat_rows):
    """engine._deal's row of moves, (seat_rows[p] + (hand's number) * n_hidden + hidden - hidden_low) * width with
    hidden = in_play - h, split into terms known before the game: (seat_base, hand_base, hand_stride, bits) with

        row = seat_base[p] + in_play * width + hand_base[code] + Drums held * hand_stride

    where code = ((h << bits | Guitars) << bits | Keyboards) << bits | Vocals (engine.hand_index's code with h in place
    of h - start: hand_base's first start << 3 bits entries are never read). seat_base[p] = (seat_rows[p] -
    hidden_low) * width; hand_base[code] = (the number engine.first_hands gives the hand with no Drums * n_hidden - h)
    * width; hand_stride = n_hidden * width. So the deal finds a row with two loads and one multiply. Computed once per
    setting (about 17 us of numpy: a tenth of the Python around a block of games)."""
    _, _, start, bits, hidden_low, n_hidden, _ = E.geometry_of.py_func(rules, 0, width)
    return _row_offsets(int(start), int(rules[E.R_FINISH]), int(bits), int(hidden_low), int(n_hidden), int(width),
                        tuple(int(r) for r in seat_rows))


@functools.lru_cache(maxsize=64)
def _row_offsets(start, finish, bits, hidden_low, n_hidden, width, seat_rows):
    first_hand = E.first_hands(start, finish)  # (actions.py's table of the hands' numbers)
    seat_base = (np.array(seat_rows, dtype=np.int64) - hidden_low) * width
    h = start + (np.arange(first_hand.size, dtype=np.int64) >> 3 * bits)
    hand_base = np.concatenate([np.zeros(start << 3 * bits, dtype=np.int64),
                                (first_hand.astype(np.int64) * n_hidden - h) * width])
    for a in (seat_base, hand_base):
        a.flags.writeable = False  # (shared by every batch of the setting)
    return seat_base, hand_base, np.int64(n_hidden * width), np.int64(bits)


@njit(cache=True, inline="always")
def _deal_rows(n, D, pos, starter, in_play_width, bits, hand, prefix, seat_base, hand_base, hand_stride, row_at,
               moves_flat, width):
    """engine._deal for a plain table: each seat's row of moves (row_offsets) into row_at, from the dealer's left, a
    stretch of the cyclic deck each. Returns the next deal position."""
    p = starter
    dealt_before = prefix[E._u(pos)]
    for _ in range(n):
        h = hand[E._u(p)]
        pos += h
        dealt_after = prefix[E._u(pos)]
        dealt = dealt_after - dealt_before
        dealt_before = dealt_after
        code = ((h << bits | E._field(dealt, 2)) << bits | E._field(dealt, 1)) << bits | E._field(dealt, 0)
        row = seat_base[E._u(p)] + in_play_width + hand_base[E._u(code)] + E._field(dealt, 3) * hand_stride
        row_at[E._u(p)] = row
        prefetch(moves_flat, row)  # its cache lines, while the other hands are dealt
        if width > 64:
            prefetch(moves_flat, row + 64)
        p = E._next_seat(p, n)
    return pos - D if pos >= D else pos


@njit(cache=True, inline="always")
def _first_power(prefix, n, start):
    """engine._deal's card power: the Groupies of each seat's first hand, 2 bits a seat. Round 1 is dealt from the
    top of the opening shuffle, seat 0 first (the dealer is the last seat), start cards each."""
    power = 0
    for p in range(n):
        dealt = prefix[(p + 1) * start] - prefix[p * start]
        power |= min(E._field(dealt, E.GROUPIE), 2) << (2 * p)
    return power


@njit(cache=True, inline="always")
def _end(n, hand, rounds, standings, power, out):
    """engine.end_game's columns for an untraced game, every column of the row but the three _settle adds to: the
    same pieces (final_hands, power_columns, drama.columns), with the drama read from its lanes. (end_game,
    drama_lanes.write and drama.finish through the row's drama block, with the row cleared at the start, cost about
    7% of a plain game: docs/performance.md.)"""
    _, _, last, deficit, _, changes, _ = standings
    low, winner = E.final_hands(n, hand, rounds, out)
    E.power_columns(n, power, out)
    out[col(E.R_BLUFF, n)] = 0
    for c in range(col(E.R_CHOICES, n), col(E.R_ROW_END, n)):
        out[c] = 0
    w = max(winner, 0)  # (the lanes are read only if a single seat won)
    margin = 1 << 62  # the winner's margin (standings are minus the hands): another seat's fewest cards, less its own
    for p in range(n):
        if p != w:
            margin = min(margin, hand[p] - low)
    drama.columns(out, col(E.R_DRAMA, n), changes, rounds, winner >= 0, drama_lanes.lane(last, w) - 1,
                  drama_lanes.lane(deficit, w), margin)


@njit(cache=True, _nrt=False, nogil=True)
def run_plain(seed, first_game, lo, hi, rules, deck, moves_flat, width, seat_base, hand_base, hand_stride, bits, rng,
              stack, prefix, hand, cnt, row_at, out):
    """engine.run's games first_game + lo .. first_game + hi - 1 into out[lo:hi], for a plain table (`applies`)."""
    n = rules[E.R_PLAYERS]
    finish = rules[E.R_FINISH]
    start = rules[E.R_START]
    shuffle_each_round = rules[E.R_SHUFFLE] != 0
    D = deck.shape[0]
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        row = out[i]
        E.opening_deck(rules, deck, rng, stack, prefix)
        for p in range(n):
            hand[p] = start
        # (the row is not cleared: _settle adds to these three columns, _end writes every other)
        row[col(E.R_CHW, n)] = 0
        row[col(E.R_BIDS, n)] = 0
        row[col(E.R_OPEN, n)] = 0
        standings = drama_lanes.deal(n, start)
        power = _first_power(prefix, n, start)
        pos = 0
        starter = 0  # the player left of the dealer, the last seat in round 1
        in_play = n * start  # every hand's cards: one more each round
        rounds = 0
        while True:
            in_play_cards = prefix[E._u(pos + in_play)] - prefix[E._u(pos)]
            pos = _deal_rows(n, D, pos, starter, in_play * width, bits, hand, prefix, seat_base, hand_base,
                             hand_stride, row_at, moves_flat, width)
            cur, bidder, seat, bids = E._plain_bidding(moves_flat, row_at, starter, n)
            over, loser, rounds, _ = E._settle(n, cur, bidder, seat, bids, in_play_cards, starter, rounds, finish, hand,
                                               cnt, row, E.NO_TRACE, 0, False)
            standings = drama_lanes.lost(standings, loser, rounds)
            if over:
                break
            starter = E._next_seat(starter, n)  # this round's starter deals the next
            in_play += 1
            if shuffle_each_round:  # the house rule: the whole deck before every round but the first
                E._shuffle(rng, stack, D, prefix)
                pos = 0
        _end(n, hand, rounds, standings, power, row)


def play_chunk(seed, first_game, lo, hi, rules, deck, actions, seat_base, hand_base, hand_stride, bits, out):
    """engine.play_chunk's games for a plain table (untraced, uncounted), with one set of scratch arrays."""
    n = int(rules[E.R_PLAYERS])
    stack, prefix, hand, cnt, row_at, _ = E._scratch(deck, n)
    rng = np.zeros(2, dtype=np.uint64)  # the deal's stream only: no seat draws
    run_plain(np.uint64(seed), np.int64(first_game), np.int64(lo), np.int64(hi), rules, deck,
              actions.reshape(actions.size), np.int64(actions.shape[1]), seat_base, hand_base, hand_stride, bits,
              rng, stack, prefix, hand, cnt, row_at, out)


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.batch's games for a plain table, in blocks on numba.get_num_threads() threads."""
    offsets = row_offsets(rules, actions.shape[1], seat_rows)
    run_in_blocks(play_chunk, out.shape[0], E.CHUNK, (seed, first_game), (rules, deck, actions, *offsets, out))
