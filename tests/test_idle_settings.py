"""Settings with no effect (issue 26): each game's Game.idle is true to its kernel (an idle value changes no game,
the same key where it is read does), and a scenario that writes an idle value gets exactly one warning line,
before play, in manifest.json and in the report's settings; a default or a value that matters gets none."""
import copy
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.scenario import from_dict, load, set_path

NOIZE = {"game": "noize", "games": 200, "seed": 3, "players": 4, "all_seats": {"policy": "threshold"}}
BARDS = {"game": "bards", "games": 200, "seed": 3, "players": 2, "all_seats": {"policy": "greedy"}}
DISTANCE = {"game": "distance", "games": 200, "seed": 3, "players": 3, "all_seats": {"policy": "greedy"}}
FIGHTSONG = {"game": "fightsong", "games": 200, "seed": 3, "players": 4, "all_seats": {"policy": "greedy"}}


def _with(raw, changes):
    raw = copy.deepcopy(raw)
    for path, value in changes.items():
        set_path(raw, path, value)
    return raw


def play(raw):
    """The result rows of the scenario's first configuration, and its Game.idle paths."""
    sc = from_dict(raw)
    arm = sc.arms[0]
    out = np.zeros((sc.games, len(sc.game.columns(len(arm.seats)))), dtype=np.int64)
    sc.game.run_batch(arm.encoded(sc.game), sc.seed, 0, out)
    return out, {path for path, _ in sc.game.idle(arm.rules, arm.seats, len(arm.seats))}


def _no_wild_deck(tmp_path):
    """The Musicards deck without its wilds: no start card lets a player choose the letter."""
    from analyzer.games.distance.rules import DEFAULT_DECK

    rows = [r for r in DEFAULT_DECK.read_text().splitlines() if not r.endswith((",*,4", ",*,2"))]
    path = tmp_path / "no-wilds.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


# (id, scenario, path written, two values, the Game.idle path, changes under which the written path is read (or
# a path of its own: (changes, path)))
CASES = [
    ("noize shuffle, one round", _with(NOIZE, {"rules.start_cards": 3, "rules.finish_cards": 4}),
     "rules.shuffle_each_round", (False, True), "rules.shuffle_each_round", {"rules.finish_cards": 8}),
    ("noize max_jump, no bluff", _with(NOIZE, {"all_seats.bluff": 0.0}), "seats.1.max_jump", (1, 6),
     "seats.1.max_jump", {"all_seats.bluff": 0.3}),
    ("noize compare_raise, challenge_below 1", _with(NOIZE, {"all_seats.challenge_below": 1.0}),
     "seats.2.compare_raise", (False, True), "seats.2.compare_raise", {"all_seats.challenge_below": 0.5}),
    ("bards setup, seat 0", BARDS, "seats.0.setup", ("random", "greedy"), "seats.0.setup",
     ({}, "seats.1.setup")),
    ("bards face_up_threshold, choose expected", BARDS, "seats.0.face_up_threshold", (0.0, 20.0),
     "seats.0.face_up_threshold", {"all_seats.choose": "face_up_at_least"}),
    ("bards spite, random", _with(BARDS, {"seats.0.policy": "random"}), "seats.0.spite", (0.0, 1.0), "seats.0.spite",
     {"seats.0.policy": "greedy"}),
    *[(f"bards {name}, random", _with(BARDS, {"seats.1.policy": "random"}), f"seats.1.{name}", values,
       f"seats.1.{name}", {"seats.1.play": "greedy"})
      for name, values in (("conclude_at", (2.0, 30.0)), ("hope", (0.0, 4.0)), ("meme_keep", (0.0, 1.0)))],
    ("bards hope, random but a greedy setup", _with(BARDS, {"seats.1.policy": "random"}), "seats.1.hope", (0.0, 4.0),
     "seats.1.hope", {"seats.1.setup": "greedy"}),
    ("distance random_intervals, seconds", DISTANCE, "rules.random_intervals", ([2, 3], [6, 7]),
     "rules.random_intervals", {"rules.interval": "random"}),
    ("distance chooser, thirds", _with(DISTANCE, {"rules.interval": "thirds"}), "rules.chooser", (0, 1),
     "rules.chooser", {"rules.interval": "chooser"}),
    ("distance interval, not the chooser", _with(DISTANCE, {"rules.interval": "chooser", "rules.chooser": 2}),
     "seats.0.interval", ("fixed", "worst_for_next"), "seats.0.interval", ({}, "seats.2.interval")),
    ("distance fixed_interval, random intervals", _with(DISTANCE, {"rules.interval": "random",
                                                                  "seats.0.interval": "fixed"}),
     "seats.0.fixed_interval", (2, 7), "seats.0.fixed_interval", {"rules.interval": "chooser", "rules.chooser": 0}),
    ("distance fixed_interval, best_for_me", _with(DISTANCE, {"rules.interval": "chooser"}),
     "seats.2.fixed_interval", (3, 6), "seats.2.fixed_interval", {"seats.2.interval": "fixed"}),
    ("distance wild_reserve, greedy", DISTANCE, "seats.1.wild_reserve", (0, 10), "seats.1.wild_reserve",
     {"seats.1.policy": "conserve"}),
    ("distance declare, no wild", DISTANCE, "all_seats.declare", ("block_next", "easy_self"), "seats.0.declare",
     "NO_WILD"),
    ("fightsong target, out of reach", _with(FIGHTSONG, {"players": 3, "rules.max_hands": 10}), "rules.target",
     (100, 200), "rules.target", {"rules.max_hands": 1000}),
    ("fightsong battle, no Fight Song round", _with(FIGHTSONG, {"players": 3, "rules.fs_step": 24}), "all_seats.battle",
     ("leader", "weakest"), "seats.1.battle", {"rules.fs_step": 6}),
    ("fightsong battle, 4 players", FIGHTSONG, "all_seats.battle", ("leader", "weakest"), "seats.0.battle",
     {"players": 3}),
    ("fightsong partner_weight, 3 players", _with(FIGHTSONG, {"players": 3, "all_seats.policy": "team"}),
     "seats.0.partner_weight", (0.0, 3.0), "seats.0.partner_weight", {"players": 4}),
    ("fightsong partner_weight, 2 players", _with(FIGHTSONG, {"players": 3, "all_seats.policy": "team"}),
     "seats.0.partner_weight", (0.0, 3.0), "seats.0.partner_weight", {"players": 2}),
]


@pytest.mark.parametrize("name, raw, path, values, idle_path, live", CASES, ids=[c[0] for c in CASES])
def test_an_idle_value_changes_no_game_and_is_read_where_it_is_not_idle(tmp_path, name, raw, path, values, idle_path,
                                                                        live):
    live_path = path
    if live == "NO_WILD":  # (declare: the wild-less deck is the idle case, the default deck the live one)
        raw, live = _with(raw, {"rules.deck_file": _no_wild_deck(tmp_path)}), {"rules.deck_file": "default"}
    if isinstance(live, tuple):
        live, live_path = live
    rows_a, idle = play(_with(raw, {path: values[0]}))
    rows_b, _ = play(_with(raw, {path: values[1]}))
    assert idle_path in idle
    assert np.array_equal(rows_a, rows_b), f"{path} changed a game where Game.idle says it cannot"
    live_raw = _with(raw, live)
    live_idle_path = idle_path if live_path == path else live_path
    rows_a, idle = play(_with(live_raw, {live_path: values[0]}))
    rows_b, _ = play(_with(live_raw, {live_path: values[1]}))
    assert live_idle_path not in idle
    assert not np.array_equal(rows_a, rows_b), f"{live_path} should change some of 200 games here"


# --- the warnings ---------------------------------------------------------------------------------------------
def warnings_of(tmp_path, text, overrides=()):
    f = tmp_path / "my.toml"
    f.write_text(text)
    return load(f, overrides).warnings, str(f)


HEAD = {"noize": 'game = "noize"\ngames = 300\nseed = 1\nplayers = 4\n',
        "bards": 'game = "bards"\ngames = 300\nseed = 1\n',
        "distance": 'game = "distance"\ngames = 300\nseed = 1\nplayers = 3\n',
        "fightsong": 'game = "fightsong"\ngames = 300\nseed = 1\nplayers = 3\n',
        "fightsong4": 'game = "fightsong"\ngames = 300\nseed = 1\nplayers = 4\n'}

# (game, the scenario's text after its head, the one warning's text after "Warning: <file>: ")
WARNS = [
    ("noize", "[all_seats]\npolicy = \"threshold\"\nbluff = 0.0\nmax_jump = 4\n",
     "all_seats.max_jump = 4: has no effect: with bluff = 0 it never bluffs, so it never jumps"),
    ("noize", "[rules]\nstart_cards = 3\nfinish_cards = 4\nshuffle_each_round = true\n",
     "rules.shuffle_each_round = true: has no effect: with finish_cards = start_cards + 1 the first challenge ends "
     "the game, before any round the house rule would shuffle for"),
    ("bards", "[seats.0]\nsetup = \"random\"\n",
     'seats.0.setup = "random": has no effect: seat 0 never sets up: seat 1 deals the setup cards'),
    ("bards", "[all_seats]\npolicy = \"random\"\nhope = 2.0\n",
     "all_seats.hope = 2.0: has no effect: it splits, chooses, plays and sets up at random: it never values a tale"),
    ("distance", "[rules]\nrandom_intervals = [3, 4]\n",
     'rules.random_intervals = [3, 4]: has no effect: random intervals are off: interval = "seconds"'),
    ("distance", "[rules]\ninterval = \"random\"\n[seats.0]\nfixed_interval = 5\n",
     'seats.0.fixed_interval = 5: has no effect: no seat chooses the interval: interval = "random"'),
    ("distance", "[all_seats]\npolicy = \"greedy\"\nwild_reserve = 4\n",
     "all_seats.wild_reserve = 4: has no effect: only the conserve policy reads it, not greedy"),
    ("fightsong", "[all_seats]\npolicy = \"team\"\n[seats.2]\npartner_weight = 0.5\n",
     "seats.2.partner_weight = 0.5: has no effect: a 3-player game has no partners"),
    ("fightsong", "[rules]\nmax_hands = 10\ntarget = 40\n",
     "rules.target = 40: has no effect: no game can reach it, nor any target above 35 (a team scores at most 3 round "
     "points a hand, so at most 35 points, extra points included, in max_hands = 10 hands): every game ends as a "
     "stall"),
    ("fightsong", "[rules]\nfs_step = 24\n[all_seats]\nbattle = \"weakest\"\n",
     'all_seats.battle = "weakest": has no effect: with fs_step = 24 no team\'s round points cross a multiple of it '
     'before the game ends, so no Fight Song round starts'),
]


@pytest.mark.parametrize("game, text, expected", WARNS, ids=[f"{w[0]}-{i}" for i, w in enumerate(WARNS)])
def test_an_idle_value_gets_exactly_one_line_naming_file_key_value_and_why(tmp_path, game, text, expected):
    lines, f = warnings_of(tmp_path, HEAD[game] + text)
    assert lines == [f"Warning: {f}: {expected}"]


# the same keys where they are read, and idle conditions with the key left at its default
QUIET = [
    ("noize", "[all_seats]\npolicy = \"threshold\"\nbluff = 0.2\nmax_jump = 4\n"),
    ("noize", "[all_seats]\npolicy = \"threshold\"\nbluff = 0.0\n"),  # max_jump's default: no warning
    ("noize", "[rules]\nstart_cards = 3\nfinish_cards = 5\nshuffle_each_round = true\n"),
    ("bards", "[seats.1]\nsetup = \"random\"\n"),
    ("bards", "rotate_seats = true\n[seats.0]\nsetup = \"random\"\n"),  # seat 0's policy sets up in rotation 1
    ("bards", "[all_seats]\npolicy = \"random\"\nplay = \"greedy\"\nhope = 2.0\n"),
    ("bards", "[all_seats]\npolicy = \"random\"\n"),  # every idle parameter at its default
    ("bards", "[seats.1]\npolicy = \"random\"\nsetup = \"greedy\"\nhope = 2.0\nspite = 0.5\n"),  # its setup values
    ("distance", "[rules]\ninterval = \"random\"\nrandom_intervals = [3, 4]\n"),
    ("distance", "[rules]\ninterval = \"chooser\"\n[all_seats]\ninterval = \"fixed\"\nfixed_interval = 5\n"),
    ("distance", "[all_seats]\npolicy = \"greedy\"\n[seats.1]\npolicy = \"conserve\"\nwild_reserve = 4\n"),
    ("fightsong4", "[all_seats]\npolicy = \"team\"\npartner_weight = 0.5\n"),
    ("fightsong", "[all_seats]\npolicy = \"team\"\n"),  # partner_weight's default in a 3-player game
    ("fightsong", "[rules]\nmax_hands = 10\ntarget = 35\n"),  # the most a team can score: still reachable
    ("fightsong", "[all_seats]\nbattle = \"weakest\"\n"),
    ("fightsong4", "[rules]\nfs_step = 100\n"),  # Fight Song rounds turned off on purpose
]


@pytest.mark.parametrize("game, text", QUIET, ids=[f"{q[0]}-{i}" for i, q in enumerate(QUIET)])
def test_a_value_that_is_read_or_a_default_gets_no_warning(tmp_path, game, text):
    assert warnings_of(tmp_path, HEAD[game] + text)[0] == []


def test_a_key_warns_only_if_idle_in_every_configuration_it_reaches(tmp_path):
    head = HEAD["distance"]
    # read in the second variant: no warning; written in a variant where it is idle: that variant's key
    lines, f = warnings_of(tmp_path, head + '[rules]\nrandom_intervals = [3, 4]\n[[variants]]\nname = "a"\n'
                                             '[[variants]]\nname = "b"\nrules = {interval = "random"}\n'
                                             '[[variants]]\nname = "c"\nrules = {chooser = 1}\n')
    assert lines == [f'Warning: {f}: variants[2].rules.chooser = 1: has no effect: no seat chooses the interval: '
                     f'interval = "seconds"']
    # a sweep: idle at every point names the axis and its values, once
    lines, f = warnings_of(tmp_path, head + '[sweep]\nx = {path = "all_seats.wild_reserve", values = [1, 5]}\n')
    assert lines == [f"Warning: {f}: sweep.x: all_seats.wild_reserve = [1, 5]: has no effect: only the conserve "
                     f"policy reads it, not greedy"]
    # a sweep that turns it on at one point: nothing
    sweep = '[sweep]\nx = {path = "all_seats.policy", values = ["greedy", "conserve"]}\n'
    lines, _ = warnings_of(tmp_path, head + '[all_seats]\nwild_reserve = 3\n' + sweep)
    assert lines == []


def test_ladders_round_robins_and_flags_name_the_key_the_user_wrote(tmp_path):
    head = HEAD["fightsong4"]
    lines, f = warnings_of(tmp_path, head + '[ladder]\nrungs = [{policy = "random"}, {policy = "greedy", '
                                            'battle = "weakest"}]\nfield = {policy = "greedy", battle = "random"}\n')
    why = "has no effect: only a 3-player game has battles (this one has 4 players)"
    assert lines == [f'Warning: {f}: ladder.field.battle = "random": {why}',  # (in the order of first use)
                     f'Warning: {f}: ladder.rungs[1].battle = "weakest": {why}']
    # the default ladder writes values (the lookahead rung's samples) the user never wrote
    assert warnings_of(tmp_path, head + "[ladder]\n")[0] == []
    lines, f = warnings_of(tmp_path, head.replace("players = 4", "players = 2")
                           + 'policies = [{policy = "greedy"}, {policy = "blocker", battle = "weakest"}]\n')
    assert lines == [f'Warning: {f}: policies[1].battle = "weakest": has no effect: only a 3-player game has battles '
                     f'(this one has 2 players)']
    lines, f = warnings_of(tmp_path, head, [("all_seats.battle", "weakest"), ("rules.target", 30, "--set")])
    assert lines == [f'Warning: {f}, --set: all_seats.battle = "weakest": {why}']


def test_an_all_seats_value_no_seat_plays_warns(tmp_path):
    lines, f = warnings_of(tmp_path, HEAD["noize"].replace("players = 4", "players = 2")
                           + '[all_seats]\npolicy = "random"\nmax_raise = 3\n[seats.0]\npolicy = "threshold"\n'
                             '[seats.1]\npolicy = "threshold"\n')
    assert lines == [f"Warning: {f}: all_seats.max_raise = 3: has no effect: no seat plays with all_seats: every "
                     f"seat names another policy"]


def test_a_stop_metric_only_variants_read_warns_elsewhere(tmp_path):
    stop = '[stop]\nmax_games = 300\nmin_games = 100\nprecision = 1\nmetric = "length"\n'
    lines, f = warnings_of(tmp_path, HEAD["noize"] + stop)
    assert lines == [f'Warning: {f}: stop.metric = "length": has no effect: only a [[variants]] comparison stops '
                     f"on a metric; this run looks at every seat's (team's) win share"]
    variants = '[[variants]]\nname = "a"\n[[variants]]\nname = "b"\nrules = {shuffle_each_round = true}\n'
    assert warnings_of(tmp_path, HEAD["noize"] + variants + stop)[0] == []


def test_warnings_come_before_play_and_are_in_the_manifest_and_the_report(tmp_path):
    f = tmp_path / "my.toml"
    f.write_text(HEAD["noize"] + "[all_seats]\npolicy = \"threshold\"\nbluff = 0.0\nmax_jump = 4\n")
    out = tmp_path / "rep"
    r = CliRunner().invoke(main, ["run", str(f), "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    line = f"Warning: {f}: all_seats.max_jump = 4: has no effect: with bluff = 0 it never bluffs, so it never jumps"
    err = r.stderr.splitlines()
    assert err[0] == line and "deals x" in err[1]  # before the run's first line
    assert json.loads((out / "manifest.json").read_text())["warnings"] == [line]
    md = (out / "report.md").read_text()
    settings = md[md.index("<summary>Rules and players"):]
    assert "> " + line in settings[:settings.index("\n## ", 1)]
    clean = tmp_path / "clean"
    f.write_text(HEAD["noize"])
    r = CliRunner().invoke(main, ["run", str(f), "-q", "--out", str(clean)])
    assert "Warning" not in r.stderr
    assert json.loads((clean / "manifest.json").read_text())["warnings"] == []


def test_trace_and_ladder_say_the_warnings_too(tmp_path):
    r = CliRunner().invoke(main, ["trace", "noize", "--set", "all_seats.bluff=0.0", "--set", "all_seats.max_jump=3"])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == ["Warning: (trace defaults), --set: all_seats.max_jump = 3: has no effect: with "
                                     "bluff = 0 it never bluffs, so it never jumps"]
    f = tmp_path / "ladder.toml"
    f.write_text(HEAD["noize"] + '[ladder]\nrungs = [{policy = "random"}, {policy = "threshold", bluff = 0.0, '
                                 'max_jump = 4}]\n')
    r = CliRunner().invoke(main, ["ladder", "noize", "--scenario", str(f), "-q", "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0] == (f"Warning: {f}: ladder.rungs[1].max_jump = 4: has no effect: with bluff = 0 "
                                        f"it never bluffs, so it never jumps")
