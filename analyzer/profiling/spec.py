"""The `[profile]` table of a scenario, and the command line's values over it: what `analyzer profile` plays.

    [profile]
    levels = ["greedy", "search:64"]   # 1 or 2 skill levels (as [skill] levels); default: the scenario's seats
    deals = 2000                       # deals of the luck split, each played `replays` times
    replays = 8                        # decision replays of every deal (2 to 64)
    card_deals = 2000                  # deals per card kind in restricted play (each seat restricted in turn)
    kingmaker_deals = 2000             # deals per seat of the kingmaking replays (3+ players)
    policy_deals = 1000                # deals per pairing of the dominant-strategy check
    traced_games = 300                 # games traced for the runaway-leader check

    [profile.thresholds]               # when a warning flag is raised (FLAGS lists them, with defaults)
    first_seat_edge = 3                # ...

Every value is checked before any game is played; an error names the key (or the flag that set it).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.errors import MISSING, ScenarioError

KEYS = ("levels", "deals", "replays", "card_deals", "kingmaker_deals", "policy_deals", "traced_games", "thresholds")
MAX_LEVELS = 2
# the luck split keeps every game's row (deals x replays x columns int64: 2,000,000 games of 60 columns are 1 GB)
MAX_GAMES_KEPT = 2_000_000
MAX_DEALS = 200_000
MAX_OTHER_DEALS = 1_000_000  # restricted play, kingmaking, the dominant strategy: one configuration's rows at a time
MAX_TRACED = 10_000  # traced games are decoded in Python (tens of games a second)
# the whole numbers of [profile]: key -> (lowest, highest) (ProfileSpec holds the defaults)
COUNTS = {"deals": (10, MAX_DEALS), "replays": (2, 64), "card_deals": (10, MAX_OTHER_DEALS),
          "kingmaker_deals": (10, MAX_OTHER_DEALS), "policy_deals": (10, MAX_OTHER_DEALS),
          "traced_games": (10, MAX_TRACED)}


@dataclass(frozen=True)
class Flag:
    """One warning check: its threshold key, default and unit, and what it measures."""

    key: str
    default: float
    unit: str  # "points", "%"
    low: float
    high: float
    help: str


FLAGS = (
    Flag("first_seat_edge", 3.0, "points", 0.0, 100.0,
         "the first seat's (team's) win share differs from an even share by more than this, its 95% interval "
         "excluding an even share"),
    Flag("dominant_edge", 25.0, "points", 0.0, 100.0,
         "one of the game's rules of thumb (its heuristic policies: not random, lookahead or search) wins more than "
         "this above its fair share against every other (one side against the rest, each side in turn)"),
    Flag("runaway_leader", 90.0, "%", 0.0, 100.0,
         "the sole leader at half-time (the middle of each game's length) wins more than this share of games"),
    Flag("decided_early", 50.0, "%", 0.0, 100.0,
         "in more than this share of games the winner never trails again after the first fifth of the game"),
    Flag("kingmaker", 10.0, "%", 0.0, 100.0,
         "with 3 or more sides: a seat that loses either way, playing at random instead of at the level, changes "
         "who wins in more than this share of games (the largest over the seats)"),
    Flag("real_choices", 50.0, "%", 0.0, 100.0,
         "fewer than this share of all decisions are real choices (more than one option, and the best and second "
         "best differ by more than the game's margin)"),
    Flag("unfinished", 0.1, "%", 0.0, 100.0,
         "more than this share of games end without a winner (a stall or a cap)"),
)
FLAG_KEYS = {f.key: f for f in FLAGS}


@dataclass
class ProfileSpec:
    levels: list  # [(label, seat spec dict or None: the scenario's own seats)]
    deals: int = 2000
    replays: int = 8
    card_deals: int = 2000
    kingmaker_deals: int = 2000
    policy_deals: int = 1000
    traced_games: int = 300
    thresholds: dict = field(default_factory=lambda: {f.key: f.default for f in FLAGS})


def parse(sc, level_args=()):
    """The ProfileSpec of scenario sc ([profile], if any), levels from `level_args` (--level values) when given."""
    from analyzer.comparisons import parse_level

    source = sc.source
    table = sc.raw.get("profile", {})
    if not isinstance(table, dict):
        raise ScenarioError(source, "profile", table, "must be a table: [profile] deals = 2000, replays = 8, ...")
    for k in table:
        if k not in KEYS:
            raise ScenarioError(source, f"profile.{k}", table[k], "unknown key; allowed: " + ", ".join(KEYS))
    spec = ProfileSpec(levels=[])
    for key, (low, high) in COUNTS.items():
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ScenarioError(source, f"profile.{key}", value, f"must be an integer from {low:,} to {high:,}")
            setattr(spec, key, value)
    if spec.deals * spec.replays > MAX_GAMES_KEPT:
        raise ScenarioError(source, "profile.deals", spec.deals,
                            f"x replays ({spec.replays}) must be at most {MAX_GAMES_KEPT:,} (the luck split keeps "
                            f"every game)")
    levels = list(level_args) if level_args else table.get("levels", MISSING)
    where = "--level" if level_args else "profile.levels"
    if levels is MISSING:
        spec.levels = [(_own_label(sc), None)]
    else:
        if not isinstance(levels, list) or not 1 <= len(levels) <= MAX_LEVELS:
            raise ScenarioError(source, where, levels, f"1 or {MAX_LEVELS} skill levels, weakest first: a policy name, "
                                                       f"\"name:budget\" or a table of policy parameters")
        for i, level in enumerate(levels):
            try:
                spec.levels.append(parse_level(sc.game, level, source, where if level_args else f"{where}[{i}]"))
            except ScenarioError as e:  # (a flag's value is named by the flag, not by the seat key it would set)
                raise e.renamed(key="--level") if level_args else e from None
        if len(spec.levels) == 2 and spec.levels[0][0] == spec.levels[1][0]:
            raise ScenarioError(source, where, levels, "the two levels must differ")
    given = table.get("thresholds", {})
    if not isinstance(given, dict):
        raise ScenarioError(source, "profile.thresholds", given, "must be a table, e.g. first_seat_edge = 5")
    for k, v in given.items():
        flag = FLAG_KEYS.get(k)
        if flag is None:
            raise ScenarioError(source, f"profile.thresholds.{k}", v, "unknown check; allowed: " + ", ".join(FLAG_KEYS))
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not flag.low <= v <= flag.high:
            raise ScenarioError(source, f"profile.thresholds.{k}", v,
                                f"must be a number from {flag.low:g} to {flag.high:g} ({flag.unit})")
        spec.thresholds[k] = float(v)
    return spec


def _own_label(sc):
    """The scenario's seats as a level's label: the policy every seat plays, or 'the scenario's seats'."""
    names = {s.policy for s in sc.seats}
    return names.pop() if len(names) == 1 else "the scenario's seats"
