"""Schema-driven decoding of an HCL JSON document (the HCL JSON spec), with structural diagnostics.

    decode_file(text, root, schema, cache=None) -> (Body, diagnostics)
    decode_body(text, node, base, schema, what="this block") -> (Body, diagnostics)
    decode_blocks_from_attribute(text, attribute, block_schema) -> (blocks, diagnostics)

Never raises on any tree the JSON layer produces (broken members -- no key, no value, `Error` or
`Bare` values -- are skipped silently: the syntax layer already reported them).

Rules (docs: /work/shared/spec/hcl-json-spec.md):
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

Incremental use: pass the same `DecodeCache` to successive `decode_file` calls (and tell it
about edits with `DecodeCache.note_edit`). The body of each top-level block is cached by the
identity of its JSON node; an entry is dropped when an edit touches the body's range (the JSON
layer updates ancestors of an edit in place, so identity alone is not enough); a reused result
is re-based with `shifted` when the body moved. Only the bodies decoded or reused by the latest
call are kept.
"""

from __future__ import annotations

from ..diagnostic import Diagnostic
from ..jsonsyntax.parser import no_gc
from ..jsonsyntax.tree import ARRAY, NULL, OBJECT, STRING, Container, Node, Object, String
from . import problems as P
from .model import Attribute, Block, Body, Expression, Label
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
from .values import key_text, string_text

__all__ = ["DecodeCache", "decode_file", "decode_body", "decode_blocks_from_attribute", "check_expression"]

_COMMENT = "//"
_BROKEN = ("error", "bare")


class DecodeCache:
    """Decoded bodies of the top-level blocks of the previous `decode_file` call.

    An entry is reused when the same JSON node (identity) holds a top-level block body of the
    same schema and no change of the text touched that body since it was decoded. Changes are
    known from `note_edit` (call it for every edit applied to the document, e.g. next to
    `jsonsyntax.reparse.reparse`); when no edit was noted, the new text is compared with the
    text of the previous decode (common prefix and suffix) instead. Either way a touched body is
    decoded again, so every reused `Expression.node` is a node of the current tree. Only entries
    used by the latest decode are kept. `hits`/`misses` count reuses and decodes.
    """

    __slots__ = ("_entries", "_next", "_text", "_pending", "hits", "misses")

    def __init__(self) -> None:
        # id(node) -> [node, schema, body, diags, start, end]; start/end follow the edits.
        self._entries: dict[int, list] = {}
        self._next: dict[int, list] = {}
        self._text: str | None = None
        self._pending: list[tuple[int, int, int]] = []
        self.hits = 0
        self.misses = 0

    def note_edit(self, edit) -> None:
        """Record that `old_text[edit.start:edit.old_end]` became `new_text[edit.start:edit.new_end]`
        (any object with those attributes, e.g. `text.Edit`). Several edits apply in order."""
        self._pending.append((edit.start, edit.old_end, edit.new_end))

    def clear(self) -> None:
        self._entries = {}
        self._next = {}
        self._text = None
        self._pending = []

    def _begin(self, text: str) -> None:
        edits = self._pending
        self._pending = []
        if not edits and self._text is not None and self._text is not text and self._text != text:
            edits = [_changed_region(self._text, text)]
        if not edits or not self._entries:
            return
        entries = self._entries
        for s, oe, ne in edits:
            delta = ne - oe
            dead = []
            for key, e in entries.items():
                a, b = e[4], e[5]
                if (s < b and oe > a) or a < s < b:
                    dead.append(key)
                elif a >= oe:
                    e[4] = a + delta
                    e[5] = b + delta
            for key in dead:
                del entries[key]

    def _lookup(self, node: Node, schema: BodySchema):
        e = self._entries.get(id(node))
        if e is not None and e[0] is node and e[1] is schema:
            self._next[id(node)] = e
            self.hits += 1
            return e
        self.misses += 1
        return None

    def _store(self, node: Node, schema: BodySchema, body: Body, diags: list[Diagnostic]) -> None:
        self._next[id(node)] = [node, schema, body, diags, body.start, body.end]

    def _finish(self, text: str) -> None:
        self._entries = self._next
        self._next = {}
        self._text = text

    def __len__(self) -> int:
        return len(self._entries)


def _changed_region(old: str, new: str) -> tuple[int, int, int]:
    """One edit `(start, old_end, new_end)` covering every difference between `old` and `new`."""
    n = min(len(old), len(new))
    p = 0
    step = 4096
    while p + step <= n and old[p : p + step] == new[p : p + step]:
        p += step
    while p < n and old[p] == new[p]:
        p += 1
    limit = n - p  # the common suffix may not overlap the common prefix
    q = 0
    lo, ln = len(old), len(new)
    while q + step <= limit and old[lo - q - step : lo - q] == new[ln - q - step : ln - q]:
        q += step
    while q < limit and old[lo - q - 1] == new[ln - q - 1]:
        q += 1
    return p, lo - q, ln - q


def _where(type_name: str | None) -> str:
    return "the file" if type_name is None else f'a "{type_name}" block'


class _Decoder:
    __slots__ = ("text", "diags", "cache", "_open_schemas")

    def __init__(self, text: str, cache: DecodeCache | None = None) -> None:
        self.text = text
        self.diags: list[Diagnostic] = []
        self.cache = cache
        self._open_schemas: dict[str, BlockSchema] = {}

    # ---- bodies ---------------------------------------------------------------------------
    def members(self, node: Node, base: int, type_name: str | None, report_shape: bool = True):
        """The `(member, container_abs_start)` pairs of a body value (object / array of objects /
        null), reporting wrong shapes."""
        kind = node.kind
        if kind == OBJECT:
            inner = base + node.start
            return [(m, inner) for m in node.items]  # type: ignore[attr-defined]
        if kind == ARRAY:
            out = []
            inner = base + node.start
            for m in node.items:  # type: ignore[attr-defined]
                v = m.value
                if v is None:
                    continue
                if v.kind == OBJECT:
                    vin = inner + v.start
                    out.extend((mm, vin) for mm in v.items)  # type: ignore[attr-defined]
                elif v.kind not in _BROKEN and report_shape:
                    self.diags.append(P.body_element_type(v, inner + v.start, inner + v.end, _where(type_name)))
            return out
        if kind != NULL and kind not in _BROKEN and report_shape:
            self.diags.append(P.body_type(node, base + node.start, base + node.end, _where(type_name)))
        return []

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
        """Decode a body value. Does not check required arguments / minimum block counts (those
        report on the block header: see `header_checks`)."""
        return self.run(self.body_gen(node, base, schema, type_name, 0, report_shape))  # type: ignore[return-value]

    def body_gen(self, node: Node | None, base: int, schema: BodySchema, type_name: str | None, depth: int, report_shape: bool = True):
        if node is None:
            return Body(None, base, base, schema)
        text = self.text
        diags = self.diags
        start = base + node.start
        if schema.dynamic_attributes:
            if node.kind == OBJECT:
                members = [(m, start) for m in node.items]  # type: ignore[attr-defined]
            else:
                if node.kind not in _BROKEN and report_shape:
                    diags.append(P.dynamic_body_type(node, start, base + node.end, _where(type_name)))
                members = []
        else:
            members = self.members(node, base, type_name, report_shape)
        attr_schemas = schema.attributes
        block_schemas = schema.blocks
        dynamic = schema.dynamic_attributes
        open_attrs = schema.open_attributes
        open_blocks = schema.open_blocks
        attributes: list[Attribute] = []
        blocks: list[Block] = []
        seen: dict[str, tuple[int, int]] = {}
        for m, inner in members:
            k = m.key
            if k is None:
                continue
            kstart = inner + k.start
            if type(k) is String and not k.escaped:
                name = text[kstart + 1 : inner + (k.end - 1 if k.terminated else k.end)]
            else:
                name = key_text(text, k, kstart)
                if name is None:
                    continue
            if name == _COMMENT:
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
            if bs is not None:
                if v is not None:
                    yield from self.blocks_gen(v, inner, bs, name, kstart, kend, blocks, depth)
                continue
            if open_attrs:
                attributes.append(self.attribute(name, kstart, kend, v, inner, None))
            elif open_blocks:
                if v is not None:
                    yield from self.blocks_gen(v, inner, self.open_block_schema(name), name, kstart, kend, blocks, depth)
            else:
                diags.append(
                    P.unknown_name(
                        kstart, kend, name, schema.names(), _where(type_name),
                        blocks_only=not attr_schemas and bool(block_schemas),
                        attrs_only=not block_schemas and bool(attr_schemas),
                    )
                )
        # Maximum block counts (the minimum is a header check).
        if blocks and any(b.max_items is not None for b in block_schemas.values()):
            counts: dict[str, int] = {}
            for b in blocks:
                mx = b.schema.max_items
                if mx is None:
                    continue
                c = counts[b.type_name] = counts.get(b.type_name, 0) + 1
                if c > mx:
                    diags.append(P.too_many_blocks(b.type_start, b.type_end, b.type_name, mx, _where(type_name)))
        return Body(node, start, base + node.end, schema, tuple(attributes), tuple(blocks))

    def open_block_schema(self, name: str) -> BlockSchema:
        s = self._open_schemas.get(name)
        if s is None:
            s = self._open_schemas[name] = BlockSchema(name, (), OPEN_BODY)
        return s

    def header_checks(self, body: Body, start: int, end: int, type_name: str | None) -> None:
        """Required arguments and minimum block counts, reported on the block header (`start`,
        `end`): the key that names the block (or the file's opening bracket)."""
        schema = body.schema
        for a in schema.attributes.values():
            if a.required and body.attribute(a.name) is None:
                self.diags.append(P.missing_argument(start, end, a.name, _where(type_name)))
        for b in schema.blocks.values():
            if b.min_items:
                n = sum(1 for x in body.blocks if x.type_name == b.type_name)
                if n < b.min_items:
                    self.diags.append(P.too_few_blocks(start, end, b.type_name, b.min_items, n, _where(type_name)))

    # ---- attributes -----------------------------------------------------------------------
    def attribute(self, name: str, kstart: int, kend: int, v: Node | None, inner: int, a: AttributeSchema | None) -> Attribute:
        if v is None or v.kind in _BROKEN:
            return Attribute(name, kstart, kend, None, a)
        vstart = inner + v.start
        mode = a.mode if a is not None else EXPRESSION
        expr = Expression(v, vstart, inner + v.end, mode)
        if v.kind in (OBJECT, ARRAY) or mode != EXPRESSION:
            check_expression(self.text, expr, name, self.diags)
        return Attribute(name, kstart, kend, expr, a)

    # ---- blocks ---------------------------------------------------------------------------
    def blocks_gen(self, value: Node, vbase: int, bs: BlockSchema, type_name: str, tstart: int, tend: int,
                   out: list[Block], depth: int):
        """Decode the value of a block-type property into blocks appended to `out` (a generator
        for `run`; `depth` is the depth of the body holding the property, 0 for the file)."""
        if value.kind in _BROKEN:
            return
        text = self.text
        diags = self.diags
        level: list[tuple[Node, int, tuple[Label, ...]]] = [(value, vbase, ())]
        for label_name in bs.labels:
            nxt: list[tuple[Node, int, tuple[Label, ...]]] = []
            for node, base, labels in level:
                kind = node.kind
                inner = base + node.start
                if kind == OBJECT:
                    members = [(m, inner) for m in node.items]  # type: ignore[attr-defined]
                elif kind == ARRAY:
                    members = []
                    for m in node.items:  # type: ignore[attr-defined]
                        e = m.value
                        if e is None:
                            continue
                        if e.kind == OBJECT:
                            ein = inner + e.start
                            members.extend((mm, ein) for mm in e.items)  # type: ignore[attr-defined]
                        elif e.kind not in _BROKEN:
                            diags.append(P.label_element_type(e, inner + e.start, inner + e.end, type_name, label_name))
                elif kind in _BROKEN:
                    continue
                elif kind == NULL:
                    members = []
                else:
                    diags.append(P.label_type(node, inner, base + node.end, type_name, label_name))
                    continue
                if not members:
                    if not _reported_any(node):
                        diags.append(P.missing_label(inner, base + node.end, type_name, label_name, kind))
                    continue
                for m, mb in members:
                    k = m.key
                    if k is None:
                        continue
                    kstart = mb + k.start
                    lab = key_text(text, k, kstart)
                    if lab is None:
                        continue
                    v = m.value
                    if v is None or v.kind in _BROKEN:
                        continue
                    nxt.append((v, mb, labels + (Label(lab, kstart, mb + k.end),)))
            level = nxt
        body_schema = bs.body if bs.body is not None else OPEN_BODY
        for node, base, labels in level:
            kind = node.kind
            if kind == OBJECT:
                yield from self.one_block_gen(node, base, bs, body_schema, type_name, tstart, tend, labels, out, depth)
            elif kind == ARRAY:
                inner = base + node.start
                for m in node.items:  # type: ignore[attr-defined]
                    e = m.value
                    if e is None or e.kind in _BROKEN:
                        continue
                    yield from self.one_block_gen(e, inner, bs, body_schema, type_name, tstart, tend, labels, out, depth)
            elif kind == NULL or kind in _BROKEN:
                continue
            else:
                diags.append(P.block_value_type(node, base + node.start, base + node.end, type_name))

    def one_block_gen(self, node: Node, base: int, bs: BlockSchema, body_schema: BodySchema, type_name: str,
                      tstart: int, tend: int, labels: tuple[Label, ...], out: list[Block], depth: int):
        body = yield (node, base, body_schema, type_name, depth + 1)
        block = Block(type_name, tstart, tend, labels, body, bs)
        h = block.header_range
        self.header_checks(body, h[0], h[1], type_name)
        out.append(block)


def _reported_any(node: Node) -> bool:
    """True when an array label level has elements that are not objects (already reported)."""
    return node.kind == ARRAY and any(m.value is not None and m.value.kind != OBJECT for m in node.items)  # type: ignore[attr-defined]


def _diag_key(d: Diagnostic):
    return (d.start, d.end, d.code)


class _FileDecoder(_Decoder):
    """Decodes the root body; top-level block bodies go through the cache."""

    __slots__ = ()

    def one_block_gen(self, node, base, bs, body_schema, type_name, tstart, tend, labels, out, depth):  # type: ignore[override]
        cache = self.cache
        if cache is None or depth != 0 or not isinstance(node, Container):
            return (yield from _Decoder.one_block_gen(self, node, base, bs, body_schema, type_name, tstart, tend, labels, out, depth))
        start = base + node.start
        hit = cache._lookup(node, body_schema)
        if hit is None:
            mark = len(self.diags)
            body = yield (node, base, body_schema, type_name, depth + 1)
            cache._store(node, body_schema, body, self.diags[mark:])
        else:
            old = hit[2]
            delta = start - old.start  # the body moved by this much since it was decoded
            if delta:
                body = hit[2] = old.shifted(delta)
                moved = hit[3] = [d.shifted(delta) for d in hit[3]]
                self.diags.extend(moved)
            else:
                body = old
                self.diags.extend(hit[3])
            hit[4], hit[5] = body.start, body.end
        block = Block(type_name, tstart, tend, labels, body, bs)
        h = block.header_range
        self.header_checks(body, h[0], h[1], type_name)
        out.append(block)


def decode_file(text: str, root: Node | None, schema: BodySchema, cache: DecodeCache | None = None) -> tuple[Body, list[Diagnostic]]:
    """Decode the whole document (root body). The root's own shape (object / array of objects) is
    the syntax layer's to report. Diagnostics are sorted by position."""
    d = _FileDecoder(text, cache)
    if cache is not None:
        cache._begin(text)
    if root is None:
        body = Body(None, 0, 0, schema)
    else:
        with no_gc():  # many acyclic allocations over a large live tree (see `no_gc`)
            body = _root_body(d, root, schema)
        d.header_checks(body, body.start, body.start + 1 if body.end > body.start else body.start, None)
    if cache is not None:
        cache._finish(text)
    d.diags.sort(key=_diag_key)
    return body, d.diags


def _root_body(d: _FileDecoder, root: Node, schema: BodySchema) -> Body:
    return d.body(root, 0, schema, None, report_shape=False)


def decode_body(text: str, node: Node | None, base: int, schema: BodySchema, type_name: str | None = None) -> tuple[Body, list[Diagnostic]]:
    """Decode one body value `node` whose container starts at absolute `base` (its own absolute
    start is `base + node.start`). Reports required arguments on the body's first character."""
    d = _Decoder(text)
    body = d.body(node, base, schema, type_name)
    if node is not None:
        d.header_checks(body, body.start, body.start + 1, type_name)
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
    if mode == LITERAL_STRING:
        if kind == STRING:
            _check_literal_string(text, node, start, name, diags)  # type: ignore[arg-type]
        elif kind != NULL:
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
                _check_literal_string(text, e, start + e.start, name, diags)  # type: ignore[arg-type]


def _check_object_keys(text: str, obj: Object, inner: int, diags: list[Diagnostic]) -> None:
    """Duplicate property names in one expression object (`inner`: the object's absolute start)."""
    items = obj.items
    if len(items) < 2:
        return
    seen: dict[str, tuple[int, int]] = {}
    for m in items:
        k = m.key
        if k is None:
            continue
        ks = inner + k.start
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


def _walk_objects(text: str, node: Node, base: int, diags: list[Diagnostic], literal: bool, name: str) -> None:
    """Visit every container inside an expression value without recursion; check object keys
    (and, in literal mode, template sequences in strings)."""
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
                    _check_literal_string(text, v, inner + v.start, name, diags)  # type: ignore[arg-type]
        else:
            for m in items:
                v = m.value
                if v is None:
                    continue
                if isinstance(v, Container):
                    push((v, inner))
                elif literal and v.kind == STRING:
                    _check_literal_string(text, v, inner + v.start, name, diags)  # type: ignore[arg-type]


def _check_literal_string(text: str, node: String, abs_start: int, name: str, diags: list[Diagnostic]) -> None:
    raw = text[abs_start : abs_start + node.end - node.start]
    if "{" not in raw:
        return
    if not node.escaped:
        for seq in ("${", "%{"):
            i = raw.find(seq)
            if i >= 0:
                diags.append(P.template_in_literal(abs_start + i, abs_start + i + 2, name))
                return
        return
    value = string_text(text, node, abs_start)
    if "${" in value or "%{" in value:
        diags.append(P.template_in_literal(abs_start, abs_start + node.end - node.start, name))
