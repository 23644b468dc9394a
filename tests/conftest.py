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


# the longest test files (seconds of a whole run, measured): started first, so that the two test processes of
# `make test` (pytest-xdist, a file per process) finish together rather than one waiting on the other's last
# long file (a 5% shorter run, simulated on measured file times); the rest keep their order
LONGEST_FIRST = ["test_report_answers.py", "test_signals.py", "test_summary_digests.py", "test_interrupts.py",
                 "test_api.py", "test_skill.py", "test_comparisons.py", "test_report_escaping.py",
                 "test_distributed.py", "test_bad_input_properties.py", "test_noize_search.py", "test_tune.py"]


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # (a stable sort)
