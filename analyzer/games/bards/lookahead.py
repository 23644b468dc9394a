"""The Battle of the Bards `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the draw pile's order,
by the search driver (analyzer/games/search: driver.lookahead) on Battle of the Bards' contract (search_ops.py).

The decision (docs/bards.md, "lookahead"): the split (which of the 30 proper non-empty subsets of the five drawn
cards goes face up). It plays its cards, chooses groups and sets up as greedy does, with its own parameters.
- what it sees: its five cards, both players' tales, the discard pile, the meme, the scores; so it knows
  which cards are in the draw pile. What it does not see: their order.
- candidates (search_ops.decisions): greedy's split (first: ties keep it), then the 29 others.
- for each of `samples` redeals (search_ops.redeal), the draw pile is shuffled on its stream and every
  candidate is played on that same pile (common random numbers): the chooser chooses, both play their groups,
  and the game goes on with greedy at its default parameters for both seats (itself included) for `horizon`
  more turns (0: to the end of the game).
- outcome of a playout (search_ops.score): if the game ended, +WIN if it won (alone), -WIN if it lost, 0 on a
  true tie; otherwise its score minus the opponent's, capped to +-(WIN - 1). It plays the candidate with the
  best sum (no edge: any better sum wins).
- a pile of fewer than two cards has one order: then one redeal stands for all (`_searched_split`).

Its own kernel entry: `run_look` plays the game like engine.run, from the engine's pieces, but a seat whose
policy is lookahead decides its split by the search (its greedy split, the search's decision 0, is computed
there). kernels.py calls it only when some seat plays lookahead (`uses_lookahead`), so the default kernel never
compiles this module or the driver (nor does the engine import them), and this kernel compiles (lazily,
cached) on first use. No allocation in the decision loop: the search's scratch (the positions, the candidates
and their sums, search_ops' look) is allocated once per block of games or traced game (`scratch`); run_look
keeps `_nrt=False` as engine.run does. Reproducible: the search draws only from the seat's own stream
(1 + seat), the playouts from a private random state keyed from that stream, so a game depends only on
(seed, game index), whatever the threads and blocks.
"""
import numpy as np
from numba import njit

from analyzer.games.bards import engine as E
from analyzer.games.bards import search_ops
from analyzer.games.bards.engine import begin_turn, count_turn_split, deal, events_written, game_goes_on
from analyzer.games.bards.jitted import helper
from analyzer.games.bards.search_ops import (
    DECISION_WIDTH, N_SPLITS, Position, end_turn_once, finish_game_once, new_look, split_once)
from analyzer.games.bards.seats import greedy_at_defaults
from analyzer.games.bards.state import (
    I_BUDGET, I_HORIZON, I_ROLLOUT, I_SAMPLES, I_SPLIT, P_C, S_ACTIVE, SP_LOOKAHEAD, SP_SEARCH, pile_left)
from analyzer.games.search import specialise
from analyzer.games.search.tree import new_tree
from analyzer.jit_deferred import optimise_once
from analyzer.threads import run_in_blocks

SEARCH = specialise(search_ops, "bards")
search_lookahead = SEARCH.lookahead  # (module-level names: numba reads jitted callees from globals)
search_tree = SEARCH.ismcts

EDGE = 0  # greedy's split (decision 0) has no margin: any better sum wins


def uses_lookahead(pint):
    """True if some seat of this encoded configuration plays lookahead or search (then the lookahead kernel
    runs)."""
    return bool(np.isin(pint[:, I_SPLIT], (SP_LOOKAHEAD, SP_SEARCH)).any())


@helper(inline="always")  # small: a function of its own was one more layer to compile
def _searched_split(pint, pflt, rng, active, root, sample, work, cand, sums, look, tree):
    """A lookahead or search seat's split, by the search on the game at this decision point (the root)."""
    root.st[S_ACTIVE] = active
    if pint[active, I_SPLIT] == SP_SEARCH:
        best = search_tree(root, pint[active, I_BUDGET], pflt[active, P_C], pint[active, I_ROLLOUT],
                           pint[active, I_HORIZON], rng, cand, tree, sample, work, look)
    else:
        # a pile of fewer than two cards has one order: one redeal stands for all (nor draws any more keys)
        samples = pint[active, I_SAMPLES] if pile_left(root.st) >= 2 else np.int64(1)
        best = search_lookahead(root, samples, pint[active, I_HORIZON], np.int64(EDGE), rng, cand, sums, sample,
                                work, look)
    return cand[best, 0]


@njit(cache=True, _nrt=False, nogil=True)
def run_look(seed, first_game, lo, hi, tbl, pint, pflt, out, order, tr, on, rng, root, sample, work, cand, sums,
             look, tree, counts):
    """engine.run with lookahead and search seats deciding their splits by the search; the other seats' splits and
    everything else are engine.run's (tests/test_bards_lookahead.py checks that other policies play here
    exactly as in engine.run). root: the real game's state, scratch and policies; counts: engine.run's."""
    st, ib, fb, ni, nf = root.st, root.ib, root.fb, root.ni, root.nf
    ne = 0
    for gi in range(lo, hi):
        deal(seed, first_game + gi, tbl, pint, pflt, order, st, rng, ib, tr, on, counts)
        active = np.int64(0)
        while game_goes_on(st):
            begin_turn(st, active, fb, tr, on)
            if counts is not None:
                count_turn_split(st, tbl, active, pint, pflt, counts, ni, nf)
            if pint[active, I_SPLIT] == SP_LOOKAHEAD or pint[active, I_SPLIT] == SP_SEARCH:
                up = _searched_split(pint, pflt, rng, active, root, sample, work, cand, sums, look, tree)
            else:
                up = split_once(st, tbl, active, pint, pflt, rng, fb, ni, nf)
            active = end_turn_once(st, tbl, active, up, pint, pflt, rng, ib, fb, ni, nf, tr, on, counts)
        finish_game_once(st, tbl, active, pint, rng, out[gi], tr, on)
        ne = events_written(st, on)
    return ne


optimise_once(run_look)  # (one round of LLVM's pipeline: as fast as two, measured: jit_deferred)


def scratch(tbl, pint, pflt):
    """run_look's arrays after `on`, allocated once per block of games or traced game: the real game's random
    state and its position (engine.scratch, its policies); sample and work (greedy at its defaults for both
    seats, one scratch between them); the candidates and their sums; search_ops' look; the tree search's tree
    (for the largest budget of a search seat; one node when none)."""
    st, rng, ib, fb, ni, nf = E.scratch()
    root = Position(st, ib, fb, ni, nf, pint, pflt)
    gpint, gpflt = greedy_at_defaults()
    sst, _, sib, sfb, sni, snf = E.scratch()
    sample = Position(sst, sib, sfb, sni, snf, gpint, gpflt)
    work = Position(np.empty_like(sst), sib, sfb, sni, snf, gpint, gpflt)
    budget = max([int(pint[s, I_BUDGET]) for s in range(2) if pint[s, I_SPLIT] == SP_SEARCH], default=0)
    # (new_tree's Python code: the same arrays, without a compile of its own on a cold start's way to the kernel)
    return (rng, root, sample, work, np.zeros((N_SPLITS, DECISION_WIDTH), dtype=np.int64),
            np.zeros(N_SPLITS, dtype=np.int64), new_look(tbl), new_tree.py_func(budget, DECISION_WIDTH, N_SPLITS))


def play_one_look(seed, game, tbl, pint, pflt, out, trace, order=E.NO_ORDER):
    """engine.play_one for a configuration with a lookahead seat (the trace)."""
    return run_look(seed, game, 0, 1, tbl, pint, pflt, out.reshape(1, -1), order, trace, True,
                    *scratch(tbl, pint, pflt), E.count_scratch(pint))


def play_block_look(seed, first_game, lo, hi, tbl, pint, pflt, out):
    """engine.play_block for a configuration with a lookahead seat. Returns the tree search's counters
    (tree.COUNT_*: `analyzer bench`)."""
    search = scratch(tbl, pint, pflt)
    run_look(seed, first_game, lo, hi, tbl, pint, pflt, out, E.NO_ORDER, E.NO_TRACE, False, *search,
             E.count_scratch(pint))
    return search[-1][-1]


CHUNK = 4  # games per block at the least: a lookahead game costs hundreds of playouts


def batch_look(seed, first_game, tbl, pint, pflt, out):
    """engine.batch with the lookahead kernel."""
    run_in_blocks(play_block_look, out.shape[0], CHUNK, (seed, first_game), (tbl, pint, pflt, out))
