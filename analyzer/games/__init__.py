"""The registry of games: name -> Game (see analyzer/games/base.py for the contract)."""
from importlib import import_module

from analyzer import jit_setup  # noqa: F401  (numba set up before any game's kernels are defined)

# module name under analyzer.games -> the name used in scenarios and on the command line
_MODULES = {"noize": "noize", "bards": "bards", "distance": "distance", "fightsong": "fightsong"}


def get_game(name):
    if name not in _MODULES:
        return None
    return import_module(f"analyzer.games.{_MODULES[name]}").GAME


def game_names():
    return list(_MODULES)
