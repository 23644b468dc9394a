"""Bring the Noize's in-flight fast path: a block of games where every seat looks its moves up and none bluffs
(every seat `threshold` with bluff 0: its moves tabulated, actions.py), untraced and uncounted, played SLOTS games at
a time on one thread, as noize.c's kernel 2 keeps NSLOT games in flight. One loop advances every live slot by one
step, a decision (one load) or a round's end (the challenge, the drama, the next deal or the next game), so that one
game's chain of dependent loads and its round transitions overlap the other games' work.

The same games as engine.run, to the last column: each game keeps its own random streams (reset_streams for its
index, in its slot's row of `rng`) and is played by engine's own pieces (begin_game, _open_round, _deal, _settle,
drama_lanes, end_game) on its slot's rows of the scratch arrays; its result row lands at its index in `out`
(tests/test_noize_inflight.py plays the same games both ways).
"""
import numpy as np
from numba import njit

from analyzer.games.noize import drama_lanes
from analyzer.games.noize import engine as E
from analyzer.rng import reset_streams
from analyzer.threads import run_in_blocks

SLOTS = 4  # games in flight per thread

# a slot's fields (its row of `sl`): the bidding (standing bid, its bidder, the seat to move, bids this round), the
# round (deal position, starter, rounds played, the cards in play's packed counts), card power, the game's index in
# out (-1: the slot is idle), and the drama lanes' seven integers (drama_lanes.deal)
F_CUR, F_KEY, F_SEAT, F_BIDS, F_POS, F_STARTER, F_ROUNDS, F_IPC, F_POWER, F_GAME, F_NEXT, F_IDLE_AT = range(12)
F_DRAMA = 12
N_FIELDS = F_DRAMA + 7


def applies(rules, pol, par, seat_rows):
    """Whether a batch of these settings can be played in flight: every seat has a row of tabulated moves (so it
    plays threshold and avoids nothing) and never bluffs, and no decision is counted (analyzer profile)."""
    return (rules[E.R_COUNT] == 0 and bool((seat_rows >= 0).all())
            and bool((par[:, E.TH_BLUFF] == 0.0).all()))


@njit(cache=True, inline="always")
def _drama(sl, k):
    return (sl[k, F_DRAMA], sl[k, F_DRAMA + 1], sl[k, F_DRAMA + 2], sl[k, F_DRAMA + 3], sl[k, F_DRAMA + 4],
            sl[k, F_DRAMA + 5], sl[k, F_DRAMA + 6])


@njit(cache=True, inline="always")
def _round(sl, k, rules, geometry, rng, stack, prefix, hand, cnt, seat_rows, first_hand, moves_flat, row_at, dealer,
           rounds, pos, power):
    """Slot k opens and deals a round (engine._open_round, _deal) and waits for its starter's opening bid."""
    n, D = geometry[0], geometry[1]
    starter, pos, _ = E._open_round(rules, n, D, rng[k], stack[k], prefix[k], pos, dealer, rounds, E.NO_TRACE, 0,
                                    False)
    _, in_play_cards, pos, power, _ = E._deal(geometry, pos, starter, rounds, False, stack[k], prefix[k], hand[k], cnt,
                                              seat_rows, first_hand, moves_flat, row_at[k], power, E.NO_TRACE, 0, False)
    sl[k, F_CUR] = -1
    sl[k, F_SEAT] = starter
    sl[k, F_POS] = pos
    sl[k, F_STARTER] = starter
    sl[k, F_ROUNDS] = rounds
    sl[k, F_IPC] = in_play_cards
    sl[k, F_POWER] = power


@njit(cache=True, inline="always")
def _new_game(sl, k, g, seed, game, rules, deck, geometry, rng, stack, prefix, hand, cnt, moves, seat_rows,
              first_hand, moves_flat, row_at, out):
    """Slot k begins game `game` (its result row out[g]): its streams, the shuffle, the first round's deal."""
    reset_streams(rng[k], seed, game)
    E.begin_game(rules, deck, rng[k], stack[k], prefix[k], hand[k], moves, out[g], E.NO_TRACE, False)
    n = rules[E.R_PLAYERS]
    d = drama_lanes.deal(n, rules[E.R_START])
    for j in range(7):
        sl[k, F_DRAMA + j] = d[j]
    sl[k, F_GAME] = g
    _round(sl, k, rules, geometry, rng, stack, prefix, hand, cnt, seat_rows, first_hand, moves_flat, row_at, n - 1,
           0, 0, 0)


@njit(cache=True, inline="always")
def _challenge(k, passes, seed, first_game, hi, rules, deck, geometry, rng, stack, prefix, hand, cnt, moves, seat_rows,
               first_hand, moves_flat, row_at, sl, out):
    """Slot k's seat to move challenged at pass `passes` (engine._plain_bidding's end): the round's end (engine._game's),
    then the next round's deal, or the slot's next game (sl[0, F_NEXT]), or the slot idles. Returns 1 if the slot went
    idle, else 0. An idle slot (F_GAME -1), whose every decision is a challenge, is left as it is."""
    g = sl[k, F_GAME]
    if g < 0:
        return 0
    n = geometry[0]
    seat = sl[k, F_SEAT]
    # `seat` challenges the bid of the seat before: every decision of the round before this one was a raise
    finish = rules[E.R_FINISH]
    starter = sl[k, F_STARTER]
    bidder = seat - 1 if seat > 0 else n - 1
    over, loser, rounds, _ = E._settle(n, sl[k, F_CUR], bidder, seat, passes - sl[k, F_BIDS], sl[k, F_IPC], starter,
                                       sl[k, F_ROUNDS], finish, hand[k], cnt, out[g], E.NO_TRACE, 0, False)
    standings = drama_lanes.lost(_drama(sl, k), loser, rounds)
    sl[k, F_BIDS] = passes + 1  # the next round's (or game's) opening decision
    if not over:
        for j in range(7):
            sl[k, F_DRAMA + j] = standings[j]
        _round(sl, k, rules, geometry, rng, stack, prefix, hand, cnt, seat_rows, first_hand, moves_flat, row_at,
               starter, rounds, sl[k, F_POS], sl[k, F_POWER])
        return 0
    E.end_game(n, finish, hand[k], rounds, loser, standings, sl[k, F_POWER], out[g], E.NO_TRACE, 0, False)
    nxt = sl[0, F_NEXT]
    if nxt < hi:
        _new_game(sl, k, nxt, seed, first_game + nxt, rules, deck, geometry, rng, stack, prefix, hand, cnt, moves,
                  seat_rows, first_hand, moves_flat, row_at, out)
        sl[0, F_NEXT] = nxt + 1
        return 0
    _idle(sl, k, row_at)
    return 1


@njit(cache=True, inline="always")
def _idle(sl, k, row_at):
    """Slot k has no game: its decisions read the challenge at sl[0, F_IDLE_AT] forever (and are ignored)."""
    sl[k, F_GAME] = -1
    sl[k, F_CUR] = -1
    sl[k, F_SEAT] = 0
    for p in range(row_at.shape[1]):
        row_at[k, p] = sl[0, F_IDLE_AT]


@njit(cache=True, inline="always")
def _start(seed, first_game, lo, hi, rules, deck, geometry, rng, stack, prefix, hand, cnt, moves, seat_rows,
           first_hand, moves_flat, row_at, sl, out, idle_at):
    """Every slot starts a game of lo .. hi - 1 (or idles). Returns the number of live slots."""
    sl[0, F_IDLE_AT] = idle_at
    live = 0
    for k in range(sl.shape[0]):
        sl[k, F_BIDS] = 0
        if lo + k < hi:
            _new_game(sl, k, lo + k, seed, first_game + lo + k, rules, deck, geometry, rng, stack, prefix, hand, cnt,
                      moves, seat_rows, first_hand, moves_flat, row_at, out)
            live += 1
        else:
            _idle(sl, k, row_at)
    sl[0, F_NEXT] = min(lo + sl.shape[0], hi)
    return live


@njit(cache=True, inline="always")
def _raise(key, cur, seat, n):
    """The standing bid after a decision `key` (a challenge leaves it)."""
    return key if key >= 0 else cur


@njit(cache=True, inline="always")
def _seat(key, seat, n):
    """The seat to move after a decision `key`: the next one after a raise; the challenger stays (its round ends)."""
    return E._next_seat(seat, n) if key >= 0 else seat


@njit(cache=True, inline="always")
def _challenges(ended, passes, seed, first_game, hi, rules, deck, geometry, rng, stack, prefix, hand, cnt, moves,
                seat_rows, first_hand, moves_flat, row_at, sl, out):
    """_challenge for every slot whose bit is set in `ended` (lowest first: its bit found without a branch, and
    usually one slot ends at a time). Returns the slots that went idle."""
    idled = 0
    while ended != 0:
        low = ended & -ended
        k = (low >> 1) - (low >> 3)  # the bit's position, for bits 1, 2, 4, 8
        ended ^= low
        idled += _challenge(k, passes, seed, first_game, hi, rules, deck, geometry, rng, stack, prefix, hand, cnt,
                            moves, seat_rows, first_hand, moves_flat, row_at, sl, out)
    return idled


@njit(cache=True, inline="always")
def _key(moves_flat, row_at, k, seat, cur):
    return np.int64(moves_flat[E._u(row_at[k, E._u(seat)] + cur + 1)])


@njit(cache=True, _nrt=False, nogil=True)
def run_slots4(seed, first_game, lo, hi, rules, deck, moves_flat, width, seat_rows, first_hand, rng, stack, prefix,
               hand, cnt, moves, row_at, sl, out, idle_at):
    """Games first_game + lo .. first_game + hi - 1 into out[lo:hi], four in flight: slot k plays on its rows of rng,
    stack, prefix, hand, row_at and sl; cnt and moves are scratch engine's pieces take and never use here; idle_at: a
    challenge's position in moves_flat (what an idle slot reads). The four slots' standing bids and seats to move are
    kept in registers while every decision is a raise; a challenge (any slot's) goes through _step for all four."""
    geometry = E.geometry_of(rules, deck.shape[0], width)
    n = geometry[0]
    live = _start(seed, first_game, lo, hi, rules, deck, geometry, rng, stack, prefix, hand, cnt, moves, seat_rows,
                  first_hand, moves_flat, row_at, sl, out, idle_at)
    passes = 0
    c0, s0, c1, s1 = sl[0, F_CUR], sl[0, F_SEAT], sl[1, F_CUR], sl[1, F_SEAT]
    c2, s2, c3, s3 = sl[2, F_CUR], sl[2, F_SEAT], sl[3, F_CUR], sl[3, F_SEAT]
    while live > 0:
        k0 = _key(moves_flat, row_at, 0, s0, c0)
        k1 = _key(moves_flat, row_at, 1, s1, c1)
        k2 = _key(moves_flat, row_at, 2, s2, c2)
        k3 = _key(moves_flat, row_at, 3, s3, c3)
        if (k0 | k1 | k2 | k3) >= 0:
            c0, s0, c1, s1 = k0, E._next_seat(s0, n), k1, E._next_seat(s1, n)
            c2, s2, c3, s3 = k2, E._next_seat(s2, n), k3, E._next_seat(s3, n)
        else:  # a challenge: the raises in registers (selects), then each challenging slot's round end
            ended = np.int64(k0 < 0) | np.int64(k1 < 0) << 1 | np.int64(k2 < 0) << 2 | np.int64(k3 < 0) << 3
            c0, s0, c1, s1 = _raise(k0, c0, s0, n), _seat(k0, s0, n), _raise(k1, c1, s1, n), _seat(k1, s1, n)
            c2, s2, c3, s3 = _raise(k2, c2, s2, n), _seat(k2, s2, n), _raise(k3, c3, s3, n), _seat(k3, s3, n)
            sl[0, F_CUR], sl[0, F_SEAT], sl[1, F_CUR], sl[1, F_SEAT] = c0, s0, c1, s1
            sl[2, F_CUR], sl[2, F_SEAT], sl[3, F_CUR], sl[3, F_SEAT] = c2, s2, c3, s3
            live -= _challenges(ended, passes, seed, first_game, hi, rules, deck, geometry, rng, stack, prefix, hand,
                                cnt, moves, seat_rows, first_hand, moves_flat, row_at, sl, out)
            c0, s0, c1, s1 = sl[0, F_CUR], sl[0, F_SEAT], sl[1, F_CUR], sl[1, F_SEAT]
            c2, s2, c3, s3 = sl[2, F_CUR], sl[2, F_SEAT], sl[3, F_CUR], sl[3, F_SEAT]
        passes += 1


@njit(cache=True, _nrt=False, nogil=True)
def run_slots2(seed, first_game, lo, hi, rules, deck, moves_flat, width, seat_rows, first_hand, rng, stack, prefix,
               hand, cnt, moves, row_at, sl, out, idle_at):
    """run_slots4 with two games in flight."""
    geometry = E.geometry_of(rules, deck.shape[0], width)
    n = geometry[0]
    live = _start(seed, first_game, lo, hi, rules, deck, geometry, rng, stack, prefix, hand, cnt, moves, seat_rows,
                  first_hand, moves_flat, row_at, sl, out, idle_at)
    passes = 0
    c0, s0, c1, s1 = sl[0, F_CUR], sl[0, F_SEAT], sl[1, F_CUR], sl[1, F_SEAT]
    while live > 0:
        k0 = _key(moves_flat, row_at, 0, s0, c0)
        k1 = _key(moves_flat, row_at, 1, s1, c1)
        if (k0 | k1) >= 0:
            c0, s0, c1, s1 = k0, E._next_seat(s0, n), k1, E._next_seat(s1, n)
        else:
            ended = np.int64(k0 < 0) | np.int64(k1 < 0) << 1
            c0, s0, c1, s1 = _raise(k0, c0, s0, n), _seat(k0, s0, n), _raise(k1, c1, s1, n), _seat(k1, s1, n)
            sl[0, F_CUR], sl[0, F_SEAT], sl[1, F_CUR], sl[1, F_SEAT] = c0, s0, c1, s1
            live -= _challenges(ended, passes, seed, first_game, hi, rules, deck, geometry, rng, stack, prefix, hand,
                                cnt, moves, seat_rows, first_hand, moves_flat, row_at, sl, out)
            c0, s0, c1, s1 = sl[0, F_CUR], sl[0, F_SEAT], sl[1, F_CUR], sl[1, F_SEAT]
        passes += 1


KERNELS = {2: run_slots2, 4: run_slots4}


def play_chunk(seed, first_game, lo, hi, rules, deck, pol, par, table, actions, seat_rows, first_hand, out,
               slots=SLOTS):
    """engine.play_chunk's games (untraced, uncounted) in flight, `slots` at a time, with one set of scratch rows per
    slot."""
    n = int(rules[E.R_PLAYERS])
    D = deck.shape[0]
    return KERNELS[slots](np.uint64(seed), np.int64(first_game), np.int64(lo), np.int64(hi), rules, deck,
                     actions.reshape(actions.size), np.int64(actions.shape[1]), seat_rows, first_hand,
                     np.zeros((slots, 2 * (1 + n)), dtype=np.uint64), np.empty((slots, D), dtype=np.int64),
                     np.empty((slots, 2 * D + 1), dtype=np.int64), np.empty((slots, n), dtype=np.int64),
                     np.empty((n, E.N_TYPES), dtype=np.int64), np.zeros(n, dtype=np.int64),
                     np.empty((slots, n), dtype=np.int64), np.empty((slots, N_FIELDS), dtype=np.int64), out,
                               np.int64(np.flatnonzero(actions.reshape(actions.size) < 0)[0]))


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, slots=SLOTS):
    """engine.batch's games (when `applies`), in blocks on numba.get_num_threads() threads, in flight on each."""
    run_in_blocks(play_chunk, out.shape[0], E.CHUNK, (seed, first_game),
                  (rules, deck, pol, par, table, actions, seat_rows, first_hand, out, slots))
