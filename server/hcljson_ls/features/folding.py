"""Folding ranges from the JSON tree alone (works on any JSON, Terraform or not).

    folding_ranges(snapshot, uri) -> tuple[FoldingRange, ...]
    folding_ranges_in(root, text) -> tuple[FoldingRange, ...]    the same from a JSON tree and its text

Contract
--------
* One range per object/array that spans more than one line, in document order (outer before inner).
* `start` is the absolute offset of the opening bracket; `end` is the absolute offset of the closing
  bracket, or the container's end when it is not closed. The LSP edge turns these into lines
  (typically `startLine = line(start)`, `endLine = line(end)` minus one when the closing bracket starts
  its own line, so that it stays visible).
* Line breaks are `\\n`, `\\r\\n` and a lone `\\r`, as in LSP.
* The walk is iterative: arbitrarily deep documents do not hit the recursion limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..jsonsyntax.tree import Container, Node
from ..workspace import Snapshot

_LINE_BREAK = re.compile(r"\r\n?|\n")


@dataclass(frozen=True, slots=True)
class FoldingRange:
    start: int
    end: int
    kind: str | None = None  # an LSP FoldingRangeKind ("comment", "imports", "region") or None


def line_starts(text: str) -> list[int]:
    """Offsets at which each line after the first begins."""
    return [m.end() for m in _LINE_BREAK.finditer(text)]


def folding_ranges(snapshot: Snapshot, uri: str) -> tuple[FoldingRange, ...]:
    """The folding ranges of open document `uri` (none for an unknown document)."""
    state = snapshot.document(uri)
    if state is None:
        return ()
    return folding_ranges_in(state.syntax.root, state.text)


def folding_ranges_in(root: Node | None, text: str) -> tuple[FoldingRange, ...]:
    if root is None:
        return ()
    return _folding_ranges(root, text)


def _folding_ranges(root: Node, text: str) -> tuple[FoldingRange, ...]:
    find = text.find
    out: list[FoldingRange] = []
    # (node, absolute start of its container)
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, base = stack.pop()
        if not isinstance(node, Container):
            continue
        start = base + node.start
        end = base + node.end
        close = end - 1 if node.closed and end > start else end
        # A line start in (start, close]: `find` stops at the first break (C speed), so this costs the
        # length of single-line containers only.
        if find("\n", start, close) < 0:
            r = find("\r", start, close)
            if r < 0 or (r == close - 1 and text.startswith("\n", close)):  # "\r" of a "\r\n" at `close`
                continue  # everything inside is on one line too: no need to look deeper
        out.append(FoldingRange(start, close))
        for member in reversed(node.items):
            value = member.value
            if isinstance(value, Container):
                stack.append((value, start))
            key = member.key
            if isinstance(key, Container):  # only after errors, but harmless
                stack.append((key, start))
    return tuple(out)
