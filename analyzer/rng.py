"""Counter-based random numbers for the numba kernels.

A stream is a (key, counter) pair; each draw is SplitMix64's finaliser applied to
key + counter * GOLDEN. The key is derived from (master seed, game index, stream number), so every
draw depends on those three numbers and the draw's position in its stream, and on nothing else: not
on threads, chunks or the order games run in. Any single game can be replayed on its own.

Stream 0 is the deal (every shuffle of the game); stream 1 + s holds seat s's decisions. Two variants
of a scenario therefore see the very same shuffles (common random numbers), and a policy keeps its
own stream whatever the others do.

A game index at or above 2**REPLAY_SHIFT replays a deal with other decisions (`analyzer profile`'s luck
split): game `deal + (replay << REPLAY_SHIFT)` keys its deal stream as game `deal` does and its decision
streams as its own. Below 2**REPLAY_SHIFT (every run's games) both keys are the game's own.

State layout: a uint64 array of length 2 * n_streams, [key0, ctr0, key1, ctr1, ...].
"""
import numpy as np

from analyzer import jit_setup  # noqa: F401  (numba set up before the kernels below are defined)
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GAME_SALT = np.uint64(0xD1B54A32D192ED03)
_STREAM_SALT = np.uint64(0x8CB92BA72F3D8DD7)
_ONE = np.uint64(1)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53

DEAL = 0
REPLAY_SHIFT = 40  # game index bits above this number a replay of the deal below them (see the module's doc)
_DEAL_MASK = np.uint64((1 << REPLAY_SHIFT) - 1)


def seat_stream(seat):
    """Stream number of a seat's decisions (documentation helper; kernels use 1 + seat)."""
    return 1 + seat


# The draws (mix64, next_u64, uniform, _scaled, below) are inlined by LLVM (forceinline), not by numba
# (inline="always"): numba types and lowers an inlined function again at each of its call sites (131 of them in a
# Noize skill scenario's kernels), where one compiled once is inlined into each caller by LLVM: cold compiles of the
# skill scenarios take 6-13% less CPU, the kernels are no slower, the games the same (docs/performance.md, twentieth
# session).
@njit(cache=True, forceinline=True)
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _game_key(seed, game):
    k = mix64(np.uint64(seed) + GOLDEN)
    return mix64(k ^ (np.uint64(game) * _GAME_SALT + GOLDEN))


@njit(cache=True, inline="always")
def _deal_game(game):
    """The game whose deal stream game `game` shares: itself, or the deal it replays."""
    return np.uint64(game) & _DEAL_MASK


@njit(cache=True)
def stream_key(seed, game, stream):
    keyed_by = _deal_game(game) if stream == DEAL else np.uint64(game)
    return mix64(_game_key(seed, keyed_by) ^ (np.uint64(stream) * _STREAM_SALT + GOLDEN))


@njit(cache=True)
def new_streams(seed, game, n_streams):
    """Fresh state for every stream of one game."""
    state = np.zeros(2 * n_streams, dtype=np.uint64)
    for s in range(n_streams):
        state[2 * s] = stream_key(seed, game, s)
    return state


@njit(cache=True)
def reset_streams(state, seed, game):
    """Re-key an existing state array for another game (no allocation)."""
    game_key = _game_key(seed, game)  # (as stream_key, computed once for all the game's decision streams)
    deal_key = game_key if np.uint64(game) <= _DEAL_MASK else _game_key(seed, _deal_game(game))
    state[2 * DEAL] = mix64(deal_key ^ GOLDEN)  # (stream 0: its salt term is 0)
    state[2 * DEAL + 1] = np.uint64(0)
    for s in range(1, state.shape[0] // 2):
        state[2 * s] = mix64(game_key ^ (np.uint64(s) * _STREAM_SALT + GOLDEN))
        state[2 * s + 1] = np.uint64(0)


@njit(cache=True, forceinline=True)
def next_u64(state, stream):
    c = state[2 * stream + 1] + _ONE
    state[2 * stream + 1] = c
    return mix64(state[2 * stream] + c * GOLDEN)


@njit(cache=True, forceinline=True)
def uniform(state, stream):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(state, stream) >> np.uint64(11)) * _TO_UNIT


@njit(cache=True, forceinline=True)
def _scaled(draw, n):
    """An integer in [0, n), n < 2**32, from a 64-bit draw's high 32 bits (multiply-shift; bias below n / 2**32)."""
    return np.int64(((draw >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, forceinline=True)
def below(state, stream, n):
    """An integer in [0, n), n < 2**32."""
    return _scaled(next_u64(state, stream), n)


@njit(cache=True, inline="always")
def _swap(arr, i, j):
    t = arr[i]
    arr[i] = arr[j]
    arr[j] = t


@njit(cache=True)
def shuffle(state, stream, arr, n):
    """Fisher-Yates shuffle of arr[:n] in place.

    The draws are `below(state, stream, i + 1)`, with the stream's key and counter held in registers
    rather than re-read from `state` at every card."""
    key = state[2 * stream]
    ctr = state[2 * stream + 1]
    for i in range(n - 1, 0, -1):
        ctr += _ONE
        _swap(arr, i, _scaled(mix64(key + ctr * GOLDEN), i + 1))
    state[2 * stream + 1] = ctr


@njit(cache=True, inline="always")
def _partner(key, ctr, n, i):
    """The position item i swaps with in a shuffle of n items (the swaps go from i = n - 1 down to 1, the stream's
    draws in that order, from counter ctr): below(i + 1) of draw n - i, computed from the counter without a
    dependence between draws."""
    return _scaled(mix64(key + (ctr + np.uint64(n - i)) * GOLDEN), i + 1)


@njit(cache=True, inline="always")
def shuffle_drawn(state, stream, arr, n, draws):
    """The permutation `shuffle` makes, twice as fast for a hot loop: the n - 1 draws are taken first, into
    draws[0 .. n-2] (any int64 scratch the caller can spare), in a loop with no dependence between
    iterations that LLVM vectorises (AVX-512: eight SplitMix64 finalisers at once); then the swaps."""
    key = state[2 * stream]
    ctr = state[2 * stream + 1]
    for k in range(n - 1):
        draws[k] = _partner(key, ctr, n, n - 1 - k)
    for k in range(n - 1):  # (unsigned indices: no wraparound of negative ones to compute)
        _swap(arr, np.uint64(n - 1 - k), np.uint64(draws[k]))
    state[2 * stream + 1] = ctr + np.uint64(max(n - 1, 0))


@njit(cache=True, inline="always")
def swap_partners(state, stream, n, partner):
    """The draws of `shuffle` (the same permutation), for a caller that does the swaps itself: partner[i], i = 1 ..
    n - 1, is the position item i is swapped with, the swaps going from i = n - 1 down to 1 (partner[0] is not
    written). Vectorised as shuffle_drawn's draws; a caller can fold work of its own into the swap loop (Bring the
    Noize: its deck's prefix sums, each card being final once its swap is done)."""
    key = state[2 * stream]
    ctr = state[2 * stream + 1]
    for i in range(1, n):
        partner[i] = _partner(key, ctr, n, i)
    state[2 * stream + 1] = ctr + np.uint64(max(n - 1, 0))
