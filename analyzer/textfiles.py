"""Reading a designer's text files (scenarios, deck files) safely: only regular files of bounded size,
checked before a byte is read, so that a FIFO, a device (/dev/zero, /dev/urandom) or a huge file is refused
at once instead of hanging or eating memory; UTF-8 with or without a byte-order mark; any line ends
(CRLF from Windows, lone CR from old Macs) read as newlines. And text made safe the other way: for a
one-line message (printable) or a file name (slug)."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

MAX_SCENARIO_BYTES = 1_000_000  # the longest shipped scenario is under 3 kB
# a deck of every card a game allows is under 100 kB (the largest Fight Song deck allowed, 409 cards, is 50 kB
# without comments); parsing 256 kB of the worst TOML takes tomllib 0.3 s, 1 MB 1.2 s
MAX_DECK_BYTES = 256_000
MAX_DEPTH = 16  # tables and lists inside each other; a scenario needs 5 ([[variants]] > seats > N > key)
MAX_KEY_PARTS = 64  # parts of one dotted key (a.b.c = 1); tomllib takes time and memory growing with their square


class TextFileError(Exception):
    """Why a file cannot be read, as the end of a sentence about it ("is a folder")."""


def _kind(mode):
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_text(path: str | Path, limit: int, what: str) -> str:
    """The text of a regular file of at most `limit` bytes, or TextFileError saying why not.

    what: what the file should be ("scenario", "deck file"), for the messages."""
    path = Path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise TextFileError("does not exist") from None
    except (OSError, ValueError) as e:  # (ValueError: a NUL character in the path)
        raise TextFileError(f"cannot be read: {getattr(e, 'strerror', None) or e}") from None
    if not stat.S_ISREG(info.st_mode):
        raise TextFileError(f"is {_kind(info.st_mode)}, not a {what}: give the path of a text file")
    if info.st_size > limit:
        raise TextFileError(f"holds {info.st_size:,} bytes: a {what} may hold at most {limit:,}")
    try:
        # O_NONBLOCK: should the path have become a FIFO since the check, opening it does not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            data = f.read(limit + 1)  # (a file growing under us, or a /proc file that lies about its size)
    except OSError as e:
        raise TextFileError(f"cannot be read: {e.strerror or e}") from None
    if len(data) > limit:
        raise TextFileError(f"holds more than {limit:,} bytes: a {what} may hold at most {limit:,}")
    try:
        text = data.decode("utf-8-sig")  # (a byte-order mark, as Windows editors write, is dropped)
    except UnicodeDecodeError as e:
        raise TextFileError(f"is not UTF-8 text (byte {e.start:,}): save it as UTF-8") from None
    if "\x00" in text:
        raise TextFileError(f"holds a NUL byte (at character {text.index(chr(0)):,}): a {what} is plain text")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def printable(text) -> str:
    """A file name or path for a one-line message: control characters (a newline in a name...) escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def slug(text):
    """text as a file-name fragment: lower case, runs of other characters as one '-'."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def unique_slugs(labels):
    """A distinct file-name fragment per label (labels that slug alike get -2, -3, ...)."""
    out, seen = [], set()
    for label in labels:
        base = slug(label) or "group"
        name, k = base, 1
        while name in seen:
            k += 1
            name = f"{base}-{k}"
        seen.add(name)
        out.append(name)
    return out


def whole_number(text: str, max_digits: int = 18):
    """The int that a string of ASCII digits spells, or None. (str.isdigit() also accepts "²" and other
    Unicode digits, which int() refuses with a ValueError, and int() refuses more than 4,300 digits.)"""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""  # a bare, "quoted" or 'literal' key part
_TOKENS = re.compile("|".join((
    rf"(?P<key>{_PART}(?:[ \t]*\.[ \t]*{_PART}){{{MAX_KEY_PARTS},}})",  # a dotted key of too many parts
    r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*+(?:"""|\Z)',  # the other tokens, each read whole, so that the
    r"'{3}[\s\S]*?(?:'{3}|\Z)",  # search never starts inside a string or a comment
    r'"(?:[^"\\\n]|\\.)*+(?:"|[^\n]*+)',  # (a string left open ends at the line's end)
    r"'[^'\n]*+(?:'|[^\n]*+)",
    r"#[^\n]*+",
    r"[A-Za-z0-9_-]++",
    r"""[^"'#A-Za-z0-9_-]++""",
)))


def long_dotted_key(text: str):
    """The line number of the first dotted key of more than MAX_KEY_PARTS parts (a.a.a...a = 1), or None.

    tomllib's time and memory grow with the square of a key's parts (16,000 parts: 10 s and 1 GB), so such
    a key is looked for in the text before parsing, in one pass over TOML-ish tokens (strings and comments
    are read whole, so the search never starts inside one and its time grows with the text's length)."""
    if text.count(".") < MAX_KEY_PARTS:
        return None
    for m in _TOKENS.finditer(text):
        if m.lastgroup == "key":
            return text.count("\n", 0, m.start()) + 1
    return None


def nesting_depth(value, limit: int = MAX_DEPTH):
    """(depth, dotted path of the deepest item) of nested dicts and lists, stopping once past limit.

    Iterative, so that a hostile file 10,000 levels deep costs no recursion (anything that walks the
    parsed value recursively, deepcopy or json included, would raise RecursionError on it)."""
    deepest, where = 0, ""
    stack = [(value, 0, "")]
    while stack:
        node, depth, path = stack.pop()
        if depth > deepest:
            deepest, where = depth, path
            if deepest > limit:
                break
        if isinstance(node, dict):
            stack.extend((v, depth + 1, f"{path}.{k}" if path else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, depth + 1, f"{path}.{i}" if path else str(i)) for i, v in enumerate(node))
    return deepest, where
