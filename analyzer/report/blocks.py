"""A report is a list of blocks, rendered once to HTML (self-contained) and once to Markdown."""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path


# User text and the analyzer's own markup. Block texts mix the two: the analyzer writes a little Markdown
# (**bold**, [text](address)) around text a user chose (the scenario's name and description, variant, rung and
# policy labels, parameter and rule values, file names). What escaping such text takes depends on the output
# (HTML: <, & and quotes; Markdown also *, [, |, # and a line's first character), so it is done in one place,
# here, when a block is rendered, the way index.html always escaped; a block only says which text is the
# user's. Escaping when blocks are built would put Markdown escapes in the blocks that the HTML rendering
# would have to undo, and every builder would have to know both formats.
#   - Heading.text, Table.columns, table cells and code Text are plain text: shown as written, in both
#     renderings (the analyzer puts no markup there, so there is nothing to tell apart).
#   - Text.text (p, verdict, warning), Table.caption and Figure.caption are markup: the analyzer's own text,
#     with user text wrapped in lit() (which survives f-strings: two private-use characters mark it).
USER_OPEN, USER_CLOSE = "\ue000", "\ue001"


def lit(text) -> str:
    """User text (or str() of a value) to put into markup: rendered as written, never as markup."""
    text = str(text).replace(USER_OPEN, "\ufffd").replace(USER_CLOSE, "\ufffd")
    return f"{USER_OPEN}{text}{USER_CLOSE}"


@dataclass
class Heading:
    text: str  # plain text
    level: int = 2


@dataclass
class Text:
    text: str  # markup: **bold** and [text](address) are honoured in both renderings; user text in lit()
    kind: str = "p"  # p, verdict, warning, code (code: plain text, shown as written)


@dataclass
class Table:
    columns: list[str]  # plain text
    rows: list[list]  # plain text (str() of each cell)
    caption: str = ""  # markup


@dataclass
class Figure:
    path: Path  # a PNG written beside the report
    caption: str  # markup


@dataclass
class Details:
    """Blocks shown folded under a one-line summary (plain text): HTML <details>, and the same in Markdown
    (which GitHub and most viewers render folded)."""

    summary: str
    blocks: list


@dataclass
class Section:
    """Blocks that belong together under an id (HTML <section id=...>, e.g. the answer a report opens with; in
    Markdown just the blocks)."""

    id: str
    blocks: list


def _num_class(cell):
    """Numbers (and numbers with an interval) align right; words align left."""
    text = str(cell).lstrip("+-")
    return " class='num'" if text[:1].isdigit() or isinstance(cell, (int, float)) else ""


_NOT_USER = f"{USER_OPEN}{USER_CLOSE}"
TOKEN = re.compile(f"{USER_OPEN}([^{USER_CLOSE}]*){USER_CLOSE}?"  # user text (to the end if left open)
                   f"|\\[([^\\]{_NOT_USER}]+)\\]\\(([^)\\s{_NOT_USER}]+)\\)"  # [text](address), as in Markdown
                   f"|\\*\\*|{USER_CLOSE}")


def tokens(markup):
    """The parts of markup: ("text", analyzer text), ("user", user text), ("bold", None) (a **),
    ("link", (text, address)); a stray end-of-user-text mark is dropped."""
    last = 0
    for m in TOKEN.finditer(markup):
        if m.start() > last:
            yield "text", markup[last:m.start()]
        tok = m.group(0)
        if tok.startswith(USER_OPEN):
            yield "user", m.group(1)
        elif tok == "**":
            yield "bold", None
        elif tok != USER_CLOSE:
            yield "link", (m.group(2), m.group(3))
        last = m.end()
    if last < len(markup):
        yield "text", markup[last:]


def plain(markup):
    """Markup as the words a reader sees (no bold, a link's text)."""
    return "".join(v[0] if kind == "link" else v for kind, v in tokens(markup) if kind != "bold")


def _safe_address(address):
    """A relative address or a web one: never javascript:, data: and the like."""
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", address)
    return scheme is None or scheme.group(1).lower() in ("http", "https")


def _inline_html(markup):
    """**bold** and [text](address) links of the analyzer; everything else, user text whole, escaped."""
    out, bold = [], False
    for kind, v in tokens(markup):
        if kind == "bold":
            out.append("</b>" if bold else "<b>")
            bold = not bold
        elif kind == "link":
            text, address = v
            out.append(f"<a href='{html.escape(address, quote=True)}'>{html.escape(text)}</a>"
                       if _safe_address(address) else html.escape(f"[{text}]({address})"))
        else:
            out.append(html.escape(v))
    if bold:
        out.append("</b>")
    return "".join(out)


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45}
h1{border-bottom:3px solid #345;padding-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #ccc}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.92em}
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}th{background:#eef2f6}
td.num{text-align:right;white-space:nowrap}td:first-child{min-width:11em}caption{caption-side:bottom;font-size:.85em;color:#555;text-align:left;
padding-top:.3em}
.verdict{background:#f3f8ee;border-left:4px solid #5a8a3a;padding:.4em .8em}
.warning{background:#fff4e5;border-left:4px solid #d98c00;padding:.4em .8em}
pre,code{background:#f5f5f5;padding:.1em .3em}pre{padding:.6em;overflow-x:auto}
details{margin:1.5em 0}summary{cursor:pointer;font-weight:600;font-size:1.1em}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}figcaption{font-size:.85em;color:#555}
#answer .side{display:flex;gap:1.2em;align-items:flex-start}#answer .words{flex:1 1 58%;min-width:0}
#answer .pictures{flex:1 1 42%;min-width:0;padding-top:3.2em}#answer h2{margin-top:.6em}
#answer figure{margin:0}#answer figure img{max-height:30em;width:100%;object-fit:contain}
@media (max-width:900px){#answer .side{display:block}#answer .pictures{padding-top:0}}
"""


def to_html(title, blocks):
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
           f"<style>{CSS}</style></head><body>"]
    out += _html_blocks(blocks)
    out.append("</body></html>")
    return "\n".join(out)


def _html_blocks(blocks):
    out = []
    for b in blocks:
        if isinstance(b, Details):
            out.append(f"<details><summary>{html.escape(b.summary)}</summary>")
            out += _html_blocks(b.blocks)
            out.append("</details>")
        elif isinstance(b, Section):  # words left, pictures right (one column on a narrow screen), tables below
            out.append(f"<section id='{html.escape(b.id, quote=True)}'><div class='side'><div class='words'>")
            out += _html_blocks([x for x in b.blocks if not isinstance(x, (Figure, Table))])
            out.append("</div><div class='pictures'>")
            out += _html_blocks([x for x in b.blocks if isinstance(x, Figure)])
            out.append("</div></div>")
            out += _html_blocks([x for x in b.blocks if isinstance(x, Table)])
            out.append("</section>")
        elif isinstance(b, Heading):
            out.append(f"<h{b.level}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, Text):
            if b.kind == "code":
                out.append(f"<pre>{html.escape(b.text)}</pre>")
            elif b.kind in ("verdict", "warning"):
                out.append(f"<p class='{b.kind}'>{_inline_html(b.text)}</p>")
            else:
                out.append(f"<p>{_inline_html(b.text)}</p>")
        elif isinstance(b, Table):
            out.append("<div class='scroll'><table>")
            if b.caption:
                out.append(f"<caption>{_inline_html(b.caption)}</caption>")
            out.append("<tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in b.columns) + "</tr>")
            for row in b.rows:
                out.append("<tr>" + "".join(f"<td{_num_class(c)}>{html.escape(str(c))}</td>" for c in row) + "</tr>")
            out.append("</table></div>")
        elif isinstance(b, Figure):
            data = base64.b64encode(Path(b.path).read_bytes()).decode()
            out.append(f"<figure><img alt='{html.escape(plain(b.caption))}' src='data:image/png;base64,{data}'>"
                       f"<figcaption>{_inline_html(b.caption)}</figcaption></figure>")
    return out


PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
MD_ENTITY = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def md_escape(text, oneline=False, line_start=True):
    """Plain text as Markdown that shows it as written: no HTML, links, emphasis, code or table cells, and
    no heading, list, quote, code block or rule started by one of its lines (line_start: its first line
    starts a line of the output too). oneline (tables, headings, captions): line breaks become spaces."""
    text = str(text).replace("\r\n", "\n").replace("\r", "\n")  # a lone CR ends a Markdown line too
    if oneline:
        text = text.replace("\n", " ")
    return "\n".join(_md_line(line, line_start or k > 0) for k, line in enumerate(text.split("\n")))


def _md_line(line, start):
    out = []
    i = 0
    if start:
        indent = re.match(r"[ \t]*", line).group(0)
        marker = re.match(r"\d{1,9}[.)]", line)
        if indent:  # leading white space would indent (a code block) or be dropped: kept as characters
            out.append("".join("&#9;" if c == "\t" else "&#32;" for c in indent))
            i = len(indent)
        elif marker:  # "1." or "1)" starts an ordered list
            out.append(marker.group(0)[:-1] + "\\" + marker.group(0)[-1])
            i = marker.end()
        elif line[:1] in ("-", "+", "="):  # a list item, or a rule or heading underline
            out.append("\\" + line[0])
            i = 1
    for j in range(i, len(line)):
        c = line[j]
        before, after = line[j - 1] if j else "", line[j + 1] if j + 1 < len(line) else ""
        if c in MD_ENTITY:
            out.append(MD_ENTITY[c])
        elif (c in "`*[]|#~" or (c == "\\" and (not after or after in PUNCTUATION))
              or (c == "_" and not (before.isalnum() and after.isalnum())) or (c == "(" and before == "]")):
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def _md_inline(markup, oneline=False):
    """Markup as Markdown: the analyzer's bold and links as they are, user text escaped."""
    out = []
    for kind, v in tokens(markup):
        if kind == "user":
            out.append(md_escape(v, oneline, line_start=not oneline and (not out or out[-1].endswith("\n"))))
        elif kind == "link":
            out.append(f"[{v[0]}]({v[1]})")
        else:
            out.append("**" if kind == "bold" else v)
    return "".join(out)


def _md_cell(x):
    return md_escape(x, oneline=True, line_start=False)


def _fence(text):
    """A code fence longer than any run of backticks in text (so no line of it closes the block)."""
    return "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0))


def to_markdown(blocks):
    out = []
    for b in blocks:
        if isinstance(b, Details):  # (blank lines around the inside: Markdown in it is rendered)
            out.append(f"<details><summary>{html.escape(b.summary)}</summary>\n")
            out.append(to_markdown(b.blocks))
            out.append("</details>\n")
        elif isinstance(b, Section):
            out.append(to_markdown(b.blocks))
        elif isinstance(b, Heading):
            out.append("#" * b.level + " " + md_escape(b.text, oneline=True, line_start=False) + "\n")
        elif isinstance(b, Text):
            if b.kind == "code":
                fence = _fence(b.text)
                out.append(f"{fence}\n{b.text}\n{fence}\n")
            elif b.kind in ("verdict", "warning"):
                out.append("> " + _md_inline(b.text).replace("\n", "\n> ") + "\n")
            else:
                out.append(_md_inline(b.text) + "\n")
        elif isinstance(b, Table):
            out.append("| " + " | ".join(_md_cell(c) for c in b.columns) + " |")
            out.append("|" + "|".join(["---"] * len(b.columns)) + "|")
            for row in b.rows:
                out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
            out.append(("\n*" + _md_inline(b.caption, oneline=True) + "*\n") if b.caption else "")
        elif isinstance(b, Figure):
            caption = _md_inline(b.caption, oneline=True)
            out.append(f"![{caption}]({Path(b.path).name})\n\n*{caption}*\n")
    return "\n".join(out)
