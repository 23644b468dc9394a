"""Each game's trace events, declared once: type, meaning and fields (name, kind, meaning).

A traced kernel writes an event as one int64 row: column 0 its code (1, 2, ... in declaration order),
then the fields' slots in declaration order from column 1 (`emit(st, tr, on, EV_X, slot, slot, ...)`,
exactly as many as the event declares: tests/test_conformance.py checks every call site), and the
fields' lists one after another from column `list_at`. Everything else reads the declaration:
- `define(globals())` assigns the codes (EV_DECK = 1, ...) and TRACE_FIXED (= list_at) in the module;
- `decode(row, ctx)` turns a row into the JSON-ready dict of `analyzer trace` (ctx: the game's
  `trace_context`, which holds the players, the deck, ...);
- `table()` is the docs table (docs/<game>.md, between the markers; `python -m analyzer.games.events`
  rewrites it, and a test checks it is current);
- `check(event, ctx)` checks every field of a decoded event against its kind (a seat is 0..players-1,
  a card is a card of the deck, an enum value is one of its names...): the conformance test.

A field's kind says how many slots it takes, how many list items, how it decodes and what a valid
value is. The kinds below serve every game; a game declares its own (its cards, letters, teams) as
subclasses of Kind in its events module.
"""
import re
from pathlib import Path

import numpy as np


class Kind:
    """A field of one slot holding an integer; subclasses override `value` and `valid`."""

    label = "int"
    slots = 1

    def items(self, slots, ctx):
        """List items the field reads from the list area."""
        return 0

    def decode(self, slots, items, ctx, ev, raw):
        """The JSON value from the field's slots and list items; ev: the fields decoded before it, raw: every
        field's slot (a tuple of them for a field of several), by name."""
        return self.value(int(slots[0]), ctx)

    def value(self, x, ctx):
        return x

    def valid(self, v, ctx):
        """'' if v is a value of this kind, else what is wrong."""
        return "" if isinstance(v, int) and not isinstance(v, bool) else f"{v!r} is not an integer"


class Int(Kind):
    """An integer in lo..hi (hi None: no bound; a callable: hi(ctx))."""

    def __init__(self, lo=0, hi=None):
        self.lo, self.hi = lo, hi
        self.label = "int" if hi is None or callable(hi) else f"{lo}..{hi}"

    def valid(self, v, ctx):
        wrong = super().valid(v, ctx)
        if wrong:
            return wrong
        hi = self.hi(ctx) if callable(self.hi) else self.hi
        if v < self.lo or (hi is not None and v > hi):
            return f"{v} is outside {self.lo}..{hi if hi is not None else ''}"
        return ""


class Seat(Kind):
    """A seat, 0..players-1 (with none=True, a negative slot is null)."""

    def __init__(self, none=False):
        self.none = none
        self.label = "seat or null" if none else "seat"

    def value(self, x, ctx):
        return None if self.none and x < 0 else x

    def valid(self, v, ctx):
        if v is None and self.none:
            return ""
        ok = isinstance(v, int) and not isinstance(v, bool) and 0 <= v < ctx.players
        return "" if ok else f"{v!r} is not a seat of {ctx.players}"


class Bool(Kind):
    label = "bool"

    def value(self, x, ctx):
        return bool(x)

    def valid(self, v, ctx):
        return "" if isinstance(v, bool) else f"{v!r} is not true or false"


class Enum(Kind):
    """One of a few names: names maps each code to its name (a sequence: code = index)."""

    def __init__(self, names):
        self.names = dict(enumerate(names)) if isinstance(names, (list, tuple)) else dict(names)
        self.label = ", ".join(f"`{v}`" for v in dict.fromkeys(self.names.values()))

    def value(self, x, ctx):
        return self.names[x]

    def valid(self, v, ctx):
        return "" if v in self.names.values() else f"{v!r} is not one of {list(self.names.values())}"


class Const(Kind):
    """A value the event type always has (no slot): e.g. the kind of a penalty declared as its own event."""

    slots = 0

    def __init__(self, v):
        self.v = v
        self.label = f"`{v}`" if isinstance(v, str) else "`[]`" if v == [] else "`null`" if v is None else repr(v)

    def decode(self, slots, items, ctx, ev, raw):
        return list(self.v) if isinstance(self.v, list) else self.v  # (a list: a new one per event)

    def valid(self, v, ctx):
        return "" if v == self.v else f"{v!r} is not {self.v!r}"


class ListOf(Kind):
    """A list of `item`s: its slot holds the length, the items are in the list area."""

    def __init__(self, item):
        self.item = item
        self.label = f"[{item.label}]"

    def items(self, slots, ctx):
        return int(slots[0])

    def decode(self, slots, items, ctx, ev, raw):
        return [self.item.value(int(x), ctx) for x in items]

    def valid(self, v, ctx):
        if not isinstance(v, list):
            return f"{v!r} is not a list"
        return next((w for w in (self.item.valid(x, ctx) for x in v) if w), "")


class PerSeat(ListOf):
    """One `item` per seat, in seat order, from the list area (no slot)."""

    slots = 0

    def __init__(self, item):
        super().__init__(item)
        self.label = f"[{item.label}] per seat"

    def items(self, slots, ctx):
        return ctx.players

    def valid(self, v, ctx):
        if not isinstance(v, list) or len(v) != ctx.players:
            return f"{v!r} is not a list of one value per seat"
        return super().valid(v, ctx)


class FlaggedSeats(Kind):
    """The seats whose flag (0/1, one per seat in seat order in the list area) is set, as a list."""

    slots = 0
    label = "[seat]"

    def items(self, slots, ctx):
        return ctx.players

    def decode(self, slots, items, ctx, ev, raw):
        return [s for s in range(ctx.players) if items[s]]

    def valid(self, v, ctx):
        if not isinstance(v, list) or v != sorted(set(v)):
            return f"{v!r} is not a list of distinct seats in order"
        return next((w for w in (Seat().valid(s, ctx) for s in v) if w), "")


class Derived(Kind):
    """A value computed from the other fields (no slot): fn(ev, raw, ctx), ev the decoded fields before it, raw
    every field's slot(s); checked as `kind`."""

    slots = 0

    def __init__(self, fn, kind):
        self.fn, self.kind = fn, kind
        self.label = kind.label

    def decode(self, slots, items, ctx, ev, raw):
        return self.fn(ev, raw, ctx)

    def valid(self, v, ctx):
        return self.kind.valid(v, ctx)


class Event:
    """One event type: its code's name (EV_...), its type in the trace, when it happens, and its fields
    (name, kind, meaning) in slot order (also the order of its lists and of the decoded dict)."""

    def __init__(self, code_name, type_, meaning, *fields):
        self.code_name, self.type, self.meaning = code_name, type_, meaning
        self.fields = tuple(fields)
        self.slots = sum(kind.slots for _, kind, _ in fields)
        self.names = [name for name, _, _ in fields]
        if len(set(self.names)) != len(self.names) or "type" in self.names:
            raise ValueError(f"{code_name}: a field name repeats (or is 'type')")
        self.plan = _plan(self.fields)


# how Events.decode reads a field in one pass: its slot as it is, its slot through kind.value, or a list whose
# length is its slot, each item through kind.item.value (what Kind.decode and ListOf.decode do)
PLAIN, VALUE, LIST = range(3)


def _plan(fields):
    """((name, how, kind) per field) when every field is read as Kind or ListOf reads it, one slot each (no field
    then needs another's raw slots, as a Derived field or a kind of its own may); else None: decode's two passes."""
    plan = []
    for name, kind, _ in fields:
        cls = type(kind)
        if kind.slots != 1:
            return None
        if cls.decode is Kind.decode and cls.items is Kind.items:
            plan.append((name, PLAIN if cls.value is Kind.value else VALUE, kind))
        elif cls.decode is ListOf.decode and cls.items is ListOf.items:
            plan.append((name, LIST, kind.item))
        else:
            return None
    return tuple(plan)


class Events:
    """A game's events: a row holds `slots` fields (columns 1..slots) and its lists from column slots + 1."""

    def __init__(self, title, slots, events, width_name="TRACE_FIXED"):
        self.title = title
        self.events = tuple(events)
        self.list_at = slots + 1
        self.width_name = width_name
        self.by_code = {code: ev for code, ev in enumerate(self.events, start=1)}
        self.codes = {ev.code_name: code for code, ev in self.by_code.items()}
        for ev in self.events:
            if ev.slots > slots:
                raise ValueError(f"{title}: {ev.code_name} has {ev.slots} slots, a row {slots}")

    def define(self, namespace):
        """EV_... = its code for every event, and TRACE_FIXED (the list area's first column)."""
        for name in [*self.codes, self.width_name]:
            if name in namespace:
                raise ValueError(f"{namespace.get('__name__')}.{name} is defined by hand and by the events")
        namespace.update(self.codes)
        namespace[self.width_name] = self.list_at

    def decode(self, row, ctx):
        """The event of one trace row, as a JSON-ready dict (its type, then its fields in order). row: a list of
        ints (decode_rows' rows), or an int64 array, read as one (its slices and numpy integers would cost
        several times the decoding)."""
        if not isinstance(row, list):
            row = row.tolist()
        code = row[0]
        if code not in self.by_code:
            raise ValueError(f"unknown {self.title} event code {code}")
        ev = self.by_code[code]
        if ev.plan is not None:  # (the plain fields, read in one pass: most events of a trace)
            out = {"type": ev.type}
            slot, at = 1, self.list_at
            for name, how, kind in ev.plan:
                x = row[slot]
                slot += 1
                if how == PLAIN:
                    out[name] = x
                elif how == VALUE:
                    out[name] = kind.value(x, ctx)
                else:
                    out[name] = [kind.value(c, ctx) for c in row[at:at + x]]
                    at += x
            return out
        # every field's slots and list items first: a derived field may read any slot (raw, by field name)
        parts, raw = [], {}
        slot, at = 1, self.list_at
        for name, kind, _ in ev.fields:
            slots = row[slot:slot + kind.slots]
            slot += kind.slots
            n = kind.items(slots, ctx)
            parts.append((name, kind, slots, row[at:at + n]))
            at += n
            if kind.slots:
                raw[name] = int(slots[0]) if kind.slots == 1 else tuple(int(x) for x in slots)
        out = {"type": ev.type}
        for name, kind, slots, items in parts:
            out[name] = kind.decode(slots, items, ctx, out, raw)
        return out

    def decode_rows(self, rows, ctx, types=None):
        """The events of a game's trace (its int64 rows, record_events'), decoded; types: only the events of these
        types (a reader that needs a few of them decodes no other)."""
        if types is not None:
            unknown = set(types) - {ev.type for ev in self.events}
            if unknown:
                raise ValueError(f"{self.title} has no event type {sorted(unknown)}")
            rows = rows[np.isin(rows[:, 0], [code for code, ev in self.by_code.items() if ev.type in types])]
        return [self.decode(row, ctx) for row in rows[:, :self._widest(rows, ctx)].tolist()]

    def _widest(self, rows, ctx):
        """The columns the rows' fields and lists take, at most (a trace buffer is as wide as the longest list any
        game could have: the rest is padding, which would cost most of the decoding); None (every column) when a
        kind counts its items from its slots its own way."""
        codes = rows[:, 0]
        widest = self.list_at
        for code in np.unique(codes).tolist():
            ev = self.by_code.get(code)
            if ev is None:
                return None  # (decode says so)
            slot, items = 1, 0
            for _, kind, _ in ev.fields:
                counts = type(kind).items
                if counts is ListOf.items and kind.slots == 1:  # (the slot is the list's length)
                    items = items + rows[codes == code, slot]
                elif kind.slots == 0:  # (its items depend on ctx alone: it has no slot)
                    items = items + kind.items([], ctx)
                elif counts is not Kind.items:
                    return None
                slot += kind.slots
            widest = max(widest, self.list_at + int(np.max(items)))
        return widest

    def event_of(self, ev):
        """The declared Event a decoded event is (its type, its field names and its Const fields), or None."""
        for e in self.events:
            if (e.type == ev.get("type") and list(ev) == ["type", *e.names]
                    and all(ev[name] == kind.v for name, kind, _ in e.fields if isinstance(kind, Const))):
                return e
        return None

    def check(self, ev, ctx):
        """What is wrong with a decoded event (its type, its field names, each field's value), or ''."""
        e = self.event_of(ev)
        if e is None:
            declared = [e.names for e in self.events if e.type == ev.get("type")]
            return f"{ev.get('type')!r} event {ev} is none declared (fields: {declared})"
        bad = [f"{name}: {w}" for name, kind, _ in e.fields if (w := kind.valid(ev[name], ctx))]
        return f"{e.code_name} {ev}: " + "; ".join(bad) if bad else ""

    def table(self):
        """The docs table: one row per event, its fields with their kinds and meanings."""
        lines = ["| type | when | fields |", "|---|---|---|"]
        for ev in self.events:
            fields = "; ".join(f"`{name}` ({kind.label}): {meaning}" if meaning else f"`{name}` ({kind.label})"
                               for name, kind, meaning in ev.fields)
            lines.append(f"| `{ev.type}` | {ev.meaning} | {fields} |")
        return "\n".join(lines)


BEGIN = "<!-- the events table is generated from {source}: python -m analyzer.games.events -->"
END = "<!-- end of the generated events table -->"


def docs_block(game):
    return "\n".join([BEGIN.format(source=game.events_source), game.events.table(), END])


def docs_with_table(text, game):
    """The docs page's text with its generated events table replaced by the declaration's."""
    pattern = re.compile(re.escape(BEGIN.split("{")[0]) + r".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise ValueError(f"{game.docs} has no generated events table (markers: {END})")
    return pattern.sub(lambda m: docs_block(game), text, count=1)


def main():
    """Rewrite every game's events table in its docs page."""
    from analyzer.games import game_names, get_game

    root = Path(__file__).resolve().parents[2]
    for name in game_names():
        game = get_game(name)
        if game.events is None:
            continue
        path = root / game.docs
        text = path.read_text()
        new = docs_with_table(text, game)
        if new != text:
            path.write_text(new)
            print(f"{game.docs}: events table updated")


if __name__ == "__main__":
    main()
