"""The contract every game module fulfils.

A game is a `Game` object (see `analyzer/games/<game>/__init__.py`) holding:
- `settings`: its rule settings, each a `Param` declared once and used for defaults, validation,
  `analyzer games`, the docs and sweeps;
- `policies`: its bot policies, each a `Policy` with numeric `Param`s;
- `columns(n_players)`: the names of the per-game result columns its kernel fills (int64);
- `encode(rules, seats)`: validated settings + seats -> the tuple of arrays the kernel takes;
- `batch(seed, first_game, *encoded, out)`: fills out[i] with game first_game + i on every thread: a
  `prange` numba kernel, or (Battle of the Bards) a nogil kernel run on threads by analyzer/threads.py
  (called through `Game.run_batch`);
- `play_traced(encoded, seed, game_index)`: (events, result row) of one game, played by the same
  numba code with event recording on (called through `Game.trace`);
- `format_event(event)`: one event as a line a person reads;
- `events`: its trace events declared once (analyzer/games/events.py), which decode the trace rows, make the
  docs table and check every field (`trace_context(encoded)`: what the checks need, players, deck...);
- `metrics`, `end_conditions`: what the report shows beyond the generic sections.

A game of the standard shape (one state array; analyzer/games/shape.py) gets `batch` and `play_traced` from
shape.bind; docs/adding-a-game.md adds a game step by step (the toy, tests/toygame, is the worked example).

Every game's result columns start with the generic ones the runner and report rely on:
`win_<s>` (1 if seat s is among the winners), `n_winners`, `length` (rounds or turns), `end`
(index into `end_conditions`).

- A game that can end with no winner (a stall) sets every `win_<s>` and `n_winners` to 0 and `end` to
  the index of that end condition; the report counts such games apart ("no winner").
- A team game (`teams(n_players)` returns the seats of each team, e.g. ((0, 2), (1, 3))) sets
  `win_<s>` = 1 for every seat of a winning team and `n_winners` to the number of winning seats; the
  report then speaks of teams (a team's win share is the sum of its seats').
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from analyzer.errors import MISSING, ScenarioError, toml_value


def plural(k, noun):
    """'1 card', '3 cards': for trace lines."""
    return f"{k} {noun}{'' if k == 1 else 's'}"


def record_events(play, rows, width):
    """Run play(buffer) -> events written (-1: the buffer was too small) with a trace buffer of
    int64 rows, growing it until the game's events fit; return the rows written."""
    buf = np.zeros((rows, width), dtype=np.int64)
    while True:
        written = play(buf)
        if written >= 0:
            return buf[:written]
        buf = np.zeros((buf.shape[0] * 4, width), dtype=np.int64)


@dataclass(frozen=True)
class Param:
    """A rule setting or policy parameter: name, type, default, allowed range, one line of help.

    kind is "int", "float", "bool", "choice", "str" (a non-empty string, e.g. a file path) or "intlist"
    (a non-empty list of distinct integers, each from low to high). default None means "derived" (the
    help says how, and the game's `resolve_rules` fills it in).
    """

    name: str
    kind: str
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        if self.kind == "bool":
            return "must be true or false"
        if self.kind == "choice":
            return "must be one of " + ", ".join(toml_value(c) for c in self.choices)
        if self.kind == "str":
            return "must be a non-empty string"
        if self.kind == "intlist":
            return f"must be a non-empty list of different integers, each from {_fmt(self.low)} to {_fmt(self.high)}"
        noun = "an integer" if self.kind == "int" else "a number"
        return f"must be {noun} from {_fmt(self.low)} to {_fmt(self.high)}"

    def validate(self, value, source, key):
        """Return value converted to its type, or raise ScenarioError."""
        bad = ScenarioError(source, key, value, self.allowed() + f" ({self.help})")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise bad
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise bad
            return value
        if self.kind == "str":
            if not isinstance(value, str) or not value.strip():
                raise bad
            return value
        if self.kind == "intlist":
            if not isinstance(value, list) or not value:
                raise bad
            for x in value:  # (before set(): a nested list or table in the list is unhashable)
                if isinstance(x, bool) or not isinstance(x, int) or not self.low <= x <= self.high:
                    raise bad
            if len(set(value)) != len(value):
                raise bad
            return list(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise bad
        if self.kind == "int":
            if isinstance(value, float):
                if not value.is_integer():
                    raise bad
                value = int(value)
        else:
            value = float(value)
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise bad
        return value

    def describe(self) -> str:
        default = "derived" if self.default is None else toml_value(self.default)
        rng = self.allowed().removeprefix("must be ")
        return f"{self.name} (default {default}; {rng}): {self.help}"


def _fmt(x):
    """A bound as a person reads it: 1,000,000 (thousands separated), 0.5."""
    return "-inf" if x is None else (f"{int(x):,}" if float(x).is_integer() else repr(x))


@dataclass(frozen=True)
class Policy:
    name: str
    code: int  # the number the kernel dispatches on
    help: str
    params: tuple[Param, ...] = ()

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        return None


@dataclass(frozen=True)
class Seat:
    """A validated seat: policy plus every parameter value (defaults filled in)."""

    policy: str
    params: dict


# --- what the report shows beyond the generic sections -------------------------------------------
@dataclass(frozen=True)
class Ratio:
    """sum(num) / sum(den) over games, e.g. challenges won by the challenger per challenge."""

    label: str
    num: str
    den: str | None  # None: a per-game mean
    percent: bool = False
    help: str = ""
    # a rate of a bot's choice (e.g. took the face-up group): (rules, seats) -> whether the bots chose it in this
    # configuration; a rate near 0% or 100% is then named as the bot's habit in the report (analyzer/report/answer.py)
    chosen_by_bots: object = None


@dataclass(frozen=True)
class PerSeat:
    """A per-seat column family `<prefix><s>`: shown as a mean per seat with a histogram."""

    label: str
    prefix: str
    help: str = ""
    percent: bool = False  # a 0/1 column: shown as a rate per seat, without a histogram


@dataclass(frozen=True)
class Histogram:
    """A distribution plot and quantiles of one column."""

    label: str
    column: str
    help: str = ""
    chosen_by_bots: object = None  # as Ratio's: one value taking nearly every game is named as the bot's habit


@dataclass(frozen=True)
class CardPower:
    """How the opening situation moves the outcome: for each category of what a seat was dealt or given
    (e.g. "2 wilds in the opening hand"), a 0/1 column `<prefix><s>` per seat (1: seat s got it). The report
    shows the win rate of a seat in each category, pooled over seats and seat by seat, sorted into a "most
    powerful cards" table. The categories of one CardPower should split every game (exactly one is 1)."""

    label: str  # what the categories are about, e.g. "Wilds in the opening hand"
    categories: tuple  # ((words, column prefix), ...), e.g. (("no wild", "open_w0_"), ...)
    help: str = ""
    # True: the category follows from the deal alone (the same in every seat rotation of a deal), so rotated
    # groups can be read too; False (e.g. a card a policy chose): shown for groups without rotations only
    fixed_by_deal: bool = True

    def columns(self, n_players):
        return [f"{prefix}{s}" for _, prefix in self.categories for s in range(n_players)]


CHOICE_COUNTS = ("n", "options", "forced", "real")  # the columns of a Choices declaration, after its prefix


@dataclass(frozen=True)
class Choices:
    """How real one kind of decision is (`analyzer profile`): the kernel counts, over the game and all its seats,
    the decisions of this kind (`<prefix>n`), their legal options summed (`<prefix>options`), the decisions with
    one legal option (`<prefix>forced`: not a choice), and the decisions whose best and second-best options, by
    the game's one-step evaluation, differ by more than its margin (`<prefix>real`). `help` says what an option
    is, which evaluation and which margin. The kernel counts only when the encoded rules ask
    (rules["count_choices"] True: set by the profile after validation, never by a scenario, which may not write
    the key); otherwise the columns stay 0, and a run's report does not show them."""

    label: str  # the kind of decision, e.g. "Splits"
    prefix: str  # e.g. "ch_split_"
    help: str = ""

    def columns(self, n_players):
        return [f"{self.prefix}{k}" for k in CHOICE_COUNTS]


AVOID = "avoid"  # the policy parameter of restricted play (avoid_param)


def avoid_param(kinds, what="card"):
    """The `avoid` parameter of a policy that restricted play can restrict (`analyzer profile`): the kind of
    `what` (one of the game's `card_kinds`) the seat does not play while it has another legal option; "none"
    (the default) plays as the policy always has."""
    return Param(AVOID, "choice", "none", f"restricted play: the kind of {what} this seat does not play while it "
                 "has another legal option ('none': no restriction)", choices=("none",) + tuple(kinds))


def drama_metrics(turns="turns"):
    """The drama metrics every game declares (its kernel fills the columns of analyzer.games.drama): means
    with intervals (paired differences in comparisons) and distributions."""
    from analyzer.games.drama import COLUMNS  # noqa: F401  (the column names below)

    return (
        Ratio("Lead changes per game", "lead_changes", None,
              help="how often the sole lead passed to another seat (team); a tie for the lead is not a change"),
        Ratio(f"Decided at ({turns[:-1]})", "decided_at", None,
              help=f"the {turns[:-1]} from which the eventual winner never again trailed (0: never trailed)"),
        Ratio("Decided at, share of the game", "decided_at", "length", percent=True,
              help="decided_at over length, as a ratio of totals over all games"),
        Ratio("Winner's comeback", "comeback", None, help="the largest deficit the winner came back from"),
        Ratio("Final margin", "final_margin", None, help="the winner's lead over the best other at the end"),
        Histogram("Lead changes per game", "lead_changes"),
        Histogram(f"Decided at ({turns[:-1]})", "decided_at"),
        Histogram("Winner's comeback", "comeback"),
        Histogram("Final margin", "final_margin"),
    )


def added_columns(game, n_players):
    """The drama, card-power and choices columns (issues 12 and 32), which come last in every game's columns, in
    that order: the golden tests check that the columns before them are unchanged."""
    from analyzer.games.drama import COLUMNS

    out = list(COLUMNS)
    for kind in (CardPower, Choices):
        for m in game.metrics:
            if isinstance(m, kind):
                out += m.columns(n_players)
    have = game.columns(n_players)
    out = [c for c in out if c in have]
    assert have[len(have) - len(out):] == out, "the drama, card-power and choices columns come last"
    return out


@dataclass
class Game:
    name: str
    title: str
    min_players: int
    max_players: int
    summary: str
    settings: tuple[Param, ...]
    policies: tuple[Policy, ...]
    columns: Callable[[int], list[str]]
    resolve_rules: Callable[[dict, int, str], dict]  # (rules with defaults, n_players, source) -> rules
    encode: Callable[[dict, Sequence[Seat]], tuple]
    batch: Callable  # numba kernel: (seed as uint64, first_game, *encoded, out)
    play_traced: Callable[[tuple, int, int], tuple]  # -> (events, result row)
    format_event: Callable[[dict], str]
    length_label: str = "rounds"
    end_conditions: tuple[str, ...] = ("normal end",)
    metrics: tuple = ()
    default_policy: str = "random"
    docs: str = ""
    # seats of each team for a player count, e.g. ((0, 2), (1, 3)); None: every seat plays for itself
    teams: Callable[[int], tuple[tuple[int, ...], ...] | None] = lambda n: None
    # the skill ladder, weakest first, its top the game's strongest policy (search where it has one):
    # ({"label", "policy", parameters...}, ...); empty: every policy, in the order declared
    ladder: tuple = ()
    # each seat's final score, for margins (`analyzer profile`): (column prefix, 1 if more is better, -1 if fewer
    # is better: cards held), or None
    score: tuple[str, int] | None = None
    # restricted play (`analyzer profile`): the kinds of card (or move) a seat can be told to avoid, through the
    # `avoid` parameter (avoid_param) of every policy that has it
    card_kinds: tuple[str, ...] = ()
    # a deck without one of card_kinds, if the rules can say it: (validated rules, kind, n_players) -> rules, or
    # None when they cannot (then the profile shows restricted play alone)
    deck_without: Callable[[dict, str, int], dict | None] | None = None
    # the settings that cannot change any game under the others: (validated rules, seats, n_players) ->
    # [(path, why)], path "rules.<setting>" or "seats.<s>.<parameter>" (s: the seat as played), read off what the
    # kernels read; analyzer/idle_settings.py warns of those a scenario writes
    idle: Callable[[dict, Sequence[Seat], int], list[tuple[str, str]]] = lambda rules, seats, n: []
    # the trace events, declared once (analyzer.games.events.Events), the module that declares them (named in the
    # docs), and encoded -> the context their decoding and checks need (the players, the deck, ...)
    events: Any = None
    events_source: str = ""
    trace_context: Callable[[tuple], Any] | None = None
    # with a `search` policy: the search kernel's block entry, (seed as uint64, first_game, lo, hi, *encoded, out)
    # -> the tree search's counters (analyzer/games/search/tree.py, COUNT_*), for `analyzer bench`
    search_block: Callable | None = None
    extra: dict = field(default_factory=dict)

    def run_batch(self, encoded, seed, first_game, out):
        """Fill out[i] (int64 rows of `columns`) with the result of game first_game + i."""
        self.batch(np.uint64(seed), first_game, *encoded, out)

    def trace(self, encoded, seed, game_index):
        """Every event of one game: the game run_batch plays at that index."""
        return self.play_traced(encoded, seed, game_index)[0]

    def setting(self, name):
        for p in self.settings:
            if p.name == name:
                return p
        return None

    def policy(self, name):
        for p in self.policies:
            if p.name == name:
                return p
        return None

    def validate_rules(self, rules: dict, n_players: int, source: str) -> dict:
        """Check rule keys and values, fill defaults, then let the game check combinations."""
        out = {}
        for key, value in rules.items():
            p = self.setting(key)
            if p is None:
                raise ScenarioError(source, f"rules.{key}", value,
                                    "unknown rule setting; known: " + ", ".join(s.name for s in self.settings))
            out[key] = p.validate(value, source, f"rules.{key}")
        for p in self.settings:
            out.setdefault(p.name, p.default)
        return self.resolve_rules(out, n_players, source)

    def validate_seat(self, spec: dict, source: str, key: str) -> Seat:
        name = spec.get("policy", MISSING)
        pol = self.policy(name) if isinstance(name, str) else None
        if pol is None:
            raise ScenarioError(source, f"{key}.policy", name,
                                "must be one of " + ", ".join(toml_value(p.name) for p in self.policies))
        params = {}
        for k, v in spec.items():
            if k == "policy":
                continue
            p = pol.param(k)
            if p is None:
                known = ", ".join(p.name for p in pol.params) or "none"
                raise ScenarioError(source, f"{key}.{k}", v,
                                    f"not a parameter of policy {pol.name!r} (its parameters: {known})")
            params[k] = p.validate(v, source, f"{key}.{k}")
        for p in pol.params:
            params.setdefault(p.name, p.default)
        return Seat(pol.name, params)
