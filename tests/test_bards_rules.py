"""Battle of the Bards rules on hand-built positions: the deck, scoring, the meme, forced and Excuse
conclusions, the end-of-game order and the Bard tie-break."""
from collections import Counter

import numpy as np
import pytest

from analyzer.games.bards import GAME
from analyzer.games.bards import engine as E
from analyzer.games.bards import policies as P
from analyzer.games.bards import rules as R
from analyzer.games.bards import state as S
from analyzer.games.bards.events import RS_CHOSEN
from analyzer.games.bards.trace import decode
from analyzer.rng import new_streams


# --- helpers --------------------------------------------------------------------------------------
class Pos:
    """A hand-built position: a deck table, a state array, a trace buffer and a seat policy."""

    def __init__(self, deck="extended", copies="single", play="greedy", pile=()):
        self.tbl = R.card_table(deck, copies)
        self.names = {R.card_name(self.tbl, i): i for i in range(self.tbl.shape[0])}
        self.st = np.zeros(S.ST_SIZE, dtype=np.int64)
        S.init_state(self.st, self.tbl.shape[0])
        # the draw pile: the given cards on top, nothing else
        for i, name in enumerate(pile):
            self.st[S.O_PILE + i] = self.c(name)
        self.st[S.S_N] = len(pile)
        self.tr = np.zeros((512, E.TRACE_WIDTH), dtype=np.int64)
        code = GAME.policy("greedy").code
        seat = GAME.validate_seat({"policy": "greedy", "play": play}, "test", "seat")
        _, self.pint, self.pflt = GAME.encode({"deck": deck, "copies": copies}, [seat, seat])
        assert self.pint[0, S.I_SPLIT] == code
        self.rng = new_streams(np.uint64(1), 0, 3)

    def c(self, name):
        return self.names[name]

    def meme(self, name):
        S.set_meme(self.st, -1 if name is None else self.c(name), self.tbl)

    def tale(self, seat, slot, *names):
        for n in names:
            S.place(self.st, self.tbl, seat, slot, self.c(n), 0, self.tr, True)

    def conclude(self, seat, slot, named_excuse=-1, named_meme=-1):
        return S.conclude(self.st, self.tbl, seat, slot, RS_CHOSEN, named_excuse, named_meme, self.tr, True)

    def events(self):
        return [decode(row, self.tbl) for row in self.tr[:self.st[S.S_NE]]]

    def play(self, seat, *names):
        cards = np.array([self.c(n) for n in names], dtype=np.int64)
        scr = np.zeros(16, dtype=np.int64)
        P.play_group(self.st, self.tbl, seat, cards, len(cards), self.pint, self.pflt, self.rng, scr,
                     self.tr, True, None)

    def score(self, seat):
        return int(self.st[S.S_SCORE + seat])

    def open_tales(self, seat):
        return [int(self.st[S.tbase(seat, t) + S.T_N]) for t in range(2)]


SUIT_IDX = {s: i for i, s in enumerate(R.SUITS)}


# --- the deck ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("deck,copies,size", [("basic", "single", 36), ("extended", "single", 45),
                                              ("basic", "double", 72), ("extended", "double", 90)])
def test_deck_sizes(deck, copies, size):
    t = R.card_table(deck, copies)
    assert t.shape[0] == size == R.deck_size(deck, copies)
    names = [R.card_name(t, i) for i in range(size)]
    assert len(set(names)) == size  # second copies are marked
    assert Counter(t[:, R.C_TYPE].tolist()) == Counter({ty: size // R.n_types(deck) for ty in range(R.n_types(deck))})


def test_each_suit_once_per_rank_and_three_two_suit_cards_per_number():
    basic = R.DECKTET[:36]
    for rank in range(1, 11):
        cards = [c for c in basic if c[1] == rank]
        suits = Counter(s for c in cards for s in c[3])
        assert suits == Counter({s: 1 for s in R.SUITS}), rank
        if 2 <= rank <= 9:
            assert len(cards) == 3 and all(len(c[3]) == 2 for c in cards)
        else:
            assert len(cards) == 6 and all(len(c[3]) == 1 for c in cards)


def test_extended_cards():
    ext = R.DECKTET[36:]
    assert [c[1] for c in ext] == [11] * 4 + [12] * 4 + [-1]
    assert all(len(c[3]) == 3 and c[2] == 0 for c in ext[:8])
    assert ext[8] == ("Excuse", -1, 0, ())
    t = R.card_table("extended")
    assert t[R.BARD_TYPE, R.C_BARD] == 1 and R.card_name(t, R.BARD_TYPE) == "Bard"
    assert t[R.BARD_TYPE, R.C_SUITS] == 1 << SUIT_IDX["Suns"] and t[R.BARD_TYPE, R.C_VALUE] == 10
    assert t[R.EXCUSE_TYPE, R.C_EXCUSE] == 1 and t[R.EXCUSE_TYPE, R.C_SUITS] == 0


# --- scoring -------------------------------------------------------------------------------------
def test_tale_that_loses_the_audience_scores_nothing_and_keeps_the_meme():
    p = Pos(pile=["Sea"])
    p.meme("Journey")  # Moons / Waves
    p.tale(0, 0, "Ace of Knots", "Author", "Ace of Moons")  # 3 cards, highest value 2
    assert p.conclude(0, 0) == 0
    ev = p.events()[-1]
    assert ev["type"] == "conclude" and not ev["holds"] and ev["score"] == 0 and ev["highest"] == 2
    assert p.st[S.S_MEME] == p.c("Journey")  # no meme points scored: the meme stays
    # with a 3 instead of the Ace, three cards hold the audience (3 >= 3):
    # Author shares Moons (1), Journey shares Moons and Waves (2)
    p.tale(0, 0, "Ace of Knots", "Author", "Journey")
    assert p.conclude(0, 0) == 3
    # ... and four such cards do not (3 < 4)
    p.meme("Journey")
    p.tale(0, 1, "Ace of Knots", "Author", "Journey", "Ace of Waves")
    assert p.conclude(0, 1) == 0


def test_meme_points_with_a_two_suit_match_and_replacement_from_the_pile():
    p = Pos(pile=["Sea", "Castle"])
    p.meme("Mountain")  # Moons / Suns
    p.tale(0, 0, "Diplomat", "Pact")  # both Moons / Suns: 2 points each, different ranks
    assert p.conclude(0, 0) == 4
    conc, meme = p.events()[-2:]
    assert (conc["meme_points"], conc["set_points"], conc["meme"]) == (4, 0, "Mountain")
    assert meme == {"type": "meme", "card": "Sea", "suits": ["Waves"], "replaces": "Mountain",
                    "reason": "scored", "pile_left": 1}
    assert p.st[S.S_MASK] == 1 << SUIT_IDX["Waves"]
    assert S.pile_left(p.st) == 1
    assert list(p.st[S.O_DISC:S.O_DISC + 3]) == [p.c("Diplomat"), p.c("Pact"), p.c("Mountain")]


def test_meme_runs_out_of_suits_when_the_pile_is_empty():
    p = Pos(pile=["Sea"])
    p.meme("Ace of Waves")
    p.tale(0, 0, "Cave")
    p.tale(1, 0, "Darkness")
    assert p.conclude(0, 0) == 1  # Cave's Waves; Sea becomes the meme, the pile is now empty
    assert p.st[S.S_MEME] == p.c("Sea")
    assert p.conclude(1, 0) == 1  # Darkness' Waves; the meme is discarded and nothing replaces it
    assert p.st[S.S_MEME] == -1 and p.st[S.S_MASK] == 0
    assert p.events()[-1]["card"] is None and p.events()[-1]["replaces"] == "Sea"
    p.tale(0, 1, "Lunatic", "Journey")  # Moons/Waves twice: would score 4 with any Waves meme
    assert p.conclude(0, 1) == 0
    assert p.events()[-1]["holds"] and p.events()[-1]["meme"] is None


def test_sets_pair_and_three_of_a_kind_with_meme_points():
    p = Pos(pile=["Sea"])
    p.meme("Ace of Suns")
    # three 2s (9) + two 3s (4); Suns on the Bard, the Desert and the Painter (3)
    p.tale(0, 0, "Bard", "Desert", "Author", "Origin", "Journey", "Painter")
    assert p.conclude(0, 0) == 16
    ev = [e for e in p.events() if e["type"] == "conclude"][-1]
    assert (ev["meme_points"], ev["set_points"], ev["score"], ev["size"], ev["highest"]) == (3, 13, 16, 6, 10)


def test_four_of_a_kind_is_nine_and_pawns_courts_aces_crowns_pair_but_not_the_excuse():
    p = Pos(copies="double", pile=["Sea"])
    p.meme(None)
    p.tale(0, 0, "Author", "Author'", "Desert", "Desert'", "Sea")  # four 2s: three or more = 9
    assert p.conclude(0, 0) == 9
    p.tale(0, 0, "Watchman", "Harvest", "Consul", "Rite", "Ace of Moons", "Ace of Suns", "Huntress", "Bard")
    assert p.conclude(0, 0) == 16  # pawn pair, court pair, ace pair, crown pair
    p.tale(0, 0, "Huntress", "Excuse", "Excuse'")
    assert p.conclude(0, 0) == 0  # two Excuses make no pair


def test_double_deck_identical_cards_follow_each_other():
    p = Pos(deck="basic", copies="double", pile=["Sea"])
    p.meme("Ace of Moons")
    p.tale(0, 0, "Huntress")
    assert S.fits(p.st, p.tbl, 0, 0, p.c("Huntress'"))
    assert not S.fits(p.st, p.tbl, 0, 0, p.c("Bard"))
    p.tale(0, 0, "Huntress'")
    assert p.conclude(0, 0) == 6  # a pair of Crowns 4 + Moons twice 2


# --- playing cards -------------------------------------------------------------------------------
@pytest.mark.parametrize("play", ["greedy", "random"])
def test_a_card_that_fits_neither_tale_forces_a_conclusion(play):
    p = Pos(play=play, pile=["Sea", "End"])
    p.meme("Ace of Wyrms")
    p.tale(0, 0, "Huntress")  # Crowns: tales worth keeping open
    p.tale(0, 1, "Bard")
    before = int(p.st[S.S_NE])
    p.play(0, "Sailor")  # Waves / Leaves: fits neither
    evs = [e for e in p.events()[before:] if e["type"] in ("conclude", "place")]
    i = [k for k, e in enumerate(evs) if e["type"] == "place" and e["card"] == "Sailor"][0]
    assert i == 1 and evs[0]["type"] == "conclude" and evs[0]["reason"] == "forced"
    assert evs[1] == {"type": "place", "seat": 0, "card": "Sailor", "tale": evs[0]["tale"], "new_tale": True,
                      "length": 1, "follows": None, "setup": False}


def test_no_conclusion_is_forced_while_a_slot_is_free():
    p = Pos(play="random", pile=["Sea"])
    p.meme("Ace of Wyrms")
    p.tale(0, 0, "Ace of Moons")
    assert S.fits(p.st, p.tbl, 0, 1, p.c("Sailor"))  # the empty slot starts a tale
    p.play(0, "Sailor")
    assert all(e["reason"] != "forced" for e in p.events() if e["type"] == "conclude")


def test_the_excuse_forces_a_conclusion_with_a_named_suit():
    p = Pos(pile=["Sea", "Cave"])
    p.meme("Bard")  # Suns
    p.tale(0, 0, "Forest", "Chance Meeting")  # Moons / Leaves twice
    p.play(0, "Excuse")
    conc = [e for e in p.events() if e["type"] == "conclude"]
    assert len(conc) == 1
    c = conc[0]
    assert c["reason"] == "excuse" and c["cards"] == ["Forest", "Chance Meeting", "Excuse"]
    assert c["named_suit_excuse"] == "Moons" and c["named_suit_meme"] is None
    assert (c["meme_points"], c["set_points"], c["score"]) == (2, 0, 2)
    assert p.score(0) == 2
    assert p.st[S.S_MEME] == p.c("Sea")  # the named suit scored: the meme is replaced


def test_named_suit_counts_only_for_that_scoring():
    p = Pos(pile=["Sea", "Cave"])
    p.meme("Bard")
    p.tale(0, 0, "Forest", "Chance Meeting", "Excuse")
    assert p.conclude(0, 0, named_excuse=SUIT_IDX["Leaves"]) == 2
    p.meme("Bard")
    p.tale(0, 0, "Forest", "Chance Meeting")
    assert p.conclude(0, 0) == 0


def test_excuse_as_the_meme_names_a_suit_at_every_conclusion():
    p = Pos(pile=["Sea", "Cave"])
    p.meme("Excuse")
    assert p.st[S.S_MASK] == 0 and p.st[S.S_MEXC] == 1
    p.tale(0, 0, "Forest", "Chance Meeting", "Market")  # Leaves three times
    score = P.do_conclude(p.st, p.tbl, 0, 0, RS_CHOSEN, 0, p.pint, p.rng, p.tr, True)
    c = [e for e in p.events() if e["type"] == "conclude"][-1]
    assert c["named_suit_meme"] == "Leaves" and score == 3 and c["meme_points"] == 3
    assert p.st[S.S_MEME] == p.c("Sea")


def test_excuse_on_top_blocks_the_tale():
    p = Pos(pile=["Sea"])
    p.meme("Sea")
    p.tale(0, 0, "Journey", "Excuse")
    for name in ("Lunatic", "Journey", "Excuse", "Huntress"):
        assert not S.fits(p.st, p.tbl, 0, 0, p.c(name))
    assert S.fits(p.st, p.tbl, 0, 1, p.c("Lunatic"))  # an empty slot starts a tale
    p.tale(0, 1, "Ace of Knots")
    assert S.fits(p.st, p.tbl, 0, 1, p.c("Excuse"))  # the Excuse goes on a tale regardless of suit


# --- the end -------------------------------------------------------------------------------------
def test_end_player_who_cannot_draw_scores_first_and_the_meme_changes_between():
    p = Pos(pile=["Sea"])
    p.meme("Ace of Moons")
    p.tale(1, 0, "Journey")  # seat 1 cannot draw: Journey scores its Moons, Sea becomes the meme
    p.tale(0, 0, "Cave")     # then seat 0's Cave scores Waves under the new meme
    E.end_game(p.st, p.tbl, 1, p.pint, p.rng, p.tr, True)
    evs = [e for e in p.events() if e["type"] in ("end", "conclude", "meme")]
    assert [e["type"] for e in evs] == ["end", "conclude", "meme", "conclude", "meme"]
    assert evs[4]["card"] is None  # the pile is empty now: no suits from here on
    assert evs[1]["seat"] == 1 and evs[1]["meme"] == "Ace of Moons" and evs[1]["score"] == 1
    assert evs[3]["seat"] == 0 and evs[3]["meme"] == "Sea" and evs[3]["score"] == 1
    assert (p.score(0), p.score(1)) == (1, 1)
    assert all(e["reason"] == "end" for e in evs if e["type"] == "conclude")


def test_end_the_other_order_would_differ():
    p = Pos(pile=["Sea"])
    p.meme("Ace of Moons")
    p.tale(1, 0, "Journey")
    p.tale(0, 0, "Cave")
    E.end_game(p.st, p.tbl, 0, p.pint, p.rng, p.tr, True)  # seat 0 first: Cave scores nothing
    assert (p.score(0), p.score(1)) == (0, 1)


def _finish(s0, s1, b0, b1):
    st = np.zeros(S.ST_SIZE, dtype=np.int64)
    S.init_state(st, 36)
    st[S.S_SCORE], st[S.S_SCORE + 1], st[S.S_BARD], st[S.S_BARD + 1] = s0, s1, b0, b1
    out = np.zeros(E.N_COLS, dtype=np.int64)
    S.finish(st, out)
    col = dict(zip(S.COLUMNS, out.tolist()))
    return col["win_0"], col["win_1"], col["n_winners"], col["tie_broken_by_bard"], col["margin"]


def test_winner_and_the_crown_of_suns_tie_break():
    assert _finish(10, 8, 0, 1) == (1, 0, 1, 0, 2)
    assert _finish(7, 9, 1, 0) == (0, 1, 1, 0, 2)
    assert _finish(9, 9, 1, 0) == (1, 0, 1, 1, 0)
    assert _finish(9, 9, 0, 1) == (0, 1, 1, 1, 0)
    assert _finish(9, 9, 0, 0) == (1, 1, 2, 0, 0)
    assert _finish(9, 9, 1, 1) == (1, 1, 2, 0, 0)  # double deck: both had a Bard


def test_the_bard_counts_for_the_seat_whose_tale_it_is_in():
    p = Pos(pile=["Sea"])
    S.place(p.st, p.tbl, 0, 0, p.c("Bard"), 1, p.tr, True)  # placed by seat 1 at setup
    assert (p.st[S.S_BARD], p.st[S.S_BARD + 1]) == (1, 0)
    p.conclude(0, 0)
    assert p.st[S.S_BARD] == 1  # concluding does not undo having had it


# --- setup and turns through a stacked deck ---------------------------------------------------------
def _stacked_events(order, seats=("random", "random"), deck="basic", copies="single", seed=3):
    rules = GAME.validate_rules({"deck": deck, "copies": copies}, 2, "test")
    seats = [GAME.validate_seat({"policy": s}, "test", "seat") for s in seats]
    enc = GAME.encode(rules, seats)
    from analyzer.games.bards.trace import play_traced
    return play_traced(enc, seed, 0, order=order)


def test_setup_and_first_turn_from_a_stacked_deck():
    order = list(range(36))  # Ace of Moons is the meme; seat 1 draws the next four
    evs, out = _stacked_events(order)
    t = [e["type"] for e in evs]
    assert t[:3] == ["deck", "meme", "setup"]
    assert evs[1]["card"] == "Ace of Moons" and evs[1]["reason"] == "setup"
    setup = evs[2]
    assert setup["seat"] == 1 and setup["cards"] == ["Ace of Suns", "Ace of Waves", "Ace of Leaves", "Ace of Wyrms"]
    places = evs[3:7]
    assert all(e["type"] == "place" and e["setup"] and e["new_tale"] for e in places)
    assert sorted(e["card"] for e in places if e["seat"] == 1) == sorted(setup["own"])
    assert sorted(e["card"] for e in places if e["seat"] == 0) == sorted(setup["given"])
    turn = evs[7]
    assert turn == {"type": "turn", "turn": 1, "seat": 0, "pile_left": 31}
    assert evs[8]["cards"] == ["Ace of Knots", "Author", "Desert", "Origin", "Journey"]


def test_game_length_single_basic_deck_without_meme_changes():
    # no meme points ever: 36 - 1 - 4 = 31 cards make 6 turns and leave 1
    evs, out = _stacked_events(list(range(36)))
    col = dict(zip(S.COLUMNS, out.tolist()))
    assert col["length"] == (31 - col["meme_changes"]) // 5
    assert col["cards_left"] == 31 - col["meme_changes"] - 5 * col["length"] < 5
