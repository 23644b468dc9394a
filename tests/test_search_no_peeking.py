"""The `search` policy never peeks (The Distance, Bring the Noize, Battle of the Bards, Fight Song): at a decision point, dealing the cards the
seat cannot see otherwise (the other hands and the stock, each the same size; everything the seat has seen
unchanged) leaves its decision, and every random number it drew, unchanged (issue 28)."""
import numpy as np
import pytest

from analyzer.games.bards import GAME as BARDS
from analyzer.games.bards import lookahead as BL
from analyzer.games.bards import search_ops as BOPS
from analyzer.games.bards.state import S_ACTIVE as BS_ACTIVE
from analyzer.games.distance import GAME as DISTANCE
from analyzer.games.distance import engine as DE
from analyzer.games.distance import lookahead as DL
from analyzer.games.distance import search_ops as DOPS
from analyzer.games.distance.state import S_DRY, S_END, S_TO_MOVE, S_TURNS
from analyzer.games.search.tree import ROLLOUT_DEFAULT, ROLLOUT_RANDOM
from analyzer.rng import new_streams
from analyzer.scenario import from_dict
from test_bards_search import _dealt  # (a new game at seat 0's first split)


def _distance_roots(players, seed, turns):
    """(config-derived root at the decision of the seat to move after `turns` greedy turns, rates)."""
    sc = from_dict({"game": "distance", "games": 1, "seed": seed, "players": players,
                    "all_seats": {"policy": "search", "budget": 48}})
    config, rates, _ = sc.arms[0].encoded(DISTANCE)
    rng = new_streams(seed, 0, players + DE.N_STREAMS_EXTRA)
    st = config.copy()
    DE._setup(st, rng, np.int64(1))
    out = np.zeros(len(DISTANCE.columns(players)), dtype=np.int64)
    no_trace = np.zeros((1, 1), dtype=np.int64)
    DE.begin(st, rng, out, no_trace, np.int64(0))
    zero = np.zeros(2)
    # (engine.play_turns as the search contract calls it: play_turns is inlined into its callers, and called from here
    # it was compiled alone, for this file only)
    seat, turn, dry, end = DOPS.play_turns_out_of_line(st, np.int64(0), np.int64(0), np.int64(0), np.int64(turns), zero,
                                                       rng, out, no_trace, np.int64(0))
    st[S_TO_MOVE], st[S_TURNS], st[S_DRY], st[S_END] = seat, turn, dry, end
    return st, config, out.shape[0], end == DE.END_NONE


@pytest.mark.parametrize("rollout", [ROLLOUT_DEFAULT, ROLLOUT_RANDOM])
@pytest.mark.parametrize("players, seed, turns", [(2, 1, 4), (2, 2, 3), (3, 2, 1), (4, 1, 8), (5, 1, 9)])
def test_distance_search_decides_the_same_whatever_the_hidden_cards(players, seed, turns, rollout):
    root, config, width, going = _distance_roots(players, seed, turns)
    seat = root[S_TO_MOVE]
    sample, work, cand, sums, look, tree = DL._scratch(config, width)
    assert going and DOPS.decisions(root, seat, new_streams(1, 0, 8), cand, look) >= 3  # a real choice
    decided = []
    for other_deal in range(4):
        pos = root.copy()
        if other_deal:  # the hidden cards dealt again (the contract's own redeal, on an unrelated stream)
            sample, work, cand, sums, look, tree = DL._scratch(config, width)
            DOPS.begin_search(root, seat, sample, work, look)
            DOPS.redeal(root, seat, new_streams(1000 + other_deal, 0, 8), pos, look)
            assert not np.array_equal(pos, root)
        sample, work, cand, sums, look, tree = DL._scratch(config, width)
        rng = new_streams(seed, 7, players + DE.N_STREAMS_EXTRA)
        best = DL.search_tree(pos, np.int64(48), 0.7, np.int64(rollout), np.int64(0), rng, cand, tree, sample, work,
                              look)
        # the decision, every random number drawn, and the whole tree (its nodes' visits and values): the same
        # search, not only the same answer
        decided.append((best, tuple(cand[best]), tuple(rng), tree[0].tobytes(), tree[2].tobytes()))
    assert len(set(decided)) == 1, [d[:2] for d in decided]


def _bards_root(rules, seed, turns):
    """(the root: a Position at the split after `turns` turns, each seat splitting by its policy through the
    contract (decisions' row 0, as test_bards_search plays a whole game), everything the search scratch needs)."""
    sc = from_dict({"game": "bards", "games": 1, "seed": seed, "players": 2, "rules": rules,
                    "all_seats": {"policy": "search", "budget": 48}})
    tbl, pint, pflt = sc.arms[0].encoded(BARDS)
    rng, root, _, _, cand, _, look, _ = BL.scratch(tbl, pint, pflt)
    _dealt(np.uint64(seed), 0, tbl, pint, pflt, root.st, rng, root.ib, root.fb)
    look.rng2[:] = rng  # (the chooser's and the plays' draws are the game's own)
    for _ in range(turns):
        if BOPS.to_move(root) < 0:
            break
        BOPS.decisions(root, BOPS.to_move(root), look.rng2, cand, look)
        BOPS.apply(root, cand, 0, look)
    return root, (tbl, pint, pflt), BOPS.to_move(root) >= 0


def _bards_copy(root, scratch):
    """A fresh search scratch whose root is a copy of `root` (the state and the engine scratch arrays as they
    are at the decision point): nothing carried over from one search to the next."""
    rng, fresh, sample, work, cand, sums, look, tree = BL.scratch(*scratch)
    pos = fresh._replace(st=root.st.copy(), ib=root.ib.copy(), fb=root.fb.copy(), ni=root.ni.copy(),
                         nf=root.nf.copy())
    return pos, sample, work, cand, look, tree


@pytest.mark.parametrize("rollout", [ROLLOUT_DEFAULT, ROLLOUT_RANDOM])
@pytest.mark.parametrize("rules, seed, turns", [({}, 1, 0), ({}, 2, 1), ({}, 5, 2),
                                                ({"deck": "extended", "copies": "double"}, 3, 4),
                                                ({"deck": "extended", "copies": "double"}, 4, 7)])
def test_bards_search_decides_the_same_whatever_the_hidden_cards(rules, seed, turns, rollout):
    """The draw pile's order (all a splitting seat cannot see) dealt otherwise by the contract's own redeal:
    the same split, the same draws and the same tree."""
    root, scratch, going = _bards_root(rules, seed, turns)
    seat = root.st[BS_ACTIVE]
    assert going and seat == turns % 2
    pos, sample, work, cand, look, tree = _bards_copy(root, scratch)
    assert BOPS.decisions(pos, seat, new_streams(1, 0, 3), cand, look) >= 3  # a real choice (all 30 splits)
    decided = []
    for other_deal in range(4):
        pos, sample, work, cand, look, tree = _bards_copy(root, scratch)
        if other_deal:  # the hidden cards dealt again (the contract's own redeal, on an unrelated stream)
            BOPS.begin_search(root, seat, sample, work, look)
            BOPS.redeal(root, seat, new_streams(1000 + other_deal, 0, 3), pos, look)
            assert not np.array_equal(pos.st, root.st)
            pos, sample, work, cand, look, tree = _bards_copy(pos, scratch)
        rng = new_streams(seed, 7, 3)
        best = BL.search_tree(pos, np.int64(48), 0.7, np.int64(rollout), np.int64(1), rng, cand, tree, sample, work,
                              look)
        decided.append((best, tuple(cand[best]), tuple(rng), tree[0].tobytes(), tree[2].tobytes()))
    assert len(set(decided)) == 1, [d[:2] for d in decided]


def _noize_root(players, hands, bids, seed):
    """A Bring the Noize search root: a shuffled deck, hand sizes `hands` (each settled round gave its loser a
    card: the rounds played follow, and the move tables are built for such hands only), this round
    dealt (by search_ops itself) and `bids` raises made (each the first raising candidate), and its scratch."""
    from analyzer.games.noize import GAME as NOIZE
    from analyzer.games.noize import engine as NE
    from analyzer.games.noize import lookahead as NL
    from analyzer.games.noize import search_ops as NOPS

    sc = from_dict({"game": "noize", "games": 1, "seed": seed, "players": players,
                    "all_seats": {"policy": "search", "budget": 48}})
    rules_ = sc.arms[0].rules
    rounds = sum(hands) - players * rules_["start_cards"]
    assert rounds >= 0 and min(hands) >= rules_["start_cards"] and max(hands) < rules_["finish_cards"]
    rules, deck, pol, par, table, actions, seat_rows, first_hand = sc.arms[0].encoded(NOIZE)
    moves_flat = actions.reshape(actions.size)

    def scratch():
        return NL._scratch(rules, deck, pol, par, table, moves_flat, actions.shape[1], seat_rows, first_hand,
                           len(NOIZE.columns(players)))[1]

    D = deck.shape[0]
    stack = np.random.default_rng(seed).permutation(deck).astype(np.int64)
    prefix = np.zeros(2 * D + 1, dtype=np.int64)
    NE._prefix_counts(stack, D, prefix)
    at = np.zeros(NOPS.AT_SIZE, dtype=np.int64)
    at[NOPS.AT_STARTER] = seed % players  # this round's dealer (the next round's deal is search_ops')
    at[NOPS.AT_POS] = (7 * seed) % D
    at[NOPS.AT_ROUNDS] = rounds
    root = NOPS.Position(stack, prefix, np.array(hands, dtype=np.int64), np.zeros((players, NE.N_TYPES), dtype=np.int64),
                         np.zeros(players, dtype=np.int64), seat_rows, at)
    sample, work, cand, sums, look, tree = scratch()
    rng = new_streams(seed, 0, 1 + players)
    NOPS.decisions(root, NOPS.to_move(root), rng, cand, look)  # deals the round
    for _ in range(bids):
        k = NOPS.decisions(root, NOPS.to_move(root), rng, cand, look)
        raise_ = [i for i in range(k) if cand[i, 0] >= 0][0]
        NOPS.apply(root, cand, raise_, look)
    return root, scratch, NL, NOPS


def _copy_position(pos):
    return type(pos)(*(a.copy() for a in pos))


@pytest.mark.parametrize("rollout, horizon", [(ROLLOUT_DEFAULT, 1), (ROLLOUT_RANDOM, 1), (ROLLOUT_DEFAULT, 0)])
@pytest.mark.parametrize("players, hands, bids, seed", [
    (2, (4, 4), 0, 1), (2, (6, 9), 1, 2), (3, (5, 4, 6), 2, 3), (4, (4, 5, 7, 4), 1, 4), (6, (2, 4, 3, 5, 2, 3), 3, 5)])
def test_noize_search_decides_the_same_whatever_the_hidden_cards(players, hands, bids, seed, rollout, horizon):
    root, scratch, NL, NOPS = _noize_root(players, hands, bids, seed)
    seat = NOPS.to_move(root)
    sample, work, cand, sums, look, tree = scratch()
    assert root.at[NOPS.AT_DEALT] == 1 and root.at[NOPS.AT_OVER] == 0
    assert NOPS.decisions(root, seat, new_streams(1, 0, 8), cand, look) >= 3  # a real choice
    decided = []
    for other_deal in range(4):
        pos = _copy_position(root)
        if other_deal:  # the hidden cards dealt again (the contract's own redeal, on an unrelated stream)
            sample, work, cand, sums, look, tree = scratch()
            NOPS.begin_search(root, seat, sample, work, look)
            NOPS.redeal(root, seat, new_streams(1000 + other_deal, 0, 8), pos, look)
            assert not np.array_equal(pos.stack, root.stack)
            assert np.array_equal(pos.cnt[seat], root.cnt[seat]) and np.array_equal(pos.hand, root.hand)
        sample, work, cand, sums, look, tree = scratch()
        look.redeal_tries[0] = NOPS.REDEAL_TRIES  # as lookahead.choose sets it for a search seat: bids read
        rng = new_streams(seed, 7, 1 + players)
        best = NL.search_tree(pos, np.int64(48), 0.7, np.int64(rollout), np.int64(horizon), rng, cand, tree, sample,
                              work, look)
        # the decision, every random number drawn, and the whole tree (its nodes' visits and values): the same
        # search, not only the same answer
        decided.append((best, tuple(cand[best]), tuple(rng), tree[0].tobytes(), tree[2].tobytes()))
    assert len(set(decided)) == 1, [d[:2] for d in decided]


def _fightsong_root(players, seed, plays):
    """A Fight Song search root: game 0 of `seed` at its first decision (test_fightsong_search.first_decision),
    `plays` greedy plays made through the contract (every seat sees the cards played), every seat searching."""
    from analyzer.games.fightsong import search_ops as FOPS
    from test_fightsong_search import first_decision

    seats = [{"policy": "search", "budget": 48}] * players
    pos, look, cfg, rng = first_decision(players, seed, 0, seats)
    for _ in range(plays):
        FOPS.decisions(pos, FOPS.to_move(pos), rng, look.cand, look)
        FOPS.apply(pos, look.cand, 0, look)
        for j in range(pos.at[FOPS.AT_PLAY]):
            look.known_by[pos.st[_O_PL + j]] = (1 << players) - 1  # (played face up)
    return pos, look, cfg, FOPS


from analyzer.games.fightsong.state import O_PL as _O_PL  # noqa: E402


@pytest.mark.parametrize("rollout, horizon", [(ROLLOUT_DEFAULT, 1), (ROLLOUT_RANDOM, 1), (ROLLOUT_DEFAULT, 0)])
@pytest.mark.parametrize("players, seed, plays", [(2, 1, 0), (2, 3, 2), (3, 2, 1), (4, 4, 2), (4, 6, 0)])
def test_fightsong_search_decides_the_same_whatever_the_hidden_cards(players, seed, plays, rollout, horizon):
    """The cards the seat to move has not seen (the other hands, the three stacks' unseen cards) dealt otherwise by
    the contract's own redeal (its memory, which the redeal keeps, unchanged): the same play, the same draws and
    the same tree."""
    from analyzer.games.fightsong import lookahead as FL

    root, look, cfg, FOPS = _fightsong_root(players, seed, plays)
    seat = FOPS.to_move(root)
    assert FOPS.decisions(root, seat, new_streams(1, 0, 8), look.cand, look) >= 3  # a real choice

    def fresh(pos):
        """A copy of pos and a fresh scratch with the root's memory."""
        copy = FOPS.Position(*(a.copy() for a in pos))
        scratch = FL._scratch(cfg, copy.rg, look.dout.shape[1])
        for name in ("known_by", "ruled_out", "reads", "board_context"):
            getattr(scratch, name)[...] = getattr(look, name)
        return copy, scratch

    decided = []
    for other_deal in range(4):
        pos, scratch = fresh(root)
        if other_deal:  # the hidden cards dealt again (the contract's own redeal, on an unrelated stream)
            # (deal_unknown: the redeal without its reordering of the board's earlier players' hands, which moves
            # the cards on the table between ids of a kind: the real game's cards stay where they are)
            FOPS.deal_unknown(root.st, root.rg, root.hand, cfg.tables.gp_kind, seat, new_streams(1000 + other_deal, 0, 8),
                              1 + seat, pos.st, pos.rg, pos.hand, scratch.pool, scratch.known_by, scratch.ruled_out,
                              True, False)  # (sort_pool given, as the kernels give it: their specialisation)
            assert not np.array_equal(pos.hand, root.hand) and np.array_equal(pos.hand[:, seat], root.hand[:, seat])
            pos, scratch = fresh(pos)
        rng = new_streams(seed, 7, 1 + players)
        best = FL.search_tree(pos, np.int64(48), 0.7, np.int64(rollout), np.int64(horizon), rng, scratch.cand,
                              scratch.tree, scratch.sample, scratch.work, scratch)
        decided.append((best, tuple(scratch.cand[best]), tuple(rng), scratch.tree[0].tobytes(),
                        scratch.tree[2].tobytes()))
    assert len(set(decided)) == 1, [d[:2] for d in decided]
