"""The one error type a designer sees: it names the file, the key, the bad value and what is allowed; and
TOML text read into a dict with every failure said that way (scenarios, deck files)."""
import json
import math
import re
import tomllib

from analyzer.textfiles import MAX_DEPTH, MAX_KEY_PARTS, long_dotted_key, nesting_depth, printable

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class ScenarioError(ValueError):
    def __init__(self, source, key, value, allowed):
        self.source, self.key, self.value, self.allowed = source, key, value, allowed
        where = f"{source}: " if source else ""
        what = "" if key is None else f"{key} = {toml_value(value)}: "  # key None: the file as a whole
        super().__init__(printable(f"{where}{what}{allowed}"))  # one line, whatever the file holds

    def renamed(self, key=None, source=None):
        """The same error, said of another key or source (e.g. the variant it came from)."""
        return ScenarioError(self.source if source is None else source, self.key if key is None else key,
                             self.value, self.allowed)


class _Missing:
    def __repr__(self):
        return "(missing)"


_MISSING = _Missing()
MISSING = _MISSING


def toml_value(value, limit=80):
    """A value as it would be written in a scenario file (true, "text", [1, 2], {a = 1}), shortened."""
    if value is _MISSING:
        return "(missing)"
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, float):
        text = "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(toml_value(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{toml_key(k)} = {toml_value(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = str(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def toml_key(key):
    """A key as TOML writes it: bare when it can be, else quoted."""
    return key if BARE_KEY.fullmatch(str(key)) else json.dumps(str(key), ensure_ascii=False)


def parse_toml(text: str, source: str, what: str) -> dict:
    """tomllib.loads, with every failure said in one line naming source (what: "scenario", "deck file")."""
    line = long_dotted_key(text)
    if line is not None:
        raise ScenarioError(source, None, None, f"line {line:,} has a dotted key of more than {MAX_KEY_PARTS} parts "
                                                f"(a.b.c...): a {what} needs a few")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(source, None, None, f"is not valid TOML: {e}") from None
    except RecursionError:  # (tomllib parses nested arrays and inline tables recursively)
        raise ScenarioError(source, None, None, f"nests lists or tables more than {MAX_DEPTH} levels deep: "
                                                f"a {what} needs a few") from None
    depth, where = nesting_depth(raw)
    if depth > MAX_DEPTH:
        raise ScenarioError(source, None, None, f"nests lists or tables more than {MAX_DEPTH} levels deep "
                                                f"(at {where[:60]}...): a {what} needs a few")
    return raw
