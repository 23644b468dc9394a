"""Battle of the Bards: the Decktet as data, and the rule settings.

Suits are bits of a 6-bit mask, in the order of SUITS. Card types are numbered 0..44:
  0-5    the Aces (Moons, Suns, Waves, Leaves, Wyrms, Knots)
  6-29   the ranks 2..9, three cards each, in the order of the table below
  30-35  the Crowns (Huntress, Bard, Sea, End, Calamity, Windfall)
  36-39  the Pawns, 40-43 the Courts (extended deck)
  44     the Excuse (extended deck)
A physical card of a deck is `copy * n_types + type` (copy 0 or 1 with a double deck), so a single
basic deck is cards 0..35 and a double extended deck cards 0..89.
"""
import numpy as np

from analyzer.errors import ScenarioError
from analyzer.games.base import Param

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
SUIT_ABBR = ("Mo", "Su", "Wa", "Le", "Wy", "Kn")

# pairing ranks: Ace 1, 2..9, Crown 10, Pawn 11, Court 12; the Excuse has none (-1)
RANK_ACE, RANK_CROWN, RANK_PAWN, RANK_COURT, RANK_NONE = 1, 10, 11, 12, -1
RANK_NAMES = {1: "Ace", 10: "Crown", 11: "Pawn", 12: "Court", -1: "Excuse"}
RANK_NAMES.update({r: str(r) for r in range(2, 10)})

# (name, pairing rank, audience value, suits)
DECKTET = (
    ("Ace of Moons", 1, 1, ("Moons",)),
    ("Ace of Suns", 1, 1, ("Suns",)),
    ("Ace of Waves", 1, 1, ("Waves",)),
    ("Ace of Leaves", 1, 1, ("Leaves",)),
    ("Ace of Wyrms", 1, 1, ("Wyrms",)),
    ("Ace of Knots", 1, 1, ("Knots",)),
    ("Author", 2, 2, ("Moons", "Knots")),
    ("Desert", 2, 2, ("Suns", "Wyrms")),
    ("Origin", 2, 2, ("Waves", "Leaves")),
    ("Journey", 3, 3, ("Moons", "Waves")),
    ("Painter", 3, 3, ("Suns", "Knots")),
    ("Savage", 3, 3, ("Leaves", "Wyrms")),
    ("Mountain", 4, 4, ("Moons", "Suns")),
    ("Sailor", 4, 4, ("Waves", "Leaves")),
    ("Battle", 4, 4, ("Wyrms", "Knots")),
    ("Forest", 5, 5, ("Moons", "Leaves")),
    ("Discovery", 5, 5, ("Suns", "Waves")),
    ("Soldier", 5, 5, ("Wyrms", "Knots")),
    ("Lunatic", 6, 6, ("Moons", "Waves")),
    ("Penitent", 6, 6, ("Suns", "Wyrms")),
    ("Market", 6, 6, ("Leaves", "Knots")),
    ("Chance Meeting", 7, 7, ("Moons", "Leaves")),
    ("Castle", 7, 7, ("Suns", "Knots")),
    ("Cave", 7, 7, ("Waves", "Wyrms")),
    ("Diplomat", 8, 8, ("Moons", "Suns")),
    ("Mill", 8, 8, ("Waves", "Leaves")),
    ("Betrayal", 8, 8, ("Wyrms", "Knots")),
    ("Pact", 9, 9, ("Moons", "Suns")),
    ("Darkness", 9, 9, ("Waves", "Wyrms")),
    ("Merchant", 9, 9, ("Leaves", "Knots")),
    ("Huntress", 10, 10, ("Moons",)),
    ("Bard", 10, 10, ("Suns",)),
    ("Sea", 10, 10, ("Waves",)),
    ("End", 10, 10, ("Leaves",)),
    ("Calamity", 10, 10, ("Wyrms",)),
    ("Windfall", 10, 10, ("Knots",)),
    # extended deck
    ("Watchman", 11, 0, ("Moons", "Wyrms", "Knots")),
    ("Light Keeper", 11, 0, ("Suns", "Waves", "Knots")),
    ("Borderland", 11, 0, ("Waves", "Leaves", "Wyrms")),
    ("Harvest", 11, 0, ("Moons", "Suns", "Leaves")),
    ("Consul", 12, 0, ("Moons", "Waves", "Knots")),
    ("Island", 12, 0, ("Suns", "Waves", "Wyrms")),
    ("Rite", 12, 0, ("Moons", "Leaves", "Wyrms")),
    ("Window", 12, 0, ("Suns", "Leaves", "Knots")),
    ("Excuse", -1, 0, ()),
)
N_BASIC, N_EXTENDED = 36, 45
BARD_TYPE = 31
EXCUSE_TYPE = 44

# the kinds of card restricted play can forbid (`avoid`, Game.card_kinds; docs/bards.md, "Profile"): the rank
# classes, which differ in what they do to a tale (Aces hold a tale of one card, the numerals 2..9 of up to nine,
# the Crowns of ten and carry the Bard; Pawns and Courts hold none, with three suits each; the Excuse forces a
# conclusion). The suits are not kinds: the Decktet treats its six alike (each on one card of every rank)
CARD_KINDS = ("aces", "numerals", "crowns", "pawns", "courts", "excuse")
KIND_OF_RANK = {1: 0, 10: 2, 11: 3, 12: 4, -1: 5}  # the ranks 2..9: numerals (1)


def kind_of(rank):
    """The index in CARD_KINDS of a card of pairing rank `rank`."""
    return KIND_OF_RANK.get(rank, 1)


# columns of the card table the kernel reads (one row per physical card); C_KIND: the card's kind (CARD_KINDS)
C_SUITS, C_RANK, C_VALUE, C_PACK, C_TYPE, C_COPY, C_BARD, C_EXCUSE, C_NSUITS, C_KIND = range(10)
N_CARD_COLS = 10

SETTINGS = (
    Param("deck", "choice", "basic",
          "'basic' Decktet (36 cards) or 'extended' (45: adds the 4 Pawns, 4 Courts and the Excuse)",
          choices=("basic", "extended")),
    Param("copies", "choice", "single",
          "'single' deck or 'double' (two copies of every card: 72 or 90 cards)",
          choices=("single", "double")),
)


def resolve_rules(rules, n_players, source):
    if n_players != 2:
        raise ScenarioError(source, "seats", n_players, "Battle of the Bards is for exactly 2 players")
    return rules


def deck_without(rules, kind, n_players):
    """Game.deck_without: the rules whose deck lacks the cards of `kind` (CARD_KINDS) and keeps every other, or
    None when the settings cannot say it. The basic deck already lacks the Pawns, the Courts and the Excuse (its
    rules then, unchanged); the extended deck drops them only all three together (`deck = "basic"`), and no
    setting drops the Aces, the numerals or the Crowns."""
    if kind in ("pawns", "courts", "excuse") and rules["deck"] == "basic":
        return dict(rules)
    return None


def suit_mask(suits):
    m = 0
    for s in suits:
        m |= 1 << SUITS.index(s)
    return m


def n_types(deck):
    return N_BASIC if deck == "basic" else N_EXTENDED


def deck_size(deck, copies):
    return n_types(deck) * (2 if copies == "double" else 1)


def card_table(deck="basic", copies="single"):
    """int64 array (n_cards, N_CARD_COLS): one row per physical card of the chosen deck."""
    nt = n_types(deck)
    nc = deck_size(deck, copies)
    t = np.zeros((nc, N_CARD_COLS), dtype=np.int64)
    for i in range(nc):
        ty = i % nt
        name, rank, value, suits = DECKTET[ty]
        m = suit_mask(suits)
        t[i, C_SUITS] = m
        t[i, C_RANK] = rank
        t[i, C_VALUE] = value
        t[i, C_PACK] = sum(1 << (8 * SUITS.index(s)) for s in suits)
        t[i, C_TYPE] = ty
        t[i, C_COPY] = i // nt
        t[i, C_BARD] = 1 if ty == BARD_TYPE else 0
        t[i, C_EXCUSE] = 1 if ty == EXCUSE_TYPE else 0
        t[i, C_NSUITS] = len(suits)
        t[i, C_KIND] = kind_of(rank)
    return t


def card_name(table, card):
    """A person's name for physical card `card` (a double deck's second copies are marked ')."""
    if card < 0:
        return "-"
    ty = int(table[card, C_TYPE])
    name = DECKTET[ty][0]
    return name + ("'" if table[card, C_COPY] else "")


def card_label(table, card):
    """Name plus rank and suits, e.g. 'Mountain (4 Mo/Su)'."""
    if card < 0:
        return "-"
    ty = int(table[card, C_TYPE])
    name, rank, _, suits = DECKTET[ty]
    if rank == RANK_NONE:
        return card_name(table, card)
    return f"{card_name(table, card)} ({RANK_NAMES[rank]} {'/'.join(SUIT_ABBR[SUITS.index(s)] for s in suits)})"
