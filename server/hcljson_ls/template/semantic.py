"""Semantic token classification of template, expression and type trees.

`classify(tree) -> list[(start, end, token_type, modifiers)]`, sorted by `start`, non-overlapping,
absolute document offsets (the tree's). `modifiers` is a tuple of names from `TOKEN_MODIFIERS`.

Legend (standard LSP token types, in this order, so an index is stable):

| token type  | what                                                                          |
|-------------|-------------------------------------------------------------------------------|
| `macro`     | template delimiters: `${`, `${~`, `%{`, `%{~`, the closing `}` / `~}`          |
| `keyword`   | `for`, `in`, `if`, `else`, `endif`, `endfor`; `true`, `false`, `null`          |
| `variable`  | the root of a traversal (`var`, `local`, `aws_instance`, `each`, ...)          |
| `parameter` | `for` variables, where declared (`declaration`) and where used                |
| `namespace` | the namespace parts of a namespaced function (`provider`, `aws` in `provider::aws::f`) |
| `property`  | attribute steps (`.name`) and bare object keys (`declaration`)                |
| `function`  | function names                                                                |
| `operator`  | binary/unary operators, `?` `:` of conditionals, `=>`, `...`, splat markers    |
| `number`    | numbers, including legacy `.0` indexes                                        |
| `string`    | quoted strings and the literal parts of quoted templates inside expressions   |
| `type`      | type keywords in type constraints (`string`, `list`, `object`, ...)           |

Modifiers: `declaration`, `defaultLibrary` (reserved for later use by the Terraform layer).
Literal text of the top-level template is not classified (the JSON string colour applies).
"""

from __future__ import annotations

from .nodes import (
    Attr,
    Binary,
    Bool,
    Conditional,
    ForDirective,
    ForExpr,
    FunctionCall,
    IfDirective,
    Index,
    IndexStep,
    Interpolation,
    Literal,
    Marker,
    Name,
    Null,
    Number,
    Object,
    Parens,
    RelativeTraversal,
    Splat,
    String,
    Template,
    TemplateExpr,
    Traversal,
    Tuple,
    Unary,
)
from .types import CollectionType, ObjectType, PrimitiveType, TupleType

TOKEN_TYPES = ["macro", "keyword", "variable", "parameter", "namespace", "property", "function",
               "operator", "number", "string", "type"]
TOKEN_MODIFIERS = ["declaration", "defaultLibrary"]

Token = tuple[int, int, str, tuple[str, ...]]
_DECL = ("declaration",)


def classify(tree) -> list[Token]:
    out: list[Token] = []
    _visit(tree, out, ())
    out = [t for t in out if t[1] > t[0]]
    out.sort(key=lambda t: (t[0], t[1]))
    # drop overlaps (keep the first, innermost-first emission order is not guaranteed)
    res: list[Token] = []
    last_end = -1
    for t in out:
        if t[0] >= last_end:
            res.append(t)
            last_end = t[1]
    return res


def _span(out, span, kind, mods=()):
    if span is not None:
        out.append((span[0], span[1], kind, mods))


def _marker(m: Marker, out):
    _span(out, m.open_span, "macro")
    _span(out, m.keyword_span, "keyword")
    _span(out, m.close_span, "macro")


def _visit(n, out: list, scope: tuple[str, ...]) -> None:
    """Append the tokens of `n` (any template, expression or type node, or None) to `out`;
    `scope` holds the `for` variables visible there."""
    if n is None:
        return
    visit = _VISITORS.get(type(n))
    if visit is None:
        _visit_type(n, out)
    else:
        visit(n, out, scope)


def _template(n, out, scope) -> None:
    quoted = type(n) is TemplateExpr  # a quoted template inside an expression: its text is a string
    if quoted:
        first = n.parts[0].start if n.parts else n.end - 1
        out.append((n.start, first, "string", ()))  # opening quote
        last = n.parts[-1].end if n.parts else n.end - 1
        out.append((last, n.end, "string", ()))
    for p in n.parts:
        if type(p) is Literal:
            if quoted:
                out.append((p.start, p.end, "string", ()))
        else:
            _visit(p, out, scope)


def _interpolation(n, out, scope) -> None:
    _span(out, n.open_span, "macro")
    _visit(n.expr, out, scope)
    _span(out, n.close_span, "macro")


def _if_directive(n, out, scope) -> None:
    _marker(n.if_marker, out)
    _visit(n.condition, out, scope)
    for p in n.then_parts:
        _visit_part(p, out, scope)
    if n.else_marker is not None:
        _marker(n.else_marker, out)
    for p in n.else_parts or ():
        _visit_part(p, out, scope)
    if n.endif_marker is not None:
        _marker(n.endif_marker, out)


def _for_variables(n, out, scope) -> tuple[str, ...]:
    """Declare a `for`'s key and value variables; the scope of its body."""
    for v in (n.key_var, n.value_var):
        if v is not None:
            out.append((v.start, v.end, "parameter", _DECL))
    return scope + tuple(x.name for x in (n.key_var, n.value_var) if x is not None)


def _for_directive(n, out, scope) -> None:
    _marker(n.for_marker, out)
    inner = _for_variables(n, out, scope)
    _span(out, n.in_span, "keyword")
    _visit(n.collection, out, scope)
    for p in n.body:
        _visit_part(p, out, inner)
    if n.endfor_marker is not None:
        _marker(n.endfor_marker, out)


def _traversal(n, out, scope) -> None:
    out.append((n.start, n.root_end, "parameter" if n.root in scope else "variable", ()))
    _steps(n.steps, out, scope)


def _relative_traversal(n, out, scope) -> None:
    _visit(n.source, out, scope)
    _steps(n.steps, out, scope)


def _function_call(n, out, scope) -> None:
    for p in n.name_parts[:-1]:
        out.append((p.start, p.end, "namespace", ()))
    last = n.name_parts[-1]
    out.append((last.start, last.end, "function", ()))
    for a in n.args:
        _visit(a, out, scope)
    _span(out, n.ellipsis_span, "operator")


def _conditional(n, out, scope) -> None:
    _visit(n.condition, out, scope)
    _span(out, n.question_span, "operator")
    _visit(n.true_result, out, scope)
    _span(out, n.colon_span, "operator")
    _visit(n.false_result, out, scope)


def _binary(n, out, scope) -> None:
    _visit(n.lhs, out, scope)
    _span(out, n.op_span, "operator")
    _visit(n.rhs, out, scope)


def _unary(n, out, scope) -> None:
    _span(out, n.op_span, "operator")
    _visit(n.operand, out, scope)


def _tuple(n, out, scope) -> None:
    for x in n.items:
        _visit(x, out, scope)


def _object(n, out, scope) -> None:
    for it in n.items:
        k = it.key
        if type(k) is Traversal and not k.steps:  # a bare key: a property declared here
            out.append((k.start, k.end, "property", _DECL))
        else:
            _visit(k, out, scope)
        _visit(it.value, out, scope)


def _for_expr(n, out, scope) -> None:
    _span(out, n.for_span, "keyword")
    inner = _for_variables(n, out, scope)
    _span(out, n.in_span, "keyword")
    _visit(n.collection, out, scope)
    _visit(n.key, out, inner)
    _span(out, n.arrow_span, "operator")
    _visit(n.value, out, inner)
    _span(out, n.group_span, "operator")
    _span(out, n.if_span, "keyword")
    _visit(n.condition, out, inner)


def _index(n, out, scope) -> None:
    _visit(n.collection, out, scope)
    _visit(n.key, out, scope)


def _splat(n, out, scope) -> None:
    _visit(n.source, out, scope)
    _span(out, n.marker_span, "operator")
    _visit(n.each, out, scope)


def _token(kind: str):
    """A visitor for a node that is one token of `kind`."""
    def visit(n, out, scope) -> None:
        out.append((n.start, n.end, kind, ()))
    return visit


# One visitor per node type (a type node falls through to `_visit_type`).
_VISITORS = {
    Template: _template,
    TemplateExpr: _template,
    Interpolation: _interpolation,
    Marker: lambda n, out, scope: _marker(n, out),
    IfDirective: _if_directive,
    ForDirective: _for_directive,
    Traversal: _traversal,
    RelativeTraversal: _relative_traversal,
    Number: _token("number"),
    Bool: _token("keyword"),
    Null: _token("keyword"),
    String: _token("string"),
    Name: _token("variable"),
    FunctionCall: _function_call,
    Conditional: _conditional,
    Binary: _binary,
    Unary: _unary,
    Parens: lambda n, out, scope: _visit(n.expr, out, scope),
    Tuple: _tuple,
    Object: _object,
    ForExpr: _for_expr,
    Index: _index,
    Splat: _splat,
}


def _visit_part(p, out, scope):
    if type(p) is Literal:
        return
    _visit(p, out, scope)


def _steps(steps, out, scope):
    for s in steps:
        if type(s) is Attr:
            out.append((s.name_start, s.end, "property", ()))
        elif type(s) is IndexStep:
            _visit(s.key, out, scope)


def _visit_type(n, out) -> None:
    t = type(n)
    if t is PrimitiveType:
        out.append((n.start, n.end, "type", ()))
    elif t is CollectionType:
        out.append((n.start, n.kind_end, "type", ()))
        if n.element is not None:
            _visit_type(n.element, out)
    elif t is TupleType:
        out.append((n.start, n.keyword_end, "type", ()))
        for e in n.elements:
            _visit_type(e, out)
    elif t is ObjectType:
        out.append((n.start, n.keyword_end, "type", ()))
        for a in n.attributes:
            out.append((a.start, a.name_end, "property", _DECL))
            if a.optional_span is not None:
                out.append((a.optional_span[0], a.optional_span[1], "keyword", ()))
            _visit_type(a.type, out)
            if a.default is not None:
                _visit(a.default, out, ())
