"""Named layouts of the games' int64 arrays, each declared once from (name, size, meaning) pieces.

A kernel keeps a game's state in one int64 array and writes its results into an int64 row, and indexes
both with constants. Each of those arrays is declared once, as its pieces in order; the offsets are
derived from the sizes, so a field is added (or grown) in one place.

- `Layout`: an array of fixed size (a game's state `st`). `define(globals())` assigns every piece's
  offset to a module-level name (the piece's name: `grep O_HAND` finds its row in the declaration), as
  plain ints, which numba reads as compile-time constants: the compiled code is that of hand-written
  offsets. A piece of size 0 is a marker (where a part of the array starts).
- `Row`: a result row whose blocks grow with the players (SEATS: one column per seat) or teams (TEAMS).
  Its pieces give both the column names (`names(n, t)`, the game's `columns`) and the constants the
  kernel writes with: a piece's constant is (seats, teams, fixed) before it, and `col(piece, n, t)`
  (numba, inlined and folded) is its column for n seats and t teams (`col_llvm`: the same, inlined by LLVM,
  cheaper to compile where it has many call sites); a game played by a fixed number of
  players defines the columns themselves (`define(globals(), players=2)`).

`defined_names()` lists every name a layout defined, with its layout: tests check that the kernels'
offsets all come from a declaration (tests/test_layouts.py).
"""
from numba import njit

SEATS = "seats"  # a Row piece of one column per seat
TEAMS = "teams"  # a Row piece of one column per team

_DEFINED = {}  # (module, name) -> the Layout or Row that defined it (for tests)


def defined_names(module):
    """{name: the Layout or Row that defined it} of a module (its __name__)."""
    return {name: owner for (mod, name), owner in _DEFINED.items() if mod == module}


def _register(namespace, names, owner):
    module = namespace.get("__name__")
    for name, value in names.items():
        before = _DEFINED.get((module, name))
        # (the same layout defining it again: the module reloaded)
        if name in namespace and (before is None or before is not owner and before.title != owner.title):
            raise ValueError(f"{module}.{name} is defined twice: by a layout and by hand, or by two layouts")
        namespace[name] = value
        _DEFINED[module, name] = owner


class Layout:
    """An int64 array of fixed size: pieces (name, size, meaning) in order, from offset `start`; the
    name `size_name` is the whole size."""

    def __init__(self, title, pieces, size_name, start=0):
        self.title = title
        self.pieces = tuple((name, int(size), meaning) for name, size, meaning in pieces)
        self.size_name = size_name
        self.offsets = {}
        at = start
        for name, size, _ in self.pieces:
            if name in self.offsets:
                raise ValueError(f"{title}: {name} declared twice")
            if size < 0:
                raise ValueError(f"{title}: {name} has a negative size")
            self.offsets[name] = at
            at += size
        self.size = at

    def define(self, namespace, aliases=None):
        """Assign every offset, the size and the aliases ({alias: name}) in `namespace` (a module's globals())."""
        names = {**self.offsets, self.size_name: self.size}
        names.update({alias: self.offsets[name] for alias, name in (aliases or {}).items()})
        _register(namespace, names, self)

    def table(self):
        """The layout as a Markdown table (offset, name, size, meaning)."""
        lines = ["| offset | name | size | meaning |", "|---|---|---|---|"]
        for name, size, meaning in self.pieces:
            lines.append(f"| {self.offsets[name]} | `{name}` | {size} | {meaning} |")
        lines.append(f"| {self.size} | `{self.size_name}` | | the whole array |")
        return "\n".join(lines)


class Row:
    """A result row: pieces (name, columns, count, meaning) in order. `columns` is a column name, or a tuple
    of them for a block of several; with count SEATS or TEAMS each is a prefix, numbered per seat or team
    (the tuple's prefixes one block after the other); count 1: the columns themselves."""

    def __init__(self, title, pieces):
        self.title = title
        self.pieces = []
        self.positions = {}
        seats = teams = fixed = 0
        for name, columns, count, meaning in pieces:
            columns = (columns,) if isinstance(columns, str) else tuple(columns)
            if count not in (1, SEATS, TEAMS):
                raise ValueError(f"{title}: {name}: count is 1, SEATS or TEAMS")
            if name in self.positions:
                raise ValueError(f"{title}: {name} declared twice")
            self.positions[name] = (seats, teams, fixed)
            self.pieces.append((name, columns, count, meaning))
            if count == SEATS:
                seats += len(columns)
            elif count == TEAMS:
                teams += len(columns)
            else:
                fixed += len(columns)
        self.width_form = (seats, teams, fixed)

    def define(self, namespace, players=None):
        """Assign each piece's position (seats, teams, fixed before it) in `namespace`, for `col`; for a game
        of a fixed number of players (and no teams), its column itself, a plain int."""
        if players is None:
            _register(namespace, dict(self.positions), self)
        else:
            _register(namespace, {name: self.column(name, players) for name in self.positions}, self)

    def names(self, n, t=0):
        """The column names for n seats and t teams, in order."""
        out = []
        for _, columns, count, _ in self.pieces:
            if count == 1:
                out += columns
            else:
                units = n if count == SEATS else t
                out += [f"{prefix}{u}" for prefix in columns for u in range(units)]
        return out

    def column(self, name, n, t=0):
        seats, teams, fixed = self.positions[name]
        return seats * n + teams * t + fixed

    def width(self, n, t=0):
        seats, teams, fixed = self.width_form
        return seats * n + teams * t + fixed


@njit(cache=True, inline="always")
def col(piece, n, t=0):
    """The column of a Row piece (its defined constant) for n seats and t teams (numba folds it)."""
    return piece[0] * n + piece[1] * t + piece[2]


@njit(cache=True, forceinline=True)
def col_llvm(piece, n, t=0):
    """col, inlined by LLVM instead of by numba: compiled once per argument types, its piece typed plainly (jit_setup),
    where numba types col again at each call site (Fight Song has 65: 2 s of a cold skill scenario's 37 s of compile
    CPU). Bring the Noize keeps col: its plain kernel ran 1-2% slower with this one (docs/performance.md,
    twenty-first session)."""
    return col(piece, n, t)
