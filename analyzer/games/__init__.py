"""The registry of games: name -> Game (see analyzer/games/base.py for the contract).

A game is a module (a package, anywhere Python can import it) whose attribute GAME is its Game; a target
names it: "module" (its GAME) or "module:ATTRIBUTE". A game joins the registry (docs/adding-a-game.md) by
- an entry point of group `analyzer.games` in its package's metadata (pyproject.toml:
  `[project.entry-points."analyzer.games"]`, `name = "module"`): installing the package is enough. The
  entry points are read once per process, and only when needed (the list of games, a name not built in);
- `register(name, target)` in code (a test, a plugin's own start-up), or
- the environment variable ANALYZER_GAMES="name=target, ...", read at every look-up: the `analyzer`
  command, `python -m analyzer.games.events` and Dask workers (which inherit the environment) then know
  the game without a line of code or an installed package.
The name is the game's own (Game.name). register() wins over ANALYZER_GAMES, which wins over an entry point.

The four shipped games are declared as entry points in the analyzer's pyproject.toml like any other, and
are also built into _BUILT_IN, which wins over all three: they run from a source checkout whose metadata is
missing or older than its pyproject.toml, looking one up reads no metadata (start-up time), and no other
package can replace one.

A game from outside the analyzer package is imported with its own numba cache folder, named by its
sources (analyzer/jit_setup.py, cache_for): always get it through get_game, not by importing it first.
"""
import os
import sys
from collections import namedtuple
from importlib import import_module, util
from pathlib import Path

from analyzer import jit_setup  # noqa: F401  (numba set up before any game's kernels are defined)
from analyzer.errors import ScenarioError

GROUP = "analyzer.games"  # the entry point group
ENV = "ANALYZER_GAMES"
# the shipped games: the name used in scenarios and on the command line -> the module (as in pyproject.toml)
_BUILT_IN = {"noize": "analyzer.games.noize", "bards": "analyzer.games.bards",
             "distance": "analyzer.games.distance", "fightsong": "analyzer.games.fightsong"}
_REGISTERED = {}  # register()'s

# a game's target and where it was given (the `source` of the errors about it)
Entry = namedtuple("Entry", "target source")
_INSTALLED = None  # the entry points' {name: Entry}, once read


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
            out[name.strip()] = Entry(target.strip(), f"the environment variable {ENV}")
    return out


def _installed():
    """The installed packages' entry points of group GROUP, {name: Entry}, read once: a scan of every installed
    package's metadata, milliseconds, which a look-up of a built-in game never pays. One naming a built-in game
    must be the analyzer's own; two packages may not give one name two targets."""
    global _INSTALLED
    if _INSTALLED is None:
        from importlib.metadata import entry_points

        found = {}
        for ep in entry_points(group=GROUP):
            package = ep.dist.name if getattr(ep, "dist", None) is not None else "an installed package"
            entry = Entry(ep.value, f'{package}, [project.entry-points."{GROUP}"]')
            if _BUILT_IN.get(ep.name, ep.value) != ep.value:
                raise ScenarioError(entry.source, ep.name, ep.value,
                                    "a built-in game's name: another game needs a name of its own")
            if ep.name in found and found[ep.name].target != ep.value:
                raise ScenarioError(entry.source, ep.name, ep.value, f"{found[ep.name].source} gives this name "
                                    f"to {found[ep.name].target!r}: uninstall one of the two packages")
            found[ep.name] = entry
        _INSTALLED = found
    return _INSTALLED


def _entry(name):
    """The Entry of a game by its name, or None; the entry points are read only for a name not found before."""
    if name in _BUILT_IN:
        return Entry(_BUILT_IN[name], "the built-in games")
    if name in _REGISTERED:
        return Entry(_REGISTERED[name], "the game registry")
    return _from_env().get(name) or _installed().get(name)


def game_names():
    """The built-in games, then the installed ones (entry points), those of ANALYZER_GAMES and the registered."""
    table = {**_installed(), **_from_env(), **dict.fromkeys(_REGISTERED)}
    return list(_BUILT_IN) + [name for name in table if name not in _BUILT_IN]


def game_module(name):
    """The name of the module that holds a game (for tests that read a game's sources), or None."""
    entry = _entry(name)
    return None if entry is None else entry.target.partition(":")[0]


def get_game(name):
    """The Game registered under `name`, or None. A game from outside the analyzer package is imported (the
    first time) with numba caching its kernels in a folder of its own (jit_setup.cache_for). A target that
    cannot be imported, or that holds no Game of that name, is a ScenarioError naming where it was given."""
    entry = _entry(name)
    if entry is None:
        return None
    target, source = entry
    module, _, attribute = target.partition(":")
    if name in _BUILT_IN:
        return getattr(import_module(module), attribute or "GAME")
    if module not in sys.modules:
        try:
            spec = util.find_spec(module)  # (which imports its parent package, if it has one)
            if spec is None or spec.origin is None:
                raise ScenarioError(source, name, target, f"no module {module!r} can be imported")
            with jit_setup.cache_for(Path(spec.origin).parent):  # (a package's folder, or a module's)
                import_module(module)
        except ScenarioError:
            raise
        except ModuleNotFoundError as e:  # (its parent package, or a module it imports, is missing)
            raise ScenarioError(source, name, target, f"no module {module!r} can be imported ({e})") from e
        except Exception as e:  # (the game's own code is broken: said in one line, as a bad scenario is)
            raise ScenarioError(source, name, target,
                                f"importing {module!r} failed: {type(e).__name__}: {e}".rstrip(": ")) from e
    from analyzer.games.base import Game

    game = getattr(sys.modules[module], attribute or "GAME", None)
    if not isinstance(game, Game):
        raise ScenarioError(source, name, target, f"module {module!r} has no Game named {attribute or 'GAME'}")
    if game.name != name:
        raise ScenarioError(source, name, target,
                            f"this game is named {game.name!r}: register it under its own name")
    return game
