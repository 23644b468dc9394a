"""analyzer/report/trajectory.py: the standings turn by turn read from traces. One short traced game per game
pinned (checked by hand against its events, quoted), the standings against the drama columns the kernel
counted from its own standings (tests/test_drama.py's reference), the bands, and the report figure."""
import numpy as np
import pytest
from test_drama import reference_drama, traced_games

from analyzer.report import trajectory as TJ
from analyzer.runner import run
from analyzer.scenario import from_dict


def standings_of(raw, index):
    sc = from_dict(raw)
    events, _ = sc.game.play_traced(sc.arms[0].encoded(sc.game), sc.seed, index)
    units, rows = TJ.standings_of_events(raw["game"], events, raw["players"])
    return units, rows.tolist()


def test_distance_hand_checked():
    """Hand size 3, 2 players, seed 3, game 16: seat 0 plays 2 cards (turn 1), seat 1 plays 1 (turn 2), seat 0
    plays her last card (turn 3; the end: cards left [0, 2]). No draw. Standings: minus the cards held."""
    raw = {"game": "distance", "players": 2, "games": 40, "seed": 3, "rules": {"hand_size": 3}}
    assert standings_of(raw, 16) == (["seat 0", "seat 1"], [[-3, -3], [-1, -3], [-1, -2], [0, -2]])


def test_fightsong_hand_checked():
    """Target 8, seed 3, game 0. Hand 1: round points 6 to 4, then a Fight Song round won by 0+2 (an extra
    point): 7-4. Hand 2: round points 10 to 8, the Fight Song round lost (no point): 11-8, the end's totals."""
    raw = {"game": "fightsong", "players": 4, "games": 40, "seed": 3, "rules": {"target": 8}}
    assert standings_of(raw, 0) == (["team 0+2", "team 1+3"], [[0, 0], [7, 4], [11, 8]])


def test_noize_hand_checked():
    """Start 2 cards, finish at 4, 3 players, seed 3, game 0: seat 1 loses round 1 (hand sizes [2, 3, 2]) and
    round 2 ([2, 4, 2]: the finish count). Standings: minus the cards held."""
    raw = {"game": "noize", "players": 3, "games": 40, "seed": 3, "rules": {"start_cards": 2, "finish_cards": 4}}
    assert standings_of(raw, 0) == (["seat 0", "seat 1", "seat 2"], [[-2, -2, -2], [-2, -3, -2], [-2, -4, -2]])


def test_bards_hand_checked():
    """Seed 3, game 0: the conclusions' totals at the end of turns 1-3 are [1, 2], [2, 2], [2, 6]; turn 4 ends
    the game at [7, 6] and the end's conclusions make it [8, 6] (the result's scores: the standing at turn 4)."""
    raw = {"game": "bards", "players": 2, "games": 40, "seed": 3}
    assert standings_of(raw, 0) == (["seat 0", "seat 1"], [[0, 0], [1, 2], [2, 2], [2, 6], [8, 6]])


def _winning_unit(game, players, row):
    winners = [s for s in range(players) if row[f"win_{s}"]]
    teams = game.teams(players)
    if teams:
        won = {t for t, team in enumerate(teams) if any(s in team for s in winners)}
        return won.pop() if len(won) == 1 else None
    return winners[0] if len(winners) == 1 else None


TRACED = [
    {"game": "distance", "players": 3, "games": 40, "seed": 5, "rules": {"misplay_rate": 0.2, "forget_call_rate": 0.5}},
    {"game": "fightsong", "players": 4, "games": 40, "seed": 5},
    {"game": "fightsong", "players": 3, "games": 40, "seed": 5},
    {"game": "noize", "players": 4, "games": 40, "seed": 5},
    {"game": "bards", "players": 2, "games": 40, "seed": 5},
]


@pytest.mark.parametrize("raw", TRACED, ids=lambda raw: f"{raw['game']}-{raw['players']}")
def test_standings_give_the_drama_the_kernel_counted(raw):
    """The drama columns (lead changes, decided at, comeback, final margin) recounted from the standings read
    here equal the kernel's, counted from its own standings: the same standings, turn by turn. (Bards: the
    kernel also looks after the last turn before the end's conclusions, at the same turn number; the chart
    keeps the standing after them, so the recount puts that look back from the events.)"""
    from analyzer.games import get_game

    game = get_game(raw["game"])
    for index, events, row in traced_games(raw):
        units, rows = TJ.standings_of_events(raw["game"], events, raw["players"])
        assert len(rows) == row["length"] + 1
        got = (row["lead_changes"], row["decided_at"], row["comeback"], row["final_margin"])
        winner = _winning_unit(game, raw["players"], row)
        rows, turns = rows.tolist(), None
        if raw["game"] == "bards":
            at_end = [0, 0]
            for e in events[:next(i for i, e in enumerate(events) if e["type"] == "end")]:
                at_end = e["totals"] if e["type"] == "conclude" else at_end
            rows = rows[:-1] + [at_end] + rows[-1:]
            turns = list(range(len(rows) - 2)) + [row["length"]] * 2
        assert got == reference_drama(rows, winner, row["length"], turns), index


@pytest.mark.parametrize("raw", TRACED, ids=lambda raw: f"{raw['game']}-{raw['players']}")
def test_standings_read_from_the_readers_types_alone(raw, monkeypatch):
    """The report decodes only the event types its reader declares (READERS): the same standings as from every
    event; and the events decoded in one pass (analyzer.games.events, fields as Kind and ListOf read them) from
    the columns the rows use are those of the two-pass decoding of whole rows, value and type."""
    sc = from_dict(raw)
    game, enc = sc.game, sc.arms[0].encoded(sc.game)
    types = TJ.READERS[raw["game"]][1]
    for index in range(10):
        events, _ = game.play_traced(enc, sc.seed, index)
        read, _ = game.play_traced(enc, sc.seed, index, types=types)
        assert {e["type"] for e in read} <= set(types) and len(read) < len(events)
        units, rows = TJ.standings_of_events(raw["game"], events, raw["players"])
        units_read, rows_read = TJ.standings_of_events(raw["game"], read, raw["players"])
        assert units_read == units and np.array_equal(rows_read, rows), index
        with monkeypatch.context() as m:
            for e in game.events.events:
                m.setattr(e, "plan", None)
            m.setattr(type(game.events), "_widest", lambda self, rows, ctx: None)
            slow, _ = game.play_traced(enc, sc.seed, index)
        assert events == slow and [list(map(type, e.values())) for e in events] == \
            [list(map(type, e.values())) for e in slow], index
    assert any(e.plan is not None for e in game.events.events)


def test_bands_by_hand():
    """Three games of 2, 1 and 3 turns: a quarter of 3 games rounds up to 1, at least 2: the bands stop at
    turn 2 (2 games going). Leads: turn 1: 2, 0 and 5 (mean 7/3; 10th pct 0.4, 90th 4.4 by linear
    interpolation); turn 2: 1 and 1."""
    st = TJ.Standings("x", ["seat 0", "seat 1"], [np.array(g) for g in (
        [[0, 0], [2, 0], [2, 3]], [[0, 0], [1, 1]], [[0, 0], [0, 5], [4, 5], [9, 5]])], 0, "points", 1, "turns")
    b = TJ.bands(st)
    assert b.turns.tolist() == [0, 1, 2] and b.going.tolist() == [3, 3, 2]
    assert np.allclose(b.margin_mean, [0, 7 / 3, 1]) and np.allclose(b.margin_p10, [0, 0.4, 1])
    assert np.allclose(b.margin_p90, [0, 4.4, 1])
    assert np.allclose(b.unit_means, [[0, 0], [1, 2], [3, 4]])


def test_figure_is_written(tmp_path):
    result = run(from_dict({"game": "fightsong", "players": 4, "games": 30, "seed": 2}), progress=False)
    (fig,) = TJ.trajectory_figure(result, result.groups[0], tmp_path, prefix="the rulebook", k=20)
    assert fig.path == tmp_path / "the-rulebook-trajectory.png"
    assert fig.path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "first 20 games (game indices 0 to 19" in fig.caption
    st = TJ.standings_by_turn(result, result.groups[0], k=100)
    assert len(st.games) == 30  # at most the games the run played


def test_no_figure_without_a_reader(tmp_path, monkeypatch):
    result = run(from_dict({"game": "noize", "players": 3, "games": 5, "seed": 2}), progress=False)
    monkeypatch.delitem(TJ.READERS, "noize")
    assert TJ.trajectory_figure(result, result.groups[0], tmp_path) == []
    assert not list(tmp_path.iterdir())
