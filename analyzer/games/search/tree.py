"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012) on the
search contract (contract.py), bound to each game by analyzer.games.search.specialise like driver.lookahead.

One tree over the searching seat's information set. Each iteration:
1. determinize: redeal() the cards the seat cannot see, consistently with what it has seen; key the playouts'
   random state (key_playouts) and the tree's own (below) from one draw of the seat's stream;
2. select: from the root, while the position's seat has a decision and every decision it has here is
   already a child, take the child of the highest UCB score among those this determinization allows
   (availability counts: a child's exploration term counts the iterations it could have been chosen in,
   not its parent's visits, since the decisions of a node differ between determinizations);
3. expand: the first decision of the position (decisions' order: the default policy's first) with no child
   yet becomes one, and is applied;
4. roll out: `ROLLOUT_DEFAULT` plays on with the game's default policy (playout) up to `stop_after(root,
   horizon)`; `ROLLOUT_RANDOM` makes uniformly random decisions among decisions() until the game ends or
   reached(pos, stop) says the horizon is passed;
5. back up: every node on the path adds the playout's score for the seat that made its decision.

Scores are the game's int64 outcomes (score()); UCB needs them on one scale, so the values are normalised by
the lowest and highest score seen in this decision's search (min-max normalisation, as MuZero does): the
exploration constant `c` then means the same in every game. The decision made is the root child with most
visits (ties: the earlier decision, so the default policy's wins a tie).

Below the root, decisions() is called for any seat; it draws (a policy's choice) from the tree's own random
state, not the game's: the search must not consume the other seats' streams. No allocation: `tree` is the
caller's scratch (new_tree), sized for `budget` iterations (one node each at most).
"""
import math

import numpy as np
from numba import njit

from analyzer.games.search.contract import (  # noqa: F401  (replaced by the game's functions in each clone)
    apply, begin_search, copy_position, decisions, key_playouts, playout, reached, redeal, score, sort_unseen,
    stop_after, to_move)
from analyzer.games.search.driver import driver_function
from analyzer.rng import mix64, next_u64

ROLLOUT_DEFAULT, ROLLOUT_RANDOM = 0, 1
ROLLOUTS = ("greedy", "random")  # the `rollout` parameter's values, by code (the default policy is greedy)
MAX_SEATS = 8  # the tree's own random state has a stream 1 + s for every seat s
NO_CHILD = -1

# node columns of tree.links (int64): the parent node, the first child, the next sibling, the seat whose
# decision led to the node, its visits and its availability (iterations in which it could have been chosen)
PARENT, FIRST, NEXT, MOVER, VISITS, AVAIL = range(6)
N_LINKS = 6
# the search's counters (the tree scratch's last array): decisions made (calls of ismcts, a decision with one
# choice included), iterations run (each plays one rollout: the playouts)
COUNT_DECISIONS, COUNT_PLAYOUTS = range(2)
N_COUNTS = 2


@njit(cache=True)
def new_tree(budget, width, most_decisions):
    """The search's scratch for up to `budget` iterations: node links, node decisions (rows of `width`) and
    values, the path of one iteration, a candidates table for positions below the root, the scores of one
    playout per seat (and whether computed), the tree's random state, and the search's counters (COUNT_*:
    what it did since the scratch was made, for `analyzer bench`; nothing reads them in play)."""
    capacity = budget + 1
    return (np.zeros((capacity, N_LINKS), dtype=np.int64), np.zeros((capacity, width), dtype=np.int64),
            np.zeros(capacity, dtype=np.float64), np.zeros(capacity, dtype=np.int64),
            np.zeros((most_decisions, width), dtype=np.int64), np.zeros(MAX_SEATS, dtype=np.float64),
            np.zeros(MAX_SEATS, dtype=np.int64), np.zeros(2 * (1 + MAX_SEATS), dtype=np.uint64),
            np.zeros(N_COUNTS, dtype=np.int64))


@njit(cache=True)
def _child(links, moves, node, rows, j):
    """The child of node whose decision is rows[j], or NO_CHILD."""
    ch = links[node, FIRST]
    width = rows.shape[1]
    while ch != NO_CHILD:
        same = True
        for w in range(width):
            if moves[ch, w] != rows[j, w]:
                same = False
                break
        if same:
            return ch
        ch = links[ch, NEXT]
    return NO_CHILD


@njit(cache=True)
def _add_child(links, moves, values, count, node, rows, j, mover):
    """A new child of node for the decision rows[j], made by `mover`, first in node's list; its index."""
    links[count, PARENT] = node
    links[count, FIRST] = NO_CHILD
    links[count, NEXT] = links[node, FIRST]
    links[count, MOVER] = mover
    links[count, VISITS] = 0
    links[count, AVAIL] = 1
    for w in range(rows.shape[1]):
        moves[count, w] = rows[j, w]
    values[count] = 0.0
    links[node, FIRST] = count
    return count


@njit(cache=True)
def _key_tree_rng(tree_rng, key):
    """Every stream of the tree's random state keyed from `key`, counters at 0."""
    for s in range(tree_rng.shape[0] // 2):
        tree_rng[2 * s] = mix64(np.uint64(key) ^ (np.uint64(s + 1) * np.uint64(0x9E3779B97F4A7C15)))
        tree_rng[2 * s + 1] = np.uint64(0)


@driver_function()
def ismcts(root, budget, c, rollout, horizon, rng, cand, tree, sample, work, look):
    """The index in cand of the decision the seat to move at root makes after `budget` iterations (module
    docstring); cand (rows for the game's most decisions) and tree (new_tree(>= budget, ...)) are the caller's
    scratch, sample and work positions of root's type. With one decision it is made at once, nothing drawn.
    Draws, in order: decisions() at the root, then per iteration redeal() and one key, all on stream 1 + seat
    of rng."""
    links, moves, values, path, below, seat_score, scored, tree_rng, counts = tree
    counts[COUNT_DECISIONS] += 1
    seat = to_move(root)
    m = decisions(root, seat, rng, cand, look)
    if m <= 1:
        return 0
    begin_search(root, seat, sample, work, look)
    sort_unseen(root, seat, look)  # the redeals then depend on what seat has seen, not on the hidden order
    stop = stop_after(root, horizon)
    capacity = min(budget + 1, links.shape[0])
    links[0, FIRST] = NO_CHILD
    links[0, VISITS] = 0
    count = 1
    lo, hi = np.inf, -np.inf
    stream = 1 + seat
    for _ in range(budget):
        counts[COUNT_PLAYOUTS] += 1
        redeal(root, seat, rng, sample, look)
        key = next_u64(rng, stream)
        copy_position(sample, work, look)
        key_playouts(key, look)
        _key_tree_rng(tree_rng, key)
        node, depth = 0, 0
        while True:  # select, then expand one node
            mover = to_move(work)
            if mover < 0:
                break
            if node == 0:
                rows, k = cand, m
            else:
                rows = below
                k = decisions(work, mover, tree_rng, below, look)
            untried, best, best_j, best_ucb = -1, NO_CHILD, -1, -np.inf
            for j in range(k):
                ch = _child(links, moves, node, rows, j)
                if ch == NO_CHILD:
                    if untried < 0:
                        untried = j
                    continue
                links[ch, AVAIL] += 1
                mean = values[ch] / links[ch, VISITS]
                norm = (mean - lo) / (hi - lo) if hi > lo else 0.5
                ucb = norm + c * math.sqrt(math.log(links[ch, AVAIL]) / links[ch, VISITS])
                if ucb > best_ucb:
                    best, best_j, best_ucb = ch, j, ucb
            if untried >= 0 and count < capacity:
                node = _add_child(links, moves, values, count, node, rows, untried, mover)
                count += 1
                apply(work, rows, untried, look)
                path[depth] = node
                depth += 1
                break
            if best == NO_CHILD:
                break  # the tree is full: roll out from here
            apply(work, rows, best_j, look)
            node = best
            path[depth] = node
            depth += 1
        if rollout == ROLLOUT_RANDOM:
            while to_move(work) >= 0 and not reached(work, stop):
                k = decisions(work, to_move(work), tree_rng, below, look)
                j = np.int64(next_u64(tree_rng, 0) % np.uint64(k))
                apply(work, below, j, look)
        else:
            playout(work, stop, look)
        for s in range(MAX_SEATS):
            scored[s] = 0
        for d in range(depth):  # back up: each node the score of the seat whose decision it was
            nd = path[d]
            s = links[nd, MOVER]
            if scored[s] == 0:
                seat_score[s] = score(work, s, look)
                scored[s] = 1
                lo = min(lo, seat_score[s])
                hi = max(hi, seat_score[s])
            values[nd] += seat_score[s]
            links[nd, VISITS] += 1
    best, most = 0, -1
    for i in range(m):  # the most visited root decision; ties keep the earlier
        ch = _child(links, moves, 0, cand, i)
        if ch != NO_CHILD and links[ch, VISITS] > most:
            best, most = i, links[ch, VISITS]
    return best
