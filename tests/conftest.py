import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# the conformance checks are the analyzer's (`analyzer check-game`), asserted in plain Python: pytest's
# messages for them, as for a test's own asserts (before any test imports the module)
pytest.register_assert_rewrite("analyzer.conformance")


@pytest.fixture
def test_games():
    """The games that live in tests/ (toy_helpers.TEST_GAMES: the toy of docs/adding-a-game.md) registered for
    one test (analyzer.games.register), and removed after it; the test modules that play them parametrise over
    game_names() + list(TEST_GAMES) and use this fixture."""
    from analyzer.games import register, unregister
    from toy_helpers import TEST_GAMES

    for name, module in TEST_GAMES.items():
        register(name, module)
    yield TEST_GAMES
    for name in TEST_GAMES:
        unregister(name)
