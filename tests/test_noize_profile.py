"""Bring the Noize's side of `analyzer profile` (issue 32): the decision counts (Choices) and restricted play
(`avoid`, card_kinds, deck_without), on hand-built decisions with exact counts and over random games."""
import numpy as np
import pytest
from scipy.stats import hypergeom

from analyzer.games import get_game
from analyzer.games.base import AVOID
from analyzer.games.noize import engine as E
from analyzer.games.noize import actions as A
from analyzer.games.noize.rules import DECK_KEYS, INSTRUMENTS
from analyzer.games.noize.trace import decode, play_traced
from analyzer.rng import new_streams
from analyzer.scenario import from_dict
from noize_helpers import CHALLENGE, STANDARD, D, G, K, V, X, bid, setup, stacked_deck

GAME = get_game("noize")
KINDS = ("ch_bid_", "ch_challenge_")


def choice_counts(out, n):
    """{prefix: (n, options, forced, real)} of a result row."""
    cols = GAME.columns(n)
    return {p: tuple(int(out[cols.index(p + k)]) for k in ("n", "options", "forced", "real")) for p in KINDS}


def play_counted(deck, scripts, start, finish, count):
    """engine.play_game with every seat scripted (scripts[s]: seat s's moves), the deck as stacked, the real
    probability table (the counting reads it), counting on or off. Returns (events, result row)."""
    n = len(scripts)
    rules = np.zeros(E.N_RULES, dtype=np.int64)
    rules[E.R_PLAYERS], rules[E.R_START], rules[E.R_FINISH], rules[E.R_STACKED] = n, start, finish, 1
    rules[E.R_COUNT] = count
    par = np.full((n, max(len(s) for s in scripts) + 1), -99.0)
    for s, moves in enumerate(scripts):
        par[s, :len(moves)] = moves
    pol = np.full(n, E.P_SCRIPT, dtype=np.int64)
    table = E.tail_table(np.array(STANDARD, dtype=np.int64), start, finish, n)
    out = np.zeros(E.ROW.width(n), dtype=np.int64)
    buf = np.zeros((200, E.TRACE_FIXED + deck.shape[0]), dtype=np.int64)
    written = E.play_game(np.uint64(1), 0, rules, deck, pol, par, table, *A.scalar_only(n), out, buf, np.int64(1))
    return [decode(r, n) for r in buf[:written]], out


def test_hand_built_decisions_are_counted_exactly():
    """2 players, 2 cards each (80 cards, 4 in play: bids up to 4 Drums, key 19, could hold); one round.
    Seat 0 holds Vocals, Vocals; seat 1 Drums, Drums. Each seat sees 2 hidden cards among the 78 it cannot see."""
    p2 = hypergeom(78, 24, 2).sf(1)  # 2 of the 2 hidden cards among 24 (Guitar + Groupies): 0.092
    assert 0.08 < p2 < E.CHOICE_MARGIN
    scripts = [
        # opens 2 Guitar: 16 options (1 Vocals .. 4 Drums); its likeliest, 1 and 2 Vocals, are both certain: not
        # real. Then faces 2 Drums: challenging wins 1 - P(2 Drums) = 0.92 against 0.52 for its likeliest raise
        # (3 Vocals: 1 of 2 hidden cards): real; raises 4 Guitar (8 options: 3 Vocals .. 4 Drums; 3 Vocals 0.52,
        # then 4 Vocals 0.09: real). Last, faces 4 Drums: no bid that could hold is left: a forced challenge.
        [bid(2, G), bid(4, G), CHALLENGE],
        # faces 2 Guitar: challenging wins 1 - p2 = 0.91, raising to 2 Drums (its own cards) is certain: 0.09
        # apart, not real; raises 2 Drums (9 options: 2 Drums .. 4 Drums; 2 Drums certain, 3 Drums 0.47: real).
        # Faces 4 Guitar: it cannot hold (challenging wins surely), 4 Drums holds with 0.07: real; raises 4 Drums,
        # the one bid left: forced.
        [bid(2, D), bid(4, D)],
    ]
    deck = stacked_deck([V, V, D, D])
    events, out = play_counted(deck, scripts, 2, 3, 1)
    assert [(e["seat"], e["count"], e["instrument"]) for e in events if e["type"] == "bid"] == [
        (0, 2, "Guitar"), (1, 2, "Drums"), (0, 4, "Guitar"), (1, 4, "Drums")]
    assert [e for e in events if e["type"] == "challenge"][0]["challenger"] == 0
    assert choice_counts(out, 2) == {
        "ch_bid_": (4, 16 + 9 + 8 + 1, 1, 2),
        "ch_challenge_": (4, 2 + 2 + 2 + 1, 1, 2),
    }
    # counting off: the same game, the columns 0
    events_off, out_off = play_counted(deck, scripts, 2, 3, 0)
    assert events_off == events
    assert choice_counts(out_off, 2) == {p: (0, 0, 0, 0) for p in KINDS}
    k = len(GAME.columns(2)) - 8
    assert list(out_off[:k]) == list(out[:k])


def _rows(raw, count, games, seed=5):
    sc = from_dict({"game": "noize", "games": games, "seed": seed, **raw})
    arm = sc.arms[0]
    rules = dict(arm.rules, count_choices=True) if count else arm.rules
    out = np.zeros((games, len(GAME.columns(sc.players))), dtype=np.int64)
    GAME.run_batch(GAME.encode(rules, arm.seats), seed, 0, out)
    return out


MIXES = [
    pytest.param({"players": 2, "seats": {"0": {"policy": "threshold", "bluff": 0.3}, "1": {"policy": "random"}}},
                 400, id="2p-threshold-random"),
    pytest.param({"players": 5, "all_seats": {"policy": "threshold"}}, 300, id="5p-threshold"),
    pytest.param({"players": 5, "rules": {"shuffle_each_round": True},
                  "seats": {"0": {"policy": "random", "avoid": "drums"}, "1": {"policy": "threshold", "bluff": 0.0},
                            "2": {"policy": "threshold", "avoid": "vocals"}, "3": {"policy": "threshold"},
                            "4": {"policy": "random"}}}, 300, id="5p-mixed-avoid"),
    pytest.param({"players": 2, "seats": {"0": {"policy": "lookahead", "samples": 2}, "1": {"policy": "threshold"}}},
                 40, id="2p-lookahead"),
]


@pytest.mark.parametrize("raw,games", MIXES)
def test_counting_plays_the_same_games_and_its_counts_are_consistent(raw, games):
    on, off = _rows(raw, True, games), _rows(raw, False, games)
    n = raw["players"]
    cols = GAME.columns(n)
    k = len(cols) - 8
    assert cols[k:] == [p + c for p in KINDS for c in ("n", "options", "forced", "real")]
    assert (on[:, :k] == off[:, :k]).all()
    assert (off[:, k:] == 0).all()
    c = {name: on[:, cols.index(name)] for name in cols[k:] + ["bids"]}
    # one "which bid" decision per bid, and each bid is answered by one raise-or-challenge decision
    assert (c["ch_bid_n"] == c["bids"]).all() and (c["ch_challenge_n"] == c["bids"]).all()
    for p in KINDS:
        assert (c[p + "forced"] <= c[p + "n"]).all()
        assert (c[p + "real"] <= c[p + "n"] - c[p + "forced"]).all()
        assert (c[p + "options"] >= c[p + "n"]).all()
    assert (c["ch_challenge_options"] <= 2 * c["ch_challenge_n"]).all()
    assert c["ch_bid_real"].sum() > 0 and c["ch_challenge_real"].sum() > 0


# --- restricted play ---------------------------------------------------------------------------------------------

def test_card_kinds_are_the_instruments_and_every_policy_can_avoid_one():
    assert GAME.card_kinds == ("vocals", "keyboard", "guitar", "drums")
    for pol in GAME.policies:
        p = pol.param(AVOID)
        assert p is not None and p.default == "none" and p.choices == ("none",) + GAME.card_kinds
        assert pol.params[-1] is p  # last: encode puts it in engine.P_AVOID whatever the policy


def _decide(cur, hand_types, policy, avoid, seed=1, bluff=0.0, max_raise=8):
    """engine.decide for seat 0 of 4 (three hands of 3 cards hidden from it)."""
    cnt, hand, pol, par = setup(hand_types, policy, bluff=bluff)
    if policy != E.P_THRESHOLD:  # (the random policy reads its own parameter alone)
        par[0, :4] = 0.0
        par[0, E.RANDOM_MAX_RAISE] = max_raise
    par[0, E.P_AVOID] = 0 if avoid is None else 1 + avoid
    table = E.tail_table(np.array(STANDARD, dtype=np.int64), 3, 8, 4)
    return E.decide(0, cur, pol, par, cnt, hand, 3, 9, table, 12, new_streams(seed, 0, 5))


def test_a_seat_told_to_avoid_its_best_instrument_bids_the_next_best():
    # Guitar, Guitar, Groupie: threshold opens 3 Guitar (certain); avoiding Guitar, 1 Vocals, 1 Keyboard and
    # 1 Drums are certain (the Groupie), and it bids the highest of them
    assert _decide(-1, [G, G, X], E.P_THRESHOLD, None) == (bid(3, G), E.BID_PLAIN)
    assert _decide(-1, [G, G, X], E.P_THRESHOLD, G) == (bid(1, D), E.BID_PLAIN)
    assert _decide(-1, [G, G, X], E.P_THRESHOLD, D) == (bid(3, G), E.BID_PLAIN)  # avoids what it would not bid
    # facing 1 Guitar with Drums x3: it raises to 3 Drums (certain); avoiding Drums, to the likeliest of 2 Vocals,
    # 2 Keyboard and 2 Guitar: Vocals, the most cards that count (20 + 6 Groupies)
    assert _decide(bid(1, G), [D, D, D], E.P_THRESHOLD, None) == (bid(3, D), E.BID_PLAIN)
    assert _decide(bid(1, G), [D, D, D], E.P_THRESHOLD, D) == (bid(2, V), E.BID_PLAIN)


def test_bluffs_never_bid_the_avoided_instrument():
    # with bluff 1 every raise is a bluff: jumps keep the plain bid's instrument, and the instrument held fewest
    # of (ties: the stronger) is Drums unless avoided, then Keyboard
    seen = set()
    for seed in range(40):
        key, kind = _decide(-1, [G, G, X], E.P_THRESHOLD, D, seed=seed, bluff=1.0)
        seen.add((kind, key % 4))
    assert seen == {(E.BID_JUMP_BLUFF, G), (E.BID_WEAK_BLUFF, K)}


def test_random_draws_from_the_next_bids_not_on_the_avoided_instrument():
    # standing bid 1 Vocals, max_raise 3: challenge, 1 Keyboard, 1 Guitar, 1 Drums; avoiding Keyboard, the next
    # three bids not on it are 1 Guitar, 1 Drums, 2 Vocals
    moves = {_decide(bid(1, V), [V, K, G], E.P_RANDOM, None, seed=s, max_raise=3)[0] for s in range(60)}
    assert moves == {CHALLENGE, bid(1, K), bid(1, G), bid(1, D)}
    moves = {_decide(bid(1, V), [V, K, G], E.P_RANDOM, K, seed=s, max_raise=3)[0] for s in range(60)}
    assert moves == {CHALLENGE, bid(1, G), bid(1, D), bid(2, V)}


AVOIDING = [
    pytest.param(4, {"0": {"policy": "threshold", "avoid": "guitar"}, "1": {"policy": "random", "avoid": "drums"},
                     "2": {"policy": "threshold", "bluff": 0.5, "avoid": "vocals"}, "3": {"policy": "random"}},
                 200, id="threshold-random"),
    pytest.param(2, {"0": {"policy": "lookahead", "samples": 2, "avoid": "drums"}, "1": {"policy": "threshold"}},
                 30, id="lookahead"),
    pytest.param(2, {"0": {"policy": "threshold"}, "1": {"policy": "search", "budget": 16, "avoid": "keyboard"}},
                 15, id="search"),
]


@pytest.mark.parametrize("players,seats,games", AVOIDING)
def test_a_seat_never_bids_the_instrument_it_avoids(players, seats, games):
    """Every position offers a move on another instrument (a challenge, or a bid on another instrument at a
    higher count), so a seat told to avoid one never bids it; the other seats still do."""
    sc = from_dict({"game": "noize", "games": games, "seed": 9, "players": players, "seats": seats})
    encoded = sc.arms[0].encoded(GAME)
    avoid = {int(s): INSTRUMENTS[GAME.card_kinds.index(v["avoid"])] for s, v in seats.items() if "avoid" in v}
    bids = {s: set() for s in range(players)}
    for i in range(games):
        events, _ = play_traced(encoded, sc.seed, i)
        for e in events:
            if e["type"] == "bid":
                bids[e["seat"]].add(e["instrument"])
    for s in range(players):
        if s in avoid:
            assert avoid[s] not in bids[s] and len(bids[s]) == 3
        else:
            assert bids[s] == set(INSTRUMENTS)


def test_avoid_none_encodes_as_before():
    raw = {"game": "noize", "games": 1, "seed": 1, "players": 4,
           "seats": {"0": {"policy": "threshold"}, "1": {"policy": "random"}, "2": {"policy": "lookahead"},
                     "3": {"policy": "search"}}}
    plain = from_dict(raw).arms[0].encoded(GAME)
    raw["seats"] = {s: dict(v, avoid="none") for s, v in raw["seats"].items()}
    explicit = from_dict(raw).arms[0].encoded(GAME)
    for a, b in zip(plain, explicit):
        assert np.array_equal(a, b)
    assert (plain[3][:, E.P_AVOID] == 0).all()
    assert (plain[6][[0, 2, 3]] >= 0).all()  # the threshold seat and the search seats keep the table
    # a threshold seat that avoids an instrument decides in play (the table's moves are unrestricted)
    raw["seats"]["0"]["avoid"] = "drums"
    encoded = from_dict(raw).arms[0].encoded(GAME)
    assert encoded[3][0, E.P_AVOID] == 1 + D and encoded[6][0] == -1


@pytest.mark.parametrize("kind", ["vocals", "keyboard", "guitar", "drums"])
def test_deck_without_an_instrument(kind):
    rules = from_dict({"game": "noize", "games": 1, "seed": 1, "players": 4}).rules
    out = GAME.deck_without(rules, kind, 4)
    assert out[kind] == 0 and {k: v for k, v in out.items() if k != kind} == {k: v for k, v in rules.items()
                                                                             if k != kind}
    seats = from_dict({"game": "noize", "games": 1, "seed": 1, "players": 4}).arms[0].seats
    deck = GAME.encode(out, seats)[1]
    t = DECK_KEYS.index(kind)
    assert list(np.bincount(deck, minlength=5)) == [0 if i == t else STANDARD[i] for i in range(5)]
    assert rules[kind] == STANDARD[t]  # the rules given are unchanged


def test_deck_without_is_none_when_the_rest_cannot_fill_the_hands():
    # 4 players up to 7 cards each need 28 cards: without the 20 Vocals only 15 are left, without Keyboard 30
    rules = from_dict({"game": "noize", "games": 1, "seed": 1, "players": 4,
                       "rules": {"keyboard": 5, "guitar": 0, "drums": 0, "groupies": 10}}).rules
    assert GAME.deck_without(rules, "vocals", 4) is None
    assert GAME.deck_without(rules, "keyboard", 4)["keyboard"] == 0
