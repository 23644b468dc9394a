"""The Distance in numba: one game per call (`play_game`), a batch over games (`batch`) on a pool of threads.

Random streams: 0 (DEAL) shuffles the deck at the start and the discard pile at every reshuffle;
1 + s holds seat s's random decisions; 1 + players (TABLE) draws the interval when it is random;
2 + players (ERRORS) draws the human errors. The interval and the errors never touch the deal, so every
variant of a scenario plays from the very same opening deal.

The batch plays blocks of whole chunks of CHUNK games on several threads (analyzer/threads.py: no prange
kernel, which would compile the whole game a second time), each chunk reusing one state array, random
state and scratch (no allocation per game); a game's result depends only on (seed, game index).
Flags are int64 (0/1), never literal booleans, and constants passed to a jitted function are np.int64(...):
numba compiles a function once per literal value it is called with.
"""
import numpy as np
from numba import njit

from analyzer.games import drama
from analyzer.games.distance import choices
from analyzer.games.distance.events import (
    DRAW_NORMAL, DRAW_PENALTY, END_CAP, END_DEADLOCK, END_WON, EV_DEAL, EV_DECK, EV_DRAW, EV_END, EV_FORGOT,
    EV_INTERVAL, EV_MISPLAY, EV_PASS, EV_PLAY, EV_START, EV_START_LETTER, EV_TURN, HOW_CHOSEN, HOW_FIXED, HOW_RANDOM,
    NEED_ANY, TRACE_FIXED)
from analyzer.games.distance.policies import (
    P_GREEDY, choose_interval, choose_play, declare, nth_letter, popcount7, start_letter)
from analyzer.games.distance.state import (
    ALL, C_CHOOSER, C_COUNT, C_DRAW_LIMIT, C_HAND, MAXP, C_MODE, C_NSTEPS, C_PACKED, C_STACKED, C_STEP, C_TURN_CAP, C_WNIBBLES, MAXC,
    MAXK, MODE_FIXED, MODE_RANDOM, O_CKIND, O_CNT, O_DCNT, O_DISC, O_DRAMA, O_DRAWS, O_HAND, O_HN, O_NWILD, O_IDS, O_KID,
    O_KMASK, O_LNIBBLES, O_LTHREE, O_NEXT, O_ORDER, O_PHAND, O_POL, O_STEPS, O_STOCK, PACK_FITTING, PHAND_STRIDE, S_N,
    S_NCARDS, S_NDISC, S_IDS, S_NE, S_NEED, S_NKINDS, S_NSTOCK, S_OVF, S_POS, S_STEP, WILD_LIST, add_to_hand, discard, draw, emit, fits,
    init_state, kinds_of, n_kinds_of, play_cards, reshuffle)
from analyzer.games.distance.state import N_PAR, NO_AVOID, O_PAR, PAR_AVOID
from analyzer.games.layout import SEATS, Row, col
from analyzer.jit_deferred import optimise_once
from analyzer.threads import run_in_blocks
from analyzer.rng import DEAL, below, reset_streams, shuffle_drawn, uniform

RATE_MISPLAY, RATE_FORGET = 0, 1  # the rates array (float64): the human-error options

END_NONE = -1  # play_turns stopped with the game still on (at its `stop` turn)

# card power (issue 12): wilds in a seat's opening hand, one 0/1 column per category and seat
POWER = (("no wild", "open_wild0_"), ("one wild", "open_wild1_"), ("two or more wilds", "open_wild2_"))

# The result row (docs/distance.md, "Result columns"); `ROW.define` assigns each piece's name its position, and
# col(R_..., n) is its column with n players. The drama and card-power columns come last (base.added_columns).
ROW = Row("The Distance's result row", [
    ("R_WIN", "win_", SEATS, "1: the seat emptied her hand first"),
    ("R_NWIN", "n_winners", 1, "1, or 0 for a stall"),
    ("R_LEN", "length", 1, "turns"),
    ("R_END", "end", 1, "END_WON, END_DEADLOCK, END_CAP"),
    ("R_DRAWN", "cards_drawn", 1, "draws by players who could not play"),
    ("R_PENALTY", "penalty_cards", 1, ""),
    ("R_PASSES", "passes", 1, ""),
    ("R_RESHUFFLES", "reshuffles", 1, ""),
    ("R_WILDS", "wilds_used", 1, ""),
    ("R_PLAYS", "plays", 1, ""),
    ("R_MULTI", "multi_plays", 1, "plays of two or more cards"),
    ("R_MISPLAYS", "misplays", 1, ""),
    ("R_FORGOT", "forgotten_calls", 1, ""),
    ("R_INTERVAL", "interval", 1, "2 = seconds .. 7 = sevenths"),
    ("R_CARDS_LEFT", "cards_left_", SEATS, "cards in the seat's hand at the end"),
    ("R_DRAMA", drama.COLUMNS, 1, "analyzer.games.drama"),
    ("R_POWER", tuple(prefix for _, prefix in POWER), SEATS, "card power: one 0/1 column per category and seat"),
    ("R_CHOICES", choices.COLUMNS, 1, "the decisions counted with C_COUNT (choices.py), 0 without"),
])
ROW.define(globals())
columns = ROW.names


@njit(cache=True)
def _opening_power(st, out, at):
    """Card power: out[at + category * n + s] = 1 for the wilds (0, 1, 2 or more) in seat s's dealt hand."""
    n = st[S_N]
    for s in range(n):
        wilds = st[O_NWILD + s]
        out[at + min(wilds, 2) * n + s] = 1


@njit(cache=True)
def _drama_look(st, turn):
    """The drama block sees the hand sizes after `turn` (fewer cards is better: standing = minus them); the
    turns after the deal use drama.look_one (one hand changes per turn)."""
    n = st[S_N]
    for s in range(n):
        st[O_DRAMA + drama.D_STAND + drama.D_UNIT * s] = -st[O_HN + s]
    drama.look(st, O_DRAMA, n, turn)


@njit(cache=True)
def _penalty(st, seat, count, rng, out, tr, on):
    """Draw `count` penalty cards (fewer if nothing is left)."""
    n = st[S_N]
    for _ in range(count):
        c, shuffled = draw(st, rng, tr, on)
        out[col(R_RESHUFFLES, n)] += shuffled
        if c < 0:
            return
        add_to_hand(st, seat, c)
        out[col(R_PENALTY, n)] += 1
        emit(st, tr, on, EV_DRAW, seat, c, 0, DRAW_PENALTY)


@njit(cache=True, inline="always")
def _list_cards_of(st, seat, kind, count, tr, k, at):
    """Write the first `count` cards of `kind` in seat's hand (the ones play_cards would take) to trace row k
    from column `at`; returns the column after them."""
    base = O_HAND + seat * MAXC
    for i in range(st[O_HN + seat]):
        if count == 0:
            break
        c = st[base + i]
        if st[O_CKIND + c] == kind:
            tr[k, at] = c
            at += 1
            count -= 1
    return at


@njit(cache=True, inline="always")
def _list_play(st, seat, kind, notes, wilds, tr, k, at):
    """Write the cards of a play of `notes` cards of `kind` and `wilds` wilds (the ones _attempt would put down:
    the wild kinds in deck order) to trace row k from column `at`; returns the column after them."""
    at = _list_cards_of(st, seat, kind, notes, tr, k, at)
    left = wilds
    for j in range(n_kinds_of(st, WILD_LIST)):
        wild_kind = kinds_of(st, WILD_LIST, j)
        take = min(left, st[O_CNT + seat * MAXK + wild_kind])
        at = _list_cards_of(st, seat, wild_kind, take, tr, k, at)
        left -= take
    return at


@njit(cache=True)  # not inlined: only a traced game calls it, so the batch kernel is not made longer
def _record_misplay(st, seat, kind, notes, wilds, letter, pick, tr, on):
    """The misplay event of a seat that meant to play `notes` cards of `kind` and `wilds` wilds as `letter`: what
    the table saw instead, chosen by `pick` (uniform in [0, 1), so no random number is drawn and the game is the
    one the batch plays), then the play it meant. The slip is a wrong card (one card of the hand that cannot give
    the intended letter, put down alone and called as that letter) or a wrong letter (the intended cards, called
    as a letter they may not be played as), half and half when both are possible; the letter said is -1 (none)
    when any letter may be played and the intended cards are wilds with no wrong card to grab."""
    intended = notes + wilds
    # the letters the intended cards may legally be called as (group_fits for a play of one kind + wilds)
    legal = ALL if notes == 0 else st[O_KMASK + kind]
    need = st[S_NEED]
    if need != NEED_ANY:
        legal &= 1 << need
    wrong_letters = ALL & ~legal
    n_wrong_letters = popcount7(wrong_letters)
    base = O_HAND + seat * MAXC
    n_wrong_cards = 0
    for i in range(st[O_HN + seat]):
        if not fits(st[O_KMASK + st[O_CKIND + st[base + i]]], letter):  # never a wild: it gives every letter
            n_wrong_cards += 1
    wrong_card = n_wrong_cards > 0
    if wrong_card and n_wrong_letters > 0:
        wrong_card = pick < 0.5
        pick = 2.0 * pick if wrong_card else 2.0 * pick - 1.0
    wrong = np.int64(-1)
    if wrong_card:
        j = min(np.int64(pick * n_wrong_cards), n_wrong_cards - 1)  # min: pick * n may round up to n
        for i in range(st[O_HN + seat]):
            c = st[base + i]
            if not fits(st[O_KMASK + st[O_CKIND + c]], letter):
                if j == 0:
                    wrong = c
                    break
                j -= 1
        put_down, said = np.int64(1), letter
    else:
        put_down = intended
        said = np.int64(-1)
        if n_wrong_letters > 0:
            said = nth_letter(wrong_letters, min(np.int64(pick * n_wrong_letters), n_wrong_letters - 1))
    k = emit(st, tr, on, EV_MISPLAY, seat, put_down, said, intended, letter)
    if k < 0:
        return
    if wrong_card:
        tr[k, TRACE_FIXED] = wrong
        at = TRACE_FIXED + 1
    else:  # the intended cards themselves go down
        at = _list_play(st, seat, kind, notes, wilds, tr, k, TRACE_FIXED)
    _list_play(st, seat, kind, notes, wilds, tr, k, at)


@njit(cache=True, inline="always")
def _attempt(st, seat, kind, notes, wilds, letter, rates, rng, out, tr, on):
    """Play `notes` cards of `kind` and `wilds` wilds as `letter`, unless a human error spoils it (the
    cards stay, 2 penalty cards). Returns 1 if the cards were played, 0 on a misplay."""
    players = st[S_N]
    errors_stream = 2 + players
    if rates[RATE_MISPLAY] > 0.0:
        error_draw = uniform(rng, errors_stream)
        if error_draw < rates[RATE_MISPLAY]:
            if on:
                # error_draw / rate is uniform in [0, 1) given a misplay: it picks the slip
                _record_misplay(st, seat, kind, notes, wilds, letter, error_draw / rates[RATE_MISPLAY], tr, on)
            out[col(R_MISPLAYS, players)] += 1
            # the cards put down go back to the hand: it is as it was, the discard pile and the need unchanged
            _penalty(st, np.int64(seat), np.int64(2), rng, out, tr, on)
            return 0
    m = play_cards(st, seat, kind, notes, np.int64(0))
    left = wilds
    if left > 0:  # the wild kinds in deck order
        for j in range(n_kinds_of(st, WILD_LIST)):
            k = kinds_of(st, WILD_LIST, j)
            take = min(left, st[O_CNT + seat * MAXK + k])
            m = play_cards(st, seat, k, take, m)
            left -= take
    nxt = (letter + st[S_STEP]) % 7
    st[S_NEED] = nxt
    ev = emit(st, tr, on, EV_PLAY, seat, m, letter, nxt)
    if ev >= 0:
        for i in range(m):
            tr[ev, TRACE_FIXED + i] = st[O_IDS + i]
    out[col(R_PLAYS, players)] += 1
    out[col(R_WILDS, players)] += wilds
    if m > 1:
        out[col(R_MULTI, players)] += 1
    if st[O_HN + seat] == 1 and rates[RATE_FORGET] > 0.0 and uniform(rng, errors_stream) < rates[RATE_FORGET]:
        emit(st, tr, on, EV_FORGOT, seat)
        out[col(R_FORGOT, players)] += 1
        _penalty(st, np.int64(seat), np.int64(2), rng, out, tr, on)
    return 1


@njit(cache=True, inline="always")
def draw_until_fits(st, seat, need, draw_limit, rng, out, tr, on):
    """A seat that holds nothing that fits draws one card at a time; a drawn card that fits is its play
    (alone: it held nothing else that fits); after draw_limit draws (0: no limit), or with nothing left to
    draw, it passes (recorded here). Returns (cards drawn, kind or -1, notes, wilds, letter) of the play
    to make, notes + wilds == 0 after a pass."""
    n = st[S_N]
    drawn = 0
    while draw_limit == 0 or drawn < draw_limit:
        c, shuffled = draw(st, rng, tr, on)
        out[col(R_RESHUFFLES, n)] += shuffled
        if c < 0:
            break
        drawn += 1
        out[col(R_DRAWN, n)] += 1
        add_to_hand(st, seat, c)
        ck = st[O_CKIND + c]
        ck_mask = st[O_KMASK + ck]
        playable = 1 if fits(ck_mask, need) else 0
        emit(st, tr, on, EV_DRAW, seat, c, playable, DRAW_NORMAL)
        if playable:
            if ck_mask == ALL:
                kind, notes, wilds = np.int64(-1), np.int64(0), np.int64(1)
            else:
                kind, notes, wilds = ck, np.int64(1), np.int64(0)
            letter = need if need != NEED_ANY else declare(st, np.int64(seat), ck_mask, kind, notes, wilds, rng)
            return drawn, kind, notes, wilds, letter
    out[col(R_PASSES, n)] += 1
    emit(st, tr, on, EV_PASS, seat, drawn, need)
    return drawn, np.int64(-1), np.int64(0), np.int64(0), np.int64(-1)


@njit(cache=True)
def begin(st, rng, out, tr, on):
    """The start of a game (run and lookahead.run_look): clear out, deal, record the opening card power
    and drama, set the interval and the start card's letter (st[S_NEED])."""
    n = st[S_N]
    for i in range(out.shape[0]):
        out[i] = 0
    k = emit(st, tr, on, EV_DECK, st[S_NCARDS])
    if k >= 0:
        for i in range(st[S_NCARDS]):
            tr[k, TRACE_FIXED + i] = st[O_STOCK + i]
    # the deal: one card at a time round the table, starting with seat 0 (the last seat deals); add_to_hand's
    # work with the stock's position and the hand sizes kept in registers (not a store and a load per card).
    # The packed hands of greedy_turns (O_PHAND) are dealt alongside: it need not pack them from the counts
    # (meaningless, and never read, for a deck that does not pack: & 63 keeps the shift defined)
    pos = st[S_POS]
    ids = st[S_IDS]
    hand = st[C_HAND]
    for r in range(hand):
        for s in range(n):
            c = _get(st, O_STOCK + pos)
            pos += 1
            if ids:
                _put(st, O_HAND + s * MAXC + st[O_HN + s] + r, c)
            kind = _get(st, O_CKIND + c)
            _put(st, O_CNT + s * MAXK + kind, _get(st, O_CNT + s * MAXK + kind) + 1)
            _put(st, O_NWILD + s, _get(st, O_NWILD + s) + (1 if _get(st, O_KMASK + kind) == ALL else 0))
            _put(st, O_PHAND + PHAND_STRIDE * s, _get(st, O_PHAND + PHAND_STRIDE * s) + (1 << ((4 * kind) & 63)))
    for s in range(n):
        st[O_HN + s] += hand
    st[S_POS] = pos
    _opening_power(st, out, col(R_POWER, n))
    _drama_look(st, 0)
    for s in range(n):
        k = emit(st, tr, on, EV_DEAL, s, st[O_HN + s])
        if k >= 0:
            for i in range(st[O_HN + s]):
                tr[k, TRACE_FIXED + i] = st[O_HAND + s * MAXC + i]
    # the interval
    mode = st[C_MODE]
    chooser = -1
    if mode == MODE_FIXED:
        step = st[C_STEP]
        how = HOW_FIXED
    elif mode == MODE_RANDOM:
        step = st[O_STEPS + below(rng, 1 + n, st[C_NSTEPS])]
        how = HOW_RANDOM
    else:
        chooser = st[C_CHOOSER]
        if st[C_COUNT]:
            choices.count_interval(st, chooser, out, col(R_CHOICES, n))
        step = choose_interval(st, chooser)
        how = HOW_CHOSEN
    st[S_STEP] = step
    out[col(R_INTERVAL, n)] = step + 1
    emit(st, tr, on, EV_INTERVAL, step + 1, how, chooser)
    # the start card
    start = st[O_STOCK + st[S_POS]]
    st[S_POS] += 1
    discard(st, start)
    mask = st[O_KMASK + st[O_CKIND + start]]
    letter = -1
    if mask == ALL:
        need = NEED_ANY
    elif popcount7(mask) == 1:
        need = (popcount7(mask - 1) + step) % 7  # the index of its one letter, plus the step
    else:
        if st[C_COUNT]:
            choices.count_start_letter(st, mask, out, col(R_CHOICES, n))
        letter = start_letter(st, 0, mask, rng)
        need = (letter + step) % 7
    emit(st, tr, on, EV_START, start, need)
    if letter >= 0:
        emit(st, tr, on, EV_START_LETTER, 0, letter, need)
    st[S_NEED] = need


# inline="always": its one call site in the default kernel is play_turns (the lookahead calls it through a
# wrapper of its own), so _attempt and draw_until_fits are compiled once there
@njit(cache=True, inline="always")
def act(st, seat, need, turn, kind, notes, wilds, letter, rates, rng, out, tr, on):
    """`seat`'s turn `turn` after its decision (kind, notes, wilds, letter), notes + wilds == 0 if nothing
    fits: then it draws (draw_until_fits) and plays a drawn card that fits; drama sees its new hand size.
    Returns 1 if it played or drew, 0 if it did nothing at all."""
    acted = 1
    if notes + wilds == 0:
        drawn, kind, notes, wilds, letter = draw_until_fits(st, seat, need, st[C_DRAW_LIMIT], rng, out, tr, on)
        acted = 1 if drawn > 0 else 0
    if notes + wilds > 0:
        _attempt(st, seat, kind, notes, wilds, letter, rates, rng, out, tr, on)
    # only the seat to play drew or played: its hand is the one standing that can have changed
    drama.look_one(st, O_DRAMA, st[S_N], turn, seat, -st[O_HN + seat])
    return acted


@njit(cache=True, inline="always")
def after_turn(st, seat, dry, acted):
    """(seat, dry, end) after `seat`'s turn, `dry` counting the seats in a row that did nothing at all: an
    empty hand wins (END_WON, seat the winner), a full round of such seats stalls (END_DEADLOCK), else the
    next seat plays (END_NONE)."""
    n = st[S_N]
    if st[O_HN + seat] == 0:
        return seat, dry, END_WON
    dry = 0 if acted else dry + 1
    if dry >= n:
        return seat, dry, END_DEADLOCK
    seat += 1
    if seat == n:  # not % n: an integer division every turn
        seat = 0
    return seat, dry, END_NONE


@njit(cache=True, inline="always")
def play_turns(st, seat, turn, dry, stop, rates, rng, out, tr, on):
    """The turn loop: from `seat`'s turn (turns 1..`turn` played, `dry` as in after_turn), every seat deciding by
    choose_play, until a win or a stall or turn `stop` (lookahead.run_look stops it before a lookahead seat's
    turn). Returns (seat, turn, dry, end): the winner with END_WON, END_NONE if the game is still on.
    Inlined into run, its one caller in the default kernel: a call made the game 8% more instructions (inlined:
    1.4% more than the loop written in run, perf stat, back to back)."""
    while turn < stop:
        turn += 1
        need = st[S_NEED]
        emit(st, tr, on, EV_TURN, turn, seat, need, st[O_HN + seat])
        kind, notes, wilds, letter = choose_play(st, seat, need, rng)
        if st[C_COUNT]:  # (analyzer profile) the decision just taken, before it is carried out
            choices.count_turn(st, seat, need, kind, notes, wilds, out, col(R_CHOICES, st[S_N]))
        acted = act(st, seat, need, turn, kind, notes, wilds, letter, rates, rng, out, tr, on)
        seat, dry, end = after_turn(st, seat, dry, acted)
        if end != END_NONE:
            return seat, turn, dry, end
    return seat, turn, dry, END_NONE


@njit(cache=True, inline="always")
def _get(st, i):
    """st[i], i >= 0, indexed as unsigned: numba then adds no wraparound of negative indices (a compare and a
    select at every access of greedy_turns' loop)."""
    return st[np.uint64(i)]


@njit(cache=True, inline="always")
def _put(st, i, value):
    """st[i] = value, i >= 0 (as _get)."""
    st[np.uint64(i)] = value


@njit(cache=True, inline="always")
def _lay(st, nd, kind, count):
    """Put `count` cards of `kind` on the discard pile from its height nd (as play_cards does without ids: the
    kind's first id); returns the new height."""
    kid = _get(st, O_KID + kind)
    # four stores whatever the count (at most 4 copies in the shipped deck): no branch on the count; the
    # pile's room (MAXC) is larger than a packed deck (PACK_KINDS x PACK_COPIES) by more than 4
    _put(st, O_DISC + nd, kid)
    _put(st, O_DISC + nd + 1, kid)
    _put(st, O_DISC + nd + 2, kid)
    _put(st, O_DISC + nd + 3, kid)
    for i in range(4, count):
        _put(st, O_DISC + nd + i, kid)
    _put(st, O_DCNT + kind, _get(st, O_DCNT + kind) + count)
    return nd + count


@njit(cache=True)
def greedy_fast(st, rates):
    """1 if greedy_turns may play this configuration's games: every seat greedy and free to play every card (no
    `avoid`: restricted play is the general loop's), no human error, and a deck that fits the packed hands
    (C_PACKED), and the decisions not counted (C_COUNT: the general loop counts them); else 0."""
    if st[C_PACKED] == 0 or st[C_COUNT] != 0 or rates[RATE_MISPLAY] > 0.0 or rates[RATE_FORGET] > 0.0:
        return 0
    for s in range(st[S_N]):
        if st[O_POL + s] != P_GREEDY or st[O_PAR + s * N_PAR + PAR_AVOID] != NO_AVOID:
            return 0
    return 1


# greedy_turns' drama, in one word each: seat s in the 12-bit lane at bit 12s, five lanes (MAXP), bit 11 of each
# lane a guard, so that one subtraction compares all five lanes (values below the guard, 2048)
LANE = 12
assert LANE == PHAND_STRIDE  # (greedy_turns finds a seat's packed hand at O_PHAND + its lane's shift)
LANE_ONES = 0x001001001001001  # 1 in each lane
LANE_GUARDS = LANE_ONES << 11
LANE_VALUE = 0x7FF  # a lane's value bits
FAR = 0x400  # the hand size of a lane past the players: never the fewest (a packed deck has at most 225 cards)
SEGMENT = 256  # turns between flushes of greedy_turns' packed counters (16-bit fields: 256 x 225 cards < 2**16)
# greedy_turns' counts of a segment, fields of one word: cards drawn (16 bits), wilds used (16 bits), then passes
# and plays of two or more cards, at most one a turn (COUNT_FIELD: 9 bits hold SEGMENT)
COUNT_WILD, COUNT_PASS, COUNT_MULTI = 1 << 16, 1 << 32, 1 << 41
COUNT_FIELD = 0x1FF


@njit(cache=True, inline="always")
def _lane(word, s):
    return (word >> (LANE * s)) & LANE_VALUE


@njit(cache=True, inline="always")
def _fewest(sizes):
    """The least of the five lanes."""
    return min(min(min(sizes & LANE_VALUE, _lane(sizes, 1)), min(_lane(sizes, 2), _lane(sizes, 3))),
               sizes >> (LANE * (MAXP - 1)))  # (the top lane: no bits above it)


@njit(cache=True, inline="always")
def _nibble_sum(x):
    """The sum of the 4-bit counts of a packed hand (at most 255)."""
    b = (x & 0x0F0F0F0F0F0F0F0F) + ((x >> 4) & 0x0F0F0F0F0F0F0F0F)  # byte sums
    return ((b * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, inline="always")
def _lanes_at_least(a, b):
    """Lanes of all-ones value bits where a's lane >= b's, zero elsewhere (lanes below the guard)."""
    return ((((a | LANE_GUARDS) - b) & LANE_GUARDS) >> 11) * LANE_VALUE


# _nrt=False as run: it allocates nothing (tr: run's dummy trace, never written: the fast path plays untraced games)
@njit(cache=True, _nrt=False)
def greedy_turns(st, seat, turn, dry, stop, rng, out, tr):
    """play_turns for a game of greedy seats only, without trace or human error (greedy_fast), the letter needed
    not NEED_ANY: the same turns, the same random numbers and the same state when it stops (O_CNT, O_NWILD,
    O_HN and the drama block written back), but each hand kept as one packed word at O_PHAND (4 bits per kind).
    "Can she play" is one AND with the letter's nibbles (O_LNIBBLES), greedy's pitch class the largest of three
    counts shifted out of the word (O_LTHREE), the play a subtraction, a drawn card an addition. The hand sizes,
    largest deficits and last turns trailing of the drama block are one word each (12-bit lanes, drama.look for
    all seats in a few word operations), the counts of the result row one word of 16-bit fields: both flushed
    every SEGMENT turns. Returns play_turns' (seat, turn, dry, end)."""
    n = st[S_N]
    n_kinds = st[S_NKINDS]
    if turn > 0:  # play_turns played the first turn (after a wild start card): pack the hands afresh (begin dealt
        # them packed, and the drama block was last seen by look at turn 0: nothing to settle then)
        for s in range(n):
            h = 0
            for k in range(n_kinds):
                h += st[O_CNT + s * MAXK + k] << (4 * k)
            st[O_PHAND + PHAND_STRIDE * s] = h
        # the drama block from here on by look (in lanes), not look_one: the same results, no data-dependent
        # branch; what look_one left stale (the units trailing now) first settled
        drama.settle(st, O_DRAMA, n, turn)
    wild_nibbles = st[C_WNIBBLES]
    n_wild_kinds = n_kinds_of(st, WILD_LIST)
    step = st[S_STEP]
    draw_limit = st[C_DRAW_LIMIT]
    stand = O_DRAMA + drama.D_STAND
    sizes, deficits = 0, 0
    for s in range(MAXP):
        sizes += (st[O_HN + s] if s < n else FAR) << (LANE * s)
    for s in range(n):
        deficits += st[stand + drama.D_UNIT * s + drama.D_DEFICIT] << (LANE * s)
    leader = st[O_DRAMA + drama.D_LEADER]
    leader_bit = 0 if leader < 0 else 1 << (LANE * leader)  # the sole leader's lane as its lowest bit
    # lead changes: each turn adds the sole leader's bit xor the last one's to `flips` (0: no change), so a change
    # adds one in two lanes, and the first sole leader (leader_bit 0 before it) one in one lane: a segment's lead
    # changes are the sum of its lanes halved, rounded down (five instructions a turn, where counting a change as
    # "sole and another leader" took ten)
    changes = st[O_DRAMA + drama.D_CHANGES]
    # seats in a row that did nothing at all: only a turn that draws one card at a time can do nothing, so they
    # are counted there, as the turns of a run of such turns ending at dry_at (no register the other turns)
    dry_at = turn if dry > 0 else np.int64(-2)
    need = st[S_NEED]
    for letter in range(7):
        st[O_NEXT + letter] = (letter + step) % 7
    pos = st[S_POS]
    n_stock = st[S_NSTOCK]
    n_disc = st[S_NDISC]
    # three draws at once while pos < three_from (draw_limit 3 and three cards or more in stock)
    three_from = n_stock - 2 if draw_limit == 3 else -1
    end = END_NONE
    # In the loop the seat to play is its lane, shift = LANE x seat (its hand at O_PHAND + shift, its size at bit
    # shift of `sizes`), and the turn the segment's turns in every lane (`lanes`): fewer registers to keep
    shift = LANE * seat
    seat_end = LANE * n
    # the fewest cards in a hand, kept from turn to turn: a play only lowers her hand (the least of it and the
    # fewest), and only a draw needs the least of all five lanes
    fewest = _fewest(sizes)
    while turn < stop and end == END_NONE:
        first = turn
        last_lanes = (min(stop, turn + SEGMENT) - first) * LANE_ONES
        counts = 0  # the segment's counts, fields of COUNT_*
        flips = 0  # per lane, the segment's turns at which it took or lost the sole lead (at most SEGMENT: no carry)
        trailed = 0  # per lane: the segment's last turn trailing, minus `first` (0: none)
        lanes = 0  # the turns of the segment so far, in every lane
        while lanes < last_lanes:
            lanes += LANE_ONES
            hand = _get(st, O_PHAND + shift)
            letter_nibbles = _get(st, O_LNIBBLES + need)
            next_need = _get(st, O_NEXT + need)
            if hand & letter_nibbles != 0:
                # greedy (choose_play): the fitting kind held most (the first in deck order on a tie), all of it, every wild
                at = O_LTHREE + PACK_FITTING * need
                kind0, kind1, kind2 = _get(st, at), _get(st, at + 1), _get(st, at + 2)
                best_kind, best_count = kind0, (hand >> (4 * kind0)) & 15
                count1 = (hand >> (4 * kind1)) & 15
                best_kind = kind1 if count1 > best_count else best_kind
                best_count = max(best_count, count1)
                count2 = (hand >> (4 * kind2)) & 15
                best_kind = kind2 if count2 > best_count else best_kind
                best_count = max(best_count, count2)
                held_wilds = hand & wild_nibbles
                hand = hand - (best_count << (4 * best_kind)) - held_wilds
                # the discard pile as _attempt lays it: the notes, then the wild kinds in deck order
                n_disc = _lay(st, n_disc, best_kind, best_count)
                wilds = 0
                if held_wilds != 0:
                    for j in range(n_wild_kinds):
                        wild_kind = kinds_of(st, WILD_LIST, j)
                        count = (held_wilds >> (4 * wild_kind)) & 15
                        n_disc = _lay(st, n_disc, wild_kind, count)
                        wilds += count
                played = best_count + wilds
                sizes -= played << shift
                fewest = min(fewest, (sizes >> shift) & LANE_VALUE)  # (only her hand shrank)
                counts += wilds * COUNT_WILD + (COUNT_MULTI if played > 1 else 0)
                need = next_need
            elif pos < three_from:
                # draw_until_fits' three draws at once, without a branch: the first of the next three cards that
                # fits is played (alone), the ones before it join the hand; none fits: all three do, and she passes
                kind0 = _get(st, O_CKIND + _get(st, O_STOCK + pos))
                kind1 = _get(st, O_CKIND + _get(st, O_STOCK + pos + 1))
                kind2 = _get(st, O_CKIND + _get(st, O_STOCK + pos + 2))
                card0, card1, card2 = 1 << (4 * kind0), 1 << (4 * kind1), 1 << (4 * kind2)
                # miss_i: 1 if cards 0..i all fail to fit
                miss0 = 1 if card0 & letter_nibbles == 0 else 0
                miss1 = miss0 & (1 if card1 & letter_nibbles == 0 else 0)
                miss2 = miss1 & (1 if card2 & letter_nibbles == 0 else 0)
                fitted = 1 - miss2
                misses = miss0 + miss1 + miss2  # the cards drawn before the one that fits
                hand += card0 * miss0 + card1 * miss1 + card2 * miss2
                drawn = misses + fitted
                pos += drawn
                fit_kind = kind0 if miss0 == 0 else (kind1 if miss1 == 0 else kind2)
                _put(st, O_DISC + n_disc, _get(st, O_KID + fit_kind))  # (overwritten later when none fits)
                _put(st, O_DCNT + fit_kind, _get(st, O_DCNT + fit_kind) + fitted)
                n_disc += fitted
                wild = fitted if (1 << (4 * fit_kind)) & wild_nibbles != 0 else 0
                need = next_need if fitted else need
                sizes += misses << shift
                fewest = _fewest(sizes)
                counts += drawn + miss2 * COUNT_PASS + wild * COUNT_WILD
            else:
                # draw_until_fits: one card at a time; a card that fits is played at once (alone)
                drawn = 0
                fitted = 0
                while draw_limit == 0 or drawn < draw_limit:
                    if pos == n_stock:
                        st[S_NDISC] = n_disc
                        m = reshuffle(st, rng, tr, np.int64(0))
                        if m == 0:
                            break
                        out[col(R_RESHUFFLES, n)] += 1
                        pos, n_stock, n_disc = 0, m, 1
                        three_from = n_stock - 2 if draw_limit == 3 else -1
                    kind = _get(st, O_CKIND + _get(st, O_STOCK + pos))
                    pos += 1
                    drawn += 1
                    card = 1 << (4 * kind)
                    if card & letter_nibbles != 0:
                        n_disc = _lay(st, n_disc, kind, 1)
                        counts += COUNT_WILD if card & wild_nibbles != 0 else 0
                        need = next_need
                        fitted = 1
                        break
                    hand += card
                sizes += (drawn - fitted) << shift
                fewest = _fewest(sizes)
                counts += drawn + (1 - fitted) * COUNT_PASS
                if drawn == 0:  # she did nothing at all: a full round of such turns stalls (after this turn's look)
                    now = first + (lanes & LANE_VALUE)
                    dry = dry + 1 if dry_at == now - 1 else np.int64(1)
                    dry_at = now
                    if dry >= n:
                        end = END_DEADLOCK
                        last_lanes = lanes  # (the segment ends with this turn)
            _put(st, O_PHAND + shift, hand)
            # drama.look: each lane's distance from the fewest cards (0: among the leaders)
            behind = sizes - fewest * LANE_ONES
            trail_bits = (((behind | LANE_GUARDS) - LANE_ONES) & LANE_GUARDS) >> 11  # lowest bit of the lanes trailing
            trailing = trail_bits * LANE_VALUE
            trailed = (trailed & ~trailing) | (lanes & trailing)
            at_least = _lanes_at_least(deficits, behind)
            deficits = (deficits & at_least) | (behind & ~at_least)
            # the leaders' lanes (their lowest bits; never none): a sole leader takes the lead (drama._take_lead)
            leaders = trail_bits ^ LANE_ONES
            new_leader_bit = leaders if leaders & (leaders - 1) == 0 else leader_bit
            flips += new_leader_bit ^ leader_bit
            leader_bit = new_leader_bit
            # after_turn (a stall ends the segment: last_lanes)
            if hand == 0:
                end = END_WON
                break
            shift += LANE
            if shift == seat_end:
                shift = 0
        turn = first + (lanes & LANE_VALUE)
        # the segment's counters into the row and the drama block
        passes = (counts >> 32) & COUNT_FIELD
        out[col(R_DRAWN, n)] += counts & 0xFFFF
        out[col(R_PASSES, n)] += passes
        out[col(R_WILDS, n)] += (counts >> 16) & 0xFFFF
        out[col(R_PLAYS, n)] += turn - first - passes  # every turn is a play or a pass
        out[col(R_MULTI, n)] += (counts >> 41) & COUNT_FIELD
        changes += (((flips * LANE_ONES) >> (LANE * (MAXP - 1))) & 0xFFF) >> 1  # (the top lane: the lanes' sum)
        for s in range(n):
            if _lane(trailed, s) != 0:
                st[stand + drama.D_UNIT * s + drama.D_LAST] = first + _lane(trailed, s)
    seat = shift // LANE
    leader = -1
    for s in range(n):
        if leader_bit == 1 << (LANE * s):
            leader = s
    dry = dry if dry_at == turn else np.int64(0)
    if end == END_DEADLOCK:  # (the stalling turn's seat, as after_turn returns it: the loop moved on to the next)
        seat = seat - 1 if seat > 0 else n - 1
    for s in range(n):
        unit = stand + drama.D_UNIT * s
        st[O_HN + s] = _lane(sizes, s)
        st[unit] = -_lane(sizes, s)
        st[unit + drama.D_DEFICIT] = _lane(deficits, s)
    st[O_DRAMA + drama.D_LEADER] = leader
    st[O_DRAMA + drama.D_CHANGES] = changes
    st[S_NEED] = need
    st[S_POS] = pos
    st[S_NSTOCK] = n_stock
    st[S_NDISC] = n_disc
    for s in range(n):
        h = st[O_PHAND + PHAND_STRIDE * s]
        for k in range(n_kinds):
            st[O_CNT + s * MAXK + k] = (h >> (4 * k)) & 15
        st[O_NWILD + s] = _nibble_sum(h & wild_nibbles)
    return seat, turn, dry, end


@njit(cache=True)
def end_game(st, out, tr, on, seat, turn, end):
    """The end of a game (run and lookahead.run_look) from play_turns' (seat, turn, end), END_NONE at the
    turn cap: the result row's winner, length, end condition, cards left and drama, and the end event.
    Returns the number of trace events written, or -1 if the trace buffer was too small."""
    drama.settle(st, O_DRAMA, st[S_N], turn)
    return _end_settled(st, out, tr, on, seat, turn, end)


@njit(cache=True)
def _end_settled(st, out, tr, on, seat, turn, end):
    """end_game once the drama block is settled (drama.settle; greedy_turns leaves it so)."""
    n = st[S_N]
    winner = seat if end == END_WON else -1
    if end == END_NONE:
        end = END_CAP
    if winner >= 0:
        out[col(R_WIN, n) + winner] = 1
        out[col(R_NWIN, n)] = 1
    out[col(R_LEN, n)] = turn
    out[col(R_END, n)] = end
    for s in range(n):
        out[col(R_CARDS_LEFT, n) + s] = st[O_HN + s]
    drama.finish(st, O_DRAMA, n, winner, turn, out, col(R_DRAMA, n))
    k = emit(st, tr, on, EV_END, end, winner, turn)
    if k >= 0:
        for s in range(n):
            tr[k, TRACE_FIXED + s] = st[O_HN + s]
    if on and st[S_OVF] != 0:
        return -1
    return st[S_NE]


# inline="always": play_games, its one caller, is the kernel (compiled apart, run was optimised and generated by LLVM
# once alone and again inside play_chunk, about 1.7 s of a cold start)
@njit(cache=True, inline="always")
def run(st, rates, rng, out, tr, on, fast):
    """Play a game from the deck order already in the stock (state after init_state); fill out.
    fast (0/1, greedy_fast): greedy_turns plays the turns (play_turns only the first after a wild start card,
    when any letter may be played). Returns the number of trace events written, or -1 if the trace buffer was
    too small."""
    begin(st, rng, out, tr, on)
    cap = st[C_TURN_CAP]
    stop = cap
    if fast:
        stop = np.int64(1) if st[S_NEED] == NEED_ANY else np.int64(0)
    seat, turn, dry, end = play_turns(st, np.int64(0), np.int64(0), np.int64(0), stop, rates, rng, out, tr, on)
    if fast and end == END_NONE:
        seat, turn, dry, end = greedy_turns(st, seat, turn, dry, cap, rng, out, tr)
        return _end_settled(st, out, tr, on, seat, turn, end)  # (greedy_turns leaves the drama block settled)
    return end_game(st, out, tr, on, seat, turn, end)


N_STREAMS_EXTRA = 3  # DEAL, TABLE, ERRORS besides the seats' streams


@njit(cache=True)
def _setup(st, rng, ids):
    """A new game's state: the deck in stock, shuffled (or in the stacked order: tests); ids (0/1): the
    hands keep their card ids (a traced game, the lookahead)."""
    init_state(st, ids)
    n_cards = st[S_NCARDS]
    if st[C_STACKED] != 0:
        for i in range(n_cards):
            st[O_STOCK + i] = st[O_ORDER + i]
    else:
        shuffle_drawn(rng, DEAL, st[O_STOCK:O_STOCK + n_cards], n_cards, st[O_DRAWS:O_DRAWS + n_cards])


def play_game(seed, game, config, rates, out, trace, trace_on):
    """Play game `game` of the run keyed by `seed`, with the run's configuration (config: a state array
    whose configuration part encode filled); fill `out`; append events to `trace` if trace_on (0/1).
    Returns the number of events written (-1 if the trace buffer was too small). (play_chunk plays it: a jitted
    play_game of its own made LLVM optimise and generate run's code once more, 2 s of a cold start.)"""
    return int(play_chunk(np.uint64(seed), np.int64(game), np.int64(0), np.int64(1), config, rates, out[None],
                          np.int64(0), trace, np.int64(trace_on)))  # (out[None]: a view, filled in place)


CHUNK = 64  # games a batch plays with one state array and random state
NO_TRACE = np.zeros((1, 1), dtype=np.int64)  # the batch records no events


# _nrt=False: the game loop allocates nothing (play_chunk hands it the state and random state), and without numba's
# reference counting it does not pay an atomic increment and decrement for every array a helper receives (a quarter
# of the time of a turn when measured with perf); a helper that allocated would fail to compile here, not misbehave.
# nogil: the batch runs blocks of chunks on a pool of threads.
@njit(cache=True, nogil=True, _nrt=False)
def play_games(seed, first_game, lo, hi, config, rates, out, fast_path, tr, on, st, rng):
    """Games first_game + lo .. first_game + hi - 1 into out[lo:hi] (play_chunk), in st (a copy of config) and rng
    (random state of config's streams), each game from init_state and freshly keyed streams. Returns the last game's
    run."""
    off = np.int64(0)
    fast = greedy_fast(config, rates) if fast_path else off
    ne = off
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        _setup(st, rng, on)
        ne = run(st, rates, rng, out[i], tr, on, fast)
    return ne


optimise_once(play_games)  # (one round of LLVM's pipeline: as fast as two, measured: jit_deferred)


def play_chunk(seed, first_game, lo, hi, config, rates, out, fast_path, tr, on):
    """Games first_game + lo .. first_game + hi - 1 into out[lo:hi]; fast_path (0/1): by greedy_turns where
    greedy_fast allows (1: the batch; 0: tests, to compare the two paths, and the trace); events to `tr` if `on`
    (0/1: play_game's one game, the hands keeping their card ids). Returns the last game's run."""
    st = config.copy()
    rng = np.zeros(2 * (config[S_N] + N_STREAMS_EXTRA), dtype=np.uint64)  # (keyed for each game by reset_streams)
    return play_games(seed, first_game, lo, hi, config, rates, out, fast_path, tr, on, st, rng)


def batch(seed, first_game, config, rates, out, fast_path=1):
    """Games first_game .. first_game + len(out) - 1 into out, on numba.get_num_threads() threads; fast_path 0:
    never by greedy_turns (the same games: tests compare them)."""
    run_in_blocks(play_chunk, out.shape[0], CHUNK, (seed, first_game),
                  (config, rates, out, np.int64(fast_path), NO_TRACE, np.int64(0)))
