"""Build Bring the Noize games by hand: stacked decks and scripted bids."""
import numpy as np

from analyzer.games.noize import actions as A
from analyzer.games.noize import engine as E
from analyzer.games.noize.rules import CARD_NAMES
from analyzer.games.noize.trace import decode

V, K, G, D, X = 0, 1, 2, 3, 4  # Vocals, Keyboard, Guitar, Drums, Groupie
STANDARD = (20, 19, 18, 17, 6)


def bid(count, inst):
    return count * 4 + inst


CHALLENGE = -1


def stacked_deck(prefix, counts=STANDARD):
    """The given cards on top, then the rest of the deck in type order."""
    left = list(counts)
    for c in prefix:
        left[c] -= 1
        assert left[c] >= 0, "prefix uses more cards of a type than the deck has"
    rest = [t for t in range(5) for _ in range(left[t])]
    return np.array(list(prefix) + rest, dtype=np.int64)


def play_scripted(deck, scripts, start, finish, shuffle=False, seed=1, game=0):
    """Play with every seat scripted: scripts[s] is seat s's moves in order. Returns (events, out)."""
    n = len(scripts)
    rules = np.array([n, start, finish, int(shuffle), 1, 0], dtype=np.int64)  # stacked, not counting
    width = max(len(s) for s in scripts) + 1
    par = np.full((n, width), -99.0)
    for s, moves in enumerate(scripts):
        par[s, :len(moves)] = moves
    pol = np.full(n, E.P_SCRIPT, dtype=np.int64)
    table = np.zeros((1, 1, 1, 1, 1))
    out = np.zeros(E.ROW.width(n), dtype=np.int64)
    buf = np.zeros((2000, E.TRACE_FIXED + deck.shape[0]), dtype=np.int64)
    written = E.play_game(np.uint64(seed), game, rules, deck, pol, par, table, *A.scalar_only(n), out, buf,
                          np.int64(1))
    assert written > 0
    return [decode(r, n) for r in buf[:written]], out


def names(cards):
    return [CARD_NAMES[c] for c in cards]


def setup(hand_types, policy=E.P_THRESHOLD, challenge_below=0.5, bluff=0.0, max_jump=2, compare=1.0):
    """(cnt, hand, pol, par) of a four-player position for engine.decide: seat 0 holds hand_types (card types), the
    others 3 cards each; every seat plays `policy`, seat 0 with the threshold parameters given."""
    cnt = np.zeros((4, 5), dtype=np.int64)
    for t in hand_types:
        cnt[0, t] += 1
    hand = np.full(4, 3, dtype=np.int64)
    hand[0] = len(hand_types)
    pol = np.full(4, policy, dtype=np.int64)
    par = np.zeros((4, E.N_PARAMS))
    par[0, :4] = [challenge_below, bluff, max_jump, compare]
    return cnt, hand, pol, par
