import atexit
import os
import sys
from pathlib import Path

import pytest

# a test process of `make test` (a pytest-xdist worker) ends as soon as its reports are sent and the exit handlers
# registered after this one (numba's, llvmlite's, multiprocessing's: everything imported later) have run: the
# interpreter's own teardown, freeing every object of the kernels it compiled, held the run's end 1-3 s
# (docs/performance.md). A worker's status is not read: its reports say how the tests went.
_XDIST_WORKER = []


def _end_a_worker_at_once():
    if _XDIST_WORKER:
        os._exit(0)


atexit.register(_end_a_worker_at_once)

sys.path.insert(0, str(Path(__file__).parent))
# the garbage collector as the `analyzer` command sets it (its full collections walk every object of a test
# process that has compiled kernels: 23.5 s of the suite's processes with Python's defaults, 8.3 s so)
from analyzer.__main__ import collect_less  # noqa: E402

collect_less()
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


@pytest.fixture(autouse=True, scope="session")
def figures_drawn_once():
    """A figure asked for again in this test process with the same data is copied from its first drawing (the same
    bytes: Agg draws the same pixels from the same data and settings), not drawn again. Tests that write the same
    report more than once (interrupted and whole runs, the API and the command, each thread count...) asked for 673
    figures, 381 of them different (docs/performance.md, issue 30's fifteenth session)."""
    import hashlib
    import pickle

    from analyzer.report import figures

    draw = figures._draw
    drawn = {}  # hash of (kind, args, kwargs) -> the PNG's bytes

    def draw_once(kind, path, args, kwargs):
        if not isinstance(path, (str, Path)):  # (a file object: drawn, neither kept nor written from what is kept)
            return draw(kind, path, args, kwargs)
        try:
            key = hashlib.sha1(pickle.dumps((kind, args, kwargs))).digest()
        except Exception:  # noqa: BLE001  (an argument that does not pickle: drawn)
            return draw(kind, path, args, kwargs)
        if key not in drawn:
            draw(kind, path, args, kwargs)
            drawn[key] = Path(path).read_bytes()
        else:
            Path(path).write_bytes(drawn[key])
        return path

    figures._draw = draw_once
    yield
    figures._draw = draw


# the longest test files of a cold run (make test on a fresh clone), longest first: the files that first need most
# kernels (their compiles, tests/compile_log.py) and the longest warm files, by seconds of CPU measured (tests33:
# a cold run's compile log, each file's CPU in a process of its own). Started first, so that the two test processes
# of `make test` (pytest-xdist, a file per process) compile early and finish together rather than one waiting on the
# other's last long file; the rest keep their order. pytest-xdist hands the files out in this order only with its
# reordering by test count off (pytest_configure): with it on, as it is by default, this list was ignored and the
# files with the most test cases went first (test_schema, test_bad_inputs, test_threads, test_conformance, ...).
# test_search_no_peeking after test_signals: started third, it waited 12 s for the Fight Song search kernel that
# test_conformance was compiling in the other process (a cold run's file locks waited on 28.5 s in all; 8.5 s so)
LONGEST_FIRST = ["test_conformance.py", "test_idle_settings.py", "test_signals.py", "test_search_no_peeking.py",
                 "test_report_answers.py", "test_bards_profile.py", "test_bad_input_properties.py",
                 "test_noize_search.py", "test_interrupts.py", "test_summary_digests.py", "test_api.py",
                 "test_comparisons.py", "test_bards_lookahead.py", "test_report_escaping.py", "test_tune.py",
                 "test_skill.py", "test_distance_search.py", "test_distributed.py"]


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # (set by pytest-xdist in its workers only)
        _XDIST_WORKER.append(True)
    if hasattr(config.option, "loadscopereorder"):  # (pytest-xdist >= 3.8)
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # (a stable sort)


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


# ANALYZER_COMPILE_NEEDS=path: at the end of the run, every numba signature the process compiled or loaded from the
# cache, a line each appended to path (tab-separated: the test files run, function, signature). Run one file per
# process to see which signatures only one file needs (`python tests/compile_log.py --needs path`). A callee loaded
# from the cache inside its caller's code is not listed: a file that calls it from Python seems its only user.
if os.environ.get("ANALYZER_COMPILE_NEEDS"):
    def pytest_sessionfinish(session):
        import gc

        from numba.core.dispatcher import Dispatcher

        files = ",".join(sorted({item.nodeid.split("::")[0] for item in session.items}))
        with open(os.environ["ANALYZER_COMPILE_NEEDS"], "a") as out:
            for d in gc.get_objects():
                try:
                    if not isinstance(d, Dispatcher):
                        continue
                except ReferenceError:  # (a weak proxy to an object gone: test_jit_setup leaves some)
                    continue
                name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
                out.writelines(f"{files}\t{name}\t({', '.join(map(str, sig))})\n" for sig in d.overloads)
