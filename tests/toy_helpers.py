"""The toy game of docs/adding-a-game.md (tests/toygame: High Card), as the tests see it: its registration
and its referee.

The toy lives in tests/, not in the analyzer: the tests that play it register it for their own duration
(the `test_games` fixture of conftest.py), so that the rest of the suite, which iterates over the shipped
games, never sees it. (tests/toyplugin packages it as a plugin: tests/test_plugins.py installs it.)"""
TEST_GAMES = {"toy": "toygame"}  # name -> module (tests/ is on sys.path: conftest.py)


def referee(events, row, arm):
    """The toy's referee, tests/toygame/referee.py, as check-game finds it (conformance.referee_of): through the
    registry, which imports the toy with its own numba cache folder (importing toygame here would not)."""
    from analyzer.conformance import referee_of

    referee_of("toy")(events, row, arm)
