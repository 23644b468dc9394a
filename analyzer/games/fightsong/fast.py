"""Fight Song's greedy fast path: the games of a table of greedy seats, untraced, played by one kernel
(`greedy_block`) beside the general game loop (engine.run), the same games to the last column: the same
stacks from the same DEAL draws, the same plays, the same result rows (tests/test_fightsong_fast.py plays the
same deals through both).

Why it is faster (docs/fightsong.md, "How the greedy kernel is fast"): greedy reads nothing of a card but its
kind, nor does any result column, so the fast path knows cards by kind alone. Its Game Play ring holds kinds
(the ids shuffled as the general path shuffles them, then read as kinds); a regular hand is its counts and
kinds held (O_HC, O_HM: a play is a decrement, no search of the hand for a card of the kind and no shift of
the cards after it); a Fight Song hand, whose cards left go back under the stack in the order dealt, is its
kinds packed in one word (O_FSEQ). The stacks' top and bottom are kept in registers (a ring never overflows:
its bottom is where the next card goes), greedy's play is the table look-up of policies.decide, and the
game's pieces are plain functions of a few arrays (the general loop passes the Tables, some seventy words,
to every play_board and fight_song_round call). Indices are unsigned (_get, _put): numba then adds no
wraparound of negative indices.
"""
from contextlib import contextmanager

import numba
import numpy as np
from numba import njit

from analyzer.games.fightsong import engine as E
from analyzer.games.fightsong.events import (
    END_ALONE, END_HIGHEST, END_SHARED, END_STALL, END_TIEBREAK, FSO_LOST, FSO_NO_POINT, FSO_TIE, FSO_WON)
from analyzer.games.fightsong.policies import P_GREEDY, choose_battle
from analyzer.games.fightsong.rules import FS_DEAL, FS_EXTRA, FS_MAX_HANDS, HOW_BONUS, HOW_INNER, N_CORNERS, N_KINDS
from analyzer.games.fightsong.events import STK_ACT, STK_FS, STK_GP
from analyzer.games.fightsong.state import (
    FSEQ_BITS, MAXP, O_FSEQ, O_HM, O_PL, O_PLH, O_REG, O_SEATPTS, O_SEQ, O_TCROSS, O_TEXTRA, O_TPEND, O_TPTS, O_TSC,
    O_XSNAP, S_CNT, S_HANDS, S_LEFT, S_SIZE, S_TOP, clear_hand, hc_at, hn_at, init_state, put_bottom, take, team_of)
from analyzer.games.layout import col_llvm
from analyzer.jit_deferred import optimise_once
from analyzer.jit_setup import in_cache
from analyzer.planned_games import planned
from analyzer.rng import reset_streams
from analyzer.threads import run_in_blocks

KIND_MASK = (1 << FSEQ_BITS) - 1
FREE_SETS = 1 << N_CORNERS  # greedy's table: board x free corners (bits) x kinds held (bits)
HELD_SETS = 1 << N_KINDS


@njit(cache=True)
def _deal(st, rg, n, left, count, layer, part_mask):
    """engine.deal on kinds: `count` cards to each seat of part_mask, one at a time round the table from the
    dealer's left, into the seat's counts and kinds held (O_HN, O_HC, O_HM of `layer`) and, in a Fight Song hand,
    its kinds in the order dealt (O_FSEQ). The stack's top and count are kept in registers meanwhile."""
    top = st[S_TOP + STK_GP]
    size = st[S_SIZE + STK_GP]
    dealt = 0
    for _ in range(count):
        for i in range(n):
            s = E.clockwise(left, i, n)
            if (part_mask >> s) & 1:
                kind = rg[top]
                top = 0 if top + 1 == size else top + 1
                dealt += 1
                held = st[hn_at(layer, s)]
                st[hn_at(layer, s)] = held + 1
                st[hc_at(layer, s, kind)] += 1
                st[O_HM + layer * MAXP + s] |= 1 << kind
                if layer == 1:
                    st[O_FSEQ + s] |= kind << (FSEQ_BITS * held)
    st[S_TOP + STK_GP] = top
    st[S_CNT + STK_GP] -= dealt


@njit(cache=True)
def _play(st, gtab, how, n, board, layer, nplays):
    """engine.play_board for greedy seats, on kinds: play j by seat st[O_SEQ + j], greedy's look-up
    (policies.decide); fills the plays' kinds (O_PL) and how they scored (O_PLH), and each team's points (O_TSC;
    -1 for a team that does not play). A Fight Song hand loses the first card of the kind in the order dealt, as
    engine's hand_remove_kind takes it."""
    for t in range(MAXP):
        st[O_TSC + t] = -1
    for j in range(nplays):
        st[O_TSC + team_of(st[O_SEQ + j], n)] = 0
    free = (1 << N_CORNERS) - 1
    for j in range(nplays):
        seat = st[O_SEQ + j]
        held = st[O_HM + layer * MAXP + seat]
        mv = np.int64(gtab[(board * FREE_SETS + free) * HELD_SETS + held])
        kind = mv >> 2
        corner = mv & 3
        left = st[hc_at(layer, seat, kind)] - 1
        st[hc_at(layer, seat, kind)] = left
        if left == 0:
            st[O_HM + layer * MAXP + seat] = held & ~(1 << kind)
        st[hn_at(layer, seat)] -= 1
        if layer == 1:
            seq = st[O_FSEQ + seat]
            at = 0
            while (seq >> (FSEQ_BITS * at)) & KIND_MASK != kind:
                at += 1
            st[O_FSEQ + seat] = (seq & ((1 << (FSEQ_BITS * at)) - 1)) | ((seq >> (FSEQ_BITS * (at + 1))) << (FSEQ_BITS * at))
        free &= ~(1 << corner)
        h = how[(board * N_CORNERS + corner) * N_KINDS + kind]
        st[O_PL + j] = kind
        st[O_PLH + j] = h
        st[O_TSC + team_of(seat, n)] += 1 if h == HOW_BONUS else h


@njit(cache=True)
def _fs_round(st, rg, gtab, how, n, init_mask, part_mask):
    """engine.fight_song_round for greedy seats, on kinds: the same cards dealt, played and returned in the same
    order. Returns (outcome, winning team or -1, Fight Song hands played)."""
    nt = E.n_teams(n)
    left = st[S_LEFT]
    _, nplays = E.fs_round_order(st, n, nt, init_mask, part_mask)
    n_act = st[S_SIZE + STK_ACT]
    outcome = FSO_NO_POINT
    winner = -1
    hands = 0
    for k in range(1, FS_MAX_HANDS + 1):
        _deal(st, rg, n, left, np.int64(FS_DEAL if k == 1 else FS_EXTRA), np.int64(1), part_mask)
        board = n_act + take(st, rg, STK_FS)
        hands += 1
        _play(st, gtab, how, n, board, np.int64(1), nplays)
        outcome, winner = E.fs_hand_outcome(st, nt, init_mask, k)
        for j in range(nplays):  # the Fight Song hand's cards go to the bottom of their stacks
            put_bottom(st, rg, STK_GP, st[O_PL + j])
        put_bottom(st, rg, STK_FS, board - n_act)
        if outcome != FSO_TIE:
            break
    # the cards left in the Fight Song hands go under the Game Play stack, seat by seat from the dealer's left
    for i in range(n):
        s = E.clockwise(left, i, n)
        if (part_mask >> s) & 1:
            seq = st[O_FSEQ + s]
            for c in range(st[hn_at(1, s)]):
                put_bottom(st, rg, STK_GP, (seq >> (FSEQ_BITS * c)) & KIND_MASK)
            st[O_FSEQ + s] = 0
            clear_hand(st, 1, s)
    return outcome, winner, hands


# _nrt=False as engine.run: it allocates nothing; nogil: the batch runs it on a pool of threads
@njit(cache=True, _nrt=False, nogil=True)
def greedy_block(seed, first_game, lo, hi, rules, order_gp, order_act, order_fs, gp_kind, how, gtab, pol, par, out,
                 st, rg, rng, tr):
    """engine.run for a table of greedy seats, untraced (greedy_fast): games first_game + lo .. first_game + hi - 1
    into out[lo:hi], the same rows. how, gtab: the Tables' how and greedy tables, flattened; pol, par: the seats'
    (a 3-player battle); st, rg, rng: engine.scratch's arrays; tr: a dummy trace (result_row's, never written)."""
    n = rules[E.R_PLAYERS]
    nt = E.n_teams(n)
    d = order_gp.shape[0]
    all_seats = (1 << n) - 1
    nplays = 4 if n == 2 else n
    for g in range(lo, hi):
        reset_streams(rng, seed, first_game + g)
        init_state(st, rg, order_gp, order_act, order_fs, n)
        if rules[E.R_STACKED] == 0:
            E.shuffle_stacks(st, rg, rng)
        for i in range(d):  # the Game Play cards by kind
            rg[i] = gp_kind[rg[i]]
        row = out[g]
        for i in range(row.shape[0]):
            row[i] = 0
        _deal(st, rg, n, st[S_LEFT], rules[E.R_HAND], np.int64(0), all_seats)
        for s in range(n):  # engine._opening_power, from the counts
            d0 = st[hc_at(0, s, 0)] + st[hc_at(0, s, 1)] + st[hc_at(0, s, 2)]
            d1 = st[hc_at(0, s, 3)] + st[hc_at(0, s, 4)] + st[hc_at(0, s, 5)]
            top = max(d0, max(d1, rules[E.R_HAND] - d0 - d1))
            row[col_llvm(E.R_POWER, n, nt) + (0 if top <= 3 else 1 if top == 4 else 2) * n + s] = 1
        E._drama_look(st, nt, np.int64(0))
        points, plays_3, plays_2, plays_inner, plays_bonus, plays_0, opportunities = 0, 0, 0, 0, 0, 0, 0
        fs_rounds, fs_multi, fs_hands, fs_ties, fs_won, fs_lost, fs_no_point = 0, 0, 0, 0, 0, 0, 0
        end, win_mask = np.int64(-1), np.int64(0)
        while True:
            # a regular hand (engine.play_hand)
            hand_no = st[S_HANDS]
            starter = hand_no % n
            if rules[E.R_DEALER] == E.DEALER_ROTATING:
                st[S_LEFT] = starter
            board = take(st, rg, STK_ACT)
            for j in range(nplays):
                st[O_SEQ + j] = (starter + j) % 2 if n == 2 else E.clockwise(starter, j, n)
            _play(st, gtab, how, n, board, np.int64(0), nplays)
            for j in range(nplays):
                st[O_REG + j] = st[O_PL + j]
                h = st[O_PLH + j]
                pts = 1 if h == HOW_BONUS else h
                st[O_SEATPTS + st[O_SEQ + j]] += pts
                points += pts
                if h == HOW_BONUS:
                    plays_bonus += 1
                elif h == HOW_INNER:
                    plays_inner += 1
                elif pts == 3:
                    plays_3 += 1
                elif pts == 2:
                    plays_2 += 1
                else:
                    plays_0 += 1
            for t in range(nt):
                st[O_TPTS + t] += st[O_TSC + t]
                crossed = st[O_TPTS + t] // rules[E.R_STEP]
                st[O_TPEND + t] += crossed - st[O_TCROSS + t]
                opportunities += crossed - st[O_TCROSS + t]
                st[O_TCROSS + t] = crossed
                st[O_XSNAP + t] = st[O_TEXTRA + t]
            st[S_HANDS] = hand_no + 1
            # its Fight Song rounds (engine.play_opportunities)
            while True:
                init_mask, n_init = E.fs_initiators(st, nt)
                if init_mask == 0:
                    break
                part_mask = all_seats
                if n == 3:
                    if n_init == 1:
                        chooser = 0
                        while not (init_mask >> chooser) & 1:
                            chooser += 1
                        part_mask = (1 << chooser) | (1 << choose_battle(st, pol, par, rng, chooser))
                    else:
                        part_mask = init_mask
                outcome, _, hands = _fs_round(st, rg, gtab, how, n, init_mask, part_mask)
                fs_rounds += 1
                fs_hands += hands
                fs_ties += hands - 1 if outcome != FSO_NO_POINT else hands
                fs_multi += 1 if n_init > 1 else 0
                fs_won += 1 if outcome == FSO_WON else 0
                fs_lost += 1 if outcome == FSO_LOST else 0
                fs_no_point += 1 if outcome != FSO_WON and outcome != FSO_LOST else 0
            # the hand's cards go back (engine.return_hand)
            for j in range(nplays):
                put_bottom(st, rg, STK_GP, st[O_REG + j])
            put_bottom(st, rg, STK_ACT, board)
            E._drama_look(st, nt, st[S_HANDS])
            # the end (engine.check_end)
            top = -1
            n_reached = 0
            for t in range(nt):
                v = st[O_TPTS + t] + st[O_TEXTRA + t]
                n_reached += 1 if v >= rules[E.R_TARGET] else 0
                top = max(top, v)
            if n_reached > 0:
                tied = np.int64(0)
                n_tied = 0
                for t in range(nt):
                    if st[O_TPTS + t] + st[O_TEXTRA + t] == top:
                        tied |= 1 << t
                        n_tied += 1
                if n_tied == 1:
                    end = END_ALONE if n_reached == 1 else END_HIGHEST
                    win_mask = tied
                else:  # an exact tie at the top: a Fight Song round between the tied teams
                    part = np.int64(0)
                    for s in range(n):
                        if (tied >> team_of(s, n)) & 1:
                            part |= 1 << s
                    outcome, winner, hands = _fs_round(st, rg, gtab, how, n, tied, part)
                    row[col_llvm(E.R_TB_ROUNDS, n, nt)] = 1
                    row[col_llvm(E.R_TB_HANDS, n, nt)] = hands
                    end = END_TIEBREAK if outcome == FSO_WON else END_SHARED
                    win_mask = np.int64(1 << winner) if outcome == FSO_WON else tied
                break
            if st[S_HANDS] >= rules[E.R_MAX_HANDS]:
                end = END_STALL
                break
            if st[hn_at(0, 0)] <= rules[E.R_REFILL_AT]:
                _deal(st, rg, n, st[S_LEFT], rules[E.R_REFILL_CARDS], np.int64(0), all_seats)
                row[col_llvm(E.R_REFILLS, n, nt)] += 1
        row[col_llvm(E.R_POINTS, n, nt)] = points
        row[col_llvm(E.R_PLAYS, n, nt)] = nplays * st[S_HANDS]
        row[col_llvm(E.R_P3, n, nt)] = plays_3
        row[col_llvm(E.R_P2, n, nt)] = plays_2
        row[col_llvm(E.R_P1_INNER, n, nt)] = plays_inner
        row[col_llvm(E.R_P1_BONUS, n, nt)] = plays_bonus
        row[col_llvm(E.R_P0, n, nt)] = plays_0
        row[col_llvm(E.R_FS_OPP, n, nt)] = opportunities
        row[col_llvm(E.R_FS_ROUNDS, n, nt)] = fs_rounds
        row[col_llvm(E.R_FS_MULTI, n, nt)] = fs_multi
        row[col_llvm(E.R_FS_HANDS, n, nt)] = fs_hands
        row[col_llvm(E.R_FS_TIES, n, nt)] = fs_ties
        row[col_llvm(E.R_FS_WON, n, nt)] = fs_won
        row[col_llvm(E.R_FS_LOST, n, nt)] = fs_lost
        row[col_llvm(E.R_FS_NO_POINT, n, nt)] = fs_no_point
        E.result_row(st, rules, row, end, win_mask, tr, False)


optimise_once(greedy_block)  # (one round of LLVM's pipeline: as fast as two, measured: jit_deferred)


def greedy_fast(cfg):
    """True if greedy_block may play this configuration's games: every seat greedy (the batch is untraced, and a
    lookahead or search seat has its own kernel), no seat told to avoid a division and no decisions counted (the
    profile's: engine.run does both)."""
    n = int(cfg.rules[E.R_PLAYERS])
    return bool((cfg.tables.pol == P_GREEDY).all()) and cfg.rules[E.R_COUNT] == 0 \
        and not cfg.rules[E.R_AVOID:E.R_AVOID + n].any()


def _block_args(seed, first_game, lo, hi, cfg, out):
    st, rg, _, rng = E.scratch(cfg)
    tab = cfg.tables
    return (seed, first_game, lo, hi, cfg.rules, cfg.order_gp, cfg.order_act, cfg.order_fs, tab.gp_kind,
            tab.how.reshape(-1), tab.gtab.reshape(-1), tab.pol, tab.par, out, st, rg, rng, E.NO_TRACE)


def play_block(seed, first_game, lo, hi, cfg, out):
    greedy_block(*_block_args(seed, first_game, lo, hi, cfg, out))


def block_signature(cfg):
    """The argument types play_block calls greedy_block with for cfg (a batch's `out`: C-contiguous int64 rows)."""
    return tuple(numba.typeof(a) for a in _block_args(np.uint64(0), 0, 0, 0, cfg, np.empty((1, 1), np.int64)))


# From this many games (deals x configurations) planned, a run compiles the fast path rather than playing by the
# general kernel: the fast path plays a game about 1.3 us faster on two threads (fightsong-4p, 1,600,000 games: 6.9
# against 9.0 s) and its compile adds 1.0-1.5 s to a cold start (docs/performance.md, issue 30's sixteenth session)
FAST_PATH_GAMES = 1_000_000
_in_cache = {}  # greedy_block's argument types -> whether numba's cache held its compile when first asked


def fast_path_pays(cfg):
    """Whether the batch of a greedy table (greedy_fast) plays by greedy_block: with no plan (a run whose report
    replays no traced games: analyzer.planned_games) or FAST_PATH_GAMES or more planned, or when greedy_block is loaded
    here or in numba's cache for these types; a shorter run plays by the general kernel, which it compiles anyway for
    its traced games."""
    games = planned()
    if games is None or games >= FAST_PATH_GAMES:
        return True
    sig = block_signature(cfg)
    if sig in greedy_block.overloads:
        return True
    if sig not in _in_cache:
        _in_cache[sig] = in_cache(greedy_block, greedy_block._cache, sig)
    return _in_cache[sig]


GENERAL_PATH = False  # True: fast.batch plays every table by the general loop (general_path: analyzer bench)


@contextmanager
def general_path():
    """Within it, the batch plays greedy tables by the general loop too (the same games): `analyzer bench` times
    both paths in one run."""
    global GENERAL_PATH
    before, GENERAL_PATH = GENERAL_PATH, True
    try:
        yield
    finally:
        GENERAL_PATH = before


def plays_fast(cfg):
    """Whether a batch of cfg plays by greedy_block: greedy_fast allows it and it pays (fast_path_pays), outside
    general_path; else by engine.run (kernels.compile_parts then names engine.run's callees)."""
    return not GENERAL_PATH and greedy_fast(cfg) and fast_path_pays(cfg)


def batch(seed, first_game, cfg, out, fast_path=1):
    """Games first_game .. first_game + len(out) - 1 into out, on numba.get_num_threads() threads: by greedy_block
    where plays_fast, else engine.batch; fast_path 0: always engine.batch (the same games: tests and the bench compare
    them)."""
    if fast_path and plays_fast(cfg):
        run_in_blocks(play_block, out.shape[0], E.CHUNK, (seed, first_game), (cfg, out))
    else:
        E.batch(seed, first_game, cfg, out)
