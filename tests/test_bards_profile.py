"""Battle of the Bards' side of `analyzer profile` (issue 32): the decision counts (rule `count_choices`: splits,
choices, plays, setup; docs/bards.md, "Profile") and restricted play (the `avoid` parameter, card kinds,
deck_without), on hand-built positions with their exact counts and over random games."""
from itertools import combinations

import numpy as np
import pytest

from analyzer.games.bards import GAME
from analyzer.games.bards import engine as E
from analyzer.games.bards import policies as P
from analyzer.games.bards import rules as R
from analyzer.games.bards import state as S
from analyzer.games.bards.trace import decode, play_traced
from analyzer.games.base import CHOICE_COUNTS, Choices
from analyzer.rng import new_streams

KINDS = {"Splits": "ch_split_", "Choices": "ch_choice_", "Plays": "ch_play_", "Setup": "ch_setup_"}


def encoded(seats, deck="basic", copies="single", count=False):
    rules = GAME.validate_rules({"deck": deck, "copies": copies}, 2, "test")
    if count:
        rules["count_choices"] = True  # (as the profile sets it, after validation)
    return GAME.encode(rules, [GAME.validate_seat(dict(s), "test", f"seat{i}") for i, s in enumerate(seats)])


def counts(row, kind):
    """(n, options, forced, real) of one kind of decision in a result row."""
    col = dict(zip(GAME.columns(2), np.asarray(row).tolist()))
    return tuple(col[KINDS[kind] + c] for c in CHOICE_COUNTS)


class Pos:
    """A hand-built position with decisions counted (seat 0 plays a group by `play`, avoiding `avoid`)."""

    def __init__(self, deck="basic", copies="single", play="greedy", avoid="none", count=True):
        self.tbl = R.card_table(deck, copies)
        self.names = {R.card_name(self.tbl, i): i for i in range(self.tbl.shape[0])}
        self.st = np.zeros(S.ST_SIZE, dtype=np.int64)
        S.init_state(self.st, self.tbl.shape[0])
        self.st[S.S_N] = 0  # an empty draw pile
        self.tr = np.zeros((256, S.TRACE_WIDTH), dtype=np.int64)
        _, self.pint, self.pflt = encoded([{"policy": "greedy", "play": play, "avoid": avoid}] * 2, deck, copies,
                                          count)
        self.rng = new_streams(np.uint64(1), 0, 3)

    def meme(self, name):
        S.set_meme(self.st, self.names[name], self.tbl)

    def tale(self, seat, slot, *names):
        for n in names:
            S.place(self.st, self.tbl, seat, slot, self.names[n], 0, self.tr, True)

    def play(self, seat, *names):
        """Play a group; returns the cards placed, in order."""
        before = int(self.st[S.S_NE])
        cards = np.array([self.names[n] for n in names], dtype=np.int64)
        P.play_group(self.st, self.tbl, seat, cards, len(cards), self.pint, self.pflt, self.rng,
                     np.zeros(16, dtype=np.int64), self.tr, True, E.count_scratch(self.pint))
        events = [decode(row, self.tbl) for row in self.tr[before:self.st[S.S_NE]]]
        return [e["card"] for e in events if e["type"] == "place"]

    def plays(self):
        return counts(self.st[S.O_STAT:S.O_STAT + S.N_COLS], "Plays")


# --- the declarations -----------------------------------------------------------------------------------------
def test_declared_kinds_and_columns_come_last():
    declared = [m for m in GAME.metrics if isinstance(m, Choices)]
    assert [(m.label, m.prefix) for m in declared] == list(KINDS.items())
    assert GAME.columns(2)[-16:] == [p + c for p in KINDS.values() for c in CHOICE_COUNTS]
    assert GAME.card_kinds == ("aces", "numerals", "crowns", "pawns", "courts", "excuse")
    for pol in GAME.policies:  # every policy places cards: every one can be restricted
        assert pol.param("avoid").choices == ("none",) + GAME.card_kinds and pol.param("avoid").default == "none"


# --- plays, hand-built: forced, k options, real, not real ----------------------------------------------------
def test_one_card_on_two_empty_slots_is_forced():
    p = Pos()
    p.meme("Ace of Wyrms")
    p.play(0, "Sea")  # slot 0 or slot 1: the same new tale
    assert p.plays() == (1, 1, 1, 0)


def test_a_card_that_fits_an_open_tale_has_three_options_and_a_small_gap_is_not_real():
    p = Pos()
    p.meme("Ace of Wyrms")  # nothing below matches it
    p.tale(0, 0, "Huntress")  # Moons, slot 1 empty
    # Journey (3, Moons/Waves): on the Huntress (keep value 2.1 -> 2.1: +0), a tale of its own (1.4 - 0.7 empty
    # slot: +0.7), or conclude the Huntress (0 points + 0.7 - 2.1) and start a tale (+0.7): -0.7; concluding it and
    # playing on slot 0 or slot 1 is one option. Best +0.7, second 0: 0.7 apart, not more than 1
    p.play(0, "Journey")
    assert p.plays() == (1, 3, 0, 0)


def test_a_gap_of_more_than_a_point_is_real():
    p = Pos()
    p.meme("Ace of Wyrms")
    p.tale(0, 0, "Calamity")  # Crown of Wyrms: kv 0.5 x 1 meme point + 0.7 x 3 = 2.6
    # Cave (7, Waves/Wyrms): on the Calamity 3.1 (+0.5); a tale of its own 2.6 - 0.7 (+1.9); conclude the
    # Calamity (1 + 0.7 - 2.6 = -0.9, the meme then unknown) and start it (2.1 - 0.7): +0.5. 1.9 - 0.5 > 1
    p.play(0, "Cave")
    assert p.plays() == (1, 3, 0, 1)


def test_two_copies_of_a_card_are_one_option():
    p = Pos(copies="double")
    p.meme("Ace of Wyrms")
    p.play(0, "Sea", "Sea'")
    # first: either copy on either empty slot, all one option (forced); then the other copy on the Sea (a pair of
    # Crowns: 4 + 2.1 - 2.1 = +4), on the empty slot (+1.4), or after concluding the Sea (on either slot: one
    # option; -1.4 + 1.4 = 0): 3 options, 4 - 1.4 more than a point apart: real
    assert p.plays() == (2, 1 + 3, 1, 1)


def test_two_cards_count_every_legal_move_of_each():
    p = Pos()
    p.meme("Ace of Wyrms")
    p.tale(0, 0, "Huntress")  # Moons
    p.tale(0, 1, "Bard")  # Suns
    # Sailor (4, Waves/Leaves) fits neither tale: conclude one of them (0 points + 0.7 - 2.1) and start a tale
    # (+1.4), 2 options worth 0; Mountain (4, Moons/Suns) fits both: on either (+0), or conclude one and play on the
    # other (-1.4) or start a tale (0): 6 options. 8 options, the best two both 0: not real. Greedy plays the first
    # of the ties, Sailor after concluding the Huntress; then Mountain fits the Bard only: on it (+0), conclude the
    # Sailor and start a tale (0) or play on the Bard (-1.4), conclude the Bard and start a tale (0): 4, not real
    assert p.play(0, "Sailor", "Mountain") == ["Sailor", "Mountain"]
    assert p.plays() == (2, 8 + 4, 0, 0)


def test_counting_off_counts_nothing():
    p = Pos(count=False)
    p.meme("Ace of Wyrms")
    p.tale(0, 0, "Calamity")
    p.play(0, "Cave", "Sea")
    assert p.plays() == (0, 0, 0, 0)


# --- setup and splits from stacked decks -----------------------------------------------------------------------
def stacked(order, deck="basic", copies="single", seats=({"policy": "greedy"}, {"policy": "greedy"})):
    tbl = R.card_table(deck, copies)
    names = {R.card_name(tbl, i): i for i in range(tbl.shape[0])}
    top = [names[n] for n in order]
    rest = [i for i in range(tbl.shape[0]) if i not in top]
    events, row = play_traced(encoded(seats, deck, copies, count=True), 3, 0, order=top + rest)
    return events, row


@pytest.mark.parametrize("four, expected", [
    # Crowns alone hold three more cards (0.7 x 3 = 2.1), Aces none: keeping both Crowns (4.2) beats any other pair
    # (0 or less) by more than a point
    (["Bard", "Sea", "Ace of Leaves", "Ace of Wyrms"], (1, 6, 0, 1)),
    (["Ace of Suns", "Ace of Waves", "Ace of Leaves", "Ace of Wyrms"], (1, 6, 0, 0)),  # every pair alike
])
def test_setup_counts(four, expected):
    _, row = stacked(["Ace of Moons"] + four)
    assert counts(row, "Setup") == expected


@pytest.mark.parametrize("four, options", [(["Sea", "Sea'", "Bard", "End"], 4), (["Sea", "Sea'", "Bard", "Bard'"], 3)])
def test_setup_with_copies_counts_each_pair_of_card_types_once(four, options):
    _, row = stacked(["Ace of Moons"] + four, copies="double")
    assert counts(row, "Setup")[:3] == (1, options, 0)


def distinct_groups(types):
    """Face-up groups of a hand of these card types that differ as multisets (the rules' distinct splits)."""
    return len({tuple(sorted(types[i] for i in range(5) if (m >> i) & 1)) for m in range(1, 31)})


def test_split_options_follow_the_hands_drawn():
    # seat 0's first hand holds two pairs of copies: 3 x 3 x 2 - 2 = 16 splits, not 30
    events, row = stacked(["Ace of Moons", "Ace of Suns", "Ace of Waves", "Ace of Leaves", "Ace of Wyrms",
                           "Sea", "Sea'", "Bard", "Bard'", "End"], copies="double")
    hands = [e["cards"] for e in events if e["type"] == "draw"]
    assert [c.rstrip("'") for c in hands[0]] == ["Sea", "Sea", "Bard", "Bard", "End"]
    assert distinct_groups([c.rstrip("'") for c in hands[0]]) == 16
    n, options, forced, real = counts(row, "Splits")
    assert n == len(hands) == row[GAME.columns(2).index("length")]
    assert options == sum(distinct_groups([c.rstrip("'") for c in h]) for h in hands) < 30 * n
    assert forced == 0 and counts(row, "Choices")[:3] == (n, 2 * n, 0)


# --- over random games -----------------------------------------------------------------------------------------
CONFIGS = [
    ([{"policy": "greedy"}, {"policy": "greedy"}], "basic", "single"),
    ([{"policy": "random"}, {"policy": "bait", "choose": "face_up_at_least"}], "extended", "double"),
    ([{"policy": "balanced", "play": "random"}, {"policy": "greedy", "choose": "random", "setup": "random"}],
     "extended", "single"),
]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_counting_plays_the_same_games_and_counts_consistently(config):
    seats, deck, copies = CONFIGS[config]
    rows = {}
    for count in (False, True):
        out = np.zeros((300, len(GAME.columns(2))), dtype=np.int64)
        GAME.run_batch(encoded(seats, deck, copies, count), 17, 0, out)
        rows[count] = out
    assert (rows[True][:, :-16] == rows[False][:, :-16]).all()  # the very same games
    assert not rows[False][:, -16:].any()  # nothing counted when off
    col = {c: rows[True][:, i] for i, c in enumerate(GAME.columns(2))}
    for prefix in KINDS.values():
        n, options, forced, real = (col[prefix + c] for c in CHOICE_COUNTS)
        assert (forced <= n).all() and (real <= n - forced).all() and (options >= n).all()
    assert (col["ch_split_n"] == col["length"]).all() and (col["ch_choice_n"] == col["length"]).all()
    assert (col["ch_choice_options"] == 2 * col["length"]).all() and (col["ch_setup_n"] == 1).all()
    assert (col["ch_split_options"] <= 30 * col["length"]).all() and (col["ch_setup_options"] <= 6).all()
    assert col["ch_play_n"].sum() > 0 and col["ch_play_real"].sum() > 0 and col["ch_split_real"].sum() > 0
    if copies == "single":
        assert (col["ch_split_options"] == 30 * col["length"]).all() and (col["ch_setup_options"] == 6).all()


def test_counting_in_the_lookahead_kernel_plays_the_same_games():
    seats = [{"policy": "lookahead", "samples": 1}, {"policy": "greedy"}]
    rows = {}
    for count in (False, True):
        out = np.zeros((12, len(GAME.columns(2))), dtype=np.int64)
        GAME.run_batch(encoded(seats, count=count), 5, 0, out)
        rows[count] = out
    assert (rows[True][:, :-16] == rows[False][:, :-16]).all()
    length = rows[True][:, GAME.columns(2).index("length")]
    assert (counts(rows[True].T, "Splits")[0] == length).all() and (counts(rows[True].T, "Choices")[0] == length).all()


# --- restricted play ---------------------------------------------------------------------------------------------
def kind_of(tbl, names, card):
    return R.CARD_KINDS[tbl[names[card], R.C_KIND]]


def check_avoided(events, tbl, seat, kind):
    """From a trace: seat placed a card of `kind` only when every card it had left to place was of that kind, took a
    group holding one only when both did, and (seat 1) kept one at the setup only when every pair held one.
    Returns (cards of the kind it placed, of those placed while other cards were left: 0)."""
    names = {R.card_name(tbl, i): i for i in range(tbl.shape[0])}
    is_k = {n: kind_of(tbl, names, n) == kind for n in names}
    left = []
    placed = 0
    up = down = None
    for e in events:
        if e["type"] == "split":
            up, down = e["face_up"], e["face_down"]
        elif e["type"] == "choice" and e["seat"] == seat:
            taken, other = (up, down) if e["takes"] == "face-up" else (down, up)
            assert not any(map(is_k.get, taken)) or any(map(is_k.get, other))
        elif e["type"] == "setup" and seat == 1:
            if any(map(is_k.get, e["own"])):
                assert all(any(map(is_k.get, pair)) for pair in combinations(e["cards"], 2))
        elif e["type"] == "group" and e["seat"] == seat:
            left = list(e["cards"])
        elif e["type"] == "place" and e["seat"] == seat and not e["setup"]:
            if is_k[e["card"]]:
                assert all(is_k[c] for c in left), (e, left)
                placed += 1
            left.remove(e["card"])
    return placed


def placed_with_others_left(events, tbl, seat, kind):
    """Cards of `kind` the seat placed while it had cards of another kind left in its group."""
    names = {R.card_name(tbl, i): i for i in range(tbl.shape[0])}
    out = 0
    left = []
    for e in events:
        if e["type"] == "group" and e["seat"] == seat:
            left = list(e["cards"])
        elif e["type"] == "place" and e["seat"] == seat and not e["setup"]:
            if kind_of(tbl, names, e["card"]) == kind and any(kind_of(tbl, names, c) != kind for c in left):
                out += 1
            left.remove(e["card"])
    return out


@pytest.mark.parametrize("policy, kind, deck", [("greedy", "crowns", "basic"), ("random", "numerals", "basic"),
                                                ("greedy", "excuse", "extended"), ("random", "courts", "extended")])
def test_a_seat_that_avoids_a_kind_places_it_only_when_it_must(policy, kind, deck):
    free = {"policy": policy}
    for seat in (0, 1):
        seats = [dict(free), dict(free)]
        seats[seat]["avoid"] = kind
        enc = encoded(seats, deck)
        assert (enc[1][1 - seat] == encoded([free, free], deck)[1][1 - seat]).all()  # the other seat as before
        tbl = enc[0]
        placed = other = 0
        for g in range(150):
            events, _ = play_traced(enc, 23, g)
            placed += check_avoided(events, tbl, seat, kind)
            other += placed_with_others_left(events, tbl, 1 - seat, kind)
        assert placed > 0  # it still plays the kind when it must
        assert other > 0  # the other seat is not restricted


def test_the_only_cards_left_of_the_avoided_kind_are_played():
    p = Pos(avoid="crowns")
    p.meme("Ace of Wyrms")
    assert p.play(0, "Sea", "End") == ["Sea", "End"]  # nothing else to play
    p = Pos()
    p.meme("Ace of Wyrms")
    first = p.play(0, "Ace of Knots", "Sea")
    assert first == ["Sea", "Ace of Knots"]  # unrestricted, greedy starts with the Crown
    p = Pos(avoid="crowns")
    p.meme("Ace of Wyrms")
    assert p.play(0, "Ace of Knots", "Sea") == ["Ace of Knots", "Sea"]  # the Crown once it is the only card left


@pytest.mark.parametrize("four, keeps", [
    (["Bard", "Sea", "Ace of Leaves", "Ace of Wyrms"], {"Ace of Leaves", "Ace of Wyrms"}),
    (["Bard", "Sea", "End", "Ace of Wyrms"], None),
])
def test_setup_keeps_a_pair_without_the_avoided_kind_if_there_is_one(four, keeps):
    greedy = {"policy": "greedy"}
    events, _ = stacked(["Ace of Moons"] + four, seats=(greedy, {"policy": "greedy", "avoid": "crowns"}))
    setup = next(e for e in events if e["type"] == "setup")
    if keeps:
        assert set(setup["own"]) == keeps
    else:  # every pair holds a Crown: as greedy, the two Crowns it values most
        assert sum(c in ("Bard", "Sea", "End") for c in setup["own"]) == 2


def test_avoiding_a_kind_the_deck_lacks_is_idle_and_changes_no_game():
    rules = GAME.validate_rules({}, 2, "test")
    seats = [GAME.validate_seat({"policy": "greedy", "avoid": kind}, "test", "s") for kind in ("pawns", "crowns")]
    idle = dict(GAME.idle(rules, seats, 2))
    assert idle["seats.0.avoid"] == "the basic deck has no pawns: there is nothing to avoid"
    assert "seats.1.avoid" not in idle  # the basic deck has Crowns
    rows = []
    for avoid in ("none", "pawns", "courts", "excuse"):
        out = np.zeros((100, len(GAME.columns(2))), dtype=np.int64)
        GAME.run_batch(encoded([{"policy": "greedy", "avoid": avoid}, {"policy": "random", "avoid": avoid}]), 4, 0,
                       out)
        rows.append(out)
    assert all((r == rows[0]).all() for r in rows[1:])


def test_deck_without():
    basic = GAME.validate_rules({}, 2, "test")
    extended = GAME.validate_rules({"deck": "extended", "copies": "double"}, 2, "test")
    for kind in GAME.card_kinds:
        for rules in (basic, extended):
            without = GAME.deck_without(rules, kind, 2)
            if kind in ("pawns", "courts", "excuse") and rules["deck"] == "basic":
                tbl = R.card_table(without["deck"], without["copies"])
                full = R.card_table("extended", rules["copies"])
                kinds = [R.CARD_KINDS[k] for k in tbl[:, R.C_KIND]]
                assert kind not in kinds
                # every card of the full deck but those of the kind (and of the other kinds the basic deck lacks)
                assert sorted(R.card_name(tbl, i) for i in range(tbl.shape[0])) == sorted(
                    R.card_name(full, i) for i in range(full.shape[0])
                    if R.CARD_KINDS[full[i, R.C_KIND]] not in ("pawns", "courts", "excuse"))
            else:
                assert without is None  # no setting removes Aces, numerals or Crowns, nor one of the nine alone
