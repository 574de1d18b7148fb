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
* For the rules of a body against its provider's schema (`terraform.rules.provider_rules`):
  `arguments(body, decoded_by, also=())` (the body's members the decoder does not read itself, and
  those of names in `also`, as `(name, value or NO_VALUE)` pairs in document order, with the key
  handle of each: a list in the same order, or None when a key's handle is its name (values); on
  values a name the decoder reads is one of `decoded_by`, the `BodySchema` the tree was decoded
  with, or `"//"`; a body with a `dynamic` member is `Unanswerable` there), `fields(v)` (an object value's members, the same way, without `known`),
  `nested_bodies(key, value, schema)` (the bodies of the nested blocks of `schema` a member's value
  writes, as the decoder re-reads them: `decode.decode_blocks_from_attribute`), `dynamic_blocks(body)` (its
  `dynamic` blocks: `(label handle, label, content bodies)`), `missing_place(body)` (where a missing
  item is reported, the insertion point after its `{` or None, and whether it has no member) and
  `point(v, offset)` (an empty range `offset` characters into `v`), `whole_members(v)` /
  `whole_items(v)` (`members` / `items` of an object / array none of whose members is broken, as
  lists; else None). The values view answers the
  first two and, for plain shapes, `nested_bodies` and `dynamic_blocks`; the rest only on the tree.
* `tree_only(v, why)`: nothing on the tree; `Unanswerable` on values. A rule says so of a value it
  leaves to another part of the full analysis (an expression where a literal is usual, whose
  references and language site are read on the tree), so that a block holding one is never
  certified from its values.
* Positions only on demand: `range(v)` is the value's `[start, end)` in the document. A view that
  cannot answer a question for sure raises `Unanswerable`: the values view has no positions, and no
  exact text for a float (`json.loads` rounded it). A caller of a rule on values treats
  `Unanswerable` as "this block needs the full analysis", which can answer everything.
* Reading only; no view changes what it reads. Never raises anything but `Unanswerable` on the
  values `decode`/`skim` produce.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from ..diagnostic import Diagnostic, Fix, Related
from ..jsonsyntax.tree import ARRAY, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE, Container, Node, String
from .decode import decode_blocks_from_attribute
from .model import Attribute, Body
from .schema import BlockSchema, BodySchema
from .skim import Pairs
from .values import string_text

__all__ = ["ABSENT", "NO_VALUE", "VALUES", "python_types", "Finding", "Span", "decoded_names", "diagnostics_of", "TreeValue", "TreeView", "Unanswerable", "ValueView"]


#: What `member` returns for a name the body does not have.
ABSENT: Any = object()
#: What `member` returns for a name written without a value (a broken tree).
NO_VALUE: Any = object()


class Unanswerable(Exception):
    """The view cannot answer this question for sure (a position, a float's text on values)."""


class ValueView(Protocol):
    by_type: bool

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
    def arguments(self, body: Any, decoded_by: Any, also: Any = ()) -> tuple[Sequence[tuple[str, Any]], Sequence[Any] | None]: ...
    def fields(self, v: Any) -> Iterable[tuple[str, Any, Any]]: ...
    def nested_bodies(self, key: Any, value: Any, schema: BlockSchema) -> Sequence[Any]: ...
    def dynamic_blocks(self, body: Any) -> Sequence[tuple[Any, str, Sequence[Any]]]: ...
    def missing_place(self, body: Any) -> tuple[Any, Any, bool]: ...
    def point(self, v: Any, offset: int) -> Any: ...
    def whole_members(self, v: Any) -> Sequence[tuple[str, Any]] | None: ...
    def whole_items(self, v: Any) -> Sequence[Any] | None: ...
    def tree_only(self, v: Any, why: str) -> None: ...


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
    #: Whether a value's Python type tells its kind (`python_types`): not for tree nodes.
    by_type = False

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

    def range(self, v: TreeValue | Span | Attribute) -> tuple[int, int]:
        t = type(v)
        if t is Span:
            return v.start, v.end  # type: ignore[union-attr]
        if t is Attribute:
            return v.name_start, v.name_end  # type: ignore[union-attr]
        return v.start, v.start + (v.node.end - v.node.start)  # type: ignore[union-attr]

    def arguments(self, body: Body, decoded_by: Any, also: Any = ()) -> tuple[list[tuple[str, Any]], list[Attribute]]:
        pairs: list[tuple[str, Any]] = []
        keys: list[Attribute] = []
        for a in body.attributes:
            if a.schema is not None and a.name not in also:
                continue
            e = a.expr
            pairs.append((a.name, NO_VALUE if e is None else TreeValue(e.node, e.start)))
            keys.append(a)
        return pairs, keys

    def fields(self, v: TreeValue) -> Iterator[tuple[str, Span, Any]]:
        node, base = v
        if node.kind != OBJECT or not isinstance(node, Container):
            return
        for m in node.items:
            k, x = m.key, m.value
            if k is None or k.kind != STRING:
                continue
            yield (string_text(self.text, k, base + k.start), Span(base + k.start, base + k.end),
                   NO_VALUE if x is None else TreeValue(x, base + x.start))

    def nested_bodies(self, key: Attribute, value: Any, schema: BlockSchema) -> list[Body]:
        blocks, _ = decode_blocks_from_attribute(self.text, key, schema)
        return [b.body for b in blocks]

    def dynamic_blocks(self, body: Body) -> list[tuple[Span, str, list[Body]]]:
        out = []
        for blk in body.blocks:
            if blk.type_name != "dynamic" or not blk.labels:
                continue
            label = blk.labels[-1]
            out.append((Span(label.start, label.end), label.value, [c.body for c in blk.body.blocks_of("content")]))
        return out

    def missing_place(self, body: Body) -> tuple[Span, Span | None, bool]:
        node = body.node
        obj = node is not None and node.kind == OBJECT
        alone = not (obj and bool(node.items))  # type: ignore[union-attr]
        return Span(*body.missing_item_range), (Span(body.start + 1, body.start + 1) if obj else None), alone

    def point(self, v: TreeValue, offset: int) -> Span:
        return Span(v.start + offset, v.start + offset)

    def whole_members(self, v: TreeValue) -> list[tuple[str, TreeValue]] | None:
        node, base = v
        out = []
        for m in node.items:  # type: ignore[attr-defined]
            k, x = m.key, m.value
            if type(k) is not String or x is None:
                return None
            out.append((string_text(self.text, k, base + k.start), TreeValue(x, base + x.start)))
        return out

    def whole_items(self, v: TreeValue) -> list[TreeValue] | None:
        node, base = v
        out = []
        for m in node.items:  # type: ignore[attr-defined]
            if m.value is None:
                return None
            out.append(TreeValue(m.value, base + m.value.start))
        return out

    def tree_only(self, v: TreeValue, why: str) -> None:
        return None


_KINDS = {str: STRING, int: NUMBER, float: NUMBER, type(None): NULL, Pairs: OBJECT, list: ARRAY}


class _Values:
    """The view of the values `hcljson.skim` reads with the C scanner (no positions)."""

    __slots__ = ()
    #: A value's Python type tells its kind: a rule may test `type(v) in python_types(kinds)`, compiled
    #: once, instead of asking `kind` of each value.
    by_type = True

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

    def arguments(self, body: Pairs, decoded_by: Any, also: Any = ()) -> tuple[Sequence[tuple[str, Any]], None]:
        known = decoded_names(decoded_by)
        names = dict(body)
        if "dynamic" in names:  # its blocks are the tree's to read (`dynamic_blocks`)
            raise Unanswerable("dynamic blocks")
        if known.isdisjoint(names):  # (in C)
            return body, None
        if also:
            return [m for m in body if m[0] not in known or m[0] in also], None
        return [m for m in body if m[0] not in known], None

    def fields(self, v: Any) -> Iterable[tuple[str, str, Any]]:
        return ((k, k, x) for k, x in v) if type(v) is Pairs else ()

    def nested_bodies(self, key: str, value: Any, schema: BlockSchema) -> Sequence[Any]:
        """An object, or an array of objects, of an unlabelled block type; anything else (which the
        decoder reads with problems of its own, or with labels) is the tree's to answer."""
        if not schema.labels:
            t = type(value)
            if t is Pairs:
                return (value,)
            if t is list and all(type(x) is Pairs for x in value):
                return value
        raise Unanswerable("nested blocks")

    def dynamic_blocks(self, body: Pairs) -> Sequence[tuple[Any, str, Sequence[Any]]]:
        return ()  # (a body with a `dynamic` member is `Unanswerable` from `arguments` on)

    def missing_place(self, body: Any) -> tuple[Any, Any, bool]:
        raise Unanswerable("a position")

    def point(self, v: Any, offset: int) -> Any:
        raise Unanswerable("a position")

    def whole_members(self, v: Pairs) -> Sequence[tuple[str, Any]]:
        return v

    def whole_items(self, v: list) -> Sequence[Any]:
        return v

    def tree_only(self, v: Any, why: str) -> None:
        raise Unanswerable(why)


VALUES = _Values()


@functools.lru_cache(maxsize=256)
def decoded_names(schema: BodySchema) -> frozenset[str]:
    """The names a body of `schema` has the decoder read itself (its attributes and blocks, and the
    `"//"` comments)."""
    return frozenset(schema.attributes) | frozenset(schema.blocks) | {"//"}


@functools.lru_cache(maxsize=256)
def python_types(kinds: frozenset[str]) -> frozenset[type]:
    """The Python types of the values view every value of which has one of `kinds` (a bool only
    when both TRUE and FALSE are among them)."""
    out = {t for t, k in _KINDS.items() if k in kinds}
    if TRUE in kinds and FALSE in kinds:
        out.add(bool)
    return frozenset(out)



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
    #: Where the fixes apply, when not the finding's own range: a handle (`point`).
    fix_at: Any = None


def diagnostics_of(view: ValueView, findings: Iterable[Finding]) -> list[Diagnostic]:
    """`findings` as diagnostics on their values' ranges (a view with positions: `TreeView`)."""
    out: list[Diagnostic] = []
    for f in findings:
        start, end = view.range(f.at)
        if f.span is not None:
            start, end = start + f.span[0], start + f.span[1]
        fs, fe = (start, end) if f.fix_at is None else view.range(f.fix_at)
        fixes = tuple(Fix(fs, fe, new, title) for new, title in f.fixes)
        related = tuple(Related(*view.range(at), message) for at, message in f.related)
        out.append(Diagnostic(start, end, f.severity, f.code, f.summary, f.detail, related, fixes))
    return out
