"""Bring the Noize rules pinned on hand-built games (stacked decks, scripted bids)."""
import numpy as np
import pytest

from analyzer.games import get_game
from analyzer.games.noize import engine as E
from analyzer.games.noize.rules import TABLE, tail_table_size
from analyzer.errors import ScenarioError
from noize_helpers import CHALLENGE, D, G, K, V, X, bid, names, play_scripted, stacked_deck

GAME = get_game("noize")


def col(out, n, name):
    return out[GAME.columns(n).index(name)]


def of_type(events, t):
    return [e for e in events if e["type"] == t]


def test_rulebook_example():
    """The rulebook's worked example: Angie deals 3/4/3/3; Bob's 4 Keyboards holds (3 + 2 Groupies).

    Seats: Angie 0, Bob 1, Cass 2, Devang 3. Round 1 (Devang deals, Angie starts) makes Cass lose once,
    so that in round 2 Angie deals, Bob starts and Cass holds four cards, as in the example."""
    round1 = [V, V, V,  K, K, K,  G, G, G,  D, D, D]  # Angie, Bob, Cass, Devang
    round2 = [K, K, G,  X, V, V, D,  K, X, V,  V, V, D]  # Bob, Cass, Devang, Angie
    deck = stacked_deck(round1 + round2)
    scripts = [
        [bid(1, V), bid(3, V)],                         # Angie: opens round 1; bids 3 Vocals in round 2
        [bid(2, V), bid(1, G), bid(4, K)],              # Bob
        [CHALLENGE, bid(2, K), CHALLENGE],              # Cass: loses her round-1 challenge; round 2 as in the book
        [bid(2, G)],                                    # Devang
    ]
    events, out = play_scripted(deck, scripts, start=3, finish=5)
    rounds = of_type(events, "round")
    assert [(r["dealer"], r["starter"]) for r in rounds] == [(3, 0), (0, 1)]
    deals2 = [e for e in of_type(events, "deal")][4:]
    assert [(d["seat"], len(d["cards"])) for d in deals2] == [(1, 3), (2, 4), (3, 3), (0, 3)]
    assert deals2[1]["cards"] == names([X, V, V, D])
    bids2 = [(b["seat"], b["count"], b["instrument"]) for b in of_type(events, "bid")][2:]
    assert bids2 == [(1, 1, "Guitar"), (2, 2, "Keyboard"), (3, 2, "Guitar"), (0, 3, "Vocals"), (1, 4, "Keyboard")]
    challenge = of_type(events, "challenge")[-1]
    assert (challenge["challenger"], challenge["bidder"], challenge["count"]) == (2, 1, 4)
    count = of_type(events, "count")[-1]
    assert (count["instrument_cards"], count["groupies"]) == (3, 2)  # 3 + 2 = 5 >= 4
    assert count["loser"] == 2 and count["loser_role"] == "challenger"
    assert count["hand_sizes"] == [3, 3, 5, 3]  # Cass has a fifth card
    # Cass reached finish 5: the game ends; the three players with 3 cards share the win
    assert of_type(events, "end")[0]["winners"] == [0, 1, 3]
    assert list(out[:4]) == [1, 1, 0, 1] and col(out, 4, "n_winners") == 3
    assert col(out, 4, "length") == 2 and col(out, 4, "challenger_wins") == 0 and col(out, 4, "bids") == 7


def test_bidder_loses_when_count_falls_short_and_groupies_count():
    # 2 players, 2 cards each. Seat 0: V, X; seat 1: K, X. Vocals + Groupies = 3.
    deck = stacked_deck([V, X, K, X])
    ev, out = play_scripted(deck, [[bid(4, V)], [CHALLENGE]], start=2, finish=3)
    c = of_type(ev, "count")[0]
    assert (c["instrument_cards"], c["groupies"], c["loser"], c["loser_role"]) == (1, 2, 0, "bidder")
    assert list(out[:2]) == [0, 1] and col(out, 2, "challenger_wins") == 1
    assert col(out, 2, "final_hand_0") == 3 and col(out, 2, "final_hand_1") == 2
    assert col(out, 2, "opening_challenged") == 1


def test_exact_count_means_the_challenger_loses():
    deck = stacked_deck([V, X, K, X])
    ev, out = play_scripted(deck, [[bid(3, V)], [CHALLENGE]], start=2, finish=3)
    assert of_type(ev, "count")[0]["loser"] == 1
    assert list(out[:2]) == [1, 0]


def test_bid_above_cards_in_play_must_lose():
    deck = stacked_deck([X, X, X, X])  # every card is a Groupie: 4 of anything at most
    ev, _ = play_scripted(deck, [[bid(5, D)], [CHALLENGE]], start=2, finish=3)
    assert of_type(ev, "count")[0]["loser_role"] == "bidder"


def test_unshuffled_deal_continues_where_the_last_ended_and_wraps():
    """Hands go back under the stack in dealt order, so every deal reads the deck cyclically."""
    deck = stacked_deck([])
    # 2 players, 30 cards each then more: each round one loses; deal positions advance by the total
    scripts = [[bid(1, V), CHALLENGE] * 20, [CHALLENGE, bid(1, V)] * 20]
    ev, _ = play_scripted(deck, scripts, start=30, finish=36)
    order = of_type(ev, "deck")[0]["cards"]
    pos = 0
    deals = of_type(ev, "deal")
    for d in deals:
        assert d["deck_position"] == pos
        assert d["cards"] == [order[(pos + i) % 80] for i in range(len(d["cards"]))]
        pos = (pos + len(d["cards"])) % 80
    assert sum(len(d["cards"]) for d in deals) > 80  # the stack wrapped


def test_shuffle_each_round_reshuffles_before_every_later_deal():
    deck = stacked_deck([])
    scripts = [[bid(1, V), CHALLENGE] * 10, [CHALLENGE, bid(1, V)] * 10]
    ev, _ = play_scripted(deck, scripts, start=3, finish=6, shuffle=True)
    kinds = [e["type"] for e in ev if e["type"] in ("round", "shuffle")]
    # round 1 uses the opening order; every later round starts with a shuffle
    assert kinds[0] == "round" and all(kinds[i] == "shuffle" and kinds[i + 1] == "round" for i in range(1, len(kinds), 2))
    for sh, deal in zip(of_type(ev, "shuffle"), [d for d in of_type(ev, "deal")][2::2]):
        assert deal["deck_position"] == 0 and deal["cards"] == sh["cards"][:len(deal["cards"])]


def test_rotation_starter_deals_next_and_the_loser_gets_one_more_card_each_round():
    # 3 players: the starter opens 1 Vocals, the next challenges; the first 20 cards are Vocals, so the
    # challenger loses each time. Moves per seat in the order that seat is asked.
    deck = stacked_deck([])
    scripts = [[bid(1, V), CHALLENGE, bid(1, V)], [CHALLENGE, bid(1, V), CHALLENGE], [CHALLENGE, bid(1, V)]]
    ev, out = play_scripted(deck, scripts, start=2, finish=4)
    rounds = of_type(ev, "round")
    assert [(r["dealer"], r["starter"]) for r in rounds][:3] == [(2, 0), (0, 1), (1, 2)]
    counts = of_type(ev, "count")
    # round 4 deals cards 21-29, all Keyboards: 1 Vocals fails and the bidder, seat 0, reaches 4
    assert [c["loser"] for c in counts] == [1, 2, 0, 0]
    assert of_type(ev, "end")[0]["winners"] == [1, 2]
    assert counts[0]["hand_sizes"] == [2, 3, 2]
    # seat 1 was dealt 3 cards in round 2
    assert [len(d["cards"]) for d in of_type(ev, "deal") if d["seat"] == 1][:2] == [2, 3]


def test_only_the_next_player_challenges_and_the_game_ends_at_finish():
    deck = stacked_deck([])
    scripts = [[bid(1, V)] * 5, [bid(1, K)] * 5, [CHALLENGE] * 5]
    ev, out = play_scripted(deck, scripts, start=1, finish=2)
    ch = of_type(ev, "challenge")[0]
    assert (ch["challenger"], ch["bidder"]) == (2, 1)
    assert col(out, 3, "length") == 1  # one loss reaches 2 = finish


@pytest.mark.parametrize("players", sorted(TABLE))
def test_table_defaults(players):
    rules = GAME.validate_rules({}, players, "t.toml")
    assert (rules["start_cards"], rules["finish_cards"]) == TABLE[players]


def test_rules_that_cannot_be_played_are_rejected():
    with pytest.raises(ScenarioError, match="rules.finish_cards = 3: must be greater than rules.start_cards"):
        GAME.validate_rules({"start_cards": 3, "finish_cards": 3}, 4, "t.toml")
    with pytest.raises(ScenarioError, match="4 x 7 = 28 cards in a round, but the deck has only 20"):
        GAME.validate_rules({"vocals": 5, "keyboard": 5, "guitar": 5, "drums": 5, "groupies": 0}, 4, "t.toml")
    with pytest.raises(ScenarioError, match="MiB"):
        GAME.validate_rules({"start_cards": 1, "finish_cards": 60, "vocals": 200, "keyboard": 200}, 7, "t.toml")


@pytest.mark.parametrize("start, finish, n", [(3, 8, 4), (4, 12, 2), (1, 5, 7)])
def test_the_table_size_checked_before_a_run_is_the_tables(start, finish, n):
    counts = np.array([20, 19, 18, 17, 6], dtype=np.int64)
    assert E.tail_table(counts, start, finish, n).size == tail_table_size(start, finish, n)


def test_threshold_probabilities_match_scipy():
    from scipy.stats import hypergeom

    counts = np.array([20, 19, 18, 17, 6], dtype=np.int64)
    table = E.tail_table(counts, 3, 8, 4)
    D = 80
    for inst in range(4):
        success = counts[inst] + counts[4]
        for h in (3, 5, 7):
            for own in range(0, h + 1):
                for hidden in (0, 5, 9, 17, 21):
                    dist = hypergeom(D - h, success - own, hidden)
                    for x in range(0, hidden + 2):
                        assert table[inst, h - 3, own, hidden, x] == pytest.approx(dist.sf(x - 1), abs=1e-12)
