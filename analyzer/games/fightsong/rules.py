"""Fight Song: colors, rule settings, and the deck as a data file (loaded, validated, encoded).

Colors. The three divisions (outer colors) are numbered 0..2 in the order of DIVISIONS; the nine
sub-divisions (inner colors) 0..8 in the order of SUBDIVISIONS, three per division (sub-division i
belongs to division i // 3).

Cards. A Game Play card is a kind 0..8: its inner color (its outer color is the inner color's
division). Physical Game Play cards are numbered 0..D-1 in the order of the deck file (kinds in the
file's order, copies consecutive), Activity cards 0..A-1 and Fight Song cards 0..F-1 in file order.
Activity and Fight Song cards ("boards") have four corners, numbered 0 upper-left, 1 upper-right,
2 lower-left, 3 lower-right; the lower-right corner also carries the Bonus Corner color (a division).

The real card list is not published: the shipped file data/default.toml was generated once by
`default_deck_toml()` (seeded, reproducible; a test checks that it still reproduces the file).
"""
from __future__ import annotations

import hashlib
import os
import random
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.errors import MISSING, ScenarioError, parse_toml, toml_value
from analyzer.games.base import Param
from analyzer.textfiles import MAX_DECK_BYTES, TextFileError, printable, read_text

DIVISIONS = ("Band", "Cheer", "Fans")
SUBDIVISIONS = ("Woodwind", "Brass", "Percussion", "Flyer", "Base", "Spotter", "Students", "Alumni", "Parents")
N_DIV = 3
N_KINDS = 9
N_CORNERS = 4
BONUS_CORNER = 3
CORNER_NAMES = ("upper-left", "upper-right", "lower-left", "lower-right")

# how a card scores on a corner (the score is the code, except BONUS, which scores 1)
HOW_NONE, HOW_INNER, HOW_OUTER, HOW_BOTH, HOW_BONUS = 0, 1, 2, 3, 4
HOW_NAMES = ("no match", "inner color", "outer color", "outer and inner colors", "Bonus Corner color")

# the Fight Song round: cards dealt to each player, cards added before a tie replay, hands at most
FS_DEAL, FS_EXTRA, FS_MAX_HANDS = 3, 1, 3

DEFAULT_DECK = Path(__file__).parent / "data" / "default.toml"
DEFAULT_SEED = 20250611
DEFAULT_COPIES = 8
DEFAULT_ACTIVITY, DEFAULT_FIGHT_SONG = 18, 6
MAX_COPIES = 100  # Game Play cards of one kind in a deck file (900 in all: the published game has 96 cards)
MAX_BOARDS = 200  # Activity cards in a deck file, and Fight Song cards
MAX_ID = 50  # characters of a card's id

SETTINGS = (
    Param("target", "int", None,
          "a team wins by reaching this many points (round + extra) after a hand (default: 28; 21 with 3 players)",
          1, 1000),
    Param("fs_step", "int", 6,
          "a team earns a Fight Song opportunity each time its recorded round points cross a multiple of this", 1, 100),
    Param("hand_size", "int", 8, "Game Play cards dealt to each player at the start", 1, 30),
    Param("refill_at", "int", 2,
          "when the players' hands hold this many cards or fewer after a hand, each is dealt refill_cards more", 0, 30),
    Param("refill_cards", "int", 6, "cards dealt to each player at a refill", 1, 30),
    Param("dealer", "choice", "fixed",
          "'fixed': the last seat deals all game, as the rulebook reads (seat 0 is always left of the dealer); "
          "'rotating': the deal passes clockwise with each hand's start", choices=("fixed", "rotating")),
    Param("max_hands", "int", 1000,
          "safety cap: a game still undecided after this many hands ends as a stall with no winner", 10, 100_000),
    Param("deck_file", "str", "default",
          "the deck data file (TOML, see docs/fightsong.md); 'default' is the shipped file; a relative path is "
          "read from the scenario file's folder"),
)


def teams(n_players):
    """Seats of each team: partners across the table with 4 players; every player alone otherwise."""
    return ((0, 2), (1, 3)) if n_players == 4 else None


def team_of(seat, n_players):
    return seat % 2 if n_players == 4 else seat


def n_teams(n_players):
    return 2 if n_players == 4 else n_players


def plays_per_hand(n_players):
    """Cards each player plays in a regular hand (2 players: two each, alternately)."""
    return 2 if n_players == 2 else 1


def default_target(n_players):
    return 21 if n_players == 3 else 28


# --- the deck -----------------------------------------------------------------------------------
@dataclass
class Deck:
    """A validated deck. gp_kind: kind of each physical Game Play card; boards: (outer, inner) of the
    four corners and the bonus division of every Activity card, then every Fight Song card."""

    path: str
    gp_kind: np.ndarray  # (D,) int64
    kind_copies: list  # copies per kind 0..8
    gp_order: list  # kinds in file order (ids are given in this order)
    act_ids: list  # names of the Activity cards
    fs_ids: list  # names of the Fight Song cards
    corners: np.ndarray  # (A + F, 4, 2) int64: outer division, inner sub-division
    bonus: np.ndarray  # (A + F,) int64: the Bonus Corner's division

    @property
    def n_gp(self):
        return int(self.gp_kind.shape[0])

    @property
    def n_act(self):
        return len(self.act_ids)

    @property
    def n_fs(self):
        return len(self.fs_ids)


def kind_name(kind):
    return f"{DIVISIONS[kind // 3]}/{SUBDIVISIONS[kind]}"


def corner_name(outer, inner):
    return f"{DIVISIONS[outer]}/{SUBDIVISIONS[inner]}"


def how_scores(kind, outer, inner, bonus):
    """How a Game Play card of `kind` scores on a corner (outer, inner); bonus: the corner's Bonus
    Corner division, or -1. The best single match counts: the bonus never adds to another match."""
    card_outer = kind // 3
    if card_outer == outer and kind == inner:
        return HOW_BOTH
    if card_outer == outer:
        return HOW_OUTER
    if kind == inner:
        return HOW_INNER
    if bonus >= 0 and card_outer == bonus:
        return HOW_BONUS
    return HOW_NONE


def score_of(how):
    return 1 if how == HOW_BONUS else how


def _parse_color_pair(text):
    """'Division/Sub-division' -> (outer, inner) or None; the inner need not be the outer's."""
    if not isinstance(text, str) or text.count("/") != 1:
        return None
    outer, inner = (p.strip() for p in text.split("/"))
    if outer not in DIVISIONS or inner not in SUBDIVISIONS:
        return None
    return DIVISIONS.index(outer), SUBDIVISIONS.index(inner)


_COLOR_HELP = ("must be \"Division/Sub-division\" with a division from " + ", ".join(DIVISIONS)
               + " and a sub-division from " + ", ".join(SUBDIVISIONS))


def resolve_deck_path(deck_file, source):
    """The deck file a setting names: 'default' is the shipped file; a relative path is read from the
    scenario file's folder (from the working folder when the scenario is not a file)."""
    if deck_file == "default":
        return DEFAULT_DECK
    p = Path(deck_file)
    try:
        p = p.expanduser()
    except RuntimeError:  # (~name of no such user: the path as written, which then does not exist)
        pass
    if not p.is_absolute():
        src = Path(source) if source else None
        if src is not None and src.is_file():
            p = src.resolve().parent / p
        else:
            p = Path.cwd() / p
    return p


_CACHE: dict = {}
_BOARD_TABLE = re.compile(r"^[ \t]*\[\[", re.MULTILINE)  # a [[...]] header: one Activity or Fight Song card


def load_deck(path, name=None) -> Deck:
    """Read and validate a deck file; every problem is one ScenarioError naming the file (as `name`, by
    default its path), the key, the value and what is allowed. Sizes and counts are checked before a card
    is: only a regular file of at most MAX_DECK_BYTES, at most 2 x MAX_BOARDS [[...]] tables. A deck is
    read once while the file keeps its modification time and size."""
    path = Path(path)
    src = printable(path if name is None else name)
    try:
        info = os.stat(path)
        key = (str(path.resolve()), info.st_mtime_ns, info.st_size) if stat.S_ISREG(info.st_mode) else None
    except (OSError, ValueError, RuntimeError):
        key = None  # (read_text says why)
    if key is not None and key in _CACHE:
        return _CACHE[key]
    try:
        text = read_text(path, MAX_DECK_BYTES, "deck file")
    except TextFileError as e:
        raise ScenarioError("", None, None, f"the deck file {printable(path)} {e}") from None
    tables = len(_BOARD_TABLE.findall(text))
    if tables > 2 * MAX_BOARDS:
        raise ScenarioError(src, None, None, f"holds {tables:,} [[...]] tables: a deck has at most {MAX_BOARDS} "
                                             f"Activity and {MAX_BOARDS} Fight Song cards, one table each")
    deck = parse_deck(parse_toml(text, src, "deck file"), src)
    deck.path = str(path)
    if key is not None:
        _CACHE[key] = deck
    return deck


def parse_deck(raw: dict, src: str) -> Deck:
    for k in raw:
        if k not in ("game_play", "activity", "fight_song"):
            raise ScenarioError(src, k, raw[k], "unknown key in a deck file; allowed: game_play, activity, fight_song")
    gp = raw.get("game_play")
    if not isinstance(gp, dict) or not gp:
        raise ScenarioError(src, "game_play", MISSING if gp is None else gp,
                            "must be a table of Game Play cards: \"Division/Sub-division\" = copies")
    copies = [0] * N_KINDS
    order = []
    for name, count in gp.items():
        pair = _parse_color_pair(name)
        if pair is None:
            raise ScenarioError(src, f"game_play.\"{name}\"", count, _COLOR_HELP)
        outer, inner = pair
        if inner // 3 != outer:
            raise ScenarioError(src, f"game_play.\"{name}\"", count,
                                f"{SUBDIVISIONS[inner]} is not a sub-division of {DIVISIONS[outer]} (a Game Play card's "
                                f"inner color is one of its division's: {', '.join(SUBDIVISIONS[3 * outer:3 * outer + 3])})")
        if inner in order:
            raise ScenarioError(src, f"game_play.\"{name}\"", count, "this Game Play card is listed twice")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COPIES:
            raise ScenarioError(src, f"game_play.\"{name}\"", count, f"must be a number of copies from 0 to {MAX_COPIES}")
        copies[inner] = count
        order.append(inner)
    gp_kind = [k for k in order for _ in range(copies[k])]
    if not gp_kind:
        raise ScenarioError(src, "game_play", 0, "the deck needs at least one Game Play card")
    boards = []
    ids = {}
    for section, label in (("activity", "Activity"), ("fight_song", "Fight Song")):
        cards = raw.get(section)
        if not isinstance(cards, list) or not cards:
            raise ScenarioError(src, section, MISSING if cards is None else cards,
                                f"must be a list of at least one {label} card ([[{section}]] tables with id, corners, bonus)")
        if len(cards) > MAX_BOARDS:
            raise ScenarioError(src, section, f"({len(cards):,} cards)", f"a deck has at most {MAX_BOARDS} {label} cards")
        names = []
        for i, card in enumerate(cards):
            where = f"{section}[{i}]"
            if not isinstance(card, dict):
                raise ScenarioError(src, where, card, "must be a table with id, corners and bonus")
            for k in card:
                if k not in ("id", "corners", "bonus"):
                    raise ScenarioError(src, f"{where}.{k}", card[k], "unknown key; allowed: id, corners, bonus")
            cid = card.get("id", f"{'A' if section == 'activity' else 'F'}{i + 1:02d}")
            if not isinstance(cid, str) or not cid.strip() or len(cid) > MAX_ID or not cid.isprintable():
                raise ScenarioError(src, f"{where}.id", cid, f"must be a non-empty, printable string of at most {MAX_ID} "
                                                             f"characters")
            if cid in ids:
                raise ScenarioError(src, f"{where}.id", cid, f"ids must differ (already used by {ids[cid]})")
            ids[cid] = where
            where = f"{where} (id {toml_value(cid)})"
            corners = card.get("corners")
            if not isinstance(corners, list) or len(corners) != N_CORNERS:
                n = len(corners) if isinstance(corners, list) else MISSING if corners is None else corners
                raise ScenarioError(src, f"{where}.corners", n if not isinstance(corners, list) else corners,
                                    "must list exactly 4 corners: upper-left, upper-right, lower-left, lower-right")
            pairs = []
            for c, text in enumerate(corners):
                pair = _parse_color_pair(text)
                if pair is None:
                    raise ScenarioError(src, f"{where}.corners[{c}]", text, _COLOR_HELP)
                pairs.append(pair)
            bonus = card.get("bonus")
            if bonus not in DIVISIONS:
                raise ScenarioError(src, f"{where}.bonus", MISSING if bonus is None else bonus,
                                    "the Bonus Corner color (lower-right corner) must be a division: " + ", ".join(DIVISIONS))
            boards.append((pairs, DIVISIONS.index(bonus)))
            names.append(cid)
        if section == "activity":
            act_ids = names
        else:
            fs_ids = names
    corners = np.array([[list(p) for p in b[0]] for b in boards], dtype=np.int64)
    bonus = np.array([b[1] for b in boards], dtype=np.int64)
    deck = Deck(src, np.array(gp_kind, dtype=np.int64), copies, order, act_ids, fs_ids, corners, bonus)
    # a deck where no Game Play card can score on any corner of any Activity card could never end
    tab = score_table(deck)[:deck.n_act]
    held = [k for k in range(N_KINDS) if copies[k] > 0]
    if tab[:, :, held].max() == 0:
        raise ScenarioError(src, "activity", f"{deck.n_act} cards",
                            "no Game Play card of this deck can score on any corner of any Activity card: "
                            "no game could ever end")
    return deck


def how_table(deck: Deck):
    """(A + F, 4, 9) int64: how each kind scores on each corner of each board."""
    B = deck.corners.shape[0]
    tab = np.zeros((B, N_CORNERS, N_KINDS), dtype=np.int64)
    for b in range(B):
        for c in range(N_CORNERS):
            outer, inner = deck.corners[b, c]
            bonus = deck.bonus[b] if c == BONUS_CORNER else -1
            for k in range(N_KINDS):
                tab[b, c, k] = how_scores(k, outer, inner, bonus)
    return tab


def score_table(deck: Deck):
    how = how_table(deck)
    return np.where(how == HOW_BONUS, 1, how)


def resolve_rules(rules, n_players, source):
    """Fill the derived target, load and validate the deck file, and reject combinations no game could
    be played with. rules['deck_file'] becomes the resolved path of a designer's file."""
    if rules["target"] is None:
        rules["target"] = default_target(n_players)
    p = plays_per_hand(n_players)
    for name in ("hand_size", "refill_cards"):
        if rules[name] < p:
            raise ScenarioError(source, f"rules.{name}", rules[name],
                                f"must be at least {p}: with {n_players} players each plays {p} card(s) a hand")
    if rules["refill_at"] < p - 1:
        raise ScenarioError(source, "rules.refill_at", rules["refill_at"],
                            f"must be at least {p - 1}: with {n_players} players each plays {p} cards a hand, so a hand "
                            f"of fewer cards must be refilled")
    path = resolve_deck_path(rules["deck_file"], source)
    try:
        deck = load_deck(path, path.name)
    except ScenarioError as e:  # said of the scenario's key, then of the deck file and the card in it
        raise ScenarioError(source, "rules.deck_file", rules["deck_file"], str(e)) from None
    if rules["deck_file"] != "default":
        rules["deck_file"] = str(path)
    hmax = max_hand(rules)
    need = n_players * (hmax + FS_DEAL)
    if deck.n_gp < need:
        key = "hand_size" if rules["hand_size"] >= rules["refill_at"] + rules["refill_cards"] else "refill_cards"
        deck_name = "the default deck" if rules["deck_file"] == "default" else f"the deck {printable(path)}"
        raise ScenarioError(source, f"rules.{key}", rules[key],
                            f"too few Game Play cards: {n_players} players with hands of up to {hmax} cards, plus "
                            f"{FS_DEAL} each in a Fight Song round, need {n_players} x ({hmax} + {FS_DEAL}) = {need}; "
                            f"{deck_name} has {deck.n_gp}")
    return rules


def max_hand(rules):
    """The most cards a player holds in a regular hand."""
    return max(rules["hand_size"], rules["refill_at"] + rules["refill_cards"])


def deck_of(rules):
    return load_deck(resolve_deck_path(rules["deck_file"], ""))


def deck_text(deck: Deck, without_division=-1):
    """A deck file's text for `deck` (its Game Play kinds in file order and copies, its boards as they are), less the
    Game Play cards of division without_division (-1: none)."""
    lines = ["[game_play]"]
    for k in deck.gp_order:
        if k // 3 != without_division:
            lines.append(f"\"{kind_name(k)}\" = {deck.kind_copies[k]}")
    boards = [("activity", cid) for cid in deck.act_ids] + [("fight_song", cid) for cid in deck.fs_ids]
    for b, (section, cid) in enumerate(boards):
        corners = ", ".join(f"\"{corner_name(*deck.corners[b, c])}\"" for c in range(N_CORNERS))
        lines += [f"[[{section}]]", f"id = {toml_value(cid)}", f"corners = [{corners}]",
                  f"bonus = \"{DIVISIONS[deck.bonus[b]]}\""]
    return "\n".join(lines) + "\n"


DERIVED_DECKS = Path(tempfile.gettempdir()) / "analyzer-fightsong-decks"  # deck_without's files


def deck_without(rules, division, n_players):
    """Restricted play's deck without a division (`analyzer profile`): these rules with a deck file whose Game Play
    cards of that division are gone, its Activity and Fight Song cards as they are. The settings name a deck only
    by its file, so the file is written (once: named by its content) in DERIVED_DECKS. None if the cards left
    cannot deal the hands (resolve_rules refuses them)."""
    text = deck_text(deck_of(rules), DIVISIONS.index(division))
    path = DERIVED_DECKS / f"{hashlib.sha256(text.encode()).hexdigest()[:20]}.toml"
    if not path.is_file():
        DERIVED_DECKS.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_text(text)
        os.replace(part, path)  # (whole or not at all, whoever writes it too)
    try:
        return resolve_rules({**rules, "deck_file": str(path)}, n_players, f"(the deck without {division})")
    except ScenarioError:
        return None


# --- the default deck: generated once, stored in data/default.toml --------------------------------
def default_deck_toml(seed=DEFAULT_SEED, copies=DEFAULT_COPIES, n_activity=DEFAULT_ACTIVITY,
                      n_fight_song=DEFAULT_FIGHT_SONG):
    """The text of the shipped deck file. Every corner's outer color is a uniform division and its inner
    color a uniform sub-division (independently, so about a third of the corners have an inner color of
    their own division and every score level occurs); the Bonus Corner color is a uniform division.
    Python's random.Random(seed) is stable across versions, so this reproduces data/default.toml."""
    rng = random.Random(seed)
    lines = [
        "# Fight Song (Marching Band-imals): the default deck of the analyzer.",
        "#",
        "# The real card list is not published. The Game Play cards follow the rulebook (an outer color: the",
        "# division; an inner color: one of its three sub-divisions). The corner colors of the Activity and",
        "# Fight Song cards were generated once, reproducibly, by",
        f"# analyzer.games.fightsong.rules.default_deck_toml(seed={seed}) and stored here. Copy this file and",
        "# edit it to try another deck (rules.deck_file = \"my-deck.toml\"); the format is in docs/fightsong.md.",
        "",
        "# Game Play cards: \"Division/Sub-division\" = copies",
        "[game_play]",
    ]
    for k in range(N_KINDS):
        lines.append(f"\"{kind_name(k)}\" = {copies}")
    for section, prefix, count in (("activity", "A", n_activity), ("fight_song", "F", n_fight_song)):
        lines.append("")
        lines.append(f"# {'Activity' if section == 'activity' else 'Fight Song'} cards: corners upper-left, "
                     "upper-right, lower-left, lower-right (\"outer/inner\"); bonus = the lower-right corner's "
                     "Bonus Corner color")
        for i in range(count):
            corners = []
            for _ in range(N_CORNERS):
                outer = rng.randrange(N_DIV)
                inner = rng.randrange(N_KINDS)
                corners.append(f"\"{corner_name(outer, inner)}\"")
            bonus = DIVISIONS[rng.randrange(N_DIV)]
            lines.append(f"[[{section}]]")
            lines.append(f"id = \"{prefix}{i + 1:02d}\"")
            lines.append(f"corners = [{', '.join(corners)}]")
            lines.append(f"bonus = \"{bonus}\"")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # python -m analyzer.games.fightsong.rules > my-deck.toml
    print(default_deck_toml(), end="")
