"""Reports that others open: user text (scenario names and descriptions, variant names, ladder rungs,
round-robin labels, deck files) reaches summary.csv, report.md and index.html as text, never as a
spreadsheet formula, Markdown structure or HTML."""
import csv
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.report import csv_cell
from analyzer.report.blocks import Heading, Table, Text, lit, plain, to_html, to_markdown

HOSTILE = ['=HYPERLINK("http://evil.example","x")', "@SUM(A1)", "+cmd|' /C calc'!A0", "-2+3",
           "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "a|b",
           "\tTAB first", "\rCR first", "**not bold** _nor italic_"]
NAME = '=HYPERLINK("http://evil.example","x") <script>alert(1)</script>'
DESCRIPTION = ("What <script>alert(1)</script> and <img src=x onerror=alert(1)> do, [x](javascript:alert(1))\n"
               "# heading\n- item\n> quote\n+ plus item\n\n1. list item\n    indented code\n   ## spaced heading\n"
               "***\nunderlined\n===\n| a | b |\n|---|---|\n[ref]: javascript:alert(1)\nend\\")
pytestmark = pytest.mark.filterwarnings("ignore:Glyph .* missing from font")  # a tab or CR in a plot label
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?(nan|inf)")


def toml(d, prefix=""):
    """A flat-enough dict as TOML (strings as JSON strings, which TOML reads the same)."""
    lines, tables = [], []
    for k, v in d.items():
        if isinstance(v, dict):
            tables.append(f"\n[{prefix}{k}]\n" + toml(v, f"{prefix}{k}."))
        elif isinstance(v, list) and v and isinstance(v[0], dict) and k in ("variants", "policies"):
            for item in v:
                tables.append(f"\n[[{prefix}{k}]]\n" + toml(item, f"{prefix}{k}."))
        else:
            lines.append(f"{json.dumps(k)} = {value(v)}")
    return "\n".join(lines) + "".join(tables) + "\n"


def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"
    return json.dumps(v)


def run_cli(tmp_path, raw, name="hostile", games=300):
    f = tmp_path / f"{name}.toml"
    f.write_text(toml(raw))
    out = tmp_path / f"rep-{name}"
    r = CliRunner().invoke(main, ["run", str(f), "--games", str(games), "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def md_unescape(text):
    """What a Markdown reader shows of escaped inline text (backslash escapes and the entities used)."""
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&#9;", "\t"), ("&#32;", " "), ("&#13;", "\r"),
                         ("&amp;", "&")):
        text = text.replace(entity, char)
    return text


def unescaped_pipes(line):
    """How many | in a Markdown table row separate cells (a backslash escapes the next character)."""
    count, i = 0, 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        count += line[i] == "|"
        i += 1
    return count


def check_csv(out, names):
    with open(out / "summary.csv", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert body
    for row in rows:
        for cell in row:
            if cell.startswith(DANGEROUS):
                assert NUMBER.fullmatch(cell), f"live formula in summary.csv: {cell!r}"
    for row in body:
        rec = dict(zip(header, row))
        for key in ("value", "ci_low", "ci_high", "diff_vs_baseline", "diff_low", "diff_high"):
            float(rec[key])  # numbers stay numbers (nan where there is none)
        int(rec["games"])
    groups = {r[0] for r in body}
    for name in names:
        shown = "'" + name if name.startswith(DANGEROUS) else name
        assert any(g == shown or shown in g or name in g for g in groups), (name, groups)


def outside_code(md):
    """report.md without its fenced code blocks (where text is shown as written: the replay command quotes a
    variant name as the shell needs it), checking that no line of a block can close it early."""
    kept, fence = [], None
    for line in md.splitlines():
        if fence is None:
            m = re.match(r"(`{3,})\s*$", line)
            if m:
                fence = m.group(1)
            else:
                kept.append(line)
        elif line.strip() == fence:
            fence = None
        else:
            assert not re.match(r" {0,3}`{%d,}\s*$" % len(fence), line), line
    assert fence is None
    return "\n".join(kept)


def check_markdown(out, names, games=300):
    md = outside_code((out / "report.md").read_text())
    low = md.lower()
    assert "<script" not in low
    assert "<img" not in low
    assert "](javascript:" not in low
    # no line of user text starts a heading, list, quote, table or thematic break
    assert not re.search(r"^ {0,3}#+ *(heading|spaced heading)", md, re.M)
    assert not re.search(r"^ {0,3}([-+*] +(item|plus item)|> *quote|1[.)] +list item|\*\*\*$|===$)", md, re.M)
    assert not re.search(r"^ {0,3}\[ref\]:", md, re.M)
    assert not re.search(r"^ {4,}indented code", md, re.M)
    # every table row has as many cells as its header
    lines = md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            n = unescaped_pipes(line)
            j = i + 1
            while j < len(lines) and lines[j].startswith("|"):
                assert unescaped_pipes(lines[j]) == n, lines[j]
                j += 1
    # the names still read as written
    shown = md_unescape(md)
    for name in names:
        assert name.strip() in shown, name
    # the analyzer's own Markdown is intact
    assert re.search(r"^## Answer$", md, re.M) and re.search(r"^<details><summary>Rules and players", md, re.M)
    assert f"**{games} deals**" in md
    return md


class Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def check_html(out, names):
    page = (out / "index.html").read_text()
    p = Tags()
    p.feed(page)
    assert not [t for t, _ in p.tags if t == "script"]
    for tag, attrs in p.tags:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        for a in ("href", "src"):
            assert not (attrs.get(a) or "").strip().lower().startswith("javascript:"), (tag, attrs)
    assert {t for t, _ in p.tags if t == "img"} and all(a["src"].startswith("data:image/png;base64,")
                                                         for t, a in p.tags if t == "img")
    text = "".join(p.text)
    for name in names:
        assert name.strip() in text, name


def test_hostile_variant_names_and_description(tmp_path):
    variants = [{"name": h} for h in HOSTILE]
    variants[1]["rules"] = {"shuffle_each_round": True}
    raw = {"name": NAME, "description": DESCRIPTION, "game": "noize", "games": 300, "seed": 3, "players": 3,
           "all_seats": {"policy": "threshold"}, "variants": variants}
    out = run_cli(tmp_path, raw)
    check_csv(out, HOSTILE)
    md = check_markdown(out, HOSTILE + ["<script>alert(1)</script>", "# heading", "- item", "> quote"])
    assert md.startswith("# ") and "balance report" in md.splitlines()[0]
    check_html(out, HOSTILE + ["# heading"])


def test_hostile_ladder_rungs_and_variants(tmp_path):
    rungs = [{"label": "[x](javascript:alert(1))", "policy": "random"},
             {"label": "=HYPERLINK(\"http://evil.example\",\"x\") <script>alert(1)</script>", "policy": "threshold"},
             {"label": "-2+3 <img src=x onerror=alert(1)>", "policy": "threshold", "challenge_below": 0.7}]
    raw = {"name": "@SUM(A1)", "description": "# heading", "game": "noize", "games": 300, "seed": 4, "players": 3,
           "ladder": {"field": {"policy": "random"}, "rungs": rungs},
           "variants": [{"name": "+cmd|' /C calc'!A0"}, {"name": "a|b\tc", "rules": {"shuffle_each_round": True}}]}
    out = run_cli(tmp_path, raw, "ladder")
    names = [r["label"] for r in rungs] + ["+cmd|' /C calc'!A0", "a|b\tc"]
    check_csv(out, names)
    check_markdown(out, names)
    check_html(out, names)


def test_hostile_round_robin_labels(tmp_path):
    labels = ["<script>alert(1)</script>", "@SUM(A1)", "-1.5", "[x](javascript:alert(1))"]
    raw = {"name": "rr", "game": "noize", "games": 300, "seed": 5, "players": 2,
           "policies": [{"label": labels[0], "policy": "random"}, {"label": labels[1], "policy": "threshold"},
                        {"label": labels[2], "policy": "threshold", "bluff": 0.0},
                        {"label": labels[3], "policy": "threshold", "challenge_below": 0.2}]}
    out = run_cli(tmp_path, raw, "rr")
    check_csv(out, [])
    check_markdown(out, labels)
    check_html(out, labels)


def test_hostile_strength_rungs(tmp_path):
    rungs = [{"label": "[x](javascript:alert(1))", "policy": "random"},
             {"label": "=HYPERLINK(\"http://evil.example\",\"x\") <script>alert(1)</script>", "policy": "threshold"},
             {"label": "-2+3 <img src=x onerror=alert(1)>", "policy": "threshold", "challenge_below": 0.7}]
    raw = {"name": "@SUM(A1)", "description": "# heading", "game": "noize", "games": 60, "seed": 4, "players": 3,
           "strength": {"rungs": rungs, "budgets": [16]}}  # (one search rung: the default three took 4 minutes)
    out = run_cli(tmp_path, raw, "strength", games=raw["games"])  # (a search rung's games are the file's time: what
    # is checked is the labels' escaping in every file)
    names = [r["label"] for r in rungs]
    check_csv(out, names)
    check_markdown(out, names, games=raw["games"])
    check_html(out, names)
    with open(out / "strength.csv", newline="") as f:
        cells = [cell for row in csv.reader(f) for cell in row]
    assert not [c for c in cells if c.startswith(DANGEROUS) and not NUMBER.fullmatch(c)], cells


def test_hostile_deck_file_name(tmp_path):
    deck = Path(__file__).parents[1] / "analyzer" / "games" / "distance" / "data" / "musicards.csv"
    name = "=cmd|x <img src=x onerror=alert(1)> [x](javascript:alert(1)) **not bold**.csv"
    shutil.copy(deck, tmp_path / name)
    raw = {"name": "deck", "game": "distance", "games": 300, "seed": 6, "players": 3, "rules": {"deck_file": name}}
    out = run_cli(tmp_path, raw, "deck")
    check_markdown(out, [name])
    check_html(out, [name])


def test_csv_cell_neutralises_text_not_numbers():
    for text in HOSTILE + ["-1.2 bluff", "-", "+", "=", "@", "-inf"]:
        assert csv_cell(text) == ("'" + text if text.startswith(DANGEROUS) else text)
    for safe in ("-1.2", "+0.5", "-3", "-1e-05", ".5", "plain", "", "a=b"):
        assert csv_cell(safe) == safe
    for number in (-0.5, -3, float("nan"), True, None):
        assert csv_cell(number) is number


def test_blocks_escape_user_text_only():
    user = lit("**b** <i>x</i> [x](javascript:alert(1)) a|b")
    blocks = [Heading("A **heading**"), Text(f"**bold** [docs](docs/x.md) and {user}"),
              Table(["col|1", "col 2"], [[user, 1.5], ["x\ny", "-"]], f"caption with [a link](a.md) and {user}")]
    md = to_markdown(blocks)
    assert "**bold** [docs](docs/x.md) and \\*\\*b\\*\\* &lt;i&gt;x&lt;/i&gt; \\[x\\]\\(javascript:alert(1)) a\\|b" in md
    assert "## A \\*\\*heading\\*\\*" in md  # a heading is plain text
    assert "| col\\|1 | col 2 |" in md and "| x y | - |" in md
    assert "*caption with [a link](a.md) and \\*\\*b" in md
    page = to_html("t", blocks)
    assert "<b>bold</b> <a href='docs/x.md'>docs</a> and **b** &lt;i&gt;x&lt;/i&gt; [x](javascript:alert(1)) a|b" in page
    assert "javascript:alert(1)'" not in page
    assert plain(blocks[1].text) == "bold docs and **b** <i>x</i> [x](javascript:alert(1)) a|b"
    # a code block (the replay command quotes names as the shell needs them) cannot be closed by its text
    assert to_markdown([Text("trace --variant '```\n```\n<b>'", "code")]) == "````\ntrace --variant '```\n```\n<b>'\n````\n"
    # an analyzer link to a script address is not made a link either
    assert "<a href" not in to_html("t", [Text("[x](javascript:alert(1))")])
