"""One search driver for every game (issue 27): the search loops are written once (driver.py) against a small
contract (contract.py) that each game implements in analyzer/games/<game>/search_ops.py.

Users: each game's `lookahead` policy is driver.lookahead (flat Monte Carlo) with the game's contract; the
information-set tree search of issue 28 is to be written against the same contract.

How a game implements the contract (a new game, say a toy fifth one):
1. Decide what a position is: the game's state at a decision point, with the decision point in it (whose
   decision, the turn, how the game ended). The Distance: its state array, with S_TO_MOVE, S_TURNS, S_DRY,
   S_END. Decide what a decision row holds (The Distance: kind, notes, wilds, letter).
2. Write analyzer/games/<game>/search_ops.py: every name of contract.NAMES as a numba function
   (@njit(cache=True)), built from the engine's own pieces (apply and playout are the engine's turn, and its
   turn loop given a stop), so that every rule is written once. Put the playouts' scratch in a tuple `look`.
   (Thin contract functions around a large jitted callee, such as a playout that is the engine's whole game
   loop, are better inline="always": numba links and re-optimises a callee into every jitted layer above it,
   Fight Song's search_ops.)
3. Bind the driver once, at import of the module that uses it (the game's lookahead.py):
       SEARCH = specialise(search_ops, "<game>")
   and call SEARCH.lookahead from a jitted decision function, with the scratch allocated once per chunk of
   games (cand: the game's most decisions x its row width; sums; two positions: sample and work).
4. Keep the layers one way: engine <- search_ops <- lookahead <- kernels (the batch entry that picks the
   plain or the lookahead kernel) <- the game's __init__ and trace; the engine never imports its lookahead
   (tests/test_search.py). The lookahead kernel plays the game with the engine's own pieces and hands a
   lookahead seat's decision to the search: by its own game loop (The Distance), by the engine's loop stopping
   before that seat's move when given a hand-over (Bring the Noize: engine._bidding), or, when the decision
   is made deep inside the engine's loop, by `rebind`: the loop's functions cloned with the lookahead's
   decision bound to a name the engine leaves unbound (Fight Song: engine.LOOKAHEAD_LOOP, choose_lookahead).
   tests/test_search.py also plays a toy game through the driver: the smallest complete example of the
   contract.

How the binding works (specialise; rebind likewise), and why this way (numba 0.68, measured). Passing the
game's jitted functions to a jitted driver as arguments breaks numba's on-disk cache: a dispatcher's type
carries the object's address, so every process misses the cache and the caller "cannot be cached: uses dynamic
globals". Instead `specialise` clones each driver function (a new function object on the same code) with
globals of its own: driver.py's globals, the game's contract functions under the contract's names, and the
other driver functions' clones (so a driver function calling another reaches the same game's clone). numba
then sees ordinary global functions, as in hand-written code, compiles one specialisation per game (like a C++
template) and caches it; each clone's qualname carries the game's name (lookahead__distance), which keeps the
cache index files of the games apart. A clone's cache cannot go stale when a game's search_ops changes: the
analyzer's cache folder is named by a hash of every numba source file (analyzer/jit_setup.py).
"""
import types

from numba import njit

from analyzer.games.search import defaults, driver, tree  # noqa: F401  (tree: its driver functions register)
from analyzer.games.search.contract import NAMES, OPTIONAL


def specialise(ops, game, cache=True):
    """The driver functions bound to one game: an object with every driver function (lookahead, ...) as a
    jitted function calling `ops`' contract functions (ops: a module, or any object with those attributes).
    `game` names the specialisation (the clones' qualnames, hence their cache files)."""
    missing = [name for name in NAMES if not hasattr(ops, name)]
    if missing:
        raise TypeError(f"{game}: the search contract lacks {', '.join(missing)}")
    module_globals = {}
    for fn, _ in driver.DRIVER_FUNCTIONS:  # the globals of every module holding driver functions (driver, tree)
        module_globals.update(fn.__globals__)
    bindings = {name: getattr(ops, name) for name in NAMES}
    for name in OPTIONAL:
        bindings[name] = getattr(ops, name, getattr(defaults, name))
    return rebind(driver.DRIVER_FUNCTIONS, module_globals, bindings, game, cache=cache)


def rebind(functions, module_globals, bindings, tag, cache=True):
    """Clones of `functions` (each a (Python function, numba options) pair, or a numba dispatcher, whose own
    options are kept) jitted with globals of their own: module_globals (the functions' module's), with
    `bindings` (name -> object) in place of those names and each clone under its function's name, so that a
    clone calling another of `functions` reaches the clone. Returns them as an object's attributes, by name.

    Used by specialise (the driver bound to a game's contract), and by a game whose engine calls its lookahead
    from deep inside its game loop (Fight Song): its lookahead kernel is the loop's functions cloned with the
    lookahead's decision bound in, so that the engine never imports the lookahead. `tag` is added to the
    clones' qualnames: the cache files of different bindings stay apart."""
    namespace = dict(module_globals)
    namespace.update(bindings)
    bound = {}
    for entry in functions:
        fn, options = entry if isinstance(entry, tuple) else (entry.py_func, _options(entry))
        clone = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
        clone.__qualname__ = f"{fn.__qualname__}__{tag}"
        clone.__module__ = fn.__module__
        clone.__doc__ = fn.__doc__
        bound[fn.__name__] = namespace[fn.__name__] = njit(cache=cache, **options)(clone)
    return types.SimpleNamespace(**bound)


def _options(dispatcher):
    """A dispatcher's numba options, as njit takes them (njit sets nopython itself)."""
    return {k: v for k, v in dispatcher.targetoptions.items() if k != "nopython"}
