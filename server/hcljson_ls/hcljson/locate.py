"""Navigation: what is at a document offset, in HCL terms.

    locate(text, body, offset) -> Context

`body` is the decoded root body (`decode.decode_file`, or an `incremental.FileView`, of which only
the top-level blocks around `offset` are built: `FileView.blocks_at`) of the same document version
as `text`;
the walk follows the JSON tree under `body.node`, guided by the schemas kept on the decoded
elements, so it also answers for half-typed input that decoded to nothing (a label level with
no body yet, a key being typed). Offsets are absolute; a range holds `offset` when
`start <= offset <= end` (a cursor just after a key or a string still counts as on it).

`Context.kind` is one of:

    OUTSIDE        not inside the root value
    BODY           in a body, not on any property (where a new argument or block would go)
    COMMENT        on a `"//"` comment property of a body
    BLOCK_TYPE     on the key naming a block type (`"resource"`)
    LABEL          on a label key (`"aws_instance"`); `label_index` says which label
    LABEL_SLOT     inside a label level but not on a key (where label `label_index` would go)
    BODY_SLOT      inside a block's value after its labels, not in a body (e.g. `[ | ]`)
    ARGUMENT_NAME  on the key of an argument (known, or accepted by an open/dynamic body)
    UNKNOWN_NAME   on a key the body's schema does not accept
    VALUE          inside the value of an argument (or of an unknown property: `attribute` None)

The search is bounded by the schema's nesting plus one loop per expression level (iterative).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, TypeGuard

from ..jsonsyntax import strings
from ..jsonsyntax.tree import ARRAY, OBJECT, STRING, Container, Member, Node, String
from .decode import decode_body
from .incremental import FileView
from .model import Attribute, Block, Body, Expression, Label
from .schema import (
    AT_DEEPER,
    AT_DEEPER_KEY,
    AT_ELEMENT,
    AT_KEY,
    AT_ROOT,
    AT_VALUE,
    EXPRESSION,
    OPEN_BODY,
    STRING_LITERAL,
    AttributeSchema,
    BlockSchema,
    BodySchema,
    string_mode,
)
from .values import key_text
from .window import NeedsTree, PartialView

OUTSIDE = "outside"
BODY = "body"
COMMENT = "comment"
BLOCK_TYPE = "block_type"
LABEL = "label"
LABEL_SLOT = "label_slot"
BODY_SLOT = "body_slot"
ARGUMENT_NAME = "argument_name"
UNKNOWN_NAME = "unknown_name"
VALUE = "value"


@dataclass(frozen=True, slots=True)
class StringAt:
    """The JSON string under the offset: node, absolute range, decoded content with its offsets
    map, the decoded index of the offset (0..len(value); the opening quote maps to 0, the
    closing quote to len(value)), how the string is read (`schema.STRING_*`; None where the
    schema expects no string) and whether it is an object key."""

    node: String
    start: int
    end: int
    decoded: strings.Decoded
    index: int
    mode: str | None
    is_key: bool

    @property
    def value(self) -> str:
        return self.decoded.value


@dataclass(frozen=True, slots=True)
class Context:
    kind: str
    offset: int
    # Decoded blocks whose bodies hold the offset, outermost first.
    blocks: tuple[Block, ...] = ()
    # The innermost decoded body holding the offset and its schema (what may be written there).
    body: Body | None = None
    schema: BodySchema | None = None
    # BLOCK_TYPE / LABEL / LABEL_SLOT / BODY_SLOT: the block type at hand.
    block_schema: BlockSchema | None = None
    type_name: str | None = None
    type_range: tuple[int, int] | None = None
    labels: tuple[Label, ...] = ()  # labels so far (LABEL: including the one under the offset)
    label_index: int | None = None
    # The first decoded block for this header (BLOCK_TYPE / LABEL: a key can be shared by several).
    block: Block | None = None
    # The property key under the offset (or whose value holds it).
    name: str | None = None
    name_range: tuple[int, int] | None = None
    # ARGUMENT_NAME / VALUE: the argument (None for an unknown property).
    attribute: Attribute | None = None
    # VALUE: the innermost JSON node holding the offset (None between `:` and the value), its
    # absolute start, and the path from the argument's value (object keys, array indexes).
    node: Node | None = None
    node_start: int = -1
    path: tuple[str | int, ...] = ()
    # Any kind: the string under the offset, if any.
    string: StringAt | None = None


def _string_at(text: str, node: String, start: int, offset: int, mode: str | None, is_key: bool) -> StringAt:
    d = strings.decode(text, start, node)
    i = bisect_right(d.offsets, offset) - 1
    n = len(d.value)
    i = 0 if i < 0 else n if i > n else i
    return StringAt(node, start, start + node.end - node.start, d, i, mode, is_key)


def _span_end(m: Member) -> int:
    if m.value is not None:
        return m.value.end
    if m.colon >= 0:
        return m.colon + 1
    return m.key.end if m.key is not None else m.start


def _member_in(obj: Container, inner: int, offset: int) -> Member | None:
    """The member of object `obj` (absolute start `inner`) whose key..value span holds offset."""
    items = obj.items
    if not items:
        return None
    rel = offset - inner
    i = bisect_right(items, rel, key=_member_start) - 1
    if i < 0:
        return None
    m = items[i]
    if rel <= _span_end(m):
        return m
    if m.value is None and m.colon >= 0 and (m.comma < 0 or rel <= m.comma):
        # `"key": |` with no value yet: the value slot runs to the next member or the closer.
        limit = items[i + 1].start - 1 if i + 1 < len(items) else obj.end - obj.start - (1 if obj.closed else 0)
        if rel <= limit:
            return m
    return None


def _member_start(m: Member) -> int:
    return m.start


def _element_in(arr: Container, inner: int, offset: int) -> Node | None:
    items = arr.items
    if not items:
        return None
    rel = offset - inner
    i = bisect_right(items, rel, key=_member_start) - 1
    if i < 0:
        return None
    v = items[i].value
    return v if v is not None and v.start <= rel <= v.end else None


def _property_in(node: Node, base: int, offset: int) -> tuple[Member, int] | None:
    """In a body or label level (object, or array of objects): the member holding `offset` and
    its container's absolute start."""
    inner = base + node.start
    if node.kind == OBJECT:
        m = _member_in(node, inner, offset)  # type: ignore[arg-type]
        return (m, inner) if m is not None else None
    if node.kind == ARRAY:
        e = _element_in(node, inner, offset)  # type: ignore[arg-type]
        if e is not None and e.kind == OBJECT:
            m = _member_in(e, inner + e.start, offset)  # type: ignore[arg-type]
            return (m, inner + e.start) if m is not None else None
    return None


def _within(node: Node | None, base: int, offset: int) -> TypeGuard[Node]:
    return node is not None and base + node.start <= offset <= base + node.end


def locate(text: str, body: Body | FileView, offset: int) -> Context:
    """What is at `offset` (see the module docstring)."""
    if isinstance(body, PartialView) and not body.holds(offset):
        raise NeedsTree(offset)  # a view of the blocks around another offset (`hcljson.window`)
    node = body.node
    if node is None or not (body.start <= offset <= body.end):
        return Context(OUTSIDE, offset)
    base = body.start - node.start
    chain: list[Block] = []
    cur = body
    while True:
        schema = cur.schema
        hit = _property_in(node, base, offset)
        # The fields every context of this body shares (typed loosely: they go to `Context(**...)`).
        common: dict[str, Any] = dict(blocks=tuple(chain), body=cur, schema=schema)
        if hit is None:
            return Context(BODY, offset, **common)
        m, inner = hit
        k = m.key
        if k is None:
            return Context(BODY, offset, **common)
        kstart = inner + k.start
        name = key_text(text, k, kstart)
        if name is None:
            return Context(BODY, offset, **common)
        kend = inner + k.end
        on_key = kstart <= offset <= kend
        key_string = _string_at(text, k, kstart, offset, STRING_LITERAL, True) if on_key and isinstance(k, String) else None
        named: dict[str, Any] = dict(common, name=name, name_range=(kstart, kend), string=key_string)
        if name == "//" and not schema.dynamic_attributes:
            return Context(COMMENT, offset, **named)
        a = schema.attributes.get(name)
        bs = None if (a is not None or schema.dynamic_attributes) else schema.blocks.get(name)
        if bs is None and a is None and not schema.dynamic_attributes and not schema.open_attributes:
            if schema.open_blocks:
                bs = BlockSchema(name, (), OPEN_BODY)
            else:
                if on_key:
                    return Context(UNKNOWN_NAME, offset, **named)
                return _value(text, m, inner, offset, None, {k: v for k, v in named.items() if k != "string"})
        if bs is None:
            attr = _attribute(cur, name, kstart, kend, m, inner, a)
            if on_key:
                return Context(ARGUMENT_NAME, offset, attribute=attr, **named)
            return _value(text, m, inner, offset, attr, {k: v for k, v in named.items() if k != "string"})

        # ---- a block property: walk its label levels, then into the body -------------------
        header: dict[str, Any] = dict(common, block_schema=bs, type_name=name, type_range=(kstart, kend))
        if on_key:
            first = next((b for b in _blocks_near(cur, offset) if b.type_start == kstart), None)
            return Context(BLOCK_TYPE, offset, name=name, name_range=(kstart, kend), string=key_string, block=first, **header)
        walked = _walk_labels(text, cur, offset, m.value, inner, len(bs.labels), kstart, header)
        if isinstance(walked, Context):
            return walked
        labels, v, vbase = walked
        if not _within(v, vbase, offset):
            return Context(BODY_SLOT, offset, labels=tuple(labels), label_index=len(bs.labels), **header)
        body_node, body_base = v, vbase
        if isinstance(v, Container) and v.kind == ARRAY:
            vin = vbase + v.start
            e = _element_in(v, vin, offset)
            if e is None or e.kind not in (OBJECT, ARRAY):
                return Context(BODY_SLOT, offset, labels=tuple(labels), label_index=len(bs.labels), **header)
            body_node, body_base = e, vin
        elif v.kind != OBJECT:
            return Context(BODY_SLOT, offset, labels=tuple(labels), label_index=len(bs.labels), **header)
        block = next((b for b in _blocks_near(cur, offset) if b.body.node is body_node), None)
        if block is None:  # not decoded (an unusual shape): decode this body on the fly
            sub, _ = decode_body(text, body_node, body_base, bs.body if bs.body is not None else OPEN_BODY, name)
            block = Block(name, kstart, kend, tuple(labels), sub, bs)
        chain.append(block)
        cur = block.body
        node, base = body_node, body_base


def _walk_labels(
    text: str, cur: Body | FileView, offset: int, v: Node | None, vbase: int, count: int, kstart: int, header: dict[str, Any],
) -> Context | tuple[list[Label], Node | None, int]:
    """Down the `count` label levels of a block property whose value `v` is at `vbase` (the type
    name at `kstart`): the context when `offset` is on a label or where one goes, else the labels
    and the value under them (the body, or what stands in its place) with its base."""
    labels: list[Label] = []
    for level in range(count):
        if not _within(v, vbase, offset):
            return Context(LABEL_SLOT, offset, labels=tuple(labels), label_index=level, **header)
        lhit = _property_in(v, vbase, offset)
        if lhit is None or lhit[0].key is None:
            return Context(LABEL_SLOT, offset, labels=tuple(labels), label_index=level, **header)
        lm, linner = lhit
        lk = lm.key
        lstart = linner + lk.start  # type: ignore[union-attr]
        lval = key_text(text, lk, lstart)
        if lval is None:
            return Context(LABEL_SLOT, offset, labels=tuple(labels), label_index=level, **header)
        lab = Label(lval, lstart, linner + lk.end)  # type: ignore[union-attr]
        labels.append(lab)
        if lab.start <= offset <= lab.end:
            s = _string_at(text, lk, lstart, offset, STRING_LITERAL, True) if lk.kind == STRING else None  # type: ignore[arg-type, union-attr]
            first = next(
                (b for b in _blocks_near(cur, offset) if b.type_start == kstart and len(b.labels) > level and b.labels[level].start == lstart),
                None,
            )
            return Context(LABEL, offset, labels=tuple(labels), label_index=level, name=lval,
                           name_range=lab.range, string=s, block=first, **header)
        v, vbase = lm.value, linner
    return labels, v, vbase


def _blocks_near(body: Body | FileView, offset: int) -> tuple[Block, ...]:
    """The blocks of `body` that can be the one at `offset`: all of them, or for a `FileView` the
    few around `offset` (`FileView.blocks_at`), so the rest is never built."""
    return body.blocks_at(offset) if isinstance(body, FileView) else body.blocks


def _attribute(body: Body | FileView, name: str, kstart: int, kend: int, m: Member, inner: int, a: AttributeSchema | None) -> Attribute:
    for attr in body.attributes:
        if attr.name_start == kstart:
            return attr
    v = m.value
    expr = None
    if v is not None and v.kind not in ("error", "bare"):
        expr = Expression(v, inner + v.start, inner + v.end, a.mode if a is not None else EXPRESSION)
    return Attribute(name, kstart, kend, expr, a)


def _value(text: str, m: Member, inner: int, offset: int, attr: Attribute | None, common: dict) -> Context:
    """Descend into the value of a property (iteratively) to the innermost node at `offset`."""
    v = m.value
    if v is None or not _within(v, inner, offset):
        return Context(VALUE, offset, attribute=attr, **common)
    mode = attr.mode if attr is not None else None
    node: Node = v
    start = inner + v.start
    place = AT_ROOT
    path: list[str | int] = []
    depth = 0
    string: StringAt | None = None
    while isinstance(node, Container):
        sub_inner = start
        if node.kind == OBJECT:
            mm = _member_in(node, sub_inner, offset)
            if mm is None or mm.key is None:
                break
            kk = mm.key
            ks = sub_inner + kk.start
            kname = key_text(text, kk, ks)
            path.append(kname if kname is not None else "")
            if ks <= offset <= sub_inner + kk.end:
                kplace = AT_KEY if depth == 0 else AT_DEEPER_KEY
                node, start = kk, ks
                if kk.kind == STRING and mode is not None:
                    string = _string_at(text, kk, ks, offset, string_mode(mode, kplace), True)  # type: ignore[arg-type]
                elif kk.kind == STRING:
                    string = _string_at(text, kk, ks, offset, None, True)  # type: ignore[arg-type]
                return Context(VALUE, offset, attribute=attr, node=node, node_start=start, path=tuple(path), string=string, **common)
            vv = mm.value
            if vv is None or not (vv.start <= offset - sub_inner <= vv.end):
                break
            place = AT_VALUE if depth == 0 else AT_DEEPER
            node, start = vv, sub_inner + vv.start
        else:
            items = node.items
            e = _element_in(node, sub_inner, offset)
            if e is None:
                break
            idx = next(i for i, it in enumerate(items) if it.value is e) if len(items) < 64 else _index_of(items, e)
            path.append(idx)
            place = AT_ELEMENT if depth == 0 else AT_DEEPER
            node, start = e, sub_inner + e.start
        depth += 1
    if node.kind == STRING:
        string = _string_at(text, node, start, offset, string_mode(mode, place) if mode is not None else None, False)  # type: ignore[arg-type]
    return Context(VALUE, offset, attribute=attr, node=node, node_start=start, path=tuple(path), string=string, **common)


def _index_of(items: list[Member], e: Node) -> int:
    i = bisect_right(items, e.start, key=_member_start) - 1
    while i >= 0 and items[i].value is not e:
        i -= 1
    return i
