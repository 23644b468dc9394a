"""Fight Song over many games: an independent Python referee replays every traced game from the
rulebook and the deck file alone (it reads the TOML itself and scores with its own code), checking
every deal, play, score, record, Fight Song round, return to the stacks and the end; that the cards of
all three stacks are conserved after every event; that every play is legal; that every game ends;
and that the result row agrees. Game i of a batch equals the traced game i."""
import tomllib
from collections import Counter, deque
from pathlib import Path

import numpy as np
import pytest

from analyzer.games.fightsong import GAME
from fightsong_helpers import write_deck

DEFAULT_DECK = Path(__file__).parent.parent / "analyzer/games/fightsong/data/default.toml"
DIVS = {"Band": ("Woodwind", "Brass", "Percussion"), "Cheer": ("Flyer", "Base", "Spotter"),
        "Fans": ("Students", "Alumni", "Parents")}
DIV_OF = {sub: d for d, subs in DIVS.items() for sub in subs}


class Deck:
    """The deck as the referee reads it: Game Play card names by id, boards by id."""

    def __init__(self, path):
        raw = tomllib.loads(Path(path).read_text())
        self.gp = []  # (id string, outer, inner)
        for name, copies in raw["game_play"].items():
            outer, inner = name.split("/")
            for _ in range(copies):
                self.gp.append((f"G{len(self.gp) + 1:02d}", outer, inner))
        self.boards = {}
        self.act = []
        self.fs = []
        for section, ids in (("activity", self.act), ("fight_song", self.fs)):
            for i, card in enumerate(raw[section]):
                cid = card.get("id", f"{'A' if section == 'activity' else 'F'}{i + 1:02d}")
                self.boards[cid] = ([tuple(c.split("/")) for c in card["corners"]], card["bonus"])
                ids.append(cid)
        self.gp_by_label = {f"{i} {o}/{n}": (o, n) for i, o, n in self.gp}

    def match(self, card, board, corner):
        """(score, what matched): the best single match counts; the Bonus Corner never adds to another."""
        outer, inner = self.gp_by_label[card]
        c_outer, c_inner = self.boards[board][0][corner]
        if outer == c_outer and inner == c_inner:
            return 3, "outer and inner colors"
        if outer == c_outer:
            return 2, "outer color"
        if inner == c_inner:
            return 1, "inner color"
        if corner == 3 and outer == self.boards[board][1]:
            return 1, "Bonus Corner color"  # lower-right corner, outer color = the Bonus Corner color
        return 0, "no match"

    def score(self, card, board, corner):
        return self.match(card, board, corner)[0]


def team_of(seat, n):
    return seat % 2 if n == 4 else seat


def labels(n):
    return ["0+2", "1+3"] if n == 4 else [str(s) for s in range(n)]


class Referee:
    def __init__(self, deck, n, rules, policies):
        self.d, self.n, self.r, self.pol = deck, n, rules, policies
        self.nt = 2 if n == 4 else n
        self.target = rules["target"]
        self.hands = {s: [] for s in range(n)}  # regular hands, in dealt order
        self.fs_hands = {s: [] for s in range(n)}
        self.table = []  # cards played and not yet returned
        self.pts = [0] * self.nt
        self.extra = [0] * self.nt
        self.crossed = [0] * self.nt
        self.pending = [0] * self.nt
        self.seat_pts = [0] * n
        self.stats = Counter()

    def check_conservation(self):
        held = [c for s in range(self.n) for c in self.hands[s] + self.fs_hands[s]]
        all_gp = list(self.gp) + held + [c for c in self.table if c.startswith("G")]
        assert sorted(all_gp) == sorted(f"{i} {o}/{n}" for i, o, n in self.d.gp), "Game Play cards conserved"
        boards = list(self.act) + list(self.fs) + [c for c in self.table if not c.startswith("G")]
        assert sorted(boards) == sorted(self.d.act + self.d.fs), "Activity and Fight Song cards conserved"

    def expect(self, it, typ, **fields):
        ev = next(it)
        assert ev["type"] == typ, f"expected {typ}, got {ev}"
        for k, v in fields.items():
            assert ev[k] == v, f"{typ}.{k}: {ev[k]!r} != {v!r}"
        return ev

    def clockwise(self, seats):
        """The seats in clockwise order from the player left of the dealer."""
        return [(self.left + i) % self.n for i in range(self.n) if (self.left + i) % self.n in seats]

    def deal(self, it, seats, count, hand, reason):
        seats = self.clockwise(seats)
        got = {s: [] for s in seats}
        for _ in range(count):
            for s in seats:  # one at a time round the table from the dealer's left
                got[s].append(self.gp.popleft())
        for s in seats:
            ev = self.expect(it, "deal", seat=s, hand=hand, reason=reason)
            assert ev["cards"] == got[s]
            target = self.hands[s] if hand == "regular" else self.fs_hands[s]
            target.extend(got[s])
            assert ev["hand_size"] == len(target)
        self.check_conservation()

    def play_board(self, it, board, order, fight_song):
        free = [True] * 4
        team_pts = [None] * self.nt
        for s in order:
            team_pts[team_of(s, self.n)] = 0
        played = []
        for s in order:
            ev = self.expect(it, "play", seat=s, on=board, fight_song=fight_song)
            hand = self.fs_hands[s] if fight_song else self.hands[s]
            assert ev["card"] in hand, "a player plays a card she holds"
            assert free[ev["corner"]], "each corner takes one card per hand"
            if self.pol[s] == "greedy":
                best = max(self.d.score(c, board, k) for c in hand for k in range(4) if free[k])
                assert self.d.score(ev["card"], board, ev["corner"]) == best, "greedy plays the best score"
            free[ev["corner"]] = False
            hand.remove(ev["card"])
            self.table.append(ev["card"])
            pts, match = self.d.match(ev["card"], board, ev["corner"])
            assert (ev["score"], ev["match"]) == (pts, match)
            team_pts[team_of(s, self.n)] += pts
            played.append((s, ev["card"], pts, ev["match"]))
            self.check_conservation()
        return team_pts, played

    def returns(self, it, cards, stack, reason):
        ev = self.expect(it, "return", stack=stack, reason=reason)
        assert ev["cards"] == cards
        for c in cards:
            self.table.remove(c) if c in self.table else None
            (self.gp if stack == "game_play" else self.act if stack == "activity" else self.fs).append(c)
        self.check_conservation()

    def fs_round(self, it, kind, init, players):
        if len(init) == 1:  # its first player clockwise from the dealer's left
            starter = next(s for s in self.clockwise(players) if team_of(s, self.n) == init[0])
        else:  # the first playing seat clockwise from the dealer's left
            starter = self.clockwise(players)[0]
        order = [(starter + i) % self.n for i in range(self.n) if (starter + i) % self.n in players]
        self.expect(it, "fight_song_round", kind=kind, initiators=[labels(self.n)[t] for t in init],
                    players=sorted(players), starter=starter)
        self.deal(it, sorted(players), 3, "fight_song", "fight_song")
        outcome, hands = "no point", 0
        for k in (1, 2, 3):
            if k > 1:
                self.deal(it, sorted(players), 1, "fight_song", "fight_song_extra")
            card = self.fs.popleft()
            self.table.append(card)
            ev = self.expect(it, "fight_song_hand", number=k, card=card, starter=starter)
            assert ev["corners"] == ["/".join(c) for c in self.d.boards[card][0]]
            hands += 1
            team_pts, played = self.play_board(it, card, order, True)
            best = max(v for v in team_pts if v is not None)
            top = [t for t, v in enumerate(team_pts) if v == best]
            if len(top) == 1:
                outcome = "won" if top[0] in init else "lost"
                if outcome == "won":
                    self.extra[top[0]] += 1
            else:
                outcome = "tie" if k < 3 else "no point"
            ev = self.expect(it, "fight_song_score", number=k, outcome=outcome)
            assert ev["scores"] == {lab: team_pts[t] for t, lab in enumerate(labels(self.n))}
            self.returns(it, [c for _, c, _, _ in played], "game_play", "fight_song_hand")
            self.returns(it, [card], "fight_song", "fight_song_hand")
            if outcome != "tie":
                break
        unplayed = [c for s in self.clockwise(players) for c in self.fs_hands[s]]
        for s in players:
            self.fs_hands[s] = []
        ev = self.expect(it, "return", stack="game_play", reason="fight_song_unplayed")
        assert ev["cards"] == unplayed
        self.gp.extend(unplayed)
        self.check_conservation()
        self.expect(it, "fight_song_end", kind=kind, outcome=outcome, hands=hands)
        return outcome, top[0] if len(top) == 1 else None, hands

    def replay(self, events, out, cols):
        it = iter(events)
        stacks = {}
        for name in ("game_play", "activity", "fight_song"):
            stacks[name] = deque(self.expect(it, "deck", stack=name)["cards"])
        self.gp, self.act, self.fs = stacks["game_play"], stacks["activity"], stacks["fight_song"]
        assert sorted(self.act) == sorted(self.d.act) and sorted(self.fs) == sorted(self.d.fs)
        self.check_conservation()
        n, r = self.n, self.r
        self.left = 0  # the last seat deals first
        self.deal(it, list(range(n)), r["hand_size"], "regular", "start")
        hand_no = 0
        while True:
            hand_no += 1
            assert hand_no <= r["max_hands"]
            starter = (hand_no - 1) % n  # seat 0 (left of the dealer) first, then one clockwise each hand
            if r["dealer"] == "rotating":
                self.left = starter
            board = self.act.popleft()
            self.table.append(board)
            ev = self.expect(it, "hand", hand=hand_no, starter=starter, activity=board, dealer=(self.left - 1) % n)
            assert ev["corners"] == ["/".join(c) for c in self.d.boards[board][0]]
            order = [starter, 1 - starter] * 2 if n == 2 else [(starter + j) % n for j in range(n)]
            team_pts, played = self.play_board(it, board, order, False)
            for s, _, pts, match in played:
                self.seat_pts[s] += pts
                self.stats[{3: "plays_3", 2: "plays_2", 0: "plays_0"}.get(pts, "plays_1_bonus" if match ==
                                                                           "Bonus Corner color" else "plays_1_inner")] += 1
            for t in range(self.nt):
                self.pts[t] += team_pts[t]
                c = self.pts[t] // r["fs_step"]  # an opportunity each time round points cross a multiple
                self.pending[t] += c - self.crossed[t]
                self.stats["fs_opportunities"] += c - self.crossed[t]
                self.crossed[t] = c
            ev = self.expect(it, "record", hand=hand_no)
            lab = labels(n)
            assert ev["round_points"] == dict(zip(lab, self.pts)) and ev["extra_points"] == dict(zip(lab, self.extra))
            assert ev["opportunities"] == dict(zip(lab, self.pending))
            extra_before = list(self.extra)
            while any(self.pending):
                init = [t for t in range(self.nt) if self.pending[t] > 0]
                for t in init:
                    self.pending[t] -= 1
                players = set(range(n))
                if n == 3 and len(init) == 1:
                    b = self.expect(it, "battle", seat=init[0])
                    assert b["opponent"] != init[0]
                    rule = self.battle_rule(init[0])
                    if rule in ("leader", "weakest"):
                        a, c = (init[0] + 1) % 3, (init[0] + 2) % 3
                        ta, tc = self.pts[a] + self.extra[a], self.pts[c] + self.extra[c]
                        want = (c if tc > ta else a) if rule == "leader" else (c if tc < ta else a)
                        assert b["opponent"] == want
                    players = {init[0], b["opponent"]}
                elif n == 3:
                    players = set(init)
                outcome, _, hands = self.fs_round(it, "opportunity", init, players)
                self.stats["fs_rounds"] += 1
                self.stats["fs_hands"] += hands
                self.stats[{"won": "fs_won", "lost": "fs_lost", "no point": "fs_no_point"}[outcome]] += 1
            self.returns(it, [c for _, c, _, _ in played], "game_play", "hand")
            self.returns(it, [board], "activity", "hand")
            totals = [self.pts[t] + self.extra[t] for t in range(self.nt)]
            reached = [t for t in range(self.nt) if totals[t] >= self.target]
            if reached:
                top = max(totals)
                tied = [t for t in range(self.nt) if totals[t] == top]
                if len(tied) == 1:
                    cond, winners = ("alone" if len(reached) == 1 else "highest"), tied
                else:
                    seats = {s for s in range(n) if team_of(s, n) in tied}
                    outcome, w, _ = self.fs_round(it, "tiebreak", tied, seats)
                    cond, winners = ("tiebreak", [w]) if outcome == "won" else ("shared", tied)
                break
            if hand_no == r["max_hands"]:
                cond, winners = "stall", []
                break
            if len(self.hands[0]) <= r["refill_at"]:
                self.deal(it, list(range(n)), r["refill_cards"], "regular", "refill")
        end = self.expect(it, "end", condition=cond, hands=hand_no)
        assert end["winning_teams"] == [labels(n)[t] for t in winners]
        assert end["totals"] == dict(zip(labels(n), [self.pts[t] + self.extra[t] for t in range(self.nt)]))
        assert next(it, None) is None, "the end is the last event"
        # the result row
        row = dict(zip(cols, (int(x) for x in out)))
        win_seats = [s for s in range(n) if team_of(s, n) in winners]
        assert [row[f"win_{s}"] for s in range(n)] == [int(s in win_seats) for s in range(n)]
        assert row["n_winners"] == len(win_seats) and row["length"] == hand_no
        assert row["end"] == ["alone", "highest", "tiebreak", "shared", "stall"].index(cond)
        for s in range(n):
            t = team_of(s, n)
            assert row[f"score_{s}"] == self.pts[t] + self.extra[t] and row[f"seat_points_{s}"] == self.seat_pts[s]
        for t in range(self.nt):
            assert (row[f"team_points_{t}"], row[f"team_extra_{t}"]) == (self.pts[t], self.extra[t])
        for k, v in self.stats.items():
            assert row[k] == v, k
        assert row["points"] == sum(self.seat_pts) and row["plays"] == hand_no * (4 if n == 2 else n)
        return cond

    def battle_rule(self, seat):
        return self.battle[seat]


CONFIGS = [
    # (players, rules, seats)
    (4, {}, ["greedy"] * 4),
    (4, {}, ["random", "team", "blocker", "greedy"]),
    (4, {"fs_step": 2, "target": 12}, ["team", "random", "team", "blocker"]),
    (4, {"hand_size": 5, "refill_at": 1, "refill_cards": 4, "target": 20}, ["blocker", "greedy", "random", "team"]),
    (3, {}, [{"policy": "greedy", "battle": "leader"}, {"policy": "random"}, {"policy": "team", "battle": "weakest"}]),
    (4, {"dealer": "rotating"}, ["greedy", "team", "greedy", "blocker"]),
    (3, {"dealer": "rotating", "fs_step": 3}, ["greedy", "random", "team"]),
    (2, {"dealer": "rotating", "target": 5, "fs_step": 100}, ["random", "greedy"]),
    (3, {"fs_step": 2, "target": 9}, [{"policy": "blocker", "battle": "random"}, {"policy": "greedy", "battle": "weakest"},
                                      {"policy": "random", "battle": "leader"}]),
    (2, {}, ["greedy", "team"]),
    (2, {"fs_step": 3, "target": 10, "hand_size": 7}, ["random", "blocker"]),
    (2, {"fs_step": 1, "target": 6}, ["random", "random"]),  # many Fight Song rounds, exact ties
    (4, {"target": 4, "fs_step": 100}, ["random"] * 4),  # exact ties at the target: tie-break rounds
    (3, {"target": 3, "fs_step": 100}, ["random"] * 3),
    (4, {"max_hands": 10, "target": 1000}, ["greedy"] * 4),  # the hand cap: stalls
]


def encoded(players, rules, seats, deck_file=None):
    rules = GAME.validate_rules({**rules, **({"deck_file": str(deck_file)} if deck_file else {})}, players, "test")
    specs = [s if isinstance(s, dict) else {"policy": s} for s in seats]
    return rules, specs, GAME.encode(rules, [GAME.validate_seat(dict(x), "test", f"seat{i}") for i, x in enumerate(specs)])


def check_games(players, rules_raw, seats, games, deck_file=None, seed=777):
    rules, specs, enc = encoded(players, rules_raw, seats, deck_file)
    deck = Deck(deck_file or DEFAULT_DECK)
    cols = GAME.columns(players)
    out = np.zeros((games, len(cols)), dtype=np.int64)
    GAME.run_batch(enc, seed, 0, out)
    ends = Counter()
    for i in range(games):
        events, row = GAME.play_traced(enc, seed, i)
        assert np.array_equal(row, out[i]), "batch game i == traced game i"
        ref = Referee(deck, players, rules, [s["policy"] for s in specs])
        ref.battle = [s.get("battle", "random" if s["policy"] == "random" else "leader") for s in specs]
        ends[ref.replay(events, row, cols)] += 1
    return ends


@pytest.mark.parametrize("players, rules, seats", CONFIGS)
def test_referee_replays_traced_games(players, rules, seats):
    ends = check_games(players, rules, seats, 40)
    assert sum(ends.values()) == 40


def test_referee_on_a_designers_deck(tmp_path):
    """Another deck file: uneven copies, two Activity cards, one Fight Song card (it comes back for replays)."""
    path = write_deck(tmp_path / "d.toml",
                      [(["Band/Flyer", "Cheer/Brass", "Fans/Parents", "Band/Woodwind"],
                        "Fans"),
                       (["Cheer/Spotter", "Fans/Alumni", "Band/Students", "Cheer/Base"], "Band")],
                      [(["Fans/Flyer", "Band/Brass", "Cheer/Percussion", "Fans/Students"], "Cheer")],
                      copies={"Band/Woodwind": 10, "Band/Brass": 3, "Cheer/Flyer": 7, "Cheer/Spotter": 12,
                              "Fans/Students": 5, "Fans/Parents": 9})
    for players, seats in ((4, ["team", "greedy", "blocker", "random"]), (3, ["random"] * 3), (2, ["greedy", "random"])):
        check_games(players, {"fs_step": 4}, seats, 25, deck_file=path)


def test_the_hand_cap_ends_a_game_that_cannot_reach_the_target():
    ends = check_games(4, {"max_hands": 10, "target": 1000}, ["greedy"] * 4, 5)
    assert ends == {"stall": 5}
