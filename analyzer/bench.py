"""`analyzer bench` / `make bench`: figures, not pass/fail.

For each case: warm games per second of the batch kernel alone and of the whole runner (kernel +
streaming summaries), on every core numba uses. Then, per game, in fresh processes with an empty
numba cache directory: the cold start (compiling its kernels) and the start-up of the same small run
once the cache is warm. `--only start` runs just the start-up figures.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

CASES = {
    "noize: 4 threshold players": {"game": "noize", "players": 4, "all_seats": {"policy": "threshold"}},
    "noize: 4 random players": {"game": "noize", "players": 4, "all_seats": {"policy": "random"}},
    "bards: greedy split + greedy play": {"game": "bards", "players": 2,
                                         "all_seats": {"policy": "greedy", "play": "greedy"}},
    "distance: 4 greedy players": {"game": "distance", "players": 4, "all_seats": {"policy": "greedy"}},
    "distance: 4 random players": {"game": "distance", "players": 4, "all_seats": {"policy": "random"}},
    "fightsong: 4 greedy players": {"game": "fightsong", "players": 4, "all_seats": {"policy": "greedy"}},
    "fightsong: 4 team players": {"game": "fightsong", "players": 4, "all_seats": {"policy": "team"}},
    "bards: random": {"game": "bards", "players": 2,
                      "all_seats": {"policy": "random", "play": "random", "choose": "random", "setup": "random"}},
}


def _warm(raw, games):
    from analyzer.runner import run
    from analyzer.scenario import from_dict

    sc = from_dict({**raw, "games": games, "seed": 1})
    game = sc.game
    enc = sc.arms[0].encoded(game)
    out = np.empty((games, len(game.columns(sc.players))), dtype=np.int64)
    game.run_batch(enc, 1, 0, out[:1000])  # compile or load from cache
    t = time.perf_counter()
    game.run_batch(enc, 1, 0, out)
    kernel = games / (time.perf_counter() - t)
    res = run(sc, progress=False)
    return kernel, res.games_per_second


def _timed(cmd, env):
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def run_bench(games=1_000_000, only=None):
    from analyzer.games import game_names

    print(f"machine: {os.cpu_count()} cores, numba {numba.__version__}, {numba.get_num_threads()} threads")
    cases = [(name, raw) for name, raw in CASES.items()
             if (not only or only in name) and raw["game"] in game_names()]
    if cases:
        print(f"{'case (warm)':40s} {'kernel games/s':>15s} {'run games/s':>13s}")
    for name, raw in cases:
        kernel, full = _warm(raw, games)
        print(f"{name:40s} {kernel:15,.0f} {full:13,.0f}", flush=True)
    if only and "start" not in only:
        return
    root = os.path.join(os.path.dirname(__file__), "..", "scenarios")
    for game, scenario in (("noize", "noize-4p.toml"), ("bards", "bards-greedy.toml"),
                           ("distance", "distance-policies.toml"), ("fightsong", "fightsong-4p.toml")):
        if game not in game_names():
            continue
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            cmd = [sys.executable, "-m", "analyzer.cli", "run", os.path.join(root, scenario), "--games", "1000",
                   "-q", "--out", out]
            cold = _timed(cmd, env)
            warm = min(_timed(cmd, env) for _ in range(3))
            print(f"{game}: cold start, compiling its kernels (1,000-game run + report): {cold:6.2f} s")
            print(f"{game}: cached start (the same run, warm cache; best of 3):         {warm:6.2f} s")
