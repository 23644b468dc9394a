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
import numpy as np
from numba import njit

from analyzer.games.fightsong import engine as E
from analyzer.games.fightsong.events import (
    END_ALONE, END_HIGHEST, END_SHARED, END_STALL, END_TIEBREAK, FSO_LOST, FSO_NO_POINT, FSO_TIE, FSO_WON)
from analyzer.games.fightsong.policies import P_GREEDY, choose_battle
from analyzer.games.fightsong.rules import FS_DEAL, FS_EXTRA, FS_MAX_HANDS, HOW_BONUS, HOW_INNER, N_CORNERS, N_KINDS
from analyzer.games.fightsong.state import (
    FSEQ_BITS, MAXP, O_FSEQ, O_HM, O_PL, O_REG, O_SEATPTS, O_SEQ, O_TCROSS, O_TEXTRA, O_TPEND, O_TPTS, O_TSC, O_XSNAP,
    S_HANDS, hc_at, hn_at, init_state, team_of)
from analyzer.games.layout import col
from analyzer.rng import reset_streams
from analyzer.threads import run_in_blocks

KIND_MASK = (1 << FSEQ_BITS) - 1
FREE_SETS = 1 << N_CORNERS  # greedy's table: board x free corners (bits) x kinds held (bits)
HELD_SETS = 1 << N_KINDS


@njit(cache=True, inline="always")
def _get(a, i):
    """a[i], i >= 0, indexed as unsigned: numba then adds no wraparound of negative indices."""
    return a[np.uint64(i)]


@njit(cache=True, inline="always")
def _put(a, i, value):
    a[np.uint64(i)] = value


@njit(cache=True, inline="always")
def _greedy(gtab, board, free, held):
    """greedy's (kind, corner): policies.decide's look-up in greedy's table (flattened)."""
    mv = np.int64(_get(gtab, (board * FREE_SETS + free) * HELD_SETS + held))
    return mv >> 2, mv & 3


@njit(cache=True, inline="always")
def _points(how, board, corner, kind):
    """(how the card scores, its points): the how table's code, a Bonus Corner match scoring 1."""
    h = _get(how, (board * N_CORNERS + corner) * N_KINDS + kind)
    return h, h - 3 if h == HOW_BONUS else h


@njit(cache=True)
def _fs_round(st, rg, gtab, how, n, left, d, a, f, gp_top, gp_bot, fs_top, fs_bot, init_mask, part_mask):
    """engine.fight_song_round for greedy seats, on kinds: the cards dealt, played and returned in the same
    order. Returns (outcome, winning team or -1, Fight Song hands played, and the stacks' new top and bottom:
    gp_top, gp_bot, fs_top, fs_bot)."""
    nt = E.n_teams(n)
    n_init = 0
    first_init = -1
    for t in range(nt):
        if (init_mask >> t) & 1:
            n_init += 1
            if first_init < 0:
                first_init = t
    starter = -1
    for i in range(n):
        s = E.clockwise(left, i, n)
        if (part_mask >> s) & 1 and (n_init != 1 or team_of(s, n) == first_init):
            starter = s
            break
    nplays = 0
    for i in range(n):
        s = E.clockwise(starter, i, n)
        if (part_mask >> s) & 1:
            _put(st, O_SEQ + nplays, s)
            nplays += 1
    outcome = FSO_NO_POINT
    winner = -1
    hands = 0
    for k in range(1, FS_MAX_HANDS + 1):
        for _ in range(FS_DEAL if k == 1 else FS_EXTRA):  # one card at a time round the table from the dealer's left
            for i in range(n):
                s = E.clockwise(left, i, n)
                if (part_mask >> s) & 1:
                    size = _get(st, hn_at(1, s))
                    _put(st, O_FSEQ + s, _get(st, O_FSEQ + s) | (_get(rg, gp_top) << (FSEQ_BITS * size)))
                    _put(st, hn_at(1, s), size + 1)
                    gp_top = 0 if gp_top + 1 == d else gp_top + 1
        board = a + _get(rg, d + a + fs_top)
        fs_top = 0 if fs_top + 1 == f else fs_top + 1
        hands += 1
        for t in range(MAXP):
            _put(st, O_TSC + t, -1)
        for j in range(nplays):
            _put(st, O_TSC + team_of(_get(st, O_SEQ + j), n), 0)
        free = (1 << N_CORNERS) - 1
        for j in range(nplays):
            seat = _get(st, O_SEQ + j)
            seq = _get(st, O_FSEQ + seat)
            size = _get(st, hn_at(1, seat))
            held = 0
            for i in range(size):
                held |= 1 << ((seq >> (FSEQ_BITS * i)) & KIND_MASK)
            kind, corner = _greedy(gtab, board, free, held)
            # the first card of that kind in the order dealt leaves the hand (engine: hand_remove_kind)
            at = 0
            while (seq >> (FSEQ_BITS * at)) & KIND_MASK != kind:
                at += 1
            low = seq & ((1 << (FSEQ_BITS * at)) - 1)
            _put(st, O_FSEQ + seat, low | ((seq >> (FSEQ_BITS * (at + 1))) << (FSEQ_BITS * at)))
            _put(st, hn_at(1, seat), size - 1)
            free &= ~(1 << corner)
            _, pts = _points(how, board, corner, kind)
            team = team_of(seat, n)
            _put(st, O_TSC + team, _get(st, O_TSC + team) + pts)
            _put(st, O_PL + j, kind)
        best = -1
        n_best = 0
        best_team = -1
        for t in range(nt):
            v = _get(st, O_TSC + t)
            if v > best:
                best = v
                n_best = 1
                best_team = t
            elif v == best:
                n_best += 1
        if n_best == 1:
            winner = best_team
            outcome = FSO_WON if (init_mask >> best_team) & 1 else FSO_LOST
            if outcome == FSO_WON:
                _put(st, O_TEXTRA + best_team, _get(st, O_TEXTRA + best_team) + 1)
        elif k == FS_MAX_HANDS:
            outcome = FSO_NO_POINT
        else:
            outcome = FSO_TIE
        # the Fight Song hand's cards go to the bottom of their stacks
        for j in range(nplays):
            _put(rg, gp_bot, _get(st, O_PL + j))
            gp_bot = 0 if gp_bot + 1 == d else gp_bot + 1
        _put(rg, d + a + fs_bot, board - a)
        fs_bot = 0 if fs_bot + 1 == f else fs_bot + 1
        if outcome != FSO_TIE:
            break
    # the cards left in the Fight Song hands go under the Game Play stack, seat by seat from the dealer's left
    for i in range(n):
        s = E.clockwise(left, i, n)
        if (part_mask >> s) & 1:
            seq = _get(st, O_FSEQ + s)
            for c in range(_get(st, hn_at(1, s))):
                _put(rg, gp_bot, (seq >> (FSEQ_BITS * c)) & KIND_MASK)
                gp_bot = 0 if gp_bot + 1 == d else gp_bot + 1
            _put(st, O_FSEQ + s, 0)
            _put(st, hn_at(1, s), 0)
    return outcome, winner, hands, gp_top, gp_bot, fs_top, fs_bot


@njit(cache=True, inline="always")
def _deal_regular(st, rg, n, left, d, gp_top, count):
    """`count` cards to every seat's regular hand, one at a time round the table from the dealer's left (engine.deal,
    layer 0); returns the Game Play stack's new top."""
    for _ in range(count):
        for i in range(n):
            s = E.clockwise(left, i, n)
            kind = _get(rg, gp_top)
            gp_top = 0 if gp_top + 1 == d else gp_top + 1
            _put(st, hc_at(0, s, kind), _get(st, hc_at(0, s, kind)) + 1)
            _put(st, O_HM + s, _get(st, O_HM + s) | (1 << kind))
    return gp_top


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
    a = order_act.shape[0]
    f = order_fs.shape[0]
    all_seats = (1 << n) - 1
    step = rules[E.R_STEP]
    target = rules[E.R_TARGET]
    rotating = rules[E.R_DEALER] == E.DEALER_ROTATING
    gone = 2 if n == 2 else 1  # cards a hand takes from each regular hand
    nplays = 4 if n == 2 else n
    for g in range(lo, hi):
        reset_streams(rng, seed, first_game + g)
        init_state(st, rg, order_gp, order_act, order_fs, n)
        if rules[E.R_STACKED] == 0:
            E.shuffle_stacks(st, rg, rng)
        for i in range(d):  # the Game Play cards by kind
            _put(rg, i, _get(gp_kind, _get(rg, i)))
        gp_top, gp_bot, act_top, act_bot, fs_top, fs_bot = 0, 0, 0, 0, 0, 0  # (every stack full: its bottom is its top)
        row = out[g]
        for i in range(row.shape[0]):
            row[i] = 0
        left = 0
        gp_top = _deal_regular(st, rg, n, left, d, gp_top, rules[E.R_HAND])
        held_cards = rules[E.R_HAND]  # every regular hand holds as many
        for s in range(n):  # engine._opening_power, from the counts
            d0 = _get(st, hc_at(0, s, 0)) + _get(st, hc_at(0, s, 1)) + _get(st, hc_at(0, s, 2))
            d1 = _get(st, hc_at(0, s, 3)) + _get(st, hc_at(0, s, 4)) + _get(st, hc_at(0, s, 5))
            d2 = _get(st, hc_at(0, s, 6)) + _get(st, hc_at(0, s, 7)) + _get(st, hc_at(0, s, 8))
            top = max(d0, max(d1, d2))
            cat = 0 if top <= 3 else 1 if top == 4 else 2
            row[col(E.R_POWER, n, nt) + cat * n + s] = 1
        E._drama_look(st, nt, np.int64(0))
        points, plays_3, plays_2, plays_inner, plays_bonus, plays_0 = 0, 0, 0, 0, 0, 0
        end, win_mask = np.int64(-1), np.int64(0)
        hand_no = 0
        while True:
            # a regular hand (engine.play_hand)
            starter = hand_no % n
            if rotating:
                left = starter
            board = _get(rg, d + act_top)
            act_top = 0 if act_top + 1 == a else act_top + 1
            free = (1 << N_CORNERS) - 1
            for t in range(nt):
                _put(st, O_TSC + t, 0)
            for j in range(nplays):
                seat = (starter + j) % 2 if n == 2 else E.clockwise(starter, j, n)
                held = _get(st, O_HM + seat)
                kind, corner = _greedy(gtab, board, free, held)
                count = _get(st, hc_at(0, seat, kind)) - 1
                _put(st, hc_at(0, seat, kind), count)
                if count == 0:
                    _put(st, O_HM + seat, held & ~(1 << kind))
                free &= ~(1 << corner)
                h, pts = _points(how, board, corner, kind)
                team = team_of(seat, n)
                _put(st, O_TSC + team, _get(st, O_TSC + team) + pts)
                _put(st, O_SEATPTS + seat, _get(st, O_SEATPTS + seat) + pts)
                _put(st, O_REG + j, kind)
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
            held_cards -= gone
            for t in range(nt):
                pts = _get(st, O_TPTS + t) + _get(st, O_TSC + t)
                _put(st, O_TPTS + t, pts)
                crossed = pts // step
                new = crossed - _get(st, O_TCROSS + t)
                _put(st, O_TPEND + t, _get(st, O_TPEND + t) + new)
                row[col(E.R_FS_OPP, n, nt)] += new
                _put(st, O_TCROSS + t, crossed)
                _put(st, O_XSNAP + t, _get(st, O_TEXTRA + t))
            hand_no += 1
            st[S_HANDS] = hand_no
            # its Fight Song rounds (engine.play_opportunities)
            while True:
                init_mask = 0
                n_init = 0
                for t in range(nt):
                    if _get(st, O_TPEND + t) > 0:
                        init_mask |= 1 << t
                        n_init += 1
                        _put(st, O_TPEND + t, _get(st, O_TPEND + t) - 1)
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
                outcome, _, hands, gp_top, gp_bot, fs_top, fs_bot = _fs_round(
                    st, rg, gtab, how, n, left, d, a, f, gp_top, gp_bot, fs_top, fs_bot, init_mask, part_mask)
                row[col(E.R_FS_ROUNDS, n, nt)] += 1
                row[col(E.R_FS_HANDS, n, nt)] += hands
                row[col(E.R_FS_TIES, n, nt)] += hands - 1 if outcome != FSO_NO_POINT else hands
                if n_init > 1:
                    row[col(E.R_FS_MULTI, n, nt)] += 1
                if outcome == FSO_WON:
                    row[col(E.R_FS_WON, n, nt)] += 1
                elif outcome == FSO_LOST:
                    row[col(E.R_FS_LOST, n, nt)] += 1
                else:
                    row[col(E.R_FS_NO_POINT, n, nt)] += 1
            # the hand's cards go back (engine.return_hand)
            for j in range(nplays):
                _put(rg, gp_bot, _get(st, O_REG + j))
                gp_bot = 0 if gp_bot + 1 == d else gp_bot + 1
            _put(rg, d + act_bot, board)
            act_bot = 0 if act_bot + 1 == a else act_bot + 1
            E._drama_look(st, nt, hand_no)
            # the end (engine.check_end)
            top = -1
            n_reached = 0
            for t in range(nt):
                v = _get(st, O_TPTS + t) + _get(st, O_TEXTRA + t)
                if v >= target:
                    n_reached += 1
                if v > top:
                    top = v
            if n_reached > 0:
                tied = 0
                n_tied = 0
                for t in range(nt):
                    if _get(st, O_TPTS + t) + _get(st, O_TEXTRA + t) == top:
                        tied |= 1 << t
                        n_tied += 1
                if n_tied == 1:
                    end = END_ALONE if n_reached == 1 else END_HIGHEST
                    win_mask = np.int64(tied)
                else:  # an exact tie at the top: a Fight Song round between the tied teams
                    part = 0
                    for s in range(n):
                        if (tied >> team_of(s, n)) & 1:
                            part |= 1 << s
                    outcome, winner, hands, gp_top, gp_bot, fs_top, fs_bot = _fs_round(
                        st, rg, gtab, how, n, left, d, a, f, gp_top, gp_bot, fs_top, fs_bot, tied, part)
                    row[col(E.R_TB_ROUNDS, n, nt)] += 1
                    row[col(E.R_TB_HANDS, n, nt)] += hands
                    if outcome == FSO_WON:
                        end = END_TIEBREAK
                        win_mask = np.int64(1 << winner)
                    else:
                        end = END_SHARED
                        win_mask = np.int64(tied)
                break
            if hand_no >= rules[E.R_MAX_HANDS]:
                end = END_STALL
                break
            if held_cards <= rules[E.R_REFILL_AT]:
                gp_top = _deal_regular(st, rg, n, left, d, gp_top, rules[E.R_REFILL_CARDS])
                held_cards += rules[E.R_REFILL_CARDS]
                row[col(E.R_REFILLS, n, nt)] += 1
        row[col(E.R_POINTS, n, nt)] = points
        row[col(E.R_PLAYS, n, nt)] = nplays * hand_no
        row[col(E.R_P3, n, nt)] = plays_3
        row[col(E.R_P2, n, nt)] = plays_2
        row[col(E.R_P1_INNER, n, nt)] = plays_inner
        row[col(E.R_P1_BONUS, n, nt)] = plays_bonus
        row[col(E.R_P0, n, nt)] = plays_0
        E.result_row(st, rules, row, end, win_mask, tr, False)


def greedy_fast(cfg):
    """True if greedy_block may play this configuration's games: every seat greedy (the batch is untraced, and a
    lookahead or search seat has its own kernel)."""
    return bool((cfg.tables.pol == P_GREEDY).all())


def play_block(seed, first_game, lo, hi, cfg, out):
    st, rg, _, rng = E.scratch(cfg)
    tab = cfg.tables
    greedy_block(seed, first_game, lo, hi, cfg.rules, cfg.order_gp, cfg.order_act, cfg.order_fs, tab.gp_kind,
                 tab.how.reshape(-1), tab.gtab.reshape(-1), tab.pol, tab.par, out, st, rg, rng, E.NO_TRACE)


def batch(seed, first_game, cfg, out, fast_path=1):
    """Games first_game .. first_game + len(out) - 1 into out, on numba.get_num_threads() threads: by greedy_block
    where greedy_fast allows, else engine.batch; fast_path 0: always engine.batch (the same games: tests and the
    bench compare them)."""
    if fast_path and greedy_fast(cfg):
        run_in_blocks(play_block, out.shape[0], E.CHUNK, (seed, first_game), (cfg, out))
    else:
        E.batch(seed, first_game, cfg, out)
