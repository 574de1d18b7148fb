"""Formatting (whole document and range) from the lossless token stream; any JSON file we serve.

    Layout(tab_size=2, insert_spaces=True, insert_final_newline=None, trim_final_newlines=None)
    format_document(snapshot, uri, layout) -> list[Edit] | None       None: not an open document
    format_range(snapshot, uri, start, end, layout) -> list[Edit] | None
    document_edits(text, layout) -> list[Edit]                        the same from a valid text
    range_edits(text, root, start, end, layout) -> list[Edit]         ... and its tree
    apply(text, edits) -> str                                         the edits applied (tests, benches)

An `Edit` is a tuple `(start, end, new_text)`: replace `text[start:end]` (absolute offsets) with
`new_text`. Edits are sorted, never overlap and only ever replace whitespace between two tokens.

The layout (docs/formatting.md)
-------------------------------
* A non-empty object has one member per line: `"key": value`, no space before `:`, one after it.
* A non-empty array whose elements are all scalars (strings, numbers, `true`, `false`, `null`) is
  written on one line, `["a", "b"]`, when that whole line fits in `WIDTH` (80) columns: its
  indentation, the `"key": ` before it, the array and the `,` after it. Columns are characters, a
  tab counts `tab_size`. Every other non-empty array has one element per line.
* Empty objects and arrays are `{}` and `[]`.
* Each line inside a container is indented one unit more than the container's own depth: a unit
  is `tab_size` spaces, or a tab when `insert_spaces` is false.
* No whitespace before the root value. After it, the document's own count of final line breaks,
  at most one with `trim_final_newlines`, at least one with `insert_final_newline`; the spaces
  there go. Formatted lines never end in whitespace, so `trimTrailingWhitespace` always holds.
* Line breaks are the document's first one (`\\r\\n`, `\\n` or `\\r`), `\\n` when it has none.

Contract
--------
* Only whitespace between tokens changes: key order, duplicate keys, `"//"` members, strings with
  their escapes and numbers as written stay exactly (the token texts never change).
* Minimal: at most one edit per gap between two tokens, only where its whitespace differs from the
  layout's, and without the part they share at either end (re-indenting a line replaces that
  line's indentation only); none for an already formatted document. Linear in the text: one scan (`jsonsyntax.scanner`), one pass.
* Idempotent: formatting the result again gives no edit (the layout depends on the tokens, the
  depth and the options only).
* A document with any syntax error (other than `syntax/root-not-body`, which is about meaning) gets
  no edit; so does one whose layout would insert over `MAX_INSERTED` characters (absurd nesting:
  the indentation grows with the depth). A `tab_size` over `MAX_TAB_SIZE` counts as that.
* Range formatting formats the smallest container (object or array) that encloses the range, as
  the whole layout would, but indented from the current indentation of its opening bracket's line;
  and it keeps only the edits that lie inside the range's lines (from the start of the range's
  first line to the end of its last line, the line break excluded; a range ending at the start of
  a line ends on the line before, but what the range itself covers may always change). When that container is the root, or no container encloses the
  range, the range formats the whole document (then filtered by its lines alike).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from ..jsonsyntax.scanner import WS, scan
from ..jsonsyntax.tree import Container, Node, member_at
from ..workspace import Snapshot

WIDTH = 80  # columns a one-line array of scalars may take, with its indentation, key and comma
MAX_TAB_SIZE = 64  # a larger `tabSize` counts as this (a unit is built once per request)
MAX_INSERTED = 64_000_000  # characters of whitespace a layout may insert before it gives up

Edit = tuple[int, int, str]

_CLOSERS = "}]"
_PUNCTUATION = "{}[]:,"
# Whitespace at a position (matches the empty string: never None).
_SPACE = cast(Callable[[str, int], "re.Match[str]"], re.compile(r"[ \t\n\r]*").match)
_MEANING_ONLY = frozenset({"syntax/root-not-body"})  # a valid JSON text that is not an HCL body


@dataclass(frozen=True, slots=True)
class Layout:
    """The client's `FormattingOptions` that decide the layout (None: the option was not given)."""

    tab_size: int = 2
    insert_spaces: bool = True
    insert_final_newline: bool | None = None
    trim_final_newlines: bool | None = None

    @property
    def unit(self) -> str:
        return " " * self.columns_per_tab if self.insert_spaces else "\t"

    @property
    def columns_per_tab(self) -> int:
        return min(max(self.tab_size, 0), MAX_TAB_SIZE)


def format_document(snapshot: Snapshot, uri: str, layout: Layout) -> list[Edit] | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    if _has_syntax_errors(state.syntax.diagnostics):
        return []
    return document_edits(state.text, layout)


def format_range(snapshot: Snapshot, uri: str, start: int, end: int, layout: Layout) -> list[Edit] | None:
    state = snapshot.document(uri)
    if state is None:
        return None
    syntax = state.syntax
    if _has_syntax_errors(syntax.diagnostics):
        return []
    return range_edits(state.text, syntax.root, start, end, layout)


def _has_syntax_errors(diagnostics) -> bool:
    return any(d.code not in _MEANING_ONLY for d in diagnostics)


class _TooLarge(Exception):
    """The layout would insert more than `MAX_INSERTED` characters (absurd nesting)."""


def document_edits(text: str, layout: Layout) -> list[Edit]:
    """The edits that format `text`, a JSON text without syntax errors."""
    try:
        return _document_edits(text, layout)
    except _TooLarge:
        return []


def _document_edits(text: str, layout: Layout) -> list[Edit]:
    toks = scan(text)
    if not toks:
        return []
    edits: list[Edit] = []
    pos = 0
    if toks[0][0] in WS:  # whitespace before the root value
        edits.append((0, len(toks[0]), ""))
        pos = len(toks[0])
        del toks[0]
        if not toks:
            return edits
    eol = _line_break(text)
    tail_at = _layout(toks, pos, edits, "", 0, 0, False, eol, layout)
    tail = text[tail_at:]
    breaks = tail.count("\n") + tail.count("\r") - tail.count("\r\n")
    if layout.trim_final_newlines:
        breaks = min(breaks, 1)
    if layout.insert_final_newline:
        breaks = max(breaks, 1)
    wanted = eol * breaks
    if tail != wanted:
        edits.append((tail_at, len(text), wanted))
    return edits


def range_edits(text: str, root: Node | None, start: int, end: int, layout: Layout) -> list[Edit]:
    """The edits that format the range `[start, end)` of `text` (valid JSON; `root` its tree)."""
    start, end = sorted((max(0, min(start, len(text))), max(0, min(end, len(text)))))
    found = _enclosing(root, start, end)
    if found is None or root is None or found[0] == root.start:  # the root: as the whole document (final newlines too)
        edits = document_edits(text, layout)
    else:
        try:
            edits = _container_edits(text, found, layout)
        except _TooLarge:
            return []
    first = _line_start(text, start)
    last = end - 1 if end > start and _line_start(text, end) == end else end
    last_line_end = max(_line_end(text, _line_start(text, last)), end)
    return [e for e in edits if e[0] >= first and e[1] <= last_line_end]


def _container_edits(text: str, found: tuple[int, int], layout: Layout) -> list[Edit]:
    """The edits that lay out the container `text[found[0]:found[1]]` from the current indentation
    of its opening bracket's line."""
    open_at, close_end = found
    line_start = _line_start(text, open_at)
    before = text[line_start:open_at]
    indent = before[: len(before) - len(before.lstrip(" \t"))]
    tab = max(layout.columns_per_tab, 1)
    comma_after = text.startswith(",", _SPACE(text, close_end).end())
    edits: list[Edit] = []
    _layout(scan(text[open_at:close_end]), open_at, edits, indent, _columns(indent, tab), _columns(before, tab),
            comma_after, _line_break(text), layout)
    return edits


def _layout(toks: list[str], pos: int, edits: list[Edit], base: str, base_columns: int, first_column: int,
            comma_after: bool, eol: str, layout: Layout) -> int:
    """Append to `edits` the edits that lay out `toks` (one JSON value's tokens, starting at offset
    `pos`, with no leading whitespace token), each line inside indented `base` plus one unit per
    depth (`base_columns` wide); the first token is at column `first_column`, and `comma_after`
    says a `,` follows the value (both only decide whether a first `[` fits on one line). Returns
    the offset where the last token's trailing whitespace starts (left alone)."""
    unit = layout.unit
    tab = max(layout.columns_per_tab, 1)
    unit_columns = _columns(unit, tab)
    breaks = [eol + base]  # breaks[d]: a line break and the indentation of depth d
    inline: list[bool] = []  # per open container: an array written on one line
    append = edits.append
    inserted = 0
    n = len(toks)
    last = n - 1
    for i in range(n):
        tok = toks[i]
        c = tok[0]
        size = len(tok)
        if i == last:
            return pos + (1 if c in _PUNCTUATION else len(tok.rstrip(WS)))
        nxt = toks[i + 1][0]
        if c in _PUNCTUATION:
            lexeme = 1
            if c == ",":
                if inline[-1]:
                    wanted = " "
                else:
                    depth = len(inline)
                    while depth >= len(breaks):
                        breaks.append(breaks[-1] + unit)
                    wanted = breaks[depth]
            elif c == ":":
                wanted = " "
            elif c == "{" or c == "[":
                if nxt in _CLOSERS:
                    inline.append(True)
                    wanted = ""
                elif c == "[" and _fits(toks, i, len(inline), base_columns, unit_columns, first_column, comma_after):
                    inline.append(True)
                    wanted = ""
                else:
                    inline.append(False)
                    depth = len(inline)
                    while depth >= len(breaks):
                        breaks.append(breaks[-1] + unit)
                    wanted = breaks[depth]
            else:  # a closer: what follows is decided by the enclosing container
                inline.pop()
                wanted = _after_value(nxt, inline, breaks, unit)
        else:
            lexeme = len(tok.rstrip(WS))
            wanted = _after_value(nxt, inline, breaks, unit)
        if size - lexeme != len(wanted) or (wanted and tok[lexeme:] != wanted):
            inserted += len(wanted)
            if inserted > MAX_INSERTED:
                raise _TooLarge
            if size == lexeme or not wanted:
                append((pos + lexeme, pos + size, wanted))
            else:
                append(_narrowed(pos + lexeme, tok[lexeme:], wanted))
        pos += size
    return pos


def _narrowed(start: int, old: str, new: str) -> Edit:
    """The edit replacing `old` (at `start`) with `new`, without their common prefix and suffix (so
    that re-indenting a line is an edit on that line, after the previous line's break)."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return (start + head, start + len(old) - tail, new[head : len(new) - tail])


def _after_value(nxt: str, inline: list[bool], breaks: list[str], unit: str) -> str:
    if nxt == "," or nxt == ":":
        return ""
    # `nxt` closes the enclosing container (a valid text has nothing else after a value)
    if not inline or inline[-1]:
        return ""
    depth = len(inline) - 1
    while depth >= len(breaks):
        breaks.append(breaks[-1] + unit)
    return breaks[depth]


def _fits(toks: list[str], i: int, depth: int, base_columns: int, unit_columns: int, first_column: int,
          comma_after: bool) -> bool:
    """Whether the array opening at `toks[i]` holds only scalars and fits on one line."""
    if i == 0:
        width = first_column
    else:
        width = base_columns + unit_columns * depth
        if toks[i - 1][0] == ":":
            width += len(toks[i - 2].rstrip(WS)) + 2
    width += 2  # the brackets
    j = i + 1
    while True:
        tok = toks[j]
        c = tok[0]
        if c == "]":
            break
        if c == "{" or c == "[":
            return False
        width += 2 if c == "," else len(tok.rstrip(WS))
        if width > WIDTH:
            return False
        j += 1
    if (toks[j + 1][0] == "," if j + 1 < len(toks) else comma_after and i == 0):
        width += 1
    return width <= WIDTH


def _enclosing(root: Node | None, start: int, end: int) -> tuple[int, int] | None:
    """(open bracket offset, offset after the close bracket) of the smallest container that
    encloses `[start, end]`, or None when none does."""
    if not isinstance(root, Container) or not (root.start <= start and end <= root.end):
        return None
    node, base = root, 0
    while True:
        inner = base + node.start
        index = member_at(node, start - inner)
        if index < 0:
            break
        value = node.items[index].value
        if not isinstance(value, Container):
            break
        if not (inner + value.start <= start and end <= inner + value.end):
            break
        node, base = value, inner
    return base + node.start, base + node.end


def _line_break(text: str) -> str:
    n = text.find("\n")
    r = text.find("\r", 0, n if n >= 0 else len(text))
    if r >= 0:
        return "\r\n" if text.startswith("\n", r + 1) else "\r"
    return "\n"


def _line_start(text: str, offset: int) -> int:
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def _line_end(text: str, offset: int) -> int:
    ends = [i for i in (text.find("\n", offset), text.find("\r", offset)) if i >= 0]
    return min(ends) if ends else len(text)


def _columns(s: str, tab: int) -> int:
    return len(s) + s.count("\t") * (tab - 1)
