"""The Battle of the Bards `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the draw pile's order.

The pattern of analyzer/games/noize/lookahead.py: no second game loop.
- run's own specialisation: `play_block` and the trace call engine.run with the lookahead's scratch
  (`look`), and run then lets `choose` decide the split of a lookahead seat. The playouts are engine.run
  again, given `resume` (the position to play on from, and the candidate split). The default kernel gets
  None for both, so numba drops those branches before typing: it never compiles this module, and its
  speed, compile time and results are unchanged (golden digests). engine.batch and the trace take this
  path only when a seat plays lookahead (`uses_lookahead`); it compiles on first use, then is cached.
- every rule is written once: a playout is the game's own turn loop.
- no allocation in the decision loop: the scratch (a state and random state for the playouts, their game
  scratch, a dummy result row and trace, the draw pile's cards, the candidates' sums, the playouts'
  policies) is allocated once per block of games or traced game (`scratch`).
- reproducible: a decision draws only from the seat's own stream (1 + seat), the playouts from a private
  random state keyed from that stream, so a game depends only on (seed, game index).
- (numba's cache keys a function on its own file: run's lookahead specialisations embed this module's code.
  The analyzer's cache folder is named by a hash of every numba source, so an edit here compiles afresh;
  with NUMBA_CACHE_DIR set, clear that cache after editing this file.)

The decision: the split (which of the 30 proper non-empty subsets of the five drawn cards goes face up).
It plays its cards, chooses groups and sets up as greedy does, with its own parameters.
- what it sees: its five cards, both players' tales, the discard pile, the meme, the scores; so it knows
  which cards are in the draw pile. What it does not see: their order.
- candidates: greedy's split (first: ties keep it), then the 29 others.
- for each of `samples` redeals, the draw pile is shuffled on its stream and every candidate is played on
  that same pile (common random numbers): the chooser chooses, both play their groups, and the game goes on
  with greedy at its default parameters for both seats (itself included) for `horizon` more turns (0: to the
  end of the game).
- outcome of a playout: if the game ended, +WIN if it won (alone), -WIN if it lost, 0 on a true tie;
  otherwise its score minus the opponent's, capped to +-(WIN - 1). It plays the candidate with the best sum.
- a pile of fewer than two cards has one order: then one redeal stands for all.
"""
import numpy as np

from analyzer.games.bards import engine as E
from analyzer.games.bards.jitted import helper
from analyzer.games.bards.state import (
    I_HORIZON, I_SAMPLES, I_SPLIT, MAXC, N_COLS, O_PILE, R_WIN, S_N, S_POS, S_SCORE, S_TURN, SP_LOOKAHEAD, ST_SIZE,
    TRACE_WIDTH)
from analyzer.rng import GOLDEN, mix64, next_u64, shuffle

N_SPLITS = 30  # face-up groups 1..30 of the five cards
WIN = 100  # a won playout; an unfinished one scores its margin, capped below WIN
NO_STOP = 1 << 40  # horizon 0: no last turn
_SALT = np.uint64(0x8CB92BA72F3D8DD7)


def uses_lookahead(pint):
    """True if some seat of this encoded configuration plays lookahead (then run gets the lookahead's scratch)."""
    return bool((pint[:, I_SPLIT] == SP_LOOKAHEAD).any())


def _greedy_defaults():
    """The playouts' policies: greedy at its default parameters for both seats."""
    from analyzer.games.bards import GAME

    seat = GAME.validate_seat({"policy": "greedy"}, "lookahead", "playout")
    _, pint, pflt = GAME.encode({"deck": "basic", "copies": "single"}, [seat, seat])
    return pint, pflt


def scratch():
    """The lookahead's scratch (see the module docstring), allocated once per block of games or traced game:
    the playouts' state, random state and game scratch (engine.scratch), dummy result row and trace, an empty
    deck order, their policies, the draw pile's cards and the candidates' sums."""
    st, rng, ib, fb, ni, nf = E.scratch()
    pint, pflt = _greedy_defaults()
    return (st, rng, ib, fb, ni, nf, np.zeros((1, N_COLS), dtype=np.int64), np.zeros((1, TRACE_WIDTH), dtype=np.int64),
            E.NO_ORDER, pint, pflt, np.zeros(MAXC, dtype=np.int64), np.zeros(N_SPLITS, dtype=np.int64))


@helper(forceinline=True)
def _key_streams(rng2, key):
    """The playouts' random state, keyed from one draw of the seat's stream (the same for every candidate)."""
    for s in range(rng2.shape[0] // 2):
        rng2[2 * s] = mix64(key ^ (np.uint64(s) * _SALT + GOLDEN))
        rng2[2 * s + 1] = np.uint64(0)


@helper(forceinline=True)
def _split_of(c, greedy_up):
    """Candidate c's face-up group: greedy's split first, then the other 29 of groups 1..30 in order."""
    if c == 0:
        return greedy_up
    return c if c < greedy_up else c + 1


@helper(forceinline=True)
def _outcome(sst, dout, seat):
    """A playout's outcome for seat (module docstring). The playout stops at its horizon only with five
    cards or more left to draw, so fewer means the game ended (and run wrote its result row)."""
    if sst[S_N] - sst[S_POS] < 5:
        return WIN * (dout[0, R_WIN + seat] - dout[0, R_WIN + 1 - seat])
    return min(WIN - 1, max(1 - WIN, sst[S_SCORE + seat] - sst[S_SCORE + 1 - seat]))


@helper(_nrt=False)
def choose(st, tbl, seat, hand, greedy_up, pint, rng, look):
    """The lookahead seat's face-up group (a bitmask over hand[0..4]); greedy_up: greedy's split. engine.run
    calls it after the draw, st holding the game."""
    sst, srng, sib, sfb, sni, snf, dout, dtr, order, spint, spflt, pool, sums = look
    samples = pint[seat, I_SAMPLES]
    horizon = pint[seat, I_HORIZON]
    stop = st[S_TURN] + horizon if horizon > 0 else NO_STOP  # (this turn, then `horizon` more)
    pos = st[S_POS]
    u = st[S_N] - pos
    for i in range(u):
        pool[i] = st[O_PILE + pos + i]
    if u < 2:
        samples = 1
    stream = 1 + seat
    for c in range(N_SPLITS):
        sums[c] = 0
    for _ in range(samples):
        shuffle(rng, stream, pool, u)
        key = next_u64(rng, stream)
        for c in range(N_SPLITS):
            up = _split_of(c, greedy_up)
            for i in range(ST_SIZE):
                sst[i] = st[i]
            for i in range(u):
                sst[O_PILE + pos + i] = pool[i]
            for i in range(5):
                sib[E.IB_HAND + i] = hand[i]
            _key_streams(srng, key)
            E.run(np.uint64(0), 0, 0, 1, tbl, spint, spflt, dout, order, dtr, False, sst, srng, sib, sfb, sni, snf,
                  None, (seat, up, stop))
            sums[c] += _outcome(sst, dout, seat)
    best = 0  # (ties keep the earlier candidate: greedy's split first)
    for c in range(1, N_SPLITS):
        if sums[c] > sums[best]:
            best = c
    return _split_of(best, greedy_up)


CHUNK = 4  # games per block at the least: a lookahead game costs hundreds of playouts


def play_block(seed, first_game, lo, hi, tbl, pint, pflt, out):
    """engine.play_block with the lookahead's scratch."""
    E.run(seed, first_game, lo, hi, tbl, pint, pflt, out, E.NO_ORDER, E.NO_TRACE, False, *E.scratch(), scratch(), None)
