"""Bring the Noize over many random games: every bid legal, cards conserved, every game ends."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from analyzer.games import get_game
from analyzer.games.noize.trace import play_traced
from analyzer.games.noize.rules import CARD_NAMES, INSTRUMENTS
from analyzer.scenario import from_dict

GAME = get_game("noize")
STRENGTH = {name: i for i, name in enumerate(INSTRUMENTS)}


def scenario(players, policies, shuffle, seed=1):
    raw = {"game": "noize", "games": 1, "seed": seed, "players": players,
           "rules": {"shuffle_each_round": shuffle},
           "seats": {str(s): {"policy": policies[s % len(policies)]} for s in range(players)}}
    return from_dict(raw)


def check_game(events, out, players, rules):
    finish = rules["finish_cards"]
    hands = [rules["start_cards"]] * players
    order = None
    pos = 0
    standing = None
    rounds = 0
    deck_counts = None
    for ev in events:
        t = ev["type"]
        if t in ("deck", "shuffle"):
            order = ev["cards"]
            deck_counts = {c: order.count(c) for c in CARD_NAMES}
            assert len(order) == sum(rules[k] for k in ("vocals", "keyboard", "guitar", "drums", "groupies"))
            pos = 0
        elif t == "round":
            rounds += 1
            standing, bidder_prev, dealt = None, None, []
            assert ev["deck_position"] == pos
        elif t == "deal":
            assert len(ev["cards"]) == hands[ev["seat"]]
            assert ev["cards"] == [order[(pos + i) % len(order)] for i in range(len(ev["cards"]))]
            pos = (pos + len(ev["cards"])) % len(order)
            dealt.append(ev)
        elif t == "bid":
            key = (ev["count"], STRENGTH[ev["instrument"]])
            assert ev["count"] >= 1
            if standing is None:
                assert ev["seat"] == dealt[0]["seat"], "the player left of the dealer opens"
            else:
                assert key > standing[0], "a raise must be higher in (count, strength)"
                assert ev["seat"] == (standing[1] + 1) % players
            standing = (key, ev["seat"])
        elif t == "challenge":
            assert standing is not None and ev["bidder"] == standing[1]
            assert ev["challenger"] == (standing[1] + 1) % players, "only the next player challenges"
        elif t == "count":
            inst = ev["instrument"]
            shown = [c for d in dealt for c in d["cards"]]
            assert ev["instrument_cards"] == shown.count(inst) and ev["groupies"] == shown.count("Groupie")
            assert len(shown) <= len(order)
            reached = ev["instrument_cards"] + ev["groupies"] >= ev["bid_count"]
            challenger, bidder = (standing[1] + 1) % players, standing[1]
            assert ev["loser"] == (challenger if reached else bidder)
            hands[ev["loser"]] += 1
            assert ev["hand_sizes"] == hands
            if hands[ev["loser"]] < finish:
                assert max(hands) < finish
        elif t == "end":
            assert max(hands) == finish, "the game ends when a challenge loser reaches the finish count"
            low = min(hands)
            assert ev["winners"] == [s for s in range(players) if hands[s] == low]
            assert ev["rounds"] == rounds
    # the result row agrees with the trace
    cols = GAME.columns(players)
    assert [int(out[cols.index(f"final_hand_{s}")]) for s in range(players)] == hands
    assert int(out[cols.index("length")]) == rounds
    # cards are conserved: the deck always holds the same multiset
    assert deck_counts == {"Vocals": rules["vocals"], "Keyboard": rules["keyboard"], "Guitar": rules["guitar"],
                           "Drums": rules["drums"], "Groupie": rules["groupies"]}


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 7), game=st.integers(0, 10**9), seed=st.integers(0, 2**63 - 1),
       shuffle=st.booleans(), mix=st.sampled_from([("threshold",), ("random",), ("threshold", "random")]))
def test_random_games_follow_the_rules(players, game, seed, shuffle, mix):
    sc = scenario(players, mix, shuffle, seed)
    arm = sc.arms[0]
    events, out = play_traced(arm.encoded(GAME), seed, game)
    check_game(events, out, players, arm.rules)


@pytest.mark.parametrize("players", range(2, 8))
def test_many_games_end_and_have_winners(players):
    sc = scenario(players, ("threshold", "random"), False)
    out = np.zeros((20_000, len(GAME.columns(players))), dtype=np.int64)
    GAME.run_batch(sc.arms[0].encoded(GAME), 7, 0, out)
    cols = GAME.columns(players)
    wins = out[:, :players]
    assert (wins.sum(axis=1) == out[:, cols.index("n_winners")]).all()
    assert (out[:, cols.index("n_winners")] >= 1).all() and (out[:, cols.index("n_winners")] < players).all()
    finish = sc.arms[0].rules["finish_cards"]
    hands = out[:, [cols.index(f"final_hand_{s}") for s in range(players)]]
    assert (hands.max(axis=1) == finish).all()
