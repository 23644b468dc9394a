"""Fight Song deck files: the shipped default reproduces from its generator; a designer's file is
validated with one clear line per problem (file, key, value, what is allowed) before any game."""
from pathlib import Path

import pytest

from analyzer.errors import ScenarioError
from analyzer.games.fightsong import GAME
from analyzer.games.fightsong import rules as R
from analyzer.scenario import from_dict, load

GOOD_CARD = '[[{s}]]\nid = "{i}"\ncorners = ["Band/Brass", "Cheer/Woodwind", "Fans/Alumni", "Band/Flyer"]\nbonus = "Fans"\n'


def deck_text(game_play=None, activity=None, fight_song=None, extra=""):
    gp = game_play if game_play is not None else "\n".join(f'"{R.kind_name(k)}" = 8' for k in range(9))
    act = activity if activity is not None else GOOD_CARD.format(s="activity", i="A1")
    fs = fight_song if fight_song is not None else GOOD_CARD.format(s="fight_song", i="F1")
    return f"[game_play]\n{gp}\n{act}\n{fs}\n{extra}"


def test_the_shipped_deck_is_reproduced_by_its_generator():
    assert R.DEFAULT_DECK.read_text() == R.default_deck_toml()
    deck = R.load_deck(R.DEFAULT_DECK)
    assert (deck.n_gp, deck.n_act, deck.n_fs) == (72, 18, 6)
    assert deck.kind_copies == [8] * 9
    how = R.how_table(deck)
    for level in (R.HOW_NONE, R.HOW_INNER, R.HOW_OUTER, R.HOW_BOTH, R.HOW_BONUS):
        assert (how == level).any(), "every score level can occur with the default deck"


def test_game_play_ids_follow_the_file_order(tmp_path):
    p = tmp_path / "d.toml"
    p.write_text(deck_text(game_play='"Fans/Parents" = 2\n"Band/Brass" = 1\n"Cheer/Base" = 50'))
    deck = R.load_deck(p)
    assert list(deck.gp_kind[:3]) == [8, 8, 1] and deck.n_gp == 53


@pytest.mark.parametrize("text, key, words", [
    (deck_text(game_play='"Band/Tuba" = 8'), 'game_play."Band/Tuba"', "sub-division from"),
    (deck_text(game_play='"Brass" = 8'), 'game_play."Brass"', "Division/Sub-division"),
    (deck_text(game_play='"Band/Flyer" = 60'), 'game_play."Band/Flyer"', "is not a sub-division of Band"),
    (deck_text(game_play='"Band/Brass" = -1'), 'game_play."Band/Brass"', "number of copies"),
    (deck_text(game_play='"Band/Brass" = 0'), "game_play", "at least one Game Play card"),
    (deck_text(activity='[[activity]]\ncorners = ["Band/Brass", "Band/Brass", "Band/Brass"]\nbonus = "Band"'),
     'activity[0] (id "A01").corners', "exactly 4 corners"),
    (deck_text(activity='[[activity]]\ncorners = ["Band/Brass", "Band/Brass", "Band/Brass", "Purple/Brass"]\n'
                        'bonus = "Band"'), 'activity[0] (id "A01").corners[3]', "division from Band, Cheer, Fans"),
    (deck_text(activity='[[activity]]\ncorners = ["Band/Brass", "Band/Brass", "Band/Brass", "Band/Brass"]\n'
                        'bonus = "Brass"'), 'activity[0] (id "A01").bonus', "must be a division"),
    (deck_text(activity='[[activity]]\ncorners = ["Band/Brass", "Band/Brass", "Band/Brass", "Band/Brass"]'),
     'activity[0] (id "A01").bonus', "must be a division"),
    (deck_text(fight_song=""), "fight_song", "at least one Fight Song card"),
    (deck_text(extra=GOOD_CARD.format(s="activity", i="A1")), "activity[1].id", "ids must differ"),
    (deck_text(extra="[jokers]\nx = 1"), "jokers", "unknown key"),
    (deck_text(activity='[[activity]]\nid = "A1"\nflavour = "x"\ncorners = []\nbonus = "Band"'),
     "activity[0].flavour", "unknown key"),
    (deck_text(game_play='"Fans/Parents" = 60',
               activity='[[activity]]\ncorners = ["Band/Brass", "Cheer/Woodwind", "Band/Spotter", "Cheer/Flyer"]\n'
                        'bonus = "Band"'),
     "activity", "no Game Play card of this deck can score"),
    ("[game_play\n", None, "is not valid TOML"),
])
def test_a_bad_deck_file_is_one_clear_line(tmp_path, text, key, words):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(ScenarioError) as e:
        R.load_deck(p)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(p)) and words in msg
    assert e.value.key == key


def test_too_few_cards_for_the_player_count(tmp_path):
    p = tmp_path / "small.toml"
    p.write_text(deck_text(game_play='"Band/Brass" = 40'))
    GAME.validate_rules({"deck_file": str(p)}, 3, "s.toml")  # 3 x (8 + 3) = 33: enough
    with pytest.raises(ScenarioError) as e:
        GAME.validate_rules({"deck_file": str(p)}, 4, "s.toml")  # 4 x (8 + 3) = 44
    assert "too few Game Play cards" in str(e.value) and "= 44" in str(e.value) and "\n" not in str(e.value)
    assert e.value.key == "rules.hand_size" and str(e.value).startswith("s.toml")
    with pytest.raises(ScenarioError):
        GAME.validate_rules({"deck_file": str(p), "refill_cards": 9}, 3, "s.toml")  # hands of up to 11


def test_a_missing_deck_file(tmp_path):
    with pytest.raises(ScenarioError) as e:
        GAME.validate_rules({"deck_file": str(tmp_path / "nope.toml")}, 4, "s.toml")
    assert str(e.value) == f's.toml: rules.deck_file = "{tmp_path}/nope.toml": the deck file {tmp_path}/nope.toml does not exist'


def test_relative_deck_file_is_read_from_the_scenarios_folder(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mine.toml").write_text(deck_text())
    sc_path = tmp_path / "s.toml"
    sc_path.write_text('game = "fightsong"\ngames = 10\nseed = 1\nplayers = 4\n[rules]\ndeck_file = "decks/mine.toml"\n')
    sc = load(sc_path)
    assert Path(sc.rules["deck_file"]) == tmp_path / "decks" / "mine.toml"
    assert sc.arms[0].encoded(GAME).deck.n_act == 1


@pytest.mark.parametrize("players, rules, key", [
    (2, {"refill_at": 0}, "rules.refill_at"),  # two cards a hand each: a hand of one card must be refilled
    (2, {"hand_size": 1}, "rules.hand_size"),
    (2, {"refill_cards": 1}, "rules.refill_cards"),
])
def test_impossible_hand_settings(players, rules, key):
    with pytest.raises(ScenarioError) as e:
        from_dict({"game": "fightsong", "games": 1, "seed": 1, "players": players, "rules": rules})
    assert e.value.key == key


def test_default_targets_by_player_count():
    for players, target in ((2, 28), (3, 21), (4, 28)):
        sc = from_dict({"game": "fightsong", "games": 1, "seed": 1, "players": players})
        assert sc.rules["target"] == target
    assert GAME.teams(4) == ((0, 2), (1, 3)) and GAME.teams(3) is None and GAME.teams(2) is None
