"""The `analyzer` command: run scenarios, trace single games, list games, benchmark."""
from __future__ import annotations

import atexit
import copy
import json
import os
import shlex
import shutil
import signal
import sys
import textwrap
import threading
from contextlib import nullcontext
from pathlib import Path

import click

from analyzer.command_scenarios import STRENGTH_GAMES
from analyzer.errors import ScenarioError
from analyzer.textfiles import printable
from analyzer.interrupts import (EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_NOTHING, EXIT_PARTIAL, Interrupts, Quit,
                                 signal_name)


class BadInput(click.ClickException):
    """Refused before any game was played: one line, exit status 2."""

    exit_code = EXIT_BAD_INPUT


def _fail(err: ScenarioError):
    raise BadInput(str(err))


class Count(click.ParamType):
    """An integer from low to high; the message says the range with thousands separators."""

    name = "integer"

    def __init__(self, low, high=None):
        self.low, self.high = low, high

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).replace("_", ""), 10)
            except ValueError:
                self.fail(f"{value!r} is not a whole number", param, ctx)
        if number < self.low or (self.high is not None and number > self.high):
            upper = f" to {self.high:,}" if self.high is not None else " or more"
            self.fail(f"{number:,} is not allowed: give a whole number from {self.low:,}{upper}", param, ctx)
        return number


def _out_folder(out):
    """--out as given, refusing an empty or blank name (it would silently mean the default folder)."""
    if out is not None and not out.strip():
        raise click.BadParameter(f"{out!r}: give a folder name (leave --out out for reports/<scenario>-<time>)",
                                 param_hint="--out")
    return out


def _load_scenario(path, overrides):
    """The scenario file validated as written, then with the command line's overrides: a bad value in
    the file is refused even where a flag would override it."""
    from analyzer import scenario as scen

    try:
        raw = scen.load_raw(path)
        return raw, scen.build_as_written_then(copy.deepcopy(raw), str(path), overrides)
    except ScenarioError as e:
        _fail(e)


def _parse_sets(sets):
    from analyzer.scenario import parse_value

    out = []
    for item in sets:
        if "=" not in item:
            raise click.BadParameter(f"{item!r}: expected key=value, e.g. rules.shuffle_each_round=true",
                                     param_hint="--set")
        key, value = item.split("=", 1)
        out.append((key.strip(), parse_value(value.strip())))
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="analyzer")
def main():
    """Monte Carlo strategy analyzer for card games.

    Scenarios are TOML files (see scenarios/); `analyzer games` lists every game, rule setting and
    policy they can use."""


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=Count(1, 10**10), help="Number of deals to play (overrides the scenario's games).")
@click.option("--seed", "-s", type=Count(0, 2**63 - 1), help="Master seed (overrides the scenario's seed).")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Report folder [default: reports/<scenario>-<time>].")
@click.option("--keep-games", is_flag=True, help="Also write every game's result row to Parquet in the report folder.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="Override any scenario value, e.g. --set rules.shuffle_each_round=true --set all_seats.bluff=0.2 "
                   "(repeatable; values in TOML syntax).")
@click.option("--threads", "-t", type=click.IntRange(1), help="Numba threads [default: all cores]. Results do not depend on it.")
@click.option("--chunk-size", type=Count(1, 5_000_000),
              help="Most deals per chunk (memory) [default: 100,000 with --keep-games, else as many as 64 MB of "
                   "per-deal totals hold]; chunks are also cut to about 0.4 s of play so that Ctrl-C is honoured "
                   "quickly. Results do not depend on it.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--workers", "-w", type=Count(1, 256),
              help="Play on a local Dask cluster of this many worker processes (needs analyzer[dask]). "
                   "Results do not depend on it.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Play on a running Dask cluster, e.g. tcp://10.0.0.5:8786 (started with `dask scheduler` "
                   "and `dask worker`).")
def run(scenario, games, seed, out, keep_games, sets, threads, chunk_size, quiet, workers, scheduler):
    """Play SCENARIO (a TOML file) and write a balance report.

    Ctrl-C (or SIGTERM) stops early and still writes the report of the games finished, marked as partial
    (exit status 3); stopped before any game finished, it writes nothing (exit status 130)."""
    from analyzer.report import figures

    out = _out_folder(out)
    # (a second process imports matplotlib while this one loads the kernels, then draws the figures while this one
    # writes the rest of the report: analyzer/report/figures.py)
    with figures.drawn_aside():
        _check_parallel(threads, workers, scheduler)
        overrides = _parse_sets(sets)
        if seed is not None:
            overrides.append(("seed", seed, "--seed"))
        if games is not None:
            overrides.append(("games", games, "--games"))
        _, sc = _load_scenario(scenario, overrides)
        _warn_idle_settings(sc)
        for table, command in (("tune", "analyzer tune"), ("profile", "analyzer profile")):
            if table in sc.raw:
                click.echo(f"Note: [{table}] is read by `{command}`; `analyzer run` plays the scenario's own "
                           f"configuration.", err=True)
        _play_and_report(sc, out, keep_games, threads, chunk_size, quiet, workers, scheduler)


def _warn_idle_settings(sc):
    from analyzer.idle_settings import print_warnings

    print_warnings(sc)


def _check_parallel(threads, workers, scheduler):
    """--threads, --workers and --scheduler, checked before the scenario is read."""
    if threads is not None:
        from analyzer.runner import most_threads

        if threads > most_threads():
            raise click.BadParameter(f"{threads:,}: this machine allows at most {most_threads()} threads",
                                     param_hint="--threads")
    if workers and scheduler:
        raise click.BadParameter("give --workers (a local cluster) or --scheduler (a running one), not both",
                                 param_hint="--workers")
    if workers or scheduler:
        from analyzer.distributed import require_dask

        try:
            require_dask()
        except RuntimeError as e:
            raise BadInput(str(e)) from None
    if scheduler is not None:
        from analyzer.distributed import scheduler_address, unreachable

        try:
            why = unreachable(scheduler_address(scheduler))
        except ValueError as e:
            why = str(e)
        if why:
            raise click.BadParameter(why, param_hint="--scheduler")


def _prepared_out(out_dir):
    """The temporary folder a report is written into before it replaces out_dir (report.prepare_out), or the
    --out error line."""
    from analyzer import report

    try:
        return report.prepare_out(out_dir)
    except report.OutError as e:
        raise click.BadParameter(str(e), param_hint="--out") from None


def _command_interrupts():
    """The signal handlers a command plays under: entry()'s, already installed, or (called without entry, as tests
    do) new ones."""
    ctx = click.get_current_context(silent=True)
    installed = ctx.find_root().obj if ctx is not None else None
    return Interrupts() if installed is None else nullcontext(installed)


def _command_line():
    """The command as typed, for the report's "reproduce" section (None when run without arguments)."""
    return "analyzer " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else None


def _played_and_written(tmp, out_dir, play, writing, write, unwritten):
    """A command's play and report under its signal handlers: play(interrupts) -> result (it exits itself when no
    game finished), then writing(result): what is done with the finished games should a signal come, write(result,
    tmp), and the folder moved into out_dir. Ctrl-C before any game is played writes nothing (exit 130), as does a
    third signal (`unwritten` says what is lost). Returns (result, report path, the interrupts)."""
    from analyzer import report

    with _command_interrupts() as interrupts:
        try:
            result = play(interrupts)
            interrupts.writing(writing(result))
            write(result, tmp)
            path = report.commit_out(tmp, out_dir)
        except KeyboardInterrupt:
            click.echo(f"Stopped by {signal_name(interrupts.signal or signal.SIGINT)} before any game was played: "
                       f"nothing written.", err=True)
            sys.exit(EXIT_NOTHING)
        except Quit:
            click.echo(f"Quit on a third signal: {unwritten} was not written.", err=True)
            sys.exit(EXIT_NOTHING)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    click.echo(f"Report: {path / 'index.html'}")
    return result, path, interrupts


def _play_and_report(sc, out, keep_games, threads, chunk_size, quiet, workers, scheduler):
    """Play a validated scenario (in this process or on Dask) and write its report folder atomically;
    exit 3 if the run was stopped early, 130 if nothing was played (analyzer.interrupts' contract)."""
    from analyzer import report

    out_dir = Path(out) if out else report.default_dir(sc)
    tmp = _prepared_out(out_dir)
    with _command_interrupts() as interrupts:
        try:
            code, path, result = _play_and_write(sc, tmp, out_dir, keep_games, threads, chunk_size, quiet, workers,
                                                 scheduler, interrupts)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if path is not None:
        click.echo(f"{result.games:,} deals in {result.wall:.1f} s ({result.games_per_second:,.0f} games/s)", err=True)
        click.echo(f"Report: {path / 'index.html'}")
    if code == EXIT_PARTIAL:
        click.echo(f"Stopped by {signal_name(result.stopped_by) if result.stopped_by else 'request'}: partial report "
                   f"of {result.games:,} of {sc.games:,} deals (exit status {EXIT_PARTIAL}).", err=True)
    if code:
        sys.exit(code)


def _play_and_write(sc, tmp, out_dir, keep_games, threads, chunk_size, quiet, workers, scheduler, interrupts):
    """(exit status, report path or None, RunResult or None): play, then write the report into tmp and
    move it to out_dir. A signal before play stops at once; during play it ends play; after play the
    report is written all the same; a third signal quits without it (see analyzer.interrupts)."""
    from analyzer import report, runner
    from analyzer.planned_games import planning

    click.echo(f"{printable(sc.name)}: {sc.games:,} deals x {len(sc.arms)} configuration(s) of {sc.game.title}, seed {sc.seed}",
               err=True)
    result = None
    try:
        if workers or scheduler:
            from analyzer import distributed

            try:
                result = distributed.run(sc, chunk_size=chunk_size, threads=threads,
                                         keep_games_dir=tmp if keep_games else None, progress=not quiet,
                                         workers=workers, scheduler=scheduler,
                                         log=lambda line: click.echo(line, err=True), interrupts=interrupts)
            except ConnectionError as e:
                raise click.BadParameter(str(e), param_hint="--scheduler") from None
        else:
            # (the plan: this run's games, then its report's traced games, which compile the game's general kernel:
            # analyzer.planned_games)
            with planning(sc.games * len(sc.arms)):
                _warm_up_saying_so(sc, quiet)
                result = runner.run(sc, chunk_size=chunk_size, threads=threads,
                                    keep_games_dir=tmp if keep_games else None, progress=not quiet,
                                    interrupts=interrupts)
        if result.games == 0:
            click.echo(f"Stopped by {signal_name(interrupts.signal)} before any game finished: no report written.",
                       err=True)
            return EXIT_NOTHING, None, result
        what = f"the report of {result.games:,} deals"
        if result.partial:
            click.echo(f"Stopped by {signal_name(result.stopped_by)} after {result.games:,} of {sc.games:,} deals: "
                       f"writing {'the partial report' if result.games else what}...", err=True)
        interrupts.writing(f"Writing {what}")
        report.write_report(result, tmp, _command_line())
        path = report.commit_out(tmp, out_dir)
    except KeyboardInterrupt:  # (raised only before play: analyzer.interrupts)
        click.echo(f"Stopped by {signal_name(interrupts.signal or signal.SIGINT)} before any game was played: "
                   f"nothing written.", err=True)
        return EXIT_NOTHING, None, None
    except Quit:
        lost = f"the report of {result.games:,} finished deals was not written" if result else "no report written"
        click.echo(f"Quit on a third signal: {lost}.", err=True)
        return EXIT_NOTHING, None, result
    return (EXIT_PARTIAL if result.partial else 0), path, result


@main.command()
@click.argument("game")
@click.option("--scenario", type=click.Path(dir_okay=False),
              help="Take the players, rules, variants (and [ladder], if any) from this scenario.")
@click.option("--players", "-p", type=int, help="Number of players [default: the scenario's, else 4 or the only count].")
@click.option("--games", "-n", type=Count(1, 10**10),
              help="Deals per rung [default: the scenario's, else 100,000; 4,000 when the ladder ends with search].")
@click.option("--seed", "-s", type=Count(0, 2**63 - 1), help="Master seed [default: the scenario's, else 1].")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Report folder [default: reports/<game>-ladder-<time>].")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a scenario value (as for run).")
@click.option("--threads", "-t", type=click.IntRange(1), help="Numba threads [default: all cores].")
@click.option("--workers", "-w", type=Count(1, 256), help="Play on a local Dask cluster (as for run).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def ladder(game, scenario, players, games, seed, out, sets, threads, workers, quiet):
    """Does skill matter in GAME? Play its skill ladder (every rung against a random field, seats
    rotated, on the same deals) and write the report: each rung's share and the skill number."""
    from analyzer import command_scenarios as CS
    from analyzer.scenario import load_raw

    _game(game, "GAME")
    out = _out_folder(out)
    _check_parallel(threads, workers, None)
    overrides = _parse_sets(sets)
    for key, value, flag in (("players", players, "--players"), ("games", games, "--games"), ("seed", seed, "--seed")):
        if value is not None:
            overrides.append((key, value, flag))
    try:
        raw = load_raw(scenario) if scenario else None
        sc, lines = CS.ladder(game, raw, scenario, overrides)
    except ScenarioError as e:
        _fail(e)
    for line in lines:
        click.echo(f"Warning: {line}", err=True)
    _warn_idle_settings(sc)
    if out is None:
        from analyzer import report

        out = report.default_dir(sc, name=f"{game}-ladder")
    _play_and_report(sc, out, False, threads, 100_000, quiet, workers, None)


class Budgets(click.ParamType):
    """Search budgets: whole numbers above 0, separated by commas (16,64,256)."""

    name = "budgets"

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        parts = [p.strip().replace("_", "") for p in str(value).split(",")]
        out = []
        for p in parts:
            try:
                out.append(int(p, 10))
            except ValueError:
                self.fail(f"{value!r}: give whole numbers separated by commas, e.g. 16,64,256", param, ctx)
        bad = [b for b in out if b < 1]
        if bad:
            self.fail(f"{value!r}: {bad[0]:,} is not allowed: every budget is a whole number from 1 up (search "
                      f"iterations per decision)", param, ctx)
        return out


@main.command()
@click.argument("game")
@click.option("--scenario", type=click.Path(dir_okay=False),
              help="Take the players, rules, games, seed (and [strength], [stop], if any) from this scenario.")
@click.option("--players", "-p", type=int, help="Number of players [default: the scenario's, else 2 or the fewest "
                                                "the game allows].")
@click.option("--budgets", "-b", type=Budgets(), help="Search budgets, smallest first, e.g. 16,64,256 [default: the "
                                                      "scenario's, else 16,64,256]; only for games with a search "
                                                      "policy.")
@click.option("--games", "-n", type=Count(1, 10**10), help=f"Deals every pair of rungs plays [default: the scenario's, "
                                                           f"else {STRENGTH_GAMES:,}].")
@click.option("--seed", "-s", type=Count(0, 2**63 - 1), help="Master seed [default: the scenario's, else 1].")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Report folder [default: reports/<game>-strength-<time>].")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a scenario value (as for run), e.g. "
                                                                        "--set strength.search.c=1.0.")
@click.option("--threads", "-t", type=click.IntRange(1), help="Numba threads [default: all cores].")
@click.option("--workers", "-w", type=Count(1, 256), help="Play on a local Dask cluster (as for run).")
@click.option("--scheduler", metavar="ADDRESS", help="Play on a running Dask cluster (as for run).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def strength(game, scenario, players, budgets, games, seed, out, sets, threads, workers, scheduler, quiet):
    """How strong is strong enough in GAME? Play its rungs (its skill ladder, then its search policy at each
    budget) against each other, every pair head to head on the same deals with the seats rotated, and write
    the strength curve: Bradley-Terry ratings on an Elo scale and whether more search budget still gains
    (strength.csv and a report)."""
    from analyzer import command_scenarios as CS
    from analyzer.scenario import load_raw

    _game(game, "GAME")
    out = _out_folder(out)
    _check_parallel(threads, workers, scheduler)
    overrides = _parse_sets(sets)
    for key, value, flag in (("players", players, "--players"), ("games", games, "--games"), ("seed", seed, "--seed"),
                             ("strength.budgets", budgets, "--budgets")):
        if value is not None:
            overrides.append((key, value, flag))
    try:
        raw = load_raw(scenario) if scenario else None
        sc, lines = CS.strength(game, raw, scenario, overrides)
    except ScenarioError as e:
        _fail(e)
    for line in lines:
        click.echo(f"Warning: {line}", err=True)
    _warn_idle_settings(sc)
    if out is None:
        from analyzer import report

        out = report.default_dir(sc, name=f"{game}-strength")
    _play_and_report(sc, out, False, threads, 100_000, quiet, workers, scheduler)


def _game(name, hint):
    from analyzer.games import game_names, get_game

    g = get_game(name)
    if g is None:
        raise click.BadParameter(f"{name!r}: known games are {', '.join(game_names())}", param_hint=hint)
    return g


def _warm_up_saying_so(sc, quiet, warm=None):
    """Compile the game's kernels (or load them from the cache) before the run, saying so if it takes long; warm:
    what compiles them (default: the run's warm-up, runner.warm_up)."""
    from analyzer import runner

    def say():
        # ("the kernels of The Distance": a game's title may start with "The")
        click.echo(f"Compiling the kernels of {sc.game.title}: this happens once, on the first run (up to a minute "
                   f"or two)...", err=True)

    if warm is None:  # (said as the first compile starts, without a timer's thread: a cold start forks a helper)
        runner.warm_up(sc, traces=True, compiling=None if quiet else say)
        return
    timer = threading.Timer(1.0, say)
    timer.daemon = True
    if not quiet:
        timer.start()
    try:
        warm(sc)
    finally:
        timer.cancel()


@main.command()
@click.argument("game")
@click.option("--scenario", type=click.Path(dir_okay=False), help="Take rules and seats from this scenario (its first configuration).")
@click.option("--seed", "-s", type=Count(0, 2**63 - 1), help="Master seed [default: the scenario's, else 1].")
@click.option("--game-index", "-i", type=Count(0, 2**63 - 1), default=0, show_default=True,
              help="Which game of the run to replay: the same game the batch run plays at that index.")
@click.option("--players", "-p", type=int, help="Number of players (overrides the scenario's) [default without a scenario: 4, "
              "or the game's only player count].")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a scenario value (as for run).")
@click.option("--variant", help="In a scenario that compares configurations: the variant (or sweep point / pairing) "
              "to replay, by its name in the report [default: the first].")
@click.option("--rotation", type=click.IntRange(0), default=0, show_default=True,
              help="With rotate_seats: which rotation of the seats to replay.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True,
              help="text: a game as a person reads it; jsonl: one JSON event a line (fields in docs/<game>.md).")
def trace(game, scenario, seed, game_index, players, sets, variant, rotation, fmt):
    """Print every event of one game of GAME (e.g. noize), replayable against the rulebook."""
    from analyzer import command_scenarios as CS
    from analyzer.scenario import load_raw

    g = _game(game, "GAME")
    overrides = _parse_sets(sets)
    if players is not None:
        overrides.append(("players", players, "--players"))
    try:
        sc = CS.trace(game, load_raw(scenario) if scenario else None, scenario, overrides)
        arm = CS.trace_arm(sc, variant, rotation, ("--variant", "--rotation"))
    except ScenarioError as e:
        _fail(e)
    _warn_idle_settings(sc)
    if scenario and game_index >= sc.games:
        click.echo(f"Note: game {game_index:,} is beyond the scenario's {sc.games:,} games; it is the game a longer run "
                   f"would play at that index.", err=True)
    seed = sc.seed if seed is None else seed
    events = g.trace(arm.encoded(g), seed, game_index)
    if fmt == "jsonl":
        meta = {"type": "game", "game": g.name, "seed": seed, "game_index": game_index, "players": len(arm.seats),
                "rules": arm.rules, "seats": [{"policy": s.policy, **s.params} for s in arm.seats]}
        click.echo(json.dumps(meta))
        for ev in events:
            click.echo(json.dumps(ev))
    else:
        click.echo(f"{g.title}: game {game_index} of seed {seed}, {len(arm.seats)} players")
        click.echo("Seats: " + "; ".join(f"{i}: {s.policy}" for i, s in enumerate(arm.seats)))
        for ev in events:
            click.echo(g.format_event(ev))


@main.command()
@click.argument("name", required=False)
def games(name):
    """List the games, their rule settings (default, range, meaning) and policies (parameters)."""
    from analyzer.games import game_names

    for n in [name] if name else game_names():
        g = _game(n, "NAME")
        players = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
        _say(f"{g.name}: {g.title}, {players} players: {g.summary}", 0)
        _say("rule settings ([rules] in a scenario):", 2)
        for p in g.settings:
            _say(p.describe(), 4)
        _say("policies (all_seats.policy / seats.N.policy):", 2)
        for pol in g.policies:
            _say(f"{pol.name}: {pol.help}", 4)
        _policy_parameters(g)
        if g.docs:
            _say(f"rulings and trace format: {g.docs}", 2)
        click.echo("")


def _policy_parameters(g):
    """Each policy parameter once: those every policy has (same meaning and range) in one list, with
    the policies whose default differs named beside it; the rest under their policy."""
    from analyzer.errors import toml_value

    def same(a, b):
        return (a.kind, a.low, a.high, a.choices, a.help) == (b.kind, b.low, b.high, b.choices, b.help)

    first = g.policies[0]
    common = [p for p in first.params
              if all(q.param(p.name) is not None and same(p, q.param(p.name)) for q in g.policies[1:])]
    if len(g.policies) > 1 and common:
        _say("parameters of every policy:", 4)
        for p in common:
            defaults = {}
            for q in g.policies:
                defaults.setdefault(toml_value(q.param(p.name).default), []).append(q.name)
            main_default = max(defaults, key=lambda d: len(defaults[d]))
            text = p.describe()
            others = [f"{d} for {' and '.join(names)}" for d, names in defaults.items() if d != main_default]
            if others:
                text = text.replace(f"(default {toml_value(p.default)};", f"(default {main_default}, "
                                    + ", ".join(others) + ";", 1)
            _say(text, 6)
    names = {p.name for p in common} if len(g.policies) > 1 else set()
    for pol in g.policies:
        own = [p for p in pol.params if p.name not in names]
        if own:
            _say(f"parameters of {pol.name}:", 4)
            for p in own:
                _say(p.describe(), 6)


def _say(text, indent, width=100):
    """One wrapped paragraph of `analyzer games`, continuation lines indented a little more."""
    click.echo(textwrap.fill(text, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + 4)))


@main.command("check-game")
@click.argument("name")
def check_game(name):
    """Run the conformance checks on game NAME (any registered game: a plugin's too), a line per check.

    Exit status 0 if every check passes, 1 if one fails (docs/adding-a-game.md, what checks it)."""
    from click.testing import CliRunner

    from analyzer import conformance

    g = _game(name, "NAME")
    click.echo(f"Checking {g.name} ({g.title}): its kernels compile first unless they are cached (a minute or two)")

    def invoke(args):  # (`analyzer trace` is one of the checks)
        r = CliRunner().invoke(main, args)
        return r.exit_code, r.output

    said = {"pass": 0, "FAIL": 0, "skip": 0}
    for status, label, seconds, why in conformance.results(name, invoke):
        said[status] += 1
        click.echo(f"{status}  {label}" + (f" ({seconds:.1f} s)" if status != "skip" else "") + (f": {why}" if why else ""))
    click.echo(f"{g.name}: {said['pass']} passed, {said['FAIL']} failed, {said['skip']} skipped")
    sys.exit(EXIT_INTERNAL if said["FAIL"] else 0)  # (a check failed: the game has a bug)


@main.command()
@click.argument("game", required=False)
@click.option("--out", "-o", type=click.Path(dir_okay=False), help="Write the schema to this file instead of printing it.")
def schema(game, out):
    """Print a JSON Schema of scenario files (of GAME, or of every game) for editors: docs/schema.md."""
    from analyzer.schema import scenario_schema

    if game is not None:
        _game(game, "GAME")
    text = json.dumps(scenario_schema(game), indent=2) + "\n"
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as e:
        raise click.BadParameter(f"{out!r}: {e.strerror or e}", param_hint="--out") from None


@main.command()
@click.option("--games", "-n", type=click.IntRange(1000), default=1_000_000, show_default=True,
              help="Games per warm measurement.")
@click.option("--only", type=str, help="Only the benchmark cases whose name contains this.")
@click.option("--where", "where", metavar="CASE", help="Instead: where that case's kernel spends its time, by jitted "
                                                       "function (sampled by Linux perf on one thread, about 3 s of "
                                                       "games unless --games is given).")
@click.option("--lines", is_flag=True, help="With --where: by source line (compiles the kernel again with debug "
                                            "information; needs llvm-symbolizer).")
def bench(games, only, where, lines):
    """Measure warm games per second, cold compile time and cached start-up time."""
    if where is not None:
        from analyzer.kernel_profile import profile

        source = click.get_current_context().get_parameter_source("games")
        profile(where, 0 if source == click.core.ParameterSource.DEFAULT else games, lines, click.echo)
        return
    if lines:
        raise click.BadParameter("only with --where CASE", param_hint="--lines")
    from analyzer.bench import run_bench

    run_bench(games, only)


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--trials", type=Count(2, 10_000), help="Trials, the rulebook's included (overrides tune.trials).")
@click.option("--games", "-n", type=Count(2, 10**9), help="Deals per trial (overrides tune.games; a multiple of "
                                                            "tune.blocks).")
@click.option("--seed", "-s", type=Count(0, 2**63 - 1), help="Master seed (overrides the scenario's seed).")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Report folder [default: reports/<scenario>-tune-<time>].")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a scenario value (as for run).")
@click.option("--threads", "-t", type=click.IntRange(1), help="Numba threads [default: all cores]. Results do not depend on it.")
@click.option("--study", "study_path", type=click.Path(dir_okay=False),
              help="Keep the search in this file (Optuna's journal); if it exists, the tune resumes from the trials "
                   "in it (the same scenario and seed), playing the same trials as a tune never stopped.")
@click.option("--workers", "-w", type=Count(1, 256),
              help="Play the trials' games on a local Dask cluster of this many worker processes (needs "
                   "analyzer[dask]). Results do not depend on it.")
@click.option("--scheduler", metavar="ADDRESS", help="Play the trials' games on a running Dask cluster.")
@click.option("--quiet", "-q", is_flag=True, help="No line per trial.")
def tune(scenario, trials, games, seed, out, sets, threads, study_path, workers, scheduler, quiet):
    """Which settings bring SCENARIO's game where its [tune] table wants it? Search the settings (Optuna, every
    trial on the same deals, clearly worse trials pruned), replay the best few and the rulebook on fresh deals
    (the confirmation race), and write the report: the recommended settings first, tune.csv with every trial.

    Ctrl-C stops the search after the trial in play and writes the report of the trials finished (exit 3)."""
    from analyzer import report
    from analyzer import tuning as T
    from analyzer import scenario as scen

    out = _out_folder(out)
    _check_parallel(threads, workers, scheduler)
    overrides = _parse_sets(sets)
    for key, value, flag in (("seed", seed, "--seed"), ("tune.trials", trials, "--trials"),
                             ("tune.games", games, "--games")):
        if value is not None:
            overrides.append((key, value, flag))
    try:
        sc, spec = scen.build_as_written_then(scen.load_raw(scenario), str(scenario), overrides, T.build)
    except ScenarioError as e:
        _fail(e)
    _warn_idle_settings(sc)
    out_dir = Path(out) if out else report.default_dir(sc, name=f"{Path(scenario).stem}-tune")
    tmp = _prepared_out(out_dir)
    click.echo(f"{printable(sc.name)}: {spec.trials:,} trials x {spec.games:,} deals of {sc.game.title}, then a "
               f"confirmation race of up to {spec.confirm_games:,} deals, seed {sc.seed}", err=True)

    def said(t):
        if not quiet:
            what = t.state + (f" after {t.blocks} of {spec.blocks} blocks" if t.state == "pruned" else "")
            click.echo(f"  trial {t.number}: {', '.join(f'{p}={v}' for p, v in t.values.items())}: {what}", err=True)

    def play(interrupts):
        if not (workers or scheduler):
            _warm_up_saying_so(sc, quiet)
        interrupts.note_from_now()
        try:
            result = T.tune(sc, spec, threads=threads, interrupts=interrupts, on_trial=said, study_path=study_path,
                            workers=workers, scheduler=scheduler, log=lambda line: click.echo(line, err=True))
        except ScenarioError as e:  # (a --study file of another scenario: refused before any game)
            _fail(e)
        except ConnectionError as e:
            raise click.BadParameter(str(e), param_hint="--scheduler") from None
        if not any(t.blocks for t in result.run.trials):
            click.echo(f"Stopped by {signal_name(interrupts.signal)} before any trial finished: no report written.",
                       err=True)
            sys.exit(EXIT_NOTHING)
        return result

    result, _, interrupts = _played_and_written(
        tmp, out_dir, play, lambda r: f"Writing the report of {len(r.run.trials):,} trials",
        lambda r, folder: T.write_report(r, folder, _command_line()), "the report of the finished trials")
    if result.partial:
        click.echo(f"Stopped by {signal_name(interrupts.signal)}: partial report of {len(result.run.trials):,} "
                   f"trial(s) (exit status {EXIT_PARTIAL}).", err=True)
        sys.exit(EXIT_PARTIAL)


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--level", "levels", multiple=True, metavar="LEVEL",
              help="Skill level every seat plays (as in [skill] levels: greedy, search:64); twice for two levels side "
                   "by side [default: [profile] levels, else the scenario's seats].")
@click.option("--deals", type=Count(10, 200_000), help="Deals of the luck split (overrides profile.deals).")
@click.option("--replays", type=Count(2, 64), help="Replays of every deal with the decisions re-seeded (overrides "
                                                   "profile.replays).")
@click.option("--seed", "-s", type=Count(0, 2**63 - 1), help="Master seed (overrides the scenario's seed).")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Report folder [default: reports/<scenario>-profile-<time>].")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="Override a scenario value (as for run), e.g. profile.thresholds.first_seat_edge=5.")
@click.option("--threads", "-t", type=click.IntRange(1), help="Numba threads [default: all cores]. Results do not depend on it.")
@click.option("--quiet", "-q", is_flag=True, help="No line per part.")
def profile(scenario, levels, deals, replays, seed, out, sets, threads, quiet):
    """Where do SCENARIO's outcomes come from? Split the outcome's variance between the deal, the seat and the bots'
    decisions (every deal replayed with the decisions re-seeded), count the real choices, measure which cards
    decide games (restricted play) and check the warning flags; write the report and profile.csv.

    Ctrl-C stops after the block in play and writes the report of the parts finished (exit 3)."""
    from analyzer import profiling as PR
    from analyzer import report
    from analyzer import scenario as scen
    from analyzer.profiling import play as P
    from analyzer.profiling import report as PR_report

    out = _out_folder(out)
    overrides = _parse_sets(sets)
    for key, value, flag in (("seed", seed, "--seed"), ("profile.deals", deals, "--deals"),
                             ("profile.replays", replays, "--replays")):
        if value is not None:
            overrides.append((key, value, flag))
    try:
        sc, spec = scen.build_as_written_then(scen.load_raw(scenario), str(scenario), overrides, PR.build,
                                              level_args=levels)
    except ScenarioError as e:
        _fail(e)
    _warn_idle_settings(sc)
    out_dir = Path(out) if out else report.default_dir(sc, name=f"{Path(scenario).stem}-profile")
    tmp = _prepared_out(out_dir)
    click.echo(f"{printable(sc.name)}: a profile of {sc.game.title}, {sc.players} players, at "
               f"{' and '.join(printable(lbl) for lbl, _ in spec.levels)}; seed {sc.seed}", err=True)

    def warm(sc):
        for _, level_seat in spec.levels:
            seats = P.seats_at(sc.game, level_seat, sc.seats, sc.players, sc.source)
            P.rows(sc.game, P.encode(sc.game, sc.rules, seats), sc.seed, sc.players, 1)

    def play(interrupts):
        _warm_up_saying_so(sc, quiet, warm)
        interrupts.note_from_now()
        result = PR.profile(sc, spec, threads=threads, interrupts=interrupts,
                            log=None if quiet else (lambda line: click.echo(line, err=True)))
        if not result.levels:
            click.echo(f"Stopped by {signal_name(interrupts.signal)} before the luck split's first block finished: "
                       f"no report written.", err=True)
            sys.exit(EXIT_NOTHING)
        return result

    result, _, interrupts = _played_and_written(
        tmp, out_dir, play, lambda r: "Writing the profile's report",
        lambda r, folder: PR_report.write(r, folder, _command_line()), "the profile's report")
    if result.partial:
        click.echo(f"Stopped by {signal_name(interrupts.signal)}: partial profile (exit status {EXIT_PARTIAL}).",
                   err=True)
        sys.exit(EXIT_PARTIAL)


def entry(program=False):
    """The `analyzer` command: every error is one line (no usage block, no traceback), and Ctrl-C or
    SIGTERM at any moment ends it with one line and a documented status (analyzer.interrupts).

    program: this process is the command (its console script, `python -m analyzer`), not a caller that goes on
    (a test): once the exit handlers have run, it ends without tearing the interpreter down, module by module (a
    tenth of a second with the kernels and matplotlib loaded, after the report is written)."""
    interrupts = Interrupts()
    with interrupts:
        try:
            code = main.main(standalone_mode=False, obj=interrupts)
        except click.exceptions.Exit as e:
            code = e.exit_code
        except SystemExit as e:  # (a command's own status: 3 for a partial report, say)
            code = e.code
        except click.ClickException as e:
            hint = ""
            if isinstance(e, click.UsageError) and e.ctx is not None:
                hint = f" (see: {e.ctx.command_path} --help)"
            click.echo(f"Error: {printable(e.format_message())}{hint}", err=True)
            code = e.exit_code
        except (click.exceptions.Abort, KeyboardInterrupt, Quit):
            code = _stopped(interrupts)
        except ScenarioError as e:  # (one not caught by a command: the game registry's, say)
            click.echo(f"Error: {e}", err=True)
            code = 2
        except Exception as e:  # noqa: BLE001  (a bug: one line, unless asked for the traceback)
            if interrupts.signal is not None:  # (an import or a library broken off by the signal)
                code = _stopped(interrupts)
            elif os.environ.get("ANALYZER_TRACEBACK"):
                raise
            else:
                click.echo(f"Error: internal error ({type(e).__name__}: {str(e)[:200]}): please report it with the "
                           f"command and scenario (ANALYZER_TRACEBACK=1 shows where)", err=True)
                code = EXIT_INTERNAL
    code = code if isinstance(code, int) else 0
    # the outcome is decided: a signal from here on (interpreter shutdown, Dask's threads ending) exits at
    # once with that status, never with a traceback
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) != signal.SIG_IGN:
            signal.signal(sig, lambda signum, frame: _exit_now(code))
    if program and threading.active_count() == 1:  # (else sys.exit, which waits for the other threads)
        atexit._run_exitfuncs()  # (what sys.exit would run: logging's, Dask's, multiprocessing's)
        _exit_now(code)
    sys.exit(code)


def _stopped(interrupts):
    name = signal_name(interrupts.signal) if interrupts.signal else "Ctrl-C"
    click.echo(f"Stopped by {name}: nothing written.", err=True)
    return EXIT_NOTHING


def _exit_now(code):
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    entry(program=True)
