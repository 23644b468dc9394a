"""Bring the Noize: deck, rule settings and the rulebook's start/finish table.

Card codes: 0 Vocals, 1 Keyboard, 2 Guitar, 3 Drums (weakest to strongest), 4 Groupie (wild).
A bid is (count, instrument), ranked by key = count * 4 + instrument: a raise needs a higher key.
"""
from analyzer.errors import ScenarioError
from analyzer.games.base import Param

INSTRUMENTS = ("Vocals", "Keyboard", "Guitar", "Drums")
CARD_NAMES = INSTRUMENTS + ("Groupie",)
GROUPIE = 4

# players -> (cards each in the first round, finish when a player reaches)
TABLE = {2: (4, 12), 3: (4, 10), 4: (3, 8), 5: (3, 7), 6: (2, 6), 7: (1, 5)}

SETTINGS = (
    Param("start_cards", "int", None,
          "cards each player is dealt in round 1 (default: rulebook table by player count)", 1, 30),
    Param("finish_cards", "int", None,
          "the game ends when a challenge loser reaches this many cards (default: rulebook table)", 2, 60),
    Param("shuffle_each_round", "bool", False,
          "house rule: shuffle the whole deck before every deal instead of gathering hands under the stack"),
    Param("vocals", "int", 20, "Vocals cards in the deck", 0, 200),
    Param("keyboard", "int", 19, "Keyboard cards in the deck", 0, 200),
    Param("guitar", "int", 18, "Guitar cards in the deck", 0, 200),
    Param("drums", "int", 17, "Drums cards in the deck", 0, 200),
    Param("groupies", "int", 6, "Groupie cards in the deck (wild: counted for every instrument)", 0, 200),
)

DECK_KEYS = ("vocals", "keyboard", "guitar", "drums", "groupies")


def resolve_rules(rules, n_players, source):
    """Fill the table defaults and reject combinations no game could be played with."""
    start_default, finish_default = TABLE[n_players]
    if rules["start_cards"] is None:
        rules["start_cards"] = start_default
    if rules["finish_cards"] is None:
        rules["finish_cards"] = finish_default
    start, finish = rules["start_cards"], rules["finish_cards"]
    if finish <= start:
        raise ScenarioError(source, "rules.finish_cards", finish,
                            f"must be greater than rules.start_cards ({start}), or no challenge could end the game")
    deck = sum(rules[k] for k in DECK_KEYS)
    # Every hand holds at most finish-1 cards while a round is dealt.
    need = n_players * (finish - 1)
    if deck < need:
        raise ScenarioError(source, "rules.finish_cards", finish,
                            f"{n_players} players can hold up to {n_players} x {finish - 1} = {need} cards "
                            f"in a round, but the deck has only {deck} ({', '.join(DECK_KEYS)})")
    entries = tail_table_size(start, finish, n_players)
    if entries > MAX_TABLE:
        raise ScenarioError(source, "rules.finish_cards", finish,
                            f"with {n_players} players and start_cards = {start}, the threshold policy's probability "
                            f"table would need {entries * 8 / 2**20:,.0f} MiB (limit {MAX_TABLE * 8 / 2**20:,.0f} MiB): "
                            f"use fewer cards or players")
    return rules


def tail_table_size(start, finish, n):
    """Entries engine.tail_table would hold (its shape; checked before a run, so a huge table is a clear error).
    Here rather than in the engine, which imports this module's names (through events.py)."""
    max_hidden = (n - 1) * (finish - 1)
    return len(INSTRUMENTS) * (finish - start) * finish * (max_hidden + 1) * (max_hidden + 2)


# entries of the per-run probability table (float64) we accept: 32 Mi entries = 256 MiB
MAX_TABLE = 32 * 2**20


def deck_counts(rules):
    return [rules[k] for k in DECK_KEYS]
