"""The Fight Song `lookahead` policy (issue 12, "a strong rung"): Monte Carlo over the cards a seat does not know,
by the search driver (analyzer/games/search: driver.lookahead) on Fight Song's contract (search_ops.py).

- its own kernel entry: `play_block_look` / `play_game_look` play the games with KERNEL.run, the engine's game loop
  (engine.LOOKAHEAD_LOOP: run down to play_board) cloned with `choose` bound as the lookahead seats' decision
  (search.rebind): play_board calls it for the lookahead seats, in regular and Fight Song hands, and the loop
  tells the seats' memory what they see (memory.py). The engine never imports this module, and the default
  kernels (engine.run given no scratch) never compile it or the driver. kernels.py uses this entry only when a
  seat plays lookahead (`uses_lookahead`).
- the playouts are engine.run too (search_ops.playout), given `resume`: it skips the game's start and
  replays the current board from its first play: a regular hand on its Activity card (already out of the
  stack), or a Fight Song hand on its Fight Song card (its cards dealt; the round's kind, hand number,
  initiating teams and playing seats from the resume array, the regular hand already recorded), the plays
  made so far and the candidate scripted (the tests' P_SCRIPT seats: their cards go back to their hands),
  every seat greedy after its script. The board is finished as the rules do (the hand's Fight Song rounds, its
  cards going back, the end check included) and the playout stops after the horizon. Every rule is written
  once.
- no allocation in the decision loop: the scratch (search_ops.Look: the search's positions, the pool of unseen
  cards, the playouts' policies, a random state, a result row and trace the playouts are given but that nobody
  reads, the candidates and their sums, the seats' memory) is allocated once per block of games or traced game.
- reproducible: a decision draws only from the seat's own stream (1 + seat), the playouts from a private
  random state keyed from that stream (greedy draws nothing, so it stays unused); the memory is the game's
  own (reset at each game's start), so a game depends only on (seed, game index).

The decision, at each play of a regular or Fight Song hand (with 3 players it battles by its `battle` rule):
- what it sees: its own hands, the board and the cards on it, every hand's size, the scores, and what it has
  seen since the game began: every card played (where each goes: under the Game Play stack, in the order
  the rules return them), every card dealt to it, every board turned up. The stacks only cycle and cards are
  dealt from the top in a known order, so a card it has seen stays known to it wherever it goes, into another
  player's hand included (forget .. observe_return). What it does not see: the cards it has never seen, in
  the other hands and the stacks.
- reading plays (`read_plays`, default on): it takes every other player for a greedy player, as its playouts
  do: a card she leaves in her hand is none of the kinds greedy would have played before the one she played
  (more points on a free corner; a tie broken as greedy does), and it infers that about each card of her
  hand it does not know. Cards of a kind look alike, so it takes a played card for one it knew of that kind
  if any, else for the likeliest place. A play greedy could not have made (no place it could come from) ends
  the reading of that player for the game. Against greedy players the reading never rules out a card they
  hold (tests/test_fightsong_lookahead.py).
- candidates (search_ops.decisions): greedy's play (first: ties keep it), the `team` policy's play (default
  weights), for each free corner the card greedy would put there, and for each kind of card it holds the corner
  greedy would put it on; duplicates dropped. With one candidate it plays it at once; the last play of a regular
  hand at horizon 1 is greedy's, unsearched (more points never hurt there, and greedy's ties keep its
  versatile cards).
- for each of `samples` redeals (search_ops.redeal), the cards it does not know, in the other hands (regular
  and Fight Song) and the Game Play stack, are shuffled together on its stream and put back in their places,
  each place in a hand taking the first card left of a kind its reading has not ruled out there; the boards it
  has not seen are shuffled in their stacks; every card it knows stays where it is. Every candidate is played
  on that same redeal (common random numbers), then every seat plays greedy for `horizon` hands counting this
  one (0: to the end of the game).
- outcome of a playout (search_ops.score): UNIT x (its team's total - the best other team's total), plus UNIT x
  target if its team won (divided by k if k teams share the win), minus that if it lost. It plays the candidate
  with the best sum (driver.lookahead), but in a regular hand greedy's play stands unless another beats it by
  more than EDGE per redeal (a quarter point); in a Fight Song hand the best sum is played (EDGE_FS 0: the
  cards not played there go back under the stack, so greedy's ties keep nothing).
- strength (docs/fightsong.md, "lookahead"): the hidden hands decide most of what a play is worth. Redeals
  that keep only what a seat has seen gained nothing over the old redeals (about half against greedy);
  reading plays and searching the Fight Song hands took lookahead partners to 57.8% +- 0.5 against greedy
  partners (4 players, seats rotated, 40,000 games of seed 5; before: 49.7% +- 0.5; given the true hands,
  65% with regular hands searched alone).
"""
import numpy as np
from numba import njit

from analyzer.games.fightsong import engine, search_ops
from analyzer.games.fightsong.engine import NO_TRACE, R_PLAYERS, scratch
from analyzer.games.fightsong.policies import (
    N_PAR, P_GREEDY, P_LOOKAHEAD, P_SEARCH, P_TEAM, PB_BUDGET, PB_C, PB_HORIZON, PB_OPPONENT, PB_PARTNER, PB_ROLLOUT,
    PB_SAMPLES)
from analyzer.games.fightsong.search_ops import (
    AT_LAYER, AT_NPLAYS, AT_OVER, AT_PLAY, AT_SIZE, DECISION_WIDTH, MAXCAND, NO_STOP, UNIT, Look, Position)
from analyzer.games.fightsong.state import (
    N_RESUME, RESUME_FS, RESUME_HAND, RS_BOARD, RS_MOVE, RS_NPLAYS, RS_PAUSE, RS_PENDING, RS_PLAY, RS_STOP)
from analyzer.games.search import rebind, specialise
from analyzer.games.search.tree import new_tree
from analyzer.jit_deferred import optimise_once
from analyzer.threads import run_in_blocks

EDGE = UNIT // 4  # regular hands: a quarter point of margin per redeal (see choose)
EDGE_FS = 0  # Fight Song hands: none (see choose)

SEARCH = specialise(search_ops, "fightsong")
search_lookahead = SEARCH.lookahead  # (module-level names: numba reads jitted callees from globals)
search_tree = SEARCH.ismcts


def uses_lookahead(pol):
    """True if some seat of this encoded configuration plays lookahead or search (then the lookahead kernel runs)."""
    return bool(((pol == P_LOOKAHEAD) | (pol == P_SEARCH)).any())


@njit(cache=True, inline="always")
def _decision_point(at, board_context, board, layer, j, nplays):
    """The real game's decision point, play j of the board, written into the search's root: where the game is
    (the memory's board_context), and what a run resumes (the regular hand, or a Fight Song hand, at play j)."""
    for i in range(N_RESUME):
        at[i] = board_context[i]
    at[RS_PENDING] = RESUME_HAND if layer == 0 else RESUME_FS
    at[RS_BOARD] = board
    at[RS_PLAY] = j
    at[RS_NPLAYS] = nplays
    at[RS_MOVE] = -1
    at[RS_PAUSE] = 0
    at[RS_STOP] = NO_STOP  # (stop_after's, once the search knows its horizon)
    at[AT_LAYER] = layer
    at[AT_PLAY] = j
    at[AT_NPLAYS] = nplays
    at[AT_OVER] = 0


# inline="always" (one caller: the kernel's play_board): no jitted layer of its own above the playouts' engine.run,
# as search_ops' contract functions (whose inlining saved about 15 s of cold compile; this one's saving was within
# the measurements' noise)
@njit(cache=True, inline="always")
def choose(st, hand, tab, rng, board, layer, seat, j, nplays, look):
    """The lookahead or search seat's (kind, corner) for play j of the board, the game's tables tab (the lookahead
    kernel's play_board calls it): a regular hand (layer 0) or a Fight Song hand (layer 1). look: the scratch (a
    Look)."""
    _decision_point(look.root_at, look.board_context, board, layer, j, nplays)
    root = Position(st, look.rg, hand, look.root_at)
    if tab.pol[seat] == P_SEARCH:
        best = search_tree(root, np.int64(tab.par[seat, PB_BUDGET]), tab.par[seat, PB_C],
                           np.int64(tab.par[seat, PB_ROLLOUT]), np.int64(tab.par[seat, PB_HORIZON]), rng, look.cand,
                           look.tree, look.sample, look.work, look)
        return look.cand[best, 0], look.cand[best, 1]
    samples = np.int64(tab.par[seat, PB_SAMPLES])
    # greedy's play (decision 0) stands unless another beats it by more than the edge per redeal: in a regular hand
    # smaller differences are mostly noise, and greedy's ties keep its most versatile cards for later hands, which a
    # short horizon does not see; a Fight Song hand's cards that are not played go back under the stack
    edge = (EDGE if layer == 0 else EDGE_FS) * samples
    best = search_lookahead(root, samples, np.int64(tab.par[seat, PB_HORIZON]), np.int64(edge), rng, look.cand,
                            look.sums, look.sample, look.work, look)
    return look.cand[best, 0], look.cand[best, 1]


# the lookahead's kernel: the engine's game loop with choose as the lookahead seats' decision
KERNEL = rebind(engine.LOOKAHEAD_LOOP, vars(engine), {"choose_lookahead": choose}, "lookahead")
# one round of LLVM's pipeline: 2-3 s less compile CPU, and as fast as two (one round faster in 6 of 8 pairs measured,
# by 0.9-3%; slower in 2: jit_deferred, docs/performance.md's twelfth and eighteenth sessions)
optimise_once(KERNEL.run)


def _position(cfg):
    """A search position's arrays for the game configured by cfg: state, stacks, hands, decision point."""
    return Position(*scratch(cfg)[:3], np.zeros(AT_SIZE, dtype=np.int64))


def _scratch(cfg, rg, width):
    """The decision scratch (a Look) of the game configured by cfg, whose stacks are rg, for result rows of `width`.
    The playouts' seats play greedy (battle: the leader); the candidates' team play uses its default weights. The
    tree search's scratch is sized for the largest budget of a search seat (one node when none)."""
    n = int(cfg.rules[R_PLAYERS])
    spol = np.full(n, P_GREEDY, dtype=np.int64)
    spar = np.zeros((n, N_PAR), dtype=np.float64)
    budget = int(max((cfg.tables.par[s, PB_BUDGET] for s in range(n) if cfg.tables.pol[s] == P_SEARCH), default=0))
    tpol = np.full(n, P_TEAM, dtype=np.int64)
    tpar = np.zeros((n, N_PAR), dtype=np.float64)
    tpar[:, PB_PARTNER] = 1.0
    tpar[:, PB_OPPONENT] = 1.0
    n_gp, n_act, n_fs = cfg.order_gp.shape[0], cfg.order_act.shape[0], cfg.order_fs.shape[0]
    return Look(
        cfg=cfg._replace(tables=cfg.tables._replace(pol=spol, par=spar)), par=cfg.tables.par, rg=rg,
        root_at=np.zeros(AT_SIZE, dtype=np.int64), sample=_position(cfg), work=_position(cfg),
        pool=np.zeros(max(n_gp, n_act, n_fs), dtype=np.int64), tpol=tpol, tpar=tpar,
        rng2=np.zeros(2 * (1 + n), dtype=np.uint64), dout=np.zeros((1, width), dtype=np.int64),
        dtr=np.zeros((1, 1), dtype=np.int64),
        # playout_traced: False, read at run time so that the playouts' engine.run sees a plain bool, as the
        # default kernels do (whose compiled play_board and fight_song_round they then share), not the
        # literal False a constant would give (one more compile of each)
        playout_traced=np.zeros(1, dtype=np.bool_),
        cand=np.zeros((MAXCAND, DECISION_WIDTH), dtype=np.int64), sums=np.zeros(MAXCAND, dtype=np.int64),
        known_by=np.zeros(n_gp + n_act + n_fs, dtype=np.int64), ruled_out=np.zeros((n, n_gp), dtype=np.int64),
        board_context=np.zeros(N_RESUME, dtype=np.int64), reads=np.zeros(n, dtype=np.int64),
        # (new_tree's Python code: the same arrays, without a compile of its own on a cold start's way to the kernel)
        tree=new_tree.py_func(budget, DECISION_WIDTH, MAXCAND), tree_search=np.zeros(2, dtype=np.int64))


def play_game_look(seed, game, cfg, out, trace):
    """engine.play_game for a configuration with lookahead seats (the trace uses it)."""
    game_arrays = scratch(cfg)
    look = _scratch(cfg, game_arrays[1], out.shape[-1])
    return KERNEL.run(seed, game, 0, 1, cfg, out.reshape(1, -1), trace, True, *game_arrays, look, None)


def play_block_look(seed, first_game, lo, hi, cfg, out):
    """engine.play_block for a configuration with lookahead seats. Returns the tree search's counters (tree.COUNT_*:
    `analyzer bench`)."""
    game_arrays = scratch(cfg)
    look = _scratch(cfg, game_arrays[1], out.shape[1])
    KERNEL.run(seed, first_game, lo, hi, cfg, out, NO_TRACE, False, *game_arrays, look, None)
    return look.tree[-1]


LOOK_CHUNK = 4  # games per block at the least: a lookahead game costs hundreds of greedy playouts


def batch_look(seed, first_game, cfg, out):
    """engine.batch with the lookahead kernel (blocks of LOOK_CHUNK games on the thread pool)."""
    run_in_blocks(play_block_look, out.shape[0], LOOK_CHUNK, (seed, first_game), (cfg, out))
