"""The Distance, hand-built situations with exact outcomes: stacked decks (the deal, the start card and the
stock in a chosen order) and deterministic policies, each game also checked by the referee."""
import numpy as np
import pytest

from analyzer.errors import ScenarioError
from analyzer.games.distance import GAME
from analyzer.games.distance.rules import load_deck
from analyzer.games.distance.state import NEED_ANY, group_fits
from analyzer.games.distance.trace import format_event
from distance_helpers import DECK, KIND_INDEX, encoded, play, referee, stacked_order, write_deck

MASKS = np.array(DECK.masks, dtype=np.int64)
L = {c: i for i, c in enumerate("ABCDEFG")}


def kinds(*names):
    return np.array([KIND_INDEX[n] for n in names], dtype=np.int64)


def game(hands, start, stock, rules=None, seats=None, players=None, game_index=0):
    players = players or len(hands)
    rules = dict(rules or {})
    rules.setdefault("hand_size", len(hands[0]))
    order = stacked_order(hands, start, stock, players)
    enc, r = encoded(players, rules, seats or [{"policy": "greedy"}] * players, order)
    events, out = play(enc, game=game_index)
    referee(events, out, r, players)
    return events, dict(zip(GAME.columns(players), out.tolist()))


def first(events, type_, **match):
    return next(e for e in events if e["type"] == type_ and all(e.get(k) == v for k, v in match.items()))


def test_an_f_sharp_g_flat_card_gives_f_or_g_but_not_e():
    assert group_fits(kinds("F#/Gb"), 1, L["F"], MASKS) == 1 << L["F"]
    assert group_fits(kinds("F#/Gb"), 1, L["G"], MASKS) == 1 << L["G"]
    assert group_fits(kinds("F#/Gb"), 1, L["E"], MASKS) == 0
    assert group_fits(kinds("F#/Gb"), 1, NEED_ANY, MASKS) == (1 << L["F"]) | (1 << L["G"])


def test_a_group_mixing_pitch_classes_is_refused_even_when_each_card_fits():
    assert group_fits(kinds("G", "F#/Gb"), 2, L["G"], MASKS) == 0
    assert group_fits(kinds("G", "G#/Ab"), 2, L["G"], MASKS) == 0
    assert group_fits(kinds("G", "G"), 2, L["G"], MASKS) == 1 << L["G"]


def test_wilds_go_inside_a_group_and_alone():
    assert group_fits(kinds("G", "?", "Chromatic Scale"), 3, L["G"], MASKS) == 1 << L["G"]
    assert group_fits(kinds("?", "?"), 2, L["B"], MASKS) == 1 << L["B"]
    events, row = game([["G", "G", "?", "C"], ["D", "D", "E", "E"]], "F", ["B"] * 3)
    p = first(events, "play", seat=0)
    assert sorted(c["name"].split(" #")[0] for c in p["cards"]) == ["?", "G", "G"]
    assert p["declared"] == "G" and p["needed_next"] == "A" and row["wilds_used"] >= 1


@pytest.mark.parametrize("interval, start, need", [("thirds", "F", "A"), ("thirds", "G", "B"), ("sevenths", "F", "E"),
                                                   ("sevenths", "A", "G"), ("fourths", "A", "D"), ("seconds", "G", "A")])
def test_intervals_count_up_and_wrap_round_the_alphabet(interval, start, need):
    events, _ = game([["C", "C", "C"], ["D", "D", "D"]], start, [], {"interval": interval})
    assert first(events, "start")["needed"] == need


def test_thirds_after_a_play():
    # seat 0 needs A (F + a third) and plays A; the next player needs C
    events, _ = game([["A", "D", "D"], ["E", "E", "E"]], "F", [], {"interval": "thirds"})
    p = first(events, "play", seat=0)
    assert p["declared"] == "A" and p["needed_next"] == "C"


def test_a_player_who_cannot_play_draws_three_then_passes_and_the_next_needs_the_same_letter():
    events, row = game([["C", "C", "C"], ["E", "G", "G"]], "D", ["A", "B", "C", "F"])
    # seat 0 needs E: holds none, draws A, B, C (none fits) and passes; seat 1 must play the E
    draws = [e for e in events if e["type"] == "draw" and e["seat"] == 0][:3]
    assert [d["card"]["name"].split(" #")[0] for d in draws] == ["A", "B", "C"]
    assert first(events, "pass", seat=0) == {"type": "pass", "seat": 0, "drew": 3, "needed": "E"}
    assert first(events, "turn", turn=2)["needed"] == "E"
    p = first(events, "play", seat=1)
    assert p["declared"] == "E" and row["passes"] >= 1


def test_a_drawn_card_that_fits_is_played_at_once():
    events, _ = game([["C", "C", "C"], ["G", "G", "G"]], "D", ["A", "E", "B"])
    # seat 0 needs E, draws A (no), then E (fits): plays it; the B stays in the stock
    turn1 = events[events.index(first(events, "turn", turn=1)):events.index(first(events, "turn", turn=2))]
    assert [e["type"] for e in turn1] == ["turn", "draw", "draw", "play"]
    assert turn1[2]["fits"] and turn1[3]["cards"] == [turn1[2]["card"]]


def test_draw_limit_zero_draws_until_a_card_fits():
    events, _ = game([["C", "C", "C"], ["G", "G", "G"]], "D", ["A", "B", "A", "B", "E"], {"draw_limit": 0})
    turn1 = events[events.index(first(events, "turn", turn=1)):events.index(first(events, "turn", turn=2))]
    assert [e["type"] for e in turn1] == ["turn"] + ["draw"] * 5 + ["play"]


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_keeping_its_top_card():
    deck_order_hands = [["A", "B", "C"], ["D", "E", "F"]]
    # 6 cards dealt, start G; stock = every other card. Seats play up the scale quickly; draw through the
    # stock until it is empty; a reshuffle must keep the top card and rebuild the stock from the rest
    for seed_game in range(30):
        order = stacked_order(deck_order_hands, "G", [], 2)
        enc, r = encoded(2, {"hand_size": 3, "draw_limit": 0}, [{"policy": "conserve"}] * 2, order)
        events, out = play(enc, seed=5, game=seed_game)
        referee(events, out, r, 2)
        shuffles = [e for e in events if e["type"] == "reshuffle"]
        if shuffles:
            i = events.index(shuffles[0])
            plays = [e for e in events[:i] if e["type"] == "play"]
            assert shuffles[0]["kept_on_top"] == plays[-1]["cards"][-1]
            return
    pytest.fail("no reshuffle in 30 games")


def misplay_game(game_index):
    """Seat 0 holds E, E, C and needs E: she means to play both Es, and every play is botched."""
    events, row = game([["E", "E", "C"], ["G", "G", "G"]], "D", ["A", "B", "C", "D"], {"misplay_rate": 1.0},
                       game_index=game_index)
    e1, e2, c = first(events, "deal", seat=0)["cards"]
    return events, row, first(events, "penalty", seat=0), (e1, e2, c)


def test_a_misplay_records_the_wrong_card_put_down_and_the_play_meant():
    # game 2: the error draw picks a wrong card, the C (the only card of her hand that cannot give E), called E
    events, row, pen, (e1, e2, c) = misplay_game(2)
    assert pen == {"type": "penalty", "seat": 0, "kind": "misplay", "cards_taken_back": [c], "letter": "E",
                   "intended_cards": [e1, e2], "intended_letter": "E"}
    assert format_event(pen) == (f"  seat 0 misplays: she puts down C #1 [{c['id']}] and says E (she meant "
                                 f"E #1 [{e1['id']}], E #2 [{e2['id']}] as E); she takes the cards back and draws 2")
    i = events.index(pen)
    assert [e["type"] for e in events[i + 1:i + 3]] == ["draw", "draw"] and events[i + 1]["penalty"]
    assert first(events, "turn", turn=3)["hand_size"] == 3 + 2, "the C came back and two were drawn"
    assert first(events, "turn", turn=2)["needed"] == "E", "the next player needs the same letter"
    assert row["misplays"] >= 1 and row["penalty_cards"] >= 2


def test_a_misplay_records_the_wrong_letter_said():
    # game 0: the error draw picks a wrong letter: both Es go down, called D
    events, _, pen, (e1, e2, _) = misplay_game(0)
    assert pen == {"type": "penalty", "seat": 0, "kind": "misplay", "cards_taken_back": [e1, e2], "letter": "D",
                   "intended_cards": [e1, e2], "intended_letter": "E"}
    assert first(events, "turn", turn=3)["hand_size"] == 3 + 2, "the Es came back and two were drawn"


def test_a_misplay_with_no_wrong_card_or_letter_to_make_says_no_letter():
    # a wild start card (any letter may be played) and a hand of one wild: every card and letter she could
    # choose is a legal play, so the slip left is saying no letter at all
    events, _ = game([["?"], ["C"]], "Chromatic Scale", ["A", "B", "C", "D"], {"misplay_rate": 1.0})
    wild = first(events, "deal", seat=0)["cards"][0]
    pen = first(events, "penalty", seat=0)
    assert pen["cards_taken_back"] == pen["intended_cards"] == [wild] and pen["letter"] is None
    assert format_event(pen).startswith(f"  seat 0 misplays: she puts down ? #1 [{wild['id']}] and says no letter ")


def test_forgetting_to_call_on_the_last_card_costs_two():
    events, row = game([["E", "C"], ["G", "G"]], "D", ["A", "B", "C", "D"], {"forget_call_rate": 1.0})
    p = first(events, "play", seat=0)
    i = events.index(p)
    assert events[i + 1] == {"type": "penalty", "seat": 0, "kind": "forgot_call", "cards_taken_back": [],
                             "letter": None}
    assert events[i + 2]["penalty"] and events[i + 3]["penalty"]
    assert first(events, "turn", turn=3)["hand_size"] == 3
    assert row["forgotten_calls"] >= 1


def test_the_first_empty_hand_wins_at_once():
    events, row = game([["E", "G", "B"], ["F", "A", "C"]], "D", ["C"] * 3)
    end = events[-1]
    assert end["winner"] == 0 and end["turns"] == 5 and end["cards_left"] == [0, 1]
    assert row["win_0"] == 1 and row["n_winners"] == 1 and row["end"] == 0


def test_a_two_letter_start_card_lets_the_first_player_choose():
    # G#/Ab: as G the first player needs A, as A she needs B; she holds two Bs: she says A
    events, _ = game([["B", "B", "D"], ["C", "C", "C"]], "G#/Ab", [])
    assert first(events, "start_letter") == {"type": "start_letter", "seat": 0, "letter": "A", "needed": "B"}
    assert first(events, "play", seat=0)["declared"] == "B"


def test_a_wild_start_card_lets_the_first_player_play_anything():
    events, _ = game([["D", "D", "F"], ["C", "C", "C"]], "?", [])
    assert first(events, "start")["needed"] == "any"
    p = first(events, "play", seat=0)
    assert [c["name"].split(" #")[0] for c in p["cards"]] == ["D", "D"]
    assert p["declared"] == "D" and p["needed_next"] == "E"


def test_a_full_round_of_passes_with_nothing_to_draw_is_a_stall(tmp_path):
    # only the start card can give B; nobody can play, the stock runs dry, two passes with nothing to
    # draw: a stall with no winner
    path = write_deck(tmp_path, "A#/Bb,A B,1\nC,C,1\nD,D,2\nE,E,2\nF,F,2\nG,G,2\n")
    deck = load_deck(path, None)
    names = deck.card_names()
    hands = [["D #1", "E #1", "F #1"], ["D #2", "E #2", "G #1"]]
    ids = {name: i for i, name in enumerate(names)}
    order = [ids[hands[r % 2][r // 2]] for r in range(6)] + [ids["A#/Bb #1"], ids["C #1"], ids["F #2"], ids["G #2"]]
    r = GAME.validate_rules({"deck_file": path, "hand_size": 3}, 2, "test")
    r["_stacked_order"] = order
    enc = GAME.encode(r, [GAME.validate_seat({"policy": "greedy"}, "t", "s")] * 2)
    from analyzer.games.distance.trace import play_traced

    events, out = play_traced(enc, 1, 0)
    assert first(events, "start_letter")["letter"] == "A"  # neither B nor C playable: the first letter
    assert events[-1]["end"].startswith("stall: a full round") and events[-1]["winner"] is None
    row = dict(zip(GAME.columns(2), out.tolist()))
    assert row["n_winners"] == 0 and row["win_0"] == row["win_1"] == 0 and row["end"] == 1
    assert [e["drew"] for e in events if e["type"] == "pass"] == [3, 0, 0]


def test_the_turn_cap_ends_a_game_as_a_stall():
    enc, r = encoded(4, {"turn_cap": 10}, [{"policy": "conserve"}] * 4)
    events, out = play(enc, 1, 0)
    referee(events, out, r, 4)
    assert events[-1]["end"] == "stall: the turn cap" and events[-1]["turns"] == 10


@pytest.mark.parametrize("text, words", [
    ("A,A,4\nH,H,4\n", 'deck.csv, card row 2 (H): unknown letter "H"'),
    ("A,A,4\nX,,4\n", "a pitch class with no letter"),
    ("A,A,4\nB,B,x\n", 'deck.csv, card row 2 (B): copies "x" must be a whole number'),
    ("A,A B C D E F,4\n", "no card gives the letter(s) G"),
    ("A,A B C D E F G,4\n", "the deck (deck.csv) has only 4"),
])
def test_a_bad_deck_file_is_one_clear_error(tmp_path, text, words):
    path = write_deck(tmp_path, text)
    with pytest.raises(ScenarioError) as e:
        GAME.validate_rules({"deck_file": path}, 4, "my.toml")
    message = str(e.value)
    assert words in message and message.startswith("my.toml: ") and "deck.csv" in message


def test_greedy_plays_all_of_its_biggest_fitting_pitch_class_and_its_wilds_conserve_plays_one():
    hands = [["E", "E", "E", "?"], ["C", "C", "C", "C"]]
    events, _ = game(hands, "D", [])
    assert len(first(events, "play", seat=0)["cards"]) == 4
    events, _ = game(hands, "D", [], seats=[{"policy": "conserve", "wild_reserve": 0}, {"policy": "conserve"}])
    assert [c["name"].split(" #")[0] for c in first(events, "play", seat=0)["cards"]] == ["E"]


def test_random_play_covers_every_kind_of_legal_play():
    enc, r = encoded(3, {"interval": "thirds"}, [{"policy": "random"}] * 3)
    sizes, wilds_in_group = set(), False
    for g in range(300):
        events, out = play(enc, 9, g)
        for e in events:
            if e["type"] == "play":
                sizes.add(len(e["cards"]))
                names = [c["name"] for c in e["cards"]]
                wilds_in_group |= any(n.startswith(("?", "Chromatic")) for n in names) and len(names) > 1
    assert {1, 2, 3} <= sizes and wilds_in_group


def test_the_interval_can_be_drawn_at_random_or_chosen_by_the_dealer():
    enc, r = encoded(4, {"interval": "random", "random_intervals": [3, 5]}, [{"policy": "greedy"}] * 4)
    out = np.zeros((400, len(GAME.columns(4))), dtype=np.int64)
    GAME.run_batch(enc, 2, 0, out)
    played = out[:, GAME.columns(4).index("interval")]
    assert set(np.unique(played)) == {3, 5}
    enc, r = encoded(4, {"interval": "chooser"}, [{"policy": "greedy"}] * 3 + [{"policy": "greedy", "interval": "fixed",
                                                                               "fixed_interval": 6}])
    events, out = play(enc, 2, 0)
    assert first(events, "interval") == {"type": "interval", "interval": 6, "step": 5, "how": "chosen", "chooser": 3}
    # the same opening deal whatever the interval rule (common random numbers)
    fixed, _ = encoded(4, {}, [{"policy": "greedy"}] * 4)
    assert play(fixed, 2, 0)[0][:5] == events[:5]
