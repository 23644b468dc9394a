"""The Distance: the Musicards deck (a data file) and the rule settings.

Letters are numbered A=0 .. G=6; a card kind's letters are a 7-bit mask (all seven for a wild). Every
physical card has an id (0 .. deck size - 1, kinds in file order, copies in a row), so a trace can
tell copies apart. The interval is a step: Seconds = 1 letter up .. Sevenths = 6 letters up, cycling
A..G.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.errors import ScenarioError, toml_value
from analyzer.games.base import Param
from analyzer.textfiles import MAX_DECK_BYTES, TextFileError, printable, read_text, whole_number

LETTERS = "ABCDEFG"
ALL_LETTERS = 0b1111111
INTERVALS = ("seconds", "thirds", "fourths", "fifths", "sixths", "sevenths")  # steps 1..6
INTERVAL_NUMBER = {name: i + 2 for i, name in enumerate(INTERVALS)}  # seconds = 2 ... sevenths = 7
MAX_KINDS = 32  # card rows of a deck file
MAX_CARDS = 256  # physical cards (the copies of every row)
MAX_COPIES = 100  # of one kind
MAX_NAME = 50  # characters of a kind's name
DEFAULT_DECK = Path(__file__).parent / "data" / "musicards.csv"
# the classes of card restricted play can name (Game.card_kinds; state.CLASS_... in this order): the cards of one
# letter (the shipped deck's naturals, A..G), of two or more letters but not all (its sharps/flats, A#/Bb ..), wilds
CARD_CLASSES = ("naturals", "accidentals", "wilds")

SETTINGS = (
    Param("interval", "choice", "seconds",
          "how far up the next letter is: 'seconds' (the next letter) .. 'sevenths' (6 letters up); 'random': drawn "
          "per game from random_intervals; 'chooser': the chooser seat picks it after seeing her hand (policy "
          "parameter interval)", choices=INTERVALS + ("random", "chooser")),
    Param("random_intervals", "intlist", [2, 3, 4, 5, 6, 7],
          "with interval = 'random': the intervals drawn from, as numbers (2 = seconds .. 7 = sevenths)", 2, 7),
    Param("chooser", "int", None, "with interval = 'chooser': the seat that picks (default: the dealer, the last seat)",
          0, 4),
    Param("hand_size", "int", 7, "cards dealt to each player", 1, 20),
    Param("draw_limit", "int", 3,
          "a player who cannot play draws up to this many cards, one at a time, before she may pass "
          "(0: until she draws a playable card or nothing is left)", 0, 50),
    Param("misplay_rate", "float", 0.0,
          "human error: chance that a play is a wrong card or a wrong letter called (the cards go back, 2 penalty "
          "cards)", 0.0, 1.0),
    Param("forget_call_rate", "float", 0.0,
          "human error: chance that a player left with one card forgets to call 'Musicards' (2 penalty cards)",
          0.0, 1.0),
    Param("turn_cap", "int", 2000, "a game still going after this many turns ends as a stall (no winner)", 10, 100000),
    Param("deck_file", "str", "default",
          "the deck: 'default' (the shipped Musicards list) or a CSV file (name,letters,copies), relative to the "
          "scenario file"),
)


@dataclass(frozen=True)
class Deck:
    names: tuple[str, ...]  # per kind
    masks: tuple[int, ...]  # per kind: letters it can be declared as (ALL_LETTERS: a wild)
    copies: tuple[int, ...]
    source: str

    @property
    def size(self):
        return sum(self.copies)

    def card_kinds(self):
        """int64 array: the kind of every card id."""
        return np.repeat(np.arange(len(self.names), dtype=np.int64), self.copies)

    def classes(self):
        """The class of every kind (an index into CARD_CLASSES)."""
        return tuple(card_class(m) for m in self.masks)

    def without(self, card_class_name):
        """The deck without the kinds of that class (CARD_CLASSES); the kinds left keep their order."""
        drop = CARD_CLASSES.index(card_class_name)
        keep = [k for k, c in enumerate(self.classes()) if c != drop]
        return Deck(tuple(self.names[k] for k in keep), tuple(self.masks[k] for k in keep),
                    tuple(self.copies[k] for k in keep), self.source)

    def card_names(self):
        """A person's name for every card id: the kind, and which copy (#1, #2, ...)."""
        out = []
        for name, k in zip(self.names, self.copies):
            out += [f"{name} #{i + 1}" for i in range(k)]
        return out


def load_deck(value, source):
    """The Deck named by rules.deck_file ('default' or a path relative to the scenario), or ScenarioError
    naming the scenario (source), the key, the deck file and the row in it. Sizes and counts are checked
    before a row is parsed: only a regular file of at most MAX_DECK_BYTES, at most MAX_KINDS card rows."""
    key = "rules.deck_file"
    if value == "default":
        path = DEFAULT_DECK
    else:
        path = Path(value)
        if not path.is_absolute() and source and Path(source).exists():
            path = Path(source).resolve().parent / path
    deck_name = printable(path.name)

    def fail(where, message):
        raise ScenarioError(source, key, value, f"{where}: {message}")

    try:
        text = read_text(path, MAX_DECK_BYTES, "deck file")
    except TextFileError as e:
        raise ScenarioError(source, key, value, f"the deck file {printable(path)} {e}") from None
    rows = [(n, line) for n, line in enumerate(text.split("\n"), start=1)
            if line.strip() and not line.lstrip().startswith("#")]
    if len(rows) > MAX_KINDS + 1:
        fail(deck_name, f"{len(rows) - 1:,} card rows: a deck has at most {MAX_KINDS} kinds of card, one row each "
                        f"(after the header name,letters,copies)")

    def fields(line, where):
        try:
            return next(csv.reader([line]))
        except csv.Error as e:  # (a quote left open, a field longer than the csv module allows)
            fail(where, f"cannot be read as CSV ({e})")

    if not rows or [h.strip() for h in fields(rows[0][1], deck_name)] != ["name", "letters", "copies"]:
        fail(deck_name, "the first row must be the header name,letters,copies")
    names, masks, copies = [], [], []
    for row_number, (line_number, line) in enumerate(rows[1:], start=1):
        where = f"{deck_name}, card row {row_number} (line {line_number})"
        row = fields(line, where)
        if len(row) != 3:
            fail(where, f"needs 3 fields (name,letters,copies), has {len(row)}")
        name, letters, count = (x.strip() for x in row)
        if not name or name in names or len(name) > MAX_NAME or not name.isprintable():
            fail(where, f"name {toml_value(name)} must be non-empty, printable, at most {MAX_NAME} characters, "
                        f"and appear once")
        where = f"{deck_name}, card row {row_number} ({name})"
        if letters == "*":
            mask = ALL_LETTERS
        else:
            mask = 0
            for letter in letters.split():
                if letter.upper() not in set(LETTERS):
                    fail(where, f"unknown letter {toml_value(letter)}; letters are A to G, separated by spaces, "
                                f"or * for a wild")
                mask |= 1 << LETTERS.index(letter.upper())
            if mask == 0:
                fail(where, "a pitch class with no letter; give its letters (e.g. 'F G') or * for a wild")
        n = whole_number(count, 3)
        if n is None or not 1 <= n <= MAX_COPIES:
            fail(where, f"copies {toml_value(count)} must be a whole number from 1 to {MAX_COPIES}")
        names.append(name)
        masks.append(mask)
        copies.append(n)
    if sum(copies) > MAX_CARDS:
        fail(deck_name, f"{sum(copies)} cards: a deck has at most {MAX_CARDS}")
    covered = 0
    for m in masks:
        covered |= m
    if covered != ALL_LETTERS:
        missing = [LETTERS[i] for i in range(7) if not covered >> i & 1]
        fail(deck_name, f"no card gives the letter(s) {', '.join(missing)}: a game could need them")
    return Deck(tuple(names), tuple(masks), tuple(copies), str(path))


def resolve_rules(rules, n_players, source):
    """Load and check the deck, fill the chooser, reject combinations no game could be played with."""
    deck = load_deck(rules["deck_file"], source)
    need = n_players * rules["hand_size"] + 1
    if deck.size < need:
        raise ScenarioError(source, "rules.hand_size", rules["hand_size"],
                            f"{n_players} players x {rules['hand_size']} cards + the start card = {need} cards, but "
                            f"the deck ({Path(deck.source).name}) has only {deck.size}")
    if rules["chooser"] is None:
        rules["chooser"] = n_players - 1
    elif rules["chooser"] >= n_players:
        raise ScenarioError(source, "rules.chooser", rules["chooser"], f"seats run from 0 to {n_players - 1}")
    rules["_deck_path"] = deck.source  # the deck file as resolved (encode loads it; not a setting)
    return rules


def card_class(mask):
    """A kind's class (an index into CARD_CLASSES) from its letters."""
    if mask == ALL_LETTERS:
        return 2
    return 0 if mask & (mask - 1) == 0 else 1


def rules_deck(rules):
    """The deck the validated rules play: rules.deck_file's, less the class deck_without took out of it."""
    deck = load_deck(rules["_deck_path"], None)
    for dropped in rules.get("_deck_without", ()):
        deck = deck.without(dropped)
    return deck


def deck_without(rules, card_class_name, n_players):
    """Game.deck_without: the validated rules with the deck lacking every card of that class (rules['_deck_without'],
    the classes taken out, which encode applies to rules.deck_file's deck: no setting names a class, and a deck file
    would have to be written somewhere), or None when the deck left cannot be played: a letter no card gives, or too
    few cards to deal (players x hand size + the start card)."""
    deck = rules_deck(rules).without(card_class_name)
    covered = 0
    for m in deck.masks:
        covered |= m
    if covered != ALL_LETTERS or deck.size < n_players * rules["hand_size"] + 1:
        return None
    out = dict(rules)
    out["_deck_without"] = tuple(rules.get("_deck_without", ())) + (card_class_name,)
    return out


def letter_names(mask):
    return [LETTERS[i] for i in range(7) if mask >> i & 1]
