"""The information-set tree search (analyzer/games/search/tree.py) on the toy game of tests/search_toy.py."""
import numpy as np
import pytest

import search_toy as T
from analyzer.games.search import specialise
from analyzer.games.search.tree import COUNT_DECISIONS, COUNT_PLAYOUTS, ROLLOUT_DEFAULT, ROLLOUT_RANDOM, new_tree
from analyzer.rng import new_streams

SEARCH = specialise(T, "toy")


def _decide(pile, budget, c=0.7, rollout=ROLLOUT_DEFAULT, horizon=0, seat=0, seed=1):
    root = T.new_position(pile, seat)
    rng = new_streams(seed, 0, 3)
    cand = np.zeros((T.MAX_TAKE, 1), dtype=np.int64)
    tree = new_tree(budget, 1, T.MAX_TAKE)
    before = root.copy()
    best = SEARCH.ismcts(root, budget, c, rollout, horizon, rng, cand, tree, np.zeros_like(root),
                         np.zeros_like(root), T.new_look(max_playouts=20 * budget + 20))
    assert np.array_equal(root, before)  # the search never changes the real game
    return best, tree, rng


def _minimax(pile, top, seat_to_move):
    """The toy's value for the seat to move (perfect information: every card of value 1 makes order moot)."""
    if top == len(pile):
        return 0
    return max(sum(pile[top:top + t]) - _minimax(pile, top + t, 1 - seat_to_move)
               for t in range(1, min(T.MAX_TAKE, len(pile) - top) + 1))


@pytest.mark.parametrize("rollout", [ROLLOUT_DEFAULT, ROLLOUT_RANDOM])
@pytest.mark.parametrize("cards", [4, 5, 6, 7])
def test_it_finds_the_game_theoretic_decision_that_flat_sampling_misses(cards, rollout):
    # cards of value 1: taking so as to leave a multiple of 4 wins; the default (take one) is wrong unless it
    # does. Flat Monte Carlo with take-one playouts ties 2 and 3 on four cards; the tree models the reply.
    pile = [1] * cards
    values = [sum(pile[:t]) - _minimax(pile, t, 1) for t in range(1, min(T.MAX_TAKE, cards) + 1)]
    best, _, _ = _decide(pile, budget=400, rollout=rollout)
    assert values[best] == max(values), (values, best)


def test_every_iteration_adds_at_most_one_node_and_the_visits_add_up():
    budget = 60
    _, tree, _ = _decide([3, 1, 4, 1, 5, 9, 2, 6], budget)
    links = tree[0]
    children = []
    ch = links[0, 1]
    while ch != -1:
        children.append(ch)
        ch = links[ch, 2]
    assert sum(links[c, 4] for c in children) == budget  # every iteration passes through one root child
    assert all(links[c, 0] == 0 and links[c, 3] == 0 for c in children)  # seat 0's decisions


def test_same_seed_same_decision_and_draws_only_on_the_seats_stream():
    a = _decide([5, -3, 8, 1, -7, 2, 9, -4], 100, seat=1, seed=9)
    b = _decide([5, -3, 8, 1, -7, 2, 9, -4], 100, seat=1, seed=9)
    assert a[0] == b[0] and np.array_equal(a[2], b[2])
    untouched = new_streams(9, 0, 3)
    assert np.array_equal(a[2][:4], untouched[:4])  # the deal's stream and seat 0's: untouched
    assert not np.array_equal(a[2][4:], untouched[4:])  # stream 1 + seat drew


def test_a_single_decision_is_made_at_once_with_nothing_drawn():
    best, tree, rng = _decide([4], 50)
    assert best == 0 and np.array_equal(rng, new_streams(1, 0, 3))


def test_a_budget_above_the_trees_capacity_stops_growing_it_without_overflow():
    root = T.new_position([1] * 8)
    rng = new_streams(1, 0, 3)
    tree = new_tree(10, 1, T.MAX_TAKE)
    best = SEARCH.ismcts(root, 200, 0.7, ROLLOUT_DEFAULT, 0, rng, np.zeros((T.MAX_TAKE, 1), dtype=np.int64), tree,
                         root.copy(), root.copy(), T.new_look(max_playouts=4000))
    assert 0 <= best < 3


def test_flat_sampling_misses_what_the_tree_finds():
    """On four cards of value 1 the lookahead (flat Monte Carlo, take-one playouts) ties taking 2 and 3 and keeps
    2, which loses to the reply of 2; the tree search takes 3."""
    root = T.new_position([1] * 4)
    flat = SEARCH.lookahead(root, 50, 0, 0, new_streams(1, 0, 3), np.zeros((3, 1), dtype=np.int64),
                            np.zeros(3, dtype=np.int64), root.copy(), root.copy(), T.new_look(max_playouts=400))
    assert flat == 1 and _decide([1] * 4, 400)[0] == 2


def test_the_counters_count_the_decisions_and_every_iteration_s_playout():
    # (analyzer bench reads them) one decision, one rollout per iteration; they add up over a scratch's searches
    _, tree, _ = _decide([3, 1, 4, 1, 5, 9, 2, 6], 60)
    assert list(tree[-1]) == [1, 60]
    root = T.new_position([1] * 8)
    rng = new_streams(1, 0, 3)
    for budget in (7, 9):
        SEARCH.ismcts(root, budget, 0.7, ROLLOUT_RANDOM, 0, rng, np.zeros((T.MAX_TAKE, 1), dtype=np.int64), tree,
                      root.copy(), root.copy(), T.new_look())
    assert tree[-1][COUNT_DECISIONS] == 3 and tree[-1][COUNT_PLAYOUTS] == 60 + 7 + 9
    _, tree, _ = _decide([4], 50)  # one choice: made at once, a decision without playouts
    assert tree[-1][COUNT_DECISIONS] == 1 and tree[-1][COUNT_PLAYOUTS] == 0
