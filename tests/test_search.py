"""The search driver (analyzer/games/search) on the toy game of tests/search_toy.py, checked against the rules
written in its docstring; the specialisation's cache; and the layers of the games' modules (no engine imports
its lookahead, no import cycle within a game)."""
import ast
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import search_toy as T
from analyzer.games.search import contract, specialise
from analyzer.rng import new_streams, next_u64, shuffle

SEARCH = specialise(T, "toy")
ROOT = Path(__file__).parent.parent


def _search(pile, samples, horizon=0, edge=0, seat=0, seed=1):
    root = T.new_position(pile, seat)
    rng = new_streams(seed, 0, 3)
    cand = np.zeros((T.MAX_TAKE, 1), dtype=np.int64)
    sums = np.zeros(T.MAX_TAKE, dtype=np.int64)
    look = T.new_look()
    before = root.copy()
    best = SEARCH.lookahead(root, samples, horizon, edge, rng, cand, sums, np.zeros_like(root), np.zeros_like(root),
                            look)
    assert np.array_equal(root, before)  # the search never changes the real game
    m = min(T.MAX_TAKE, len(pile))
    return SimpleNamespace(best=best, sums=sums[:m], rng=rng, log=look[1], m=m)


def _playouts(log):
    """The logged playouts: (key, decision, pile) each."""
    rows = T.LOG_ROWS + T.LOG_ROW * np.arange(log[T.LOG_N])
    return [(log[r], log[r + 1], log[r + 2:r + 2 + T.MAX_PILE]) for r in rows]


def _outcome(pile, take, horizon):
    """The toy's rules, in Python: seat 0 takes `take` cards, then each seat one card in turn until the pile
    is empty or `horizon` turns are played (0: no limit); seat 0's score minus seat 1's."""
    scores, top, seat, turns = [0, 0], 0, 0, 0
    while top < len(pile) and (turns == 0 or horizon == 0 or turns < horizon):
        count = take if turns == 0 else 1
        scores[seat] += sum(pile[top:top + count])
        top, seat, turns = top + count, 1 - seat, turns + 1
    return scores[0] - scores[1]


def _choice(sums, edge):
    """The driver's rule: the best sum, ties keeping the earlier; decision 0 stands unless beaten by > edge."""
    best = 0
    for i in range(1, len(sums)):
        if sums[i] > sums[best] + (edge if best == 0 else 0):
            best = i
    return best


def test_each_decision_sums_its_outcomes_and_the_best_is_made():
    # four cards of value 1: taking 1 ends 2-2 (0), taking 2 ends 3-1 (+2), taking 3 ends 3-1 (+2)
    res = _search([1, 1, 1, 1], samples=5)
    assert res.sums.tolist() == [0, 10, 10]
    assert res.best == 1  # the tie of 2 and 3 keeps the earlier


@pytest.mark.parametrize("edge, best", [(10, 0), (9, 1)])
def test_the_default_decision_stands_unless_beaten_by_more_than_the_edge(edge, best):
    assert _search([1, 1, 1, 1], samples=5, edge=edge).best == best


@pytest.mark.parametrize("horizon, sums", [(1, [1, 2, 3]), (2, [0, 1, 2]), (0, [1, 1, 3])])
def test_the_playouts_stop_at_the_horizon(horizon, sums):
    # five cards of value 1; horizon 1: the decision alone, 2: the decision and the reply, 0: to the end
    assert _search([1] * 5, samples=1, horizon=horizon).sums.tolist() == sums


@pytest.mark.parametrize("seed", range(12))
def test_the_sums_are_the_outcomes_of_the_logged_playouts_and_the_choice_follows_the_rule(seed):
    pile = [5, -3, 8, 1, -7, 2, 9, -4]
    samples, horizon = 4, seed % 4
    for edge in (0, 3, 8, 40):
        res = _search(pile, samples, horizon, edge, seed=seed)
        sums = [0] * res.m
        for _, take, dealt in _playouts(res.log):
            sums[take - 1] += _outcome(list(dealt[:len(pile)]), take, horizon)
        assert res.sums.tolist() == sums
        assert res.best == _choice(sums, edge)


def test_the_edge_protects_only_the_default_decision():
    # on these redeals the rule chooses, on some seeds, otherwise than with no edge, and on others otherwise
    # than with the edge against every earlier best: the driver makes the rule's choice on all of them
    pile = [5, -3, 8, 1, -7, 2, 9, -4]
    edge = 6
    unlike_no_edge = unlike_edge_always = 0
    for seed in range(40):
        res = _search(pile, 3, 2, edge=edge, seed=seed)
        sums = res.sums.tolist()
        edge_always = 0
        for i in range(1, len(sums)):
            if sums[i] > sums[edge_always] + edge:
                edge_always = i
        assert res.best == _choice(sums, edge)
        unlike_no_edge += res.best != _choice(sums, 0)
        unlike_edge_always += res.best != edge_always
    assert unlike_no_edge > 0 and unlike_edge_always > 0


@pytest.mark.parametrize("seat", [0, 1])
def test_every_decision_is_tried_on_the_same_redeals_drawn_on_the_seats_stream(seat):
    pile = [3, 1, 4, 1, 5, 9, 2, 6]
    samples = 6
    res = _search(pile, samples, seat=seat, seed=7)
    playouts = _playouts(res.log)
    assert len(playouts) == samples * res.m and res.log[T.LOG_BEGIN] == 1
    # the same draws, in the driver's order: per redeal, the redeal's shuffle, then one key
    rng = new_streams(7, 0, 3)
    for s in range(samples):
        dealt = np.array(pile, dtype=np.int64)
        shuffle(rng, 1 + seat, dealt, len(pile))
        key = next_u64(rng, 1 + seat)
        group = playouts[s * res.m:(s + 1) * res.m]
        assert [take for _, take, _ in group] == list(range(1, res.m + 1))
        for logged_key, _, logged_pile in group:  # common random numbers: one redeal and key for all
            assert logged_key == np.array([key]).view(np.int64)[0] and logged_pile[:len(pile)].tolist() == dealt.tolist()
    assert np.array_equal(res.rng, rng)  # nothing else drawn, and no other stream touched
    assert len({key for key, _, _ in playouts}) == samples


def test_a_single_decision_is_made_at_once_with_nothing_drawn():
    res = _search([4], samples=8)
    assert res.best == 0 and res.log[T.LOG_BEGIN] == 0 and res.log[T.LOG_N] == 0
    assert np.array_equal(res.rng, new_streams(1, 0, 3))


def test_specialise_names_what_a_game_lacks():
    ops = SimpleNamespace(**{name: getattr(T, name) for name in contract.NAMES if name != "redeal"})
    with pytest.raises(TypeError, match="redeal"):
        specialise(ops, "incomplete")


def test_a_specialisation_is_cached_on_disk(tmp_path):
    """A second process loads the toy's driver from numba's cache: binding by cloned globals keeps the
    driver cacheable (passing the game's functions as arguments would not be)."""
    code = ("import numpy as np, search_toy as T\n"
            "from analyzer.games.search import specialise\n"
            "from analyzer.rng import new_streams\n"
            "S = specialise(T, 'toy_cache')\n"
            "root = T.new_position([1, 2, 3, 4])\n"
            "S.lookahead(root, 2, 0, 0, new_streams(1, 0, 3), np.zeros((3, 1), dtype=np.int64),\n"
            "            np.zeros(3, dtype=np.int64), root.copy(), root.copy(), T.new_look())\n"
            "print(sum(S.lookahead.stats.cache_hits.values()), sum(S.lookahead.stats.cache_misses.values()))\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs[0].split() == ["0", "1"]
    assert runs[1].split() == ["1", "0"]


# --- the layers of a game's modules -------------------------------------------------------------------------

# the games whose lookahead is the driver's: all four
GAMES_ON_THE_DRIVER = ("bards", "distance", "fightsong", "noize")


def _imports(package):
    """{module: the modules of `package` it imports (anywhere in its source, function bodies included)}."""
    folder = ROOT / Path(*package.split("."))
    modules = {f"{package}.{p.stem}" if p.stem != "__init__" else package: p for p in folder.glob("*.py")}
    graph = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                # `from package import module` imports that module; `from package import name`, the package
                targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                           for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            found |= {t for t in targets if t in modules and t != name}
        graph[name] = found
    return graph


def _reaches(graph, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@pytest.mark.parametrize("game", GAMES_ON_THE_DRIVER)
def test_no_engine_imports_its_lookahead_and_no_module_of_a_game_imports_itself_back(game):
    package = f"analyzer.games.{game}"
    graph = _imports(package)
    assert f"{package}.lookahead" not in _reaches(graph, f"{package}.engine")
    assert f"{package}.search_ops" not in _reaches(graph, f"{package}.engine")
    cycles = sorted(m for m in graph if m in _reaches(graph, m))
    assert not cycles, f"import cycles through {cycles}"


@pytest.mark.parametrize("game", GAMES_ON_THE_DRIVER)
def test_a_game_provides_the_whole_contract_with_the_contracts_arguments(game):
    import importlib
    import inspect

    ops = importlib.import_module(f"analyzer.games.{game}.search_ops")
    for stub in contract.CONTRACT:
        theirs = inspect.signature(getattr(ops, stub.__name__).py_func).parameters
        assert len(theirs) == len(inspect.signature(stub).parameters), stub.__name__


def test_sort_first_sorts_the_first_n_and_leaves_the_rest():
    from analyzer.games.search.unseen import sort_first

    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 7, 40):
        values = rng.integers(-50, 50, size=n + 5)
        expected = np.concatenate([np.sort(values[:n]), values[n:]])
        sort_first(values, n)
        assert values.tolist() == expected.tolist()
