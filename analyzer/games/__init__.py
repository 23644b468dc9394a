"""The registry of games: name -> Game (see analyzer/games/base.py for the contract).

The four shipped games are built in. Any other game is a module (a package, anywhere Python can import
it) whose attribute GAME is its Game, added to the registry (docs/adding-a-game.md) by either
- `register(name, "package.module")` in code (a test, a plugin's own start-up), or
- the environment variable ANALYZER_GAMES="name=package.module, ...", read at every look-up: the
  `analyzer` command, `python -m analyzer.games.events` and Dask workers (which inherit the environment)
  then know the game without a line of code.
A target is "module" (its GAME) or "module:ATTRIBUTE", the form of an entry point's value, so that the
entry points of issue 33 (group `analyzer.games`, name = the game's name) can feed the same table.

A game from outside the analyzer package is imported with its own numba cache folder, named by its
sources (analyzer/jit_setup.py, cache_for): always get it through get_game, not by importing it first.
"""
import os
import sys
from importlib import import_module, util
from pathlib import Path

from analyzer import jit_setup  # noqa: F401  (numba set up before any game's kernels are defined)
from analyzer.errors import ScenarioError

# the shipped games: the name used in scenarios and on the command line -> the module
_BUILT_IN = {"noize": "analyzer.games.noize", "bards": "analyzer.games.bards",
             "distance": "analyzer.games.distance", "fightsong": "analyzer.games.fightsong"}
_REGISTERED = {}  # register()'s
ENV = "ANALYZER_GAMES"


def register(name, target):
    """Add a game: `name` as scenarios and the command line write it (its Game.name), `target` the module
    holding it ("package.module", its GAME, or "package.module:ATTRIBUTE"). Registering a name again
    replaces it; a built-in game cannot be replaced."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in game")
    _REGISTERED[name] = target


def unregister(name):
    """Remove a game register() added (nothing if it has none)."""
    _REGISTERED.pop(name, None)


def _from_env():
    """The games ANALYZER_GAMES names: "name=module[:ATTRIBUTE]", separated by commas."""
    out = {}
    for item in os.environ.get(ENV, "").split(","):
        if item.strip():
            name, eq, target = item.partition("=")
            if not eq or not name.strip() or not target.strip():
                raise ScenarioError("the environment", ENV, os.environ[ENV],
                                    f"{item.strip()!r} is not name=module[:ATTRIBUTE] (comma-separated)")
            out[name.strip()] = target.strip()
    return out


def _table():
    return {**_from_env(), **_REGISTERED, **_BUILT_IN}


def game_names():
    """The built-in games, then the registered ones."""
    return list(_BUILT_IN) + [name for name in _table() if name not in _BUILT_IN]


def game_module(name):
    """The name of the module that holds a game (for tests that read a game's sources), or None."""
    target = _table().get(name)
    return None if target is None else target.partition(":")[0]


def get_game(name):
    """The Game registered under `name`, or None. A game from outside the analyzer package is imported (the
    first time) with numba caching its kernels in a folder of its own (jit_setup.cache_for)."""
    target = _table().get(name)
    if target is None:
        return None
    module, _, attribute = target.partition(":")
    if name in _BUILT_IN:
        return getattr(import_module(module), attribute or "GAME")
    if module not in sys.modules:
        try:
            spec = util.find_spec(module)
        except ModuleNotFoundError:  # (its parent package is missing)
            spec = None
        if spec is None or spec.origin is None:
            raise ScenarioError("the game registry", name, target, f"no module {module!r} can be imported")
        with jit_setup.cache_for(Path(spec.origin).parent):  # (a package's folder, or a module's)
            import_module(module)
    game = getattr(sys.modules[module], attribute or "GAME")
    if game.name != name:
        raise ScenarioError("the game registry", name, target,
                            f"this game is named {game.name!r}: register it under its own name")
    return game
