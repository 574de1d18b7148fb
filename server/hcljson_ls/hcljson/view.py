"""One small read-only interface over a block body's JSON values, implemented by the tree (the full
analysis) and by the C scanner's values (`hcljson.skim`, the quick open), so that a Terraform rule
is written once and runs on both.

    TreeView(text)    bodies: decoded `model.Body`; values: `TreeValue(node, start)`
    VALUES            bodies: `skim.Pairs`; values: what `json.loads` builds (`Pairs`, lists, ...)
    Finding(at, severity, code, summary, detail)     what a rule reports, at a value handle
    diagnostics_of(view, findings) -> list[Diagnostic]   findings placed (`view.range`)

Contract
--------
* A view answers, for a value handle: `kind(v)` (a `jsonsyntax.tree` kind: OBJECT, ARRAY, STRING,
  NUMBER, TRUE, FALSE, NULL; a broken tree value gives its own kind, which rules leave alone),
  `string(v)` (a string's decoded value), `number_text(v)` (a number as written), `members(v)` (an
  object's `(key, value)` pairs in document order, keys decoded), `items(v)` (an array's values);
  `plain_string(v)` (written with no escape and terminated: its text is its value), `block(body,
  name)` (the body of the first nested block `name` as the decoder reads it: an object, or the first
  object of an array; `ABSENT` without one); for a body: `key(body, name)` (a handle of the key
  of its first member `name`, for `range`; `ABSENT` without one), `member(body, name)` (the value of its first member called `name`, or `ABSENT`: a
  JSON null is a value, None on the values view; `NO_VALUE` for a member written without a value,
  mid-edit, which only the tree has: rules count the name and leave the value alone).
* Positions only on demand: `range(v)` is the value's `[start, end)` in the document. A view that
  cannot answer a question for sure raises `Unanswerable`: the values view has no positions, and no
  exact text for a float (`json.loads` rounded it). A caller of a rule on values treats
  `Unanswerable` as "this block needs the full analysis", which can answer everything.
* Reading only; no view changes what it reads. Never raises anything but `Unanswerable` on the
  values `decode`/`skim` produce.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from ..diagnostic import Diagnostic, Fix, Related
from ..jsonsyntax.tree import ARRAY, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE, Container, Node, String
from .model import Body
from .skim import Pairs
from .values import string_text

__all__ = ["ABSENT", "NO_VALUE", "VALUES", "Finding", "Span", "diagnostics_of", "TreeValue", "TreeView", "Unanswerable", "ValueView"]


#: What `member` returns for a name the body does not have.
ABSENT: Any = object()
#: What `member` returns for a name written without a value (a broken tree).
NO_VALUE: Any = object()


class Unanswerable(Exception):
    """The view cannot answer this question for sure (a position, a float's text on values)."""


class ValueView(Protocol):
    def kind(self, v: Any) -> str: ...
    def string(self, v: Any) -> str: ...
    def number_text(self, v: Any) -> str: ...
    def members(self, v: Any) -> Iterable[tuple[str, Any]]: ...
    def items(self, v: Any) -> Iterable[Any]: ...
    def plain_string(self, v: Any) -> bool: ...
    def member(self, body: Any, name: str) -> Any: ...
    def block(self, body: Any, name: str) -> Any: ...
    def key(self, body: Any, name: str) -> Any: ...
    def range(self, v: Any) -> tuple[int, int]: ...


class TreeValue(NamedTuple):
    """A tree node and its absolute start (a node's own offsets are relative to its parent's start)."""

    node: Node
    start: int


class Span(NamedTuple):
    """A range of the document: the tree view's handle of a member's key."""

    start: int
    end: int


class TreeView:
    """The view of decoded bodies and tree nodes of document `text` (positions exact)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def kind(self, v: TreeValue) -> str:
        return v.node.kind

    def string(self, v: TreeValue) -> str:
        return string_text(self.text, v.node, v.start)

    def number_text(self, v: TreeValue) -> str:
        return self.text[v.start : v.start + (v.node.end - v.node.start)]

    def members(self, v: TreeValue) -> Iterator[tuple[str, TreeValue]]:
        node, base = v
        if node.kind != OBJECT or not isinstance(node, Container):
            return
        for m in node.items:
            k, x = m.key, m.value
            if k is None or x is None or k.kind != STRING:
                continue
            yield string_text(self.text, k, base + k.start), TreeValue(x, base + x.start)

    def items(self, v: TreeValue) -> Iterator[TreeValue]:
        node, base = v
        if node.kind != ARRAY or not isinstance(node, Container):
            return
        for m in node.items:
            if m.value is not None:
                yield TreeValue(m.value, base + m.value.start)

    def plain_string(self, v: TreeValue) -> bool:
        node = v.node
        return isinstance(node, String) and not node.escaped and node.terminated

    def key(self, body: Body, name: str) -> Any:
        a = body.attribute(name)
        return ABSENT if a is None else Span(a.name_start, a.name_end)

    def block(self, body: Body, name: str) -> Any:
        found = body.blocks_of(name)
        return found[0].body if found else ABSENT

    def member(self, body: Body, name: str) -> Any:
        a = body.attribute(name)
        if a is None:
            return ABSENT
        if a.expr is None:
            return NO_VALUE
        return TreeValue(a.expr.node, a.expr.start)

    def range(self, v: TreeValue | Span) -> tuple[int, int]:
        if type(v) is Span:
            return v.start, v.end
        return v.start, v.start + (v.node.end - v.node.start)  # type: ignore[union-attr]


_KINDS = {str: STRING, int: NUMBER, float: NUMBER, type(None): NULL, Pairs: OBJECT, list: ARRAY}


class _Values:
    """The view of the values `hcljson.skim` reads with the C scanner (no positions)."""

    __slots__ = ()

    def kind(self, v: Any) -> str:
        if v is True:
            return TRUE
        if v is False:
            return FALSE
        return _KINDS[type(v)]

    def string(self, v: str) -> str:
        return v

    def number_text(self, v: int | float) -> str:
        if type(v) is int:
            return str(v)
        raise Unanswerable("a float's text")

    def members(self, v: Any) -> Iterable[tuple[str, Any]]:
        return v if type(v) is Pairs else ()

    def items(self, v: Any) -> Iterable[Any]:
        return v if type(v) is list else ()

    def plain_string(self, v: str) -> bool:
        raise Unanswerable("how a string is written")

    def key(self, body: Pairs, name: str) -> Any:
        for k, _ in body:
            if k == name:
                return k
        return ABSENT

    def block(self, body: Pairs, name: str) -> Any:
        for k, x in body:
            if k == name:
                if type(x) is list:
                    x = x[0] if x else None
                return x if type(x) is Pairs else ABSENT
        return ABSENT

    def member(self, body: Pairs, name: str) -> Any:
        for k, x in body:
            if k == name:
                return x
        return ABSENT

    def range(self, v: Any) -> tuple[int, int]:
        raise Unanswerable("a position")


VALUES = _Values()


@dataclass(frozen=True, slots=True)
class Finding:
    """A diagnostic of a rule written over a view, on value handle `at` (placed by the caller)."""

    at: Any
    severity: str
    code: str
    summary: str
    detail: str
    #: The part of the value's text meant (offsets from its start), or None: the whole value.
    span: tuple[int, int] | None = None
    #: Replacements of that range: (new text, title).
    fixes: tuple[tuple[str, str], ...] = ()
    #: Related places: (handle, message).
    related: tuple[tuple[Any, str], ...] = ()


def diagnostics_of(view: ValueView, findings: Iterable[Finding]) -> list[Diagnostic]:
    """`findings` as diagnostics on their values' ranges (a view with positions: `TreeView`)."""
    out: list[Diagnostic] = []
    for f in findings:
        start, end = view.range(f.at)
        if f.span is not None:
            start, end = start + f.span[0], start + f.span[1]
        fixes = tuple(Fix(start, end, new, title) for new, title in f.fixes)
        related = tuple(Related(*view.range(at), message) for at, message in f.related)
        out.append(Diagnostic(start, end, f.severity, f.code, f.summary, f.detail, related, fixes))
    return out
