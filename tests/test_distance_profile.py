"""The Distance's side of `analyzer profile` (issue 32): the real choices (plays, declarations, interval choices:
analyzer/games/distance/choices.py) counted on hand-built decisions and over random games without changing any,
and restricted play (a seat's `avoid`, Game.card_kinds, Game.deck_without) checked from the trace events."""
from collections import Counter

import numpy as np
import pytest

from analyzer.games.distance import GAME
from analyzer.games.distance import choices as C
from analyzer.games.distance import search_ops as SO
from analyzer.games.distance import state as S
from analyzer.games.distance.rules import CARD_CLASSES, card_class, rules_deck
from analyzer.rng import new_streams
from distance_helpers import (
    DECK, KIND_INDEX, KIND_OF_ID, LETTERS_OF_KIND, WILD, encoded, play, referee, stacked_order, write_deck)

L = {c: i for i, c in enumerate("ABCDEFG")}
CLASS_OF_KIND = [CARD_CLASSES[card_class(m)] for m in DECK.masks]


def hand_state(hand, step=1, players=4, seat=0):
    """A state in which `seat` holds `hand` (kind names) under the interval `step`: the decisions' counts read
    nothing else."""
    (config, _, _), _ = encoded(players)
    st = config.copy()
    S.init_state(st, 0)
    for name in hand:
        k = KIND_INDEX[name]
        st[S.O_CNT + seat * S.MAXK + k] += 1
        st[S.O_HN + seat] += 1
        st[S.O_NWILD + seat] += WILD[k]
    st[S.S_STEP] = step
    return st


def counts(out, first):
    return dict(zip(("n", "options", "forced", "real"), out[first:first + 4].tolist()))


def turn(hand, need, play=(-1, 0, 0), step=1, players=4, out=None):
    """count_turn for seat 0 holding `hand`, needing `need` (a letter or "any"), deciding `play` (kind name or None,
    notes, wilds); returns the row's twelve choices columns."""
    out = np.zeros(len(C.COLUMNS), dtype=np.int64) if out is None else out
    kind, notes, wilds = play
    kind = KIND_INDEX[kind] if isinstance(kind, str) else -1
    need = S.NEED_ANY if need == "any" else L[need]
    C.count_turn(hand_state(hand, step, players), np.int64(0), np.int64(need), np.int64(kind), np.int64(notes),
                 np.int64(wilds), out, np.int64(0))
    return out


def test_a_play_is_forced_real_or_not_as_its_options_values_say():
    # 4 players, seconds: after declaring G she next needs G + 4 = D (every other seat plays once)
    out = turn(["G", "C", "C"], "G")  # one G fits: 1 option, forced
    assert counts(out, C.PLAYS) == {"n": 1, "options": 1, "forced": 1, "real": 0}
    # G G ? C: 1 or 2 G with 0 or 1 wild, or the wild alone = 5 options; worth (cards now + greedy's next turn for
    # D, -1 if nothing fits): 1G 1+1, 1G? 2-1, 2G 2+1, 2G? 3-1, ? 1-1: best 3 (two G, keep the wild), second 2: real
    out = turn(["G", "G", "?", "C"], "G")
    assert counts(out, C.PLAYS) == {"n": 1, "options": 5, "forced": 0, "real": 1}
    # G ? D D: G 1+3, G? 2+2, ? 1+2: best 4 twice: not real (the wild now or at the next turn is all one)
    turn(["G", "?", "D", "D"], "G", out=out)
    assert counts(out, C.PLAYS) == {"n": 2, "options": 8, "forced": 0, "real": 1}
    # G G: one G leaves G, which cannot give D (-1: 0); both empty her hand (she wins): real
    turn(["G", "G"], "G", out=out)
    assert counts(out, C.PLAYS) == {"n": 3, "options": 10, "forced": 0, "real": 2}
    # nothing fits: she draws, no decision; declarations and intervals untouched
    turn(["C", "D"], "G", out=out)
    assert counts(out, C.PLAYS) == {"n": 3, "options": 10, "forced": 0, "real": 2}
    assert not out[C.DECLARATIONS:].any()


def test_two_copies_and_the_two_kinds_of_wild_count_once():
    # the F#/Gb card twice and one of each wild, for G: 1 or 2 of it x 0, 1 or 2 wilds, or 1 or 2 wilds alone
    out = turn(["F#/Gb", "F#/Gb", "?", "Chromatic Scale", "C"], "G")
    assert counts(out, C.PLAYS)["options"] == 2 * 3 + 2


def test_a_declaration_after_a_wild_start_card():
    # any letter may be played: she plays the F#/Gb card, as F (next turn C: two C, 1 + 2) or as G (D: one, 1 + 1)
    out = turn(["F#/Gb", "C", "C", "D"], "any", ("F#/Gb", 1, 0))
    assert counts(out, C.DECLARATIONS) == {"n": 1, "options": 2, "forced": 0, "real": 1}
    # the plays of a hand when any letter may be played: every pitch class held, 1 to all, each with 0 or 1 wild, or
    # the wild alone: C 2 x 2, D 1 x 2, F#/Gb 1 x 2, ? 1
    assert counts(turn(["F#/Gb", "C", "C", "D", "?"], "any", ("C", 2, 0)), C.PLAYS)["options"] == 9
    # a one-letter card says its letter: forced; wilds alone may be called anything (7), here all alike: not real
    turn(["C", "D"], "any", ("C", 1, 0), out=out)
    turn(["?", "B"], "any", (None, 0, 1), out=out)  # (the B is worth 1 + 1 for the letter 4 before B, else 1 - 1)
    assert counts(out, C.DECLARATIONS) == {"n": 3, "options": 2 + 1 + 7, "forced": 1, "real": 2}
    turn(["?", "?"], "any", (None, 0, 2), out=out)  # both wilds empty her hand as any letter: 7 options, all alike
    assert counts(out, C.DECLARATIONS) == {"n": 4, "options": 17, "forced": 1, "real": 2}


def test_the_start_letter_and_the_interval_choice():
    out = np.zeros(len(C.COLUMNS), dtype=np.int64)
    # the F#/Gb start card counts as F (she then needs G: her best play G G, worth 2 + 1 with the D left for her next
    # need, D) or as G (she needs A: none, she draws, -1): real
    C.count_start_letter(hand_state(["G", "G", "D"]), np.int64((1 << L["F"]) | (1 << L["G"])), out, np.int64(0))
    assert counts(out, C.DECLARATIONS) == {"n": 1, "options": 2, "forced": 0, "real": 1}
    # as F she plays her G, as G her A, each worth 1 - 1 (nothing left for her next need): alike
    C.count_start_letter(hand_state(["G", "A"]), np.int64((1 << L["F"]) | (1 << L["G"])), out, np.int64(0))
    assert counts(out, C.DECLARATIONS) == {"n": 2, "options": 4, "forced": 0, "real": 1}
    # the interval: 6 options, each worth the longest chain her hand makes; an interval and its mirror (thirds,
    # sixths) make the same chain read backwards (A C E, E C A), so the best always ties: never real
    C.count_interval(hand_state(["A", "C", "E", "G", "G"]), np.int64(0), out, np.int64(0))
    assert counts(out, C.INTERVALS) == {"n": 1, "options": 6, "forced": 0, "real": 0}


def _encode(players, rules, seats, count):
    r = GAME.validate_rules(dict(rules), players, "test")
    if count:
        r["count_choices"] = True  # (as the profile sets it, after validation)
    return GAME.encode(r, [GAME.validate_seat(dict(s), "test", f"seats.{i}") for i, s in enumerate(seats)])


def _rows(enc, players, games, seed=11):
    out = np.zeros((games, len(GAME.columns(players))), dtype=np.int64)
    GAME.run_batch(enc, seed, 0, out)
    return out


SAME_GAMES = [
    (4, {}, [{"policy": "greedy"}] * 4),  # (the fast path off the batch when counting: the general loop's games)
    (2, {"interval": "chooser"}, [{"policy": "random"}, {"policy": "conserve"}]),
    (4, {"interval": "random", "misplay_rate": 0.05}, [{"policy": "random"}, {"policy": "greedy", "avoid": "wilds"},
                                                       {"policy": "conserve"}, {"policy": "greedy"}]),
    (2, {}, [{"policy": "lookahead", "samples": 2}, {"policy": "greedy"}]),
]


@pytest.mark.parametrize("case", range(len(SAME_GAMES)))
def test_counting_plays_the_very_same_games(case):
    players, rules, seats = SAME_GAMES[case]
    games = 100 if seats[0]["policy"] == "lookahead" else 400
    off = _rows(_encode(players, rules, seats, False), players, games)
    on = _rows(_encode(players, rules, seats, True), players, games)
    first = len(GAME.columns(players)) - len(C.COLUMNS)
    assert GAME.columns(players)[first:] == list(C.COLUMNS)
    assert np.array_equal(off[:, :first], on[:, :first])
    assert not off[:, first:].any()
    got = {name: on[:, first + i] for i, name in enumerate(C.COLUMNS)}
    for prefix in ("ch_play_", "ch_declare_", "ch_interval_"):
        n, options, forced, real = (got[prefix + k] for k in ("n", "options", "forced", "real"))
        assert (forced <= n).all() and (real <= n - forced).all() and (options >= n).all()
    cols = GAME.columns(players)
    plays = on[:, cols.index("plays")] + on[:, cols.index("misplays")]
    # every play or misplay was a decision, but for the drawn cards that fit; every turn at most one
    assert (got["ch_play_n"] <= plays).all() and (got["ch_play_n"] <= on[:, cols.index("length")]).all()
    assert got["ch_play_real"].sum() > 0 and got["ch_play_forced"].sum() > 0
    # one interval choice a game when a seat chooses, never real (mirror intervals tie), else none
    chooser = rules.get("interval") == "chooser"
    assert (got["ch_interval_n"] == int(chooser)).all() and not got["ch_interval_real"].any()
    assert (got["ch_interval_options"] == 6 * int(chooser)).all()


class Hands:
    """The hands of a traced game, followed event by event; `decisions`: (seat, need, hand, cards played or meant)
    for every turn that began with a play or a misplay (not after draws: the drawn card that fits)."""

    def __init__(self, events):
        self.decisions = []
        hands = {}
        pending = None
        for ev in events:
            t = ev["type"]
            if t == "deal":
                hands[ev["seat"]] = [c["id"] for c in ev["cards"]]
            elif t == "turn":
                pending = (ev["seat"], ev["needed"], list(hands[ev["seat"]]))
            elif t == "draw":
                hands[ev["seat"]].append(ev["card"]["id"])
                pending = None
            elif t == "play":
                cards = [c["id"] for c in ev["cards"]]
                if pending is not None:
                    self.decisions.append(pending + (cards,))
                for c in cards:
                    hands[ev["seat"]].remove(c)
                pending = None
            elif t == "penalty" and ev["kind"] == "misplay":
                if pending is not None:
                    self.decisions.append(pending + ([c["id"] for c in ev["intended_cards"]],))
                pending = None


def _kind_fits(k, need):
    return WILD[k] or need == "any" or need in LETTERS_OF_KIND[k]


def _fits(card, need):
    return _kind_fits(KIND_OF_ID[card], need)


def _greedy(hand, need, avoid):
    """Greedy's play (note kind or -1, notes, wilds) for the hand (ids), skipping the class `avoid` while it has a
    play without it."""
    held = Counter(KIND_OF_ID[c] for c in hand)
    wilds = sum(n for k, n in held.items() if WILD[k])
    fitting = [k for k in range(len(DECK.names)) if not WILD[k] and held[k] and _kind_fits(k, need)]
    free = [k for k in fitting if CLASS_OF_KIND[k] != avoid]
    free_wilds = 0 if avoid == "wilds" else wilds
    if free or free_wilds:
        fitting, wilds = free, free_wilds
    best = max(fitting, key=lambda k: (held[k], -k), default=-1)
    return best, held[best] if best >= 0 else 0, wilds


def _split(cards):
    notes = [KIND_OF_ID[c] for c in cards if not WILD[KIND_OF_ID[c]]]
    return (notes[0] if notes else -1), len(notes), len(cards) - len(notes)


@pytest.mark.parametrize("avoid", CARD_CLASSES)
def test_a_seat_told_to_avoid_a_class_plays_it_only_when_every_play_holds_one(avoid):
    seats = [{"policy": "greedy", "avoid": avoid}, {"policy": "random", "avoid": avoid},
             {"policy": "conserve", "avoid": avoid}, {"policy": "greedy"}]
    enc, r = encoded(4, {"interval": "random", "misplay_rate": 0.03}, seats)
    played_it = {0: 0, 1: 0, 2: 0, 3: 0}
    held_back = 0  # seat 0's decisions where greedy unrestricted would have played the class
    for game in range(150):
        events, out = play(enc, seed=21, game=game)
        referee(events, out, r, 4)
        for seat, need, hand, cards in Hands(events).decisions:
            holds = any(CLASS_OF_KIND[KIND_OF_ID[c]] == avoid for c in cards)
            free = any(_fits(c, need) and CLASS_OF_KIND[KIND_OF_ID[c]] != avoid for c in hand)
            played_it[seat] += holds
            if seat < 3 and holds:
                assert not free, (game, seat, need, hand, cards)
            if seat in (0, 3):  # greedy: restricted (seat 0), and as ever beside it (seat 3)
                assert _split(cards) == _greedy(hand, need, avoid if seat == 0 else None), (game, seat, hand, cards)
            held_back += seat == 0 and _split(cards) != _greedy(hand, need, None)
    assert played_it[3] > 50 and held_back > 20  # the unrestricted seat plays the class freely, seat 0 did not


def test_the_only_play_of_an_avoided_class_is_made():
    def first_play(hand, avoid):
        order = stacked_order([hand, ["D", "D", "E"]], "F", ["B"] * 3, 2)
        enc, r = encoded(2, {"hand_size": 3}, [{"policy": "greedy", "avoid": avoid}, {"policy": "greedy"}], order)
        events, out = play(enc)
        referee(events, out, r, 2)
        return sorted(c["name"].split(" #")[0] for c in next(e for e in events if e["type"] == "play")["cards"])
    assert first_play(["?", "C", "C"], "wilds") == ["?"]  # only the wild gives G
    assert first_play(["G", "?", "C"], "wilds") == ["G"]  # greedy keeps its wild back
    assert first_play(["G", "?", "C"], "none") == ["?", "G"]
    assert first_play(["G", "G", "C"], "naturals") == ["G", "G"]
    assert first_play(["G", "F#/Gb", "?"], "naturals") == ["?", "F#/Gb"]
    assert first_play(["G", "G", "F#/Gb"], "accidentals") == ["G", "G"]
    assert first_play(["F#/Gb", "C", "C"], "accidentals") == ["F#/Gb"]


def test_avoid_none_is_the_policy_as_it_always_was():
    seats = [{"policy": "random"}, {"policy": "conserve"}, {"policy": "greedy"}]
    plain = encoded(3, {"interval": "thirds"}, seats)[0]
    said = encoded(3, {"interval": "thirds"}, [dict(s, avoid="none") for s in seats])[0]
    assert np.array_equal(plain[0], said[0])
    assert np.array_equal(_rows(plain, 3, 300), _rows(said, 3, 300))
    assert GAME.card_kinds == ("naturals", "accidentals", "wilds")
    assert all(p.param("avoid").default == "none" for p in GAME.policies)


def test_the_candidate_plays_of_a_seat_that_avoids_wilds():
    st = hand_state(["G", "G", "?", "F#/Gb", "C"])
    st[S.S_NEED] = L["G"]
    rng = new_streams(np.uint64(1), 0, 8)
    look = SO.new_look(8, len(GAME.columns(4)))
    cand = np.zeros((SO.MAXCAND, SO.DECISION_WIDTH), dtype=np.int64)

    def plays():
        m = SO.decisions(st, np.int64(0), rng, cand, look)
        return [(DECK.names[k] if k >= 0 else None, notes, wilds) for k, notes, wilds, _ in cand[:m].tolist()]
    every = plays()  # greedy's first: both G and the wild
    assert every[0] == ("G", 2, 1) and sorted(every[1:], key=str) == sorted(
        [("G", 1, 0), ("G", 1, 1), ("G", 2, 0), ("F#/Gb", 1, 0), ("F#/Gb", 1, 1), (None, 0, 1)], key=str)
    st[S.O_PAR + S.PAR_AVOID] = S.CLASS_WILD
    kept = plays()  # greedy's restricted play first, then the others without a wild
    assert kept[0] == ("G", 2, 0) and sorted(kept[1:], key=str) == [("F#/Gb", 1, 0), ("G", 1, 0)]
    st[S.O_CNT + KIND_INDEX["G"]] = 0
    st[S.O_CNT + KIND_INDEX["F#/Gb"]] = 0
    assert plays() == [(None, 0, 1)]  # only the wild fits: it stays


@pytest.mark.parametrize("searcher", [{"policy": "lookahead", "samples": 2}, {"policy": "search", "budget": 16}])
def test_a_searching_seat_honours_its_avoid(searcher):
    enc, r = encoded(2, {}, [dict(searcher, avoid="wilds"), {"policy": "greedy"}])
    tempted = 0  # seat 0's decisions holding a wild and another play
    for game in range(12):
        events, out = play(enc, seed=5, game=game)
        referee(events, out, r, 2)
        for seat, need, hand, cards in Hands(events).decisions:
            free = any(_fits(c, need) and not WILD[KIND_OF_ID[c]] for c in hand)
            if seat == 0 and any(WILD[KIND_OF_ID[c]] for c in cards):
                assert not free
            tempted += seat == 0 and free and any(WILD[KIND_OF_ID[c]] for c in hand)
    assert tempted > 5


def test_a_deck_without_a_class_lacks_it_and_holds_everything_else(tmp_path):
    seats = [GAME.validate_seat({"policy": "greedy", "avoid": "wilds"}, "test", "seats.0")] * 2
    for players in (2, 3):
        rules = GAME.validate_rules({}, players, "test")
        for name in CARD_CLASSES:
            without = GAME.deck_without(rules, name, players)
            deck = rules_deck(without)
            assert list(zip(deck.names, deck.masks, deck.copies)) == [
                row for k, row in enumerate(zip(DECK.names, DECK.masks, DECK.copies)) if CLASS_OF_KIND[k] != name]
            assert rules_deck(rules) == DECK and "_deck_without" not in rules  # (the rules given are unchanged)
    # played: 48 cards, no wild dealt or drawn; a seat told to avoid wilds then avoids nothing (an idle setting)
    without = GAME.deck_without(GAME.validate_rules({}, 2, "test"), "wilds", 2)
    events = GAME.trace(GAME.encode(without, seats), 3, 0)
    names = [c["name"] for c in events[0]["cards"]]
    assert len(names) == 48 and not any(n.startswith(("?", "Chromatic")) for n in names)
    assert ("seats.0.avoid", "the deck has no wilds") in GAME.idle(without, seats, 2)
    plain = [GAME.validate_seat({"policy": "greedy"}, "test", "seats.0")] * 2
    assert np.array_equal(_rows(GAME.encode(without, seats), 2, 200), _rows(GAME.encode(without, plain), 2, 200))
    # 28 naturals, 20 accidentals, 6 wilds: without the naturals 26 cards deal 3 players (22), not 4 (29); without
    # the accidentals 34 deal 4 (29), not 5 (36)
    assert GAME.deck_without(GAME.validate_rules({}, 3, "test"), "naturals", 3) is not None
    assert GAME.deck_without(GAME.validate_rules({}, 4, "test"), "naturals", 4) is None
    assert GAME.deck_without(GAME.validate_rules({}, 4, "test"), "accidentals", 4) is not None
    assert GAME.deck_without(GAME.validate_rules({}, 5, "test"), "accidentals", 5) is None
    # a designer's deck whose only B is the A#/Bb card: without the accidentals no card gives B
    rules = GAME.validate_rules({"deck_file": write_deck(tmp_path, "A,A,4\nA#/Bb,A B,4\nC,C,4\nD,D,4\nE,E,4\n"
                                                                  "F,F,4\nG,G,4\n")}, 2, "test")
    assert GAME.deck_without(rules, "accidentals", 2) is None
    assert GAME.deck_without(rules, "wilds", 2) is not None  # (it has none: the same deck)
