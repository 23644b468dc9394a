"""The Distance policies in numba: which cards to play, which letter to declare, which interval to choose.

A play is (kind of the notes or -1, how many notes, how many wilds, declared letter). Every policy
must play when it can (the rule); they differ in which legal play they choose:
- random: uniform over every legal play (which pitch class, how many of it, how many wilds, and the
  letter when any letter may be played);
- greedy: the pitch class it holds most of, every card of it, and every wild (empties its hand fastest);
- conserve: one card of the pitch class it holds most of; a wild only when no note fits; with
  wild_reserve cards or fewer in hand it plays like greedy, to go out.
A seat told to avoid a class of card (restricted play, `avoid`: naturals, accidentals or wilds) makes its
policy's choice among the plays that hold no card of that class, and as before when every play holds one.
The letter it declares, where it has a choice (after a wild start card), follows `declare`:
block_next (the next player then needs the letter the fewest unseen cards give: unseen = the deck
minus the discard pile minus its own hand), easy_self (the letter it would need itself after everyone
else played once: the one its remaining hand gives most), random.
"""
import numpy as np
from numba import njit

from analyzer.games.distance.state import (
    ALL, CLASS_WILD, MAXK, N_PAR, NEED_ANY, NO_AVOID, O_CNT, O_DCNT, O_HN, O_NWILD, O_KCLASS, O_KMASK, O_KTOTAL, O_PAR,
    O_POL, O_SCR, O_SUPPLY, PAR_AVOID, PAR_DECLARE, PAR_FIXED, PAR_INTERVAL, PAR_RESERVE, S_N, S_NKINDS, S_STEP,
    WILD_LIST, fitting_list, kinds_of, n_kinds_of)
from analyzer.rng import below

P_RANDOM, P_GREEDY, P_CONSERVE = 0, 1, 2
# played by analyzer/games/distance/lookahead.py (its own kernel); choose_play never sees them
P_LOOKAHEAD = 3  # flat Monte Carlo (the search driver's lookahead)
P_SEARCH = 4  # information-set tree search (the search driver's ismcts)
DECLARE_BLOCK, DECLARE_EASY, DECLARE_RANDOM = 0, 1, 2
CHOOSE_FIXED, CHOOSE_BEST, CHOOSE_WORST = 0, 1, 2


@njit(cache=True, inline="always")
def popcount7(m):
    k = 0
    for i in range(7):
        k += (m >> i) & 1
    return k


@njit(cache=True, inline="always")
def nth_letter(mask, j):
    """The j-th letter (0-based) of a letter mask."""
    for i in range(7):
        if (mask >> i) & 1:
            if j == 0:
                return i
            j -= 1
    return -1


@njit(cache=True, inline="always")
def par(st, seat, which):
    """Parameter `which` (PAR_...) of the seat's policy."""
    return st[O_PAR + seat * N_PAR + which]


@njit(cache=True, inline="always")
def letter_supply(st, counts_at, letter):
    """How many of the cards counted per kind at st[counts_at:] can be declared as `letter` (wilds too)."""
    total = 0
    for j in range(n_kinds_of(st, letter)):
        total += st[counts_at + kinds_of(st, letter, j)]
    for j in range(n_kinds_of(st, WILD_LIST)):
        total += st[counts_at + kinds_of(st, WILD_LIST, j)]
    return total


@njit(cache=True)  # not inlined: called only when any letter may be played (compile time)
def declare(st, seat, candidates, play_kind, notes, wilds, rng):
    """The letter to declare among `candidates` (a mask), by the seat's declare rule, for a play of
    `notes` cards of play_kind and `wilds` wilds."""
    n_cand = popcount7(candidates)
    if n_cand == 1:
        return nth_letter(candidates, 0)
    rule = par(st, seat, PAR_DECLARE)
    if rule == DECLARE_RANDOM:
        return nth_letter(candidates, below(rng, 1 + seat, n_cand))
    n_kinds = st[S_NKINDS]
    step = st[S_STEP]
    own = O_CNT + seat * MAXK
    # its hand after this play, counted per kind at O_SCR
    for k in range(n_kinds):
        st[O_SCR + k] = st[own + k]
    if play_kind >= 0:
        st[O_SCR + play_kind] -= notes
    left = wilds
    for k in range(n_kinds):
        if st[O_KMASK + k] == ALL and left > 0:
            took = min(left, st[O_SCR + k])
            st[O_SCR + k] -= took
            left -= took
    best, best_score = -1, -1
    for letter in range(7):
        if not (candidates >> letter) & 1:
            continue
        if rule == DECLARE_BLOCK:
            # the next player needs letter + step: fewest unseen cards that give it is best (seen: the
            # discard pile and its own hand, the cards it is playing included)
            target = (letter + step) % 7
            unseen = 0
            for j in range(n_kinds_of(st, target)):
                k = kinds_of(st, target, j)
                unseen += st[O_KTOTAL + k] - st[O_DCNT + k] - st[own + k]
            for j in range(n_kinds_of(st, WILD_LIST)):
                k = kinds_of(st, WILD_LIST, j)
                unseen += st[O_KTOTAL + k] - st[O_DCNT + k] - st[own + k]
            score = 1_000_000 - unseen
        else:
            # after everyone else plays once it needs letter + step * players: most of its own cards best
            score = letter_supply(st, O_SCR, (letter + step * st[S_N]) % 7)
        if score > best_score:
            best, best_score = letter, score
    return best


@njit(cache=True)  # not inlined into every turn of every policy: compile time
def random_play(st, seat, need, rng, wilds, avoid):
    """The random policy's play: uniform over every legal (kind, notes, wilds, letter); wilds: held (0: none
    played); avoid: a class of card (CLASS_...) whose kinds it leaves out, or NO_AVOID."""
    base = O_CNT + seat * MAXK
    fitting = fitting_list(need)
    # count every legal play: (kind, 1..count notes, 0..wilds wilds, letter) and wilds alone
    total = 0
    for j in range(n_kinds_of(st, fitting)):
        k = kinds_of(st, fitting, j)
        c = st[base + k]
        mask = st[O_KMASK + k]
        if c > 0 and st[O_KCLASS + k] != avoid:
            letters = popcount7(mask) if need == NEED_ANY else 1
            total += c * (wilds + 1) * letters
    wild_letters = 7 if need == NEED_ANY else 1
    total += wilds * wild_letters
    if total == 0:
        return np.int64(-1), np.int64(0), np.int64(0), np.int64(-1)
    j = below(rng, 1 + seat, total)
    for i in range(n_kinds_of(st, fitting)):
        k = kinds_of(st, fitting, i)
        c = st[base + k]
        mask = st[O_KMASK + k]
        if c > 0 and st[O_KCLASS + k] != avoid:
            letters = popcount7(mask) if need == NEED_ANY else 1
            size = c * (wilds + 1) * letters
            if j < size:
                notes = 1 + j // ((wilds + 1) * letters)
                rest = j % ((wilds + 1) * letters)
                w = rest // letters
                letter = need if need != NEED_ANY else nth_letter(mask, rest % letters)
                return np.int64(k), np.int64(notes), np.int64(w), np.int64(letter)
            j -= size
    w = 1 + j // wild_letters
    letter = need if need != NEED_ANY else j % wild_letters
    return np.int64(-1), np.int64(0), np.int64(w), np.int64(letter)


@njit(cache=True, inline="always")
def _policy_play(st, seat, need, rng, best, best_count, wilds):
    """greedy's or conserve's play, given the fitting pitch class it holds most of (best, -1: none) and the wilds it
    may play."""
    all_in = st[O_POL + seat] == P_GREEDY or st[O_HN + seat] <= par(st, seat, PAR_RESERVE)
    if best >= 0:
        notes = best_count if all_in else 1
        w = wilds if all_in else 0
        candidates = st[O_KMASK + best] if need == NEED_ANY else (1 << need)
    elif wilds > 0:
        notes = 0
        w = wilds if all_in else 1
        candidates = ALL if need == NEED_ANY else (1 << need)
    else:
        return np.int64(-1), np.int64(0), np.int64(0), np.int64(-1)
    # a needed letter leaves nothing to declare (the common case: skip declare's letter counting)
    letter = need if need != NEED_ANY else declare(st, np.int64(seat), np.int64(candidates), np.int64(best),
                                                   np.int64(notes), np.int64(w), rng)
    return np.int64(best), np.int64(notes), np.int64(w), np.int64(letter)


@njit(cache=True)  # not inlined: only a seat with restricted play calls it
def avoiding_play(st, seat, need, rng, avoid):
    """choose_play for a seat that does not play a card of class `avoid` while it has another play: its policy's
    choice among the plays without one; no play ((-1, 0, 0, -1), nothing drawn) when every play holds one."""
    wilds = np.int64(0) if avoid == CLASS_WILD else st[O_NWILD + seat]
    if st[O_POL + seat] == P_RANDOM:
        return random_play(st, seat, need, rng, wilds, avoid)
    base = O_CNT + seat * MAXK
    best, best_count = -1, 0
    fitting = fitting_list(need)
    for j in range(n_kinds_of(st, fitting)):
        k = kinds_of(st, fitting, j)
        c = st[base + k]
        if c > best_count and st[O_KCLASS + k] != avoid:
            best, best_count = k, c
    return _policy_play(st, seat, need, rng, best, best_count, wilds)


@njit(cache=True, inline="always")
def choose_play(st, seat, need, rng):
    """The seat's play for the needed letter: (kind of the notes or -1, notes, wilds, declared letter);
    notes + wilds == 0 means it holds nothing that fits."""
    avoid = par(st, seat, PAR_AVOID)
    if avoid != NO_AVOID:
        kind, notes, w, letter = avoiding_play(st, np.int64(seat), need, rng, avoid)
        if notes + w > 0:
            return kind, notes, w, letter
    base = O_CNT + seat * MAXK
    policy = st[O_POL + seat]
    # wilds held, and the fitting pitch class held most of (ties: the first kind in the deck), looking
    # only at the kinds that give the needed letter
    wilds = st[O_NWILD + seat]
    best, best_count = -1, 0
    fitting = fitting_list(need)
    for j in range(n_kinds_of(st, fitting)):
        k = kinds_of(st, fitting, j)
        c = st[base + k]
        if c > best_count:
            best, best_count = k, c
    if policy == P_RANDOM:
        return random_play(st, np.int64(seat), need, rng, np.int64(wilds), np.int64(NO_AVOID))
    return _policy_play(st, seat, need, rng, best, best_count, wilds)


@njit(cache=True)
def start_letter(st, seat, mask, rng):
    """A two-letter start card: the letter the first player says it counts as. Random: either; the
    others: the one whose next letter (letter + step) it can play with the most cards (ties: the first)."""
    n_cand = popcount7(mask)
    if st[O_POL + seat] == P_RANDOM:
        return nth_letter(mask, below(rng, 1 + seat, n_cand))
    best, best_score = -1, -1
    for letter in range(7):
        if (mask >> letter) & 1:
            score = letter_supply(st, O_CNT + seat * MAXK, (letter + st[S_STEP]) % 7)
            if score > best_score:
                best, best_score = letter, score
    return best


@njit(cache=True)
def chain_length(st, counts_at, step):
    """The longest run of letters L, L+step, L+2 step, ... that the cards counted at st[counts_at:] can
    give in turn, one card each (wilds fill gaps): how far a hand can chain under that interval."""
    for letter in range(7):
        st[O_SUPPLY + letter] = 0
    wilds = 0
    for k in range(st[S_NKINDS]):
        mask = st[O_KMASK + k]
        if mask == ALL:
            wilds += st[counts_at + k]
        else:
            for letter in range(7):
                if (mask >> letter) & 1:
                    st[O_SUPPLY + letter] += st[counts_at + k]
    best = 0
    for start in range(7):
        left = wilds
        run = 0
        letter = start
        for _ in range(7):
            if st[O_SUPPLY + letter] > 0:
                run += 1
            elif left > 0:
                left -= 1
                run += 1
            else:
                break
            letter = (letter + step) % 7
        best = max(best, run)
    return best


@njit(cache=True)
def choose_interval(st, seat):
    """The chooser's interval (a step, 1..6) after seeing her hand: fixed (fixed_interval); best_for_me
    (the longest chain of its own hand, ties: the smaller interval); worst_for_next (the step under which
    the letter after each letter it holds is one the unseen cards give least: the players after it will
    find the letters it leaves them scarce)."""
    how = par(st, seat, PAR_INTERVAL)
    if how == CHOOSE_FIXED:
        return par(st, seat, PAR_FIXED) - 1
    own = O_CNT + seat * MAXK
    best, best_score = 1, -1
    for step in range(1, 7):
        if how == CHOOSE_BEST:
            score = chain_length(st, own, step)
        else:
            score = 0
            for letter in range(7):
                if letter_supply(st, own, letter) > 0:
                    target = (letter + step) % 7
                    unseen = 0
                    for j in range(n_kinds_of(st, target)):
                        k = kinds_of(st, target, j)
                        unseen += st[O_KTOTAL + k] - st[own + k]
                    score += 1000 - unseen
        if score > best_score:
            best, best_score = step, score
    return np.int64(best)
