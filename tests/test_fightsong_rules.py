"""Fight Song rules pinned on hand-built games: small deck files, stacked stacks, scripted moves.

Seats: 0..n-1 clockwise; the last seat deals, so seat 0 starts hand 1. With 4 players seats 0+2 are
team "0+2" and seats 1+3 team "1+3". A scripted seat plays (kind, corner) moves; when its script runs
out it plays greedily, so a test scripts only what it checks."""
import pytest

from analyzer.games.fightsong import rules as R
from fightsong_helpers import Table, interleave, of_type

ALL_BAND = (["Band/Woodwind", "Band/Brass", "Band/Percussion", "Band/Woodwind"], "Band")  # only Band cards score
CHEER_FS = (["Cheer/Flyer", "Cheer/Base", "Cheer/Spotter", "Cheer/Flyer"], "Fans")  # Cheer 2-3, Fans 1 (bonus)
F = "Fans/Students"  # a filler that scores nothing on ALL_BAND
BW, BB, BP = "Band/Woodwind", "Band/Brass", "Band/Percussion"
CF, CB, CS = "Cheer/Flyer", "Cheer/Base", "Cheer/Spotter"


# --- scoring ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, corner, bonus, how", [
    ("Band/Brass", "Band/Brass", -1, R.HOW_BOTH),            # outer and inner: 3
    ("Band/Woodwind", "Band/Brass", -1, R.HOW_OUTER),        # outer only: 2
    ("Band/Brass", "Cheer/Brass", -1, R.HOW_INNER),          # inner only (another division's corner): 1
    ("Band/Woodwind", "Fans/Flyer", 0, R.HOW_BONUS),         # Bonus Corner color Band: 1
    ("Cheer/Spotter", "Fans/Flyer", 0, R.HOW_NONE),          # nothing: 0
    ("Band/Woodwind", "Fans/Woodwind", 0, R.HOW_INNER),      # inner and bonus: 1, not 2 (never stacks)
    ("Band/Brass", "Band/Flyer", 0, R.HOW_OUTER),            # outer and bonus: 2, not 3
    ("Band/Brass", "Band/Brass", 0, R.HOW_BOTH),            # both and bonus: still 3
])
def test_score_levels_and_the_bonus_never_stacks(kind, corner, bonus, how):
    k = R.SUBDIVISIONS.index(kind.split("/")[1])
    outer, inner = R._parse_color_pair(corner)
    assert R.how_scores(k, outer, inner, bonus) == how
    assert R.score_of(how) == (1 if how == R.HOW_BONUS else how)


SCORING = (["Band/Brass", "Cheer/Brass", "Fans/Woodwind", "Fans/Flyer"], "Band")
NO_STACK = (["Cheer/Base", "Cheer/Base", "Cheer/Base", "Fans/Woodwind"], "Band")


def test_each_score_level_in_play_and_recorded(tmp_path):
    t = Table(tmp_path, 4, [SCORING, NO_STACK], [CHEER_FS], hand_size=2, refill_at=0, refill_cards=1,
              fs_step=100, target=7)
    hands = [[BB, CB], [CS, BW], [BW, BB], [BP, CF]]
    scripts = [[(BB, 0), (CB, 2)],        # hand 1: 3 (both); hand 2: Cheer/Base on Cheer/Base 3
               [(CS, 1), (BW, 3)],        # 2 (outer Cheer); hand 2: Band/Woodwind on Fans/Woodwind + bonus Band: 1
               [(BW, 2), (BB, 0)],        # 1 (inner Woodwind); hand 2: Band/Brass on Cheer/Base: 0
               [(BP, 3), (CF, 1)]]        # 1 (bonus Band on Fans/Flyer); hand 2: Cheer/Flyer on Cheer/Base: 2
    ev, out = t.play(interleave(hands), scripts)
    plays = of_type(ev, "play")
    assert [(p["seat"], p["score"], p["match"]) for p in plays] == [
        (0, 3, "outer and inner colors"), (1, 2, "outer color"), (2, 1, "inner color"), (3, 1, "Bonus Corner color"),
        (1, 1, "inner color"), (2, 0, "no match"), (3, 2, "outer color"), (0, 3, "outer and inner colors")]
    rec = of_type(ev, "record")
    assert rec[0]["hand_points"] == {"0+2": 4, "1+3": 3} and rec[1]["round_points"] == {"0+2": 7, "1+3": 6}
    assert (out["plays_3"], out["plays_2"], out["plays_1_inner"], out["plays_1_bonus"], out["plays_0"]) == (2, 2, 2, 1, 1)
    assert out["points"] == 13 and out["plays"] == 8
    assert out["win_0"] == out["win_2"] == 1 and out["win_1"] == out["win_3"] == 0 and out["n_winners"] == 2
    assert out["end"] == 0 and out["length"] == 2
    assert (out["seat_points_0"], out["seat_points_1"], out["seat_points_2"], out["seat_points_3"]) == (6, 3, 1, 3)
    assert out["score_0"] == out["score_2"] == out["team_score_0"] == 7 and out["score_1"] == out["team_score_1"] == 6


@pytest.mark.parametrize("policy", ["greedy", "team", "blocker", "random"])
def test_a_taken_corner_is_not_playable(tmp_path, policy):
    """Seat 0 takes the upper-left corner; seat 1 holds only cards worth 3 there and must go elsewhere."""
    t = Table(tmp_path, 4, [SCORING], [CHEER_FS], hand_size=2, refill_at=0, refill_cards=1, fs_step=100, target=1)
    hands = [[BB, BB], [BB, BB], [F, F], [F, F]]
    ev, _ = t.play(interleave(hands), [[(BB, 0)], None, None, None], policies=["greedy", policy, policy, policy])
    plays = of_type(ev, "play")[:4]
    assert plays[0]["corner"] == 0 and plays[0]["score"] == 3
    corners = [p["corner"] for p in plays]
    assert sorted(corners) == [0, 1, 2, 3], "each corner takes one card per hand"
    if policy == "greedy":
        assert plays[1]["score"] == 1  # the best left: inner Brass (upper-right) or the Bonus Corner


# --- turn order, refills -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_starting_player_moves_each_hand(tmp_path, players):
    t = Table(tmp_path, players, [SCORING, NO_STACK, ALL_BAND], [CHEER_FS], target=200, fs_step=100, max_hands=12)
    ev, out = t.play([])
    hands = of_type(ev, "hand")
    assert [h["starter"] for h in hands] == [i % players for i in range(12)]
    assert out["end"] == 4 and out["n_winners"] == 0  # the hand cap: a stall, no winner
    starts = [i for i, e in enumerate(ev) if e["type"] == "hand"]
    for i, h in zip(starts, hands):
        seats = [e["seat"] for e in ev[i + 1:] if e["type"] == "play"][:4 if players == 2 else players]
        s = h["starter"]
        if players == 2:  # alternately, one card at a time, two each
            assert seats == [s, 1 - s, s, 1 - s]
        else:
            assert seats == [(s + j) % players for j in range(players)]


@pytest.mark.parametrize("players, refill_after", [(4, 6), (3, 6), (2, 3)])
def test_refill_when_hands_hold_two_cards(tmp_path, players, refill_after):
    t = Table(tmp_path, players, [SCORING, NO_STACK], [CHEER_FS], target=300, fs_step=100, max_hands=20)
    ev, out = t.play([])
    deals = [e for e in ev if e["type"] in ("deal", "hand")]
    hand_no = 0
    refills = []
    for e in deals:
        if e["type"] == "hand":
            hand_no = e["hand"]
        elif e["reason"] == "refill":
            refills.append((hand_no, e["seat"], len(e["cards"]), e["hand_size"]))
    per_refill = refill_after + (8 - 2) // (2 if players == 2 else 1)  # the next refill comes as many hands later
    assert refills[:players] == [(refill_after, s, 6, 8) for s in range(players)]
    assert refills[players][0] == per_refill
    assert out["refills"] == len(refills) // players


# --- Fight Song rounds (4 players, fs_step 3: a team that scores 3 in a hand earns an opportunity) ----
def fs_table(tmp_path, players=4, **rules):
    return Table(tmp_path, players, [ALL_BAND], [(CHEER_FS[0], "Fans")] * 3, copies=20, **{"hand_size": 3, "fs_step": 3, **rules})


def hand1_team_a_scores_3():
    """Hand 1: seat 0 plays Band/Woodwind on the Band/Woodwind corner (3); the others score nothing."""
    return [[BW, F, F], [F, F, F], [F, F, F], [F, F, F]], [[(BW, 0)], [(F, 1)], [(F, 2)], [(F, 3)]]


def test_fight_song_round_won_by_the_initiator_and_the_target_reached_by_an_extra_point(tmp_path):
    t = fs_table(tmp_path, target=4)
    hands, scripts = hand1_team_a_scores_3()
    fs_hands = [[CF, CS, F], [BB, CB, F], [CS, BB, F], [F, CB, F]]
    for s, m in enumerate([[(CF, 0)], [(BB, 1)], [(CS, 2)], [("Fans/Alumni", 3)]]):
        scripts[s] += m
    fs_hands[3][0] = "Fans/Alumni"
    ev, out = t.play(interleave(hands) + interleave(fs_hands), scripts)
    rnd = of_type(ev, "fight_song_round")[0]
    assert rnd["initiators"] == ["0+2"] and rnd["starter"] == 0 and rnd["players"] == [0, 1, 2, 3]
    fs_deals = [e for e in ev if e["type"] == "deal" and e["hand"] == "fight_song"]
    assert [len(d["cards"]) for d in fs_deals] == [3, 3, 3, 3]
    sc = of_type(ev, "fight_song_score")
    assert len(sc) == 1 and sc[0]["scores"] == {"0+2": 6, "1+3": 1} and sc[0]["outcome"] == "won"
    end = of_type(ev, "end")[0]
    assert end["totals"] == {"0+2": 4, "1+3": 0} and end["condition"] == "alone"
    assert out["won_on_extra"] == 1 and out["team_extra_0"] == 1 and out["fs_won"] == 1 and out["length"] == 1
    assert out["win_0"] == out["win_2"] == 1 and out["n_winners"] == 2


def test_fight_song_round_lost_gives_no_point(tmp_path):
    t = fs_table(tmp_path, target=4)
    hands, scripts = hand1_team_a_scores_3()
    fs_hands = [[BB, F, F], [CF, F, F], [BB, F, F], [CB, F, F]]
    for s, m in enumerate([[(BB, 1)], [(CF, 0)], [(BB, 2)], [(CB, 3)]]):
        scripts[s] += m
    ev, out = t.play(interleave(hands) + interleave(fs_hands), scripts)
    sc = of_type(ev, "fight_song_score")[0]
    assert sc["scores"] == {"0+2": 0, "1+3": 5} and sc["outcome"] == "lost" and sc["top"] == "1+3"
    fs_end = of_type(ev, "fight_song_end")[0]
    assert fs_end["outcome"] == "lost" and fs_end["extra_points"] == {"0+2": 0, "1+3": 0}
    assert out["fs_lost"] >= 1 and of_type(ev, "record")[0]["round_points"] == {"0+2": 3, "1+3": 0}


def tie_plays():
    """A Fight Song hand where each team scores 3: seat 0 and seat 1 each play Cheer/Flyer for 3."""
    return [[(CF, 0)], [(CF, 3)], [(BB, 1)], [(BB, 2)]], [[CF], [CF], [BB], [BB]]


def test_fight_song_round_tied_twice_then_decided(tmp_path):
    t = fs_table(tmp_path, target=4)
    hands, scripts = hand1_team_a_scores_3()
    tie, tie_cards = tie_plays()
    fs_hands = [[CF, CF, F], [CF, CF, F], [BB, BB, F], [BB, BB, F]]
    extra1 = [CS, CB, BB, BB]  # the extra card each before hand 2 (hand 2 ties with the cards already held)
    extra2 = [CS, F, BB, BB]   # before hand 3: seat 0 wins with Cheer/Spotter
    for s in range(4):
        scripts[s] += tie[s] + tie[s]
    scripts[0] += [(CS, 2)]
    scripts[1] += [(F, 0)]
    scripts[2] += [(BB, 1)]
    scripts[3] += [(BB, 3)]
    ev, out = t.play(interleave(hands) + interleave(fs_hands) + extra1 + extra2, scripts)
    sc = of_type(ev, "fight_song_score")
    assert [s["outcome"] for s in sc] == ["tie", "tie", "won"] and sc[2]["top"] == "0+2"
    assert [s["scores"] for s in sc][:2] == [{"0+2": 3, "1+3": 3}] * 2
    fs_cards = [e["card"] for e in of_type(ev, "fight_song_hand")]
    assert fs_cards == ["F1", "F2", "F3"], "a new Fight Song card for every Fight Song hand"
    extras = [e for e in ev if e["type"] == "deal" and e["reason"] == "fight_song_extra"]
    assert [len(e["cards"]) for e in extras] == [1] * 8 and [e["hand_size"] for e in extras] == [3] * 8
    assert out["fs_hands"] == 3 and out["fs_ties"] == 2 and out["fs_won"] == 1 and out["team_extra_0"] == 1
    # after the round: two unplayed cards each go under the Game Play stack, and hands of 2 are picked up
    unplayed = [e for e in ev if e["type"] == "return" and e["reason"] == "fight_song_unplayed"][0]
    assert len(unplayed["cards"]) == 8
    assert of_type(ev, "end")[0]["totals"] == {"0+2": 4, "1+3": 0}


def test_fight_song_round_tied_three_times_gives_no_point(tmp_path):
    t = fs_table(tmp_path, target=5)
    hands, scripts = hand1_team_a_scores_3()
    tie, _ = tie_plays()
    fs_hands = [[CF, CF, CF], [CF, CF, CF], [BB, BB, BB], [BB, BB, BB]]
    for s in range(4):
        scripts[s] += tie[s] * 3
    ev, out = t.play(interleave(hands) + interleave(fs_hands) + [F] * 8, scripts)
    sc = of_type(ev, "fight_song_score")
    assert [s["outcome"] for s in sc][:3] == ["tie", "tie", "no point"]
    fs_end = of_type(ev, "fight_song_end")[0]
    assert fs_end["hands"] == 3 and fs_end["point_to"] is None and fs_end["extra_points"] == {"0+2": 0, "1+3": 0}
    assert out["fs_no_point"] >= 1


def test_both_teams_eligible_the_player_left_of_the_dealer_starts(tmp_path):
    t = fs_table(tmp_path, target=4)
    hands = [[BW, F, F], [BB, F, F], [F, F, F], [F, F, F]]
    scripts = [[(BW, 0)], [(BB, 1)], [(F, 2)], [(F, 3)]]  # 3 each: both teams cross 3
    fs_hands = [[BB, F, F], [CF, F, F], [BB, F, F], [CB, F, F]]
    for s, m in enumerate([[(BB, 1)], [(CF, 0)], [(BB, 2)], [(CB, 3)]]):
        scripts[s] += m
    ev, out = t.play(interleave(hands) + interleave(fs_hands), scripts)
    rnd = of_type(ev, "fight_song_round")
    assert len(rnd) == 1 and rnd[0]["initiators"] == ["0+2", "1+3"] and rnd[0]["starter"] == 0
    assert [p["seat"] for p in of_type(ev, "play") if p["fight_song"]] == [0, 1, 2, 3]
    assert of_type(ev, "fight_song_score")[0]["outcome"] == "won"  # team 1+3 initiated too: it gains the point
    end = of_type(ev, "end")[0]
    assert end["totals"] == {"0+2": 3, "1+3": 4} and end["winners"] == [1, 3]
    assert out["fs_multi"] == 1 and out["fs_opportunities"] == 2 and out["fs_rounds"] == 1


def test_one_team_eligible_its_first_player_from_the_dealers_left_starts(tmp_path):
    t = fs_table(tmp_path, target=4)
    hands = [[F, F, F], [BB, F, F], [F, F, F], [F, F, F]]
    scripts = [[(F, 0)], [(BB, 1)], [(F, 2)], [(F, 3)]]
    ev, _ = t.play(interleave(hands), scripts)
    rnd = of_type(ev, "fight_song_round")[0]
    assert rnd["initiators"] == ["1+3"] and rnd["starter"] == 1
    assert [p["seat"] for p in of_type(ev, "play") if p["fight_song"]][:4] == [1, 2, 3, 0]


# --- 3 players -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("scorers, battle, players_in_round", [
    ([0], [2], [0, 2]),          # one eligible: seat 0 picks seat 2 to battle
    ([0], [1], [0, 1]),
    ([0, 1], [], [0, 1]),        # two eligible battle each other
    ([0, 1, 2], [], [0, 1, 2]),  # all three battle
])
def test_three_player_battle(tmp_path, scorers, battle, players_in_round):
    t = fs_table(tmp_path, players=3, target=100)
    cards = [BW, BB, BP]
    hands = [[cards[s] if s in scorers else F, F, F] for s in range(3)]
    scripts = [[(cards[s] if s in scorers else F, s)] for s in range(3)]
    if battle:
        scripts[0] += battle
    ev, out = t.play(interleave(hands), scripts)
    rnd = of_type(ev, "fight_song_round")[0]
    assert rnd["players"] == players_in_round and rnd["initiators"] == [str(s) for s in scorers]
    assert rnd["starter"] == scorers[0]
    b = of_type(ev, "battle")
    if battle:
        assert b[0]["seat"] == 0 and b[0]["opponent"] == battle[0]
    else:
        assert not b or ev.index(b[0]) > ev.index(rnd)
    fs_deals = [e["seat"] for e in ev if e["type"] == "deal" and e["reason"] == "fight_song"][:len(players_in_round)]
    assert fs_deals == players_in_round, "only the battling players are dealt Fight Song cards"
    fs_start = ev.index(rnd)
    fs_end = next(i for i, e in enumerate(ev) if e["type"] == "fight_song_end")
    assert {e["seat"] for e in ev[fs_start:fs_end] if e["type"] == "play"} == set(players_in_round)
    if len(scorers) == 1:  # only the initiator can gain the point
        sc = of_type(ev, "fight_song_score")[0]
        if sc["outcome"] == "won":
            assert sc["top"] == "0"


def test_three_players_target_is_21():
    assert R.default_target(3) == 21 and R.default_target(4) == 28 and R.default_target(2) == 28


# --- the end ---------------------------------------------------------------------------------------------
def test_two_teams_reach_the_target_in_the_same_hand_the_highest_wins(tmp_path):
    t = fs_table(tmp_path, target=3, fs_step=100)
    hands = [[BW, F, F], [BB, F, F], [BP, F, F], [F, F, F]]
    scripts = [[(BW, 0)], [(BB, 1)], [(BP, 2)], [(F, 3)]]  # team 0+2: 3 + 3, team 1+3: 3
    ev, out = t.play(interleave(hands), scripts)
    end = of_type(ev, "end")[0]
    assert end["condition"] == "highest" and end["totals"] == {"0+2": 6, "1+3": 3} and end["winners"] == [0, 2]
    assert out["end"] == 1 and out["margin"] == 3 and not of_type(ev, "fight_song_round")


def exact_tie_table(tmp_path):
    t = fs_table(tmp_path, target=3, fs_step=100)
    hands = [[BW, F, F], [BB, F, F], [F, F, F], [F, F, F]]
    scripts = [[(BW, 0)], [(BB, 1)], [(F, 2)], [(F, 3)]]  # 3 each: an exact tie at the target
    return t, hands, scripts


def test_an_exact_tie_at_the_target_is_settled_by_a_fight_song_round(tmp_path):
    t, hands, scripts = exact_tie_table(tmp_path)
    fs_hands = [[BB, F, F], [CF, F, F], [BB, F, F], [CB, F, F]]
    for s, m in enumerate([[(BB, 1)], [(CF, 0)], [(BB, 2)], [(CB, 3)]]):
        scripts[s] += m
    ev, out = t.play(interleave(hands) + interleave(fs_hands), scripts)
    rnd = of_type(ev, "fight_song_round")
    assert len(rnd) == 1 and rnd[0]["kind"] == "tiebreak" and rnd[0]["starter"] == 0
    end = of_type(ev, "end")[0]
    assert end["condition"] == "tiebreak" and end["winners"] == [1, 3] and end["totals"] == {"0+2": 3, "1+3": 4}
    assert out["end"] == 2 and out["tiebreak_rounds"] == 1 and out["fs_rounds"] == 0
    assert out["win_1"] == out["win_3"] == 1 and out["n_winners"] == 2


def test_an_exact_tie_still_tied_after_three_fight_song_hands_is_shared(tmp_path):
    t, hands, scripts = exact_tie_table(tmp_path)
    tie, _ = tie_plays()
    fs_hands = [[CF, CF, CF], [CF, CF, CF], [BB, BB, BB], [BB, BB, BB]]
    for s in range(4):
        scripts[s] += tie[s] * 3
    ev, out = t.play(interleave(hands) + interleave(fs_hands) + [F] * 8, scripts)
    end = of_type(ev, "end")[0]
    assert end["condition"] == "shared" and end["winners"] == [0, 1, 2, 3]
    assert out["end"] == 3 and out["n_winners"] == 4 and all(out[f"win_{s}"] == 1 for s in range(4))
    assert out["tiebreak_hands"] == 3 and out["margin"] == 0


def test_three_players_exact_tie_only_the_tied_players_battle(tmp_path):
    t = fs_table(tmp_path, players=3, target=3, fs_step=100)
    hands = [[BW, F, F], [F, F, F], [BP, F, F]]
    scripts = [[(BW, 0)], [(F, 1)], [(BP, 2)]]
    ev, out = t.play(interleave(hands), scripts)
    rnd = of_type(ev, "fight_song_round")[0]
    assert rnd["kind"] == "tiebreak" and rnd["players"] == [0, 2] and rnd["initiators"] == ["0", "2"]
    assert out["win_1"] == 0 and out["end"] in (2, 3)


@pytest.mark.parametrize("dealer, fs_starter, dealt_first", [("fixed", 0, 0), ("rotating", 1, 1)])
def test_dealer_setting_moves_the_player_left_of_the_dealer(tmp_path, dealer, fs_starter, dealt_first):
    """Hand 2 (seat 1 starts): both teams score 3. With the rulebook's fixed dealer (seat 3), the player
    left of the dealer, seat 0, starts the Fight Song round; with a rotating dealer, seat 0 deals hand
    2 and seat 1, its starter, is left of the dealer: she starts the round and is dealt to first."""
    t = fs_table(tmp_path, target=4, dealer=dealer, refill_at=0, refill_cards=1)
    hands = [[F, BB, F], [F, BW, F], [F, F, F], [F, F, F]]
    scripts = [[(F, 0), (BB, 1)], [(F, 1), (BW, 0)], [(F, 2), (F, 2)], [(F, 3), (F, 3)]]
    ev, _ = t.play(interleave(hands), scripts)
    assert [h["dealer"] for h in of_type(ev, "hand")][:2] == ([3, 3] if dealer == "fixed" else [3, 0])
    rnd = of_type(ev, "fight_song_round")[0]
    assert rnd["initiators"] == ["0+2", "1+3"] and rnd["starter"] == fs_starter
    fs_deals = [e["seat"] for e in ev if e["type"] == "deal" and e["reason"] == "fight_song"]
    assert fs_deals[0] == dealt_first
