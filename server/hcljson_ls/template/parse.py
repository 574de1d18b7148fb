"""Parsing templates and expressions (Lark LALR over the tokens of `lexer.tokenize`).

Public API
----------
* `parse_template(value, offsets) -> TemplateResult(tree: Template, diagnostics)` — the whole
  decoded string as an HCL template (full-expression mode of HCL JSON).
* `parse_expression(value, offsets) -> ExpressionResult(tree: Expr, diagnostics)` — the string as
  one bare expression (static traversals such as `depends_on` entries or `provider = "aws.west"`).
* `template_diagnostics(value, offsets)` — only the diagnostics of `parse_template` (cheapest:
  nothing is mapped for a valid string).
* `unwrap(template)` — Template Interpolation Unwrapping: a template that is exactly one `${x}`
  stands for the expression `x`; any other template stands for itself.

`value` is the decoded JSON string; `offsets[i]` is the absolute document offset of decoded
character `i` and `offsets[len(value)]` the offset just after the content. Every node and
diagnostic range is absolute (see `nodes`). Parsing never raises.

Errors: each top-level `${...}` / `%{...}` sequence of a broken template is parsed on its own, so an
error in one does not hide another; a sequence that does not parse becomes an `Invalid` node.
Diagnostics have codes `template/...` (listed in docs/diagnostics.md).

Speed: the Lark parser is built once per process; results are cached by string content (decoded
positions) and mapped to absolute positions per call; plain text (no `${` / `%{`) never reaches
Lark, and templates whose interpolations are all simple traversals (`${a.b[0].c}`) are built by a
regular expression (same tree as the full parser).

The parser is not re-entrant across threads (one shared Lark instance); call it from one thread.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from ..diagnostic import ERROR, Diagnostic
from . import lexer as lx
from .grammars import grammar_text, table_cache
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
    Invalid,
    Literal,
    Marker,
    Name,
    Null,
    Number,
    Object,
    ObjectItem,
    Parens,
    Part,
    RelativeTraversal,
    Splat,
    SplatItem,
    Step,
    String,
    Template,
    TemplateExpr,
    Traversal,
    Tuple,
    Unary,
    remap,
)

__all__ = [
    "TemplateResult", "ExpressionResult", "parse_template", "parse_expression",
    "template_diagnostics", "unwrap",
]


@dataclass(frozen=True, slots=True)
class TemplateResult:
    tree: Template
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True, slots=True)
class ExpressionResult:
    tree: object  # an expression node (`Invalid` when nothing could be parsed)
    diagnostics: tuple[Diagnostic, ...]


def _diag(start: int, end: int, code: str, summary: str, detail: str) -> Diagnostic:
    return Diagnostic(start, end, ERROR, code, summary, detail)


def remap_diagnostic(d: Diagnostic, offsets: Sequence[int]) -> Diagnostic:
    return replace(d, start=offsets[d.start], end=offsets[d.end],
                   related=tuple(replace(r, start=offsets[r.start], end=offsets[r.end]) for r in d.related),
                   fixes=tuple(replace(f, start=offsets[f.start], end=offsets[f.end]) for f in d.fixes))


# ---------------------------------------------------------------------------------------------
# Lark plumbing


class _TokenFeeder(Lexer):
    """Lark 'lexer' that hands over the token list given to `parse` (tokenized by `lexer.py`)."""

    __future_interface__ = 2

    def __init__(self, lexer_conf) -> None:
        pass

    def lex(self, lexer_state, parser_state):
        return iter(lexer_state.text)


class _IfOpen:
    __slots__ = ("marker", "cond")

    def __init__(self, marker: Marker, cond) -> None:
        self.marker = marker
        self.cond = cond


class _ForOpen:
    __slots__ = ("marker", "key", "val", "in_span", "coll")

    def __init__(self, marker, key, val, in_span, coll) -> None:
        self.marker = marker
        self.key = key
        self.val = val
        self.in_span = in_span
        self.coll = coll


def _span(tok: Token) -> tuple[int, int]:
    # Lark types positions as optional; the lexer that made these tokens always sets them.
    return (cast(int, tok.start_pos), cast(int, tok.end_pos))


def _is_literal_key(node) -> bool:
    return isinstance(node, (Number, String, Bool, Null))


def _chain(src, attr_like: bool, make):
    """Apply a traversal step to `src`, descending into open splats as hclsyntax does: every step
    continues a full splat `[*]`; only attribute steps continue an attribute splat `.*`."""
    if isinstance(src, Splat) and (src.full or attr_like):
        inner = _chain(src.each, attr_like, make)
        return replace(src, each=inner, end=inner.end)
    return make(src)


def _add_step(src, step):
    if isinstance(src, (Traversal, RelativeTraversal)):
        return replace(src, steps=src.steps + (step,), end=step.end)
    return RelativeTraversal(src.start, step.end, src, (step,))


class _Builder(Transformer):
    """Builds nodes (decoded-index positions) while Lark reduces; collects semantic diagnostics."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.diags: list[Diagnostic] = []

    # -- template level
    def text(self, c):
        t = c[0]
        return Literal(t.start_pos, t.end_pos, t.value)

    def interpolation(self, c):
        o, e, cl = c
        return Interpolation(o.start_pos, cl.end_pos, e, _span(o), _span(cl) if cl.value else None,
                             o.value.endswith("~"), cl.value.startswith("~"))

    def _marker(self, o, kw, cl) -> Marker:
        return Marker(o.start_pos, cl.end_pos, kw.value, _span(kw), _span(o), _span(cl) if cl.value else None,
                      o.value.endswith("~"), cl.value.startswith("~"))

    def if_marker(self, c):
        o, kw, e, cl = c
        return _IfOpen(self._marker(o, kw, cl), e)

    def else_marker(self, c):
        return self._marker(*c)

    def endif_marker(self, c):
        return self._marker(*c)

    def endfor_marker(self, c):
        return self._marker(*c)

    def for_marker(self, c):
        o, kw = c[0], c[1]
        if len(c) == 8:
            key = Name(c[2].start_pos, c[2].end_pos, c[2].value)
            val = Name(c[4].start_pos, c[4].end_pos, c[4].value)
        else:
            key = None
            val = Name(c[2].start_pos, c[2].end_pos, c[2].value)
        in_tok, coll, cl = c[-3], c[-2], c[-1]
        return _ForOpen(self._marker(o, kw, cl), key, val, _span(in_tok), coll)

    def template(self, c):
        return pair_parts(c, self.diags)

    def quoted(self, c):
        o, cl = c[0], c[-1]
        parts = pair_parts(c[1:-1], self.diags)
        if not parts:
            return String(o.start_pos, cl.end_pos, "", (o.end_pos, cl.start_pos))
        if len(parts) == 1 and type(parts[0]) is Literal:
            return String(o.start_pos, cl.end_pos, parts[0].value, (o.end_pos, cl.start_pos))
        return TemplateExpr(o.start_pos, cl.end_pos, parts)

    # -- operators
    def conditional(self, c):
        cond, q, t, col, f = c
        return Conditional(cond.start, f.end, cond, t, f, _span(q), _span(col))

    def binary(self, c):
        lhs, op, rhs = c
        return Binary(lhs.start, rhs.end, op.value, lhs, rhs, _span(op))

    def unary(self, c):
        op, x = c
        return Unary(op.start_pos, x.end, op.value, x, _span(op))

    # -- traversals
    def get_attr(self, c):
        src, dot, name = c
        step = Attr(dot.start_pos, name.end_pos, name.value, name.start_pos)
        return _chain(src, True, lambda s: _add_step(s, step))

    def legacy_index(self, c):
        src, dot, num = c
        if "." in num.value:
            a, b = num.value.split(".", 1)
            self.diags.append(_diag(num.start_pos, num.end_pos, "template/invalid-legacy-index", "Invalid legacy index syntax",
                                    "When using the legacy index syntax, chaining two indexes together is not permitted. "
                                    f"Use the proper index syntax instead, like [{a}][{b}]."))
        step = IndexStep(dot.start_pos, num.end_pos, Number(num.start_pos, num.end_pos, num.value), True)
        return _chain(src, True, lambda s: _add_step(s, step))

    def attr_splat(self, c):
        src, dot, star = c
        if isinstance(src, Splat) and not src.full:
            self.diags.append(_diag(star.start_pos, star.end_pos, "template/nested-splat", "Nested splat expression not allowed",
                                    "A splat expression (*) cannot be used inside another attribute-only splat expression."))
        item = SplatItem(dot.start_pos, star.end_pos)
        return _chain(src, False, lambda s: Splat(s.start, star.end_pos, s, item, False, (dot.start_pos, star.end_pos)))

    def full_splat(self, c):
        src, o, _star, cl = c
        item = SplatItem(o.start_pos, cl.end_pos)
        return _chain(src, False, lambda s: Splat(s.start, cl.end_pos, s, item, True, (o.start_pos, cl.end_pos)))

    def index(self, c):
        src, o, key, cl = c
        if _is_literal_key(key):
            step = IndexStep(o.start_pos, cl.end_pos, key)
            return _chain(src, False, lambda s: _add_step(s, step))
        return _chain(src, False, lambda s: Index(s.start, cl.end_pos, s, key, (o.start_pos, cl.end_pos)))

    # -- terms
    def number(self, c):
        t = c[0]
        return Number(t.start_pos, t.end_pos, t.value)

    def true(self, c):
        return Bool(c[0].start_pos, c[0].end_pos, True)

    def false(self, c):
        return Bool(c[0].start_pos, c[0].end_pos, False)

    def null(self, c):
        return Null(c[0].start_pos, c[0].end_pos)

    def variable(self, c):
        t = c[0]
        return Traversal(t.start_pos, t.end_pos, t.value, t.end_pos, ())

    def parens(self, c):
        o, e, cl = c
        return Parens(o.start_pos, cl.end_pos, e)

    def func_name(self, c):
        return tuple(Name(t.start_pos, t.end_pos, t.value) for t in c if t.type == "NAME")

    def function_call(self, c):
        parts, o, cl = c[0], c[1], c[-1]
        args = []
        ell = None
        for x in c[2:-1]:
            if isinstance(x, Token):
                if x.type == "ELLIPSIS":
                    ell = _span(x)
            else:
                args.append(x)
        return FunctionCall(parts[0].start, cl.end_pos, parts, tuple(args), ell, _span(o), _span(cl))

    def tuple(self, c):
        return Tuple(c[0].start_pos, c[-1].end_pos, tuple(x for x in c[1:-1] if not isinstance(x, Token)))

    def object(self, c):
        return Object(c[0].start_pos, c[-1].end_pos, tuple(x for x in c[1:-1] if not isinstance(x, Token)))

    def object_item(self, c):
        k, sep, v = c
        return ObjectItem(k.start, v.end, k, v, _span(sep))

    def for_intro(self, c):
        if len(c) == 7:
            key = Name(c[1].start_pos, c[1].end_pos, c[1].value)
            val = Name(c[3].start_pos, c[3].end_pos, c[3].value)
        else:
            key = None
            val = Name(c[1].start_pos, c[1].end_pos, c[1].value)
        return (_span(c[0]), key, val, _span(c[-3]), c[-2], _span(c[-1]))

    def for_cond(self, c):
        return (_span(c[0]), c[1])

    def for_expr(self, c):
        o, cl = c[0], c[-1]
        for_span, key_var, val_var, in_span, coll, colon_span = c[1]
        rest = c[2:-1]
        first = rest[0]
        key = None
        value = first
        arrow = group = None
        cond = if_span = None
        i = 1
        if i < len(rest) and isinstance(rest[i], Token) and rest[i].type == "ARROW":
            arrow = _span(rest[i])
            key, value = first, rest[i + 1]
            i += 2
        if i < len(rest) and isinstance(rest[i], Token) and rest[i].type == "ELLIPSIS":
            group = _span(rest[i])
            i += 1
        if i < len(rest):
            if_span, cond = rest[i]
        is_obj = o.type == "LBRACE"
        if not is_obj and key is not None:
            self.diags.append(_diag(key.start, key.end, "template/invalid-for-expression", "Invalid 'for' expression",
                                    "Key expression is not valid when building a tuple."))
        if not is_obj and group is not None:
            self.diags.append(_diag(group[0], group[1], "template/invalid-for-expression", "Invalid 'for' expression",
                                    "Grouping ellipsis (...) cannot be used when building a tuple."))
        if is_obj and key is None:
            self.diags.append(_diag(value.start, value.end, "template/invalid-for-expression", "Invalid 'for' expression",
                                    "Key expression is required when building an object."))
        return ForExpr(o.start_pos, cl.end_pos, is_obj, key_var, val_var, coll, key, value, cond,
                       for_span, in_span, colon_span, arrow, group, if_span)


# ---------------------------------------------------------------------------------------------
# pairing of directive markers (the second pass of hclsyntax's template parser)


def pair_parts(items, diags: list) -> tuple:
    """Turn a flat sequence of template parts and directive markers into nested If/For directives,
    reporting unbalanced directives."""
    out, _ = _pair_seq(list(items), 0, None, diags)
    return tuple(out)


def _pair_seq(items: list, i: int, opener, diags: list):
    """Collect parts from `items[i:]` until the marker that ends `opener` (None: the template)."""
    out: list = []
    while i < len(items):
        it = items[i]
        if isinstance(it, _IfOpen):
            node, i = _pair_if(items, i + 1, it, diags)
            out.append(node)
        elif isinstance(it, _ForOpen):
            node, i = _pair_for(items, i + 1, it, diags)
            out.append(node)
        elif isinstance(it, Marker):
            if opener is not None:
                return out, i  # let the caller decide
            diags.append(_diag(it.start, it.end, "template/unexpected-directive", f"Unexpected {it.keyword} directive",
                               f"The control directives within this template are unbalanced: there is no open "
                               f"{'for' if it.keyword == 'endfor' else 'if'} directive for this {it.keyword}."))
            out.append(it)
            i += 1
        else:
            out.append(it)
            i += 1
    return out, i


def _pair_if(items, i, op: _IfOpen, diags):
    then, i = _pair_seq(items, i, op, diags)
    else_marker = endif = None
    else_parts = None
    while True:
        if i >= len(items):
            diags.append(_diag(op.marker.start, op.marker.end, "template/unterminated-directive", "Missing endif directive",
                               "This if directive is missing its corresponding endif directive."))
            break
        m = items[i]
        i += 1
        if m.keyword == "endif":
            endif = m
            break
        if m.keyword == "else" and else_marker is None:
            else_marker = m
            else_parts, i = _pair_seq(items, i, op, diags)
            continue
        detail = ("Already in the else clause for this if directive." if m.keyword == "else"
                  else "Expecting an endif directive for the if directive that is still open.")
        diags.append(_diag(m.start, m.end, "template/unexpected-directive", f"Unexpected {m.keyword} directive", detail))
        more, i = _pair_seq(items, i, op, diags)
        if else_parts is None:
            then = then + [m] + more
        else:
            else_parts = else_parts + [m] + more
    last = endif or (else_parts[-1] if else_parts else None) or else_marker or (then[-1] if then else op.marker)
    node = IfDirective(op.marker.start, last.end, op.cond, tuple(then),
                       None if else_parts is None else tuple(else_parts), op.marker, else_marker, endif)
    return node, i


def _pair_for(items, i, op: _ForOpen, diags):
    body, i = _pair_seq(items, i, op, diags)
    endfor = None
    while True:
        if i >= len(items):
            diags.append(_diag(op.marker.start, op.marker.end, "template/unterminated-directive", "Missing endfor directive",
                               "This for directive is missing its corresponding endfor directive."))
            break
        m = items[i]
        i += 1
        if m.keyword == "endfor":
            endfor = m
            break
        detail = ("An else clause is not expected for a for directive." if m.keyword == "else"
                  else "Expecting an endfor directive corresponding to the for directive that is still open.")
        diags.append(_diag(m.start, m.end, "template/unexpected-directive", f"Unexpected {m.keyword} directive", detail))
        more, i = _pair_seq(items, i, op, diags)
        body = body + [m] + more
    last = endfor or (body[-1] if body else op.marker)
    node = ForDirective(op.marker.start, last.end, op.key, op.val, op.coll, tuple(body), op.marker, op.in_span, endfor)
    return node, i


# ---------------------------------------------------------------------------------------------
# building the parsers (once per process)

_STARTS = ["template", "expression", "interpolation", "directive"]


@cache
def _template_parser() -> tuple[Lark, _Builder]:
    builder = _Builder()
    parser = Lark(grammar_text("template.lark"), parser="lalr", lexer=_TokenFeeder, start=_STARTS,
                  transformer=builder, maybe_placeholders=False, cache=table_cache("template"))
    return parser, builder


def _run(tokens: list, start: str, parser_builder=None):
    """Parse `tokens` from `start`. Returns (result, None, semantic diags) or (None, error, [])."""
    parser, builder = parser_builder or _template_parser()
    builder.diags = []
    try:
        res = parser.parse(tokens, start=start)
    except UnexpectedInput as e:
        builder.diags = []
        return None, e, []
    d = builder.diags
    builder.diags = []
    return res, None, d


# ---------------------------------------------------------------------------------------------
# syntax error messages

_EXPR_START = {"NAME", "NUMBER", "LPAR", "LSQB", "LBRACE", "QUOTE_OPEN", "MINUS", "BANG", "TRUE", "FALSE", "NULL"}
_EXPR_END = {"NAME", "NUMBER", "RPAR", "RSQB", "RBRACE", "QUOTE_CLOSE", "TRUE", "FALSE", "NULL", "STAR"}
_CLOSERS = {"TEMPLATE_CLOSE", "RBRACE", "RSQB", "RPAR", "$END", "QUOTE_CLOSE"}
_ESCAPE_HINT = ('If this is an embedded sequence for another language, escape it by starting with "$${" '
                'instead of just "${".')


def describe(tok) -> str:
    t = tok.type
    if t == "$END" or (t == "TEMPLATE_CLOSE" and not tok.value):
        return "the end of the string"
    if t == "TEMPLATE_CLOSE":
        return f'the end of the sequence ("{tok.value}")'
    if t == "QUOTE_CLOSE":
        return "the end of the quoted string"
    if t == "NAME":
        return f'the name "{tok.value}"'
    if t == "NUMBER":
        return f"the number {tok.value}"
    if t == "TEXT":
        return "literal text"
    if t == "_NL":
        return "a newline"
    if t == "QUOTE_OPEN":
        return "a quoted string"
    if t in ("INTERP_OPEN", "DIRECTIVE_OPEN"):
        return f'a new template sequence ("{tok.value}")'
    return f'"{tok.value}"'


def accepted(err) -> set[str]:
    """The terminals the parser would really accept where it failed (LALR's `expected` can be
    wider: it is the lookahead set of a state shared by several contexts)."""
    ip = getattr(err, "interactive_parser", None)
    if ip is not None:
        try:
            return set(ip.accepts())
        except Exception:  # pragma: no cover - defensive: fall back to Lark's estimate
            pass
    return set(getattr(err, "expected", ()) or ())


def _frames(tokens: list, upto: int) -> list[int]:
    """Indices of the openers still open before token `upto` (innermost last)."""
    st: list[int] = []
    for k in range(upto):
        t = tokens[k].type
        if t in ("LPAR", "LSQB", "LBRACE", "INTERP_OPEN", "DIRECTIVE_OPEN", "QUOTE_OPEN"):
            st.append(k)
        elif t == "RPAR" or t == "RSQB":
            if st and tokens[st[-1]].type == ("LPAR" if t == "RPAR" else "LSQB"):
                st.pop()
        elif t == "QUOTE_CLOSE":
            if st and tokens[st[-1]].type == "QUOTE_OPEN":
                st.pop()
        elif t == "RBRACE" or t == "TEMPLATE_CLOSE":
            while st and tokens[st[-1]].type in ("LPAR", "LSQB"):
                st.pop()
            if st and tokens[st[-1]].type in ("LBRACE", "INTERP_OPEN", "DIRECTIVE_OPEN"):
                st.pop()
    return st


def _frame_kind(tokens: list, k: int) -> str:
    t = tokens[k].type
    nxt = tokens[k + 1].type if k + 1 < len(tokens) else ""
    prv = tokens[k - 1].type if k > 0 else ""
    if t == "LPAR":
        return "call" if prv == "NAME" else "parens"
    if t == "LSQB":
        if nxt == "FOR":
            return "for"
        return "index" if prv in _EXPR_END else "tuple"
    if t == "LBRACE":
        return "for" if nxt == "FOR" else "object"
    return {"INTERP_OPEN": "interp", "DIRECTIVE_OPEN": "directive", "QUOTE_OPEN": "quoted"}[t]


@dataclass(frozen=True, slots=True)
class _ErrorSite:
    """Where Lark stopped: the unexpected token `tok` (index `idx` in `tokens`, range `start`-`end`),
    the one before it, what Lark expected, and the innermost open construct (`frames`)."""

    tokens: list
    idx: int
    tok: Token
    start: int
    end: int
    prev: Token | None
    expected: frozenset[str]
    frames: list[int]

    @property
    def ptype(self) -> str:
        return self.prev.type if self.prev is not None else ""

    @property
    def desc(self) -> str:
        return describe(self.tok)

    @property
    def at_end(self) -> bool:
        return self.tok.type == "$END" or (self.tok.type == "TEMPLATE_CLOSE" and not self.tok.value)

    @property
    def closing(self) -> bool:
        """The token closes something (or the text ends) where more was expected."""
        return self.tok.type in _CLOSERS or self.at_end

    def types_since_opener(self) -> list[str]:
        return [self.tokens[k].type for k in range(self.frames[-1], self.idx)]

    def d(self, code: str, summary: str, detail: str) -> Diagnostic:
        return _diag(self.start, self.end, code, summary, detail)


def syntax_error(tokens: list, err: UnexpectedInput, value_len: int, kind_hint: str = "base") -> Diagnostic | None:
    """An HCL-like diagnostic for a Lark error (None when the lexer already reported the cause).
    Checks that hold whatever the construct come first, then the innermost open construct's own
    (`_KIND_ERRORS`)."""
    tok = getattr(err, "token", None)
    if tok is None or tok.type == "$END":
        idx = len(tokens)
        start = end = value_len
        tok = Token("$END", "", value_len, None, None, None, None, value_len)
    else:
        idx = next((k for k, t in enumerate(tokens) if t is tok), len(tokens))
        start, end = tok.start_pos, tok.end_pos
    if tok.type == "INVALID":
        return None
    frames = _frames(tokens, idx)
    site = _ErrorSite(tokens, idx, tok, start, end, tokens[idx - 1] if idx > 0 else None, frozenset(accepted(err)), frames)
    kind = _frame_kind(tokens, frames[-1]) if frames else kind_hint
    expected, d = site.expected, site.d

    if site.ptype == "DOT" and "NAME" in expected:
        return d("template/invalid-attribute-name", "Invalid attribute name", "An attribute name is required after a dot.")
    if kind == "quoted":
        return _diag(tokens[frames[-1]].start_pos, end, "template/unterminated-string", "Unterminated template string",
                     "No closing quote was found for this string.")
    if kind == "for" and (found := _for_names_error(site)) is not None:
        return found
    if "NAME" in expected and "NUMBER" in expected and "QMARK" not in expected:
        if site.at_end:
            return d("template/missing-expression", "Missing expression",
                     "Expected the start of an expression, but found the end of the string.")
        return d("template/invalid-expression", "Invalid expression", f"Expected the start of an expression, but found {site.desc}.")
    if kind == "for":
        types = site.types_since_opener()
        if "COLON" in expected and types.count("COLON") == types.count("QMARK"):
            return d("template/invalid-for-expression", "Invalid 'for' expression",
                     "For expression requires a colon after the collection expression.")
    if "COLON" in expected and "QMARK" not in expected:
        # an unfinished conditional at this nesting level
        return d("template/missing-false-expression", "Missing false expression in conditional",
                 "The conditional operator (...?...:...) requires a false expression, delimited by a colon.")
    by_kind = _KIND_ERRORS.get(kind)
    if by_kind is not None:
        return by_kind(site)
    return d("template/invalid-expression", "Invalid expression", f"Unexpected {site.desc}.")


def _for_names_error(site: _ErrorSite) -> Diagnostic | None:
    """A `for` expression's names or its `in` keyword missing (checked before any other error)."""
    expected, ptype = site.expected, site.ptype
    if "NAME" in expected and ptype in ("FOR", "COMMA") and "IN" not in site.types_since_opener():
        what = "variable name after 'for'" if ptype == "FOR" else "value variable name after comma"
        return site.d("template/invalid-for-expression", "Invalid 'for' expression", f"For expression requires {what}.")
    if "IN" in expected:
        return site.d("template/invalid-for-expression", "Invalid 'for' expression",
                      "For expression requires the 'in' keyword after its name declarations.")
    return None


def _call_error(site: _ErrorSite) -> Diagnostic:
    name = site.tokens[site.frames[-1] - 1].value
    if site.ptype == "ELLIPSIS" and site.prev is not None:
        return _diag(*_span(site.prev), "template/missing-closing-parenthesis", "Missing closing parenthesis",
                     "An expanded function argument (with ...) must be immediately followed by closing parentheses.")
    if site.closing:
        return site.d("template/unterminated-call", "Unterminated function call",
                      f'Expected a comma or a closing parenthesis to end the call of "{name}", but found {site.desc}.')
    return site.d("template/missing-argument-separator", "Missing argument separator",
                  "A comma is required to separate each function argument from the next.")


def _parens_error(site: _ErrorSite) -> Diagnostic:
    return site.d("template/unbalanced-parentheses", "Unbalanced parentheses",
                  f"Expected a closing parenthesis to terminate the expression, but found {site.desc}.")


def _tuple_error(site: _ErrorSite) -> Diagnostic:
    if site.closing:
        return site.d("template/unterminated-tuple", "Unterminated tuple constructor expression",
                      f"Expected a comma or a closing bracket to end the tuple, but found {site.desc}.")
    return site.d("template/missing-item-separator", "Missing item separator",
                  "Expected a comma to mark the beginning of the next item.")


def _index_error(site: _ErrorSite) -> Diagnostic:
    if site.ptype == "STAR":
        return site.d("template/missing-close-bracket", "Missing close bracket on splat index",
                      'The star for a full splat operator must be immediately followed by a closing bracket ("]").')
    return site.d("template/missing-close-bracket", "Missing close bracket on index",
                  'The index operator must end with a closing bracket ("]").')


def _object_error(site: _ErrorSite) -> Diagnostic:
    tok = site.tok
    if site.closing:
        return site.d("template/unterminated-object", "Unterminated object constructor expression",
                      f"Expected a closing brace to end the object, but found {site.desc}.")
    if "EQUALS" in site.expected:
        if tok.type in ("_NL", "COMMA"):
            return site.d("template/missing-attribute-value", "Missing attribute value",
                          'Expected an attribute value, introduced by an equals sign ("=").')
        hint = (" If you intended to give an attribute name containing periods or spaces, write the name in "
                "quotes to create a string literal." if tok.type == "NAME" else "")
        return site.d("template/missing-key-value-separator", "Missing key/value separator",
                      f'Expected an equals sign ("=") to mark the beginning of the attribute value.{hint}')
    return site.d("template/missing-attribute-separator", "Missing attribute separator",
                  "Expected a newline or comma to mark the beginning of the next attribute.")


def _for_error(site: _ErrorSite) -> Diagnostic:
    return site.d("template/invalid-for-expression", "Invalid 'for' expression",
                  "Extra characters after the end of the 'for' expression.")


def _interp_error(site: _ErrorSite) -> Diagnostic:
    if site.tok.type == "COLON":
        return site.d("template/extra-characters", "Extra characters after interpolation expression",
                      "Template interpolation doesn't expect a colon at this location. Did you intend this to be a "
                      "literal sequence to be processed as part of another language? " + _ESCAPE_HINT)
    return site.d("template/extra-characters", "Extra characters after interpolation expression",
                  f"Expected a closing brace to end the interpolation expression, but found {site.desc}. " + _ESCAPE_HINT)


def _directive_error(site: _ErrorSite) -> Diagnostic:
    tokens, tok, opener = site.tokens, site.tok, site.frames[-1]
    kw = tokens[opener + 1] if opener + 1 < len(tokens) else None
    if site.idx == opener + 1:
        if tok.type == "NAME":
            sugg = difflib.get_close_matches(tok.value, ["if", "for", "else", "endif", "endfor"], n=1)
            extra = f' Did you mean "{sugg[0]}"?' if sugg else ""
            return site.d("template/invalid-directive", "Invalid template control keyword",
                          f'"{tok.value}" is not a valid template control keyword.{extra}')
        return site.d("template/invalid-directive", "Invalid template directive",
                      'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.')
    if kw is not None and kw.type == "FOR" and "IN" not in site.types_since_opener():
        if "NAME" in site.expected:
            what = "variable name after 'for'" if site.ptype == "FOR" else "value variable name after comma"
            return site.d("template/invalid-for-directive", "Invalid 'for' directive", f"For directive requires {what}.")
        return site.d("template/invalid-for-directive", "Invalid 'for' directive",
                      "For directive requires 'in' keyword after names.")
    word = kw.value if kw is not None else "directive"
    return site.d("template/extra-characters", f"Extra characters in {word} marker",
                  f"Expected a closing brace to end the sequence, but found {site.desc}.")


def _base_error(site: _ErrorSite) -> Diagnostic:
    return site.d("template/extra-characters", "Extra characters after expression",
                  f"An expression was successfully parsed, but extra characters were found after it: {site.desc}.")


#: The error of each kind of open construct (`_frame_kind`), once no general check matched.
_KIND_ERRORS = {
    "call": _call_error, "parens": _parens_error, "tuple": _tuple_error, "index": _index_error,
    "object": _object_error, "for": _for_error, "interp": _interp_error, "directive": _directive_error,
    "base": _base_error,
}


# ---------------------------------------------------------------------------------------------
# fast paths

_IDENT = lx.IDENTIFIER_PATTERN
_SIMPLE_TRAV = rf"({_IDENT})((?:\.{_IDENT}|\[[0-9]+\])*)"
_SIMPLE_INTERP_RE = re.compile(r"\$\{" + _SIMPLE_TRAV + r"\}")
_SIMPLE_EXPR_RE = re.compile(_SIMPLE_TRAV)
_STEP_RE = re.compile(rf"\.({_IDENT})|\[([0-9]+)\]")
_NOT_ROOTS = frozenset(("true", "false", "null"))


def _simple_traversal(m: re.Match, g: int) -> Traversal:
    root = m.group(g)
    rs = m.start(g)
    re_ = m.end(g)
    steps: list[Step] = []
    base = m.start(g + 1)
    for sm in _STEP_RE.finditer(m.group(g + 1)):
        s, e = base + sm.start(), base + sm.end()
        if sm.group(1) is not None:
            steps.append(Attr(s, e, sm.group(1), s + 1))
        else:
            steps.append(IndexStep(s, e, Number(s + 1, e - 1, sm.group(2))))
    end = m.end(g + 1)
    return Traversal(rs, end, root, re_, tuple(steps))


def _fast_template(value: str) -> Template | None:
    if "%{" in value or "$${" in value:
        return None
    parts: list[Part] = []
    pos = 0
    for m in _SIMPLE_INTERP_RE.finditer(value):
        if m.group(1) in _NOT_ROOTS:
            return None
        if m.start() > pos:
            if "${" in value[pos:m.start()]:
                return None
            parts.append(Literal(pos, m.start(), value[pos:m.start()]))
        parts.append(Interpolation(m.start(), m.end(), _simple_traversal(m, 1), (m.start(), m.start() + 2),
                                   (m.end() - 1, m.end())))
        pos = m.end()
    if pos < len(value):
        if "${" in value[pos:]:
            return None
        parts.append(Literal(pos, len(value), value[pos:]))
    return Template(0, len(value), tuple(parts))


# ---------------------------------------------------------------------------------------------
# cached relative parses


@lru_cache(maxsize=32768)
def parse_template_relative(value: str) -> tuple[Template, tuple[Diagnostic, ...]]:
    """`parse_template` with decoded-index positions (cached by content)."""
    if "${" not in value and "%{" not in value:
        if not value:
            return Template(0, 0, ()), ()
        return Template(0, len(value), (Literal(0, len(value), value),)), ()
    fast = _fast_template(value)
    if fast is not None:
        return fast, ()
    return _slow_template(value)


def _slow_template(value: str) -> tuple[Template, tuple[Diagnostic, ...]]:
    lexed = lx.tokenize(value, "template")
    diags: list[Diagnostic] = list(lexed.diagnostics)
    res, err, sem = _run(lexed.tokens, "template")
    if err is None:
        return Template(0, len(value), res), tuple(_sorted(diags + sem))
    # recovery: parse each top-level sequence on its own
    items: list = []
    pdiags: list[Diagnostic] = []
    toks = lexed.tokens
    for kind, first, stop, closed in lexed.segments:
        seg = toks[first:stop]
        if kind == "text":
            t = seg[0]
            items.append(Literal(t.start_pos, t.end_pos, t.value))
            continue
        if not closed:
            seg = seg + [Token("TEMPLATE_CLOSE", "", len(value), None, None, None, None, len(value))]
        res, err, sem = _run(seg, "interpolation" if kind == "interp" else "directive")
        opener = seg[0]
        if err is not None:
            d = syntax_error(seg, err, len(value), kind)
            if d is not None:
                pdiags.append(d)
            last = toks[stop - 1] if stop > first else opener
            end = last.end_pos if closed else len(value)
            if kind == "interp":
                items.append(Interpolation(opener.start_pos, end, Invalid(opener.end_pos, (last.start_pos if closed else end)),
                                           _span(opener), _span(last) if closed else None,
                                           opener.value.endswith("~"), closed and last.value.startswith("~")))
            else:
                kw = seg[1] if len(seg) > 1 else None
                if kw is not None and kw.type in ("IF", "FOR", "ELSE", "ENDIF", "ENDFOR"):
                    m = Marker(opener.start_pos, end, kw.value, _span(kw), _span(opener), _span(last) if closed else None,
                               opener.value.endswith("~"), closed and last.value.startswith("~"))
                    if kw.type == "IF":
                        items.append(_IfOpen(m, Invalid(kw.end_pos, m.end)))
                    elif kw.type == "FOR":
                        items.append(_ForOpen(m, None, Name(kw.end_pos, kw.end_pos, ""), (kw.end_pos, kw.end_pos),
                                              Invalid(kw.end_pos, m.end)))
                    else:
                        items.append(m)
            continue
        pdiags.extend(sem)
        if not closed:
            pdiags.append(_diag(opener.start_pos, opener.end_pos, "template/unclosed-interpolation",
                                "Unclosed template interpolation sequence" if kind == "interp" else "Unclosed template directive sequence",
                                "There is no closing brace for this sequence before the end of the string. This might be "
                                "caused by incorrect nesting inside the given expression."))
        items.append(res)
    parts = pair_parts(items, pdiags)
    return Template(0, len(value), parts), tuple(_sorted(diags + pdiags))


def _sorted(diags: list) -> list:
    seen = set()
    out = []
    for d in sorted(diags, key=lambda d: (d.start, d.end)):
        key = (d.start, d.end, d.summary)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


@lru_cache(maxsize=16384)
def parse_expression_relative(value: str) -> tuple[object, tuple[Diagnostic, ...]]:
    """`parse_expression` with decoded-index positions (cached by content)."""
    m = _SIMPLE_EXPR_RE.fullmatch(value)
    if m is not None and m.group(1) not in _NOT_ROOTS and m.group(1) not in ("for", "in", "if"):
        return _simple_traversal(m, 1), ()
    lexed = lx.tokenize(value, "expression")
    diags = list(lexed.diagnostics)
    res, err, sem = _run(lexed.tokens, "expression")
    if err is not None:
        d = syntax_error(lexed.tokens, err, len(value), "base")
        if d is not None:
            diags.append(d)
        return Invalid(0, len(value)), tuple(_sorted(diags))
    return res, tuple(_sorted(diags + sem))


# ---------------------------------------------------------------------------------------------
# public API


def parse_template(value: str, offsets: Sequence[int]) -> TemplateResult:
    tree, diags = parse_template_relative(value)
    return TemplateResult(remap(tree, offsets), tuple(remap_diagnostic(d, offsets) for d in diags))


def template_diagnostics(value: str, offsets: Sequence[int]) -> tuple[Diagnostic, ...]:
    _, diags = parse_template_relative(value)
    return tuple(remap_diagnostic(d, offsets) for d in diags)


def parse_expression(value: str, offsets: Sequence[int]) -> ExpressionResult:
    tree, diags = parse_expression_relative(value)
    return ExpressionResult(remap(tree, offsets), tuple(remap_diagnostic(d, offsets) for d in diags))


def unwrap(template):
    """Template Interpolation Unwrapping: the expression of a template that consists of exactly one
    interpolation (`"${x}"` -> `x`), otherwise the template itself."""
    parts = getattr(template, "parts", None)
    if parts is not None and len(parts) == 1 and isinstance(parts[0], Interpolation):
        return parts[0].expr
    return template
