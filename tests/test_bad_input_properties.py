"""Random and mutated scenario and deck files, fed to `analyzer run` and `analyzer ladder` as a new user
would: every one ends with exit 0 (a report written) or exit 2 and one `Error:` line, within seconds;
never a traceback, another status, or a hang.

The cases start from the shipped scenarios and decks and change them: a value replaced by another of any
type (huge, negative, nan, text, a list, a table...), a key dropped or added, bytes inserted, removed or
repeated, a deck edited the same ways. Hypothesis runs a fixed set of cases in CI (derandomize);
ANALYZER_FUZZ_EXAMPLES=500 tries more, with new random cases each time."""
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from analyzer.cli import entry

ROOT = Path(__file__).parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
DECKS = {"distance": (ROOT / "analyzer/games/distance/data/musicards.csv", "deck.csv"),
         "fightsong": (ROOT / "analyzer/games/fightsong/data/default.toml", "deck.toml")}
EXAMPLES = int(os.environ.get("ANALYZER_FUZZ_EXAMPLES", "40"))
# no shrinking: a case takes up to seconds, and the failing case is printed as it was generated
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="ANALYZER_FUZZ_EXAMPLES" not in os.environ,
                phases=[Phase.explicit, Phase.reuse, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SECONDS = 30  # the most a refusal may take


def toml(value) -> str:
    """A TOML value (inline tables and arrays, so any nesting fits on a line)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)} = {toml(v)}" for k, v in value.items()) + "}"


def toml_document(raw: dict) -> str:
    return "".join(f"{json.dumps(str(k), ensure_ascii=False)} = {toml(v)}\n" for k, v in raw.items())


def paths(node, prefix=()):
    """Every path to a value in nested tables and lists."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        yield prefix + (k,)
        yield from paths(v, prefix + (k,))


SCALARS = st.one_of(
    st.integers(-2**70, 2**70), st.sampled_from([0, 1, -1, 2, 7, 100, 2**63, 10**10, 10**20]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.text(max_size=12), st.sampled_from(["random", "greedy", "lookahead", "threshold", "default", "²", "",
                                           "=HYPERLINK(\"x\")", "../deck.toml", "/dev/zero"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(min_size=1, max_size=8), inner,
                                                                       max_size=3)), max_leaves=8)
NOISE = st.sampled_from(list("[]{}\"'=.,#\n\r\t0123456789-+_ ") + ["\x00", "\xff", "²", "\ufeff", "\u2028",
                                                                     "[[variants]]\n", "[rules]\n", "= [", "]]"])


@st.composite
def mutated_text(draw, text: str) -> bytes:
    """text with bytes inserted, removed or repeated."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "repeat"]))
        if op == "insert":
            text = text[:at] + draw(NOISE) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            end = min(len(text), at + draw(st.integers(1, 200)))
            text = text[:end] + text[at:end] * draw(st.integers(1, 50)) + text[end:]
    return text.encode("utf-8", errors="surrogatepass")


@st.composite
def mutated_raw(draw, raw: dict) -> dict:
    """raw with values replaced, keys dropped or keys added."""
    for _ in range(draw(st.integers(1, 3))):
        where = list(paths(raw))
        op = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if not where or op == "add":
            tables = [()] + [p for p in where if isinstance(_at(raw, p), dict)]
            table = _at(raw, draw(st.sampled_from(tables)))
            table[draw(st.sampled_from(["rules", "all_seats", "players", "games", "seats", "variants", "sweep",
                                        "stop", "ladder", "policy", "bluff", "deck_file", "colour"]))] = draw(VALUES)
            continue
        path = draw(st.sampled_from(where))
        parent = _at(raw, path[:-1])
        if op == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(VALUES)
    return raw


def _at(raw, path):
    for k in path:
        raw = raw[k]
    return raw


@st.composite
def cases(draw):
    """(scenario bytes, deck file name and bytes or None, command)."""
    base = draw(st.sampled_from(SCENARIOS))
    raw = tomllib.loads(base.read_text())
    deck = None
    how = draw(st.sampled_from(["values", "bytes", "deck", "fine"]))
    if how == "deck" or (how == "fine" and raw["game"] in DECKS and draw(st.booleans())):
        game = raw["game"] if raw["game"] in DECKS else draw(st.sampled_from(list(DECKS)))
        raw = tomllib.loads(next(p for p in SCENARIOS if tomllib.loads(p.read_text())["game"] == game).read_text())
        source, name = DECKS[game]
        text = source.read_text()
        raw.setdefault("rules", {})["deck_file"] = name
        deck_bytes = draw(mutated_text(text)) if how == "deck" else _windows(text)
        deck = (name, deck_bytes)
        scenario = toml_document(raw).encode()
    elif how == "values":
        scenario = toml_document(draw(mutated_raw(raw))).encode()
    elif how == "bytes":
        scenario = draw(mutated_text(base.read_text()))
    else:  # a file that is fine as Windows saves it: a byte-order mark and CRLF line ends
        scenario = _windows(base.read_text())
    command = "ladder" if "ladder" in raw or draw(st.integers(0, 4)) == 0 else "run"
    return scenario, deck, command, str(raw.get("game", "noize"))


def _windows(text):
    return ("\ufeff" + text.replace("\n", "\r\n")).encode()


def analyzer(*args):
    """(exit status, what it said) of the `analyzer` command run in this process."""
    said = io.StringIO()
    argv = sys.argv
    sys.argv = ["analyzer", *args]
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said), pytest.raises(SystemExit) as e:
            entry()
    finally:
        sys.argv = argv
    return e.value.code, said.getvalue()


@FUZZ
@given(cases())
def test_any_scenario_or_deck_file_is_run_or_refused_in_one_line(case):
    scenario, deck, command, game = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.toml"
        path.write_bytes(scenario)
        if deck is not None:
            (Path(tmp) / deck[0]).write_bytes(deck[1])
        out = Path(tmp) / "rep"
        options = ["--games", "20", "--threads", "1", "-q", "--out", str(out)]
        args = (["run", str(path)] if command == "run" else ["ladder", game, "--scenario", str(path)]) + options
        t = time.perf_counter()
        status, said = analyzer(*args)
        elapsed = time.perf_counter() - t
        assert "Traceback" not in said, said
        assert status in (0, 2), f"status {status}: {said}"
        if status == 2:
            errors = [line for line in said.splitlines() if line.startswith("Error: ")]
            assert len(errors) == 1 and said.strip().splitlines()[-1] == errors[0], said
            assert not out.exists()
            assert elapsed < SECONDS, f"refused only after {elapsed:.0f} s: {said}"
        else:
            assert json.loads((out / "manifest.json").read_text())["games_played"] > 0
