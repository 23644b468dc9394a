"""The kernels of a game of the standard shape, written once (issue 27, "one shape for every game"): a new game
(docs/adding-a-game.md; the toy, tests/toygame) writes its rules in that shape and binds these to them.

The standard shape: a game is played on one int64 state array, which is also the search's position (its
decision point inside it), starting from a copy of the configuration encode made (encoded = (config,): the
state array with its configuration part filled). One module, `ops` (the game's search_ops.py: the search
contract, analyzer/games/search/contract.py, and the engine's functions it imports), provides:
- begin(st, rng, out, tr, on): a new game in st (out cleared, the game part cleared and dealt);
- play_turns(st, stop, rng, tr, on): the seats play by their policies until the game is over, or `stop`
  (stop_after's), or a seat that decides by the search is to move;
- play(st, cand, i, rng, tr, on): the seat to move makes the search's decision cand[i] (apply, traced);
- end_game(st, out, tr, on): the result row; returns the events written, or -1 if tr was too small;
- search_settings(st, seat): (samples, horizon, edge) of a seat that decides by the search; new_look(config):
  the search's scratch `look`; STREAMS: the random streams a game may draw on (its most: a stream is keyed
  by its number alone, so unused ones change nothing); MAX_DECISIONS and DECISION_WIDTH: the most decisions
  at a decision point and a decision row's width;
- the search contract; copy_position and key_playouts may be left out: DEFAULTS (copy the whole array;
  playouts that draw no random number need no key);
and writes its trace events with `emit` below.

bind(ops, name, ...) clones run and play_games with ops' functions as globals, as analyzer.games.search's
specialise binds the driver (for the same reasons: numba's cache, one compiled specialisation per game), and
returns the Game's batch and play_traced. The price of one kernel for every policy: a game whose seats never
search compiles the search too (once: it is cached); The Distance keeps a second kernel for its lookahead
seats for that reason (distance/kernels.py), and the shipped games write their kernels for speed.
"""
import types

import numpy as np
from numba import njit

from analyzer.games.base import record_events
from analyzer.games.search import specialise
from analyzer.rng import reset_streams
from analyzer.threads import run_in_blocks

NO_TRACE = np.zeros((1, 1), dtype=np.int64)  # the trace of an untraced game (never written)


@njit(cache=True, inline="always")
def emit(st, ne, tr, on, code, f1=0, f2=0, f3=0, f4=0, f5=0, f6=0, f7=0):
    """Append a trace event: its code, then its fields in the order the game's events.py declares them (exactly
    as many: tests/test_conformance.py checks every call), st[ne] counting the events written and st[ne + 1]
    set when tr is too small (ne: the first of two slots of the state); a trace row has 8 columns or more.
    Returns the event's row (its lists go from the events' list_at on), or -1: tracing is off, or tr is full."""
    if not on:
        return -1
    k = st[ne]
    if k >= tr.shape[0]:
        st[ne + 1] = 1
        return -1
    tr[k, 0], tr[k, 1], tr[k, 2], tr[k, 3] = code, f1, f2, f3
    tr[k, 4], tr[k, 5], tr[k, 6], tr[k, 7] = f4, f5, f6, f7
    st[ne] = k + 1
    return k


# (the template functions below are cloned per game by bind: their calls to begin, play_turns, ... go to its ops)
def _copy_position(src, dst, look):
    dst[:] = src[:]


def _key_playouts(key, look):
    pass


DEFAULTS = {"copy_position": _copy_position, "key_playouts": _key_playouts}


def run(st, rng, out, tr, on, sample, work, cand, sums, look):
    """A game in st, into out: the seats' turns by their policies (play_turns), a searching seat's by the search
    driver's lookahead; returns end_game's."""
    begin(st, rng, out, tr, on)  # noqa: F821  (this and the names below are ops', in the clones' globals)
    stop = stop_after(st, 0)  # noqa: F821
    while True:
        play_turns(st, stop, rng, tr, on)  # noqa: F821
        seat = to_move(st)  # noqa: F821
        if seat < 0:
            return end_game(st, out, tr, on)  # noqa: F821
        samples, horizon, edge = search_settings(st, seat)  # noqa: F821
        best = lookahead(st, samples, horizon, edge, rng, cand, sums, sample, work, look)  # noqa: F821
        play(st, cand, best, rng, tr, on)  # noqa: F821


def play_games(seed, first_game, lo, hi, config, out, tr, on):
    """Games first_game + lo .. first_game + hi - 1 into out[lo:hi], with one state array, random state and search
    scratch for them all (none allocated per game); a game depends only on (seed, its index). tr, on: the trace
    (with one game, the traced game); returns the last game's end_game."""
    rng = np.zeros(2 * STREAMS, dtype=np.uint64)  # noqa: F821
    st, sample, work = config.copy(), config.copy(), config.copy()
    cand = np.zeros((MAX_DECISIONS, DECISION_WIDTH), dtype=np.int64)  # noqa: F821
    sums = np.zeros(MAX_DECISIONS, dtype=np.int64)  # noqa: F821
    look = new_look(config)  # noqa: F821
    written = 0
    for i in range(lo, hi):
        reset_streams(rng, seed, first_game + i)
        written = run(st, rng, out[i], tr, on, sample, work, cand, sums, look)
    return written


def bind(ops, name, events, context, columns, trace_width, chunk=16):
    """The standard kernels bound to a game: an object with
    - batch(seed, first_game, config, out): the Game's batch (games in blocks of `chunk` on the thread pool);
    - play_traced(encoded, seed, game_index): the Game's play_traced, (events decoded by `events` with
      context(encoded), result row); `columns` the Game's, `trace_width` a trace row's width;
    - play_games, run, and search (the search driver bound to ops: analyzer.games.search.specialise).
    `name` names the specialisation (the clones' qualnames, hence their cache files)."""
    functions = {**DEFAULTS, **{k: v for k, v in vars(ops).items() if not k.startswith("__")}}
    for k in DEFAULTS:  # (a default is a plain function: jitted here, once per game)
        if functions[k] is DEFAULTS[k]:
            functions[k] = _clone(DEFAULTS[k], functions, name, {})
    search = specialise(types.SimpleNamespace(**functions), name)
    namespace = {**globals(), **functions, "lookahead": search.lookahead}
    bound = types.SimpleNamespace(search=search)
    bound.run = namespace["run"] = _clone(run, namespace, name, {})
    bound.play_games = _clone(play_games, namespace, name, {"nogil": True})

    def batch(seed, first_game, config, out):
        run_in_blocks(bound.play_games, out.shape[0], chunk, (seed, first_game), (config, out, NO_TRACE, np.int64(0)))

    def play_traced(encoded, seed, game_index):
        ctx = context(encoded)
        out = np.zeros((1, len(columns(ctx.players))), dtype=np.int64)
        rows = record_events(lambda buf: bound.play_games(np.uint64(seed), game_index, 0, 1, encoded[0], out, buf,
                                                          np.int64(1)), 128, trace_width)
        return [events.decode(row, ctx) for row in rows], out[0]

    bound.batch, bound.play_traced = batch, play_traced
    return bound


def _clone(fn, namespace, name, options):
    """fn jitted with `namespace` as its globals, its qualname carrying the game's name (see specialise)."""
    clone = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
    clone.__qualname__ = f"{fn.__qualname__}__{name}"
    clone.__module__ = fn.__module__
    clone.__doc__ = fn.__doc__
    return njit(cache=True, **options)(clone)
