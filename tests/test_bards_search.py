"""Battle of the Bards' side of the search contract (analyzer/games/bards/search_ops.py), for the flat lookahead
and for the tree search of issue 28: `apply` takes a position from one seat's split to the next seat's (either
seat, any depth) or to the end, so that a game played through the contract is the engine's game; `redeal`
deals again only what the seat has not seen; the search never changes the real game."""
from collections import Counter

import numpy as np
import pytest
from numba import njit

from analyzer.games.bards import GAME
from analyzer.games.bards import engine as E
from analyzer.games.bards import lookahead as LA
from analyzer.games.bards import search_ops as O
from analyzer.games.bards.seats import greedy_at_defaults
from analyzer.games.bards.state import O_HAND, O_PILE, S_ACTIVE, S_N, S_POS, S_TURN, ST_SIZE
from analyzer.rng import new_streams


@njit(cache=True)
def _dealt(seed, game, tbl, pint, pflt, st, rng, ib, fb):
    """A new game at seat 0's first split (the search's root)."""
    E.deal(seed, game, tbl, pint, pflt, E.NO_ORDER, st, rng, ib, E.NO_TRACE, False, None)
    E.begin_turn(st, 0, fb, E.NO_TRACE, False)
    st[S_ACTIVE] = 0


def _position(deck="basic", copies="single", seed=3, game=0):
    """(the game at seat 0's first split, greedy at its defaults for both seats, as a search position; its
    look, whose random state is the game's; the card table)."""
    tbl = GAME.encode(GAME.validate_rules({"deck": deck, "copies": copies}, 2, "test"), [])[0]
    pint, pflt = greedy_at_defaults()
    st, rng, ib, fb, ni, nf = E.scratch()
    _dealt(np.uint64(seed), game, tbl, pint, pflt, st, rng, ib, fb)
    look = O.new_look(tbl)
    look.rng2[:] = rng  # the chooser's and the plays' draws are the game's own
    return O.Position(st, ib, fb, ni, nf, pint, pflt), look, tbl


@pytest.mark.parametrize("deck, copies, seed", [("basic", "single", 3), ("extended", "double", 8)])
def test_a_game_played_through_the_contract_is_the_engines_game(deck, copies, seed):
    """decisions' row 0 (the seat's policy's split) made by apply, seat after seat, down to the end: the turns
    alternate, every position is at the next seat's split with five cards drawn, and the result row is the
    one engine.run plays."""
    pos, look, tbl = _position(deck, copies, seed)
    cand = np.zeros((O.N_SPLITS, O.DECISION_WIDTH), dtype=np.int64)
    seat, turn = 0, 1
    while O.to_move(pos) >= 0:
        assert O.to_move(pos) == seat and pos.st[S_TURN] == turn
        assert O.decisions(pos, seat, look.rng2, cand, look) == O.N_SPLITS
        assert sorted(cand[:, 0]) == list(range(1, 31))  # every split once, the policy's first
        pile_before = pos.st[S_POS]
        O.apply(pos, cand, 0, look)
        seat, turn = 1 - seat, turn + 1
        if O.to_move(pos) >= 0:  # the next seat drew the next five cards of the pile
            assert pos.st[S_POS] - pile_before >= 5
    assert pos.st[S_N] - pos.st[S_POS] < 5
    out = np.zeros((1, len(GAME.columns(2))), dtype=np.int64)
    pint, pflt = greedy_at_defaults()
    E.play_block(np.uint64(seed), 0, 0, 1, tbl, pint, pflt, out)
    assert np.array_equal(look.dout[0], out[0])


@pytest.mark.parametrize("decision", [0, 7, 29])
def test_apply_moves_either_seat_on_to_the_other_seats_split(decision):
    pos, look, _ = _position(seed=5)
    cand = np.zeros((O.N_SPLITS, O.DECISION_WIDTH), dtype=np.int64)
    for seat in (0, 1, 0):
        O.decisions(pos, seat, look.rng2, cand, look)
        turn, drawn = pos.st[S_TURN], pos.st[S_POS]
        O.apply(pos, cand, decision, look)
        assert O.to_move(pos) == 1 - seat and pos.st[S_TURN] == turn + 1
        # the hand: the next seat drew the five cards after those of this turn (and any meme drawn since)
        top = pos.st[S_POS] - 5
        assert top >= drawn and list(pos.st[O_HAND:O_HAND + 5]) == list(pos.st[O_PILE + top:O_PILE + top + 5])


def _unseen_and_seen(st, seat):
    """(the cards seat cannot see, as a multiset; everything else of the state)."""
    unseen = list(st[O_PILE + st[S_POS]:O_PILE + st[S_N]])
    hand_hidden = seat != st[S_ACTIVE]
    if hand_hidden:
        unseen += list(st[O_HAND:O_HAND + 5])
    seen = st.copy()
    seen[O_PILE + st[S_POS]:O_PILE + st[S_N]] = -1
    if hand_hidden:
        seen[O_HAND:O_HAND + 5] = -1
    return Counter(unseen), seen


@pytest.mark.parametrize("seat", [0, 1])
def test_redeal_deals_again_only_what_the_seat_has_not_seen(seat):
    """The seat to split sees its hand: only the pile's order changes. The other seat has not seen the hand:
    the hand and the pile are dealt again from the two together. Everything else (tales, discards, meme,
    scores, the cards drawn before) stays."""
    root, look, _ = _position(seed=9)
    cand = np.zeros((O.N_SPLITS, O.DECISION_WIDTH), dtype=np.int64)
    for _ in range(3):  # a few turns in: tales and discards to keep
        O.decisions(root, O.to_move(root), look.rng2, cand, look)
        O.apply(root, cand, 0, look)
    assert O.to_move(root) == 1
    unseen, seen = _unseen_and_seen(root.st, seat)
    _, _, sib, sfb, sni, snf = E.scratch()
    pint, pflt = greedy_at_defaults()
    sample = O.Position(np.zeros(ST_SIZE, dtype=np.int64), sib, sfb, sni, snf, pint, pflt)
    work = O.Position(np.zeros(ST_SIZE, dtype=np.int64), sib, sfb, sni, snf, pint, pflt)
    rng = new_streams(1, 0, 3)
    O.begin_search(root, seat, sample, work, look)
    hands = set()
    for _ in range(12):
        O.redeal(root, seat, rng, sample, look)
        sample_unseen, sample_seen = _unseen_and_seen(sample.st, seat)
        assert sample_unseen == unseen and np.array_equal(sample_seen, seen)
        hands.add(tuple(sample.st[O_HAND:O_HAND + 5]))
    assert (len(hands) == 1) == (seat == 1)  # seat 1 splits: it keeps its hand; seat 0 sees other hands
    counters = rng[1::2]
    assert counters[1 + seat] > 0 and counters.sum() == counters[1 + seat]  # drawn on the seat's stream alone


def test_the_search_never_changes_the_real_game_and_chooses_a_split():
    root, _, tbl = _position(seed=4)
    rng_pos = new_streams(4, 0, 3)
    rng, sample, work, cand, sums, look = (rng_pos,) + LA.scratch(tbl, root.pint, root.pflt)[2:7]
    before = root.st.copy()
    best = LA.search_lookahead(root, 3, 1, 0, rng, cand, sums, sample, work, look)
    assert np.array_equal(root.st, before)
    assert 0 <= best < O.N_SPLITS and sums[best] == sums.max() and (sums[:best] < sums[best]).all()
