"""A table of bad inputs, every class a hostile tester tried: each one ends, within seconds and before any
game is played, with a non-zero exit and one line that names the key (or flag) and the value, and
never a traceback.

Each case is (scenario text or None, extra command-line arguments, text the one line must contain). The
scenario text may be a dict: "scenario" is the scenario's text, every other key a file written next to it
(text, bytes, "FIFO" or "DIR"), e.g. the deck file it points at."""
import os
import sys
import time

from pathlib import Path

import pytest

from analyzer import runner
from analyzer.cli import entry

NOIZE = 'game = "noize"\ngames = 100\nseed = 1\nplayers = 4\n'
BARDS = 'game = "bards"\ngames = 100\nseed = 1\nplayers = 2\n'
V = NOIZE + '[[variants]]\nname = "a"\n[[variants]]\nname = "b"\n'
DIST = 'game = "distance"\ngames = 100\nseed = 1\nplayers = 2\n[rules]\ndeck_file = "deck.csv"\n'
FS = 'game = "fightsong"\ngames = 100\nseed = 1\nplayers = 4\n[rules]\ndeck_file = "deck.toml"\n'
DIST_DECK = "name,letters,copies\n" + "".join(f"{x},{x},4\n" for x in "ABCDEFG")
FS_DECK = (Path(__file__).parent.parent / "analyzer/games/fightsong/data/default.toml").read_text()
DIST_RANDOM = 'game = "distance"\ngames = 100\nseed = 1\nplayers = 2\n[rules]\ninterval = "random"\nrandom_intervals = [2, 3]\n'
RR = 'game = "noize"\ngames = 100\nseed = 1\nplayers = 2\npolicies = [{policy = "threshold"}, {policy = "random"}]\n'


def sweep(axis, extra=""):
    return NOIZE + f"[sweep]\nx = {axis}\n{extra}"


CASES = [
    # analyzer profile: its table, its flags, one configuration
    (NOIZE + "[profile]\nreplays = 1\n", ["PROFILE"], "profile.replays = 1: must be an integer from 2 to 64"),
    (NOIZE + "[profile]\ndeals = 5\n", ["PROFILE"], "profile.deals = 5: must be an integer from 10"),
    (NOIZE + "[profile]\ncolour = 1\n", ["PROFILE"], "profile.colour = 1: unknown key"),
    (NOIZE + "[profile.thresholds]\nfirst_seat_edge = 200\n", ["PROFILE"],
     "profile.thresholds.first_seat_edge = 200: must be a number from 0 to 100 (points)"),
    (NOIZE + "[profile.thresholds]\nbogus = 1\n", ["PROFILE"], "profile.thresholds.bogus = 1: unknown check"),
    (NOIZE + '[profile]\nlevels = ["nope"]\n', ["PROFILE"], "profile.levels[0].policy = \"nope\""),
    (NOIZE + '[profile]\nlevels = ["threshold", "threshold"]\n', ["PROFILE"], "the two levels must differ"),
    (NOIZE, ["PROFILE", "--level", "nope"], "--level = \"nope\""),
    (NOIZE, ["PROFILE", "--level", "threshold:64"], "has no budget"),
    (NOIZE, ["PROFILE", "--replays", "1"], "--replays"),
    (NOIZE + "[profile]\ndeals = 200000\nreplays = 64\n", ["PROFILE"], "must be at most 2,000,000"),
    (V, ["PROFILE"], "a profile plays one configuration"),
    # the file itself
    (None, ["run", "missing.toml"], "missing.toml: does not exist"),
    ("DIR", [], "is a directory"),
    ("FIFO", [], "is a FIFO (named pipe), not a scenario"),
    (b"game = \"noize\"\xff\xfe", [], "is not UTF-8 text"),
    ("game = [", [], "is not valid TOML"),
    ("", [], "game = (missing)"),
    # top-level keys
    (NOIZE + "colour = 1\n", [], "colour = 1: unknown key"),
    (NOIZE.replace('"noize"', '"chess"'), [], 'game = "chess"'),
    (NOIZE + "a" + ".a" * 10_000 + " = 1\n", [], "line 5 has a dotted key of more than 64 parts"),
    (NOIZE.replace("games = 100", "games = 0"), [], "games = 0"),
    (NOIZE.replace("games = 100", "games = -5"), [], "games = -5"),
    (NOIZE.replace("games = 100", "games = 1.5"), [], "games = 1.5"),
    (NOIZE.replace("games = 100", 'games = "many"'), [], 'games = "many"'),
    (NOIZE.replace("games = 100", "games = 100000000000000"), [], "games = 100000000000000"),
    (NOIZE.replace("games = 100", "games = nan"), [], "games = nan"),
    (NOIZE.replace("seed = 1", "seed = -1"), [], "seed = -1"),
    (NOIZE.replace("seed = 1", "seed = 18446744073709551616"), [], "seed = 18446744073709551616"),
    (NOIZE.replace("seed = 1", "seed = true"), [], "seed = true"),
    (NOIZE.replace("players = 4", "players = 8"), [], "players = 8"),
    (NOIZE.replace("players = 4", "players = 1"), [], "players = 1"),
    (NOIZE.replace("players = 4", 'players = "four"'), [], 'players = "four"'),
    (NOIZE + "name = 3\n", [], "name = 3"),
    (NOIZE + "rotate_seats = \"yes\"\n", [], 'rotate_seats = "yes"'),
    (NOIZE + "rules = 3\n", [], "rules = 3"),
    (NOIZE + "all_seats = 3\n", [], "all_seats = 3"),
    (NOIZE + "seats = 3\n", [], "seats = 3"),
    # rule settings
    (NOIZE + "[rules]\nshufle_each_round = true\n", [], "rules.shufle_each_round = true: unknown rule setting"),
    (NOIZE + "[rules]\nshuffle_each_round = 1\n", [], "rules.shuffle_each_round = 1"),
    (NOIZE + "[rules]\nfinish_cards = 2.5\n", [], "rules.finish_cards = 2.5"),
    (NOIZE + "[rules]\nfinish_cards = 100\n", [], "rules.finish_cards = 100"),
    (NOIZE + "[rules]\nfinish_cards = inf\n", [], "rules.finish_cards = inf"),
    (NOIZE + "[rules]\nstart_cards = 9\n", [], "rules.finish_cards = 8: must be greater than rules.start_cards"),
    (NOIZE + "[rules]\nvocals = -1\n", [], "rules.vocals = -1"),
    (NOIZE + "[rules]\nvocals = 0\nkeyboard = 0\nguitar = 0\ndrums = 0\n", [], "rules.finish_cards = 8"),
    (NOIZE.replace("players = 4", "players = 7") + "[rules]\nstart_cards = 2\nfinish_cards = 60\nvocals = 200\nkeyboard = 200\n",
     [], "probability table would need"),
    (BARDS + '[rules]\ndeck = "huge"\n', [], 'rules.deck = "huge"'),
    (BARDS + '[rules]\ncopies = 2\n', [], "rules.copies = 2"),
    (BARDS.replace("players = 2", "players = 3"), [], "players = 3"),
    # deck files (rules.deck_file)
    ({"scenario": DIST, "deck.csv": "FIFO"}, [], 'rules.deck_file = "deck.csv": the deck file'),
    ({"scenario": FS, "deck.toml": "FIFO"}, [], "deck.toml is a FIFO (named pipe), not a deck file"),
    (DIST.replace("deck.csv", "/dev/zero"), [], 'rules.deck_file = "/dev/zero": the deck file /dev/zero is a device'),
    (FS.replace("deck.toml", "/dev/urandom"), [], "the deck file /dev/urandom is a device"),
    ({"scenario": DIST, "deck.csv": "DIR"}, [], "deck.csv is a folder, not a deck file"),
    (FS, [], "deck.toml does not exist"),
    ({"scenario": DIST, "deck.csv": b"x" * 2_000_000}, [], "holds 2,000,000 bytes: a deck file may hold at most"),
    ({"scenario": FS, "deck.toml": b"x" * 2_000_000}, [], "holds 2,000,000 bytes: a deck file may hold at most"),
    ({"scenario": DIST, "deck.csv": DIST_DECK + "Ab,A G,²\n"}, [],
     'rules.deck_file = "deck.csv": deck.csv, card row 8 (Ab): copies "²" must be a whole number from 1 to 100'),
    ({"scenario": DIST, "deck.csv": DIST_DECK * 5}, [], "deck.csv: 39 card rows: a deck has at most 32 kinds"),
    ({"scenario": DIST, "deck.csv": DIST_DECK.replace("A,A,4", "A,A,100").replace("B,B,4", "B,B,100")
      .replace("C,C,4", "C,C,100")}, [], "deck.csv: 316 cards: a deck has at most 256"),
    ({"scenario": FS, "deck.toml": FS_DECK.replace("= 8", '= "²"', 1)}, [],
     'rules.deck_file = "deck.toml": deck.toml: game_play."Band/Woodwind" = "²": must be a number of copies'),
    ({"scenario": FS, "deck.toml": FS_DECK + "[[activity]]\n" * 400}, [], "deck.toml: holds 424 [[...]] tables"),
    ({"scenario": FS, "deck.toml": FS_DECK.replace('bonus = "', 'bonus = "X', 1)}, [],
     'deck.toml: activity[0] (id "A01").bonus = "XBand"'),
    ({"scenario": V.replace("noize", "fightsong") + 'rules.deck_file = "deck.toml"\n', "deck.toml": "[game_play\n"},
     [], 'variants[1].rules.deck_file = "deck.toml": deck.toml: is not valid TOML'),
    ({"scenario": DIST, "deck.csv": DIST_DECK}, ["--set", "rules.deck_file=/dev/zero"],
     '--set: rules.deck_file = "/dev/zero": the deck file /dev/zero is a device'),
    # seats and policies
    (NOIZE + '[all_seats]\npolicy = "smart"\n', [], 'all_seats.policy = "smart"'),
    (NOIZE + '[all_seats]\npolicy = "threshold"\nbluff = 1.5\n', [], "all_seats.bluff = 1.5"),
    (NOIZE + '[all_seats]\npolicy = "threshold"\nbluff = nan\n', [], "all_seats.bluff = nan"),
    (NOIZE + '[all_seats]\npolicy = "threshold"\nchallenge_below = -inf\n', [], "all_seats.challenge_below = -inf"),
    (NOIZE + '[all_seats]\npolicy = "threshold"\nblff = 0.2\n', [], "all_seats.blff = 0.2: not a parameter"),
    (NOIZE + '[all_seats]\npolicy = "random"\nbluff = 0.2\n', [], "all_seats.bluff = 0.2: not a parameter of policy"),
    (NOIZE + '[all_seats]\npolicy = "threshold"\nmax_jump = 2.5\n', [], "all_seats.max_jump = 2.5"),
    (NOIZE + '[all_seats]\npolicy = "threshold"\ncompare_raise = "no"\n', [], 'all_seats.compare_raise = "no"'),
    (NOIZE + '[seats.4]\npolicy = "random"\n', [], "seats.4 = "),
    (NOIZE + '[seats.00]\npolicy = "random"\n', [], "seats.00 = "),
    (NOIZE + '[seats.x]\npolicy = "random"\n', [], "seats.x = "),
    (NOIZE + '[seats]\n0 = 5\n', [], "seats.0 = 5"),
    (NOIZE + '[seats.1]\nbluff = 7\n', [], "seats.1.bluff = 7"),
    (NOIZE + '[seats."²"]\npolicy = "random"\n', [], 'seats.² = {policy = "random"}: seat numbers run from 0 to 3'),
    (NOIZE + '[seats."٣"]\npolicy = "random"\n', [], "seats.٣ = "),
    (BARDS + '[all_seats]\npolicy = "greedy"\nhope = nan\n', [], "all_seats.hope = nan"),
    (BARDS + '[all_seats]\npolicy = "greedy"\nconclude_at = inf\n', [], "all_seats.conclude_at = inf"),
    (BARDS + '[all_seats]\npolicy = "greedy"\nplay = "clever"\n', [], 'all_seats.play = "clever"'),
    # variants
    (NOIZE + "variants = 3\n", [], "variants = 3"),
    (NOIZE + '[[variants]]\nname = "only"\n', [], "variants = "),
    (NOIZE + '[[variants]]\nname = "a"\n[[variants]]\nrules.shuffle_each_round = true\n', [], "variants[1].name"),
    (NOIZE + '[[variants]]\nname = "a"\n[[variants]]\nname = ""\n', [], 'variants[1].name = ""'),
    (NOIZE + '[[variants]]\nname = "a"\n[[variants]]\nname = "a"\n', [], 'variants[1].name = "a"'),
    (V + "rulez.shuffle_each_round = true\n", [], "variants[1].rulez"),
    (V + "games = 5\n", [], "variants[1].games = 5"),
    (V + "seed = 5\n", [], "variants[1].seed = 5"),
    (V + "rules.shuffle_each_round = 2\n", [], "variants[1].rules.shuffle_each_round = 2"),
    (V + "rules.colour = 2\n", [], "variants[1].rules.colour = 2"),
    (V + "all_seats.bluff = nan\n", [], "variants[1].all_seats.bluff = nan"),
    (V + "players = 9\n", [], "variants[1].players = 9"),
    (V + "[variants.seats.7]\npolicy = \"random\"\n", [], "variants[1].seats.7"),
    (V + "[sweep]\nx = {path = \"players\", values = [2, 3]}\n", [], "use one of variants, sweep, policies"),
    # sweeps
    (NOIZE + "sweep = 3\n", [], "sweep = 3"),
    (NOIZE + "[sweep]\nmetric = \"length\"\n", [], "sweep = "),
    (sweep('{path = "players", values = [2, 3]}', "colour = 1\n"), [], "sweep.colour = 1: unknown key"),
    (sweep('3'), [], "sweep.x = 3"),
    (sweep('{path = "players", values = [2, 3], step = 1}'), [], "sweep.x.step = 1: unknown key"),
    (sweep('{path = "players", values = [2, 3], range = [2, 3, 1]}'), [], "sweep.x.range = [2, 3, 1]: give values or range"),
    (sweep('{path = "players", values = []}'), [], "sweep.x.values = []"),
    (sweep('{path = "players", values = [2, 3, 2]}'), [], "sweep.x.values[2] = 2: appears twice"),
    (sweep('{path = "all_seats.bluff", values = [0.1, nan]}'), [], "sweep.x.values[1] = nan"),
    (sweep('{path = "all_seats.bluff", range = [0.0, 0.5, 0.0]}'), [], "sweep.x.range = [0.0, 0.5, 0.0]"),
    (sweep('{path = "all_seats.bluff", range = [0.0, 0.5, nan]}'), [], "sweep.x.range = [0.0, 0.5, nan]"),
    (sweep('{path = "all_seats.bluff", range = [0.0, inf, 0.1]}'), [], "sweep.x.range = [0.0, inf, 0.1]"),
    (sweep('{path = "all_seats.bluff", range = [0.5, 0.1, 0.1]}'), [], "sweep.x.range = [0.5, 0.1, 0.1]"),
    (sweep('{path = "all_seats.bluff", range = [0.0, 1.0, 1e-300]}'), [], "at most 200 per axis"),
    (sweep('{path = "foo", values = [1, 2]}'), [], 'sweep.x.path = "foo": must name a setting'),
    (sweep('{path = "", values = [1, 2]}'), [], 'sweep.x.path = "": must name a setting'),
    (sweep('{path = "description", values = ["a", "b"]}'), [], 'sweep.x.path = "description"'),
    (sweep('{path = "rules.colour", values = [1, 2]}'), [], 'sweep.x.path = "rules.colour"'),
    (sweep('{path = "seats.00.bluff", values = [0.1, 0.2]}'), [], 'sweep.x.path = "seats.00.bluff"'),
    (sweep('{path = "seats.².bluff", values = [0.1, 0.2]}'), [], 'sweep.x.path = "seats.².bluff"'),
    (sweep('{path = "all_seats.bluff", values = [0.1, 0.2]}', 'y = {path = "all_seats.bluff", values = [0.3, 0.4]}\n'),
     [], 'sweep.y.path = "all_seats.bluff": is the path of sweep.x too'),
    (sweep('{path = "all_seats.bluff", values = [0.1, 2.0]}'), [], "sweep point all_seats.bluff=2.0: all_seats.bluff = 2.0"),
    (sweep('{path = "players", values = [2, 3]}', 'metric = "happiness"\n'), [], 'sweep.metric = "happiness"'),
    (sweep('{path = "players", values = [2, 3]}', 'goal = "best"\n'), [], 'sweep.goal = "best"'),
    (sweep('{path = "players", values = [2, 3]}', 'goal = "fairest"\n'), [],
     'sweep.goal = "fairest": must be "max", "min", "zero"'),
    (sweep('{path = "players", values = [2, 3]}', 'goal = true\n'), [], 'sweep.goal = true: must be'),
    (sweep('{path = "players", values = [2, 3]}', 'goal = nan\n'), [], 'sweep.goal = nan: must be'),
    (sweep('{path = "players", values = [2, 3]}', 'goal = 25\n'), [],
     "sweep.goal = 25: win_share_0 is a share: give the target as a fraction from 0 to 1"),
    (sweep('{path = "players", values = [2, 3]}', 'metric = "first_player_edge"\ngoal = -2.0\n'), [],
     "sweep.goal = -2.0: first_player_edge is an edge: give the target as a fraction from -1 to 1"),
    (sweep('{path = "players", values = [2, 3]}', 'metric = "edge_policy_0"\n'), [],
     'sweep.metric = "edge_policy_0": must be one of'),
    (sweep('{path = "all_seats.bluff", range = [0.0, 0.99, 0.01]}',
           'y = {path = "all_seats.challenge_below", range = [0.0, 0.99, 0.01]}\n'), [], "more than 2,000 configurations"),
    # round-robins
    (RR.replace("players = 2", "players = 4"), [], "a round-robin needs a two-player game"),
    (RR.replace('{policy = "random"}', '{policy = "random", bluff = 0.1}'), [], "policies[1].bluff = 0.1"),
    (RR.replace('{policy = "random"}', '{policy = "threshold", bluff = nan}'), [], "policies[1].bluff = nan"),
    (RR.replace('{policy = "random"}', '{policy = "sneaky"}'), [], 'policies[1].policy = "sneaky"'),
    (RR.replace('{policy = "random"}', '3'), [], "policies[1] = 3"),
    (RR.replace(', {policy = "random"}', ''), [], "policies = "),
    (RR.replace('{policy = "random"}', '{policy = "threshold"}'), [], "labels must differ"),
    (RR.replace('{policy = "random"}', '{policy = "random", label = ""}'), [], 'policies[1].label = ""'),
    (RR + '[seats.0]\nbluff = 0.3\n', [], "seats = "),
    (RR + 'rotate_seats = false\n', [], "rotate_seats = false"),
    # skill ladders
    (NOIZE + "ladder = 3\n", [], "ladder = 3"),
    (NOIZE + "[ladder]\nrungz = []\n", [], "ladder.rungz = []: unknown key"),
    (NOIZE + '[ladder]\nrungs = [{policy = "random"}]\n', [], "ladder.rungs = "),
    (NOIZE + '[ladder]\nrungs = [{policy = "random"}, {policy = "threshold", bluff = 2}]\n', [], "ladder.rungs[1].bluff = 2"),
    (NOIZE + '[ladder]\nfield = {policy = "smart"}\n', [], 'ladder.field.policy = "smart"'),
    (NOIZE + '[ladder]\n[all_seats]\npolicy = "random"\n', [], "a ladder seats its rungs and its field itself"),
    (NOIZE + '[ladder]\n[sweep]\nx = {path = "players", values = [2, 3]}\n', [], "a ladder combines with [[variants]] only"),
    (None, ["ladder", "chess"], "GAME"),
    (None, ["ladder", "noize", "--players", "9"], "--players: players = 9"),
    # adaptive stopping
    (NOIZE + "stop = 3\n", [], "stop = 3"),
    (NOIZE + "[stop]\nprecision = 0.5\n", [], "stop.max_games = (missing)"),
    (NOIZE + "[stop]\nmax_games = 1000\nprecison = 0.5\n", [], "stop.precison = 0.5: unknown key"),
    (NOIZE + "[stop]\nmax_games = 1000\n", [], 'needs precision = ... or until = "decided"'),
    (NOIZE + "[stop]\nmax_games = 1000\nprecision = nan\n", [], "stop.precision = nan"),
    (NOIZE.replace("games = 100\n", "") + "[stop]\nmax_games = 1000\nprecision = 0.5\nmin_games = 5000\n", [],
     "stop.min_games = 5000: must be at most stop.max_games = 1000"),
    # a limit that is not the key's own names where it came from (issue 26): games caps max_games
    (NOIZE + "[stop]\nmax_games = 100000\nprecision = 0.5\nmin_games = 5000\n", [],
     "stop.min_games = 5000: must be at most games = 100, which caps stop.max_games = 100000"),
    (NOIZE.replace("games = 100\n", "games = 10000\n") + "[stop]\nmax_games = 100000\nprecision = 0.5\nmin_games = 5000\n",
     ["--games", "2000"],
     "stop.min_games = 5000: must be at most games = 2000 (--games), which caps stop.max_games = 100000"),
    (NOIZE + "[stop]\nmax_games = 100000\nprecision = 0.5\n", ["--set", "stop.min_games=5000"],
     "--set: stop.min_games = 5000: must be at most games = 100, which caps stop.max_games = 100000"),
    (NOIZE + "[stop]\nmax_games = 50\nprecision = 0.5\n", [], "stop.max_games = 50: must be an integer from 100"),
    (NOIZE.replace("games = 100", "games = 50") + "[stop]\nmax_games = 1000\nprecision = 0.5\n", [],
     "games = 50: must be at least 100 with a [stop] table"),
    (NOIZE + "[stop]\nmax_games = 1000\nprecision = 0.5\n", ["--games", "50"],
     "--games: games = 50: must be at least 100 with a [stop] table"),
    (NOIZE + '[stop]\nmax_games = 1000\nuntil = "decided"\nequivalence = 0.5\n', [], "works with [[variants]] (each variant against the baseline) and [strength]"),
    (V + '[stop]\nmax_games = 1000\nuntil = "decided"\n', [], "stop.equivalence = (missing)"),
    (V + '[stop]\nmax_games = 1000\nuntil = "done"\n', [], 'stop.until = "done"'),
    (V + '[stop]\nmax_games = 1000\nprecision = 1\nmetric = "fun"\n', [], 'stop.metric = "fun"'),
    (V.replace('name = "b"\n', 'name = "b"\nplayers = 3\n') + '[stop]\nmax_games = 1000\nprecision = 1\n'
     'metric = "win_share_3"\n', [], 'stop.metric = "win_share_3": must be one of the metrics every variant measures'),
    # the command line
    (NOIZE, ["--set", "plyers=3"], "--set: plyers = 3: unknown key"),
    (NOIZE, ["--set", "players"], "--set"),
    (NOIZE, ["--set", "all_seats.bluff=nan"], "--set: all_seats.bluff = nan"),
    (NOIZE, ["--set", "rules.shuffle_each_round=yes"], '--set: rules.shuffle_each_round = "yes"'),
    (NOIZE, ["--set", "players=11"], "--set: players = 11"),
    (V, ["--set", "variants.².name=x"], '--set: variants.² = "²": no item ² in a list of 2'),
    (V, ["--set", "variants." + "1" * 5000 + ".name=x"], "--set: variants.111"),
    (V, ["--set", "variants.1.rules.shuffle_each_round=2"], "--set: variants[1].rules.shuffle_each_round = 2"),
    (NOIZE, ["--games", "0"], "--games"),
    (NOIZE, ["--games", "abc"], "--games"),
    (NOIZE, ["--games", "100000000000000"], "--games"),
    (NOIZE, ["--seed", "-1"], "--seed"),
    (NOIZE, ["--threads", "0"], "--threads"),
    (NOIZE, ["--threads", "999"], "--threads"),
    (NOIZE, ["--chunk-size", "0"], "--chunk-size"),
    (NOIZE, ["--out", "FILE"], "--out"),
    (None, ["trace", "chess"], "GAME"),
    (None, ["trace", "noize", "--game-index", str(2**64)], "--game-index"),
    (None, ["trace", "noize", "--players", "9"], "--players: players = 9"),
    (None, ["trace", "noize", "--set", "all_seats.bluff=inf"], "all_seats.bluff = inf"),
    (V, ["TRACE", "--variant", "c"], "--variant"),
    (V, ["TRACE", "--rotation", "3"], "--rotation"),
    (BARDS, ["TRACE_NOIZE"], 'game = "bards": the scenario is for another game'),
    (None, ["games", "chess"], "NAME"),
    (None, ["schema", "chess"], "GAME: 'chess': known games are noize"),
    (None, ["schema", "noize", "--out", "/no-such-folder/noize.json"], "--out: '/no-such-folder/noize.json': No such"),
    (None, ["frobnicate"], "frobnicate"),
    # round 2 (issue 26): what once hung, crashed or ran silently
    (sweep('{path = "all_seats.bluff", range = [-1e308, 1e308, 1e-300]}'), [], "gives more than 1e308 points"),
    ("game = " + "[" * 10_000 + "]" * 10_000 + "\n", [], "nests lists or tables more than 16 levels deep"),
    ("game = " + "{a = " * 3_000 + "1" + "}" * 3_000 + "\n", [], "nests lists or tables more than 16 levels deep"),
    (DIST_RANDOM.replace("[2, 3]", "[[2, 3]]"), [], "rules.random_intervals = [[2, 3]]: must be a non-empty list"),
    (DIST_RANDOM.replace("[2, 3]", "[{a = 2}]"), [], "rules.random_intervals = [{a = 2}]: must be a non-empty list"),
    (DIST_RANDOM, ["--set", "rules.random_intervals.0.x=3"],
     "--set: rules.random_intervals.0 = 2: is a single value: x cannot be set inside it"),
    (NOIZE.replace("games = 100", "games = -5"), ["--games", "300"], "scenario.toml: games = -5: must be an integer"),
    (NOIZE, ["--games", "100000000000000"], "100,000,000,000,000 is not allowed: give a whole number from 1 to 10,000,000,000"),
    (NOIZE, ["--out", ""], "--out: '': give a folder name"),
    (NOIZE, ["--out", "  "], "--out: '  ': give a folder name"),
    (NOIZE, ["--scheduler", "not an address"], "--scheduler: 'not an address' is not a scheduler address"),
    (NOIZE, ["--scheduler", "127.0.0.1:1"], "--scheduler: no Dask scheduler answers at tcp://127.0.0.1:1"),
    # the strength curve
    (None, ["strength", "chess"], "GAME"),
    (None, ["strength", "distance", "--budgets", "16,x"], "'16,x': give whole numbers separated by commas"),
    (None, ["strength", "distance", "--budgets", "16,0"], "0 is not allowed: every budget is a whole number from 1"),
    (None, ["strength", "distance", "--budgets", "16,200000"], "--budgets: strength.budgets[1] = 200000: must be"),
    (None, ["strength", "distance", "--budgets", "16,16"], "--budgets: strength.budgets[1] = 16: appears twice"),
    (None, ["strength", "distance", "--players", "9"], "--players: players = 9"),
    # (every built-in game has a search policy now, Fight Song's last: none refuses --budgets or strength.budgets)
    (NOIZE + "[strength]\nbudgetz = 3\n", [], "strength.budgetz = 3: unknown key"),
    (NOIZE + '[strength]\n[all_seats]\npolicy = "random"\n', [], "the strength curve seats its rungs itself"),
    ('game = "fightsong"\ngames = 100\nseed = 1\nplayers = 2\n[strength]\nrungs = [{policy = "random"}]\n'
     'budgets = []\n', [], "the curve needs at least two rungs"),  # (budgets = []: no budget rungs are added)
    (NOIZE + '[strength]\n[ladder]\n', [], "the strength curve plays its own pairings"),
    (NOIZE + '[strength]\n[stop]\nmax_games = 1000\nuntil = "decided"\n', [], "stop.equivalence"),
    # ladder and trace read a scenario exactly as run does
    (NOIZE + "colour = 1\n", ["LADDER"], "colour = 1: unknown key"),
    (NOIZE + "[rulez]\nshuffle_each_round = true\n", ["LADDER"], "rulez = {shuffle_each_round = true}: unknown key"),
    (NOIZE + "variants = 5\n", ["LADDER"], "variants = 5: must be a list"),
    (V + "all_seats.bluff = 9\n", ["LADDER"], "variants[1].all_seats.bluff = 9"),
    (sweep('{path = "players", values = [2, 3]}'), ["LADDER"], "sweep = {x = {path = \"players\", values = [2, 3]}}: "
                                                               "a ladder combines with [[variants]] only"),
    (NOIZE + "colour = 1\n", ["TRACE"], "colour = 1: unknown key"),
    (NOIZE + "[seats.9]\npolicy = \"random\"\n", ["TRACE"], "seats.9"),
    # the answer's question, its key metric and the practical margins
    (NOIZE + "question = 3\n", [], "question = 3: must be a string"),
    (NOIZE + 'key_metric = "fun"\n', [], 'key_metric = "fun": must be a metric key of noize: bids_per_length'),
    (NOIZE + "margins = 1\n", [], "margins = 1: must be a table"),
    (NOIZE + "[margins]\nshares = -1\n", [], "margins.shares = -1: must be a number above 0 (points)"),
    (NOIZE + "[margins]\nlength = true\n", [], "margins.length = true: must be a number above 0 (units)"),
    (NOIZE + "[margins]\nfun = 1\n", [], "margins.fun = 1: unknown margin; allowed: shares, scores, counts or a "
                                          "metric key"),
    (NOIZE + "practical_margin = 2\n[margins]\nshares = 1\n", [], "practical_margin = 2: is the same as [margins] "
                                                                     "shares"),
    (NOIZE + "[margins]\nshares = nan\n", [], "margins.shares = nan: must be a number above 0"),
]


def _write(path, text):
    """A file of text or bytes, or a folder ("DIR"), or a FIFO ("FIFO"), at path; None: nothing."""
    if text == "DIR":
        path.mkdir()
    elif text == "FIFO":
        os.mkfifo(path)
    elif isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)


def _materialise(tmp_path, text, args):
    """The command line of a case: its scenario written to a file (or a folder / FIFO), and the files next
    to it that it names, then its args."""
    path = tmp_path / "scenario.toml"
    if isinstance(text, dict):
        for name, content in text.items():
            if name != "scenario":
                _write(tmp_path / name, content)
        text = text["scenario"]
    _write(path, text)
    args = [str(tmp_path / "file.txt") if a == "FILE" else a for a in args]
    (tmp_path / "file.txt").write_text("")
    if args and args[0] == "TRACE":
        return ["trace", "noize", "--scenario", str(path), *args[1:]]
    if args and args[0] == "TRACE_NOIZE":
        return ["trace", "noize", "--scenario", str(path)]
    if args and args[0] == "LADDER":
        return ["ladder", "noize", "--scenario", str(path), "-q", "--out", str(tmp_path / "rep"), *args[1:]]
    if args and args[0] == "PROFILE":
        return ["profile", str(path), "-q", "--out", str(tmp_path / "rep"), *args[1:]]
    if text is None:
        return args
    return ["run", str(path), "-q", "--out", str(tmp_path / "rep"), *args]


def test_the_table_covers_every_class():
    assert len(CASES) >= 80


@pytest.mark.parametrize("text, args, expected", CASES, ids=[f"{i:03d}" for i in range(len(CASES))])
def test_bad_input_is_one_clear_line(tmp_path, monkeypatch, capsys, text, args, expected):
    played = []
    monkeypatch.setattr(runner, "run", lambda *a, **k: played.append(1))
    monkeypatch.setattr(sys, "argv", ["analyzer", *_materialise(tmp_path, text, args)])
    t = time.perf_counter()
    with pytest.raises(SystemExit) as e:
        entry()
    elapsed = time.perf_counter() - t
    captured = capsys.readouterr()
    said = (captured.out + captured.err).strip()
    assert e.value.code not in (0, None), said
    assert "Traceback" not in said
    assert len(said.splitlines()) == 1, said
    assert expected in said, said
    assert not played, "no game is played after bad input"
    assert elapsed < 10
