"""The decoded HCL structure: bodies, blocks, labels, attributes, expressions.

Contract
--------
* Frozen dataclasses; every position is an ABSOLUTE character offset (half-open ranges).
  (The JSON tree underneath uses relative positions; `Expression.start` is the absolute start of
  `Expression.node`, which is also the base for walking that node's items: a child's absolute
  start is ``expr.start + child.start`` when `node` is a container.)
* `Expression.node` and `Body.node` are nodes of the JSON tree of the document version that was
  decoded; do not keep them across versions.
* `shifted(delta)` returns the same element moved by `delta` characters (used to re-base results
  cached relative to a container); it is the identity when `delta == 0`.
* Nothing here knows Terraform; the schema objects the decoder used are kept on each element
  (`schema`) so later layers can ask what is allowed where.
* Construction is the decoder's main cost, so the classes' `__init__` sets the slots through
  their descriptors (`fast_init`) instead of the dataclass default (`object.__setattr__` per field,
  about 1.7x slower); behaviour is otherwise the dataclass one (frozen, compared by value).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields

from ..jsonsyntax.tree import OBJECT, Node
from .schema import EXPRESSION, AttributeSchema, BlockSchema, BodySchema


@dataclass(frozen=True, slots=True)
class Expression:
    """A JSON value read as an HCL expression. `mode` is the attribute mode (`schema.EXPRESSION`
    for full expressions, `schema.LITERAL` ... see `schema`); templates are not parsed here."""

    node: Node
    start: int
    end: int
    mode: str = EXPRESSION

    @property
    def kind(self) -> str:
        """The JSON kind of the value (`tree.OBJECT`, `tree.STRING`, ...)."""
        return self.node.kind

    @property
    def range(self) -> tuple[int, int]:
        return (self.start, self.end)

    def shifted(self, delta: int) -> Expression:
        if delta == 0:
            return self
        return Expression(self.node, self.start + delta, self.end + delta, self.mode)


@dataclass(frozen=True, slots=True)
class Attribute:
    """`"name": value` in a body. `expr` is None when the JSON member has no value (mid-edit).
    `schema` is None for a name accepted by an open body or a dynamic-attributes body."""

    name: str
    name_start: int
    name_end: int
    expr: Expression | None
    schema: AttributeSchema | None = None

    @property
    def name_range(self) -> tuple[int, int]:
        return (self.name_start, self.name_end)

    @property
    def mode(self) -> str:
        return self.schema.mode if self.schema is not None else EXPRESSION

    @property
    def start(self) -> int:
        return self.name_start

    @property
    def end(self) -> int:
        return self.expr.end if self.expr is not None else self.name_end

    @property
    def range(self) -> tuple[int, int]:
        return (self.start, self.end)

    def shifted(self, delta: int) -> Attribute:
        if delta == 0:
            return self
        return Attribute(
            self.name,
            self.name_start + delta,
            self.name_end + delta,
            self.expr.shifted(delta) if self.expr is not None else None,
            self.schema,
        )


@dataclass(frozen=True, slots=True)
class Label:
    """One block label: the decoded property name and the range of its key string (quotes
    included)."""

    value: str
    start: int
    end: int

    @property
    def range(self) -> tuple[int, int]:
        return (self.start, self.end)

    def shifted(self, delta: int) -> Label:
        return self if delta == 0 else Label(self.value, self.start + delta, self.end + delta)


@dataclass(frozen=True, slots=True)
class Body:
    """The content of a block (or of the file). `node` is the JSON value holding it: an object,
    an array of objects, `null` (an empty body) or None (nothing there). `attributes` and `blocks`
    are in source order, duplicates kept."""

    node: Node | None
    start: int
    end: int
    schema: BodySchema
    attributes: tuple[Attribute, ...] = ()
    blocks: tuple[Block, ...] = ()

    @property
    def range(self) -> tuple[int, int]:
        return (self.start, self.end)

    @property
    def missing_item_range(self) -> tuple[int, int]:
        """Where what this body lacks (a required argument, too few blocks) is reported, as HCL
        reports it for JSON: the closing brace of an object body, else the body's first character
        (the `[` of a root array; the `{` of an object left unclosed, a syntax error)."""
        node = self.node
        if node is not None and node.kind == OBJECT and node.closed and self.end > self.start:  # type: ignore[attr-defined]
            return (self.end - 1, self.end)
        return (self.start, min(self.start + 1, self.end))

    def attribute(self, name: str) -> Attribute | None:
        """The first attribute named `name`, or None."""
        for a in self.attributes:
            if a.name == name:
                return a
        return None

    def blocks_of(self, type_name: str) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.type_name == type_name)

    def shifted(self, delta: int) -> Body:
        return _shift_body(self, delta)


@dataclass(frozen=True, slots=True)
class Block:
    """One block. In JSON several blocks can share a type key (and label keys): `type_start`/
    `type_end` is the range of the property name that introduced it, each label's range is the
    key that gave it, `body` the JSON value of its body."""

    type_name: str
    type_start: int
    type_end: int
    labels: tuple[Label, ...]
    body: Body
    schema: BlockSchema

    @property
    def type_range(self) -> tuple[int, int]:
        return (self.type_start, self.type_end)

    @property
    def body_range(self) -> tuple[int, int]:
        return (self.body.start, self.body.end)

    @property
    def label_values(self) -> tuple[str, ...]:
        return tuple([lab.value for lab in self.labels])  # a list, not a generator: read per block

    @property
    def header_range(self) -> tuple[int, int]:
        """The key that names this block most precisely: its last label, else its type."""
        return self.labels[-1].range if self.labels else self.type_range

    @property
    def start(self) -> int:
        return self.type_start

    @property
    def end(self) -> int:
        return self.body.end

    @property
    def range(self) -> tuple[int, int]:
        return (self.start, self.end)

    def shifted(self, delta: int) -> Block:
        if delta == 0:
            return self
        return self._moved(delta, self.body.shifted(delta))

    def _moved(self, delta: int, body: Body) -> Block:
        return Block(
            self.type_name,
            self.type_start + delta,
            self.type_end + delta,
            tuple(lab.shifted(delta) for lab in self.labels),
            body,
            self.schema,
        )


def _shift_body(body: Body, delta: int) -> Body:
    """`body` moved by `delta`, rebuilt bottom-up without recursion (bodies nest as deep as the
    input when the schema has cycles)."""
    if delta == 0:
        return body
    order: list[Body] = []
    stack = [body]
    while stack:
        b = stack.pop()
        order.append(b)
        stack.extend(blk.body for blk in b.blocks)
    moved: dict[int, Body] = {}
    for b in reversed(order):  # children before their parents
        moved[id(b)] = Body(
            b.node,
            b.start + delta,
            b.end + delta,
            b.schema,
            tuple(a.shifted(delta) for a in b.attributes),
            tuple(blk._moved(delta, moved[id(blk.body)]) for blk in b.blocks),
        )
    return moved[id(body)]


def fast_init(cls: type) -> type:
    """Give frozen slots dataclass `cls` an `__init__` that assigns each slot through its member
    descriptor (what the dataclass one does via `object.__setattr__`, without the lookup). Same
    parameters and defaults; fields with default factories are not supported."""
    ns: dict = {}
    params = []
    lines = []
    for i, f in enumerate(fields(cls)):
        if f.default_factory is not MISSING:  # pragma: no cover - none of ours
            raise TypeError(f"{cls.__name__}.{f.name}: default factories are not supported")
        ns[f"_set{i}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            ns[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        lines.append(f"    _set{i}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(lines), ns)
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls


for _cls in (Expression, Attribute, Label, Body, Block):
    fast_init(_cls)
