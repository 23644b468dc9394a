"""The Distance's real choices (issue 32, `analyzer profile`): the decisions of a game counted by kind, with their
legal options, the forced ones and the real ones (base.Choices; docs/distance.md, "Profile: choices and restricted
play"). The kernels call these only when the encoded rules ask (C_COUNT, rules["count_choices"]), before the
decision is carried out, whatever the policy deciding: they read the state and write nothing but the result row
(and chain_length's scratch, O_SUPPLY, which it writes before it reads), and draw no random number.

The one-step evaluation of an option is a number of cards, the same for every kind of decision:
- a play (cards of `kind`, `notes` of them, and `wilds` wilds, declared as letter D): the cards it puts down, plus
  the cards greedy would put down at her next turn from the hand she keeps, when she would need D + interval x
  players (every other seat plays once in between); NO_PLAY (-1) for that next turn if nothing she keeps fits it
  (she draws). A play that empties her hand wins: WIN_VALUE. When any letter may be played, a play is worth its
  best letter.
- a declaration (the letter a play is called as, after a wild start card): that play's value with that letter; the
  letter a two-letter start card counts as: the best play it leaves her (NO_PLAY if nothing fits).
- an interval (the chooser): policies.chain_length, best_for_me's score (the longest chain her hand makes).
A decision is real when its best option is worth more than its second best by more than MARGIN.
"""
import numpy as np
from numba import njit

from analyzer.games.base import Choices
from analyzer.games.distance.policies import chain_length, popcount7
from analyzer.games.distance.state import (
    ALL, MAXK, NEED_ANY, O_CNT, O_HN, O_KMASK, O_NWILD, S_N, S_STEP, fitting_list, kinds_of, n_kinds_of)

WIN_VALUE = 1000  # the value of a play that empties her hand (more than any other: a hand holds at most 256 cards)
NO_PLAY = -1  # her next turn: nothing she keeps fits (she draws)
MARGIN = 0  # cards: a decision is real when its best option beats the second best by more than this
STEPS = 6  # the intervals a chooser picks from (seconds .. sevenths)

CHOICES = (
    Choices("Plays", "ch_play_",
            "a turn on which she holds a play (a turn she must draw is none, and a drawn card that fits is always "
            "played): an option is a legal play told apart by its cards' kind and numbers (which pitch class, how "
            "many of it, how many wilds; copies of a card and the two kinds of wild count once); worth the cards it "
            "puts down plus those greedy would put down at her next turn from what she keeps (-1 if nothing fits "
            "then, 1000 if it empties her hand); real when the best beats the second best by more than 0 cards"),
    Choices("Declarations", "ch_declare_",
            "the letter she says when the rules leave it open: a play after a wild start card (options: the letters "
            "its cards can give; one for a one-letter card: forced) and the letter a two-letter start card counts "
            "as (2 options); worth the play's value with that letter (the start card: the best play it leaves her); "
            "real when the best beats the second best by more than 0 cards"),
    Choices("Interval choices", "ch_interval_",
            "the chooser's interval (rules.interval = 'chooser'): 6 options, worth the longest chain of letters her "
            "hand makes under it (best_for_me's score); real when the best beats the second best by more than 0"),
)
COLUMNS = tuple(c for ch in CHOICES for c in ch.columns(0))
PLAYS, DECLARATIONS, INTERVALS = 0, 4, 8  # each kind's four columns (n, options, forced, real) from the first


@njit(cache=True, inline="always")
def _record(out, at, options, best, second):
    """One decision of `options` legal options, whose best two are worth best and second."""
    out[at] += 1
    out[at + 1] += options
    if options == 1:
        out[at + 2] += 1
    elif best - second > MARGIN:
        out[at + 3] += 1


@njit(cache=True, inline="always")
def _next_turn(st, seat, letter, kind, notes, wilds_kept):
    """The cards greedy would put down for `letter` from seat's hand less `notes` cards of `kind`, holding wilds_kept
    wilds: the fitting pitch class it holds most of and every wild; NO_PLAY if nothing fits."""
    base = O_CNT + seat * MAXK
    most = 0
    for j in range(n_kinds_of(st, letter)):
        k = kinds_of(st, letter, j)
        most = max(most, st[base + k] - (notes if k == kind else 0))
    total = most + wilds_kept
    return total if total > 0 else np.int64(NO_PLAY)


@njit(cache=True)
def _play_value(st, seat, need, kind, notes, wilds, letters):
    """The value of putting down `notes` cards of `kind` (-1: none) and `wilds` wilds, at its best letter among
    `letters` (a mask)."""
    played = notes + wilds
    if played == st[O_HN + seat]:
        return np.int64(WIN_VALUE)
    ahead = st[S_STEP] * st[S_N]  # her next turn, if every other seat plays once
    kept = st[O_NWILD + seat] - wilds
    best = np.int64(NO_PLAY - 1)
    for letter in range(7):
        if (letters >> letter) & 1:
            best = max(best, played + _next_turn(st, seat, (letter + ahead) % 7, kind, notes, kept))
    return best


@njit(cache=True)
def _plays(st, seat, need):
    """(legal plays, best value, second best value) of seat's plays for `need`: every pitch class that fits, 1 to
    all its cards, with 0 to every wild; wilds alone, 1 to all."""
    base = O_CNT + seat * MAXK
    held_wilds = st[O_NWILD + seat]
    options = 0
    best, second = np.int64(NO_PLAY - 1), np.int64(NO_PLAY - 1)
    fitting = fitting_list(need)
    for j in range(n_kinds_of(st, fitting)):
        k = kinds_of(st, fitting, j)
        c = st[base + k]
        letters = st[O_KMASK + k] if need == NEED_ANY else (1 << need)
        for notes in range(1, c + 1):
            for w in range(held_wilds + 1):
                v = _play_value(st, seat, need, k, notes, w, letters)
                options += 1
                if v > best:
                    best, second = v, best
                elif v > second:
                    second = v
    letters = ALL if need == NEED_ANY else (1 << need)
    for w in range(1, held_wilds + 1):
        v = _play_value(st, seat, need, np.int64(-1), np.int64(0), w, letters)
        options += 1
        if v > best:
            best, second = v, best
        elif v > second:
            second = v
    return options, best, second


@njit(cache=True)
def count_turn(st, seat, need, kind, notes, wilds, out, at):
    """A turn's decisions, before its play (kind, notes, wilds) is made: the play, if she holds one, and, when any
    letter may be played, the letter it is called as. `at`: the first choices column."""
    options, best, second = _plays(st, seat, need)
    if options == 0:
        return  # she draws: no decision (a drawn card that fits is always played)
    _record(out, at + PLAYS, options, best, second)
    if need != NEED_ANY or notes + wilds == 0:
        return
    letters = ALL if notes == 0 else st[O_KMASK + kind]
    best, second = np.int64(NO_PLAY - 1), np.int64(NO_PLAY - 1)
    for letter in range(7):
        if (letters >> letter) & 1:
            v = _play_value(st, seat, need, kind, notes, wilds, np.int64(1 << letter))
            if v > best:
                best, second = v, best
            elif v > second:
                second = v
    _record(out, at + DECLARATIONS, popcount7(letters), best, second)


@njit(cache=True)
def count_start_letter(st, mask, out, at):
    """Seat 0 says which of a two-letter start card's letters (mask) counts: each worth the best play it then has
    (the letter + the interval), NO_PLAY if none. S_STEP is set."""
    best, second = np.int64(NO_PLAY - 1), np.int64(NO_PLAY - 1)
    for letter in range(7):
        if (mask >> letter) & 1:
            options, v, _ = _plays(st, np.int64(0), (letter + st[S_STEP]) % 7)
            if options == 0:
                v = np.int64(NO_PLAY)
            if v > best:
                best, second = v, best
            elif v > second:
                second = v
    _record(out, at + DECLARATIONS, popcount7(mask), best, second)


@njit(cache=True)
def count_interval(st, chooser, out, at):
    """The chooser picks the interval after seeing her hand: STEPS options, each worth chain_length."""
    best, second = np.int64(-1), np.int64(-1)
    for step in range(1, STEPS + 1):
        v = chain_length(st, O_CNT + chooser * MAXK, step)
        if v > best:
            best, second = v, best
        elif v > second:
            second = v
    _record(out, at + INTERVALS, np.int64(STEPS), best, second)
