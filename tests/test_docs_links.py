"""Every relative link in the README, the docs pages and the example reports leads somewhere: to a file
or folder of the repository and, with a #fragment into a Markdown page, to one of its headings (as GitHub
names them). Reads a few files only; no network, no games."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LINK = re.compile(r"\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")  # the end of [text](target), ![alt](image), [![..](..)](..)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")


def pages():
    found = [ROOT / "README.md", ROOT / "reports" / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "reports" / "examples").glob("*/report.md"))]
    return [p for p in found if p.is_file()]


def prose(text):
    """The text outside code blocks and code spans, where a [x](y) is a link."""
    return CODE.sub("", FENCE.sub("", text))


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = CODE.sub(lambda m: m.group(0)[1:-1], heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page):
    heads = re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", page.read_text(encoding="utf-8")), re.M)
    seen, out = {}, set()
    for h in heads:
        s = slug(h)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def links(page):
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:, data:
            continue
        yield target


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page):
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {dest.relative_to(ROOT).as_posix()}")
    assert not broken, f"{page.relative_to(ROOT).as_posix()}: " + "; ".join(broken)


def test_readme_starts_with_the_two_commands():
    first = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:2]
    assert [line.split("#")[0].strip() for line in first] == ["make demo", "make test"]


def test_every_shipped_scenario_is_listed():
    """The README lists every scenario as <game>: <name>, ...; docs/scenarios.md has a row for each."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\w+) \| (.*`.*) \|$", readme, re.M))
    missing = []
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        game, _, name = path.stem.partition("-")
        if f"`{name}`" not in rows.get(game, ""):
            missing.append(f"README: {path.name}")
        if f"| `{path.name}` |" not in table:
            missing.append(f"docs/scenarios.md: {path.name}")
    assert not missing, "not listed: " + ", ".join(missing)


def test_readme_is_short():
    assert (ROOT / "README.md").stat().st_size < 12_000
