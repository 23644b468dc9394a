"""One conformance suite for every registered game: the checks of analyzer/conformance.py (which
`analyzer check-game NAME` runs; its docstring lists them), parametrised over `game_names()`, so a new game is
checked the moment it is registered, and over the games that live in tests/ (the toy of
docs/adding-a-game.md, registered for each test by the `test_games` fixture).

Here every game must have a referee: tests/referees.py (the shipped games' and the toy's; check-game takes a
game's own, from its package). One check needs hypothesis, a test-only dependency, so it is here alone: the
referee accepts games under any rules and seats the game's settings and policies allow.
"""
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analyzer import conformance as C
from analyzer.cli import main
from analyzer.errors import ScenarioError
from analyzer.games import game_names, get_game
from analyzer.scenario import from_dict
from referees import REFEREES
from toy_helpers import TEST_GAMES

GAMES = game_names() + list(TEST_GAMES)
pytestmark = pytest.mark.usefixtures("test_games")


# (check-game plays 1,200 deals; 300 here, in four chunks against one: a kernel whose games depend on where its block
# starts still fails it, every game)
@pytest.mark.parametrize("name", GAMES)
def test_threads_and_chunks_do_not_change_results(name):
    C.threads_and_chunks_do_not_change_results(name, games=300)


@pytest.mark.parametrize("name", GAMES)
def test_batch_game_equals_traced_game(name):
    C.batch_game_equals_traced_game(name)


@pytest.mark.parametrize("name", GAMES)
def test_random_play_ends_with_well_formed_rows(name):
    C.random_play_ends_with_well_formed_rows(name)


@pytest.mark.parametrize("name", GAMES)
def test_every_policy_plays_at_every_player_count(name):
    C.every_policy_plays_at_every_player_count(name)


@pytest.mark.parametrize("name", GAMES)
def test_shipped_scenarios_validate(name):
    C.shipped_scenarios_validate(name)


@pytest.mark.parametrize("name", GAMES)
def test_traces_are_json_and_documented(name):
    C.traces_are_json_and_documented(name)


@pytest.mark.parametrize("name", GAMES)
def test_every_emit_gives_its_events_declared_fields(name):
    C.every_emit_gives_its_events_declared_fields(name)


def invoke(args):
    r = CliRunner().invoke(main, args)
    return r.exit_code, r.output


@pytest.mark.parametrize("name", GAMES)
def test_cli_trace_text_and_jsonl(name):
    C.trace_command_prints_text_and_jsonl(name, invoke)


def referee_of(name):
    assert name in REFEREES, f"{name} has no referee in tests/referees.py: a game's rules are checked by one"
    return REFEREES[name]


@pytest.mark.parametrize("name", GAMES)
def test_the_referee_accepts_random_games_at_every_player_count(name):
    C.referee_accepts_random_games(name, referee_of(name))


@pytest.mark.parametrize("name", GAMES)
def test_the_referee_refuses_a_stub_kernels_games(name):
    C.referee_refuses_a_stub_kernels_games(name, referee_of(name))


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
