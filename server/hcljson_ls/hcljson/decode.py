"""Schema-driven decoding of an HCL JSON document (the HCL JSON spec), with structural diagnostics.

    decode_file(text, root, schema) -> (Body, diagnostics)
    walk_file(text, root, schema) -> FileWalk          the root down to the top-level blocks
    walk_file_steps(text, root, schema, every)         the same as a generator of short steps
    decode_top(text, top) -> (Block, diagnostics)      one top-level block's body and header
    decode_body(text, node, base, schema, what="this block") -> (Body, diagnostics)
    decode_blocks_from_attribute(text, attribute, block_schema) -> (blocks, diagnostics)

Never raises on any tree the JSON layer produces (broken members -- no key, no value, `Error` or
`Bare` values -- are skipped silently: the syntax layer already reported them).

Rules (docs: shared/spec/hcl-json-spec.md beside the checkout):
* A body is an object or an array of objects (`null` inside a block-body array is an empty
  body); properties are visited in order, duplicates kept. `"//"` is skipped in body objects
  only (at label levels and inside expressions it is an ordinary name).
* A body in dynamic-attributes mode must be a single object.
* A block property: one nesting level per label (object or array of objects, flattened in
  order; an empty level is "missing label"); then the body: an object (one block), an array
  (one block per element) or `null` (no block at all, as HCL does).
* Attribute values are kept as `Expression`s (node + absolute range + mode). The decoder checks
  the JSON type the mode needs (see `schema`), duplicate names in expression objects, and warns
  about template sequences in literal-only strings. Expression values are walked iteratively.
* No recursion: nested bodies are decoded by a generator trampoline (`_Decoder.run`), label
  levels and expression values by loops, so a schema with cycles (Terraform's `dynamic` blocks)
  on deeply nested input is fine.

Incremental use: `decode_file` is `walk_file` followed by `decode_top` for each top-level block.
The diagnostics `decode_top` returns lie inside the block's body or exactly on its header key
(the last label, else the type key); everything else is the walk's. A top-level block found by
the walk carries live references into the tree (`TopBlock.holder`, `Frame`), so a later layer can
keep per-block results across edits and tell where a block is now (`hcljson.incremental`).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..diagnostic import Diagnostic
from ..jsonsyntax.tree import ARRAY, NULL, OBJECT, STRING, Array, Bare, Container, Error, Member, Node, Object, String, member_shift
from ..steps import run_out
from . import problems as P
from .model import Attribute, Block, Body, Expression, Label, fast_init
from .schema import (
    EXPRESSION,
    KEYWORD_OR_TRAVERSAL_LIST,
    LITERAL,
    LITERAL_STRING,
    MAP_OF_LITERAL_STRINGS,
    NATIVE,
    NATIVE_LIST,
    OPEN_BODY,
    TRAVERSAL,
    TRAVERSAL_LIST,
    TRAVERSAL_MAP,
    TYPE,
    AttributeSchema,
    BlockSchema,
    BodySchema,
)
from .values import LITERAL_STRING_KINDS, defined_at, has_template_sequence, key_text, string_text

__all__ = [
    "Frame", "TopBlock", "FileWalk", "walk_file", "decode_top", "decode_file", "decode_body",
    "decode_blocks_from_attribute", "check_expression", "decode_top_again",
]

_COMMENT = "//"
_BROKEN = ("error", "bare")
_BROKEN_TYPES = (Error, Bare)  # the node classes of those kinds (a type test is cheaper than `kind`)

#: JSON kinds a string-typed literal argument takes besides strings (`values.LITERAL_STRING_KINDS`).
_CONVERTS_TO_STRING = LITERAL_STRING_KINDS - {STRING}


def _where(type_name: str | None) -> str:
    return "the file" if type_name is None else f'a "{type_name}" block'


class _Decoder:
    __slots__ = ("text", "diags", "_open_schemas")

    def __init__(self, text: str) -> None:
        self.text = text
        self.diags: list[Diagnostic] = []
        self._open_schemas: dict[str, BlockSchema] = {}

    # ---- bodies ---------------------------------------------------------------------------
    def run(self, gen) -> object:
        """Drive a decoding generator and the sub-body requests it yields, without recursion:
        a generator yields `(node, base, schema, type_name, depth)` and is sent back the `Body`."""
        stack = [gen]
        value = None
        while stack:
            try:
                req = stack[-1].send(value)
            except StopIteration as stop:
                stack.pop()
                value = stop.value
                continue
            stack.append(self.body_gen(*req))
            value = None
        return value

    def body(self, node: Node | None, base: int, schema: BodySchema, type_name: str | None, report_shape: bool = True) -> Body:
        """Decode a body value. Does not check required arguments / minimum block counts (the
        caller's: see `header_checks`)."""
        return self.run(self.body_gen(node, base, schema, type_name, 0, report_shape))  # type: ignore[return-value]

    def groups(self, node: Node, base: int, type_name: str | None, report_shape: bool = True) -> list:
        """The `(items, container_abs_start)` groups of members of a body value (object / array
        of objects / null), reporting wrong shapes."""
        kind = node.kind
        if kind == OBJECT:
            return [(node.items, base + node.start)]  # type: ignore[attr-defined]
        if kind == ARRAY:
            out = []
            inner = base + node.start
            for m in node.items:  # type: ignore[attr-defined]
                v = m.value
                if v is None:
                    continue
                if v.kind == OBJECT:
                    out.append((v.items, inner + v.start))
                elif v.kind not in _BROKEN and report_shape:
                    self.diags.append(P.body_element_type(v, inner + v.start, inner + v.end, _where(type_name)))
            return out
        if kind != NULL and kind not in _BROKEN and report_shape:
            self.diags.append(P.body_type(node, base + node.start, base + node.end, _where(type_name)))
        return []

    def body_gen(self, node: Node | None, base: int, schema: BodySchema, type_name: str | None, depth: int, report_shape: bool = True):
        """`body` as a generator of the nested block bodies it needs decoded (`run` drives it):
        each member of the body's groups is an argument, a block or an unknown name."""
        if node is None:
            return Body(None, base, base, schema)
        text = self.text
        diags = self.diags
        start = base + node.start
        plan = _plan(schema)
        dynamic = schema.dynamic_attributes
        groups = self.body_groups(node, base, schema, type_name, report_shape)
        # This loop runs for every argument of a document: one lookup per name in the schema's
        # merged table (`_plan`), the attribute built inline.
        known = plan.known
        open_attrs = schema.open_attributes
        open_blocks = schema.open_blocks
        attributes: list[Attribute] = []
        blocks: list[Block] = []
        seen: dict[str, Attribute] = {}  # names with a schema (or all, when dynamic): the first one
        name: str | None
        for items, inner in groups:
            for m in items:
                k = m.key
                if type(k) is String:
                    kstart = inner + k.start
                    name = text[kstart + 1 : inner + k.end - 1]
                else:
                    if k is None:
                        continue
                    kstart = inner + k.start
                    name = key_text(text, k, kstart)
                    if name is None:
                        continue
                if name == _COMMENT:
                    continue
                kend = inner + k.end
                v = m.value
                a = known.get(name)
                if isinstance(a, BlockSchema):  # a block type
                    if v is not None:
                        yield from self.blocks_gen(v, inner, a, name, kstart, kend, blocks, depth)
                    continue
                if a is not None or dynamic:
                    prev = seen.get(name)
                    if prev is not None:
                        diags.append(P.duplicate_argument(kstart, kend, name, (prev.name_start, prev.name_end)))
                        continue
                elif not open_attrs:
                    if open_blocks:
                        if v is not None:
                            yield from self.blocks_gen(v, inner, self.open_block_schema(name), name, kstart, kend, blocks, depth)
                        continue
                    diags.append(_unknown_name(kstart, kend, name, schema, type_name))
                    continue
                if v is None or type(v) in _BROKEN_TYPES:
                    attr = Attribute(name, kstart, kend, None, a)
                else:
                    if a is None:
                        expr = Expression(v, inner + v.start, inner + v.end, EXPRESSION)
                        if type(v) is Object or type(v) is Array:
                            _check_keys_deep(text, v, inner, diags)
                    else:
                        expr = Expression(v, inner + v.start, inner + v.end, a.mode)
                        if a.mode != EXPRESSION or type(v) is Object or type(v) is Array:
                            check_expression(text, expr, name, diags)
                    attr = Attribute(name, kstart, kend, expr, a)
                attributes.append(attr)
                if a is not None or dynamic:
                    seen[name] = attr
        # Maximum block counts (the minimum is a header check).
        if blocks and plan.max_items:
            _too_many_blocks(text, blocks, type_name, diags)
        return Body(node, start, base + node.end, schema, tuple(attributes), tuple(blocks))

    def body_groups(self, node: Node, base: int, schema: BodySchema, type_name: str | None, report_shape: bool) -> list:
        """`groups` of a body value; a body of dynamic attributes (a map) must be one object."""
        if type(node) is Object:
            return [(node.items, base + node.start)]
        if schema.dynamic_attributes:
            if node.kind not in _BROKEN and report_shape:
                self.diags.append(P.dynamic_body_type(node, base + node.start, base + node.end, _where(type_name)))
            return []
        return self.groups(node, base, type_name, report_shape)

    def open_block_schema(self, name: str) -> BlockSchema:
        s = self._open_schemas.get(name)
        if s is None:
            s = self._open_schemas[name] = BlockSchema(name, (), OPEN_BODY)
        return s

    def header_checks(self, body: Body, type_name: str | None) -> None:
        """Required arguments and minimum block counts, reported where Terraform reports them:
        `Body.missing_item_range` (the closing brace of the body; the opening brace for an
        argument or block type `missing_at_open`)."""
        plan = _plan(body.schema)
        required, minimum = plan.required, plan.minimum
        if not required and not minimum:
            return
        start, end = body.missing_item_range
        node = body.node
        insert_at = body.start + 1 if node is not None and node.kind == OBJECT else None
        empty = insert_at is not None and not node.items  # type: ignore[union-attr]
        opening = (body.start, min(body.start + 1, body.end))
        for name, at_open in required:
            if body.attribute(name) is None:
                s, e = opening if at_open else (start, end)
                self.diags.append(P.missing_argument(s, e, name, _where(type_name), insert_at, empty))
        for b in minimum:
            n = sum(1 for x in body.blocks if x.type_name == b.type_name)
            least = b.min_items or 0  # (`minimum` holds the block types that have a minimum)
            if n < least:
                s, e = opening if b.missing_at_open else (start, end)
                self.diags.append(P.too_few_blocks(s, e, b.type_name, least, n, _where(type_name)))

    # ---- attributes -----------------------------------------------------------------------
    def attribute(self, name: str, kstart: int, kend: int, v: Node | None, inner: int, a: AttributeSchema | None) -> Attribute:
        if v is None or v.kind in _BROKEN:
            return Attribute(name, kstart, kend, None, a)
        vstart = inner + v.start
        mode = a.mode if a is not None else EXPRESSION
        expr = Expression(v, vstart, inner + v.end, mode)
        if mode != EXPRESSION or isinstance(v, Container):
            check_expression(self.text, expr, name, self.diags)
        return Attribute(name, kstart, kend, expr, a)

    # ---- blocks ---------------------------------------------------------------------------
    def label_members(self, node: Node, base: int, type_name: str, label_name: str) -> Iterator[tuple[Member, int, int, Object, int, Node, Label]]:
        """One label level of a block-type value: `node` (its container starts at `base`) is an
        object, or an array of objects, whose members are named by label `label_name`. Returns, in
        document order, `(member, its index in the object, abs start of the object holding it, that
        object, the object's index in `node` (-1 when it is `node`), member value, label)` for every
        member with a readable key and a usable value; reports a value of the wrong type, a
        non-object array element and a level with no members (`null`, `{}`, `[]`). A generator:
        the stepped walk (`_FileWalker.tops`) pauses among the members of one level, which may be
        all the blocks of the file (a list of 90,000 tiny outputs under one `output` key, made in
        one step, held the event loop 0.25 s)."""
        kind = node.kind
        inner = base + node.start
        diags = self.diags
        if kind == OBJECT:
            groups: list[tuple[Object, int, int]] = [(node, inner, -1)]  # type: ignore[list-item]
        elif kind == ARRAY:
            groups = []
            for j, m in enumerate(node.items):  # type: ignore[attr-defined]
                e = m.value
                if e is None:
                    continue
                if e.kind == OBJECT:
                    groups.append((e, inner + e.start, j))
                elif e.kind not in _BROKEN:
                    diags.append(P.label_element_type(e, inner + e.start, inner + e.end, type_name, label_name))
        elif kind in _BROKEN:
            return
        elif kind == NULL:
            groups = []
        else:
            diags.append(P.label_type(node, inner, base + node.end, type_name, label_name))
            return
        if not any(obj.items for obj, _, _ in groups):
            if not _reported_any(node):
                diags.append(P.missing_label(inner, base + node.end, type_name, label_name, kind))
            return
        text = self.text
        for obj, mb, oi in groups:
            for mi, m in enumerate(obj.items):
                k = m.key
                if k is None:
                    continue
                kstart = mb + k.start
                lab: str | None
                if type(k) is String:  # `key_text` inline (a label level of every block)
                    lab = text[kstart + 1 : mb + k.end - 1]
                else:
                    lab = key_text(text, k, kstart)
                    if lab is None:
                        continue
                v = m.value
                if v is None or type(v) in _BROKEN_TYPES:
                    continue
                yield m, mi, mb, obj, oi, v, Label(lab, kstart, mb + k.end)

    def blocks_gen(self, value: Node, vbase: int, bs: BlockSchema, type_name: str, tstart: int, tend: int,
                   out: list[Block], depth: int):
        """Decode the value of a block-type property into blocks appended to `out` (a generator
        for `run`; `depth` is the depth of the body holding the property, 0 for the file)."""
        if value.kind in _BROKEN:
            return
        diags = self.diags
        level: list[tuple[Node, int, tuple[Label, ...]]] = [(value, vbase, ())]
        for label_name in bs.labels:
            nxt: list[tuple[Node, int, tuple[Label, ...]]] = []
            for node, base, labels in level:
                for _, _, mb, _, _, v, lab in self.label_members(node, base, type_name, label_name):
                    nxt.append((v, mb, labels + (lab,)))
            level = nxt
        body_schema = bs.body if bs.body is not None else OPEN_BODY
        for node, base, labels in level:
            kind = node.kind
            if kind == OBJECT:
                bodies: list = [(node, base)]
            elif kind == ARRAY:
                inner = base + node.start
                bodies = [(e, inner) for m in node.items if (e := m.value) is not None and e.kind not in _BROKEN]  # type: ignore[attr-defined]
            elif kind == NULL or kind in _BROKEN:
                continue
            else:
                diags.append(P.block_value_type(node, base + node.start, base + node.end, type_name))
                continue
            for bnode, bbase in bodies:
                body = yield (bnode, bbase, body_schema, type_name, depth + 1)
                block = Block(type_name, tstart, tend, labels, body, bs)
                self.header_checks(body, type_name)
                out.append(block)


class _Plan:
    """What the decoder asks of a schema for every body, computed once per schema (schemas are
    immutable and compared by identity): `known` maps every name to its `AttributeSchema`, or to
    its `BlockSchema` when no attribute has that name (only attributes in dynamic-attributes mode,
    where every name is an attribute); `max_items` tells whether any block type has a maximum;
    `required` are the required argument names and `minimum` the block types with a minimum count."""

    __slots__ = ("known", "max_items", "required", "minimum")

    def __init__(self, schema: BodySchema) -> None:
        known: dict[str, AttributeSchema | BlockSchema] = {} if schema.dynamic_attributes else dict(schema.blocks)
        known.update(schema.attributes)
        self.known = known
        self.max_items = any(b.max_items is not None for b in schema.blocks.values())
        self.required = tuple((a.name, a.missing_at_open) for a in schema.attributes.values() if a.required)
        self.minimum = tuple(b for b in schema.blocks.values() if b.min_items)


_PLANS: dict[BodySchema, _Plan] = {}


def _plan(schema: BodySchema) -> _Plan:
    p = _PLANS.get(schema)
    if p is None:
        p = _PLANS[schema] = _Plan(schema)
    return p


def _unknown_name(start: int, end: int, name: str, schema: BodySchema, type_name: str | None) -> Diagnostic:
    """A name that `schema` has not (nor takes any name): a suggestion among its names, said to be
    a block type or an argument where the body has only those."""
    return P.unknown_name(
        start, end, name, schema.names(), _where(type_name),
        blocks_only=not schema.attributes and bool(schema.blocks),
        attrs_only=not schema.blocks and bool(schema.attributes),
    )


def _too_many_blocks(text: str, blocks: Sequence[Block | TopBlock], type_name: str | None, diags: list[Diagnostic]) -> None:
    """Report each block past its type's maximum count (`blocks`: one body's, in source order;
    `type_name`: the block holding them, None for the file) where Terraform reports it ("Duplicate
    lifecycle block"): its `DefRange`, the `{` of its body or the `[` of an array of bodies
    (`values.defined_at`), else its header key."""
    counts: dict[str, int] = {}
    for b in blocks:
        mx = b.schema.max_items
        if mx is None:
            continue
        c = counts[b.type_name] = counts.get(b.type_name, 0) + 1
        if c > mx:
            diags.append(P.too_many_blocks(*defined_at(text, b.header_range), b.type_name, mx, _where(type_name)))


def _reported_any(node: Node) -> bool:
    """True when an array label level has elements that are not objects (already reported)."""
    return node.kind == ARRAY and any(m.value is not None and m.value.kind != OBJECT for m in node.items)  # type: ignore[attr-defined]


def _diag_key(d: Diagnostic):
    return (d.start, d.end, d.code)


class Frame:
    """A container on the way from the root to a top-level block, as a live reference into the JSON
    tree: `node` is the container, `parent` the frame of the container holding it (None for the
    root) and `index` the place of the member holding `node` in `parent.node.raw_items` (-1 for the
    root). `start()` is the container's absolute start *now*: the sum of the relative starts up the
    chain plus the shifts still pending in each parent (`jsonsyntax.tree`, "Lazy shifts"), so it
    follows the in-place updates of an incremental reparse as long as the containers on the chain
    are still in the tree, without forcing any pending shift."""

    __slots__ = ("node", "parent", "index")

    def __init__(self, node: Node, parent: Frame | None, index: int = -1) -> None:
        self.node = node
        self.parent = parent
        self.index = index

    def start(self) -> int:
        x = 0
        f: Frame | None = self
        while f is not None:
            x += f.node.start
            p = f.parent
            if p is not None:
                x += member_shift(p.node, f.index)  # type: ignore[arg-type]
            f = p
        return x

    def member_base(self, index: int) -> int:
        """The absolute base of the positions stored in member `index` of this container now: its
        start plus the member's pending shift."""
        return self.start() + member_shift(self.node, index)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True, eq=False)
class TopBlock:
    """A top-level block found by `walk_file`, its body not decoded yet (see `decode_top`).

    Absolute positions are those of the walked text: the type key, the labels, and `node` (the
    body's JSON value) whose container starts at `base`. The live references say where the block
    sits in the tree for incremental users: `type_key` (the root member's key node) in the root
    container `type_frame`, `label_keys` (per label: key node, the frame of its container and the
    index of its member there), and `holder`, the member whose value is the body node, at index
    `holder_index` of the container `frame` (the type key's member is at `type_index` of the root).
    Read their positions now with `Frame.member_base(index)`: members may carry a pending shift."""

    type_name: str
    type_start: int
    type_end: int
    labels: tuple[Label, ...]
    schema: BlockSchema
    body_schema: BodySchema
    node: Node
    base: int
    type_key: Node
    type_frame: Frame
    label_keys: tuple[tuple[Node, Frame, int], ...]
    holder: Member
    frame: Frame
    type_index: int = -1
    holder_index: int = -1

    @property
    def body_start(self) -> int:
        return self.base + self.node.start

    @property
    def body_end(self) -> int:
        return self.base + self.node.end

    @property
    def header_range(self) -> tuple[int, int]:
        return self.labels[-1].range if self.labels else (self.type_start, self.type_end)


fast_init(TopBlock)


@dataclass(frozen=True, slots=True)
class FileWalk:
    """The root body of a file without its top-level blocks' bodies: `attributes` decoded,
    `tops` in source order, and the diagnostics of everything outside the top-level bodies
    (root properties, label levels, block counts, the file's own required arguments)."""

    node: Node | None
    start: int
    end: int
    schema: BodySchema
    attributes: tuple[Attribute, ...]
    tops: tuple[TopBlock, ...]
    diagnostics: list[Diagnostic]


class _FileWalker(_Decoder):
    """The root body down to the top-level block bodies (which it does not decode)."""

    __slots__ = ()

    def walk(self, root: Node, schema: BodySchema, every: int = -1) -> Generator[None, None, FileWalk]:
        """A generator: it yields (None) after every `every` label-level members and blocks met
        (never with -1) and returns the `FileWalk`."""
        text = self.text
        budget = [every]
        diags = self.diags
        top_frame = Frame(root, None)
        members: list[tuple[Member, int, Frame, int]] = []
        rs = root.start
        kind = root.kind
        if kind == OBJECT:
            members = [(m, rs, top_frame, i) for i, m in enumerate(root.items)]  # type: ignore[attr-defined]
        elif kind == ARRAY and not schema.dynamic_attributes:
            # The root's own shape (an array of objects) is the syntax layer's to report.
            for j, m in enumerate(root.items):  # type: ignore[attr-defined]
                v = m.value
                if v is not None and v.kind == OBJECT:
                    f = Frame(v, top_frame, j)
                    vs = rs + v.start
                    members.extend((mm, vs, f, i) for i, mm in enumerate(v.items))
        attr_schemas = schema.attributes
        block_schemas = schema.blocks
        dynamic = schema.dynamic_attributes
        attributes: list[Attribute] = []
        tops: list[TopBlock] = []
        seen: dict[str, tuple[int, int]] = {}
        for m, inner, frame, mi in members:
            k = m.key
            if k is None:
                continue
            kstart = inner + k.start
            name = key_text(text, k, kstart)
            if name is None or name == _COMMENT:
                continue
            kend = inner + k.end
            v = m.value
            a = attr_schemas.get(name)
            if a is not None or dynamic:
                prev = seen.get(name)
                if prev is not None:
                    diags.append(P.duplicate_argument(kstart, kend, name, prev))
                    continue
                seen[name] = (kstart, kend)
                attributes.append(self.attribute(name, kstart, kend, v, inner, a))
                continue
            bs = block_schemas.get(name)
            if bs is None and not schema.open_attributes and schema.open_blocks:
                bs = self.open_block_schema(name)
            if bs is not None:
                if v is not None:
                    yield from self.tops(m, mi, frame, inner, bs, name, kstart, kend, tops, budget, every)
            elif schema.open_attributes:
                attributes.append(self.attribute(name, kstart, kend, v, inner, None))
            else:
                diags.append(
                    P.unknown_name(
                        kstart, kend, name, schema.names(), _where(None),
                        blocks_only=not attr_schemas and bool(block_schemas),
                        attrs_only=not block_schemas and bool(attr_schemas),
                    )
                )
        if every > 0:
            yield  # (the last blocks' entries were let go: `tops`)
        if tops and _plan(schema).max_items:
            _too_many_blocks(text, tops, None, diags)
        blocks = tuple(tops)
        del tops
        if every > 0:
            yield
        body = Body(root, rs, root.end, schema, tuple(attributes), blocks)  # type: ignore[arg-type]
        self.header_checks(body, None)
        return FileWalk(root, rs, root.end, schema, body.attributes, body.blocks, diags)  # type: ignore[arg-type]

    def tops(self, member: Member, index: int, frame: Frame, vbase: int, bs: BlockSchema, type_name: str, tstart: int,
             tend: int, out: list[TopBlock], budget: list[int], every: int) -> Iterator[None]:
        """The top-level blocks of root property `member` (the same label levels as `blocks_gen`);
        yields when `budget[0]`, counted down per member and block, reaches 0 (then `every` again)."""
        value = member.value
        if value is None or value.kind in _BROKEN:
            return
        diags = self.diags
        tkey: Node = member.key  # type: ignore[assignment]
        # (node, abs start of its container, frame of that container, member holding it and its
        # index there, labels, label keys)
        level: list[Any] = [(value, vbase, frame, member, index, (), ())]
        for label_name in bs.labels:
            nxt: list[tuple] = []
            for node, base, nframe, _, ni, labels, lkeys in level:
                # a frame per object holding labels (its members come in a row), under one for the
                # array when the level is an array of objects
                last = af = mf = None
                for m, mi, mb, obj, oi, v, lab in self.label_members(node, base, type_name, label_name):
                    if obj is not last:
                        last = obj
                        if obj is node:
                            mf = Frame(node, nframe, ni)
                        else:
                            if af is None:
                                af = Frame(node, nframe, ni)
                            mf = Frame(obj, af, oi)
                    nxt.append((v, mb, mf, m, mi, labels + (lab,), lkeys + ((m.key, mf, mi),)))
                    budget[0] -= 1
                    if budget[0] == 0:
                        yield
                        budget[0] = every
            level = nxt
        body_schema = bs.body if bs.body is not None else OPEN_BODY
        # Each entry let go once used: freed all at once when the walk ended, the entries of 300,000
        # tiny outputs (15 MB) held the event loop 72 ms in one step.
        for at in range(len(level)):
            node, base, nframe, holder, hi, labels, lkeys = level[at]
            level[at] = None
            budget[0] -= 1
            if budget[0] == 0:
                yield
                budget[0] = every
            kind = node.kind
            if kind == OBJECT:
                out.append(TopBlock(type_name, tstart, tend, labels, bs, body_schema, node, base, tkey, frame, lkeys, holder,
                                    nframe, index, hi))
            elif kind == ARRAY:
                inner = base + node.start
                af = Frame(node, nframe, hi)
                for j, m in enumerate(node.items):
                    e = m.value
                    if e is None or e.kind in _BROKEN:
                        continue
                    out.append(TopBlock(type_name, tstart, tend, labels, bs, body_schema, e, inner, tkey, frame, lkeys, m, af,
                                        index, j))
            elif kind == NULL or kind in _BROKEN:
                continue
            else:
                diags.append(P.block_value_type(node, base + node.start, base + node.end, type_name))


def walk_file(text: str, root: Node | None, schema: BodySchema) -> FileWalk:
    """The root body of `text` (JSON tree `root`) down to its top-level blocks, whose bodies are
    left for `decode_top`. Diagnostics in walk order (not sorted)."""
    if root is None:
        return FileWalk(None, 0, 0, schema, (), (), [])
    return run_out(_FileWalker(text).walk(root, schema))


def walk_file_steps(text: str, root: Node | None, schema: BodySchema, every: int) -> Generator[None, None, FileWalk]:
    """`walk_file` as a generator: it yields (None) after every `every` label-level members and
    blocks met, and returns the `FileWalk`."""
    if root is None:
        return FileWalk(None, 0, 0, schema, (), (), [])
    return (yield from _FileWalker(text).walk(root, schema, every))


def decode_top(text: str, top: TopBlock) -> tuple[Block, list[Diagnostic]]:
    """Decode the body of top-level block `top` at the positions it has in `text` (`top.base` is
    the absolute start of the body's container now). Returns the block and the diagnostics of its
    body and header (required arguments, minimum block counts), in decoding order."""
    d = _Decoder(text)
    body = d.run(d.body_gen(top.node, top.base, top.body_schema, top.type_name, 1))
    block = Block(top.type_name, top.type_start, top.type_end, top.labels, body, top.schema)  # type: ignore[arg-type]
    d.header_checks(body, top.type_name)  # type: ignore[arg-type]
    return block, d.diags


def decode_top_again(text: Any, node: Node, start: int, schema: BodySchema, type_name: str) -> Body:
    """The body of a top-level block as `decode_top` decoded it, again: `node` its JSON value (the
    same object, its content untouched since), `start` the absolute start it had in the frame of
    `text` (the node's own `start` may have moved with its container since)."""
    d = _Decoder(text)
    return d.run(d.body_gen(node, start - node.start, schema, type_name, 1))  # type: ignore[return-value]


def decode_file(text: str, root: Node | None, schema: BodySchema) -> tuple[Body, list[Diagnostic]]:
    """Decode the whole document (root body): `walk_file`, then `decode_top` for every top-level
    block. The root's own shape (object / array of objects) is the syntax layer's to report.
    Diagnostics are sorted by position."""
    walk = walk_file(text, root, schema)
    diags = walk.diagnostics
    blocks: list[Block] = []
    for top in walk.tops:
        block, more = decode_top(text, top)
        blocks.append(block)
        diags.extend(more)
    diags.sort(key=_diag_key)
    return Body(walk.node, walk.start, walk.end, schema, walk.attributes, tuple(blocks)), diags


def decode_body(text: str, node: Node | None, base: int, schema: BodySchema, type_name: str | None = None) -> tuple[Body, list[Diagnostic]]:
    """Decode one body value `node` whose container starts at absolute `base` (its own absolute
    start is `base + node.start`). Reports required arguments on the body's closing brace."""
    d = _Decoder(text)
    body = d.body(node, base, schema, type_name)
    if node is not None:
        d.header_checks(body, type_name)
    d.diags.sort(key=_diag_key)
    return body, d.diags


def decode_blocks_from_attribute(text: str, attribute: Attribute, block_schema: BlockSchema) -> tuple[tuple[Block, ...], list[Diagnostic]]:
    """Re-read the value of `attribute` (e.g. an unknown name accepted by an open body) as blocks of
    `block_schema`, for a later layer that knows the name is a nested block type."""
    d = _Decoder(text)
    out: list[Block] = []
    e = attribute.expr
    if e is not None:
        d.run(d.blocks_gen(e.node, e.start - e.node.start, block_schema, attribute.name, attribute.name_start, attribute.name_end, out, 0))
    d.diags.sort(key=_diag_key)
    return tuple(out), d.diags


# ---- expression checks ---------------------------------------------------------------------------

_ANY_JSON = (EXPRESSION, LITERAL)


def check_expression(text: str, expr: Expression, name: str, diags: list[Diagnostic]) -> None:
    """Append the structural problems of attribute `name`'s value `expr` to `diags`: the JSON type
    its mode needs, duplicate names in expression objects, template sequences in literal strings."""
    node = expr.node
    kind = node.kind
    mode = expr.mode
    start, end = expr.start, expr.end
    if mode in _ANY_JSON or (mode == NATIVE and kind != STRING):
        if kind in (OBJECT, ARRAY):
            _walk_objects(text, node, start - node.start, diags, literal=mode == LITERAL, name=name)
        elif mode == LITERAL and kind == STRING:
            _check_literal_string(text, node, start, name, diags)  # type: ignore[arg-type]
        return
    if mode == LITERAL_STRING:  # (null: absent)
        if kind == STRING:
            _check_literal_string(text, node, start, name, diags)  # type: ignore[arg-type]
        elif kind not in _CONVERTS_TO_STRING:  # HCL converts a number or a bool to the string it spells
            diags.append(P.value_type(node, start, end, name, "a string"))
        return
    if mode in (TRAVERSAL, TYPE):
        if kind != STRING:
            diags.append(P.value_type(node, start, end, name, "a string" if mode == TYPE else "a reference given as a string"))
        return
    if mode == NATIVE:  # a string; anything else is an ordinary expression
        return
    if mode in (TRAVERSAL_LIST, NATIVE_LIST, KEYWORD_OR_TRAVERSAL_LIST):
        if kind == STRING and mode == KEYWORD_OR_TRAVERSAL_LIST:
            return
        if kind != ARRAY:
            expected = "an array of references given as strings" if mode != KEYWORD_OR_TRAVERSAL_LIST else "a keyword string or an array of references"
            if not (mode == NATIVE_LIST and kind == NULL):
                diags.append(P.value_type(node, start, end, name, expected))
            return
        for m in node.items:  # type: ignore[attr-defined]
            e = m.value
            if e is None or e.kind in _BROKEN:
                continue
            if e.kind != STRING:
                if mode == NATIVE_LIST:  # non-strings are ordinary expressions
                    if e.kind in (OBJECT, ARRAY):
                        _walk_objects(text, e, start, diags, literal=False, name=name)
                    continue
                diags.append(P.element_type(e, start + e.start, start + e.end, name, "a reference given as a string"))
        return
    if mode in (TRAVERSAL_MAP, MAP_OF_LITERAL_STRINGS):
        if kind != OBJECT:
            if kind != NULL:
                diags.append(P.value_type(node, start, end, name, "a JSON object of strings"))
            return
        _check_object_keys(text, node, start, diags)  # type: ignore[arg-type]
        for m in node.items:  # type: ignore[attr-defined]
            e = m.value
            if e is None or e.kind in _BROKEN:
                continue
            if e.kind != STRING:
                diags.append(P.property_type(e, start + e.start, start + e.end, name, "a string"))
            elif mode == MAP_OF_LITERAL_STRINGS:
                _check_literal_string(text, e, start + e.start, name, diags)


def _check_object_keys(text: str, obj: Object, inner: int, diags: list[Diagnostic]) -> None:
    """Duplicate property names in one expression object (`inner`: the object's absolute start)."""
    items = obj.items
    if len(items) < 2:
        return
    # Fast path: all keys plain strings, all different (the usual case).
    names = [text[inner + k.start + 1 : inner + k.end - 1] for m in items if type(k := m.key) is String]
    if len(names) == len(items) and len(set(names)) == len(names):
        return
    seen: dict[str, tuple[int, int]] = {}
    for m in items:
        k = m.key
        if k is None:
            continue
        ks = inner + k.start
        name: str | None
        if type(k) is String and not k.escaped:
            name = text[ks + 1 : inner + (k.end - 1 if k.terminated else k.end)]
        else:
            name = key_text(text, k, ks)
            if name is None:
                continue
        prev = seen.get(name)
        if prev is None:
            seen[name] = (ks, inner + k.end)
        else:
            diags.append(P.duplicate_key(ks, inner + k.end, name, prev))


def _check_keys_deep(text: str, node: Container, base: int, diags: list[Diagnostic]) -> None:
    """Duplicate names in every object of expression value `node` (whose container starts at
    `base`), without recursion: `_walk_objects` outside literal mode, the check every object or
    array argument of a document gets. Most objects have plain keys, all different: their names
    go into one set, and only an object where that set comes out short is looked at key by key.
    Most values are flat (no container inside): the stack is made only for nested containers."""
    stack: list[tuple[Container, int]] | None = None
    while True:
        inner = base + node.start
        items = node.items
        if type(node) is Object and len(items) > 1:
            names = {text[inner + k.start + 1 : inner + k.end - 1] for m in items if type(k := m.key) is String}
            if len(names) != len(items):
                _check_object_keys(text, node, inner, diags)
        for m in items:
            v = m.value
            if type(v) is Object or type(v) is Array:
                if stack is None:
                    stack = []
                stack.append((v, inner))
        if not stack:
            return
        node, base = stack.pop()


def _walk_objects(text: str, node: Node, base: int, diags: list[Diagnostic], literal: bool, name: str) -> None:
    """Visit every container inside an expression value without recursion; check object keys
    (and, in literal mode, template sequences in strings)."""
    if not literal:
        _check_keys_deep(text, node, base, diags)  # type: ignore[arg-type]
        return
    stack: list[tuple[Node, int]] = [(node, base)]
    pop = stack.pop
    push = stack.append
    while stack:
        n, b = pop()
        inner = b + n.start
        items = n.items  # type: ignore[attr-defined]
        if n.kind == OBJECT:
            if len(items) > 1:
                _check_object_keys(text, n, inner, diags)  # type: ignore[arg-type]
            for m in items:
                v = m.value
                if v is None:
                    continue
                if isinstance(v, Container):
                    push((v, inner))
                elif literal and v.kind == STRING:
                    _check_literal_string(text, v, inner + v.start, name, diags)
        else:
            for m in items:
                v = m.value
                if v is None:
                    continue
                if isinstance(v, Container):
                    push((v, inner))
                elif literal and v.kind == STRING:
                    _check_literal_string(text, v, inner + v.start, name, diags)


def _check_literal_string(text: str, node: String, abs_start: int, name: str, diags: list[Diagnostic]) -> None:
    """`has_template_sequence` (the rule, written once) of a literal string, placed: on the first
    `${` (else `%{`) of a string written without escapes (its text is its value), else on the string."""
    raw = text[abs_start : abs_start + node.end - node.start]
    if "{" not in raw:
        return
    if not node.escaped:
        if has_template_sequence(raw):
            i = raw.find("${")
            if i < 0:
                i = raw.find("%{")
            diags.append(P.template_in_literal(abs_start + i, abs_start + i + 2, name))
        return
    if has_template_sequence(string_text(text, node, abs_start)):
        diags.append(P.template_in_literal(abs_start, abs_start + node.end - node.start, name))
