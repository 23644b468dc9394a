"""Drama and card power (issue 12): lead changes, decided-at turn, comeback and final margin counted while a
game plays, and the opening-hand columns, pinned on hand-built games, on a reference recount from traces and
on the dealt hands of traced games."""
import numpy as np
import pytest

from analyzer.games import drama, get_game
from analyzer.games.base import CardPower, added_columns
from analyzer.scenario import from_dict


def traced_games(scenario):
    """(index, events, result row as a dict) of every game of a scenario (a dict), each played traced."""
    sc = from_dict(scenario)
    game = sc.game
    enc = sc.arms[0].encoded(game)
    cols = game.columns(scenario["players"])
    for index in range(sc.games):
        events, out = game.play_traced(enc, sc.seed, index)
        yield index, events, dict(zip(cols, out.tolist()))


def reference_drama(standings, winner, length, turns=None):
    """The definitions of analyzer/games/drama.py in plain Python: standings[t] = every unit's standing
    (higher is better) after turn t (t = 0: after the deal), or after turn turns[t] when given; winner: the
    winning unit or None."""
    leader, changes = None, 0
    last = {}
    deficit = {}
    for t, row in zip(turns if turns is not None else range(len(standings)), standings):
        top = max(row)
        for u, v in enumerate(row):
            if v < top:
                last[u] = t
                deficit[u] = max(deficit.get(u, 0), top - v)
        if row.count(top) == 1:
            now = row.index(top)
            if leader is not None and now != leader:
                changes += 1
            leader = now
    if winner is None:
        return changes, length, 0, 0
    decided = min(last[winner] + 1, length) if winner in last else 0
    final = standings[-1]
    margin = final[winner] - max(v for u, v in enumerate(final) if u != winner)
    return changes, decided, deficit.get(winner, 0), max(margin, 0)


def run_block(standings, winner, length):
    a = np.zeros(drama.D_SIZE + 3, dtype=np.int64)
    units = len(standings[0])
    for t, row in enumerate(standings):
        a[3 + drama.D_STAND:3 + drama.D_STAND + drama.D_UNIT * units:drama.D_UNIT] = row
        drama.look(a, 3, units, t)
    out = np.full(6, -7, dtype=np.int64)
    drama.finish(a, 3, units, -1 if winner is None else winner, length, out, 1)
    assert out[0] == -7 and out[5] == -7, "finish writes its four columns only"
    return tuple(int(x) for x in out[1:5])


@pytest.mark.parametrize("standings, winner, expected", [
    # a tie for the lead is no lead change; the lead coming back to the same unit through a tie is none either
    ([[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]], 0, (0, 0, 0, 1)),
    # A leads, a tie, then B: one change (the lead passed from A to B through the tie)
    ([[0, 0], [2, 0], [2, 2], [2, 3], [2, 5]], 1, (1, 2, 2, 3)),  # level after turn 2: decided at 2
    # lead swaps three times; the winner trailed last after turn 3: decided at 4
    ([[0, 0], [1, 0], [1, 2], [4, 2], [4, 5], [4, 6]], 1, (3, 4, 2, 2)),
    # no single winner: decided at the length, no comeback, no margin
    ([[0, 0], [1, 0], [1, 1]], None, (0, 2, 0, 0)),
    # a winner still level at the end (a tiebreak elsewhere): margin 0
    ([[0, 0], [0, 3], [3, 3]], 0, (0, 2, 3, 0)),
])
def test_drama_block_follows_its_definitions(standings, winner, expected):
    assert run_block(standings, winner, len(standings) - 1) == expected
    assert reference_drama(standings, winner, len(standings) - 1) == expected


def test_drama_block_against_the_reference_on_random_walks():
    rng = np.random.default_rng(5)
    for _ in range(300):
        units = int(rng.integers(2, 6))
        turns = int(rng.integers(1, 30))
        walk = np.cumsum(rng.integers(-2, 3, size=(turns + 1, units)), axis=0)
        walk[0] = 0
        standings = walk.tolist()
        final = standings[-1]
        top = max(final)
        winner = final.index(top) if final.count(top) == 1 else None
        assert run_block(standings, winner, turns) == reference_drama(standings, winner, turns)


def run_block_one_at_a_time(standings, winner, length):
    """run_block through look_one (turn 0 by look, then every turn's one changed unit) and settle."""
    a = np.zeros(drama.D_SIZE + 3, dtype=np.int64)
    units = len(standings[0])
    a[3 + drama.D_STAND:3 + drama.D_STAND + drama.D_UNIT * units:drama.D_UNIT] = standings[0]
    drama.look(a, 3, units, 0)
    for t in range(1, len(standings)):
        changed = [u for u in range(units) if standings[t][u] != standings[t - 1][u]]
        assert len(changed) <= 1
        u = changed[0] if changed else 0
        drama.look_one(a, 3, units, t, u, standings[t][u])
    drama.settle(a, 3, units, len(standings) - 1)
    out = np.full(6, -7, dtype=np.int64)
    drama.finish(a, 3, units, -1 if winner is None else winner, length, out, 1)
    return tuple(int(x) for x in out[1:5])


def test_look_one_gives_what_look_gives_on_one_change_per_turn():
    """The lazy look_one (The Distance's) against the plain look on random walks where one unit moves per
    turn (or none), small steps so that ties, joins and falls at the top are frequent; every possible winner."""
    rng = np.random.default_rng(11)
    for _ in range(400):
        units = int(rng.integers(2, 6))
        turns = int(rng.integers(1, 40))
        rows = [[0] * units]
        for _ in range(turns):
            row = list(rows[-1])
            if rng.random() < 0.8:
                row[int(rng.integers(units))] += int(rng.integers(-2, 3))
            rows.append(row)
        for winner in [None] + list(range(units)):
            assert run_block_one_at_a_time(rows, winner, turns) == run_block(rows, winner, turns)



def test_noize_drama_lanes_give_what_look_gives():
    """Bring the Noize keeps its drama in packed lanes (noize/drama_lanes.py): against the plain look on random
    games where each round gives one seat a card, 2 to 7 seats, up to the longest game the settings allow (7 seats
    from 1 card to 60: 7 x 58 + 1 rounds) and every possible winner."""
    from analyzer.games.noize import drama_lanes

    rng = np.random.default_rng(5)
    for case in range(300):
        units = int(rng.integers(2, 8))
        start = int(rng.integers(1, 6))
        finish = 60 if case < 5 else start + int(rng.integers(1, 12))
        hand = [start] * units
        rows = [[-h for h in hand]]
        state = drama_lanes.deal(units, start)
        # long games: the loser drawn among the seats that can still lose without ending the game first
        while True:
            if case < 5:
                open_seats = [u for u in range(units) if hand[u] < finish - 1] or list(range(units))
                loser = int(rng.choice(open_seats))
            else:
                loser = int(rng.integers(units))
            hand[loser] += 1
            rows.append([-h for h in hand])
            state = drama_lanes.lost(state, loser, len(rows) - 1)
            if hand[loser] >= finish:
                break
        if case < 5:
            assert len(rows) - 1 == units * (finish - 1 - start) + 1
        turns = len(rows) - 1
        for winner in [None] + list(range(units)):
            a = np.zeros(drama.D_SIZE + 3, dtype=np.int64)
            drama_lanes.write(state, a, 3, units)
            out = np.full(6, -7, dtype=np.int64)
            drama.finish(a, 3, units, -1 if winner is None else winner, turns, out, 1)
            assert tuple(int(x) for x in out[1:5]) == run_block(rows, winner, turns), (case, winner)


# --- The Distance ------------------------------------------------------------------------------------------
def test_distance_hand_built_game_lead_change_and_decided_at():
    """Seconds, start card F. Turn 1: seat 0 plays its G (2 cards to 3: seat 0 leads, seat 1 trails by 1).
    Turn 2: seat 1 plays both its A's (1 card to 2: the lead passes to seat 1, a lead change). Turn 3: seat 0
    needs B, draws C, D, E and passes (5 cards). Turn 4: seat 1 plays its B and wins: it trailed last after
    turn 1, so the game was decided at turn 2; comeback 1 card, final margin 5 cards."""
    from test_distance_rules import game

    events, row = game([["G", "A", "E"], ["A", "A", "B"]], "F", ["C", "D", "E"])
    assert [e["type"] for e in events if e["type"] in ("play", "pass")] == ["play", "play", "pass", "play"]
    assert row["win_1"] == 1 and row["length"] == 4
    assert (row["lead_changes"], row["decided_at"], row["comeback"], row["final_margin"]) == (1, 2, 1, 5)
    assert row["open_wild0_0"] == row["open_wild0_1"] == 1 and row["open_wild1_0"] == row["open_wild2_1"] == 0


def test_distance_hand_built_tie_for_the_lead_is_no_lead_change():
    """3 players, seconds, start card F. Cards in hand after turns 0 (the deal) .. 5: 3-3-3; 2-3-3 (seat 0 plays
    G and leads); 2-2-3 (seat 1 plays A: a tie for the lead, no change); 2-2-1 (seat 2 plays both its B's: the
    lead passes from seat 0 to seat 2, change 1); 1-2-1 (seat 0 plays C: a tie, no change); 1-0-1 (seat 1 plays
    both its D's and wins: the lead passes from seat 2, change 2). Seat 1 trailed after turn 4, so the game
    was decided only at its last turn, 5; it came back from 1 card behind and wins by 1."""
    from test_distance_rules import game

    events, row = game([["G", "C", "E"], ["A", "D", "D"], ["B", "B", "F"]], "F", ["E", "E", "E"])
    plays = [(e["seat"], len(e["cards"])) for e in events if e["type"] == "play"]
    assert plays == [(0, 1), (1, 1), (2, 2), (0, 1), (1, 2)]
    assert row["win_1"] == 1 and row["length"] == 5
    assert (row["lead_changes"], row["decided_at"], row["comeback"], row["final_margin"]) == (2, 5, 1, 1)


def distance_standings(events, players):
    """Hand sizes after the deal and after every turn, recounted from a trace's deal, play and draw events
    (a misplay keeps the cards: only its penalty draws count)."""
    size = [0] * players
    rows = []
    for e in events:
        t = e["type"]
        if t == "deal":
            size[e["seat"]] = len(e["cards"])
        elif t == "turn":
            rows.append([-x for x in size])
        elif t == "play":
            size[e["seat"]] -= len(e["cards"])
        elif t == "draw":
            size[e["seat"]] += 1
        elif t == "end":
            rows.append([-x for x in size])
    return rows  # rows[t]: after turn t (the row added at turn t + 1's start, or at the end)


@pytest.mark.parametrize("players, rules", [(2, {}), (4, {}), (3, {"misplay_rate": 0.2, "forget_call_rate": 0.5}),
                                            (5, {"interval": "random"})])
def test_distance_drama_matches_a_recount_from_the_trace(players, rules):
    for index, events, row in traced_games({"game": "distance", "players": players, "games": 60, "seed": 9,
                                            "rules": rules, "all_seats": {"policy": "conserve"},
                                            "seats": {"1": {"policy": "random"}}}):
        standings = distance_standings(events, players)
        assert len(standings) == row["length"] + 1
        winner = next((s for s in range(players) if row[f"win_{s}"]), None)
        got = (row["lead_changes"], row["decided_at"], row["comeback"], row["final_margin"])
        assert got == reference_drama(standings, winner, row["length"]), index


# --- Fight Song ------------------------------------------------------------------------------------------------
def test_fightsong_hand_built_game_lead_change_and_comeback(tmp_path):
    """4 players, target 5. Hand 1: only seat 1 scores (3): team 1+3 leads 3-0. Hand 2 (seat 1 starts): seats 2
    and 0 score 3 each: team 0+2 leads 6-3 and has reached the target. The lead changed once, the winners
    trailed after hand 1 only (decided at hand 2), by 3 (comeback), and win by 3."""
    from fightsong_helpers import interleave, of_type
    from test_fightsong_rules import BB, BW, F, fs_table

    t = fs_table(tmp_path, target=5, fs_step=100)
    hands = [[F, BB, F], [BW, F, F], [F, BW, F], [F, F, F]]
    scripts = [[(F, 3), (BB, 1)], [(BW, 0), (F, 3)], [(F, 1), (BW, 0)], [(F, 2), (F, 2)]]
    ev, out = t.play(interleave(hands), scripts)
    rec = of_type(ev, "record")
    assert [r["round_points"] for r in rec] == [{"0+2": 0, "1+3": 3}, {"0+2": 6, "1+3": 3}]
    assert out["win_0"] == out["win_2"] == 1 and out["length"] == 2 and out["margin"] == 3
    assert (out["lead_changes"], out["decided_at"], out["comeback"], out["final_margin"]) == (1, 2, 3, 3)
    # 3-card hands hold at most 3 of a division
    assert all(out[f"open_div3_{s}"] == 1 and out[f"open_div4_{s}"] == out[f"open_div5_{s}"] == 0 for s in range(4))


def test_fightsong_tiebreak_winner_never_trailed(tmp_path):
    """An exact tie at the target (3-3, no lead), settled by a tiebreak round that gives team 1+3 an extra point:
    it takes the lead without a change (nobody led before), never trailed, and wins by 1."""
    from test_fightsong_rules import exact_tie_table, BB, CF, CB, F
    from fightsong_helpers import interleave

    t, hands, scripts = exact_tie_table(tmp_path)
    fs_hands = [[BB, F, F], [CF, F, F], [BB, F, F], [CB, F, F]]
    for s, m in enumerate([[(BB, 1)], [(CF, 0)], [(BB, 2)], [(CB, 3)]]):
        scripts[s] += m
    ev, out = t.play(interleave(hands) + interleave(fs_hands), scripts)
    assert out["end"] == 2 and out["win_1"] == 1
    assert (out["lead_changes"], out["decided_at"], out["comeback"], out["final_margin"]) == (0, 0, 0, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fightsong_final_margin_is_the_margin_of_a_single_winner(players):
    game = get_game("fightsong")
    sc = from_dict({"game": "fightsong", "players": players, "games": 1500, "seed": 4,
                    "all_seats": {"policy": "greedy"}, "seats": {"1": {"policy": "random"}}})
    cols = game.columns(players)
    out = np.zeros((1500, len(cols)), dtype=np.int64)
    game.run_batch(sc.arms[0].encoded(game), 4, 0, out)
    c = {name: out[:, i] for i, name in enumerate(cols)}
    single = c["n_winners"] == (2 if players == 4 else 1)
    assert np.array_equal(c["final_margin"][single], c["margin"][single])
    assert (c["final_margin"][~single] == 0).all() and np.array_equal(c["decided_at"][~single], c["length"][~single])
    assert (c["decided_at"] <= c["length"]).all() and (c["comeback"][c["decided_at"] == 0] == 0).all()


# --- card power against the dealt hands of traced games ---------------------------------------------------------
def one_category(game, players, row):
    """Per CardPower: the category index each seat got (exactly one 0/1 column is set per seat)."""
    got = []
    for decl in game.metrics:
        if isinstance(decl, CardPower):
            for s in range(players):
                flags = [row[f"{prefix}{s}"] for _, prefix in decl.categories]
                assert sorted(flags) == [0] * (len(flags) - 1) + [1], (decl.label, s, flags)
                got.append(flags.index(1))
    return got


@pytest.mark.parametrize("players", [2, 5])
def test_distance_card_power_counts_the_wilds_dealt(players):
    game = get_game("distance")
    for _, events, row in traced_games({"game": "distance", "players": players, "games": 50, "seed": 3,
                                        "all_seats": {"policy": "greedy"}}):
        dealt = {e["seat"]: e["cards"] for e in events if e["type"] == "deal"}
        wilds = [sum(c["name"].startswith(("?", "Chromatic")) for c in dealt[s]) for s in range(players)]
        assert one_category(game, players, row) == [min(w, 2) for w in wilds]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fightsong_card_power_reads_the_division_mix_dealt(players):
    game = get_game("fightsong")
    for _, events, row in traced_games({"game": "fightsong", "players": players, "games": 50, "seed": 3,
                                        "all_seats": {"policy": "greedy"}}):
        dealt = {e["seat"]: e["cards"] for e in events if e["type"] == "deal" and e["reason"] == "start"}
        tops = []
        for s in range(players):
            divisions = [c.split(" ")[1].split("/")[0] for c in dealt[s]]
            top = max(divisions.count(d) for d in ("Band", "Cheer", "Fans"))
            tops.append(0 if top <= 3 else 1 if top == 4 else 2)
        assert one_category(game, players, row) == tops


def test_added_columns_come_last_in_every_game():
    from analyzer.games import game_names

    for name in game_names():
        game = get_game(name)
        for players in (game.min_players, game.max_players):
            cols = game.columns(players)
            added = added_columns(game, players)
            assert cols[len(cols) - len(added):] == added


# --- Bring the Noize and Battle of the Bards: recounts from traces ------------------------------------------------
@pytest.mark.parametrize("players, rules", [(2, {}), (4, {}), (6, {"shuffle_each_round": True})])
def test_noize_drama_and_groupies_match_the_trace(players, rules):
    game = get_game("noize")
    for index, events, row in traced_games({"game": "noize", "players": players, "games": 80, "seed": 12,
                                            "rules": rules, "all_seats": {"policy": "threshold"},
                                            "seats": {"1": {"policy": "random"}}}):
        first = [e for e in events if e["type"] == "deal"][:players]
        groupies = {e["seat"]: e["cards"].count("Groupie") for e in first}
        assert one_category(game, players, row) == [min(groupies[s], 2) for s in range(players)]
        standings = [[-len(first[0]["cards"])] * players]
        standings += [[-h for h in e["hand_sizes"]] for e in events if e["type"] == "count"]
        assert len(standings) == row["length"] + 1
        winners = [s for s in range(players) if row[f"win_{s}"]]
        winner = winners[0] if len(winners) == 1 else None
        got = (row["lead_changes"], row["decided_at"], row["comeback"], row["final_margin"])
        assert got == reference_drama(standings, winner, row["length"]), index


@pytest.mark.parametrize("rules", [{}, {"deck": "extended", "copies": "double"}])
def test_bards_drama_and_card_power_match_the_trace(rules):
    from analyzer.games.bards.rules import DECKTET

    value = {name: v for name, _, v, _ in DECKTET}
    game = get_game("bards")
    for index, events, row in traced_games({"game": "bards", "players": 2, "games": 60, "seed": 8, "rules": rules,
                                            "all_seats": {"policy": "random"}, "seats": {"1": {"policy": "greedy"}}}):
        setup = next(e for e in events if e["type"] == "setup")
        best = [max(value[c.rstrip("'")] for c in setup[k]) for k in ("given", "own")]  # seat 0, seat 1
        excuse = [any(e["type"] == "place" and e["seat"] == s and e["card"].rstrip("'") == "Excuse" for e in events)
                  for s in range(2)]
        result = events[-1]
        tales = [int(result["had_bard"][s]) + 2 * int(excuse[s]) for s in range(2)]
        assert one_category(game, 2, row) == [0 if b >= 10 else 1 if b >= 7 else 2 for b in best] + tales
        # standings: 0-0 after the setup, the totals after every turn, then after the end's conclusions
        totals, turns, standings = [0, 0], [0], [[0, 0]]
        for e in events:
            if e["type"] == "conclude":
                totals = list(e["totals"])
            elif e["type"] == "turn" and e["turn"] > 1:
                turns.append(e["turn"] - 1)
                standings.append(list(totals))
            elif e["type"] == "end":
                turns.append(row["length"])
                standings.append(list(totals))
        turns.append(row["length"])
        standings.append(list(result["scores"]))
        winner = result["winners"][0] if len(result["winners"]) == 1 else None
        got = (row["lead_changes"], row["decided_at"], row["comeback"], row["final_margin"])
        assert got == reference_drama(standings, winner, row["length"], turns), index
        if winner is not None:
            assert row["final_margin"] == row["margin"]


# --- the report's card-power numbers against the per-game rows ----------------------------------------------------
@pytest.mark.parametrize("rotate", [False, True])
def test_card_power_report_numbers_equal_a_count_over_the_rows(rotate, tmp_path):
    """The report reads win rates by category from the exact cross products; with seat rotations (a deal's
    cards stay with the seat, the policies move) they must equal a plain count over every game's row."""
    import pandas as pd

    from analyzer.report.sections import card_power_rows
    from analyzer.runner import run

    raw = {"game": "distance", "players": 3, "games": 700, "seed": 21, "all_seats": {"policy": "greedy"},
           "seats": {"1": {"policy": "random"}}}
    if rotate:
        raw["rotate_seats"] = True
    result = run(from_dict(raw), progress=False, keep_games_dir=tmp_path)
    g = result.groups[0]
    rows = pd.read_parquet(tmp_path / "games.parquet")
    assert len(rows) == 700 * g.rotations
    (decl, overall, cats), = card_power_rows(get_game("distance"), g.summary, 3, g.rotations)
    assert overall == (sum(rows[f"win_{s}"].sum() for s in range(3)), 3 * len(rows))
    for (words, k, m, per_seat), (_, prefix) in zip(cats, decl.categories):
        for s in range(3):
            held = rows[f"{prefix}{s}"] == 1
            assert per_seat[s] == (rows.loc[held, f"win_{s}"].sum(), held.sum())
        assert (k, m) == (sum(x for x, _ in per_seat), sum(y for _, y in per_seat))
