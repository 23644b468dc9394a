"""Fight Song: the seats' memory, what each seat has seen since the game began, which the lookahead's redeals
keep (search_ops.redeal; docs/fightsong.md, "lookahead"). The engine's game loop tells it what the seats see (the
observe_ functions) when it plays with the lookahead's scratch (`look`, a search_ops.Look: its fields known_by,
ruled_out, reads and board_context are the memory); the default kernels never call it. Below the engine, so that
the engine never imports the lookahead.
"""
import numpy as np
from numba import njit

from analyzer.games.fightsong.events import STK_GP
from analyzer.games.fightsong.rules import N_CORNERS, N_KINDS
from analyzer.games.fightsong.state import (
    O_SEQ, RS_FS_HAND, RS_FS_INIT, RS_FS_KIND, RS_FS_PART, RS_REG_BOARD, S_FREE, S_N, S_SIZE, hn_at)


@njit(cache=True, forceinline=True)
def popcount(bits):
    """The bits set in `bits`."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


# The seats' memory, kept by the lookahead kernel's game loop (engine.run, play_board) through the observe_ functions
# (every seat's, as any seat may be a lookahead seat; cheap beside the playouts):
# - known_by[card]: bit s when seat s knows where that card is. Game Play cards 0..D-1, then the boards (D +
#   board: the Activity cards, then the Fight Song cards). A card a seat has seen stays known to it: a card
#   played goes under its stack at a place everyone sees, the stacks only cycle, cards are dealt from the top
#   one at a time in an order everyone knows, and a card in a hand stays there until it is played face up.
# - ruled_out[s, card], for a card in another player's hand that s does not know: the kinds (bits) that card
#   cannot be if that player plays as greedy does: it is the place in her hand that s reasons about.
# - reads[s]: bit p while s still reads p's plays as greedy's (until one of them is impossible for greedy).
# - board_context: where the game is (the regular hand's Activity card; the Fight Song round's kind, hand,
#   initiating teams and playing seats), laid out as engine's resume array, for a playout to start from.
@njit(cache=True)
def forget(look):
    """A new game: the seats know nothing yet and read every other player's plays as greedy's."""
    known_by, ruled_out, reads = look.known_by, look.ruled_out, look.reads
    for i in range(known_by.shape[0]):
        known_by[i] = 0
    for s in range(ruled_out.shape[0]):
        reads[s] = (1 << ruled_out.shape[0]) - 1
        for i in range(ruled_out.shape[1]):
            ruled_out[s, i] = 0


@njit(cache=True)
def observe_hand(look, board):
    """A regular hand begins on this Activity card."""
    look.board_context[RS_REG_BOARD] = board


@njit(cache=True)
def observe_fs_hand(look, kind, k, init_mask, part_mask):
    """Fight Song hand k (1..3) of a round of this kind (engine FSK_), initiating teams and playing seats, begins."""
    board_context = look.board_context
    board_context[RS_FS_KIND] = kind
    board_context[RS_FS_HAND] = k
    board_context[RS_FS_INIT] = init_mask
    board_context[RS_FS_PART] = part_mask


@njit(cache=True)
def observe_board(look, st, hand, board, layer, nplays):
    """A board is played: every seat sees it, and each playing seat sees its own cards (every card dealt to a seat
    is in its hand at the start of the next board it plays)."""
    known_by = look.known_by
    n_gp = st[S_SIZE + STK_GP]
    every_seat = (1 << st[S_N]) - 1
    known_by[n_gp + board] = every_seat
    for j in range(nplays):
        player = st[O_SEQ + j]
        for i in range(st[hn_at(layer, player)]):
            known_by[hand[layer, player, i]] |= 1 << player


@njit(cache=True)
def observe_play(look, st, hand, gp_kind, score, vers, cval, board, layer, player, card, corner):
    """player has played card from her hand of `layer` (the card is out of it) on corner (still free in
    st[S_FREE]): every seat sees it, and reads the play.
    - Cards of one kind look alike: a seat that did not know this card takes it for a card of that kind it knew in
      her hand, if any (that one becomes unknown to it); else for the card it does not know that can be of that
      kind and is the most constrained (the likeliest). The card really left in the place it takes to be still
      held inherits what it had inferred about that place (the engine plays the first card of a kind in the
      hand; which one, a seat cannot see).
    - Read as greedy's play: she held no card that would have come before it in greedy's order (more points on a
      free corner; on a tie, a less versatile kind, then a corner worth less to the deck, then the lower corner
      and kind), so each card left in her hand is none of those kinds. If the card she played cannot be one she
      could hold by that reading, she does not play as greedy: the seat stops reading her plays."""
    known_by, ruled_out, reads = look.known_by, look.ruled_out, look.reads
    n = st[S_N]
    kind = gp_kind[card]
    played = score[board, corner, kind]
    free = st[S_FREE]
    kinds_before = np.int64(0)  # the kinds greedy would have played before this one
    for k in range(N_KINDS):
        for c in range(N_CORNERS):
            if (free >> c) & 1:
                v = score[board, c, k]
                comes_first = v > played
                if v == played and k != kind:  # greedy's ties, in its order
                    if vers[k] != vers[kind]:
                        comes_first = vers[k] < vers[kind]
                    elif cval[board, c] != cval[board, corner]:
                        comes_first = cval[board, c] < cval[board, corner]
                    else:
                        comes_first = c < corner or (c == corner and k < kind)
                if comes_first:
                    kinds_before |= 1 << k
                    break
    size = st[hn_at(layer, player)]
    for s in range(n):
        if s == player:
            continue
        if not (known_by[card] >> s) & 1:
            taken = -1  # the card s takes for the one played, if not that one
            for i in range(size):
                other = hand[layer, player, i]
                if gp_kind[other] == kind and (known_by[other] >> s) & 1:
                    taken = other
                    known_by[other] &= ~(1 << s)
                    break
            if taken < 0:
                most_ruled_out = -1  # kinds ruled out in the likeliest place so far (-1: no place fits yet)
                if not (ruled_out[s, card] >> kind) & 1:
                    most_ruled_out = popcount(ruled_out[s, card])
                for i in range(size):
                    other = hand[layer, player, i]
                    if not (known_by[other] >> s) & 1 and not (ruled_out[s, other] >> kind) & 1:
                        if popcount(ruled_out[s, other]) > most_ruled_out:
                            most_ruled_out = popcount(ruled_out[s, other])
                            taken = other
                if most_ruled_out < 0 and (reads[s] >> player) & 1:  # impossible for greedy
                    reads[s] &= ~(1 << player)
                    for i in range(size):
                        ruled_out[s, hand[layer, player, i]] = 0
            if taken >= 0:
                ruled_out[s, taken] = ruled_out[s, card]
        if (reads[s] >> player) & 1:
            for i in range(size):
                ruled_out[s, hand[layer, player, i]] |= kinds_before
    for s in range(n):
        ruled_out[s, card] = 0
    known_by[card] = (1 << n) - 1


@njit(cache=True)
def observe_return(look, card):
    """A card left in a Fight Song hand goes under the Game Play stack: what was inferred about it lapses."""
    ruled_out = look.ruled_out
    for s in range(ruled_out.shape[0]):
        ruled_out[s, card] = 0
