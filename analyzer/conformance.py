"""The conformance checks every game passes, whoever wrote it (as OpenSpiel's basic tests and PettingZoo's api
and seed tests run on every environment): functions of a registered game's name that raise AssertionError at
the first thing wrong. `analyzer check-game NAME` runs them and says each one's outcome in a line (results);
tests/test_conformance.py runs them on every game under pytest, with one more check that needs hypothesis
(the referee under any rules the game allows), a test-only dependency. (The word for the kernels' compiler is
nowhere in this module, so that an edit to a check does not change the kernels' cache folder:
analyzer/jit_setup.py.)

The checks, in the order results() runs them (PLAIN, TRACE, REFEREED):
- results depend on (scenario, seed, game index) only: bit-identical summaries and Parquet rows with
  1 and 2 threads and two chunk sizes; another seed gives other games;
- game i of a batch equals the traced game i, wherever the batch starts;
- random play ends, at every player count, with well-formed result rows (0/1 wins that agree with
  n_winners, a known end condition, a positive length);
- every policy plays at every player count;
- every scenario shipped for the game (in the checkout's scenarios/, or in its package's scenarios/ folder)
  validates, and there is at least one;
- every trace line is JSON, and every event type a trace emits is documented in the game's docs page,
  as are every rule setting and policy; every event is one the game declares (analyzer/games/events.py) and
  every field of it holds a value of its declared kind; every declared event is seen (rare_events: the
  settings that make the rare ones happen); the docs page's events table is the one the declaration
  generates;
- every call that emits an event gives exactly the fields it declares;
- `analyzer trace GAME` works with text and jsonl output;
- the game's referee (an independent replay from the trace and the rulebook, referee(events, row, arm))
  accepts random games with every policy at every player count, and refuses a stub kernel's games (a traced
  game whose second half is another game's): a kernel that does not play by the rules cannot pass.
A game's package offers its referee as its module referee.py (the toy's: tests/toygame/referee.py), as it ships
its scenarios in scenarios/; the shipped games' referees live with their rules tests (tests/referees.py), so
`analyzer check-game` says "no referee" for them.
"""
import ast
import json
import re
import sys
import tempfile
import time
import traceback
from importlib import import_module, util
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from analyzer.games import game_module, get_game
from analyzer.games.events import docs_with_table
from analyzer.runner import most_threads, run, used_threads
from analyzer.scenario import from_dict, load

ROOT = Path(__file__).resolve().parent.parent  # the checkout, when the analyzer runs from one (docs/, scenarios/)
SEED = 31337
# the searching policies' cost parameters, small: the checks are of rules, not strength
CHEAP_SEARCH = {"samples": 2, "budget": 12}
# settings under which a shipped game's rare events happen (with every policy in play, at every player count);
# another game gives its own as Game.extra["rare_events"]
RARE_EVENTS = {
    "distance": {"misplay_rate": 0.3, "forget_call_rate": 0.5},  # misplays and forgotten calls
    "noize": {"shuffle_each_round": True},  # the house rule's shuffle
}


def game_folder(name):
    """The folder of a game's package (analyzer/games/<game> for the shipped ones)."""
    get_game(name)  # (imported by the registry)
    return Path(sys.modules[game_module(name)].__file__).parent


def player_counts(game):
    return list(range(game.min_players, game.max_players + 1))


def seat(game, policy):
    """A seat of `policy`, its search (if it has one) at CHEAP_SEARCH's cost."""
    pol = game.policy(policy)
    return {"policy": policy, **{k: v for k, v in CHEAP_SEARCH.items() if any(p.name == k for p in pol.params)}}


def mixed_raw(game, players, games=1500, seed=SEED):
    """Every policy of the game in play: seat s plays policy s mod (number of policies)."""
    pols = [p.name for p in game.policies]
    return {"game": game.name, "games": games, "seed": seed, "players": players,
            "all_seats": seat(game, pols[0]),
            "seats": {str(s): seat(game, pols[s % len(pols)]) for s in range(players)}}


def summary_state(result):
    out = []
    for g in result.groups:
        s = g.summary
        out.append((s.n, s.sums.copy(), s.xtx.copy(), {k: v.copy() for k, v in s.hists.items()}, dict(s.examples)))
    return out


def threads_and_chunks_do_not_change_results(name, games=1200):
    """results depend on the scenario, the seed and the game index only (threads, chunk sizes)"""
    game = get_game(name)
    raw = mixed_raw(game, game.max_players, games=games)
    before = used_threads()
    with tempfile.TemporaryDirectory(prefix="analyzer-conformance-") as tmp:
        a, b = Path(tmp) / "a", Path(tmp) / "b"
        try:
            one = run(from_dict(raw), threads=1, chunk_size=games, progress=False, keep_games_dir=a)
            # (four chunks, the last one shorter: 307 for 1,200 games)
            two = run(from_dict(raw), threads=min(2, most_threads()), chunk_size=games // 4 + 7, progress=False,
                      keep_games_dir=b)
        finally:
            used_threads(before)
        for x, y in zip(summary_state(one), summary_state(two), strict=True):
            assert x[0] == y[0] == games
            assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2]), "the sums differ"
            assert x[3].keys() == y[3].keys() and all(np.array_equal(x[3][k], y[3][k]) for k in x[3]), \
                "the histograms differ"
            assert x[4] == y[4], "the example games differ"
        rows_a = pq.read_table(a / "games.parquet").to_pandas()
        rows_b = pq.read_table(b / "games.parquet").to_pandas()
    assert rows_a.equals(rows_b) and len(rows_a) == games, "the games' rows differ"
    other = run(from_dict({**raw, "seed": SEED + 1}), progress=False)
    assert not np.array_equal(other.groups[0].summary.sums, one.groups[0].summary.sums), "another seed, same games"


def batch_game_equals_traced_game(name):
    """game i of a batch is the traced game i, wherever the batch starts"""
    game = get_game(name)
    for players in player_counts(game):
        sc = from_dict(mixed_raw(game, players))
        enc = sc.arms[0].encoded(game)
        width = len(game.columns(players))
        out = np.zeros((300, width), dtype=np.int64)
        game.run_batch(enc, SEED, 0, out)
        for index in (0, 1, 137, 299):
            events, row = game.play_traced(enc, SEED, index)
            assert np.array_equal(out[index], row), f"{players} players, game {index}: the batch's row is not the trace's"
            alone = np.zeros((1, width), dtype=np.int64)
            game.run_batch(enc, SEED, index, alone)  # the same game from a batch starting there
            assert np.array_equal(alone[0], row), f"{players} players, game {index}: not the same from a batch starting there"
            assert events, "a traced game has events"


def check_rows(game, players, out):
    """Result rows every game must give: 0/1 wins agreeing with n_winners, a known end, a length."""
    cols = game.columns(players)
    assert cols[:players] == [f"win_{s}" for s in range(players)], f"the first columns are not win_0...: {cols}"
    assert cols[players:players + 3] == ["n_winners", "length", "end"], f"after the wins: {cols[players:players + 3]}"
    assert out.min() >= 0, "result columns are non-negative (the runner's histograms count values 0, 1, ...)"
    win = out[:, :players]
    assert set(np.unique(win)) <= {0, 1}, "wins are 0 or 1"
    assert np.array_equal(win.sum(axis=1), out[:, players]), "n_winners is not the number of wins"
    end = out[:, players + 2]
    assert end.min() >= 0 and end.max() < len(game.end_conditions), "an end that is not one of end_conditions"
    assert out[:, players + 1].min() > 0, "every game lasts at least one round or turn"
    teams = game.teams(players)
    if teams:  # partners win together
        for team in teams:
            for s in team[1:]:
                assert np.array_equal(win[:, s], win[:, team[0]]), f"partners {team} do not win together"


def random_play_ends_with_well_formed_rows(name):
    """random play ends at every player count, with well-formed result rows"""
    game = get_game(name)
    assert game.policy("random") is not None, "every game has a random policy (the floor of every comparison)"
    for players in player_counts(game):
        sc = from_dict({"game": name, "games": 2000, "seed": SEED, "players": players,
                        "all_seats": {"policy": "random"}})
        out = np.zeros((2000, len(game.columns(players))), dtype=np.int64)
        game.run_batch(sc.arms[0].encoded(game), SEED, 0, out)  # returning at all means every game ended
        check_rows(game, players, out)


def every_policy_plays_at_every_player_count(name):
    """every policy plays at every player count"""
    game = get_game(name)
    for pol in game.policies:
        for players in player_counts(game):
            sc = from_dict({"game": name, "games": 200, "seed": SEED, "players": players,
                            "all_seats": seat(game, pol.name)})
            out = np.zeros((200, len(game.columns(players))), dtype=np.int64)
            game.run_batch(sc.arms[0].encoded(game), SEED, 0, out)
            check_rows(game, players, out)


def shipped_scenarios(name):
    """The scenario files of a game: the checkout's scenarios/ and its package's scenarios/ folder."""
    found = []
    own = sorted((game_folder(name) / "scenarios").glob("*.toml"))  # (a game from elsewhere ships its own)
    for path in [*sorted((ROOT / "scenarios").glob("*.toml")), *own]:
        if re.search(rf'^game\s*=\s*"{name}"', path.read_text(), re.M):
            found.append(path)
    return found


def shipped_scenarios_validate(name):
    """it ships a scenario, and every one it ships validates"""
    paths = shipped_scenarios(name)
    assert paths, f"no scenario in scenarios/ or {game_folder(name)}/scenarios for {name}"
    for path in paths:
        sc = load(path)  # (a ScenarioError says what is wrong)
        assert sc.game.name == name and sc.arms, path


def documented_event_types(game):
    """The event types in the first column of the tables under the docs page's "## Trace events"."""
    path = ROOT / game.docs  # (a game from elsewhere gives an absolute path)
    assert game.docs and path.is_file(), f"its docs page {game.docs!r} is not found"
    text = path.read_text()
    section = re.search(r"^## Trace events\b(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, f"{game.docs} has no '## Trace events' section"
    return set(re.findall(r"^\|\s*`([a-z_]+)`\s*\|", section.group(1), re.M)), text


def rare_events(game):
    """The settings under which the game's rare events happen, or None."""
    return game.extra.get("rare_events", RARE_EVENTS.get(game.name))


def traces_are_json_and_documented(name):
    """every trace line is JSON, every event declared and documented, as are its settings and policies"""
    game = get_game(name)
    documented, text = documented_event_types(game)
    assert docs_with_table(text, game) == text, (
        f"{game.docs}: the events table is not the declaration's: run python -m analyzer.games.events")
    seen = set()
    declared = set(game.events.events)
    for players in player_counts(game):
        for rules in ({}, rare_events(game)):
            if rules is None:
                continue
            sc = from_dict({**mixed_raw(game, players), "rules": rules})
            enc = sc.arms[0].encoded(game)
            ctx = game.trace_context(enc)
            for index in range(8):
                for ev in game.trace(enc, SEED, index):
                    line = json.dumps(ev)
                    assert json.loads(line) == ev, f"not the same once written as JSON: {ev}"
                    wrong = game.events.check(ev, ctx)  # every field against its declared kind
                    assert not wrong, f"{players} players, game {index}: {wrong}"
                    seen.add(game.events.event_of(ev))
                    assert isinstance(game.format_event(ev), str), f"format_event gives no text for {ev}"
    missing = {e.type for e in seen} - documented
    assert not missing, f"event types not documented in {game.docs}: {sorted(missing)}"
    assert seen == declared, (f"declared events no trace showed: {sorted(e.code_name for e in declared - seen)} "
                              f"(Game.extra['rare_events']: settings that make them happen)")
    for p in game.settings:
        assert f"`{p.name}`" in text, f"rule setting {p.name} is not in {game.docs}"
    for pol in game.policies:
        assert f"`{pol.name}`" in text, f"policy {pol.name} is not in {game.docs}"
        for p in pol.params:
            assert f"`{p.name}`" in text, f"parameter {p.name} of policy {pol.name} is not in {game.docs}"


def emit_calls(name):
    """(file:line, event code, fields given) of every call in the game's modules that emits an event: a call
    with an event code (EV_...) among its arguments, the event's fields after it."""
    codes = get_game(name).events.codes
    out = []
    for path in sorted(game_folder(name).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                at = [i for i, a in enumerate(node.args) if isinstance(a, ast.Name) and a.id in codes]
                if at:
                    code = node.args[at[0]].id
                    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                    out.append((f"{where}:{node.lineno}", code, len(node.args) - at[0] - 1))
    return out


def every_emit_gives_its_events_declared_fields(name):
    """every call that emits an event gives the fields its declaration has, and every event is emitted"""
    events = get_game(name).events
    calls = emit_calls(name)
    for where, code, given in calls:
        ev = events.by_code[events.codes[code]]
        assert given == ev.slots, (f"{where}: {code} is emitted with {given} fields; events.py declares {ev.slots} "
                                   f"slots: {[n for n, kind, _ in ev.fields if kind.slots]}")
    never = set(events.codes) - {code for _, code, _ in calls}
    assert not never, f"declared events no call emits: {sorted(never)}"


def trace_command_prints_text_and_jsonl(name, invoke):
    """`analyzer trace` prints its games as text and as JSON lines"""
    game = get_game(name)
    code, output = invoke(["trace", name, "--game-index", "3", "--format", "jsonl"])
    assert code == 0, output
    lines = [json.loads(line) for line in output.splitlines()]
    assert lines[0]["type"] == "game" and lines[0]["game"] == name and lines[0]["game_index"] == 3, lines[0]
    assert len(lines) > 2, "a game of fewer than two events"
    code, text = invoke(["trace", name, "--game-index", "3"])
    assert code == 0, text
    assert text.startswith(game.title) and len(text.splitlines()) >= len(lines) - 1, "the text trace is short"


def referee_of(name):
    """The referee a game's package offers: the function referee(events, row, arm) of its module `referee`
    (mypackage/referee.py), or None."""
    get_game(name)  # (the package imported by the registry first, with its kernels cached apart)
    module = f"{game_module(name)}.referee"
    try:
        found = util.find_spec(module)
    except ModuleNotFoundError:  # (the game is a module, not a package)
        found = None
    return None if found is None else import_module(module).referee


def referee_accepts_random_games(name, referee):
    """the referee accepts random games with every policy at every player count"""
    game = get_game(name)
    for players in player_counts(game):
        arm = from_dict(mixed_raw(game, players)).arms[0]
        enc = arm.encoded(game)
        for index in range(12):
            events, row = game.play_traced(enc, SEED, index)
            referee(events, row, arm)


def spliced(game, enc, index):
    """A stub kernel's game: the first half of game `index`'s events, then the second half of the next game's,
    with that game's result row: what a kernel that does not play by the rules could trace."""
    first, _ = game.play_traced(enc, SEED, index)
    second, row = game.play_traced(enc, SEED, index + 1000)
    return first[:len(first) // 2] + second[len(second) // 2:], row


def referee_refuses_a_stub_kernels_games(name, referee):
    """the referee refuses a stub kernel's games (halves of two games spliced)"""
    game = get_game(name)
    arm = from_dict(mixed_raw(game, game.max_players)).arms[0]
    enc = arm.encoded(game)
    for index in range(8):
        events, row = spliced(game, enc, index)
        try:
            referee(events, row, arm)
        except Exception:  # noqa: BLE001  (an AssertionError, or the referee failing to follow a broken game)
            continue
        raise AssertionError(f"game {index}: the referee accepts a game spliced from two")


# every check, in order: the plain ones take the game's name; TRACE also the command (invoke), REFEREED also
# the referee
PLAIN = (threads_and_chunks_do_not_change_results, batch_game_equals_traced_game,
         random_play_ends_with_well_formed_rows, every_policy_plays_at_every_player_count, shipped_scenarios_validate,
         traces_are_json_and_documented, every_emit_gives_its_events_declared_fields)
TRACE = trace_command_prints_text_and_jsonl
REFEREED = (referee_accepts_random_games, referee_refuses_a_stub_kernels_games)


def label(check):
    return check.__doc__.strip()


def failure(err):
    """One line saying why a check failed: the assertion's message, else the line that failed."""
    said = " ".join(str(err).split())
    if isinstance(err, AssertionError):
        if said:
            return said[:500]
        frame = traceback.extract_tb(err.__traceback__)[-1]
        return f"{Path(frame.filename).name}:{frame.lineno}: {frame.line}"
    return f"{type(err).__name__}: {said}"[:500]


def results(name, invoke):
    """(status, label, seconds, why) of every check of game `name` in turn, status "pass", "FAIL" or "skip"
    (the referee's, when the game offers none); invoke(args) -> (exit code, output) runs an `analyzer`
    command."""
    def outcome(check, *args):
        start = time.perf_counter()
        try:
            check(name, *args)
        except Exception as e:  # noqa: BLE001  (a check failing in any way is that check's failure)
            return "FAIL", label(check), time.perf_counter() - start, failure(e)
        return "pass", label(check), time.perf_counter() - start, ""

    for check in PLAIN:
        yield outcome(check)
    yield outcome(TRACE, invoke)
    try:
        referee, why = referee_of(name), ""
    except Exception as e:  # noqa: BLE001  (its referee module is broken)
        referee, why = None, f"its referee cannot be imported: {failure(e)}"
    for check in REFEREED:
        if why:
            yield "FAIL", label(check), 0.0, why
        elif referee is None:
            yield "skip", label(check), 0.0, "no referee (a game's package offers one as its module referee.py)"
        else:
            yield outcome(check, referee)
