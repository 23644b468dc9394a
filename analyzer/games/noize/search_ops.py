"""Bring the Noize's side of the search contract (analyzer/games/search/contract.py), from the engine's own round
pieces (_open_round, _deal, _bidding, raise_bid, _settle, fewest): every rule is written once.

- a position: a Position (below): the cyclic deck and its prefix sums, the hand sizes, this round's hands
  counted per card type, each table seat's row of moves for this round and its block of rows (actions.py),
  and the decision point `at` (DECISION_POINT below: the round, the standing bid, who is to move). Between
  two rounds (AT_DEALT 0) the next round is dealt when a search function first needs it (its shuffle, with
  the house rule, drawn from the playouts' random state).
- a decision row: (bid key,): count * 4 + instrument, or -1 to challenge.
- what a seat sees: its own hand, every hand's size, the standing bid and who made it, who dealt; it cannot see
  the other hands and the rest of the deck (redeal shuffles every deck position but its own hand's stretch;
  for the tree search, sort_unseen first sorts those cards, so its redeals depend only on what it has seen).
- any seat: decisions and apply serve every seat at any position below the root (the tree search's
  opponents, on a redeal of their own): decisions reads the seat's own counted hand and its threshold row of
  that position, apply moves to the next seat to move, or settles the round (the next round is dealt when a
  search function first needs it, to_move already naming its starter).
  It does not remember earlier rounds; the tree search's redeals read the standing bid as evidence about its
  maker's hand (redeal), the lookahead's read no bid.
- the playouts: every seat plays threshold at its default parameters (from the table block encode built for a
  lookahead seat, or without a table from the probability table), on the random state in look.
- look: a Look (below): the run's arrays the playouts need, the pool of unseen cards, the playouts' random
  state, and a result row and trace they write and nobody reads.
- the sample and work positions share their seat_rows, and without the house rule (the deck never changes
  in play) their stack and prefix too (lookahead._scratch): copy_position then copies only what a playout
  changes.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from analyzer.games.layout import Layout, col
from analyzer.games.noize.engine import (
    GROUPIE, N_INST, N_TYPES, R_BLUFF, R_FINISH, R_SHUFFLE, R_START, TH_CHALLENGE_BELOW, _bidding, _deal, _min_legal,
    _next_seat, _open_round, _prefix_counts, _settle, fewest, p_holds, raise_bid, threshold_move)
from analyzer.games.noize.events import BID_PLAIN
from analyzer.rng import GOLDEN, mix64, shuffle

DECISION_POINT = Layout("a Bring the Noize search position's decision point (`at`)", [
    ("AT_STARTER", 1, "the seat that started this round (the next round's dealer)"),
    ("AT_DEAL_POS", 1, "where this round's deal began in the cyclic deck"),
    ("AT_POS", 1, "where the next round's deal begins"),
    ("AT_ROUNDS", 1, "rounds settled"),
    ("AT_CUR", 1, "the standing bid's key (-1: none)"),
    ("AT_BIDDER", 1, "who made it (-1: none)"),
    ("AT_MOVER", 1, "the seat to move"),
    ("AT_BIDS", 1, "bids made this round"),
    ("AT_IN_PLAY", 1, "cards in play this round"),
    ("AT_IN_PLAY_CARDS", 1, "their packed counts per card type (engine._deal)"),
    ("AT_DEALT", 1, "1: this round is dealt and being bid; 0: it is settled and the next is not yet dealt"),
    ("AT_OVER", 1, "1: the game is over"),
    ("AT_SEARCHER", 1, "in a redeal: the searching seat + 1 (decisions: the others play threshold's move); "
                       "0 at the real game's root"),
], size_name="AT_SIZE")
DECISION_POINT.define(globals())

# A search position: the game at a decision point (the real game's arrays at the root, copies in the sample and
# the work position: lookahead._scratch).
Position = namedtuple("Position", (
    "stack", "prefix",  # the cyclic deck and its prefix sums of packed counts (engine._prefix_counts)
    "hand",  # every seat's hand size
    "cnt",  # this round's hands counted per card type (players x N_TYPES)
    "row_at",  # each table seat's row of moves for this round (engine._deal)
    "seat_rows",  # each seat's block of rows in moves_flat (the playouts': threshold's default block)
    "at",  # the decision point (DECISION_POINT)
))

# The search's scratch, allocated once per chunk of games or traced game (lookahead._scratch).
Look = namedtuple("Look", (
    "rules", "geometry", "table", "moves_flat", "first_hand",  # the run's (geometry: engine.geometry_of)
    "threshold_par", "threshold_pol",  # every seat threshold at its default parameters (the playouts' seats)
    "pool",  # the cards the searching seat cannot see
    "moves",  # the script seats' move counters (engine._bidding's; no playout seat reads them)
    "rng2",  # the playouts' random state
    "dout", "dtrace",  # a result row and a trace the playouts write and nobody reads
    "redeal_tries",  # [0]: deals per redeal, at most (REDEAL_TRIES for the tree search, 1 for the lookahead)
    "avoid",  # each seat's `avoid` instrument (-1: none): the searching seat's own moves never bid it
))

DECISION_WIDTH = 1  # the bid key
MAXCAND = 18  # decisions of one move: threshold's, the challenge, 4 per instrument
WIN = 420  # a won playout (divisible by every number of players sharing a win)
NO_STOP = 1 << 30
# the tree search's redeals: up to this many deals, until the standing bid's maker holds it likely (redeal); 2
# players against lookahead, 1,000 games each, seats rotated: 4 deals 70.2%, 8 72.4%, 16 76.4%, 64 76.7% at
# half the speed (docs/noize.md, "search")
REDEAL_TRIES = 16
_SALT = np.uint64(0x8CB92BA72F3D8DD7)


@njit(cache=True, inline="always")
def _key_streams(rng2, key):
    """Every stream of rng2 from one key (each salted by its number)."""
    for s in range(rng2.shape[0] // 2):
        rng2[2 * s] = mix64(key ^ (np.uint64(s) * _SALT + GOLDEN))
        rng2[2 * s + 1] = np.uint64(0)


@njit(cache=True)
def _deal_next_round(pos, look):
    """The next round of a position between rounds: opened (the house rule's shuffle on the playouts' random
    state) and dealt."""
    at = pos.at
    geometry = look.geometry
    off = np.int64(0)
    n, D = geometry[0], geometry[1]
    rounds = at[AT_ROUNDS]
    starter, deal_pos, _ = _open_round(look.rules, n, D, look.rng2, pos.stack, pos.prefix, at[AT_POS], at[AT_STARTER],
                                       rounds, look.dtrace, off, off)
    in_play, in_play_cards, next_pos, _, _ = _deal(geometry, deal_pos, starter, rounds, True, pos.stack, pos.prefix,
                                                   pos.hand, pos.cnt, pos.seat_rows, look.first_hand, look.moves_flat,
                                                   pos.row_at, 0, look.dtrace, off, off)
    at[AT_STARTER] = starter
    at[AT_DEAL_POS] = deal_pos
    at[AT_POS] = next_pos
    at[AT_CUR] = -1
    at[AT_BIDDER] = -1
    at[AT_MOVER] = starter
    at[AT_BIDS] = 0
    at[AT_IN_PLAY] = in_play
    at[AT_IN_PLAY_CARDS] = in_play_cards
    at[AT_DEALT] = 1


@njit(cache=True)
def _settle_round(pos, challenger, look):
    """`challenger` challenges the standing bid: the round is settled (engine._settle)."""
    at = pos.at
    off = np.int64(0)
    over, _, rounds, _ = _settle(look.geometry[0], at[AT_CUR], at[AT_BIDDER], challenger, at[AT_BIDS],
                                 at[AT_IN_PLAY_CARDS], at[AT_STARTER], at[AT_ROUNDS], look.rules[R_FINISH], pos.hand,
                                 pos.cnt, look.dout, look.dtrace, off, off)
    at[AT_ROUNDS] = rounds
    at[AT_OVER] = 1 if over else 0
    at[AT_DEALT] = 0


@njit(cache=True, inline="always")
def to_move(pos):
    at = pos.at
    if at[AT_OVER] != 0:
        return np.int64(-1)
    if at[AT_DEALT] == 0:  # the next round's starter, the seat left of this round's
        return np.int64(_next_seat(at[AT_STARTER], pos.hand.shape[0]))
    return at[AT_MOVER]


@njit(cache=True, inline="always")
def _add(cand, m, key):
    """Append a decision unless it is already there; returns the new count."""
    for i in range(m):
        if cand[i, 0] == key:
            return m
    cand[m, 0] = key
    return m + 1


@njit(cache=True)
def decisions(pos, seat, rng, cand, look):
    """The moves the lookahead weighs (docs/noize.md, "lookahead"): threshold's move (first: ties keep it),
    challenging (unless its own hand covers the bid), and for each instrument the lowest legal count, one and
    two more, and the count its own cards cover, each only if it could hold (no more than its own cards plus
    the hidden cards). Draws nothing (threshold_move takes no random state).

    In a redeal (below the tree search's root) any other seat than the searching one has one decision,
    threshold's move on its own redealt hand: its node statistics would pool every redeal, so its replies
    could not depend on its hand and a bluff would never be challenged for being one (docs/noize.md,
    "search"). The lookahead calls decisions at the root only: unchanged.

    The searching seat's own moves leave out bids on its `avoid` instrument (look.avoid): threshold's move is
    then threshold's without them (a challenge or another instrument's bid, so there is always a candidate)."""
    if pos.at[AT_DEALT] == 0:
        _deal_next_round(pos, look)
    hand, cnt, at, table = pos.hand, pos.cnt, pos.at, look.table
    width = look.geometry[6]
    start = look.rules[R_START]
    cur = at[AT_CUR]
    hidden = at[AT_IN_PLAY] - hand[seat]
    if pos.seat_rows[seat] >= 0:  # threshold's move (default parameters), from the table as engine._bidding
        first = np.int64(look.moves_flat[pos.row_at[seat] + min(cur + 1, width - 1)])
    else:
        first = threshold_move(seat, cur, look.threshold_par, cnt, hand, start, hidden, table, -1)
    if at[AT_SEARCHER] != 0 and at[AT_SEARCHER] != seat + 1:
        return _add(cand, 0, first)
    skip = look.avoid[seat]
    if skip >= 0 and first >= 0 and first % 4 == skip:
        first = threshold_move(seat, cur, look.threshold_par, cnt, hand, start, hidden, table, skip)
    m = _add(cand, 0, first)
    if cur >= 0 and p_holds(cur // 4, cur % 4, seat, cnt, hand, start, hidden, table) < 1.0:
        m = _add(cand, m, -1)
    for inst in range(N_INST):
        if inst == skip:
            continue
        own = cnt[seat, inst] + cnt[seat, GROUPIE]
        c0 = _min_legal(cur, inst)
        for c in (c0, c0 + 1, c0 + 2, own):
            if c >= c0 and c - own <= hidden:
                m = _add(cand, m, c * 4 + inst)
    return m


@njit(cache=True, inline="always")
def _own_stretch(root, seat):
    """Where seat's hand begins in the cyclic deck: its stretch of this round's deal."""
    hand, at = root.hand, root.at
    n = hand.shape[0]
    D = root.stack.shape[0]
    own = at[AT_DEAL_POS]
    s = at[AT_STARTER]
    while s != seat:
        own += hand[s]
        s = _next_seat(s, n)
    if own >= D:
        own -= D
    return own


@njit(cache=True)
def begin_search(root, seat, sample, work, look):
    """The unseen cards, every deck position but seat's hand's stretch, into look's pool (in deck order). (The
    positions' seats and rules are lookahead._scratch's, the same for every search.)"""
    stack, pool = root.stack, look.pool
    D = stack.shape[0]
    h = root.hand[seat]
    own = _own_stretch(root, seat)
    u = 0
    for i in range(D):
        d = i - own if i >= own else i - own + D
        if d >= h:
            pool[u] = stack[i]
            u += 1


@njit(cache=True)
def redeal(root, seat, rng, sample, look):
    """The unseen cards shuffled on the seat's stream and put back in the deck's other positions (its own hand
    stays where it was dealt), and this round dealt from that deck. With look.redeal_tries[0] > 1 (the tree
    search's), the standing bid is read as evidence: while its maker (another seat), from its dealt hand, would
    hold the bid less likely than threshold's challenge_below, the cards are shuffled and dealt again, up to
    that many deals (the last stands). The lookahead deals once: its redeals are as they were."""
    stack, hand, at = root.stack, root.hand, root.at
    sstack, sprefix, sat = sample.stack, sample.prefix, sample.at
    D = stack.shape[0]
    h = hand[seat]
    own = _own_stretch(root, seat)
    off = np.int64(0)
    bidder, cur = at[AT_BIDDER], at[AT_CUR]
    tries = look.redeal_tries[0]
    for t in range(tries):
        shuffle(rng, 1 + seat, look.pool, D - h)
        j = 0
        for i in range(D):
            d = i - own if i >= own else i - own + D
            if d >= h:
                sstack[i] = look.pool[j]
                j += 1
            else:
                sstack[i] = stack[i]
        _prefix_counts(sstack, D, sprefix)
        for p in range(hand.shape[0]):
            sample.hand[p] = hand[p]
        in_play, in_play_cards, next_pos, _, _ = _deal(look.geometry, at[AT_DEAL_POS], at[AT_STARTER], at[AT_ROUNDS],
                                                       True, sstack, sprefix, sample.hand, sample.cnt,
                                                       sample.seat_rows, look.first_hand, look.moves_flat,
                                                       sample.row_at, 0, look.dtrace, off, off)
        if t + 1 >= tries or bidder < 0 or bidder == seat:
            break
        # the bid as evidence: its maker would have made it, i.e. from its redealt hand it holds with at least
        # threshold's challenge_below; else deal again (the last deal stands)
        if p_holds(cur // 4, cur % 4, bidder, sample.cnt, sample.hand, look.rules[R_START],
                   in_play - sample.hand[bidder], look.table) >= look.threshold_par[bidder, TH_CHALLENGE_BELOW]:
            break
    for i in range(AT_SIZE):
        sat[i] = at[i]
    sat[AT_IN_PLAY] = in_play
    sat[AT_IN_PLAY_CARDS] = in_play_cards  # (the sampled deck's)
    sat[AT_POS] = next_pos
    sat[AT_SEARCHER] = seat + 1


@njit(cache=True, inline="always")
def _copy(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def copy_position(src, dst, look):
    """The hands, their counts and rows, the decision point; the deck only with the house rule (without it the
    two positions share theirs: lookahead._scratch)."""
    _copy(src.hand, dst.hand)
    _copy(src.row_at, dst.row_at)
    _copy(src.at, dst.at)
    for p in range(src.cnt.shape[0]):
        for t in range(src.cnt.shape[1]):
            dst.cnt[p, t] = src.cnt[p, t]
    if look.rules[R_SHUFFLE] != 0:
        _copy(src.stack, dst.stack)
        _copy(src.prefix, dst.prefix)


@njit(cache=True, inline="always")
def key_playouts(key, look):
    """Every stream of the playouts' random state (the bluffs, the house rule's shuffles), from the key."""
    _key_streams(look.rng2, key)


@njit(cache=True, inline="always")
def apply(pos, cand, i, look):
    """The seat to move raises to cand[i] (the next seat is to move) or challenges (the round is settled)."""
    if pos.at[AT_DEALT] == 0:
        _deal_next_round(pos, look)
    at = pos.at
    key = cand[i, 0]
    seat = at[AT_MOVER]
    if key < 0:
        _settle_round(pos, seat, look)
        return
    n = pos.hand.shape[0]
    cur, bidder, mover, bids, _ = raise_bid(n, seat, key, BID_PLAIN, at[AT_BIDS], look.dout, col(R_BLUFF, n),
                                            look.dtrace, np.int64(0), np.int64(0))
    at[AT_CUR] = cur
    at[AT_BIDDER] = bidder
    at[AT_MOVER] = mover
    at[AT_BIDS] = bids


@njit(cache=True, inline="always")
def stop_after(root, horizon):
    """Rounds: the playouts stop once `horizon` rounds counting this one are settled (0: at the game's end)."""
    return root.at[AT_ROUNDS] + horizon if horizon > 0 else np.int64(NO_STOP)


@njit(cache=True, inline="always")
def playout(pos, stop, look):
    """Threshold for every seat: this round's bidding to its challenge, then whole rounds, until the game ends or
    `stop` rounds are settled."""
    at = pos.at
    n = look.geometry[0]
    off = np.int64(0)
    while at[AT_OVER] == 0:
        if at[AT_DEALT] == 0:
            if at[AT_ROUNDS] >= stop:
                return
            _deal_next_round(pos, look)
        cur, bidder, challenger, bids, _, _ = _bidding(
            n, at[AT_CUR], at[AT_BIDDER], at[AT_MOVER], at[AT_BIDS], look.threshold_pol, look.threshold_par,
            pos.seat_rows, look.moves_flat, look.geometry[6], pos.row_at, pos.cnt, pos.hand, look.rules[R_START],
            at[AT_IN_PLAY], look.table, look.rng2, look.moves, look.dout, col(R_BLUFF, n), look.dtrace, off, off, None,
            None)
        at[AT_CUR] = cur
        at[AT_BIDDER] = bidder
        at[AT_BIDS] = bids
        _settle_round(pos, challenger, look)


@njit(cache=True, inline="always")
def score(pos, seat, look):
    """The game ended: WIN if seat won alone, WIN / k if k seats share the win, -WIN if it lost; otherwise (the
    fewest cards another seat holds - its own cards) x WIN // finish_cards."""
    hand = pos.hand
    n = hand.shape[0]
    low = fewest(hand, n)
    if pos.at[AT_OVER] != 0:
        if hand[seat] != low:
            return np.int64(-WIN)
        k = 0
        for p in range(n):
            if hand[p] == low:
                k += 1
        return np.int64(WIN // k)
    other = 1 << 30
    for p in range(n):
        if p != seat:
            other = min(other, hand[p])
    return (other - hand[seat]) * (WIN // look.rules[R_FINISH])


@njit(cache=True)
def reached(pos, stop):
    """Whether `stop` rounds (stop_after's) are settled: the tree search's random rollouts stop there (between
    rounds, or in the next round if the tree itself went past the horizon)."""
    return pos.at[AT_ROUNDS] >= stop


@njit(cache=True)
def sort_unseen(root, seat, look):
    """The unseen cards (card types, gathered by begin_search: every deck position but seat's hand's stretch)
    sorted: the other hands' and the rest of the deck's cards as one multiset, whatever their arrangement. (In
    place, one pass per card type: numba's array sort does not compile in this kernel's nopython pipeline.)"""
    pool = look.pool
    u = root.stack.shape[0] - root.hand[seat]
    j = 0
    for t in range(N_TYPES):
        for i in range(j, u):
            if pool[i] == t:
                pool[i] = pool[j]
                pool[j] = t
                j += 1
