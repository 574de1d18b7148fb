"""Template and expression tree nodes (HCL native template language).

Contract
--------
* Every node is a frozen dataclass whose first two fields are `start` and `end`: a half-open range
  of **absolute document offsets** (Python `str` indices into the document text). Ranges are
  computed through the decoded-string map of the syntax layer (`offsets[i]` = document offset of
  decoded character `i`); a node covering decoded characters `[i, j)` has `start = offsets[i]`
  and `end = offsets[j]`, so a node that ends with an escaped character (`\\u0024`) ends after
  the whole escape. Extra `*_span` fields are `(start, end)` pairs in the same coordinates.
* Parse results are cached by string content with decoded-index positions and mapped to absolute
  positions per call (`remap`). Nodes are plain immutable data; compare them with `==`.
* `walk(node)` yields a node and all its descendants depth-first in source order.
* `start_range(expr)` is where HCL says an expression starts (hclsyntax's `StartRange`), the range
  Terraform reports an argument at ("Too many function arguments").

Node kinds
----------
Template level: `Template(parts)`, `Literal` (text, `value` already unescaped: `$${` -> `${`),
`Interpolation(expr)`, `IfDirective`, `ForDirective`, `Marker` (one `%{ ... }` sequence).
Expressions: `Number`, `Bool`, `Null`, `String` (a quoted string without interpolation),
`TemplateExpr` (a quoted template with interpolations/directives), `Traversal` (variable root +
steps), `RelativeTraversal` (steps applied to any other expression), `Attr` and `IndexStep`
(traversal steps), `Index` (indexing with a non-literal key), `Splat`/`SplatItem`,
`FunctionCall`, `Conditional`, `Binary`, `Unary`, `Parens`, `Tuple`, `Object`/`ObjectItem`,
`ForExpr`, `Name` (an identifier such as a `for` variable or a function-name part) and
`Invalid` (an expression that could not be parsed; a diagnostic was reported for it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields

Span = tuple[int, int]


class _Node:
    __slots__ = ()
    start: int
    end: int


# ---------------------------------------------------------------------------------------------
# expressions


@dataclass(frozen=True, slots=True)
class Invalid(_Node):
    """A piece that could not be parsed (the diagnostic explains why)."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Name(_Node):
    """An identifier with its range (a `for` variable, a part of a namespaced function name)."""

    start: int
    end: int
    name: str


@dataclass(frozen=True, slots=True)
class Number(_Node):
    start: int
    end: int
    text: str

    @property
    def value(self) -> int | float:
        try:
            return int(self.text)
        except ValueError:
            return float(self.text)


@dataclass(frozen=True, slots=True)
class Bool(_Node):
    start: int
    end: int
    value: bool


@dataclass(frozen=True, slots=True)
class Null(_Node):
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class String(_Node):
    """A quoted string without interpolations or directives; range includes the quotes,
    `inner_span` is what lies between them."""

    start: int
    end: int
    value: str
    inner_span: Span


@dataclass(frozen=True, slots=True)
class Literal(_Node):
    """Literal template text; `value` is the text with escapes applied (strip markers are not)."""

    start: int
    end: int
    value: str


@dataclass(frozen=True, slots=True)
class Attr(_Node):
    """`.name` traversal step; `start` is the dot, `name_start` the first character of the name."""

    start: int
    end: int
    name: str
    name_start: int


@dataclass(frozen=True, slots=True)
class IndexStep(_Node):
    """`[key]` with a literal key, or the legacy `.0` form (`legacy=True`, `start` is the dot)."""

    start: int
    end: int
    key: Expr
    legacy: bool = False


Step = Attr | IndexStep


@dataclass(frozen=True, slots=True)
class Traversal(_Node):
    """A variable and its static steps: `var.a[0].b` -> root `var`, steps `.a`, `[0]`, `.b`."""

    start: int
    end: int
    root: str
    root_end: int
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class RelativeTraversal(_Node):
    """Static steps applied to a non-variable expression: `f(x).a`, `(a).b`, `x[*].y[0]`'s tail."""

    start: int
    end: int
    source: Expr
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Index(_Node):
    """`collection[key]` where `key` is not a literal (so it is not a static traversal step)."""

    start: int
    end: int
    collection: Expr
    key: Expr
    bracket_span: Span


@dataclass(frozen=True, slots=True)
class SplatItem(_Node):
    """The anonymous per-element symbol of a splat; its range is the splat marker."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Splat(_Node):
    """`source.*.each` (attribute-only, `full=False`) or `source[*]each` (`full=True`).

    `each` is the expression evaluated per element, rooted at a `SplatItem`.
    """

    start: int
    end: int
    source: Expr
    each: Expr
    full: bool
    marker_span: Span


@dataclass(frozen=True, slots=True)
class FunctionCall(_Node):
    """`name(args...)`; `name_parts` are the `::`-separated parts of a namespaced name."""

    start: int
    end: int
    name_parts: tuple[Name, ...]
    args: tuple[Expr, ...]
    ellipsis_span: Span | None
    open_span: Span
    close_span: Span

    @property
    def name(self) -> str:
        return "::".join(p.name for p in self.name_parts)

    @property
    def name_span(self) -> Span:
        return (self.name_parts[0].start, self.name_parts[-1].end)

    @property
    def namespace(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.name_parts[:-1])

    @property
    def expand_final(self) -> bool:
        return self.ellipsis_span is not None


@dataclass(frozen=True, slots=True)
class Conditional(_Node):
    start: int
    end: int
    condition: Expr
    true_result: Expr
    false_result: Expr
    question_span: Span
    colon_span: Span


@dataclass(frozen=True, slots=True)
class Binary(_Node):
    """`lhs op rhs`; `op` is the operator text (`||`, `&&`, `==`, `!=`, `<`, ..., `%`)."""

    start: int
    end: int
    op: str
    lhs: Expr
    rhs: Expr
    op_span: Span


@dataclass(frozen=True, slots=True)
class Unary(_Node):
    """`-x` or `!x`."""

    start: int
    end: int
    op: str
    operand: Expr
    op_span: Span


@dataclass(frozen=True, slots=True)
class Parens(_Node):
    start: int
    end: int
    expr: Expr


@dataclass(frozen=True, slots=True)
class Tuple(_Node):
    start: int
    end: int
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class ObjectItem(_Node):
    """`key = value` or `key : value`. A bare-identifier key is a `Traversal` with no steps
    (HCL takes it as the literal attribute name); a parenthesized key is a `Parens`."""

    start: int
    end: int
    key: Expr
    value: Expr
    separator_span: Span


@dataclass(frozen=True, slots=True)
class Object(_Node):
    start: int
    end: int
    items: tuple[ObjectItem, ...]


@dataclass(frozen=True, slots=True)
class ForExpr(_Node):
    """`[for k, v in coll : value if cond]` or `{for k, v in coll : key => value... if cond}`."""

    start: int
    end: int
    is_object: bool
    key_var: Name | None
    value_var: Name
    collection: Expr
    key: Expr | None
    value: Expr
    condition: Expr | None
    for_span: Span
    in_span: Span
    colon_span: Span
    arrow_span: Span | None
    group_span: Span | None
    if_span: Span | None


# ---------------------------------------------------------------------------------------------
# templates


@dataclass(frozen=True, slots=True)
class Interpolation(_Node):
    """`${ expr }`; `open_span` covers `${` (or `${~`), `close_span` covers `}` (or `~}`) and is
    None when the sequence is unclosed. `expr` is `Invalid` when the body did not parse."""

    start: int
    end: int
    expr: Expr
    open_span: Span
    close_span: Span | None
    strip_left: bool = False
    strip_right: bool = False


@dataclass(frozen=True, slots=True)
class Marker(_Node):
    """One directive sequence `%{ keyword ... }`; `keyword` is if/else/endif/for/endfor."""

    start: int
    end: int
    keyword: str
    keyword_span: Span
    open_span: Span
    close_span: Span | None
    strip_left: bool = False
    strip_right: bool = False


@dataclass(frozen=True, slots=True)
class IfDirective(_Node):
    """`%{ if cond }then%{ else }else%{ endif }`; `else_marker`/`else_parts` are None without
    an else clause; `endif_marker` is None when the template ends first (an error)."""

    start: int
    end: int
    condition: Expr
    then_parts: tuple[Part, ...]
    else_parts: tuple[Part, ...] | None
    if_marker: Marker
    else_marker: Marker | None
    endif_marker: Marker | None


@dataclass(frozen=True, slots=True)
class ForDirective(_Node):
    """`%{ for k, v in coll }body%{ endfor }`."""

    start: int
    end: int
    key_var: Name | None
    value_var: Name
    collection: Expr
    body: tuple[Part, ...]
    for_marker: Marker
    in_span: Span
    endfor_marker: Marker | None


Part = Literal | Interpolation | IfDirective | ForDirective | Marker


@dataclass(frozen=True, slots=True)
class TemplateExpr(_Node):
    """A quoted template inside an expression (`"${a}-x"`); range includes the quotes."""

    start: int
    end: int
    parts: tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Template(_Node):
    """A whole template string (the decoded JSON string value). A stray unpaired `Marker` may
    appear among `parts` after an error."""

    start: int
    end: int
    parts: tuple[Part, ...]


Expr = (
    Invalid | Number | Bool | Null | String | TemplateExpr | Traversal | RelativeTraversal | Index | Splat
    | SplatItem | FunctionCall | Conditional | Binary | Unary | Parens | Tuple | Object | ForExpr
)
Node = Expr | Template | Part | Attr | IndexStep | ObjectItem | Name | Marker


# ---------------------------------------------------------------------------------------------
# generic traversal and position mapping

_POS, _SPAN, _NODE, _NODES, _OTHER = range(5)
_PLANS: dict[type, tuple[tuple[str, int], ...]] = {}


def _plan(cls: type) -> tuple[tuple[str, int], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        out = []
        for f in fields(cls):
            t = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
            if f.name in ("start", "end") or f.name.endswith(("_start", "_end")):
                out.append((f.name, _POS))
            elif "Span" in t:
                out.append((f.name, _SPAN))
            elif t.startswith("tuple[") or t.startswith("Optional[tuple["):
                out.append((f.name, _NODES))
            elif f.name in ("name", "text", "value", "op", "root", "keyword") and t in ("str", "bool"):
                out.append((f.name, _OTHER))
            elif t in ("bool", "str"):
                out.append((f.name, _OTHER))
            else:
                out.append((f.name, _NODE))
        plan = tuple(out)
        _PLANS[cls] = plan
    return plan


def start_range(expr) -> Span:
    """Where HCL says expression `expr` starts (hclsyntax's `StartRange`): a call's name through its
    `(`; an operation's, a conditional's, an index's, a splat's left side; a collection's opening
    bracket; a quoted string's content (its quotes when empty), a quoted template's first part (a
    literal whole, an interpolation's expression); a unary operator; any other expression (a
    literal, a traversal) whole."""
    while True:
        t = type(expr)
        if t is Binary:
            expr = expr.lhs
        elif t is Conditional:
            expr = expr.condition
        elif t is Index:
            expr = expr.collection
        elif t is RelativeTraversal or t is Splat:
            expr = expr.source
        else:
            break
    if t is FunctionCall:
        return (expr.name_parts[0].start, expr.open_span[1])
    if t is Tuple or t is Object or t is ForExpr:
        return (expr.start, expr.start + 1)
    if t is Unary:
        return expr.op_span
    if t is String and expr.inner_span[0] < expr.inner_span[1]:
        return expr.inner_span
    if t is TemplateExpr and expr.parts:
        first = expr.parts[0]
        return start_range(first.expr) if type(first) is Interpolation else (first.start, first.end)
    return (expr.start, expr.end)


def children(node) -> list:
    """Direct child nodes of `node`, in source order."""
    out = []
    for name, kind in _plan(type(node)):
        if kind == _NODE:
            v = getattr(node, name)
            if v is not None:
                out.append(v)
        elif kind == _NODES:
            v = getattr(node, name)
            if v:
                out.extend(v)
    out.sort(key=lambda n: (n.start, n.end))
    return out


def walk(node) -> Iterator:
    """Yield `node` and every descendant, depth-first, in source order (no recursion)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = children(n)
        kids.reverse()
        stack.extend(kids)


def remap(node, offsets: Sequence[int]):
    """A copy of `node` (decoded-index positions) with every position `p` replaced by
    `offsets[p]`. Used to turn cached relative trees into absolute ones."""
    cls = type(node)
    args = []
    for name, kind in _plan(cls):
        v = getattr(node, name)
        if kind == _POS:
            args.append(offsets[v])
        elif kind == _SPAN:
            args.append(None if v is None else (offsets[v[0]], offsets[v[1]]))
        elif kind == _NODE:
            args.append(None if v is None else remap(v, offsets))
        elif kind == _NODES:
            args.append(None if v is None else tuple(remap(c, offsets) for c in v))
        else:
            args.append(v)
    return cls(*args)
