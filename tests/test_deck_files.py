"""Deck files (rules.deck_file) of The Distance (CSV) and Fight Song (TOML), as a new user would try them:
anything that is not a regular file of bounded size is refused before a byte is read; sizes and counts
are checked before a row or card is parsed, so every refusal comes in well under a second; every problem
is one line naming the scenario, the key that points at the deck, the deck file and the row or card in
it; a byte-order mark and CRLF line ends (Windows) are fine."""
import os
import time

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.errors import ScenarioError
from analyzer.games.distance import rules as D
from analyzer.games.fightsong import rules as F
from analyzer.scenario import load
from analyzer.textfiles import MAX_DECK_BYTES

DIST = 'game = "distance"\ngames = 40\nseed = 1\nplayers = 2\n'
FS = 'game = "fightsong"\ngames = 40\nseed = 1\nplayers = 4\n'
GAMES = {"distance": (DIST, "deck.csv", D.DEFAULT_DECK), "fightsong": (FS, "deck.toml", F.DEFAULT_DECK)}
CARD = '[[{s}]]\nid = "{i}"\ncorners = ["Band/Brass", "Cheer/Woodwind", "Fans/Alumni", "Band/Flyer"]\nbonus = "Fans"\n'


def fs_deck(n_act=1, n_fs=1, copies=8):
    gp = "".join(f'"{F.kind_name(k)}" = {copies}\n' for k in range(9))
    return ("[game_play]\n" + gp + "".join(CARD.format(s="activity", i=f"A{i}") for i in range(n_act))
            + "".join(CARD.format(s="fight_song", i=f"F{i}") for i in range(n_fs)))


def dist_deck(rows=7, copies="4"):
    return "name,letters,copies\n" + "".join(f"K{i},{'ABCDEFG'[i % 7]},{copies}\n" for i in range(rows))


def refused(tmp_path, game, deck_file, deck=None, scenario_extra=""):
    """The one line a scenario pointing rules.deck_file at `deck_file` is refused with, and how long it took.
    deck: what to put at tmp_path / deck_file first: text, bytes, "FIFO" or "DIR"."""
    if deck == "FIFO":
        os.mkfifo(tmp_path / deck_file)
    elif deck == "DIR":
        (tmp_path / deck_file).mkdir()
    elif isinstance(deck, bytes):
        (tmp_path / deck_file).write_bytes(deck)
    elif deck is not None:
        (tmp_path / deck_file).write_text(deck, encoding="utf-8")
    sc = tmp_path / "my.toml"
    sc.write_text(GAMES[game][0] + f'[rules]\ndeck_file = "{deck_file}"\n' + scenario_extra)
    t = time.perf_counter()
    with pytest.raises(ScenarioError) as e:
        load(sc)
    elapsed = time.perf_counter() - t
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f'{sc}: rules.deck_file = "{deck_file}": '), message
    assert elapsed < 1, f"{elapsed:.2f} s: {message}"
    return message


@pytest.mark.parametrize("game", ["distance", "fightsong"])
@pytest.mark.parametrize("deck, deck_file, words", [
    ("FIFO", "deck", "is a FIFO (named pipe), not a deck file"),
    (None, "/dev/zero", "the deck file /dev/zero is a device, not a deck file"),
    (None, "/dev/urandom", "the deck file /dev/urandom is a device, not a deck file"),
    ("DIR", "decks", "is a folder, not a deck file"),
    (None, "nope.csv", "nope.csv does not exist"),
    (b"x" * 2_000_000, "big", f"holds 2,000,000 bytes: a deck file may hold at most {MAX_DECK_BYTES:,}"),
    (b"name\xff\xfe", "latin", "is not UTF-8 text"),
    (b"name,letters\x00", "nul", "holds a NUL byte"),
])
def test_what_is_not_a_deck_file_is_refused_before_it_is_read(tmp_path, game, deck, deck_file, words):
    assert words in refused(tmp_path, game, deck_file, deck)


def test_a_nul_in_the_deck_path_is_one_line(tmp_path):
    assert "cannot be read" in refused(tmp_path, "distance", "a\\u0000b")
    assert "cannot be read" in refused(tmp_path, "fightsong", "a\\u0000b")


def test_a_distance_deck_of_too_many_rows_is_refused_before_a_row_is_parsed(tmp_path):
    assert D.load_deck(str(_write(tmp_path / "ok.csv", dist_deck(D.MAX_KINDS))), None).names[-1] == "K31"
    words = f"deck.csv: {D.MAX_KINDS + 1} card rows: a deck has at most {D.MAX_KINDS} kinds"
    assert words in refused(tmp_path, "distance", "deck.csv", dist_deck(D.MAX_KINDS + 1))
    rows = MAX_DECK_BYTES // 11  # just under the byte limit: 23,000 rows (the old loader took tens of seconds)
    deck = dist_deck(rows, "1")
    assert len(deck) < MAX_DECK_BYTES
    assert f"deck.csv: {rows:,} card rows: a deck has at most" in refused(tmp_path, "distance", "deck.csv", deck)


def test_a_distance_deck_of_too_many_cards(tmp_path):
    deck = "name,letters,copies\n" + "".join(f"K{i},*,{9 if i else 4}\n" for i in range(29))  # 4 + 28 x 9 = 256
    assert D.load_deck(str(_write(tmp_path / "ok.csv", deck)), None).size == D.MAX_CARDS
    assert "257 cards: a deck has at most 256" in refused(tmp_path, "distance", "deck.csv", deck.replace(",4\n", ",5\n"))


@pytest.mark.parametrize("copies", ["²", "٣", "１", "101", "0", "1e2", "-4", "9" * 5000])
def test_distance_copies_must_be_ascii_digits_from_1_to_100(tmp_path, copies):
    deck = dist_deck() + f"Ab,A G,{copies}\n"
    message = refused(tmp_path, "distance", "deck.csv", deck)
    assert f'deck.csv, card row 8 (Ab): copies "{copies[:70]}' in message
    assert message.endswith(" must be a whole number from 1 to 100")


@pytest.mark.parametrize("deck, words", [
    (dist_deck() + "H,H,4\n", 'deck.csv, card row 8 (H): unknown letter "H"'),
    (dist_deck() + "X,ａ,4\n", 'deck.csv, card row 8 (X): unknown letter "ａ"'),
    (dist_deck() + "K0,A,4\n", 'deck.csv, card row 8 (line 9): name "K0" must be non-empty'),
    (dist_deck() + "x" * 51 + ",A,4\n", "card row 8 (line 9): name"),
    (dist_deck() + "\x1b[31m,A,4\n", 'card row 8 (line 9): name "\\u001b[31m" must be non-empty, printable'),
    (dist_deck() + "A,A\n", "deck.csv, card row 8 (line 9): needs 3 fields"),
    (dist_deck() + "x" * 200_000 + ",A,4\n", "deck.csv, card row 8 (line 9): cannot be read as CSV"),
    ("# comment\nname;letters;copies\nA,A,4\n", "deck.csv: the first row must be the header name,letters,copies"),
])
def test_a_bad_distance_row_is_named_by_file_and_row(tmp_path, deck, words):
    assert words in refused(tmp_path, "distance", "deck.csv", deck)


def test_a_fightsong_deck_over_a_count_is_refused_before_a_card_is_checked(tmp_path):
    F.load_deck(_write(tmp_path / "ok.toml", fs_deck(F.MAX_BOARDS, F.MAX_BOARDS, F.MAX_COPIES)))
    assert ('deck.toml: activity = "(201 cards)": a deck has at most 200 Activity cards'
            in refused(tmp_path, "fightsong", "deck.toml", fs_deck(F.MAX_BOARDS + 1, 1)))
    assert ('deck.toml: fight_song = "(201 cards)": a deck has at most 200 Fight Song cards'
            in refused(tmp_path, "fightsong", "deck.toml", fs_deck(1, F.MAX_BOARDS + 1)))
    inline = "activity = [" + ", ".join(["{corners = [\"Band/Brass\", \"Band/Brass\", \"Band/Brass\", "
                                         "\"Band/Brass\"], bonus = \"Band\"}"] * 201) + "]\n" + fs_deck(0, 1)
    assert 'activity = "(201 cards)"' in refused(tmp_path, "fightsong", "deck.toml", inline)
    assert ('deck.toml: game_play."Band/Woodwind" = 101: must be a number of copies from 0 to 100'
            in refused(tmp_path, "fightsong", "deck.toml", fs_deck(copies=101)))
    many = "[[activity]]\n" * ((MAX_DECK_BYTES - 100) // 13)  # 19,600 tables, just under the byte limit
    assert "[[...]] tables: a deck has at most 200 Activity and 200 Fight Song cards" in refused(
        tmp_path, "fightsong", "deck.toml", many)
    deep = "a" + ".a" * 10_000 + " = 1\n"  # tomllib alone: 1.6 s and 400 MB (100,000 parts: out of memory)
    assert "deck.toml: line 1 has a dotted key of more than 64 parts" in refused(tmp_path, "fightsong", "deck.toml", deep)


@pytest.mark.parametrize("deck, words", [
    (fs_deck().replace("= 8", '= "²"', 1), 'deck.toml: game_play."Band/Woodwind" = "²": must be a number of copies'),
    (fs_deck().replace('bonus = "Fans"', 'bonus = "Blue"', 1), 'deck.toml: activity[0] (id "A0").bonus = "Blue"'),
    (fs_deck().replace('id = "A0"', 'id = "' + "x" * 51 + '"'), "deck.toml: activity[0].id = "),
    (fs_deck().replace('id = "A0"', 'id = "a\\u001bb"'), 'deck.toml: activity[0].id = "a\\u001bb": must be a non-empty, printable'),
    ("[game_play\n", "deck.toml: is not valid TOML"),
    ("\ufeff[game_play]\r\n", "deck.toml: game_play = {}: must be a table of Game Play cards"),
])
def test_a_bad_fightsong_card_is_named_by_file_and_key(tmp_path, deck, words):
    assert words in refused(tmp_path, "fightsong", "deck.toml", deck)


@pytest.mark.parametrize("game", ["distance", "fightsong"])
def test_errors_name_the_variant_or_flag_that_points_at_the_deck(tmp_path, game):
    text, name, _ = GAMES[game]
    bad = dist_deck(copies="²") if game == "distance" else fs_deck().replace('bonus = "Fans"', 'bonus = "Blue"', 1)
    (tmp_path / name).write_text(bad)
    sc = tmp_path / "v.toml"
    sc.write_text(text + f'[[variants]]\nname = "a"\n[[variants]]\nname = "b"\nrules.deck_file = "{name}"\n')
    with pytest.raises(ScenarioError) as e:
        load(sc)
    assert str(e.value).startswith(f'{sc}: variants[1].rules.deck_file = "{name}": {name}, card row 1 (K0): copies'
                                   if game == "distance" else
                                   f'{sc}: variants[1].rules.deck_file = "{name}": {name}: activity[0] (id "A0").bonus')
    for key in ("rules.deck_file", "variants.1.rules.deck_file"):
        with pytest.raises(ScenarioError) as e:
            load(sc, [(key, "/dev/zero")])
        shown = key.replace("variants.1", "variants[1]")
        assert str(e.value) == (f'{sc}, --set: {shown} = "/dev/zero": the deck file /dev/zero is a device, not a '
                                f'deck file: give the path of a text file')


@pytest.mark.parametrize("game", ["distance", "fightsong"])
def test_a_windows_copy_of_the_shipped_deck_runs(tmp_path, game):
    text, name, shipped = GAMES[game]
    data = shipped.read_bytes()
    assert b"\r" not in data
    (tmp_path / name).write_bytes(b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n"))  # UTF-8 BOM, CRLF
    sc = tmp_path / "win.toml"
    sc.write_bytes(b"\xef\xbb\xbf" + (text + f'[rules]\ndeck_file = "{name}"\n').replace("\n", "\r\n").encode())
    out = tmp_path / "rep"
    r = CliRunner().invoke(main, ["run", str(sc), "--games", "40", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert (out / "summary.csv").exists()


def test_fightsong_decks_are_cached_by_path_time_and_size(tmp_path):
    p = _write(tmp_path / "d.toml", fs_deck(2, 1))
    first = F.load_deck(p)
    assert F.load_deck(p) is first  # unchanged: read once
    _write(p, fs_deck(3, 1))
    assert F.load_deck(p).n_act == 3  # edited: read again
    os.remove(p)
    os.mkfifo(p)  # a FIFO where a cached deck was: refused, not served from the cache
    with pytest.raises(ScenarioError, match="is a FIFO"):
        F.load_deck(p)


def _write(path, text):
    path.write_text(text)
    return path
