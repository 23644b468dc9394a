"""`analyzer profile`: where a game's outcomes come from: luck, choices and cards, and its warning flags.

A profile plays one configuration (the scenario's rules and players) at one or two skill levels
(analyzer/profiling/spec.py):
- the luck split (luck.py): every deal played `replays` times with the decisions re-seeded (analyzer.rng), the
  outcome's variance split between the deal, the seat and the bots' decisions; the same games carry the kernels'
  decision counts (choices.py: base.Choices) and give the first seat's edge, the games decided early, the games
  without a winner and card power;
- traced games (the runaway leader: does the leader at half-time win?);
- kingmaking (3+ sides): each seat in turn plays at random, the others as before, on the same deals;
- restricted play (cards.py): each seat in turn told not to play one kind of card, on the same deals, and the
  game with a deck without it;
- the dominant-strategy check: the game's heuristic policies (not random, lookahead or search), each against each.
The report (report.py) answers first; profile.csv holds every figure. A signal stops the profile after the block
in play: every stage finished (and the luck split's finished deals) is reported, marked partial.
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import ScenarioError
from analyzer.games.base import AVOID
from analyzer.profiling import cards as C
from analyzer.profiling import checks as K
from analyzer.profiling import choices as CH
from analyzer.profiling import luck as L
from analyzer.profiling import play as P
from analyzer.profiling.spec import FLAGS, ProfileSpec, parse
from analyzer.stats import mean_ci

# a profile plays one configuration: what would make the scenario several is refused
NOT_WITH_PROFILE = ("variants", "sweep", "policies", "ladder", "strength", "skill", "stop")
# the dominant-strategy check compares the game's rules of thumb (its heuristic policies): random is the weakest by
# design, and the searching policies (lookahead, search) are meant to beat every heuristic
SKIPPED_RUNGS = ("random", "lookahead", "search")


@dataclass
class LevelProfile:
    label: str
    seats: list
    rows: np.ndarray  # (replays, deals, columns): the luck split's games, decision counts on
    splits: dict  # outcome ("win", "margin") -> luck.Split
    choices: list  # choices.ChoiceRow
    checks: list  # checks.Check: first seat, decided early, unfinished, real choices
    power: list  # cards.PowerRow

    @property
    def deals(self):
        return self.rows.shape[1]


@dataclass
class ProfileResult:
    scenario: object
    spec: ProfileSpec
    levels: list = field(default_factory=list)  # LevelProfile, in the spec's order
    runaway: object = None  # checks.Check
    kingmaker: object = None
    kingmaker_seats: list | None = None  # [(seat, (share, low, high))]
    cards: list = field(default_factory=list)  # cards.CardRow
    cards_note: str = ""
    full_deck: tuple | None = None  # (mean length, first seat's win share) of restricted play's unrestricted games
    dominance: object = None  # checks.Check
    dominance_edges: dict | None = None
    stopped_by: int | None = None
    seconds: dict = field(default_factory=dict)  # stage -> wall seconds
    games: dict = field(default_factory=dict)  # stage -> games played
    wall: float = 0.0
    threads: int = 1

    @property
    def partial(self):
        return self.stopped_by is not None

    def checks(self):
        """Every check, in FLAGS order, of the first level (and the profile-wide ones)."""
        first = {c.key: c for c in self.levels[0].checks} if self.levels else {}
        for c in (self.dominance, self.runaway, self.kingmaker):
            if c is not None:
                first[c.key] = c
        return [first[f.key] for f in FLAGS if f.key in first]


def load(path, overrides=(), level_args=()):
    from analyzer import scenario as scen

    return build(scen.load_raw(path), str(path), overrides, level_args)


def build(raw, source, overrides=(), level_args=()):
    """(scenario, ProfileSpec), or ScenarioError naming the file (or flag), the key and the value."""
    from analyzer import scenario as scen

    for key in NOT_WITH_PROFILE:
        if key in raw:
            raise ScenarioError(source, key, "(table)" if isinstance(raw[key], dict) else raw[key],
                                "a profile plays one configuration: drop it (levels go in [profile] levels or --level)")
    sc = scen.build_with(copy.deepcopy(raw), source, overrides)
    try:
        return sc, parse(sc, level_args)
    except ScenarioError as e:
        raise scen.named_by_flag(e, source, overrides) from None


class _Stop(Exception):
    pass


def profile(sc, spec, *, threads=None, interrupts=None, log=None):
    """Play the profile's stages and return the ProfileResult (partial if a signal stopped it)."""
    from analyzer import runner

    log = log or (lambda line: None)
    game, players = sc.game, sc.players
    columns = game.columns(players)
    teams = game.teams(players)
    side = L.sides(teams, players)
    res = ProfileResult(sc, spec, threads=runner.used_threads(threads))
    start = time.perf_counter()

    def stage(name, fn):
        if interrupts is not None and interrupts.signal is not None:
            raise _Stop
        t = time.perf_counter()
        try:
            return fn()
        finally:
            res.seconds[name] = res.seconds.get(name, 0.0) + time.perf_counter() - t

    def played(name, n):
        res.games[name] = res.games.get(name, 0) + n

    def rows_of(name, seats, deals, replays=1, rules=None, count=False):
        enc = P.encode(game, sc.rules if rules is None else rules, seats, count_choices=count)
        try:
            out = P.rows(game, enc, sc.seed, players, deals, replays, interrupts=interrupts)
        except P.Stopped as s:
            played(name, s.rows.shape[0] * s.rows.shape[1])
            raise
        played(name, replays * deals)
        return out

    def first_level_games(name, deals):
        """Rows (deals, columns) of the first level's games 0 .. deals - 1: the luck split's first replay holds them
        (the same games: counting changes none) when it has that many deals."""
        first = res.levels[0]
        return first.rows[0, :deals] if deals <= first.deals else rows_of(name, first.seats, deals)[0]

    try:
        for label, level_seat in spec.levels:
            seats = P.seats_at(game, level_seat, sc.seats, players, sc.source)
            log(f"  luck split at {label}: {spec.deals:,} deals x {spec.replays} replays")
            try:
                rows = stage("luck split", lambda: rows_of("luck split", seats, spec.deals, spec.replays, count=True))
            except P.Stopped as s:  # (the whole blocks played are reported, if there are enough deals to split)
                if s.rows.shape[1] >= 10:
                    res.levels.append(_level(game, label, seats, s.rows, columns, players, teams, spec))
                raise _Stop from None
            res.levels.append(_level(game, label, seats, rows, columns, players, teams, spec))
        first = res.levels[0]
        log(f"  runaway leader: {spec.traced_games:,} traced games")
        res.runaway = stage("traced games", lambda: _runaway(game, sc, first.seats, players, teams, spec, interrupts))
        played("traced games", spec.traced_games if res.runaway.figure is not None else 0)
        sides = len(teams) if teams else players
        if sides >= 3:
            log(f"  kingmaking: {players} x {spec.kingmaker_deals:,} deals")
            res.kingmaker_seats = stage("kingmaking", lambda: _kingmaking(game, first.seats, players, side, spec,
                                                                          rows_of, first_level_games))
        res.kingmaker = K.kingmaker(res.kingmaker_seats, spec.thresholds["kingmaker"])
        if C.restrictable(game, first.seats):
            log(f"  restricted play: {len(game.card_kinds)} kinds x {players} seats x {spec.card_deals:,} deals")
            res.cards = stage("restricted play", lambda: _restricted(res, game, sc, first.seats, players, teams,
                                                                     side, spec, rows_of, first_level_games))
        else:
            res.cards_note = (f"{game.title} declares no card kinds for restricted play yet" if not game.card_kinds
                              else f"the level's policy ({first.seats[0].policy}) cannot be told to avoid a card")
        rungs = _dominance_rungs(game)
        if len(rungs) >= 2:
            log(f"  dominant strategy: {len(rungs)} policies, each against each, {spec.policy_deals:,} deals a seat")
            res.dominance_edges = stage("dominant strategy", lambda: _dominance(game, rungs, players, teams, side, spec,
                                                                                rows_of))
        res.dominance = K.dominant(res.dominance_edges, spec.thresholds["dominant_edge"])
    except (_Stop, P.Stopped):
        res.stopped_by = interrupts.signal if interrupts is not None else None
    res.wall = time.perf_counter() - start
    return res


def _level(game, label, seats, rows, columns, players, teams, spec):
    credit = L.win_credit(rows, players)  # (replays, deals, seats)
    splits = {"win": L.split(credit.transpose(1, 0, 2), "win")}
    if game.score is not None:
        margin = L.score_margin(rows, columns, players, game.score, teams)
        splits["margin"] = L.split(margin.transpose(1, 0, 2), "margin")
    choice_rows = CH.choice_rows(game, rows, players)
    total = choice_rows[-1] if choice_rows else None
    th = spec.thresholds
    checks = [K.first_seat_edge(credit, teams, th["first_seat_edge"]),
              K.decided_early(rows, columns, th["decided_early"]),
              K.few_choices(total, th["real_choices"]),
              K.unfinished(rows, players, th["unfinished"])]
    return LevelProfile(label, seats, rows, splits, choice_rows, checks, C.power_rows(game, rows[0], players))


def _runaway(game, sc, seats, players, teams, spec, interrupts):
    from analyzer.report.trajectory import READERS, standings_of_events

    th = spec.thresholds["runaway_leader"]
    if game.name not in READERS:
        return K.Check("runaway_leader", "Runaway leader", None, th, None,
                       f"no standings reader for {game.title} (analyzer/report/trajectory.py)")
    enc = P.encode(game, sc.rules, seats, count_choices=False)
    leads = []
    for i in range(spec.traced_games):
        if interrupts is not None and interrupts.signal is not None:
            raise _Stop
        events, row = game.play_traced(enc, sc.seed, i)
        _, standings = standings_of_events(game.name, events, players)
        won = ({t for t, seats_t in enumerate(teams) if row[seats_t[0]]} if teams
               else {s for s in range(players) if row[s]})
        leads.append(K.half_time_lead(standings, won))
    return K.runaway_leader(leads, th)


def _kingmaking(game, seats, players, side, spec, rows_of, first_level_games):
    base = first_level_games("kingmaking", spec.kingmaker_deals)
    random_seat = game.validate_seat({"policy": "random"}, "(profile)", "random") if game.policy("random") else None
    if random_seat is None:
        return None
    out = []
    for s in range(players):
        changed = list(seats)
        changed[s] = random_seat
        other = rows_of("kingmaking", changed, spec.kingmaker_deals)[0]
        out.append((s, K.kingmaker_share(base[:, :players], other[:, :players], s, side)))
    return out


def _restricted(res, game, sc, seats, players, teams, side, spec, rows_of, first_level_games):
    def side_credit(rows):
        """Each seat's share of the win, its team's where partners play (a restricted seat's team loses with it)."""
        credit = L.win_credit(rows, players)
        return credit if not teams else np.stack([credit[:, list(teams[side[s]])].sum(axis=1)
                                                  for s in range(players)], axis=1)

    base_rows = first_level_games("restricted play", spec.card_deals)
    base = side_credit(base_rows)
    res.full_deck = C.deck_figures(base_rows, players, teams)  # (beside the decks without a kind)
    out = []
    for kind in game.card_kinds:
        told = C.restricted_seats(game, seats, 0, kind)
        if any(path == f"seats.0.{AVOID}" for path, _ in game.idle(sc.rules, told, players)):
            continue  # (a kind this deck lacks: avoiding it changes no game; the game's idle settings say so)
        restricted = np.zeros_like(base)
        for s in range(players):
            r = rows_of("restricted play", C.restricted_seats(game, seats, s, kind), spec.card_deals)[0]
            restricted[:, s] = side_credit(r)[:, s]
        row = C.impact_row(kind, base, restricted, spec.card_deals)
        rules = game.deck_without(sc.rules, kind, players) if game.deck_without else None
        if rules is None:
            row.deck_note = "the rules cannot remove it"
        else:
            deck_rows = rows_of("deck without", seats, spec.card_deals, rules=rules)[0]
            row.deck_length, row.deck_first = C.deck_figures(deck_rows, players, teams)
        out.append(row)
    out.sort(key=lambda r: -r.impact[0])
    return out


def _dominance_rungs(game):
    rungs = list(game.ladder) or [{"label": p.name, "policy": p.name} for p in game.policies]
    return [r for r in rungs if r["policy"] not in SKIPPED_RUNGS]


def _dominance(game, rungs, players, teams, side, spec, rows_of):
    """edges[a][b]: points above its fair share that policy a wins with one side (a seat, or a team) against
    policy b in the others, each side in turn, on the same deals."""
    sides = sorted(set(side))
    fair = 1 / len(sides)
    seat_of = {lab: game.validate_seat({k: v for k, v in r.items() if k != "label"}, "(profile)", "ladder")
               for lab, r in ((r["label"], r) for r in rungs)}
    edges = {}
    for a in seat_of:
        edges[a] = {}
        for b in seat_of:
            if a == b:
                continue
            shares = np.zeros(spec.policy_deals)
            for t in sides:
                seats = [seat_of[a] if side[s] == t else seat_of[b] for s in range(players)]
                credit = L.win_credit(rows_of("dominant strategy", seats, spec.policy_deals)[0], players)
                shares += credit[:, [s for s in range(players) if side[s] == t]].sum(axis=1)
            shares /= len(sides)
            edges[a][b] = tuple(100 * (x - fair) for x in mean_ci(shares.sum(), (shares * shares).sum(), len(shares)))
    return edges
