"""High Card's kernels: one game (play_game, traced or not) and a batch of games on the thread pool
(analyzer/threads.py). A lookahead seat decides by the search driver (analyzer/games/search) bound to
search_ops.py; rules.play_turns plays the other seats' turns."""
import numpy as np
from numba import njit

from analyzer.games.search import specialise
from analyzer.rng import new_streams, reset_streams
from analyzer.threads import run_in_blocks

from . import search_ops
from .rules import begin, end_game, play_card, play_turns
from .state import C_HAND, C_PLAYERS, MAXD, MAXH, O_HORIZON, O_SAMPLES, S_TO_MOVE, S_TRICK, ST_SIZE

SEARCH = specialise(search_ops, "toy")
lookahead = SEARCH.lookahead  # (a module global: numba reads jitted callees from globals)
CHUNK = 16  # games a block plays with one state array and scratch


@njit(cache=True)
def run(st, rng, out, tr, on, scratch):
    """Play a game in st (its configuration filled by encode) into out; end_game's return."""
    sample, work, cand, sums, look = scratch
    begin(st, rng, out, tr, on)
    while True:
        play_turns(st, st[C_HAND], rng, tr, on)
        if st[S_TRICK] >= st[C_HAND]:
            return end_game(st, out, tr, on)
        seat = st[S_TO_MOVE]  # a lookahead seat
        best = lookahead(st, st[O_SAMPLES + seat], st[O_HORIZON + seat], np.int64(0), rng, cand, sums, sample,
                         work, look)
        play_card(st, cand[best, 0], tr, on)


@njit(cache=True)
def new_scratch(n_streams):
    """The search's scratch (sample, work, cand, sums, look), allocated once per chunk of games."""
    look = (np.zeros(MAXD, np.int64), np.zeros(2 * n_streams, np.uint64), np.zeros((1, 1), np.int64))
    return (np.zeros(ST_SIZE, np.int64), np.zeros(ST_SIZE, np.int64), np.zeros((MAXH, 1), np.int64),
            np.zeros(MAXH, np.int64), look)


@njit(cache=True)
def play_game(seed, game, config, out, trace, on):
    """Game `game` of the run keyed by `seed` into out, its events into trace if on (0/1)."""
    n_streams = 1 + config[C_PLAYERS]
    return run(config.copy(), new_streams(seed, game, n_streams), out, trace, on, new_scratch(n_streams))


@njit(cache=True, nogil=True)
def play_chunk(seed, first_game, lo, hi, config, out):
    """Games first_game + lo .. first_game + hi - 1 into out[lo:hi], as play_game plays them."""
    n_streams = 1 + config[C_PLAYERS]
    st, rng, tr, scratch = config.copy(), new_streams(seed, first_game, n_streams), np.zeros((1, 1), np.int64), \
        new_scratch(n_streams)
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        run(st, rng, out[i], tr, np.int64(0), scratch)


def batch(seed, first_game, config, out):
    """Games first_game .. first_game + len(out) - 1 into out, on numba.get_num_threads() threads."""
    run_in_blocks(play_chunk, out.shape[0], CHUNK, (seed, first_game), (config, out))
