"""The greedy fast path (fast.greedy_block: cards by kind, hands as counts) plays the very games the general loop
(engine.run) plays: the same deals through both paths give the same result rows, at every player count and with
every rule option and deck it accepts (docs/fightsong.md, "How the greedy kernel is fast"); a table it does not
accept is played by the general loop."""
import numpy as np
import pytest

from analyzer.configs import Arm
from analyzer.games.fightsong import GAME
from analyzer.games.fightsong import engine as E
from analyzer.games.fightsong import fast as F
from analyzer.games.fightsong import kernels as K
from fightsong_helpers import write_deck


def config(players, rules=None, seats=None):
    rules = GAME.validate_rules(dict(rules or {}), players, "test")
    seats = [GAME.validate_seat(dict(s), "test", f"seat{i}")
             for i, s in enumerate(seats or [{"policy": "greedy"}] * players)]
    return E.Config(*GAME.encode(rules, seats))


def both_paths(cfg, games, seed=5):
    """The result rows of the same games by fast.batch (the fast path where it applies) and by the general loop."""
    n = cfg.rules[E.R_PLAYERS]
    fast = np.full((games, len(GAME.columns(n))), -7, dtype=np.int64)
    general = fast.copy()
    F.batch(np.uint64(seed), 0, cfg, fast)
    E.batch(np.uint64(seed), 0, cfg, general)
    return fast, general


def assert_same(fast, general, players):
    if not np.array_equal(fast, general):
        bad = np.flatnonzero((fast != general).any(axis=1))
        cols = np.flatnonzero(fast[bad[0]] != general[bad[0]])
        names = [GAME.columns(players)[c] for c in cols]
        raise AssertionError(f"{bad.size} games differ; the first, game {bad[0]}, in {names}: "
                             f"fast {fast[bad[0], cols].tolist()} general {general[bad[0], cols].tolist()}")


def column(rows, players, name):
    return rows[:, GAME.columns(players).index(name)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_default_rules_play_the_same_games_by_both_paths(players):
    cfg = config(players)
    assert F.greedy_fast(cfg)
    fast, general = both_paths(cfg, 4000)
    assert_same(fast, general, players)
    # real games: a winner in nearly every one, Fight Song rounds won, lost and tied, refills, tie-break rounds
    assert (column(fast, players, "n_winners") > 0).mean() > 0.99
    for name in ("fs_won", "fs_lost", "fs_ties", "refills", "tiebreak_rounds"):
        assert column(fast, players, name).sum() > 0, name


@pytest.mark.parametrize("players, rules", [
    (4, {"dealer": "rotating"}),
    (3, {"dealer": "rotating", "fs_step": 2}),
    (2, {"fs_step": 1, "target": 12}),  # several opportunities a hand: rounds one after the other
    (4, {"fs_step": 2, "target": 8}),  # rounds started by both teams, exact ties at the target
    (3, {"hand_size": 3, "refill_at": 0, "refill_cards": 2}),
    (4, {"hand_size": 15, "refill_at": 1, "refill_cards": 1}),
    (2, {"hand_size": 2, "refill_at": 1, "refill_cards": 30, "fs_step": 100}),
    (4, {"max_hands": 10, "target": 1000}),  # the hand cap: stalls
])
def test_the_rule_options_play_the_same_games_by_both_paths(players, rules):
    cfg = config(players, rules)
    assert F.greedy_fast(cfg)
    fast, general = both_paths(cfg, 1500)
    assert_same(fast, general, players)
    if "max_hands" in rules:
        assert (column(fast, players, "end") == 4).all()  # END_STALL
    if rules.get("fs_step") == 2:
        assert column(fast, players, "fs_multi").sum() > 0


@pytest.mark.parametrize("battle", ["leader", "weakest", "random"])
def test_three_players_battles_play_the_same_games_by_both_paths(battle):
    # a battle by the random rule draws from the chooser's stream: the same draws in both paths
    cfg = config(3, {"fs_step": 3}, [{"policy": "greedy", "battle": battle}] * 3)
    fast, general = both_paths(cfg, 1500, seed=11)
    assert_same(fast, general, 3)


def test_a_designers_deck_plays_the_same_games_by_both_paths(tmp_path):
    """Uneven copies (a kind with none), two Activity cards, one Fight Song card (it comes back for replays)."""
    path = write_deck(tmp_path / "d.toml",
                      [(["Band/Flyer", "Cheer/Brass", "Fans/Parents", "Band/Woodwind"], "Fans"),
                       (["Cheer/Spotter", "Fans/Alumni", "Band/Students", "Cheer/Base"], "Band")],
                      [(["Fans/Flyer", "Band/Brass", "Cheer/Percussion", "Fans/Students"], "Cheer")],
                      copies={"Band/Woodwind": 10, "Band/Brass": 3, "Cheer/Flyer": 7, "Cheer/Spotter": 12,
                              "Fans/Students": 5, "Fans/Parents": 9})
    for players in (2, 3, 4):
        cfg = config(players, {"deck_file": str(path), "fs_step": 4})
        fast, general = both_paths(cfg, 1000)
        assert_same(fast, general, players)


def test_the_stacked_stacks_of_the_tests_play_the_same_games_by_both_paths():
    cfg = config(4)
    cfg.rules[E.R_STACKED] = 1  # the stacks in the orders given, unshuffled: every game the same
    fast, general = both_paths(cfg, 64)
    assert_same(fast, general, 4)
    assert (fast == fast[0]).all()


def test_other_tables_take_the_general_loop():
    for seats in ([{"policy": "greedy"}] * 3 + [{"policy": "team"}], [{"policy": "random"}] * 4,
                  [{"policy": "blocker"}, {"policy": "greedy"}]):
        cfg = config(len(seats), None, seats)
        assert not F.greedy_fast(cfg)
        fast, general = both_paths(cfg, 300)
        assert_same(fast, general, len(seats))
    # the batch entry takes the fast path for greedy tables (and the lookahead's kernel for a lookahead seat)
    calls = []
    real = F.greedy_block
    try:
        F.greedy_block = lambda *args: calls.append(args) or real(*args)
        out = np.zeros((100, len(GAME.columns(4))), dtype=np.int64)
        K.batch(np.uint64(1), 0, config(4), out)
        assert calls
        calls.clear()
        K.batch(np.uint64(1), 0, config(4, None, [{"policy": "team"}] * 4), out)
        assert not calls
    finally:
        F.greedy_block = real


def test_the_fast_path_can_be_turned_off():
    cfg = config(4)
    calls = []
    real = F.greedy_block
    try:
        F.greedy_block = lambda *args: calls.append(args) or real(*args)
        out = np.zeros((100, len(GAME.columns(4))), dtype=np.int64)
        F.batch(np.uint64(1), 0, cfg, out, fast_path=0)
        with F.general_path():  # (analyzer bench's general-path case)
            F.batch(np.uint64(1), 0, cfg, out)
        assert not calls
        F.batch(np.uint64(1), 0, cfg, out)
        assert calls
    finally:
        F.greedy_block = real


@pytest.fixture
def fast_path_nowhere(monkeypatch):
    """greedy_block replaced by a spy compiled nowhere (in this process or numba's cache, as on a cold start):
    (the calls it got, a dict whose "cached" says whether numba's cache holds it)."""
    calls, held = [], {"cached": False}
    real = F.greedy_block

    def spy(*args):
        calls.append(args)
        return real(*args)

    spy.overloads, spy._cache = {}, None
    monkeypatch.setattr(F, "greedy_block", spy)
    monkeypatch.setattr(F, "in_cache", lambda kernel, cache, sig: held["cached"])
    monkeypatch.setattr(F, "_in_cache", {})
    return calls, held


def test_a_short_run_plays_by_the_general_kernel_unless_the_fast_path_is_compiled(fast_path_nowhere):
    from analyzer.planned_games import planning

    calls, held = fast_path_nowhere
    cfg = config(4)
    out = np.zeros((300, len(GAME.columns(4))), dtype=np.int64)
    with planning(F.FAST_PATH_GAMES - 1):
        F.batch(np.uint64(3), 0, cfg, out)
    assert not calls, "a short run compiled the fast path"
    general = out.copy()
    with planning(F.FAST_PATH_GAMES):
        F.batch(np.uint64(3), 0, cfg, out)
    assert calls, "a long run did not play by the fast path"
    assert_same(out, general, 4)
    calls.clear()
    F.batch(np.uint64(3), 0, cfg, out)  # no plan (the bench, a direct call): as a long run
    assert calls
    calls.clear()
    held["cached"] = True  # in numba's cache (the answer is kept per process: asked afresh here): a short run loads it
    F._in_cache.clear()
    with planning(1000):
        F.batch(np.uint64(3), 0, cfg, out)
    assert calls
    calls.clear()
    held["cached"] = False
    F._in_cache.clear()
    F.greedy_block.overloads = {F.block_signature(cfg): None}
    with planning(1000):  # loaded in this process already: used
        F.batch(np.uint64(3), 0, cfg, out)
    assert calls


def test_the_run_command_plans_its_games_and_a_run_without_traced_games_takes_the_fast_path(fast_path_nowhere,
                                                                                           tmp_path):
    from click.testing import CliRunner

    from analyzer import runner
    from analyzer.cli import main
    from analyzer.planned_games import planned
    from analyzer.scenario import load

    calls, _ = fast_path_nowhere
    f = tmp_path / "s.toml"
    f.write_text('name = "t"\ngame = "fightsong"\nplayers = 2\ngames = 200\nseed = 2\n')
    r = CliRunner().invoke(main, ["run", str(f), "-q", "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    assert not calls and planned() is None, "`analyzer run` of 200 deals compiled the fast path, or left its plan set"
    # (the API, a tune's trials: no report replays traced games, so no general kernel to compile anyway)
    plain = runner.run(load(f), progress=False, threads=1)
    assert calls
    assert plain.groups[0].summary.n == 200


def test_a_short_run_compiles_the_general_kernels_callees_beside_it(fast_path_nowhere):
    from analyzer.planned_games import planning

    arm = Arm("t", GAME.validate_rules({}, 4, "t"), [GAME.validate_seat({"policy": "greedy"}, "t", "s")] * 4, {})
    with planning(1000):
        short = {part.py_func.__name__ for part, _ in K.compile_parts(arm)}
    with planning(F.FAST_PATH_GAMES):
        long = {part.py_func.__name__ for part, _ in K.compile_parts(arm)}
    # (their signatures are checked against engine.run's calls by tests/test_compile_parts.py, on a team table)
    assert {"play_board", "fight_song_round"} <= short
    assert not {"play_board", "fight_song_round"} & long
