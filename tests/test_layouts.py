"""The games' array layouts (analyzer/games/layout.py, issue 27): every offset the kernels use comes from a
declaration, and the declarations derive what they promise. Over the shipped games and those that live in
tests/ (the toy of docs/adding-a-game.md)."""
import ast
import importlib
import sys
from pathlib import Path

import pytest

from analyzer.games import game_module, game_names, get_game
from analyzer.games.layout import SEATS, TEAMS, Layout, Row, defined_names
from toy_helpers import TEST_GAMES

GAMES = game_names() + list(TEST_GAMES)
pytestmark = pytest.mark.usefixtures("test_games")


def game_modules(name):
    """(module name, path) of every module of a game's package."""
    get_game(name)  # (imported by the registry)
    package = game_module(name)
    folder = Path(sys.modules[package].__file__).parent
    return [(f"{package}.{p.stem}" if p.stem != "__init__" else package, p) for p in sorted(folder.glob("*.py"))]


def hand_assigned(path):
    """Module-level names a file assigns by hand: {name: line}."""
    out = {}
    for node in ast.parse(path.read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    out[n.id] = node.lineno
    return out


def layout_names(name):
    """{name: layout} of every name a layout defined in the game's modules (importing them defines them)."""
    out = {}
    for module, _ in game_modules(name):
        importlib.import_module(module)
        out.update(defined_names(module))
    return out


def prefix(name):
    """'O_' of O_HAND; None for a name without an underscore."""
    return name[:name.index("_") + 1] if "_" in name else None


@pytest.mark.parametrize("name", GAMES)
def test_every_offset_comes_from_a_declaration(name):
    """A game's layouts name their offsets with a few prefixes (O_, S_, C_, R_, IB_...): no module of the game
    assigns a name with one of them by hand (an offset counted by hand, or a layout's name shadowed)."""
    defined = layout_names(name)
    assert defined, f"{name} declares no layout"
    prefixes = {prefix(n) for n, owner in defined.items() if n not in (getattr(owner, "size_name", None),)}
    for module, path in game_modules(name):
        for assigned, line in hand_assigned(path).items():
            assert prefix(assigned) not in prefixes, (
                f"{path}:{line}: {assigned} is assigned by hand; declare it in a layout "
                f"({', '.join(sorted({o.title for o in defined.values()}))})")


@pytest.mark.parametrize("name", GAMES)
def test_the_result_row_is_the_games_columns(name):
    game = get_game(name)
    rows = [o for o in layout_names(name).values() if isinstance(o, Row)]
    assert len(set(map(id, rows))) == 1, f"{name} declares its result row once"
    row = rows[0]
    for n in range(game.min_players, game.max_players + 1):
        t = len(game.teams(n) or ()) or n
        assert row.names(n, t) == game.columns(n)
        assert row.width(n, t) == len(game.columns(n))


def test_a_layout_derives_consecutive_offsets_and_its_size():
    ns = {"__name__": "test_layout_a"}
    lay = Layout("test", [("O_A", 3, ""), ("O_MARK", 0, "a marker"), ("S_B", 1, ""), ("O_C", 5, "")], "T_SIZE")
    lay.define(ns, aliases={"S_ALIAS": "S_B"})
    assert (ns["O_A"], ns["O_MARK"], ns["S_B"], ns["O_C"], ns["T_SIZE"], ns["S_ALIAS"]) == (0, 3, 3, 4, 9, 3)
    assert "| 4 | `O_C` | 5 |" in lay.table()
    with pytest.raises(ValueError, match="twice"):
        Layout("dup", [("O_A", 1, ""), ("O_A", 1, "")], "SIZE")
    hand = {"__name__": "test_layout_b", "O_A": 0}
    with pytest.raises(ValueError, match="by hand"):
        Layout("test", [("O_A", 1, "")], "T_SIZE").define(hand)


def test_a_row_derives_its_columns_for_any_seats_and_teams():
    row = Row("test", [("R_WIN", "win_", SEATS, ""), ("R_N", "n", 1, ""), ("R_T", ("tp_", "tx_"), TEAMS, ""),
                       ("R_D", ("a", "b"), 1, ""), ("R_END", (), 1, "")])
    assert row.names(3, 2) == ["win_0", "win_1", "win_2", "n", "tp_0", "tp_1", "tx_0", "tx_1", "a", "b"]
    ns = {"__name__": "test_row"}
    row.define(ns)
    for n, t in ((2, 2), (3, 3), (4, 2)):
        names = row.names(n, t)
        assert names.index("n") == row.column("R_N", n, t) == ns["R_N"][0] * n + ns["R_N"][1] * t + ns["R_N"][2]
        assert names.index("tp_0") == row.column("R_T", n, t) and names.index("a") == row.column("R_D", n, t)
        assert row.column("R_END", n, t) == row.width(n, t) == len(names)
    fixed = {"__name__": "test_row_fixed"}
    row.define(fixed, players=2)
    assert fixed["R_N"] == 2 and fixed["R_END"] == 5  # no teams: the team blocks are empty
