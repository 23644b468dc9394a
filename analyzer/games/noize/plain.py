"""Bring the Noize's plain fast path: a block of games where every seat looks its moves up and none bluffs (every seat
`threshold` with bluff 0: its moves tabulated, actions.py), untraced and uncounted, played by a kernel compiled for
that case only. engine.run decides at run time (trace_on, its `plain` test, keep_counts) and carries the general
bidding, the events and the counting in the same function: there LLVM kept about a dozen of the deal's loop
invariants on the stack (callgrind: 64 instructions a seat dealt, 14 of them loads from the stack) and tested the flags
at every seat. Here those are constants, the deal finds a seat's row of moves from offsets computed once per batch
(`row_offsets`), the row is written once at the game's end (`_end`), the bidding is _plain_bidding's for two games at
once (`_bid_two`), the opening decks are shuffled two games at a time (`_shuffle_pair`: engine._shuffle's
permutation and prefix sums), and the game is otherwise engine's own pieces (_settle, final_hands, power_columns,
drama_lanes, drama.columns), so its result rows are engine.run's to the last column (tests/test_noize_plain.py plays
the same games both ways, every column of rows filled with -7 first).

Two games are in flight (run_plain): a round's bidding is a chain of loads, each waiting on the one before, and two
games' chains bid side by side overlap (about 10% of a game's time). The eighth session's four games in flight, each
slot's state through memory, were no faster (docs/performance.md).
"""
import functools

import numpy as np
from numba import njit

from analyzer.games import drama
from analyzer.games.layout import col
from analyzer.games.noize import drama_lanes
from analyzer.games.noize import engine as E
from analyzer.prefetch import prefetch
from analyzer.rng import DEAL, reset_streams, swap_partners
from analyzer.threads import run_in_blocks


def applies(rules, par, seat_rows):
    """Whether a batch of these settings is plain: every seat has a row of tabulated moves (so it plays threshold and
    avoids nothing) and never bluffs, no decision is counted (analyzer profile) and the deck is shuffled (not stacked:
    tests)."""
    return (rules[E.R_COUNT] == 0 and rules[E.R_STACKED] == 0 and bool((seat_rows >= 0).all())
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
def _deal_rows(n, D, pos, starter, in_play_width, bits, hand, prefixes, at, seat_base, hand_base, hand_stride, row_at,
               moves_flat, width):
    """engine._deal for a plain table: each seat's row of moves (row_offsets) into row_at, from the dealer's left, a
    stretch of the cyclic deck each (its prefix sums at prefixes[at:]). Returns the next deal position."""
    p = starter
    dealt_before = prefixes[E._u(at + pos)]
    for _ in range(n):
        h = hand[E._u(p)]
        pos += h
        dealt_after = prefixes[E._u(at + pos)]
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


@njit(cache=True, inline="always")
def _shuffle_units(rng, stack, D, prefix, full):
    """engine._shuffle on a stack of packed units (a card of type t is 1 << FIELD * t: its count is added without a
    shift), the same permutation and prefix sums: the house rule's shuffle (_reshuffle; the opening decks are shuffled
    two at a time, _shuffle_pair, the same loop for two decks). A card at i is not stored once its swap is done: no
    later swap reads it, and the prefix sums hold the deck (_reshuffle reads the stack back from them)."""
    swap_partners(rng, DEAL, D, prefix[D:])
    taken = 0  # packed counts of cards i .. D-1
    for i in range(D - 1, 0, -1):
        j = E._u(prefix[E._u(D + i)])
        taken += stack[j]
        stack[j] = stack[E._u(i)]
        prefix[E._u(i)] = full - taken
    _laps(prefix, D, full)


@njit(cache=True, inline="always")
def _laps(prefix, D, full):
    """The prefix sums' first entry and second time round, once prefix[1 .. D-1] are the first lap's."""
    prefix[0] = 0
    for i in range(D + 1):
        prefix[E._u(D + i)] = prefix[E._u(i)] + full


@njit(cache=True)  # (a call, not inlined: see run_plain)
def _shuffle_pair(seed, game, units, full, rng, stack, prefix, rng_next, stack_next, prefix_next):
    """The opening decks of games `game` and `game + 1` of the run keyed by seed (engine.opening_deck's prefix sums,
    each game's deal stream keyed as reset_streams keys it), their swaps in one loop: a swap's load often waits on a
    recent swap's store to the same place (about 60 of the 150 ns a deck took), and two decks' swaps overlap those
    waits (timed alone: 107-132 ns a deck against 137 one at a time, docs/performance.md). The stacks are scratch
    (_shuffle_units)."""
    D = units.shape[0]
    reset_streams(rng, seed, game)
    reset_streams(rng_next, seed, game + 1)
    for i in range(D):
        stack[i] = units[i]
        stack_next[i] = units[i]
    swap_partners(rng, DEAL, D, prefix[D:])
    swap_partners(rng_next, DEAL, D, prefix_next[D:])
    taken = 0  # packed counts of cards i .. D-1 of the deck of `game`
    taken_next = 0  # of `game + 1`'s
    for i in range(D - 1, 0, -1):
        j = E._u(prefix[E._u(D + i)])
        j_next = E._u(prefix_next[E._u(D + i)])
        taken += stack[j]
        taken_next += stack_next[j_next]
        stack[j] = stack[E._u(i)]
        stack_next[j_next] = stack_next[E._u(i)]
        prefix[E._u(i)] = full - taken
        prefix_next[E._u(i)] = full - taken_next
    _laps(prefix, D, full)
    _laps(prefix_next, D, full)


@njit(cache=True, inline="always")
def _deck_for(game, buf, reserve, reserve_buf, seed, first_game, units, full, rngs, decks):
    """Game `game`'s opening deck for a slot whose deck is in buffer `buf` (its deal stream rngs[buf]; decks[buf]: a
    stack of D cards, then the prefix sums): the reserve's buffer when the reserve holds that game, else shuffled with
    the next game's into the reserve's (_shuffle_pair). The games are handed out in order (a spare game is game hi),
    so about every other game comes from the reserve. Returns the slot's buffer, the reserve's and the game the
    reserve holds (-1: none). (The buffers' numbers swap, not arrays: a slot's arrays chosen at run time, as locals
    that change in the loop, made the kernel 20% slower.)"""
    if game == reserve:
        return reserve_buf, buf, -1
    D = units.shape[0]
    _shuffle_pair(seed, first_game + game, units, full, rngs[buf], decks[buf, :D], decks[buf, D:],
                  rngs[reserve_buf], decks[reserve_buf, :D], decks[reserve_buf, D:])
    return buf, reserve_buf, game + 1


@njit(cache=True)  # (a call, not inlined: see run_plain)
def _begin(rules, prefix, hand, row):
    """A game's start once its deck is dealt (_deck_for): every hand start cards, the three columns _settle adds to
    cleared (the row is not cleared: _end writes every other). Returns (standings, card power). Round 1 then has seat
    0 start (the dealer is the last seat) from deal position 0, every hand's cards in play."""
    n = rules[E.R_PLAYERS]
    start = rules[E.R_START]
    for p in range(n):
        hand[p] = start
    row[col(E.R_CHW, n)] = 0
    row[col(E.R_BIDS, n)] = 0
    row[col(E.R_OPEN, n)] = 0
    return drama_lanes.deal(n, start), _first_power(prefix, n, start)


@njit(cache=True)
def _reshuffle(rng, stack, D, prefix, full):
    """The house rule's shuffle before a round (a call where it applies): the deck read back from its prefix sums
    (_shuffle_units leaves the stack as scratch), then shuffled."""
    for i in range(D):
        stack[E._u(i)] = prefix[E._u(i + 1)] - prefix[E._u(i)]
    _shuffle_units(rng, stack, D, prefix, full)


@njit(cache=True, inline="always")
def _next_round(n, D, shuffle_each_round, rng, stack, prefix, full, starter, in_play, pos):
    """After a round that did not end the game: (starter, cards in play, deal position) of the next."""
    if shuffle_each_round:  # the house rule: the whole deck before every round but the first
        _reshuffle(rng, stack, D, prefix, full)
        pos = 0
    return E._next_seat(starter, n), in_play + 1, pos  # (this round's starter deals the next; one card more)


@njit(cache=True, inline="always")
def _bid_two(flat, row_at_a, starter_a, row_at_b, starter_b, n):
    """_plain_bidding for a round of each of two games at once: their chains of look-ups (a load a decision, each
    waiting on the one before) interleaved. Returns both (standing bid, bidder, challenger, bids)."""
    cur_a = -1
    bidder_a = -1
    seat_a = starter_a
    bids_a = 0
    cur_b = -1
    bidder_b = -1
    seat_b = starter_b
    bids_b = 0
    while True:
        key_a = np.int64(flat[E._u(row_at_a[E._u(seat_a)] + cur_a + 1)])
        key_b = np.int64(flat[E._u(row_at_b[E._u(seat_b)] + cur_b + 1)])
        if (key_a & key_b) < 0:  # (both seats to act challenge: one test)
            break
        # a game whose seat challenged stands still (it reads the same key again) until the other's does: one exit
        # from the loop a pair of rounds (leaving as soon as either challenged, then bidding each alone, gained 3%
        # where this gains 9-10%: docs/performance.md)
        go_a = key_a >= 0
        bidder_a = seat_a if go_a else bidder_a
        bids_a += go_a
        seat_a = E._next_seat(seat_a, n) if go_a else seat_a
        cur_a = key_a if go_a else cur_a
        go_b = key_b >= 0
        bidder_b = seat_b if go_b else bidder_b
        bids_b += go_b
        seat_b = E._next_seat(seat_b, n) if go_b else seat_b
        cur_b = key_b if go_b else cur_b
    return cur_a, bidder_a, seat_a, bids_a, cur_b, bidder_b, seat_b, bids_b


@njit(cache=True, _nrt=False, nogil=True)
def run_plain(seed, first_game, lo, hi, rules, units, full, moves_flat, width, seat_base, hand_base, hand_stride, bits,
              rngs, decks, hand, cnt, row_at, hand_b, row_at_b, spare, out):
    """engine.run's games first_game + lo .. first_game + hi - 1 into out[lo:hi], for a plain table (`applies`).

    Two games in flight, in slots a and b (each its own deck buffer, hands and rows of moves; b's arrays are the `_b`
    ones, the deck buffers rows of rngs and decks, _deck_for): their rounds are dealt one after the other and bid
    together (_bid_two), so that their chains of look-ups overlap, and a slot whose game ends takes the next game
    (noize.c's kernel 2 keeps four). A slot with no game left plays a spare one (game hi, its row into `spare`, thrown
    away) until the other's game ends: at most one game more a block, and no second copy of the game's code for playing
    alone. A game's result depends only on its index, so the rows are those of one game at a time
    (tests/test_noize_plain.py). Each slot's state is in named locals, not a tuple (5% faster). The opening shuffles
    (`_shuffle_pair`), a game's start (`_begin`) and the house rule's shuffle (`_reshuffle`) are calls: inlined at each
    of their places, every copy of the opening shuffle was LLVM's to optimise again, and the kernel took 18 s of CPU to
    compile (about 5 s so, as fast: docs/performance.md)."""
    n = rules[E.R_PLAYERS]
    finish = rules[E.R_FINISH]
    start = rules[E.R_START]
    shuffle_each_round = rules[E.R_SHUFFLE] != 0
    D = units.shape[0]
    flat = decks.reshape(decks.size)  # a slot's prefix sums, read at an offset: its buffer's number times S, plus D
    S = decks.shape[1]
    if hi <= lo:
        return
    game_a = lo
    row_a = out[game_a]
    buf_a, buf_r, reserve = _deck_for(game_a, 0, -1, 2, seed, first_game, units, full, rngs, decks)
    standings_a, power_a = _begin(rules, decks[buf_a, D:], hand, row_a)
    pos_a = starter_a = rounds_a = 0
    in_play_a = n * start
    game_b = lo + 1 if lo + 1 < hi else -1  # (-1: a spare game)
    row_b = out[game_b] if game_b >= 0 else spare
    buf_b, buf_r, reserve = _deck_for(game_b if game_b >= 0 else hi, 1, reserve, buf_r, seed, first_game, units, full,
                                      rngs, decks)
    standings_b, power_b = _begin(rules, decks[buf_b, D:], hand_b, row_b)
    pos_b = starter_b = rounds_b = 0
    in_play_b = n * start
    next_game = lo + 2
    while True:
        at_a = buf_a * S + D
        cards_a = flat[E._u(at_a + pos_a + in_play_a)] - flat[E._u(at_a + pos_a)]
        pos_a = _deal_rows(n, D, pos_a, starter_a, in_play_a * width, bits, hand, flat, at_a, seat_base, hand_base,
                           hand_stride, row_at, moves_flat, width)
        at_b = buf_b * S + D
        cards_b = flat[E._u(at_b + pos_b + in_play_b)] - flat[E._u(at_b + pos_b)]
        pos_b = _deal_rows(n, D, pos_b, starter_b, in_play_b * width, bits, hand_b, flat, at_b, seat_base, hand_base,
                           hand_stride, row_at_b, moves_flat, width)
        cur_a, bidder_a, seat_a, bids_a, cur_b, bidder_b, seat_b, bids_b = _bid_two(moves_flat, row_at, starter_a,
                                                                                   row_at_b, starter_b, n)
        over_a, loser_a, rounds_a, _ = E._settle(n, cur_a, bidder_a, seat_a, bids_a, cards_a, starter_a, rounds_a,
                                                 finish, hand, cnt, row_a, E.NO_TRACE, 0, False)
        standings_a = drama_lanes.lost(standings_a, loser_a, rounds_a)
        over_b, loser_b, rounds_b, _ = E._settle(n, cur_b, bidder_b, seat_b, bids_b, cards_b, starter_b, rounds_b,
                                                 finish, hand_b, cnt, row_b, E.NO_TRACE, 0, False)
        standings_b = drama_lanes.lost(standings_b, loser_b, rounds_b)
        if over_a:
            _end(n, hand, rounds_a, standings_a, power_a, row_a)
            if next_game < hi:
                game_a = next_game
                next_game += 1
                row_a = out[game_a]
            else:
                if game_b < 0:  # no game in play is left
                    return
                if over_b:  # b's last game ended in this round too
                    _end(n, hand_b, rounds_b, standings_b, power_b, row_b)
                    return
                game_a = -1
                row_a = spare
            buf_a, buf_r, reserve = _deck_for(game_a if game_a >= 0 else hi, buf_a, reserve, buf_r, seed, first_game,
                                              units, full, rngs, decks)
            standings_a, power_a = _begin(rules, decks[buf_a, D:], hand, row_a)
            pos_a = starter_a = rounds_a = 0
            in_play_a = n * start
        else:
            starter_a, in_play_a, pos_a = _next_round(n, D, shuffle_each_round, rngs[buf_a], decks[buf_a, :D],
                                                      decks[buf_a, D:], full, starter_a, in_play_a, pos_a)
        if over_b:
            _end(n, hand_b, rounds_b, standings_b, power_b, row_b)
            if next_game < hi:
                game_b = next_game
                next_game += 1
                row_b = out[game_b]
            else:
                if game_a < 0:
                    return
                game_b = -1
                row_b = spare
            buf_b, buf_r, reserve = _deck_for(game_b if game_b >= 0 else hi, buf_b, reserve, buf_r, seed, first_game,
                                              units, full, rngs, decks)
            standings_b, power_b = _begin(rules, decks[buf_b, D:], hand_b, row_b)
            pos_b = starter_b = rounds_b = 0
            in_play_b = n * start
        else:
            starter_b, in_play_b, pos_b = _next_round(n, D, shuffle_each_round, rngs[buf_b], decks[buf_b, :D],
                                                      decks[buf_b, D:], full, starter_b, in_play_b, pos_b)


def play_chunk(seed, first_game, lo, hi, rules, deck, actions, seat_base, hand_base, hand_stride, bits, out):
    """engine.play_chunk's games for a plain table (untraced, uncounted), with one set of scratch arrays."""
    n = int(rules[E.R_PLAYERS])
    units = np.left_shift(1, E.FIELD * deck)  # (each card as its packed count: _shuffle_units)
    D = deck.shape[0]
    # three buffers of a game's deck (_deck_for: slot a's, slot b's, the reserve's), each its deal stream (the deal's
    # only: no seat draws) and a row of `decks`: a shuffle's scratch stack, then the prefix sums
    rngs, decks = np.zeros((3, 2), dtype=np.uint64), np.empty((3, 3 * D + 1), dtype=np.int64)
    hand, hand_b, row_at, row_at_b = (np.empty(n, dtype=np.int64) for _ in range(4))
    cnt = np.empty((n, E.N_TYPES), dtype=np.int64)
    spare = np.empty(out.shape[1], dtype=np.int64)  # (the row of a slot's spare game)
    run_plain(np.uint64(seed), np.int64(first_game), np.int64(lo), np.int64(hi), rules, units, np.int64(units.sum()),
              actions.reshape(actions.size), np.int64(actions.shape[1]), seat_base, hand_base, hand_stride, bits,
              rngs, decks, hand, cnt, row_at, hand_b, row_at_b, spare, out)


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.batch's games for a plain table, in blocks on numba.get_num_threads() threads."""
    offsets = row_offsets(rules, actions.shape[1], seat_rows)
    run_in_blocks(play_chunk, out.shape[0], E.CHUNK, (seed, first_game), (rules, deck, actions, *offsets, out))
