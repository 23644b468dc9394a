"""One conformance suite for every registered game (as OpenSpiel's basic tests and PettingZoo's api and
seed tests run on every environment).

Each check is parametrised over `game_names()`, so a new game is checked the moment it is registered, and
over the games that live in tests/ (the toy of docs/adding-a-game.md, registered for each test by the
`test_games` fixture):
- results depend on (scenario, seed, game index) only: bit-identical summaries and Parquet rows with
  1 and 2 threads and two chunk sizes; another seed gives other games;
- game i of a batch equals the traced game i, wherever the batch starts;
- random play ends, at every player count, with well-formed result rows (0/1 wins that agree with
  n_winners, a known end condition, a positive length);
- every policy plays at every player count;
- every scenario shipped for the game (in scenarios/, or in its package's scenarios/ folder) validates, and
  there is at least one;
- every trace line is JSON, and every event type a trace emits is documented in the game's docs page,
  as are every rule setting and policy;
- every event is one the game declares (analyzer/games/events.py) and every field of it holds a value of its
  declared kind (a seat of the game, a card of its deck, a name of its enum...); every declared event is seen
  (RARE_EVENTS: the settings that make the rare ones happen); the docs page's events table is the one the
  declaration generates; every call that emits an event gives exactly the fields it declares;
- `analyzer trace GAME` works with text and jsonl output;
- the game's referee (tests/referees.py: an independent replay from the trace and the rulebook) accepts
  random games with every policy at every player count, and refuses a stub kernel's games (a traced game
  whose second half is another game's): a kernel that does not play by the rules cannot pass.
"""
import ast
import json
import re
import sys
from pathlib import Path

import numba
import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analyzer.cli import main
from analyzer.errors import ScenarioError
from analyzer.games import game_module, game_names, get_game
from analyzer.games.events import docs_with_table
from analyzer.runner import run
from analyzer.scenario import from_dict, load
from referees import REFEREES
from toy_helpers import TEST_GAMES

ROOT = Path(__file__).resolve().parent.parent
GAMES = game_names() + list(TEST_GAMES)
SEED = 31337
pytestmark = pytest.mark.usefixtures("test_games")


def game_folder(name):
    """The folder of a game's package (analyzer/games/<game> for the shipped ones)."""
    get_game(name)  # (imported by the registry)
    return Path(sys.modules[game_module(name)].__file__).parent


def player_counts(game):
    return list(range(game.min_players, game.max_players + 1))


# the searching policies' cost parameters, small: the suite checks rules, not strength
CHEAP_SEARCH = {"samples": 2, "budget": 12}


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


def largest(game):
    return game.max_players


def summary_state(result):
    out = []
    for g in result.groups:
        s = g.summary
        out.append((s.n, s.sums.copy(), s.xtx.copy(), {k: v.copy() for k, v in s.hists.items()}, dict(s.examples)))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_threads_and_chunks_do_not_change_results(name, tmp_path):
    game = get_game(name)
    raw = mixed_raw(game, largest(game), games=1200)
    before = numba.get_num_threads()
    try:
        one = run(from_dict(raw), threads=1, chunk_size=1200, progress=False, keep_games_dir=tmp_path / "a")
        two = run(from_dict(raw), threads=min(2, numba.config.NUMBA_NUM_THREADS), chunk_size=307, progress=False,
                  keep_games_dir=tmp_path / "b")
    finally:
        numba.set_num_threads(before)
    for a, b in zip(summary_state(one), summary_state(two), strict=True):
        assert a[0] == b[0] == 1200
        assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])
        assert a[3].keys() == b[3].keys() and all(np.array_equal(a[3][k], b[3][k]) for k in a[3])
        assert a[4] == b[4]
    rows_a = pq.read_table(tmp_path / "a" / "games.parquet").to_pandas()
    rows_b = pq.read_table(tmp_path / "b" / "games.parquet").to_pandas()
    assert rows_a.equals(rows_b) and len(rows_a) == 1200
    other = run(from_dict({**raw, "seed": SEED + 1}), progress=False)
    assert not np.array_equal(other.groups[0].summary.sums, one.groups[0].summary.sums)


@pytest.mark.parametrize("name", GAMES)
def test_batch_game_equals_traced_game(name):
    game = get_game(name)
    for players in player_counts(game):
        sc = from_dict(mixed_raw(game, players))
        enc = sc.arms[0].encoded(game)
        width = len(game.columns(players))
        out = np.zeros((300, width), dtype=np.int64)
        game.run_batch(enc, SEED, 0, out)
        for index in (0, 1, 137, 299):
            events, row = game.play_traced(enc, SEED, index)
            assert np.array_equal(out[index], row), f"{name}, {players} players, game {index}"
            alone = np.zeros((1, width), dtype=np.int64)
            game.run_batch(enc, SEED, index, alone)  # the same game from a batch starting there
            assert np.array_equal(alone[0], row)
            assert events, "a traced game has events"


def check_rows(game, players, out):
    """Result rows every game must give: 0/1 wins agreeing with n_winners, a known end, a length."""
    cols = game.columns(players)
    assert cols[:players] == [f"win_{s}" for s in range(players)]
    assert cols[players:players + 3] == ["n_winners", "length", "end"]
    assert out.min() >= 0, "result columns are non-negative (the runner's histograms count values 0, 1, ...)"
    win = out[:, :players]
    assert set(np.unique(win)) <= {0, 1}
    assert np.array_equal(win.sum(axis=1), out[:, players])
    end = out[:, players + 2]
    assert end.min() >= 0 and end.max() < len(game.end_conditions)
    assert out[:, players + 1].min() > 0, "every game lasts at least one round or turn"
    teams = game.teams(players)
    if teams:  # partners win together
        for team in teams:
            for s in team[1:]:
                assert np.array_equal(win[:, s], win[:, team[0]])


@pytest.mark.parametrize("name", GAMES)
def test_random_play_ends_with_well_formed_rows(name):
    game = get_game(name)
    assert game.policy("random") is not None, "every game has a random policy (the floor of every comparison)"
    for players in player_counts(game):
        sc = from_dict({"game": name, "games": 2000, "seed": SEED, "players": players,
                        "all_seats": {"policy": "random"}})
        out = np.zeros((2000, len(game.columns(players))), dtype=np.int64)
        game.run_batch(sc.arms[0].encoded(game), SEED, 0, out)  # returning at all means every game ended
        check_rows(game, players, out)


@pytest.mark.parametrize("name", GAMES)
def test_every_policy_plays_at_every_player_count(name):
    game = get_game(name)
    for pol in game.policies:
        for players in player_counts(game):
            sc = from_dict({"game": name, "games": 200, "seed": SEED, "players": players,
                            "all_seats": seat(game, pol.name)})
            out = np.zeros((200, len(game.columns(players))), dtype=np.int64)
            game.run_batch(sc.arms[0].encoded(game), SEED, 0, out)
            check_rows(game, players, out)


def shipped_scenarios(name):
    found = []
    own = sorted((game_folder(name) / "scenarios").glob("*.toml"))  # (a game from elsewhere ships its own)
    for path in [*sorted((ROOT / "scenarios").glob("*.toml")), *own]:
        text = path.read_text()
        if re.search(rf'^game\s*=\s*"{name}"', text, re.M):
            found.append(path)
    return found


@pytest.mark.parametrize("name", GAMES)
def test_shipped_scenarios_validate(name):
    paths = shipped_scenarios(name)
    assert paths, f"no scenario in scenarios/ or {game_folder(name)}/scenarios for {name}"
    for path in paths:
        sc = load(path)
        assert sc.game.name == name and sc.arms


def documented_event_types(game):
    """The event types in the first column of the tables under the docs page's "## Trace events"."""
    text = (ROOT / game.docs).read_text()
    section = re.search(r"^## Trace events\b(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, f"{game.docs} has no '## Trace events' section"
    return set(re.findall(r"^\|\s*`([a-z_]+)`\s*\|", section.group(1), re.M)), text


# settings under which a game's rare events happen (with every policy in play, at every player count)
RARE_EVENTS = {
    "distance": {"misplay_rate": 0.3, "forget_call_rate": 0.5},  # misplays and forgotten calls
    "noize": {"shuffle_each_round": True},  # the house rule's shuffle
}


@pytest.mark.parametrize("name", GAMES)
def test_traces_are_json_and_documented(name):
    game = get_game(name)
    documented, text = documented_event_types(game)
    assert docs_with_table(text, game) == text, (
        f"{game.docs}: the events table is not the declaration's: run python -m analyzer.games.events")
    seen = set()
    declared = set(game.events.events)
    for players in player_counts(game):
        for rules in ({}, RARE_EVENTS.get(name)):
            if rules is None:
                continue
            sc = from_dict({**mixed_raw(game, players), "rules": rules})
            enc = sc.arms[0].encoded(game)
            ctx = game.trace_context(enc)
            for index in range(8):
                for ev in game.trace(enc, SEED, index):
                    line = json.dumps(ev)
                    assert json.loads(line) == ev
                    wrong = game.events.check(ev, ctx)  # every field against its declared kind
                    assert not wrong, f"{name}, {players} players, game {index}: {wrong}"
                    seen.add(game.events.event_of(ev))
                    assert isinstance(game.format_event(ev), str)
    missing = {e.type for e in seen} - documented
    assert not missing, f"event types not documented in {game.docs}: {sorted(missing)}"
    assert seen == declared, f"declared events no trace showed: {sorted(e.code_name for e in declared - seen)}"
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


@pytest.mark.parametrize("name", GAMES)
def test_every_emit_gives_its_events_declared_fields(name):
    events = get_game(name).events
    calls = emit_calls(name)
    for where, code, given in calls:
        ev = events.by_code[events.codes[code]]
        assert given == ev.slots, (f"{where}: {code} is emitted with {given} fields; events.py declares {ev.slots} "
                                   f"slots: {[n for n, kind, _ in ev.fields if kind.slots]}")
    never = set(events.codes) - {code for _, code, _ in calls}
    assert not never, f"declared events no call emits: {sorted(never)}"


@pytest.mark.parametrize("name", GAMES)
def test_cli_trace_text_and_jsonl(name):
    game = get_game(name)
    runner = CliRunner()
    j = runner.invoke(main, ["trace", name, "--game-index", "3", "--format", "jsonl"])
    assert j.exit_code == 0, j.output
    lines = [json.loads(line) for line in j.output.splitlines()]
    assert lines[0]["type"] == "game" and lines[0]["game"] == name and lines[0]["game_index"] == 3
    assert len(lines) > 2
    t = runner.invoke(main, ["trace", name, "--game-index", "3"])
    assert t.exit_code == 0, t.output
    assert t.output.startswith(game.title) and len(t.output.splitlines()) >= len(lines) - 1


def referee_of(name):
    assert name in REFEREES, f"{name} has no referee in tests/referees.py: a game's rules are checked by one"
    return REFEREES[name]


@pytest.mark.parametrize("name", GAMES)
def test_the_referee_accepts_random_games_at_every_player_count(name):
    game, referee = get_game(name), referee_of(name)
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


@pytest.mark.parametrize("name", GAMES)
def test_the_referee_refuses_a_stub_kernels_games(name):
    game, referee = get_game(name), referee_of(name)
    arm = from_dict(mixed_raw(game, largest(game))).arms[0]
    enc = arm.encoded(game)
    for index in range(8):
        events, row = spliced(game, enc, index)
        with pytest.raises(Exception):  # (an AssertionError, or the referee failing to follow a broken game)
            referee(events, row, arm)


def param_values(param):
    """A hypothesis strategy over a Param's allowed values (ints kept near their low end, search budgets
    small: the point is the space of rules, not long games)."""
    if param.kind == "bool":
        return st.booleans()
    if param.kind == "choice":
        return st.sampled_from(param.choices)
    if param.kind == "intlist":
        return st.lists(st.integers(int(param.low), int(param.high)), min_size=1, max_size=6, unique=True)
    if param.kind == "int":
        high = 3 if param.name in ("samples", "horizon") else min(int(param.high), int(param.low) + 40)
        return st.integers(int(param.low), high)
    if param.kind == "float":
        return st.floats(param.low, param.high, allow_nan=False)
    return st.just(param.default)  # (str: the deck file stays the shipped one)


@st.composite
def any_configuration(draw, game):
    """A scenario of `game` with rule settings and seats drawn from everything its Params allow (each
    setting its default half of the time)."""
    players = draw(st.integers(game.min_players, game.max_players))
    rules = {p.name: draw(param_values(p)) for p in game.settings if p.kind != "str" and draw(st.booleans())}
    seats = {}
    for s in range(players):
        pol = draw(st.sampled_from(game.policies))
        seats[str(s)] = {"policy": pol.name, **{p.name: draw(param_values(p)) for p in pol.params
                                                  if draw(st.booleans())}}
    raw = {"game": game.name, "games": 1, "seed": draw(st.integers(0, 2**63 - 1)), "players": players,
           "rules": rules, "all_seats": {"policy": game.policies[0].name}, "seats": seats}
    try:
        return from_dict(raw)
    except ScenarioError:  # a combination the rules refuse (e.g. finish_cards below start_cards)
        assume(False)


@pytest.mark.parametrize("name", GAMES)
def test_the_referee_accepts_games_under_any_rules_the_game_allows(name):
    game, referee = get_game(name), referee_of(name)

    @settings(max_examples=25, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(sc=any_configuration(game), index=st.integers(0, 10**6))
    def check(sc, index):
        arm = sc.arms[0]
        events, row = game.play_traced(arm.encoded(game), sc.seed, index)
        referee(events, row, arm)

    check()
