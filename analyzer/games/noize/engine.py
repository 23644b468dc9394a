"""Bring the Noize in numba: `run` plays a block of games, the batch runs blocks on a pool of threads.

The stack is a cycle: dealing takes hands from the top, and gathering puts them back under the stack
in the order they were dealt (seat order from the dealer's left, each hand in dealt order). So
without the shuffle house rule the deck's cyclic order never changes; each deal simply starts where
the last one ended, and a hand is a stretch of the cyclic deck: its counts per card type are the
difference of two prefix sums of packed counts, computed once per shuffle. The chance that a bid
holds depends only on (instrument, own hand size, own cards that count, hidden cards), so
`tail_table` computes every such hypergeometric tail once per run; from it `actions.py` tabulates the
threshold policy's every move, so that a decision in play is one load (`decide` is the same policy
computed from the tails, used when the table would be too large).
"""
import numpy as np
from numba import njit

from analyzer.games import drama
from analyzer.prefetch import prefetch
from analyzer.games.layout import SEATS, Layout, Row, col
from analyzer.games.noize import drama_lanes
from analyzer.games.noize.events import (
    BID_JUMP_BLUFF, BID_PLAIN, BID_RANDOM, BID_WEAK_BLUFF, EV_BID, EV_CHALLENGE, EV_COUNT, EV_DEAL, EV_DECK, EV_END,
    EV_REVEAL, EV_ROUND, EV_SHUFFLE, TRACE_FIXED)
from analyzer.jit_deferred import optimise_once
from analyzer.rng import DEAL, below, reset_streams, swap_partners, uniform
from analyzer.threads import run_in_blocks

N_INST = 4
GROUPIE = 4
N_TYPES = 5

# The rules array (encode fills it), one int64 per setting; `RULES.define` assigns each name its index.
RULES = Layout("Bring the Noize's rules array", [
    ("R_PLAYERS", 1, "players"),
    ("R_START", 1, "start_cards"),
    ("R_FINISH", 1, "finish_cards"),
    ("R_SHUFFLE", 1, "1: shuffle_each_round"),
    ("R_STACKED", 1, "1 (tests only): play the deck in the order given, without the opening shuffle"),
    ("R_COUNT", 1, "1: count every decision into the choices columns (analyzer profile: rules['count_choices'])"),
], size_name="N_RULES")
RULES.define(globals())

# policy codes and their parameter columns. P_SCRIPT (tests only) plays par[seat, k] as its k-th
# move: a bid key (count * 4 + instrument) or -1 to challenge. P_LOOKAHEAD (flat Monte Carlo) and P_SEARCH
# (information-set tree search): lookahead.py.
P_RANDOM, P_THRESHOLD, P_SCRIPT, P_LOOKAHEAD, P_SEARCH = 0, 1, 2, 3, 4
RANDOM_MAX_RAISE = 0
TH_CHALLENGE_BELOW, TH_BLUFF, TH_MAX_JUMP, TH_COMPARE = 0, 1, 2, 3
# every policy's `avoid` (restricted play: base.avoid_param), in the same column whatever the policy (encode):
# 0 none, 1 + i: never bid instrument i (a Noize position always offers another legal move: a challenge, or a
# bid on another instrument)
P_AVOID = 4
N_PARAMS = 5
# threshold's default parameters, in those columns (the lookahead's playouts play them for every seat)
THRESHOLD_DEFAULTS = (0.5, 0.1, 2.0, 1.0, 0.0)

# card power (issue 12): Groupies in a seat's first hand (0, 1, 2 or more), one 0/1 column per category and
# seat, after the drama columns; both come last but for the choices columns. While the game plays, the drama is a
# few locals (drama_lanes) and the first hands' categories wait in a local, 2 bits a seat; at the end the drama
# block is unpacked into the last columns before the choices (no scratch array) for drama.finish.
POWER = (("no Groupie", "open_groupie0_"), ("one Groupie", "open_groupie1_"),
         ("two or more Groupies", "open_groupie2_"))
N_POWER = len(POWER)

# decision counts (issue 32, `analyzer profile`; docs/noize.md, "Profile: choices and restricted play"): two
# kinds, each four columns (n, options, forced, real: base.CHOICE_COUNTS) after the card-power columns, filled
# only when rules[R_COUNT] is 1. "Raise or challenge": every turn facing a standing bid; "bids": which bid, each
# time a seat bids (the opening bid and every raise).
CHOICE_KINDS = (("Bids", "ch_bid_"), ("Raise or challenge", "ch_challenge_"))
CHOICE_COUNTS = ("n", "options", "forced", "real")  # (base.CHOICE_COUNTS: the engine does not import base)
CH_BID, CH_CHALLENGE = 0, len(CHOICE_COUNTS)  # each kind's first column within the block
CH_N, CH_OPTIONS, CH_FORCED, CH_REAL = 0, 1, 2, 3
# a decision is real when its best and second-best options' chances (a bid holding, a challenge winning) differ
# by more than this
CHOICE_MARGIN = 0.1

# The result row (docs/noize.md, "Result columns"); `ROW.define` assigns each piece's name its position, and
# col(R_..., n) is its column with n players. The drama, card-power and choices columns come last
# (base.added_columns).
ROW = Row("Bring the Noize's result row", [
    ("R_WIN", "win_", SEATS, "1: the seat holds the fewest cards at the end"),
    ("R_NWIN", "n_winners", 1, ""),
    ("R_LEN", "length", 1, "rounds"),
    ("R_END", "end", 1, "0: the only end"),
    ("R_HAND", "final_hand_", SEATS, "cards the seat held at the end"),
    ("R_CHW", "challenger_wins", 1, "challenges the challenger won"),
    ("R_BIDS", "bids", 1, ""),
    ("R_OPEN", "opening_challenged", 1, "rounds whose opening bid was challenged"),
    ("R_BLUFF", "bluffs", 1, ""),
    ("R_DRAMA", drama.COLUMNS, 1, "analyzer.games.drama"),
    ("R_POWER", tuple(prefix for _, prefix in POWER), SEATS, "card power: one 0/1 column per category and seat"),
    ("R_CHOICES", tuple(prefix + k for _, prefix in CHOICE_KINDS for k in CHOICE_COUNTS), 1,
     "decision counts (only with rules[R_COUNT])"),
    ("R_ROW_END", (), 1, "the row's width"),
])
ROW.define(globals())
columns = ROW.names


@njit(cache=True)
def fill_tail(tail, N, K, n, log_fact):
    """tail[x] = P(X >= x), X ~ Hypergeometric(population N, successes K, draws n), x = 0..n+1."""
    lo = max(0, n - (N - K))
    hi = min(K, n)
    for x in range(hi + 1, n + 2):
        tail[x] = 0.0
    # pmf at hi by log factorials, then down by the ratio pmf(x-1)/pmf(x)
    p = np.exp(log_fact[K] - log_fact[hi] - log_fact[K - hi]
               + log_fact[N - K] - log_fact[n - hi] - log_fact[N - K - n + hi]
               - log_fact[N] + log_fact[n] + log_fact[N - n])
    acc = 0.0
    for x in range(hi, lo, -1):
        acc += p
        tail[x] = min(acc, 1.0)
        # pmf(x-1) = pmf(x) * x (N-K-n+x) / ((K-x+1)(n-x+1))
        p = p * x * (N - K - n + x) / ((K - x + 1) * (n - x + 1))
    for x in range(lo, -1, -1):
        tail[x] = 1.0


@njit(cache=True)
def tail_table(deck_k, start, finish, n):
    """table[inst, h - start, own, hidden, x] = P(at least x of inst + Groupies among `hidden` unseen
    cards | own hand of h cards holding `own` of them); h < finish, hidden <= (n-1)(finish-1)."""
    D = 0
    for t in range(N_TYPES):
        D += deck_k[t]
    max_hidden = (n - 1) * (finish - 1)
    log_fact = np.zeros(D + 1)
    for k in range(1, D + 1):
        log_fact[k] = log_fact[k - 1] + np.log(k)
    table = np.zeros((N_INST, finish - start, finish, max_hidden + 1, max_hidden + 2))
    for inst in range(N_INST):
        success = deck_k[inst] + deck_k[GROUPIE]
        for h in range(start, finish):
            for own in range(0, min(h, success) + 1):
                for hidden in range(0, min(max_hidden, D - h) + 1):
                    fill_tail(table[inst, h - start, own, hidden], D - h, success - own, hidden, log_fact)
    return table


@njit(cache=True, inline="always")
def p_holds(count, inst, seat, cnt, hand, start, hidden, table):
    """Probability, from seat's own hand, that at least `count` of inst + Groupies are in play."""
    own = cnt[seat, inst] + cnt[seat, GROUPIE]
    need = count - own
    if need <= 0:
        return 1.0
    if need > hidden:
        return 0.0
    return table[inst, hand[seat] - start, own, hidden, need]


@njit(cache=True, inline="always")
def _min_legal(cur, inst):
    return 1 if cur < 0 else cur // 4 + (1 if inst <= cur % 4 else 0)


@njit(cache=True, inline="always")
def _best_raise(seat, cur, cnt, hand, start, hidden, table, skip):
    """The legal raise seat is most confident in; among equally confident bids, the highest; never a bid on
    instrument `skip` (-1: none).

    Returns (key, probability); cur = -1 means no standing bid (an opening bid). A bid its own cards
    cover is certain, so the highest certain count of an instrument is the count it holds; above
    that the chance falls strictly, so the lowest legal count is the most confident."""
    best_key = -1
    best_p = -1.0
    h = hand[seat] - start
    for inst in range(N_INST):
        if inst == skip:
            continue
        c = _min_legal(cur, inst)
        own = cnt[seat, inst] + cnt[seat, GROUPIE]
        if c <= own:
            p = 1.0
            c = own
        elif c - own > hidden:
            p = 0.0
        else:
            p = table[inst, h, own, hidden, c - own]
        key = c * 4 + inst
        if p > best_p or (p == best_p and key > best_key):
            best_p = p
            best_key = key
    return best_key, best_p


@njit(cache=True, inline="always")
def threshold_move(seat, cur, par, cnt, hand, start, hidden, table, skip):
    """The threshold policy's move before any bluff: -1 to challenge, else its best raise, never on instrument
    `skip` (-1: any; restricted play: the policy weighs the other bids only).

    It depends only on (seat's parameters, own hand, hidden cards, standing bid), so `actions.py`
    tabulates it per run with this very function (skip -1), and a game in play looks it up."""
    key, p_best = _best_raise(seat, cur, cnt, hand, start, hidden, table, skip)
    if cur >= 0:
        p_hold = p_holds(cur // 4, cur % 4, seat, cnt, hand, start, hidden, table)
        # a bid that cannot hold is always challenged: this also bounds every round's bidding
        if p_hold < par[seat, TH_CHALLENGE_BELOW] or p_hold == 0.0:
            return -1
        if par[seat, TH_COMPARE] != 0.0 and 1.0 - p_hold > p_best:
            return -1
    return key


@njit(cache=True, inline="always")
def bluff_or_plain(seat, cur, key, par, cnt, rng, skip):
    """With probability bluff, a riskier raise than the plain one (`key`, not on instrument `skip`): returns
    (key, kind). A jump keeps key's instrument; the weak instrument is never `skip` (-1: any)."""
    # (a seat that never bluffs draws nothing: its stream serves only the bluffs)
    stream = 1 + seat
    if par[seat, TH_BLUFF] > 0.0 and uniform(rng, stream) < par[seat, TH_BLUFF]:
        if below(rng, stream, 2) == 0:
            jump = 1 + below(rng, stream, np.int64(par[seat, TH_MAX_JUMP]))
            return key + 4 * jump, BID_JUMP_BLUFF
        # the instrument it holds fewest of (ties: the stronger), at its lowest legal count
        weak = -1
        for inst in range(N_INST):
            if inst != skip and (weak < 0 or cnt[seat, inst] <= cnt[seat, weak]):
                weak = inst
        return _min_legal(cur, weak) * 4 + weak, BID_WEAK_BLUFF
    return key, BID_PLAIN


@njit(cache=True, inline="always")
def decide(seat, cur, pol, par, cnt, hand, start, hidden, table, in_play, rng):
    """A seat's move computed from the probability table: returns (key, kind), key -1 for a challenge. A seat
    with `avoid` (par[seat, P_AVOID]) never bids that instrument: every policy has another legal move."""
    skip = np.int64(par[seat, P_AVOID]) - 1
    if pol[seat] == P_RANDOM:
        # uniform over: challenge (when there is a bid) and the next max_raise legal bids of at most
        # in_play cards (not on instrument skip)
        stream = 1 + seat
        max_raise = np.int64(par[seat, RANDOM_MAX_RAISE])
        top = in_play * 4 + 3
        first = 4 if cur < 0 else cur + 1
        if skip < 0:
            n_raise = max(0, min(max_raise, top - first + 1))
        else:
            n_raise = 0
            for k in range(first, top + 1):
                if n_raise == max_raise:
                    break
                if k % 4 != skip:
                    n_raise += 1
        n_opt = n_raise + (0 if cur < 0 else 1)
        if n_opt == 0:
            return -1, BID_RANDOM
        j = below(rng, stream, n_opt)
        if j == n_raise:
            return -1, BID_RANDOM
        if skip < 0:
            return first + j, BID_RANDOM
        k = first
        while True:  # the j-th bid from first not on skip
            if k % 4 != skip:
                if j == 0:
                    return k, BID_RANDOM
                j -= 1
            k += 1
    key = threshold_move(seat, cur, par, cnt, hand, start, hidden, table, skip)
    if key < 0:
        return -1, BID_PLAIN
    return bluff_or_plain(seat, cur, key, par, cnt, rng, skip)


@njit(cache=True, forceinline=True)
def _p_bid(count, own, h, hidden, inst, table):
    """p_holds for a hand holding `own` cards that count (h: hand size - start_cards)."""
    if count <= own:
        return 1.0
    if count - own > hidden:
        return 0.0
    return table[inst, h, own, hidden, count - own]


@njit(cache=True)  # not inlined: only a counting game calls it
def count_choices(seat, cur, key, cnt, hand, start, in_play, table, out, at):
    """Count seat's decision (the standing bid cur, -1: none; its move key, -1: a challenge) into the choices
    columns from out[at] (docs/noize.md, "Profile: choices and restricted play"). An option is a legal move that
    could win: a challenge, or a bid of at most the cards in play (a larger one must lose a challenge). Its
    evaluation, from the seat's own hand as threshold reasons (p_holds): a bid, the chance it holds; a challenge,
    the chance the standing bid does not. Reads the table only; draws nothing."""
    hidden = in_play - hand[seat]
    h = hand[seat] - start
    top = in_play * 4 + 3  # the highest bid of at most in_play cards
    n_bids = max(0, top - max(cur, 3))  # legal bids of at most in_play cards (keys from 4)
    # the two likeliest of those bids: for each instrument its lowest two legal counts (a count's chance
    # falls with the count)
    best = -1.0
    second = -1.0
    for inst in range(N_INST):
        own = cnt[seat, inst] + cnt[seat, GROUPIE]
        c0 = _min_legal(cur, inst)
        for c in range(c0, min(c0 + 2, in_play + 1)):
            p = _p_bid(c, own, h, hidden, inst, table)
            if p > best:
                second = best
                best = p
            elif p > second:
                second = p
    if cur >= 0:  # raise or challenge: raising is one option (its chance: the likeliest raise's)
        ch = at + CH_CHALLENGE
        out[ch + CH_N] += 1
        if n_bids == 0:
            out[ch + CH_OPTIONS] += 1
            out[ch + CH_FORCED] += 1
        else:
            out[ch + CH_OPTIONS] += 2
            inst = cur % 4
            p_hold = _p_bid(cur // 4, cnt[seat, inst] + cnt[seat, GROUPIE], h, hidden, inst, table)
            if abs((1.0 - p_hold) - best) > CHOICE_MARGIN:
                out[ch + CH_REAL] += 1
    if key >= 0:  # which bid (the opening bid, or the raise it chose)
        bd = at + CH_BID
        out[bd + CH_N] += 1
        if n_bids <= 1:  # (a bid above every bid that could hold: the one made is its one option)
            out[bd + CH_OPTIONS] += 1
            out[bd + CH_FORCED] += 1
        else:
            out[bd + CH_OPTIONS] += n_bids
            if best - second > CHOICE_MARGIN:
                out[bd + CH_REAL] += 1


# _event, _cards and _p_bid are inlined by LLVM (forceinline: compiled once per argument types, typed plainly:
# jit_setup), where numba would type them again at each call site: a cold Noize skill scenario compiles 8-10% less. The
# other small helpers stay inlined by numba: as forceinline, _field, _next_seat and fewest changed the plain kernel's
# machine code, and p_holds and _min_legal made the lookahead 1.5-3% slower (docs/performance.md, twenty-first session).
@njit(cache=True, forceinline=True)
def _event(trace, ne, code, a=0, b=0, c=0, d=0, e=0, f=0):
    """Write event row ne (fields a..f, as events.py declares them) if the buffer has room; return the next
    row index.

    Card lists and per-seat lists go in columns TRACE_FIXED onwards, written by the caller."""
    if ne < trace.shape[0]:
        trace[ne, 0] = code
        trace[ne, 1] = a
        trace[ne, 2] = b
        trace[ne, 3] = c
        trace[ne, 4] = d
        trace[ne, 5] = e
        trace[ne, 6] = f
    return ne + 1


@njit(cache=True, forceinline=True)
def _cards(trace, ne, cards, n):
    """Cards of the event just written (row ne - 1), if it fitted."""
    if ne <= trace.shape[0]:
        for i in range(n):
            trace[ne - 1, TRACE_FIXED + i] = cards[i]


# Hands are dealt from prefix sums of packed counts: FIELD bits per card type, 5 types in 60 bits. A
# field of a prefix sum over the doubled deck holds up to 2 x 200 cards of a type.
FIELD = 12
FIELD_MASK = (1 << FIELD) - 1


@njit(cache=True, inline="always")
def _prefix_counts(stack, D, prefix):
    """prefix[i] = packed counts of the first i cards of the cyclic deck (twice round), i = 0 .. 2D, so
    that any deal, a stretch of at most D cards from a position below D, is prefix[b] - prefix[a]."""
    acc = 0
    prefix[0] = 0
    for i in range(D):
        acc += 1 << (FIELD * stack[i])
        prefix[i + 1] = acc
    for i in range(1, D + 1):  # the second time round: the whole deck plus the first i cards
        prefix[D + i] = acc + prefix[i]


@njit(cache=True, inline="always")
def _shuffle(rng, stack, D, prefix):
    """Shuffle the whole deck (rng.shuffle's permutation), taking its prefix sums on the way: Fisher-Yates swaps from
    the last card down, so once the swap at i is done cards i .. D-1 are final, and prefix[i] is the whole deck's
    counts less theirs. The swap partners are drawn first into prefix's second half, partner i at D + i, which the
    swap at i reads and then overwrites. One loop where a swap loop and two prefix loops were (noize.c's shuffle)."""
    full = 0  # the whole deck's packed counts
    for i in range(D):
        full += 1 << (FIELD * stack[_u(i)])
    swap_partners(rng, DEAL, D, prefix[D:])
    acc = 0  # packed counts of cards i .. D-1
    for i in range(D - 1, 0, -1):
        j = _u(prefix[_u(D + i)])
        card = stack[j]
        stack[j] = stack[_u(i)]
        stack[_u(i)] = card
        acc += 1 << (FIELD * card)
        prefix[_u(i)] = full - acc
        prefix[_u(D + i)] = 2 * full - acc
    prefix[0] = 0
    prefix[D] = full
    prefix[2 * D] = 2 * full


@njit(cache=True, inline="always")
def _u(i):
    """i as an unsigned index: numba then drops its test for negative (from-the-end) indices, a few
    instructions on each of the hottest loads."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def _next_seat(seat, n):
    """The seat to the left (an integer division, as in (seat + 1) % n, would cost more than a decision)."""
    return seat + 1 if seat + 1 < n else 0


@njit(cache=True, inline="always")
def _field(packed, t):
    return (packed >> (FIELD * t)) & FIELD_MASK


def count_bits(finish):
    """Bits that hold any count of a hand (at most finish - 1 cards)."""
    return max(1, (finish - 1).bit_length())


def first_hands(start, finish):
    """The table `hand_index` reads: the position of the first hand (the one with no Drums) of every
    (size, Vocals, Keyboard, Guitar), among all hands of start .. finish - 1 cards ordered by size, then
    Vocals, Keyboard, Guitar and Drums held; the Groupies are the rest. It is small enough for L1."""
    bits = count_bits(finish)
    first = np.full((finish - start) << 3 * bits, -1, dtype=np.int32)
    at = 0
    for h in range(start, finish):
        for n_v in range(h + 1):
            for n_k in range(h + 1 - n_v):
                for n_g in range(h + 1 - n_v - n_k):
                    first[(((h - start) << bits | n_g) << bits | n_k) << bits | n_v] = at
                    at += h - n_v - n_k - n_g + 1  # the hands with 0 .. all the rest in Drums
    return first


@njit(cache=True, inline="always")
def hand_index(dealt, h, start, bits, first):
    """The hand's position in the order of `first_hands`, from its packed counts and size."""
    code = (((h - start) << bits | _field(dealt, 2)) << bits | _field(dealt, 1)) << bits | _field(dealt, 0)
    return first[_u(code)] + _field(dealt, 3)


# (_nrt=False, as run: no reference counting in the hottest loop)
@njit(cache=True, _nrt=False)
def _plain_bidding(flat, row_at, starter, n):
    """A round's bidding when every seat looks its moves up and none bluffs: a chain of one load per
    decision. flat: the tabulated moves as one array; row_at: where each seat's row starts in it. Every
    raise in the table is a position in a row (actions._trimmed), so no bound is needed.
    Returns (standing bid, bidder, challenger, bids)."""
    cur = -1
    bidder = -1
    seat = starter
    bids = 0
    while True:
        key = np.int64(flat[_u(row_at[_u(seat)] + cur + 1)])
        if key < 0:
            return cur, bidder, seat, bids
        cur = key
        bidder = seat
        bids += 1
        seat = _next_seat(seat, n)


@njit(cache=True, inline="always")
def _open_round(rules, n, D, rng, stack, prefix, pos, dealer, rounds, trace, ne, trace_on):
    """A round begins: the player left of the dealer starts, and with the house rule the whole deck is
    shuffled first (round 1 is dealt from the opening shuffle). Returns (starter, deal position, ne)."""
    starter = _next_seat(dealer, n)
    if rules[R_SHUFFLE] != 0 and rounds > 0:
        _shuffle(rng, stack, D, prefix)
        pos = 0
        if trace_on:
            ne = _event(trace, ne, EV_SHUFFLE, D)
            _cards(trace, ne, stack, D)
    if trace_on:
        ne = _event(trace, ne, EV_ROUND, rounds + 1, dealer, starter, pos)
    return starter, pos, ne


@njit(cache=True, inline="always")
def _deal(geometry, pos, starter, rounds, keep_counts, stack, prefix, hand, cnt, seat_rows, first_hand, moves_flat,
          row_at, power, trace, ne, trace_on):
    """Deal each player all her cards at once, from the dealer's left: a stretch of the cyclic deck. Fills
    cnt (with keep_counts) and each table seat's row of moves (row_at); geometry: (players, deck size,
    start_cards, bits, hidden_low, n_hidden, width) of run. Returns (cards in play, their packed counts, the next deal
    position, power, ne)."""
    n, D, start, bits, hidden_low, n_hidden, width = geometry
    in_play = 0
    for p in range(n):
        in_play += hand[p]
    in_play_cards = prefix[pos + in_play] - prefix[pos]
    p = starter
    dealt_before = prefix[pos]
    for j in range(n):
        h = hand[_u(p)]
        dealt_after = prefix[_u(pos + h)]
        dealt = dealt_after - dealt_before
        dealt_before = dealt_after
        if rounds == 0:  # card power: Groupies in the first hand
            power |= min(_field(dealt, GROUPIE), 2) << (2 * p)
        if keep_counts:
            for t in range(N_TYPES):
                cnt[p, t] = _field(dealt, t)
        if seat_rows[_u(p)] >= 0:  # the seat's row of moves for this round (actions.py)
            row = (seat_rows[_u(p)] + hand_index(dealt, h, start, bits, first_hand) * n_hidden
                   + in_play - h - hidden_low) * width
            row_at[_u(p)] = row
            prefetch(moves_flat, row)  # its cache lines, while the other hands are dealt
            if width > 64:
                prefetch(moves_flat, row + 64)
        if trace_on:
            ne = _event(trace, ne, EV_DEAL, p, pos if pos < D else pos - D, h)
            if ne <= trace.shape[0]:
                for c in range(h):
                    trace[ne - 1, TRACE_FIXED + c] = stack[(pos + c) % D]
        pos += h
        p = _next_seat(p, n)
    if pos >= D:
        pos -= D
    return in_play, in_play_cards, pos, power, ne


@njit(cache=True, inline="always")
def raise_bid(n, seat, key, kind, bids, out, c_bluff, trace, ne, trace_on):
    """seat raises the standing bid to `key` (a bid of this `kind`: BID_...). Returns (standing bid, bidder, the
    next seat to move, bids, ne)."""
    if kind == BID_JUMP_BLUFF or kind == BID_WEAK_BLUFF:
        out[c_bluff] += 1
    if trace_on:
        ne = _event(trace, ne, EV_BID, seat, key // 4, key % 4, kind)
    return key, seat, _next_seat(seat, n), bids + 1, ne


@njit(cache=True, inline="always")
def _bidding(n, cur, bidder, seat, bids, pol, par, seat_rows, moves_flat, width, row_at, cnt, hand, start, in_play,
             table, rng, moves, out, c_bluff, trace, ne, trace_on, hand_over, count_at):
    """Bidding from the standing bid cur (-1: none) by bidder, with `seat` to move, until a challenge: each
    seat raises or challenges. Returns (standing bid, bidder, challenger, bids, ne, waiting). count_at: None (no
    counting: numba drops the branch and never compiles count_choices), or a column: each decision is counted into
    the choices columns from out[count_at] if count_at >= 0 (count_choices; then no seat has a table row, so the
    counting is off the looked-up moves' path).

    hand_over: None (the default kernels: numba drops the branch), or anything else: then the bidding stops
    before a P_LOOKAHEAD or P_SEARCH seat's move (waiting True, `seat` the one to move), for the lookahead's kernel
    (lookahead.py) to decide it, raise_bid, and call _bidding again."""
    while True:
        if hand_over is not None:
            if pol[seat] == P_LOOKAHEAD or pol[seat] == P_SEARCH:
                return cur, bidder, seat, bids, ne, True
        if seat_rows[seat] >= 0:
            # one load; a bid above the row (more cards than are in play) is challenged. (A seat with a table row
            # avoids nothing, and no game that counts has a table: encode)
            key = np.int64(moves_flat[row_at[seat] + min(cur + 1, width - 1)])
            kind = BID_PLAIN
            if key >= 0:
                key, kind = bluff_or_plain(seat, cur, key, par, cnt, rng, -1)
        else:
            if pol[seat] == P_SCRIPT:
                key = np.int64(par[seat, moves[seat]])
                kind = BID_PLAIN
                moves[seat] += 1
            else:
                key, kind = decide(seat, cur, pol, par, cnt, hand, start, in_play - hand[seat], table, in_play, rng)
            if count_at is not None:
                if count_at >= 0:
                    count_choices(seat, cur, key, cnt, hand, start, in_play, table, out, count_at)
        if key < 0:
            return cur, bidder, seat, bids, ne, False
        cur, bidder, seat, bids, ne = raise_bid(n, seat, key, kind, bids, out, c_bluff, trace, ne, trace_on)


@njit(cache=True, inline="always")
def _settle(n, cur, bidder, challenger, bids, in_play_cards, starter, rounds, finish, hand, cnt, out, trace, ne,
            trace_on):
    """The challenge: count the bid instrument plus every Groupie; the loser is dealt one card more from now
    on. Returns (whether the loser reached the finish count, the loser, rounds played, ne)."""
    count = cur // 4
    inst = cur % 4
    have_inst = _field(in_play_cards, inst)
    have_groupies = _field(in_play_cards, GROUPIE)
    have = have_inst + have_groupies
    loser = challenger if have >= count else bidder
    hand[loser] += 1
    rounds += 1
    out[col(R_BIDS, n)] += bids
    if loser == bidder:
        out[col(R_CHW, n)] += 1
    if bids == 1:
        out[col(R_OPEN, n)] += 1
    if trace_on:
        ne = _event(trace, ne, EV_CHALLENGE, challenger, bidder, count, inst)
        for j in range(n):
            p = (starter + j) % n
            ne = _event(trace, ne, EV_REVEAL, p, cnt[p, 0], cnt[p, 1], cnt[p, 2], cnt[p, 3], cnt[p, 4])
        ne = _event(trace, ne, EV_COUNT, inst, count, have_inst, have_groupies, loser,
                    1 if loser == challenger else 0)
        _cards(trace, ne, hand, n)
    return hand[loser] >= finish, loser, rounds, ne


@njit(cache=True, inline="always")
def fewest(hand, n):
    """The fewest cards any player holds: the winners are the players who hold that many."""
    low = hand[0]
    for p in range(1, n):
        low = min(low, hand[p])
    return low


@njit(cache=True, inline="always")
def geometry_of(rules, D, width):
    """(players, deck size, start_cards, bits, hidden_low, n_hidden, width): what _deal needs to find a seat's row
    of moves (ordered by hand, then hidden cards from the fewest: actions.py)."""
    n = rules[R_PLAYERS]
    finish = rules[R_FINISH]
    start = rules[R_START]
    bits = 1  # count_bits(finish)
    while (1 << bits) < finish:
        bits += 1
    return n, D, start, bits, (n - 1) * start, (n - 1) * (finish - 1 - start) + 1, width


# _nrt=False: the game loop allocates nothing (play_game and play_chunk hand it its arrays), and without
# numba's reference counting it pays no atomic increment and decrement for each array a helper receives.
# nogil: the batch runs blocks of games on a pool of threads (analyzer/threads.py), taken as threads free up.
# The prange batch it replaced split the games evenly up front, so when the runner's fold took a core from one
# of its threads the other thread finished early and waited.
@njit(cache=True, _nrt=False, nogil=True)
def run(seed, first_game, lo, hi, rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, rng, stack,
        prefix, hand, cnt, row_at, moves, out, trace, trace_on, count):
    """Play games first_game + lo .. first_game + hi - 1 of the run keyed by seed into out[lo:hi], each with its
    random streams keyed to it; append events to `trace` if trace_on (0/1: a block of one game); count: None, or
    the choices columns' first column when every decision is counted (rules[R_COUNT]: play_chunk). Returns the
    number of events the last game wrote (-1 if the trace buffer was too small). The batch and the trace both
    play through here, called from Python (play_chunk, play_game): one kernel to compile, where a jitted
    play_chunk and play_game, each with its own copy of run's code, made LLVM optimise and generate the game
    three times (2.9 of noize-4p's 16.4 s of compiles, docs/performance.md).

    A block, not one game per call: a call passes every array as its fields on the stack (over a hundred
    words here), which cost about a tenth of a game when play_chunk called run once per game."""
    ne = 0
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        ne = _game(rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, rng, stack, prefix, hand,
                   cnt, row_at, moves, out[i], trace, trace_on, count)
    return ne


# (one round of LLVM's pipeline: as fast as two, measured; the plain and lookahead kernels were faster with two)
optimise_once(run)


@njit(cache=True, inline="always")  # callers: begin_game, and the plain kernel's game (plain.py)
def opening_deck(rules, deck, rng, stack, prefix):
    """The deck into the stack, shuffled (or as stacked: tests), with its prefix sums."""
    D = deck.shape[0]
    for i in range(D):
        stack[i] = deck[i]
    if rules[R_STACKED] == 0:
        _shuffle(rng, stack, D, prefix)
    else:
        _prefix_counts(stack, D, prefix)


@njit(cache=True, inline="always")  # callers: _game, and the lookahead's game (lookahead.py)
def begin_game(rules, deck, rng, stack, prefix, hand, moves, out, trace, trace_on):
    """A game's start: the deck into the stack, shuffled (or as stacked: tests) with its prefix sums; every hand
    start_cards; the result row cleared; the deck event. Returns ne."""
    n = rules[R_PLAYERS]
    D = deck.shape[0]
    opening_deck(rules, deck, rng, stack, prefix)
    for p in range(n):
        hand[p] = rules[R_START]
        moves[p] = 0
    for c in range(out.shape[0]):
        out[c] = 0
    ne = 0
    if trace_on:
        ne = _event(trace, ne, EV_DECK, D)
        _cards(trace, ne, stack, D)
    return ne


@njit(cache=True, inline="always")  # callers: end_game, and the plain kernel's end (plain.py)
def final_hands(n, hand, rounds, out):
    """The winners (the fewest cards) and the final hands into the row (every win_s column written, 0 or 1), with
    n_winners, length and end. Returns (the fewest cards, the sole winner or -1)."""
    low = fewest(hand, n)
    n_win = 0
    winner = -1
    for p in range(n):
        win = hand[p] == low
        out[col(R_HAND, n) + p] = hand[p]
        out[col(R_WIN, n) + p] = 1 if win else 0
        n_win += 1 if win else 0
        winner = p if win else winner
    out[col(R_NWIN, n)] = n_win
    out[col(R_LEN, n)] = rounds
    out[col(R_END, n)] = 0
    return low, winner if n_win == 1 else -1


@njit(cache=True, inline="always")  # callers: end_game, and the plain kernel's end (plain.py)
def power_columns(n, power, out):
    """Card power into the row: one 0/1 column per category (the Groupies of the seat's first hand: 2 bits a seat
    of `power`) and seat."""
    for p in range(n):
        for k in range(N_POWER):
            out[col(R_POWER, n) + k * n + p] = 1 if (power >> (2 * p)) & 3 == k else 0


@njit(cache=True, inline="always")  # callers: _game, and the lookahead's game (lookahead.py)
def end_game(n, finish, hand, rounds, loser, standings, power, out, trace, ne, trace_on):
    """A game's end, after the final loss: the winners (the fewest cards), the result row, the drama and card
    power, the end event. Returns the number of events written (-1 if the trace buffer was too small)."""
    _, winner = final_hands(n, hand, rounds, out)
    # the drama block (drama.block_size(n) slots) in the last columns before the choices (which hold this game's
    # counts), read by drama.finish before it writes the drama columns; the card-power columns after them are
    # written last
    block = col(R_CHOICES, n) - (drama.D_STAND + drama.D_UNIT * n)
    drama_lanes.write(standings, out, block, n)
    drama.finish(out, block, n, winner, rounds, out, col(R_DRAMA, n))
    power_columns(n, power, out)
    if trace_on:
        ne = _event(trace, ne, EV_END, rounds, finish, loser)
        _cards(trace, ne, out, n)  # the win_s flags (R_WIN: the row's first columns)
        if ne > trace.shape[0]:
            return -1
    return ne


@njit(cache=True, inline="always")  # one caller: run
def _game(rules, deck, pol, par, table, moves_flat, width, seat_rows, first_hand, rng, stack, prefix, hand, cnt,
          row_at, moves, out, trace, trace_on, count):
    """Play a game with the random streams already keyed to it; fill `out`; append events to `trace` if
    trace_on (0/1). Returns the number of events written (-1 if the trace buffer was too small).

    moves_flat, width, seat_rows, first_hand: the threshold seats' tabulated moves (actions.py) as one
    flat array, the length of its rows, the first row of each seat's block, and the table that numbers
    hands (first_hands). Scratch: stack (deck size), prefix (2 x deck size + 1), hand, row_at and moves
    (players), cnt (players x N_TYPES). (A lookahead seat's game is lookahead.py's: it decides by the search.)"""
    n = rules[R_PLAYERS]
    finish = rules[R_FINISH]
    start = rules[R_START]
    D = deck.shape[0]
    geometry = geometry_of(rules, D, width)
    # every seat looks its moves up and none bluffs: bidding is _plain_bidding's chain of loads, and needs no hand
    # counted per card type (cnt). (A game that counts decisions has no table: encode.)
    plain = True
    for p in range(n):
        if seat_rows[p] < 0 or par[p, TH_BLUFF] > 0.0:
            plain = False
    keep_counts = trace_on or not plain
    ne = begin_game(rules, deck, rng, stack, prefix, hand, moves, out, trace, trace_on)
    standings = drama_lanes.deal(n, start)  # the drama (who leads, who trails), updated after every round
    power = 0

    pos = 0
    dealer = n - 1
    rounds = 0
    while True:
        starter, pos, ne = _open_round(rules, n, D, rng, stack, prefix, pos, dealer, rounds, trace, ne, trace_on)
        in_play, in_play_cards, pos, power, ne = _deal(geometry, pos, starter, rounds, keep_counts, stack, prefix, hand,
                                                       cnt, seat_rows, first_hand, moves_flat, row_at, power, trace,
                                                       ne, trace_on)
        # bidding: the starter opens; each next player raises or challenges
        if plain and not trace_on:
            cur, bidder, seat, bids = _plain_bidding(moves_flat, row_at, starter, n)
        else:  # the same moves, with bluffs, other policies and events
            cur, bidder, seat, bids, ne, _ = _bidding(
                n, -1, -1, starter, 0, pol, par, seat_rows, moves_flat, width, row_at, cnt, hand, start, in_play, table,
                rng, moves, out, col(R_BLUFF, n), trace, ne, trace_on, None, count)
        over, loser, rounds, ne = _settle(n, cur, bidder, seat, bids, in_play_cards, starter, rounds, finish, hand, cnt,
                                          out, trace, ne, trace_on)
        standings = drama_lanes.lost(standings, loser, rounds)
        if over:
            break
        dealer = starter
    return end_game(n, finish, hand, rounds, loser, standings, power, out, trace, ne, trace_on)


@njit(cache=True)
def _scratch(deck, n):
    """The arrays a game is played in: stack, prefix, hand, cnt, row_at, moves."""
    D = deck.shape[0]
    return (np.empty(D, dtype=np.int64), np.empty(2 * D + 1, dtype=np.int64), np.empty(n, dtype=np.int64),
            np.empty((n, N_TYPES), dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))


def play_game(seed, game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out, trace, trace_on):
    """Play game `game` of the run keyed by `seed`; fill `out`; append events to `trace` if trace_on (0/1).

    Returns the number of events written (-1 if the trace buffer was too small)."""
    return int(play_chunk(seed, game, 0, 1, rules, deck, pol, par, table, actions, seat_rows, first_hand,
                          out[None], trace, trace_on))  # (a view: a copy would leave out unfilled)


CHUNK = 64  # the batch's blocks are multiples of this many games
NO_TRACE = np.zeros((1, 1), dtype=np.int64)  # the batch records no events


def play_chunk(seed, first_game, lo, hi, rules, deck, pol, par, table, actions, seat_rows, first_hand, out,
               trace=NO_TRACE, trace_on=0):
    """Games first_game + lo .. first_game + hi - 1 into out[lo:hi], with one set of scratch arrays and random
    state (the arguments typed as run was compiled for: one signature, and a second only for `analyzer profile`'s
    counting, whose `count` is a column, not None: a run that counts nothing never compiles count_choices)."""
    n = int(rules[R_PLAYERS])
    count = np.int64(col(R_CHOICES, n)) if rules[R_COUNT] != 0 else None
    stack, prefix, hand, cnt, row_at, moves = _scratch(deck, n)
    return run(np.uint64(seed), np.int64(first_game), np.int64(lo), np.int64(hi), rules, deck, pol, par, table,
               actions.reshape(actions.size), np.int64(actions.shape[1]), seat_rows, first_hand,
               np.zeros(2 * (1 + n), dtype=np.uint64), stack, prefix, hand, cnt, row_at, moves, out, trace,
               np.int64(trace_on), count)


def batch(seed, first_game, rules, deck, pol, par, table, actions, seat_rows, first_hand, out):
    """Games first_game .. first_game + len(out) - 1 into out, in blocks on numba.get_num_threads() threads."""
    run_in_blocks(play_chunk, out.shape[0], CHUNK, (seed, first_game),
                  (rules, deck, pol, par, table, actions, seat_rows, first_hand, out))

