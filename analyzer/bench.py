"""`analyzer bench` / `make bench`: figures, not pass/fail.

For each case: warm games per second of the batch kernel alone and of the whole runner (kernel +
streaming summaries), on every core numba uses, each the best of REPEATS runs. Then, per game, in
fresh processes with an empty numba cache directory: the cold start (compiling its kernels), and once
the cache is warm, the start until a small run's games are played and the same run with its report. `--only start`
runs just the start-up figures; `--only skill` the cold start of each game's skill scenario (every level's kernels:
minutes in all, never in a plain `make bench`). With a C compiler, the Noize and Distance cases are also timed against
the hand-written C programs ../shared/reference/noize.c and distance.c (C_REFERENCES), built and timed in the same
run at 1 and 2 threads, alternated with the analyzer's case at the same thread count (the machine is shared:
only same-run ratios compare). A case in BASELINES is also timed on an earlier revision's code (from this checkout's git
history), alternated with this code, and printed as the ratio now / then.
Then, per game with a `search` policy, the tree search's speed at SEARCH_BUDGETS: decisions and playouts per
second, counted by the search itself (tree.COUNT_*), not estimated. Then the search of each shipped tune scenario
(`analyzer tune`, TUNE_TRIALS trials without the race): trials per minute (`--only tune` runs just these).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

import numba
import numpy as np

CASES = {
    "noize: 4 threshold players": {"game": "noize", "players": 4, "all_seats": {"policy": "threshold"}},
    "noize: 4 threshold, bluff 0 (as noize.c)": {
        "game": "noize", "players": 4, "all_seats": {"policy": "threshold", "bluff": 0.0, "compare_raise": False}},
    "noize: 4 random players": {"game": "noize", "players": 4, "all_seats": {"policy": "random"}},
    # timed on BENCH_GAMES games, as the Distance lookahead: each decision plays every candidate on `samples` redeals
    "noize: lookahead vs 3 threshold": {"game": "noize", "players": 4, "all_seats": {"policy": "threshold"},
                                        "seats": {"0": {"policy": "lookahead"}}, "bench_games": 10_000},
    "bards: greedy split + greedy play": {"game": "bards", "players": 2,
                                         "all_seats": {"policy": "greedy", "play": "greedy"}},
    # each split plays the 30 candidates on `samples` reshuffles for two turns: timed on 2,000 games (about 15 s)
    "bards: lookahead vs greedy": {"game": "bards", "players": 2, "all_seats": {"policy": "greedy"},
                                   "seats": {"0": {"policy": "lookahead"}}, "bench_games": 2_000},
    "distance: 4 greedy players": {"game": "distance", "players": 4, "all_seats": {"policy": "greedy"}},
    "distance: 4 random players": {"game": "distance", "players": 4, "all_seats": {"policy": "random"}},
    # a lookahead game costs hundreds of greedy playouts: timed on BENCH_GAMES games, not the bench's million
    "distance: lookahead vs 3 greedy": {"game": "distance", "players": 4, "all_seats": {"policy": "greedy"},
                                        "seats": {"0": {"policy": "lookahead"}}, "bench_games": 10_000},
    "fightsong: 4 greedy players": {"game": "fightsong", "players": 4, "all_seats": {"policy": "greedy"}},
    # the same games by the general game loop, not the greedy fast path (fightsong/fast.py: general_path)
    "fightsong: 4 greedy players (general path)": {"game": "fightsong", "players": 4,
                                                   "all_seats": {"policy": "greedy"}, "general_path": True},
    "fightsong: 4 team players": {"game": "fightsong", "players": 4, "all_seats": {"policy": "team"}},
    # a lookahead game costs hundreds of greedy playouts: timed on BENCH_GAMES games, not the bench's million
    "fightsong: lookahead vs greedy": {"game": "fightsong", "players": 4, "all_seats": {"policy": "greedy"},
                                       "seats": {"0": {"policy": "lookahead"}}, "bench_games": 10_000},
    "bards: random": {"game": "bards", "players": 2,
                      "all_seats": {"policy": "random", "play": "random", "choose": "random", "setup": "random"}},
}


def _general_path(on):
    """Fight Song's general game loop in place of its greedy fast path, if on (a case's "general_path")."""
    from contextlib import nullcontext

    if not on:
        return nullcontext()
    from analyzer.games.fightsong.fast import general_path

    return general_path()


REPEATS = 3  # each warm figure is the best of this many runs, as the C program reports its best of 3


def case_batch(raw, games):
    """A case's scenario of `games` games (seed 1), its first arm encoded and rows for them: what the warm figures
    (and `--where`, kernel_profile.play) play with game.run_batch."""
    from analyzer.scenario import from_dict

    sc = from_dict({**raw, "games": games, "seed": 1})
    return sc, sc.arms[0].encoded(sc.game), np.empty((games, len(sc.game.columns(sc.players))), dtype=np.int64)


def _warm(raw, games):
    from analyzer.runner import run

    sc, enc, out = case_batch(raw, games)
    game = sc.game
    game.run_batch(enc, 1, 0, out[:1000])  # compile or load from cache
    kernel = full = 0.0
    for _ in range(REPEATS):  # (the machine is shared: the best run is the least disturbed one)
        t = time.perf_counter()
        game.run_batch(enc, 1, 0, out)
        kernel = max(kernel, games / (time.perf_counter() - t))
        full = max(full, run(sc, progress=False).games_per_second)
    return kernel, full


SEARCH_BUDGETS = (64, 256)
SEARCH_ITERATIONS = 4096 * 64  # games per timing = this / budget / (about 64 decisions a game): seconds, not minutes


def search_cases(only=None):
    """(name, game, budget) for every game with a `search` policy (and a counting block entry), at SEARCH_BUDGETS."""
    from analyzer.games import game_names, get_game

    cases = []
    for name in game_names():
        game = get_game(name)
        if game.policy("search") is None or game.search_block is None:
            continue
        for budget in SEARCH_BUDGETS:
            label = f"{name}: search {budget} vs {game.default_policy}"
            if not only or only in label:
                cases.append((label, game, budget))
    return cases


def _search_speed(game, budget):
    """(decisions/s, playouts/s, decisions per game) of `search` at `budget` in seat 0 against the game's default
    policy, 2 players, on one thread (the kernel's block entry), the best of REPEATS timings."""
    from analyzer.games.search.tree import COUNT_DECISIONS, COUNT_PLAYOUTS
    from analyzer.scenario import from_dict

    games = max(4, SEARCH_ITERATIONS // budget // 64)
    sc = from_dict({"game": game.name, "games": games, "seed": 1, "players": 2,
                    "all_seats": {"policy": game.default_policy}, "seats": {"0": {"policy": "search", "budget": budget}}})
    enc = sc.arms[0].encoded(game)
    out = np.empty((games, len(game.columns(2))), dtype=np.int64)
    game.search_block(np.uint64(1), 0, 0, 1, *enc, out)  # compile or load from cache
    best = None
    for _ in range(REPEATS):
        t = time.perf_counter()
        counts = game.search_block(np.uint64(1), 0, 0, games, *enc, out)
        dt = time.perf_counter() - t
        if best is None or dt < best[0]:
            best = dt, int(counts[COUNT_DECISIONS]), int(counts[COUNT_PLAYOUTS])
    dt, decisions, playouts = best
    return decisions / dt, playouts / dt, decisions / games


# The hand-written C programs (../shared/reference, beside the repository, not in the package): the yardsticks
# of the Noize and Distance kernels. Each plays the same game with the same policy as one bench case; both are
# timed at 1 and 2 threads with the analyzer's case at the same thread count, in the same run.
REFERENCE_DIR = os.environ.get("ANALYZER_REFERENCE_DIR",
                               os.path.join(os.path.dirname(__file__), "..", "..", "shared", "reference"))
C_REFERENCES = {  # bench case -> the C program's source file
    "noize: 4 threshold, bluff 0 (as noize.c)": "noize.c",
    "distance: 4 greedy players": "distance.c",
}
C_THREADS = (1, 2)


def _build_c(source, folder):
    """The C program built in folder (its path), or None with the reason printed."""
    import shutil

    path = os.path.join(REFERENCE_DIR, source)
    cc = shutil.which("gcc") or shutil.which("cc")
    if not os.path.exists(path) or cc is None:
        print(f"C reference {source}: not measured ({'no C compiler' if cc is None else 'no ' + path})")
        return None
    exe = os.path.join(folder, source[:-2])
    build = subprocess.run([cc, "-std=c11", "-O3", "-march=native", "-fopenmp", "-o", exe, path, "-lm"],
                           capture_output=True, text=True)
    if build.returncode != 0:
        print(f"C reference {source}: not measured (the build failed: {build.stderr.strip().splitlines()[-1:]})")
        return None
    return exe


def _time_c(exe, games, threads):
    """The C program's games/s with `threads` threads (its best of 3 runs), or None."""
    import re

    res = subprocess.run([exe, "-t", str(threads), "-r", "3", "-n", str(games)], capture_output=True, text=True)
    found = re.search(r"best [0-9.]+ s = ([0-9]+) games/s", res.stdout)
    if res.returncode != 0 or not found:
        print(f"C reference {os.path.basename(exe)}: not measured (unexpected output)")
        return None
    return float(found.group(1))


def compare_with_c(cases, games):
    """For each case with a C yardstick: the analyzer's kernel and whole run against the C program at 1 and 2
    threads, timed alternately (C, analyzer, C: the C program's best kept, so that neither side is timed only in a
    busier part of the shared machine's run). Prints one line per case and thread count; returns
    {(case, threads): (kernel, whole run, C)} in games/s."""
    chosen = [(name, raw) for name, raw in cases if name in C_REFERENCES]
    if not chosen:
        return {}
    figures = {}
    before = numba.get_num_threads()
    print(f"{'against hand-written C':40s} {'threads':>7s} {'C games/s':>13s} {'kernel / C':>10s} {'run / C':>8s}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, raw in chosen:
            exe = _build_c(C_REFERENCES[name], tmp)
            if exe is None:
                continue
            raw = dict(raw)
            raw.pop("bench_games", None)
            for threads in C_THREADS:
                if threads > (os.cpu_count() or 1):
                    continue
                c_first = _time_c(exe, max(games, 1_000_000), threads)
                numba.set_num_threads(threads)
                try:
                    kernel, full = _warm(raw, games)
                finally:
                    numba.set_num_threads(before)
                c_speed = max(c_first or 0, _time_c(exe, max(games, 1_000_000), threads) or 0)
                if not c_speed:
                    continue
                figures[name, threads] = kernel, full, c_speed
                print(f"{name:40s} {threads:7d} {c_speed:13,.0f} {kernel / c_speed:10.2f} {full / c_speed:8.2f}",
                      flush=True)
    return figures


# bench case -> (git revision, what that code was): the case timed on that revision's code as well, in the same run,
# where an issue's goal is a gain over earlier code and there is no C yardstick (issue 30: Battle of the Bards' greedy
# kernel 1.5x the code of the day the issue was filed). Fight Song's old kernel is in the run itself (its general
# path: the "(general path)" case).
BASELINES = {"bards: greedy split + greedy play": ("b6128c4", "issue 30's base")}
BASELINE_GAMES = 200_000  # games a timing (the case's games if fewer): seconds a run, at Bards' speed
ROOT = os.path.join(os.path.dirname(__file__), "..")


def _baseline_tree(rev, folder):
    """The files of revision `rev` of this checkout's git history, extracted into folder; None (the reason printed)
    when there is no such history (an installed copy, a source archive) or no git."""
    import shutil

    if shutil.which("git") is None or shutil.which("tar") is None:
        print(f"baseline {rev}: not measured (no git or tar)")
        return None
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev], capture_output=True)
    if archive.returncode != 0:
        print(f"baseline {rev}: not measured (this checkout's git history has no {rev})")
        return None
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
    return folder


def _case_row(name, kernel, full):
    """The line `analyzer bench` prints for a case (read back by _case_line, from earlier code's bench too)."""
    return f"{name:40s} {kernel:15,.0f} {full:13,.0f} {full / kernel:10.2f}"


def _case_line(output, case):
    """(kernel, whole run) games/s from the line (_case_row) `analyzer bench` printed for `case`, or None."""
    width = max(40, len(case))  # (the name's field: _case_row pads it to 40 characters)
    for line in output.splitlines():
        if line[:width].rstrip() == case:
            fields = line[width:].split()
            try:
                return float(fields[0].replace(",", "")), float(fields[1].replace(",", ""))
            except (IndexError, ValueError):
                return None
    return None


def _time_baseline(folder, cache, case, games):
    """(kernel, whole run) games/s of `case` by the bench of the code in folder (its own numba cache), or None."""
    res = subprocess.run([sys.executable, "-m", "analyzer", "bench", "--only", case, "--games", str(games)],
                         cwd=folder, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": folder, "NUMBA_CACHE_DIR": cache})
    return _case_line(res.stdout, case) if res.returncode == 0 else None


def compare_with_baselines(cases, games):
    """For each case in BASELINES: its kernel and whole run now against the same case on the earlier code, timed
    alternately (then, now, then, now: each side's best kept). Prints one line per case; returns
    {case: (kernel now, run now, kernel then, run then)} in games/s."""
    chosen = [(name, raw) for name, raw in cases if name in BASELINES]
    if not chosen:
        return {}
    figures = {}
    print(f"{'against earlier code':40s} {'revision':>9s} {'then games/s':>13s} {'kernel x':>9s} {'run x':>6s}")
    for name, raw in chosen:
        rev, what = BASELINES[name]
        raw = dict(raw)
        n = min(games, raw.pop("bench_games", games), BASELINE_GAMES)
        with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as cache:
            if _baseline_tree(rev, folder) is None:
                continue
            then = [_time_baseline(folder, cache, name, n)]
            now = [_warm(raw, n)]
            then.append(_time_baseline(folder, cache, name, n))
            now.append(_warm(raw, n))
        then = [t for t in then if t is not None]
        if not then:
            print(f"baseline {rev}: not measured (its bench printed no line for {name!r})")
            continue
        kernel_then, full_then = max(k for k, _ in then), max(f for _, f in then)
        kernel, full = max(k for k, _ in now), max(f for _, f in now)
        figures[name] = kernel, full, kernel_then, full_then
        print(f"{name:40s} {rev:>9s} {kernel_then:13,.0f} {kernel / kernel_then:9.2f} {full / full_then:6.2f}"
              f"   ({what})", flush=True)
    return figures


# a cached start without the report: the interpreter, the imports, the scenario, the kernels loaded from
# the cache, the games played and folded (the report's time grows with its variants and plots, not the start)
START_PROBE = ("import sys; from analyzer import runner, scenario; "
               "runner.run(scenario.load(sys.argv[1], [('games', 1000, '--games')]), progress=False)")


TUNE_SCENARIOS = ("noize-tune-first-bidder.toml", "bards-tune-close-games.toml", "distance-tune-length.toml",
                  "fightsong-tune-first-team.toml")
TUNE_TRIALS = 8  # trials timed per tune scenario (its own deals per trial), kernels warm, without the race


def tune_speed():
    """Trials per minute of each shipped tune scenario's search (analyzer tune), warm."""
    from analyzer import tuning as T
    from analyzer.games import game_names

    print(f"{'tune search (warm, no race)':40s} {'trials/min':>15s} {'deals/trial':>13s} {'pruned':>10s}")
    for name in TUNE_SCENARIOS:
        path = os.path.join(SCENARIOS, name)
        if not os.path.exists(path):
            continue
        sc, spec = T.load(path, [("tune.trials", TUNE_TRIALS)])
        if sc.game.name not in game_names():
            continue
        _warm({k: v for k, v in sc.raw.items() if k not in ("tune", "name", "description", "question")}, 1_000)
        t = time.perf_counter()
        result = T.tune(sc, spec, race=False)
        minutes = (time.perf_counter() - t) / 60
        pruned = sum(tr.state == "pruned" for tr in result.run.trials)
        print(f"{'tune: ' + name[:-5]:40s} {len(result.run.trials) / minutes:15,.1f} {spec.games:13,} "
              f"{pruned:>4} of {len(result.run.trials)}", flush=True)


def _timed(cmd, env):
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


SCENARIOS = os.path.join(ROOT, "scenarios")
# (game, scenario) timed for the start-up figures: one plain scenario per game, and each game's skill scenario
START_SCENARIOS = (("noize", "noize-4p.toml"), ("bards", "bards-greedy.toml"), ("distance", "distance-policies.toml"),
                   ("fightsong", "fightsong-4p.toml"))
SKILL_START_SCENARIOS = (("noize", "noize-first-player-by-skill.toml"), ("bards", "bards-first-player-by-skill.toml"),
                         ("distance", "distance-first-player-by-skill.toml"),
                         ("fightsong", "fightsong-first-team-by-skill.toml"))


@contextmanager
def _fresh_run(scenario, games):
    """(command, environment) of `analyzer run` on a shipped scenario in a fresh process with an empty numba cache
    (kept for the block, so that the command run again starts cached) and a scratch report folder."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        yield ([sys.executable, "-m", "analyzer.cli", "run", os.path.join(SCENARIOS, scenario), "--games", str(games),
                "-q", "--out", out], {**os.environ, "NUMBA_CACHE_DIR": cache})


def run_bench(games=1_000_000, only=None):
    from analyzer.games import game_names

    print(f"machine: {os.cpu_count()} cores, numba {numba.__version__}, {numba.get_num_threads()} threads")
    cases = [(name, raw) for name, raw in CASES.items()
             if (not only or only in name) and raw["game"] in game_names()]
    if cases:
        print(f"{'case (warm)':40s} {'kernel games/s':>15s} {'run games/s':>13s} {'run/kernel':>10s}")
    for name, raw in cases:
        raw = dict(raw)
        with _general_path(raw.pop("general_path", False)):
            kernel, full = _warm(raw, min(games, raw.pop("bench_games", games)))
        print(_case_row(name, kernel, full), flush=True)
    compare_with_c(cases, games)
    compare_with_baselines(cases, games)
    searches = search_cases(only)
    if searches:
        print(f"{'search (2 players, one thread)':40s} {'decisions/s':>15s} {'playouts/s':>13s} {'dec./game':>10s}")
    for name, game, budget in searches:
        decisions, playouts, per_game = _search_speed(game, budget)
        print(f"{name:40s} {decisions:15,.0f} {playouts:13,.0f} {per_game:10.1f}", flush=True)
    if not only or "tune" in only:
        tune_speed()
    if only and "skill" in only:
        skill_start_times()
    if only and "start" not in only:
        return
    for game, scenario in START_SCENARIOS:
        if game not in game_names():
            continue
        with _fresh_run(scenario, 1000) as (cmd, env):
            cold = _timed(cmd, env)
            warm = min(_timed(cmd, env) for _ in range(3))
            probe = [sys.executable, "-c", START_PROBE, os.path.join(SCENARIOS, scenario)]
            play = min(_timed(probe, env) for _ in range(3))
            print(f"{game}: cold start, compiling its kernels (1,000-game run + report): {cold:6.2f} s")
            print(f"{game}: cached start, until the 1,000 games are played (best of 3): {play:6.2f} s")
            print(f"{game}: the same run with its report, warm cache (best of 3):      {warm:6.2f} s")


def skill_start_times():
    """Each game's skill scenario (every skill level's kernels: lookahead and search too), 100 deals with its report,
    in a fresh process with an empty numba cache: the cold start a designer waits for the first time they ask whether
    skill changes the answer (minutes in all, so only with `--only skill`)."""
    from analyzer.games import game_names

    for game, scenario in SKILL_START_SCENARIOS:
        if game not in game_names():
            continue
        with _fresh_run(scenario, 100) as (cmd, env):
            print(f"{game}: cold start of {scenario} (100 deals + report): {_timed(cmd, env):6.2f} s", flush=True)
