import os
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


# ANALYZER_COMPILE_LOG=path: every numba compile of the run, a line per compile appended to path (tab-separated:
# worker, test, seconds of CPU, function, signature), to find the tests that compile what no other test needs
# (tests/compile_log.py; `python tests/compile_log.py --suite path` sums the lines up).
if os.environ.get("ANALYZER_COMPILE_LOG"):
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        from compile_log import CompileLog

        with CompileLog() as log:
            yield
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(os.environ["ANALYZER_COMPILE_LOG"], "a") as out:
            out.writelines(f"{worker}\t{item.nodeid}\t{r['self']:.3f}\t{r['name']}\t{r['sig']}\n" for r in log.records)
