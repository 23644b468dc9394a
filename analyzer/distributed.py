"""Runs on a Dask cluster: a local one (`--workers N`) or a running one (`--scheduler ADDRESS`).

Each task plays one range of game indices for every arm of the scenario and returns that range's
Tally (integer sums, cross products, histograms, example games; see analyzer.summary). The client
merges the tallies in game order as they arrive, so the result is bit-identical to the in-process
run whatever the number of workers, the order tasks finish in, or a task run again after a worker
died. A worker rebuilds the scenario from its TOML dict (cached per worker) and loads the numba
kernels from the on-disk cache. With --keep-games, each task writes its rows as one part of a Parquet
dataset per group, named by its first game index, into the report folder, which the workers must be
able to reach.

Ctrl-C (or SIGTERM) cancels the tasks not yet finished and keeps the contiguous prefix of finished
game indices, so a partial result is still reproducible.
"""
from __future__ import annotations

import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path

import numba

from analyzer.chunks import play_and_fold
from analyzer.comparisons import arm_groups
from analyzer.configs import Scenario
from analyzer.interrupts import Interrupts, sigint_ignored
from analyzer.parquet_rows import parquet_names, parquet_schema, parquet_table
from analyzer.results import RunResult, group_results
from analyzer.runner import DEFAULT_CHUNK, Looks, progress_bar
from analyzer.scenario import from_dict
from analyzer.summary import new_tally

TASK_SECONDS = 2.0  # aim: a task takes about this long on one worker (overhead per task is ~10-30 ms)
# the fewest deals a task holds: a run so small that its tasks are smaller plays in moments (fast games) or
# needs every worker (a strength curve's search rungs play a few deals a second)
MIN_TASK = 64
CONNECT_SECONDS = 10  # how long to wait for a --scheduler to answer
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")  # the address schemes Dask's comms know
_SCENARIOS = {}  # per worker process: scenario key -> Scenario, so a task does not re-encode


def require_dask():
    """Import dask.distributed or say in one line how to install it."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise RuntimeError("--workers and --scheduler need Dask: pip install 'analyzer[dask]' "
                           "(or: pip install 'dask[distributed]')") from None


def _scenario(raw, source, key):
    sc = _SCENARIOS.get(key)
    if sc is None:
        sc = from_dict(raw, source)
        for arm in sc.arms:
            arm.encoded(sc.game)
        _SCENARIOS.clear()  # one scenario at a time per worker
        _SCENARIOS[key] = sc
    return sc


def play_task(raw, source, key, first, n, parquet_dir, threads, active=None):
    """On a worker: play games first .. first+n-1 for every arm; return (tally, seconds, worker pid).

    parquet_dir: write the rows as part-<first>.parquet of each group's dataset there (or None); active: the
    groups to play (None: all; see summary.Tally.active)."""
    if threads:
        numba.set_num_threads(threads)
    t = time.perf_counter()
    sc = _scenario(raw, source, key)
    tally = new_tally(sc)
    tally.active = active
    groups = arm_groups(sc)
    done = first
    threads_used = numba.get_num_threads()
    with ThreadPoolExecutor(threads_used) as pool:
        while done < first + n:  # sub-chunks keep memory bounded inside a large task
            m = min(DEFAULT_CHUNK, first + n - done)
            chunk = play_and_fold(sc, groups, tally, done, m, keep_rows=parquet_dir is not None,
                                  pool=pool if threads_used > 1 else None)
            if parquet_dir is not None:
                _write_parts(sc, Path(parquet_dir), chunk.rows, done, active)
            tally.commit(done, m, chunk.parts, chunk.columns)
            done += m
    return tally, time.perf_counter() - t, os.getpid()


def _write_parts(sc, folder, outs, first, active=None):
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not folder.is_dir():
        raise RuntimeError(f"this worker cannot reach the report folder {folder}: run the workers where "
                           f"they share it, or drop --keep-games")
    for gi, (name, arms, g_outs) in enumerate(zip(parquet_names(sc), arm_groups(sc), outs)):
        if active is not None and not active[gi]:
            continue
        schema = parquet_schema(sc.game, len(arms[0].seats))
        table = pa.concat_tables([parquet_table(out, first, arm.rotation, schema) for arm, out in zip(arms, g_outs)])
        part = folder / name
        part.mkdir(exist_ok=True)
        pq.write_table(table, part / f"part-{first:015d}.parquet")


def _take(future, futures, waiting, tally, task_seconds, bar):
    """Merge a finished task into the tally once every earlier range is in (the prefix grows in order)."""
    part, seconds, _ = future.result()
    task_seconds.append(seconds)
    waiting[futures[future]] = part
    while tally.first + tally.n in waiting:
        tally.merge(waiting.pop(tally.first + tally.n))
    if bar is not None:
        bar.update(part.n)


def task_size(total, arms, workers, chunk_size, seconds_per_game=None):
    """Deals per task: about TASK_SECONDS of work when the speed is known, at least 4 tasks per worker
    for balance, at most chunk_size. (Results do not depend on it.)"""
    size = chunk_size
    if seconds_per_game:
        size = min(size, int(TASK_SECONDS / (seconds_per_game * arms)))
    size = min(size, -(-total // (4 * max(workers, 1))))
    return max(MIN_TASK, size)


def run(sc: Scenario, *, games=None, chunk_size=None, threads=None, keep_games_dir=None,
        progress=True, workers=None, scheduler=None, log=print, after_task=None, interrupts=None):
    """Play the scenario on a Dask cluster; the same RunResult as analyzer.runner.run.

    after_task(client, tasks finished): called after each finished task (tests use it to kill a worker
    or send a signal mid-run). interrupts: the caller's (analyzer.interrupts), already installed; None:
    the run installs its own. Signals are noted from the start (a signal raised inside Dask's start-up
    would leave its processes and threads half made): a signal before any game finished ends the run
    with no game played."""
    require_dask()
    import dask

    with nullcontext(interrupts) if interrupts is not None else Interrupts() as interrupts, \
            dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):  # (see connect)
        interrupts.note_from_now()
        return _run(sc, games, chunk_size, threads, keep_games_dir, progress, workers, scheduler, log, after_task,
                    interrupts)


def scheduler_address(text):
    """The address of a --scheduler as Dask writes it (tcp://host:port), or ValueError saying what is wrong."""
    from distributed.comm.addressing import parse_address, parse_host_port

    address = text.strip() if "://" in text else f"tcp://{text.strip()}"
    example = "e.g. tcp://10.0.0.5:8786 or 10.0.0.5:8786"
    try:
        scheme, location = parse_address(address)
        if scheme not in SCHEMES:
            raise ValueError(f"{text!r}: Dask knows the schemes {', '.join(SCHEMES)}")
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host or not 1 <= int(port) <= 65535:
                raise ValueError
    except (ValueError, TypeError) as e:
        raise ValueError(f"{str(e) if 'schemes' in str(e) else f'{text!r} is not a scheduler address'}: give "
                         f"host:port, {example}") from None
    return address


def unreachable(address):
    """None if something listens at a tcp:// address within CONNECT_SECONDS (other schemes: None, Dask will
    say), else a sentence saying what is wrong. Checked before any game is played, and before Dask's own
    Client, which leaves a traceback behind when it fails."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme != "tcp":
        return None
    host, port = parse_host_port(location)
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except socket.timeout:
        return f"no Dask scheduler answers at {address} (waited {CONNECT_SECONDS} s)"
    except OSError as e:
        return f"no Dask scheduler answers at {address} ({e.strerror or type(e).__name__})"
    return None


def connect(scheduler, workers):
    """(client, cluster or None): a client of the running scheduler, or of a new local cluster of `workers`
    processes. An unreachable scheduler is one line (ConnectionError)."""
    from distributed import Client, LocalCluster

    if scheduler:
        address = scheduler_address(scheduler)
        why = unreachable(address)
        if why is None:
            try:
                return Client(address, timeout=f"{CONNECT_SECONDS}s"), None
            except Exception as e:  # noqa: BLE001  (whatever answered there, it is not a scheduler we can use)
                why = f"no Dask scheduler answers at {address} ({type(e).__name__}: {str(e)[:100]})"
        raise ConnectionError(why)
    # The worker processes are forked from a fork server that ignores Ctrl-C (see _run), so they ignore
    # it too: the terminal sends it to the whole process group, and this process stops them itself (their
    # tracebacks filled pages). One thread per worker process: the workers are the parallelism (numba
    # threads inside each worker would fight over the same cores).
    import multiprocessing.forkserver

    from distributed.utils import get_mp_context

    get_mp_context()  # (gives the fork server its preloads)
    with sigint_ignored():
        multiprocessing.forkserver.ensure_running()
    # (silence_logs: the workers' own log lines, such as a lost heartbeat while the cluster closes, are not
    # for a designer; a task's error reaches this process with its result. The scheduler's HTTP server starts
    # even without a dashboard, on port 8787 unless told otherwise: with 8787 taken -- another cluster, another
    # run -- it printed a UserWarning in the middle of the run. A free port on the loopback, no dashboard.)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}, silence_logs=logging.CRITICAL)
    return Client(cluster), cluster


def _run(sc, games, chunk_size, threads, keep_games_dir, progress, workers, scheduler, log, after_task, interrupts):
    from distributed import wait

    total = games if games is not None else sc.games
    started = time.perf_counter()
    client, cluster = connect(scheduler, workers)
    if cluster is not None:
        threads = threads or 1
    tally = new_tally(sc)
    looks = Looks(sc, total)
    task_seconds = []
    parquet_dir = None
    size = chunk_size = chunk_size or DEFAULT_CHUNK  # (a task's most deals; it plays them in chunks of DEFAULT_CHUNK)
    wall = 0.0
    try:
        n_workers = len(client.scheduler_info()["workers"]) or 1
        key = f"{sc.source}:{hash(repr(sc.raw))}:{sc.seed}"
        raw = sc.raw
        source = str(Path(sc.source).resolve()) if Path(sc.source).exists() else sc.source
        # the first task on each worker loads (or compiles) the kernels: measure the start-up
        warm = [client.submit(play_task, raw, source, key, 0, 1, None, threads, pure=False, workers=[w],
                              allow_other_workers=True)  # (a worker that died starting up: another takes it)
                for w in client.scheduler_info()["workers"]]
        while interrupts.signal is None and not all(f.done() for f in warm):
            try:  # (a compile on the workers can take a minute: Ctrl-C is honoured meanwhile)
                wait(warm, timeout=0.5)
            except TimeoutError:
                pass
        if interrupts.signal is None:
            startup = [f.result()[1] for f in warm]
            log(f"{n_workers} worker(s) ready in {time.perf_counter() - started:.1f} s "
                f"(kernel start-up per worker: {min(startup):.1f}-{max(startup):.1f} s)")
        if keep_games_dir is not None:
            parquet_dir = str(Path(keep_games_dir).resolve())
            Path(parquet_dir).mkdir(parents=True, exist_ok=True)
        size = task_size(total, len(sc.arms), n_workers, chunk_size)
        looks.prepare(tally)
        waiting = {}  # finished tallies not yet contiguous with the merged prefix
        bar = progress_bar(sc, total) if progress and interrupts.signal is None else None
        t0 = time.perf_counter()
        submitted = 0
        futures = {}
        try:
            # with [stop], play up to each checkpoint, look, and go on only if the answer is not known
            while submitted < total and interrupts.signal is None and not looks.stopped:
                end = min(total, looks.next_checkpoint(submitted))
                step = task_size(end - submitted, len(sc.arms), n_workers, size)
                batch = {client.submit(play_task, raw, source, key, first, min(step, end - first), parquet_dir,
                                       threads, tally.active, pure=False): first
                         for first in range(submitted, end, step)}
                futures.update(batch)
                submitted = end
                pending = set(batch)
                while pending and interrupts.signal is None:
                    # wake at least twice a second, so that Ctrl-C is honoured while long tasks run
                    try:
                        finished, pending = wait(pending, timeout=0.5, return_when="FIRST_COMPLETED")
                    except TimeoutError:  # nothing finished in that half second
                        continue
                    for future in finished:
                        _take(future, futures, waiting, tally, task_seconds, bar)
                        if after_task is not None:
                            after_task(client, len(task_seconds))
                if tally.n == end:
                    looks.look(end, tally, bar)
        finally:
            for f in futures:
                f.cancel()
            if bar is not None:
                bar.close()
        wall = time.perf_counter() - t0
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    done = tally.n
    paths = []
    if parquet_dir is not None:
        paths = [str(Path(parquet_dir) / name) for name in parquet_names(sc)]
        if done < total:  # keep only the parts of the reported prefix (cancelled tasks may have written)
            for path in paths:
                for part in Path(path).glob("part-*.parquet"):
                    if int(part.stem.split("-")[1]) >= done:
                        part.unlink()
    return RunResult(sc, group_results(sc, tally), done, done < total and not looks.stopped, wall, threads or 1,
                       size, paths, total, tally.metric_sums, tally.metric_xtx, interrupts.signal, workers=n_workers,
                       task_seconds=task_seconds, stop_reason=looks.reason)
