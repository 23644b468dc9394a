"""A report is a list of blocks, rendered once to HTML (self-contained) and once to Markdown."""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Heading:
    text: str
    level: int = 2


@dataclass
class Text:
    text: str  # plain text; **bold** is honoured in both renderings
    kind: str = "p"  # p, verdict, warning, code


@dataclass
class Table:
    columns: list[str]
    rows: list[list]
    caption: str = ""


@dataclass
class Figure:
    path: Path  # a PNG written beside the report
    caption: str


def _num_class(cell):
    """Numbers (and numbers with an interval) align right; words align left."""
    text = str(cell).lstrip("+-")
    return " class='num'" if text[:1].isdigit() or isinstance(cell, (int, float)) else ""


LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")  # [text](address), as in Markdown


def _inline_html(text):
    """**bold** and [text](address) links; everything else escaped."""
    out = []
    last = 0
    for m in LINK.finditer(text):
        out.append(_bold(html.escape(text[last:m.start()])))
        out.append(f"<a href='{html.escape(m.group(2), quote=True)}'>{_bold(html.escape(m.group(1)))}</a>")
        last = m.end()
    out.append(_bold(html.escape(text[last:])))
    return "".join(out)


def _bold(escaped):
    parts = escaped.split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))


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
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}figcaption{font-size:.85em;color:#555}
"""


def to_html(title, blocks):
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
           f"<style>{CSS}</style></head><body>"]
    for b in blocks:
        if isinstance(b, Heading):
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
                out.append("<tr>" + "".join(f"<td{_num_class(c)}>{_inline_html(str(c))}</td>" for c in row) + "</tr>")
            out.append("</table></div>")
        elif isinstance(b, Figure):
            data = base64.b64encode(Path(b.path).read_bytes()).decode()
            out.append(f"<figure><img alt='{html.escape(b.caption)}' src='data:image/png;base64,{data}'>"
                       f"<figcaption>{_inline_html(b.caption)}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out)


def _md_cell(x):
    return str(x).replace("|", "\\|").replace("\n", " ")


def to_markdown(blocks):
    out = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append("#" * b.level + " " + b.text + "\n")
        elif isinstance(b, Text):
            if b.kind == "code":
                out.append("```\n" + b.text + "\n```\n")
            elif b.kind in ("verdict", "warning"):
                out.append("> " + b.text + "\n")
            else:
                out.append(b.text + "\n")
        elif isinstance(b, Table):
            out.append("| " + " | ".join(_md_cell(c) for c in b.columns) + " |")
            out.append("|" + "|".join(["---"] * len(b.columns)) + "|")
            for row in b.rows:
                out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
            out.append(("\n*" + b.caption + "*\n") if b.caption else "")
        elif isinstance(b, Figure):
            out.append(f"![{b.caption}]({Path(b.path).name})\n\n*{b.caption}*\n")
    return "\n".join(out)
