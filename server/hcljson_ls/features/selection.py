"""Selection ranges ("expand selection") from the JSON tree alone.

    selection_ranges(snapshot, uri, offsets) -> tuple[SelectionRange | None, ...]
    selection_range(root, text, offset) -> SelectionRange | None          from a JSON tree and its text
    selection_ranges_in(root, text, offsets) -> tuple[SelectionRange | None, ...]

Contract
--------
* The innermost range comes first; `parent` links lead outwards:
  string content (inside the quotes) -> token -> member (`"key": value`, without the comma)
  -> container -> enclosing member -> ... -> root value -> whole document.
* Every range strictly contains the previous one (equal ranges are merged), all offsets absolute.
* An offset that touches the end of a token (`"abc"|`) selects that token; an offset in the
  whitespace between members starts at the enclosing container.
* Offsets outside the text are clamped; `None` only when the document is empty.
* Iterative descent: no recursion, any depth.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from ..jsonsyntax.tree import Container, Member, Node, String
from ..workspace import Snapshot


@dataclass(frozen=True, slots=True)
class SelectionRange:
    start: int
    end: int
    parent: SelectionRange | None = None

    def chain(self) -> list[tuple[int, int]]:
        """The ranges from this one outwards, as (start, end) pairs."""
        out: list[tuple[int, int]] = []
        r: SelectionRange | None = self
        while r is not None:
            out.append((r.start, r.end))
            r = r.parent
        return out


def _node_spans(node: Node, base: int, offset: int) -> list[tuple[int, int]]:
    """Spans for a leaf token, outermost first (a string's content when the offset is in it)."""
    start, end = base + node.start, base + node.end
    spans = [(start, end)]
    if isinstance(node, String):
        cs, ce = base + node.content_start, base + node.content_end
        if start <= cs <= offset <= ce <= end:
            spans.append((cs, ce))
    return spans


def _touches(start: int, end: int, offset: int) -> bool:
    return start <= offset <= end


def _member_end(m: Member) -> int:
    """Relative end of a member without its trailing comma."""
    if m.value is not None:
        return m.value.end
    if m.colon >= 0:
        return m.colon + 1
    if m.key is not None:
        return m.key.end
    return m.start


def _find_member(c: Container, rel: int) -> Member | None:
    """The member of `c` whose span (without comma) touches relative offset `rel`.

    When the offset is both the end of one member and the start of the next (no space between),
    the later member wins only if the offset is strictly inside it."""
    items = c.items
    if not items:
        return None
    starts = [m.start for m in items]
    i = bisect_right(starts, rel) - 1
    if i >= 0 and _touches(items[i].start, _member_end(items[i]), rel):
        return items[i]
    return None


def _spans(root: Node, text_len: int, offset: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = [(0, text_len)]
    node: Node = root
    base = 0
    while True:
        start, end = base + node.start, base + node.end
        if not _touches(start, end, offset):
            return spans
        if not isinstance(node, Container):
            spans.extend(_node_spans(node, base, offset))
            return spans
        spans.append((start, end))
        inner = start
        member = _find_member(node, offset - inner)
        if member is None:
            return spans
        spans.append((inner + member.start, inner + _member_end(member)))
        key, value = member.key, member.value
        if key is not None and _touches(inner + key.start, inner + key.end, offset) and not (
            value is not None and offset == inner + key.end and offset >= inner + value.start
        ):
            spans.extend(_node_spans(key, inner, offset))
            return spans
        if value is not None and _touches(inner + value.start, inner + value.end, offset):
            node, base = value, inner
            continue
        return spans


def selection_range(root: Node | None, text: str, offset: int) -> SelectionRange | None:
    if not text and root is None:
        return None
    offset = max(0, min(offset, len(text)))
    spans = [(0, len(text))] if root is None else _spans(root, len(text), offset)
    result: SelectionRange | None = None
    last: tuple[int, int] | None = None
    for s, e in spans:  # outermost first
        if (s, e) == last:
            continue
        if last is not None and not (last[0] <= s and e <= last[1]):
            continue  # never widen while going inwards (defensive against odd error trees)
        result = SelectionRange(s, e, result)
        last = (s, e)
    return result


def selection_ranges(snapshot: Snapshot, uri: str, offsets: Sequence[int]) -> tuple[SelectionRange | None, ...]:
    """One selection range chain per offset of open document `uri` (all None for an unknown one)."""
    state = snapshot.document(uri)
    if state is None:
        return tuple(None for _ in offsets)
    return selection_ranges_in(state.syntax.root, state.text, offsets)


def selection_ranges_in(root: Node | None, text: str, offsets: Sequence[int]) -> tuple[SelectionRange | None, ...]:
    return tuple(selection_range(root, text, o) for o in offsets)
