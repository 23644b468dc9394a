"""High Card's rules, in numba: the toy game's only module that is not plumbing (toy.md says them in words).

A deck of cards numbered 1..deck_size is shuffled and hand_size cards are dealt to each seat. Seat 0 leads
the first trick; every seat in turn, clockwise from the leader, plays one card of its hand (any card: there
are no suits). The highest card wins the trick, and its player leads the next. After hand_size tricks the
seats with the most tricks win (a tie shares the win).

The standard shape (analyzer/games/shape.py, whose kernels play these): the state array below, begin (the
deal), play_turns (the seats play by their policies until the end, a stop, or a seat that decides by the
search), play_card (a move), end_game (the result row). Random streams: 0 (DEAL) shuffles the deck; 1 + s
holds seat s's decisions.
"""
import numpy as np
from numba import njit

from analyzer.games import drama
from analyzer.games.layout import Layout, col
from analyzer.games.shape import emit
from analyzer.rng import DEAL, below, shuffle

from .events import END_ONE, END_TIE, EV_DEAL, EV_END, EV_PLAY, EV_TRICK, EV_WON, TRACE_FIXED
from .row import R_CHOICES, R_DRAMA, R_END, R_LEN, R_NWIN, R_TRICKS, R_WIN

MAXP, MAXH, MAXD = 4, 10, 60  # players, cards in a hand, cards in the deck
P_RANDOM, P_GREEDY, P_LOOKAHEAD = 0, 1, 2  # the policies' codes
KINDS = ("low", "high")  # restricted play's card kinds: cards up to half the deck, and above (code 1 + index)

# The state a game is played on (and the search's position), declared once: STATE.define assigns each name
# its offset (analyzer/games/layout.py).
STATE = Layout("High Card's state", [
    # the configuration, written once per run by encode
    ("C_PLAYERS", 1, "players"),
    ("C_HAND", 1, "cards dealt to each seat (= tricks played)"),
    ("C_DECK", 1, "cards in the deck, numbered 1..C_DECK"),
    ("O_POL", MAXP, "each seat's policy code (P_...)"),
    ("O_SAMPLES", MAXP, "each seat's lookahead samples"),
    ("O_HORIZON", MAXP, "each seat's lookahead horizon (tricks)"),
    ("O_AVOID", MAXP, "each seat's avoided card kind (restricted play): 0 none, 1 + index in KINDS"),
    ("C_COUNT", 1, "1: count the plays (base.Choices, for `analyzer profile`)"),
    # the game, cleared by begin
    ("O_GAME", 0, "where the game starts"),
    ("O_DECK", MAXD, "the shuffled deck: card i is dealt to seat i mod players; the rest is never seen"),
    ("O_HAND", MAXP * MAXH, "seat s's hand at O_HAND + s * MAXH"),
    ("O_HN", MAXP, "hand sizes"),
    ("O_TRICKS", MAXP, "tricks won"),
    ("S_TO_MOVE", 1, "the seat to play"),
    ("S_TRICK", 1, "tricks finished (the game is over at C_HAND)"),
    ("S_PLAYED", 1, "cards played to the trick in progress"),
    ("S_BEST", 1, "the highest card of the trick in progress (0: no card yet)"),
    ("S_BEST_SEAT", 1, "who played it"),
    ("S_NE", 2, "trace events written, then 1 if the trace buffer was too small (shape.emit)"),
    ("O_DRAMA", drama.D_SIZE, "the drama block (analyzer.games.drama): standings = tricks won"),
    ("O_CHOICES", 4, "with C_COUNT, the plays counted: decisions, options, single-option, real (base.CHOICE_COUNTS)"),
], size_name="ST_SIZE")
STATE.define(globals())


@njit(cache=True)
def begin(st, rng, out, tr, on):
    """A new game in st (its configuration kept): out cleared, the deck shuffled and dealt, seat 0 to lead."""
    n, h = st[C_PLAYERS], st[C_HAND]
    out[:] = 0
    st[O_GAME:ST_SIZE] = 0
    for c in range(st[C_DECK]):
        st[O_DECK + c] = c + 1
    shuffle(rng, DEAL, st[O_DECK:O_DECK + st[C_DECK]], st[C_DECK])
    for i in range(n * h):  # one card at a time round the table
        s = i % n
        st[O_HAND + s * MAXH + st[O_HN + s]] = st[O_DECK + i]
        st[O_HN + s] += 1
    for s in range(n):
        k = emit(st, S_NE, tr, on, EV_DEAL, s, h)
        if k >= 0:
            tr[k, TRACE_FIXED:TRACE_FIXED + h] = st[O_HAND + s * MAXH:O_HAND + s * MAXH + h]
    drama.look(st, O_DRAMA, n, 0)  # (every standing 0)
    emit(st, S_NE, tr, on, EV_TRICK, 1, 0)


def deck_without(rules, kind, n_players):
    """Restricted play's deck without a kind: without the high cards, the deck of half the size (its low cards), if
    it deals every hand; the low cards cannot go (the cards are numbered from 1)."""
    if kind != "high" or rules["deck_size"] // 2 < n_players * rules["hand_size"]:
        return None
    return {**rules, "deck_size": rules["deck_size"] // 2}


@njit(cache=True)
def kind_of(st, card):
    """A card's kind code (1 + index in KINDS): low up to half the deck, high above."""
    return 1 if 2 * card <= st[C_DECK] else 2


@njit(cache=True)
def allowed(st, seat, card):
    """Whether the seat may play the card: not of the kind it avoids, unless every card of its hand is."""
    avoid = st[O_AVOID + seat]
    if avoid == 0 or kind_of(st, card) != avoid:
        return True
    base = O_HAND + seat * MAXH
    for i in range(st[O_HN + seat]):
        if kind_of(st, st[base + i]) != avoid:
            return False
    return True


@njit(cache=True)
def greedy_card(st, seat):
    """Greedy's card: the lowest that beats the trick's best card so far (leading: its highest), else its lowest
    (among the cards it may play)."""
    base, best = O_HAND + seat * MAXH, st[S_BEST]
    lowest, beats, highest = np.int64(1 << 20), np.int64(1 << 20), np.int64(0)
    for i in range(st[O_HN + seat]):
        c = st[base + i]
        if not allowed(st, seat, c):
            continue
        lowest, highest = min(lowest, c), max(highest, c)
        if c > best:
            beats = min(beats, c)
    if best == 0:
        return highest
    return beats if beats < (1 << 20) else lowest


@njit(cache=True)
def choose(st, seat, rng):
    """The card of a random or greedy seat (random: any card of its hand it may play, on its own stream)."""
    if st[O_POL + seat] == P_RANDOM:
        base = O_HAND + seat * MAXH
        if st[O_AVOID + seat] == 0:
            return st[base + below(rng, 1 + seat, st[O_HN + seat])]
        may = 0
        for i in range(st[O_HN + seat]):
            may += allowed(st, seat, st[base + i])
        k = below(rng, 1 + seat, may)
        for i in range(st[O_HN + seat]):
            if allowed(st, seat, st[base + i]):
                if k == 0:
                    return st[base + i]
                k -= 1
    return greedy_card(st, seat)


@njit(cache=True)
def count_play(st, seat):
    """With C_COUNT: the seat's play is counted before it is made (base.Choices). Its options: the cards of its
    hand (all different); real: the hand holds a card that takes the trick so far and one that does not (one
    trick apart, by that one-step evaluation; the margin is half a trick)."""
    base, hn = O_HAND + seat * MAXH, st[O_HN + seat]
    beats = 0
    for i in range(hn):
        beats += st[base + i] > st[S_BEST]
    st[O_CHOICES] += 1
    st[O_CHOICES + 1] += hn
    st[O_CHOICES + 2] += hn == 1
    st[O_CHOICES + 3] += 0 < beats < hn


@njit(cache=True)
def play_card(st, card, tr, on):
    """The seat to move plays `card` (of its hand), and the next seat clockwise is to play; after the trick's last
    card, the highest card wins the trick and its player is to lead the next (drama sees the tricks)."""
    n, seat = st[C_PLAYERS], st[S_TO_MOVE]
    if st[C_COUNT]:
        count_play(st, seat)
    base = O_HAND + seat * MAXH
    for i in range(st[O_HN + seat]):
        if st[base + i] == card:  # the hand's last card takes its place
            st[base + i] = st[base + st[O_HN + seat] - 1]
            st[O_HN + seat] -= 1
            break
    emit(st, S_NE, tr, on, EV_PLAY, seat, card)
    if card > st[S_BEST]:
        st[S_BEST], st[S_BEST_SEAT] = card, seat
    st[S_TO_MOVE] = (seat + 1) % n
    st[S_PLAYED] += 1
    if st[S_PLAYED] < n:
        return
    winner = st[S_BEST_SEAT]
    emit(st, S_NE, tr, on, EV_WON, winner, st[S_BEST])
    st[O_TRICKS + winner] += 1
    st[S_TRICK] += 1
    st[S_PLAYED], st[S_BEST], st[S_TO_MOVE] = 0, 0, winner
    drama.look_one(st, O_DRAMA, n, st[S_TRICK], winner, st[O_TRICKS + winner])
    if st[S_TRICK] < st[C_HAND]:
        emit(st, S_NE, tr, on, EV_TRICK, st[S_TRICK] + 1, winner)


@njit(cache=True)
def play_turns(st, stop, rng, tr, on):
    """Every seat plays by its policy until `stop` tricks are finished (st[C_HAND]: the end of the game), or
    until it is a lookahead seat's turn (its decision is the search's: analyzer/games/shape.py)."""
    while st[S_TRICK] < stop and st[O_POL + st[S_TO_MOVE]] != P_LOOKAHEAD:
        play_card(st, choose(st, st[S_TO_MOVE], rng), tr, on)


@njit(cache=True)
def end_game(st, out, tr, on):
    """The result row and the end event once every trick is played: the seats with the most tricks win. Returns
    the trace events written, or -1 if the trace buffer was too small."""
    n = st[C_PLAYERS]
    most = st[O_TRICKS:O_TRICKS + n].max()
    winner = -1
    for s in range(n):
        won = 1 if st[O_TRICKS + s] == most else 0
        out[col(R_WIN, n) + s], out[col(R_TRICKS, n) + s] = won, st[O_TRICKS + s]
        out[col(R_NWIN, n)] += won
        winner = s if won else winner
    end = END_ONE if out[col(R_NWIN, n)] == 1 else END_TIE
    out[col(R_LEN, n)], out[col(R_END, n)] = st[S_TRICK], end
    out[col(R_CHOICES, n):col(R_CHOICES, n) + 4] = st[O_CHOICES:O_CHOICES + 4]
    drama.settle(st, O_DRAMA, n, st[S_TRICK])
    drama.finish(st, O_DRAMA, n, winner if end == END_ONE else -1, st[S_TRICK], out, col(R_DRAMA, n))
    k = emit(st, S_NE, tr, on, EV_END, end)
    for s in range(n if k >= 0 else 0):
        tr[k, TRACE_FIXED + s], tr[k, TRACE_FIXED + n + s] = out[col(R_WIN, n) + s], st[O_TRICKS + s]
    return -1 if st[S_NE + 1] else st[S_NE]
