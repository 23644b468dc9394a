"""The Bring the Noize `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the unseen cards.

The pattern of analyzer/games/distance/lookahead.py, with one difference: there is no second game loop.
- a separate kernel entry: `play_chunk_look` / `play_game_look` call engine.run with the lookahead's
  scratch (`look`), and engine.run's bidding (engine._bidding) then lets `choose` decide for the
  lookahead seats. Given None (the default kernels), numba drops that branch before typing, so the
  default kernels never compile this module: their speed, compile time and results are unchanged. The
  Python batch and the trace use this entry only when a seat plays lookahead (`uses_lookahead`).
- the playouts use engine's own round pieces (_open_round, _deal, _bidding, _settle, fewest): every
  rule is written once.
- no allocation in the decision loop: the scratch (a sampled deck and its prefix sums, a working copy
  of both, the pool of unseen cards, hands, counts, rows, the playouts' seats, a random state, a dummy
  result row and trace, the candidates and their sums) is allocated once per chunk or traced game.
- reproducible: a decision draws only from the seat's own stream (1 + seat), the playouts from a
  private random state keyed from that stream, so a game depends only on (seed, game index).
- (numba's cache keys a function on its own file: engine.run's lookahead specialisation, and every
  kernel that calls it, embeds this module's code, so after editing this file clear the numba cache.)

The decision, each time the rules give the seat one (opening the bidding, or raise-or-challenge):
- what it sees: its own hand, every hand's size, the standing bid (and who made it), who dealt; what it
  does not see: the other hands and the rest of the deck. It does not remember earlier rounds (as
  `threshold`), nor read the bids as evidence about the hands (the playouts do that implicitly only
  through the other seats' replies).
- candidates: threshold's move (listed first: ties keep it), challenging (unless its own hand covers
  the bid), and for each instrument the lowest legal count, one and two more, and the count its own
  cards cover, each only if it could hold (no more than its own cards plus the hidden cards). With one
  candidate it plays it at once.
- for each of `samples` deals, the cards it cannot see are shuffled on its stream and put back into the
  deck's other positions (its own hand stays where it was dealt; the other hands are the stretches of
  the sampled deck the rules deal them), and every candidate is played on that same deal (common
  random numbers): the round goes on with `threshold` at its default parameters for every seat, itself
  included, then further rounds, for `horizon` rounds counting this one (0: to the end of the game).
- outcome of a playout: if the game ended, WIN if it won alone, WIN / k if k players share the win,
  -WIN if it lost; otherwise (fewest cards of another seat - its own cards) x WIN // finish_cards. It
  plays the candidate with the best sum.
- why horizon 1 by default (only the round being bid): measured against three threshold players (4
  players, seats rotated, samples 8), it won a 34% share with horizon 1, 31% with 2 and 29% to the end
  of the game (with samples 16): the later rounds add far more noise than information.
"""
import numpy as np
from numba import njit

from analyzer.games.layout import col
from analyzer.games.noize.engine import (
    GROUPIE, N_INST, N_PARAMS, N_TYPES, P_LOOKAHEAD, P_THRESHOLD, R_BLUFF, R_FINISH, R_PLAYERS, R_SHUFFLE,
    R_START, THRESHOLD_DEFAULTS, _bidding, _deal, _min_legal, _next_seat, _open_round, _prefix_counts, _settle, fewest,
    p_holds, run, threshold_move)
from analyzer.games.noize.engine import _scratch as _game_scratch
from analyzer.games.noize.events import BID_LOOKAHEAD
from analyzer.rng import GOLDEN, mix64, new_streams, next_u64, shuffle
from analyzer.threads import run_in_blocks

LA_SAMPLES, LA_HORIZON = 0, 1  # a lookahead seat's parameter columns
MAXCAND = 18  # candidates of one decision: threshold's, the challenge, 4 per instrument
WIN = 420  # a won playout (divisible by every number of players sharing a win)
_SALT = np.uint64(0x8CB92BA72F3D8DD7)


def uses_lookahead(pol):
    """True if some seat of this encoded configuration plays lookahead (then the lookahead kernel runs)."""
    return bool((pol == P_LOOKAHEAD).any())


@njit(cache=True, inline="always")
def _add(cand, m, key):
    """Append a candidate move unless it is already there; returns the new count."""
    for i in range(m):
        if cand[i] == key:
            return m
    cand[m] = key
    return m + 1


@njit(cache=True, inline="always")
def _candidates(seat, cur, cnt, hand, start, hidden, table, seat_rows, moves_flat, width, row_at, spar, cand):
    """The candidate moves (see the module docstring) into cand (-1: challenge); returns how many."""
    if seat_rows[seat] >= 0:  # threshold's move (default parameters), from the table as engine.run
        first = np.int64(moves_flat[row_at[seat] + min(cur + 1, width - 1)])
    else:
        first = threshold_move(seat, cur, spar, cnt, hand, start, hidden, table)
    m = _add(cand, 0, first)
    if cur >= 0 and p_holds(cur // 4, cur % 4, seat, cnt, hand, start, hidden, table) < 1.0:
        m = _add(cand, m, -1)
    for inst in range(N_INST):
        own = cnt[seat, inst] + cnt[seat, GROUPIE]
        c0 = _min_legal(cur, inst)
        for c in (c0, c0 + 1, c0 + 2, own):
            if c >= c0 and c - own <= hidden:
                m = _add(cand, m, c * 4 + inst)
    return m


@njit(cache=True, inline="always")
def _key_streams(rng2, key):
    """The playouts' random state, keyed from one draw of the seat's stream (the same for every candidate)."""
    for s in range(rng2.shape[0] // 2):
        rng2[2 * s] = mix64(key ^ (np.uint64(s) * _SALT + GOLDEN))
        rng2[2 * s + 1] = np.uint64(0)


@njit(cache=True)
def _playout(move, seat, cur, bidder, bids, pos, starter, rounds, stop, rules, geometry, first_hand, moves_flat, table,
             stack, prefix, hand, cnt, row_at, moves, pol, par, seat_rows, rng2, dout, dtrace):
    """Deal this round from the sampled deck (stack, prefix; pos: where its deal starts), play `move` (-1:
    challenge) for seat against the standing bid cur, then threshold for every seat until the game ends or
    `stop` rounds are played; returns the outcome for seat. hand: every seat's cards (changed in place).
    Each round piece is called from one place (each call site compiles the piece once more)."""
    n, D = geometry[0], geometry[1]
    width = geometry[6]
    start = rules[R_START]
    finish = rules[R_FINISH]
    c_bluff = col(R_BLUFF, n)
    off = np.int64(0)
    first = True
    while True:
        if not first:
            starter, pos, _ = _open_round(rules, n, D, rng2, stack, prefix, pos, starter, rounds, dtrace, off, off)
        in_play, in_play_cards, pos, _, _ = _deal(geometry, pos, starter, rounds, True, stack, prefix, hand, cnt,
                                                  seat_rows, first_hand, moves_flat, row_at, off, dtrace, off, off)
        challenger = seat
        if not (first and move < 0):
            mover = starter
            if first:  # seat raised to `move`; the next seat answers
                cur, bidder, mover, bids = move, seat, _next_seat(seat, n), bids + 1
            else:
                cur, bidder, bids = -1, -1, 0
            cur, bidder, challenger, bids, _ = _bidding(
                n, cur, bidder, mover, bids, pol, par, seat_rows, moves_flat, width, row_at, cnt, hand, start, in_play,
                table, rng2, moves, dout, c_bluff, dtrace, off, off, None, None)
        over, _, rounds, _ = _settle(n, cur, bidder, challenger, bids, in_play_cards, starter, rounds, finish, hand, cnt,
                                  dout, dtrace, off, off)
        first = False
        if over or rounds >= stop:
            break
    low = fewest(hand, n)
    if over:
        if hand[seat] != low:
            return -WIN
        k = 0
        for p in range(n):
            if hand[p] == low:
                k += 1
        return WIN // k
    other = 1 << 30
    for p in range(n):
        if p != seat:
            other = min(other, hand[p])
    return (other - hand[seat]) * (WIN // finish)


@njit(cache=True)
def choose(seat, cur, bidder, bids, pol, par, seat_rows, moves_flat, width, row_at, cnt, hand, table, rng, look,
           situation):
    """The lookahead seat's move: (key, BID_LOOKAHEAD), key -1 to challenge (engine._bidding calls it).
    situation: (rules, deck, stack, first_hand, geometry, starter, deal position, rounds played) of engine.run."""
    (sstack, wstack, sprefix, wprefix, pool, shand, scnt, srow_at, smoves, spol, spar, srows, rng2, dout, dtrace, cand,
     sums) = look
    rules, deck, stack, first_hand, geometry, starter, deal_pos, rounds = situation
    n = rules[R_PLAYERS]
    start = rules[R_START]
    D = stack.shape[0]
    in_play = 0
    for p in range(n):
        in_play += hand[p]
    h = hand[seat]
    m = _candidates(seat, cur, cnt, hand, start, in_play - h, table, seat_rows, moves_flat, width, row_at, spar, cand)
    if m == 1:
        return cand[0], BID_LOOKAHEAD
    # its own hand: the stretch of the deck dealt to it this round; every other position is unseen
    own = deal_pos
    s = starter
    while s != seat:
        own += hand[s]
        s = _next_seat(s, n)
    if own >= D:
        own -= D
    u = 0
    for i in range(D):
        d = i - own if i >= own else i - own + D
        if d >= h:
            pool[u] = stack[i]
            u += 1
    samples = np.int64(par[seat, LA_SAMPLES])
    horizon = np.int64(par[seat, LA_HORIZON])
    stop = rounds + horizon if horizon > 0 else 1 << 30
    reshuffles = rules[R_SHUFFLE] != 0  # the playouts shuffle their deck: each starts from a copy
    stream = 1 + seat
    for c in range(m):
        sums[c] = 0
    for _ in range(samples):
        shuffle(rng, stream, pool, u)
        key = next_u64(rng, stream)
        j = 0
        for i in range(D):
            d = i - own if i >= own else i - own + D
            if d >= h:
                sstack[i] = pool[j]
                j += 1
            else:
                sstack[i] = stack[i]
        _prefix_counts(sstack, D, sprefix)
        for c in range(m):
            for p in range(n):
                shand[p] = hand[p]
            st, pr = sstack, sprefix
            if reshuffles:
                for i in range(D):
                    wstack[i] = sstack[i]
                for i in range(2 * D + 1):
                    wprefix[i] = sprefix[i]
                st, pr = wstack, wprefix
            _key_streams(rng2, key)
            sums[c] += _playout(cand[c], seat, cur, bidder, bids, deal_pos, starter, rounds, stop, rules, geometry,
                                first_hand, moves_flat, table, st, pr, shand, scnt, srow_at, smoves, spol, spar, srows,
                                rng2, dout, dtrace)
    best = 0  # (ties keep the earlier candidate: threshold's move first)
    for c in range(1, m):
        if sums[c] > sums[best]:
            best = c
    return cand[best], BID_LOOKAHEAD


@njit(cache=True)
def _scratch(deck, pol, seat_rows, row_width):
    """The decision scratch (see the module docstring), allocated once per chunk or traced game. The
    playouts' seats all play threshold with its default parameters: from the table block encode built for
    them (the lookahead seats' rows), or, without a table, from the probability table."""
    n = pol.shape[0]
    D = deck.shape[0]
    rows = -1
    for s in range(n):
        if pol[s] == P_LOOKAHEAD:
            rows = seat_rows[s]
    spol = np.full(n, P_THRESHOLD, dtype=np.int64)
    spar = np.zeros((n, N_PARAMS), dtype=np.float64)
    for s in range(n):
        for k in range(N_PARAMS):
            spar[s, k] = THRESHOLD_DEFAULTS[k]
    return (np.zeros(D, dtype=np.int64), np.zeros(D, dtype=np.int64), np.zeros(2 * D + 1, dtype=np.int64),
            np.zeros(2 * D + 1, dtype=np.int64), np.zeros(D, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros((n, N_TYPES), dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), spol,
            spar, np.full(n, rows, dtype=np.int64), np.zeros(2 * (1 + n), dtype=np.uint64),
            np.zeros(row_width, dtype=np.int64), np.zeros((1, 1), dtype=np.int64), np.zeros(MAXCAND, dtype=np.int64),
            np.zeros(MAXCAND, dtype=np.int64))


@njit(cache=True)
def play_game_look(seed, game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace, trace_on):
    """engine.play_game for a configuration with lookahead seats (the trace uses it)."""
    n = rules[R_PLAYERS]
    rng = new_streams(seed, game, 1 + n)
    stack, prefix, hand, cnt, row_at, moves = _game_scratch(deck, n)
    look = _scratch(deck, pol, seat_rows, out.shape[0])
    return run(np.uint64(seed), np.int64(game), np.int64(0), np.int64(1), rules, deck, pol, par, table,
               actions.reshape(actions.size), actions.shape[1], seat_rows, first_hand, rng, stack, prefix, hand, cnt,
               row_at, moves, out.reshape((1, out.shape[0])), trace, trace_on, look)


@njit(cache=True, nogil=True)
def play_chunk_look(seed, first_game, lo, hi, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.play_chunk for a configuration with lookahead seats: games first_game + lo .. + hi - 1."""
    n = rules[R_PLAYERS]
    rng = new_streams(seed, first_game + lo, 1 + n)
    stack, prefix, hand, cnt, row_at, moves = _game_scratch(deck, n)
    look = _scratch(deck, pol, seat_rows, out.shape[1])
    moves_flat = actions.reshape(actions.size)
    dummy = np.zeros((1, 1), dtype=np.int64)
    run(np.uint64(seed), np.int64(first_game), np.int64(lo), np.int64(hi), rules, deck, pol, par, table, moves_flat,
        actions.shape[1], seat_rows, first_hand, rng, stack, prefix, hand, cnt, row_at, moves, out, dummy, np.int64(0),
        look)


LOOK_CHUNK = 4  # games per block: a lookahead game costs hundreds of threshold playouts


def batch_look(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """engine.batch with the lookahead kernel (blocks of LOOK_CHUNK games on the thread pool)."""
    run_in_blocks(play_chunk_look, out.shape[0], LOOK_CHUNK, (seed, first_game),
                  (rules, deck, pol, par, table, actions, seat_rows, first_hand, out))
