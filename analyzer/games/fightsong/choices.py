"""Fight Song's decision counts for `analyzer profile` (base.Choices; docs/fightsong.md, "Profile: choices and
restricted play"): the engine calls these, when the state's S_COUNT is set, before the real game's decisions
(never a search's: its runs resume the game and count nothing). They read the state and draw no random number.

- a play (regular or Fight Song hand): its legal options are the kinds of card held x the free corners (two
  copies of a kind are the same card to the rules); real when the best option scores strictly more points now
  than every other (greedy's own evaluation: the points the card scores on that corner; margin 0 points, and
  points are whole).
- a battle (3 players, one player alone can start a Fight Song round): its options are the two other players,
  never one; the evaluation of each is the round's first Fight Song hand as it would be dealt from the stacks as
  they lie, both players playing greedy's play: +1 if she scores strictly more (the extra point), 0 a tie (a
  replay), -1 if the opponent does; real when the two opponents' values differ (margin 0).
"""
from numba import njit

from analyzer.games.fightsong.events import STK_FS, STK_GP
from analyzer.games.fightsong.rules import FS_DEAL, N_CORNERS, N_KINDS
from analyzer.games.fightsong.state import MAXP, O_CHOICES, O_HM, S_BASE, S_FREE, S_LEFT, S_SIZE, S_TOP

PLAYS, BATTLES = 0, 4  # each kind's four counts in O_CHOICES: decisions, options, single-option, real
PLAY_MARGIN = 0  # points: the best play must score more than every other by more than this
BATTLE_MARGIN = 0  # the first Fight Song hand's outcome (-1, 0, +1): the two opponents' must differ by more


@njit(cache=True, inline="always")
def _tally(st, at, options, real):
    st[O_CHOICES + at] += 1
    st[O_CHOICES + at + 1] += options
    st[O_CHOICES + at + 2] += 1 if options == 1 else 0
    st[O_CHOICES + at + 3] += 1 if options > 1 and real else 0


@njit(cache=True)
def count_play(st, score, board, layer, seat):
    """The seat's play on `board` (score: the points of each board x corner x kind) counted before it is made."""
    free = st[S_FREE]
    held = st[O_HM + layer * MAXP + seat]
    options = 0
    best = -1
    second = -1
    for c in range(N_CORNERS):
        if (free >> c) & 1:
            for k in range(N_KINDS):
                if (held >> k) & 1:
                    options += 1
                    v = score[board, c, k]
                    if v > best:
                        second = best
                        best = v
                    elif v > second:
                        second = v
    _tally(st, PLAYS, options, best - second > PLAY_MARGIN)


@njit(cache=True, inline="always")
def _first_fs_hand(st, rg, gp_kind, gtab, score, board, chooser, opponent):
    """+1, 0 or -1: the chooser's first Fight Song hand against `opponent`, dealt FS_DEAL cards each from the Game
    Play stack as it lies (one at a time round the table from the dealer's left, as engine.deal), the chooser
    playing first (she alone initiates: engine.fs_round_order), each greedy's play."""
    n = 3
    left = st[S_LEFT]
    base, size, at = st[S_BASE + STK_GP], st[S_SIZE + STK_GP], st[S_TOP + STK_GP]
    mine = 0
    theirs = 0
    for _ in range(FS_DEAL):
        for i in range(n):
            s = left + i
            if s >= n:
                s -= n
            if s == chooser or s == opponent:
                kind = gp_kind[rg[base + at]]
                at = 0 if at + 1 == size else at + 1
                if s == chooser:
                    mine |= 1 << kind
                else:
                    theirs |= 1 << kind
    all_free = (1 << N_CORNERS) - 1
    mv = gtab[board, all_free, mine]
    corner = mv & 3
    mv2 = gtab[board, all_free & ~(1 << corner), theirs]
    diff = score[board, corner, mv >> 2] - score[board, mv2 & 3, mv2 >> 2]
    return 1 if diff > 0 else (-1 if diff < 0 else 0)


@njit(cache=True)
def count_battle(st, rg, gp_kind, gtab, score, n_act, chooser):
    """3 players: the chooser's pick of an opponent counted before she makes it (the round's cards not yet dealt)."""
    board = n_act + rg[st[S_BASE + STK_FS] + st[S_TOP + STK_FS]]
    a = _first_fs_hand(st, rg, gp_kind, gtab, score, board, chooser, (chooser + 1) % 3)
    b = _first_fs_hand(st, rg, gp_kind, gtab, score, board, chooser, (chooser + 2) % 3)
    _tally(st, BATTLES, 2, abs(a - b) > BATTLE_MARGIN)
