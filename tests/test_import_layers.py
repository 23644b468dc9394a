"""The package's imports form layers, bottom to top, and no cycle (issue 27): a run's data goes one way,
plan -> play -> fold -> summary -> results -> report, and so do the imports, the other way round.

Every `import` and `from ... import` of an analyzer module is read from the source (those inside functions
too: an import moved into a function to dodge a cycle is still the cycle). A module may import modules of
its own layer and of the layers below it, never above; siblings in a layer that are separated by `|` are
independent (neither imports the other). Every module must be in a layer, so a new module is placed
deliberately. This is the contract import-linter's `layers` contracts would state, without the dependency.
"""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"

# Top to bottom. A name covers its submodules (the most specific name wins), except the package itself,
# `analyzer`, which is only its __init__. Within a layer, `|` separates independent siblings; the modules of
# one sibling (`:`) may import each other, without cycles.
LAYERS = (
    # the ways in: the command (with the bench and its profile of a kernel), and the Python API (analyzer.api, its
    # outcomes in analyzer.api_results)
    "analyzer.__main__ : analyzer.cli : analyzer.bench : analyzer.kernel_profile | analyzer.api : analyzer.api_results",
    "analyzer.schema",  # the JSON Schema of scenario files, from every table's declarations (tune's and profile's too)
    # analyzer tune: trials played by the runner (or on Dask), its report built on the report's parts; analyzer profile:
    # the kernels' rows played directly, its report from the report's parts; analyzer check-game: the conformance
    # checks, games played by the runner and the kernels; the scenarios the ladder, strength and trace commands build
    # (for the command and the API)
    "analyzer.tuning | analyzer.profiling | analyzer.conformance | analyzer.command_scenarios",
    # a report reads a RunResult however it was played; nothing that plays writes a report
    "analyzer.report | analyzer.distributed",
    "analyzer.runner",  # the in-process chunk loop (distributed plays the same on Dask)
    "analyzer.chunks | analyzer.parquet_rows",  # playing and folding a chunk on the play threads; rows to Parquet
    "analyzer.results",  # RunResult, GroupResult
    "analyzer.summary",  # Summary, FoldParts, Tally: the fold's exact sums
    "analyzer.scenario",  # a scenario file -> the validated Scenario: it builds on the three below
    "analyzer.comparisons | analyzer.stopping | analyzer.idle_settings",  # arms and groups; [stop]; idle values
    "analyzer.configs",  # Scenario and Arm, one configuration validated, paths into a scenario's dict
    # what a report measures: definitions (the game's) and intervals (of any summary); how large a difference matters
    "analyzer.metrics | analyzer.margins",
    # every game is independent of the others; the fold's kernels (the per-deal row) of every game
    "analyzer.games.bards | analyzer.games.distance | analyzer.games.fightsong | analyzer.games.noize"
    " | analyzer.fold",
    "analyzer.games.base : analyzer.games.drama : analyzer.games",  # the game contract, drama, the registry
    "analyzer.errors | analyzer.rng | analyzer.compile_aside",  # compile_aside: a cold start's compiles on two cores
    # planned_games: the games a command plans (which kernels pay their compile)
    "analyzer.textfiles | analyzer.interrupts | analyzer.stats | analyzer.threads | analyzer.jit_setup"
    " | analyzer.prefetch | analyzer.ratings | analyzer.planned_games",
    "analyzer.jit_deferred",  # how numba makes machine code (installed by jit_setup)
    "analyzer",  # __version__; the API's names are looked up in analyzer.api on first use (not imported here)
)

# Cycles known and not yet removed (a package whose modules import each other in a circle): none since every
# game's lookahead runs on the shared search driver (issue 27). A package listed here whose cycle is gone
# fails the test, so that the list stays true.
KNOWN_CYCLES = ()


def modules(package=PACKAGE):
    """{dotted name: (path, is a package)} of every module of the package."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def imports(mods):
    """{module: {imported module: line}} of every import of an analyzer module, nested ones included.
    `from a import b` imports a.b when that is a module, else a."""
    def known(name):
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, (path, is_package) in mods.items():
        edges = graph.setdefault(name, {})
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the module's package
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    base = ".".join(here[:len(here) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            else:
                continue
            for target in targets:
                found = known(target) if target.split(".")[0] == "analyzer" else None
                if found is not None and found != name:
                    edges.setdefault(found, node.lineno)
    return graph


def parse_layers(layers=LAYERS):
    """[(layer index, sibling index, name)] of every name the layers list."""
    out = []
    for li, layer in enumerate(layers):
        for si, sibling in enumerate(layer.split("|")):
            out += [(li, si, name.strip()) for name in sibling.split(":")]
    return out


def place(module, names):
    """(layer, sibling) of a module: the most specific name covering it (`analyzer` covers only itself)."""
    best = None
    for li, si, name in names:
        if module == name or (name != "analyzer" and module.startswith(name + ".")):
            if best is None or len(name) > len(best[2]):
                best = (li, si, name)
    return None if best is None else best[:2]


def breaches(graph, layers=LAYERS):
    """Lines saying each import that goes up a layer or across to an independent sibling, and each module in
    no layer."""
    names = parse_layers(layers)
    out = [f"{m} is in no layer: add it to LAYERS in tests/test_import_layers.py" for m in graph
           if place(m, names) is None]
    for a, edges in graph.items():
        pa = place(a, names)
        for b, line in edges.items():
            pb = place(b, names)
            if pa is None or pb is None:
                continue
            if pb[0] < pa[0]:
                out.append(f"{a} (line {line}) imports {b}, a layer above it: {layers[pb[0]]!r} is above "
                           f"{layers[pa[0]]!r}")
            elif pb[0] == pa[0] and pb[1] != pa[1]:
                out.append(f"{a} (line {line}) imports {b}: they are independent siblings in {layers[pa[0]]!r}")
    return out


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def cycle_problems(graph, known=KNOWN_CYCLES):
    """Lines saying each cycle outside the known ones (with its imports), and each known one that is gone."""
    out, seen = [], set()
    for component in cycles(graph):
        owner = next((k for k in known if all(m == k or m.startswith(k + ".") for m in component)), None)
        if owner is not None:
            seen.add(owner)
            continue
        edges = [f"{a} -> {b} (line {line})" for a in component for b, line in graph[a].items() if b in component]
        out.append("import cycle: " + ", ".join(component) + "\n    " + "\n    ".join(edges))
    out += [f"{k} has no import cycle any more: remove it from KNOWN_CYCLES" for k in known if k not in seen]
    return out


def test_every_import_goes_down_the_layers():
    problems = breaches(imports(modules()))
    assert not problems, "\n".join(problems)


def test_the_imports_make_no_cycle_outside_the_known_game_packages():
    problems = cycle_problems(imports(modules()))
    assert not problems, "\n".join(problems)


def test_the_check_sees_a_cycle_and_a_breach_hidden_in_a_function(tmp_path):
    """The test's own check, on a small package: an import inside a function counts."""
    pkg = tmp_path / "analyzer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from analyzer import high\n")
    (pkg / "high.py").write_text("from analyzer.low import f\n")
    graph = imports(modules(pkg))
    assert graph["analyzer.low"] == {"analyzer.high": 2} and graph["analyzer.high"] == {"analyzer.low": 1}
    assert cycle_problems(graph, known=()) and cycles(graph) == [["analyzer.high", "analyzer.low"]]
    said = breaches(graph, ("analyzer.high", "analyzer.low", "analyzer"))
    assert said == ["analyzer.low (line 2) imports analyzer.high, a layer above it: 'analyzer.high' is above "
                    "'analyzer.low'"]
    assert breaches(graph, ("analyzer.high | analyzer.low", "analyzer"))[0].endswith("independent siblings in "
                                                                                     "'analyzer.high | analyzer.low'")
