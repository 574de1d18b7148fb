"""Type constraints of `variable.type` (grammar `grammars/types.lark`).

Public API
----------
`parse_type(value, offsets) -> TypeResult(tree, diagnostics)`: the decoded string `value` as a
type constraint; `offsets` as for `parse.parse_template`. `tree` is a type node (below) or
`Invalid` when the string is not a type constraint; ranges are absolute. Diagnostics have codes
`type/...` and hclsyntax's typeexpr wording ("Invalid type specification: The keyword "strin" is not
a valid type specification. Did you mean "string"?"). Errors inside an `optional(T, default)`
default expression are reported like template errors (`template/...`).

Type nodes (frozen dataclasses, `start`/`end` first, see `nodes`):
`PrimitiveType(name)` for string/number/bool/any; `CollectionType(kind, element)` for
list/set/map (`element` is None for Terraform's bare `list`/`map` shorthand); `TupleType(elements)`;
`ObjectType(attributes)` of `ObjectTypeAttribute(name, type, optional, default)`.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from lark import Lark, Token

from ..diagnostic import ERROR, Diagnostic
from . import lexer as lx
from .grammars import grammar_text, table_cache
from .nodes import Invalid, Span, String, remap
from .parse import _Builder, _frames, _run, _sorted, _TokenFeeder, accepted, describe, remap_diagnostic, syntax_error

__all__ = ["TypeResult", "parse_type", "PrimitiveType", "CollectionType", "TupleType", "ObjectType",
           "ObjectTypeAttribute", "TypeExpr"]


@dataclass(frozen=True, slots=True)
class PrimitiveType:
    start: int
    end: int
    name: str  # string | number | bool | any


@dataclass(frozen=True, slots=True)
class CollectionType:
    start: int
    end: int
    kind: str  # list | set | map
    element: TypeExpr | None
    kind_end: int


@dataclass(frozen=True, slots=True)
class TupleType:
    start: int
    end: int
    keyword_end: int
    elements: tuple[TypeExpr, ...]


@dataclass(frozen=True, slots=True)
class ObjectTypeAttribute:
    start: int
    end: int
    name: str
    name_end: int
    type: TypeExpr
    optional: bool
    default: object | None  # an expression node
    optional_span: Span | None  # the `optional` keyword


@dataclass(frozen=True, slots=True)
class ObjectType:
    start: int
    end: int
    keyword_end: int
    attributes: tuple[ObjectTypeAttribute, ...]


TypeExpr = PrimitiveType | CollectionType | TupleType | ObjectType | Invalid


@dataclass(frozen=True, slots=True)
class TypeResult:
    tree: object
    diagnostics: tuple[Diagnostic, ...]


def _diag(start, end, code, summary, detail) -> Diagnostic:
    return Diagnostic(start, end, ERROR, code, summary, detail)


_SUMMARY = "Invalid type specification"
_KEYWORDS = ["bool", "number", "string", "any", "list", "set", "map", "tuple", "object"]


class _TypeBuilder(_Builder):
    def type_constraint(self, c):
        return c[0]

    def primitive(self, c):
        t = c[0]
        return PrimitiveType(t.start_pos, t.end_pos, t.value)

    def collection(self, c):
        kw, element, cl = c[0], c[2], c[-1]
        return CollectionType(kw.start_pos, cl.end_pos, kw.value, element, kw.end_pos)

    def bare_collection(self, c):
        kw = c[0]
        return CollectionType(kw.start_pos, kw.end_pos, kw.value, None, kw.end_pos)

    def tuple_type(self, c):
        return TupleType(c[0].start_pos, c[-1].end_pos, c[0].end_pos, tuple(x for x in c if not isinstance(x, Token)))

    def object_type(self, c):
        return ObjectType(c[0].start_pos, c[-1].end_pos, c[0].end_pos, tuple(x for x in c if not isinstance(x, Token)))

    def attribute_name(self, c):
        x = c[0]
        if isinstance(x, Token):
            return (x.value, x.start_pos, x.end_pos)
        self.diags.append(_diag(x.start, x.end, "type/invalid-attribute-name", _SUMMARY,
                                "Object constructor map keys must be attribute names (write the name without quotes)."))
        name = x.value if isinstance(x, String) else ""
        return (name, x.start, x.end)

    def optional_type(self, c):
        kw, ty, cl = c[0], c[2], c[-1]
        default = next((x for x in c[3:-1] if not isinstance(x, Token)), None)
        return ("optional", ty, default, (kw.start_pos, kw.end_pos), cl.end_pos)

    def type_attribute(self, c):
        (name, ns, ne), _sep, t = c
        if isinstance(t, tuple):
            _, ty, default, span, end = t
            return ObjectTypeAttribute(ns, end, name, ne, ty, True, default, span)
        return ObjectTypeAttribute(ns, t.end, name, ne, t, False, None, None)


@cache
def _type_parser():
    builder = _TypeBuilder()
    parser = Lark(grammar_text("template.lark") + "\n" + grammar_text("types.lark"), parser="lalr",
                  lexer=_TokenFeeder, start=["type_constraint"], transformer=builder, maybe_placeholders=False,
                  cache=table_cache("types"))
    return parser, builder


_CTOR_DETAIL = {
    "list": "The list type constructor requires one argument specifying the element type.",
    "set": "The set type constructor requires one argument specifying the element type.",
    "map": "The map type constructor requires one argument specifying the element type.",
    "object": "The object type constructor requires one argument specifying the attribute types and values as a map.",
    "tuple": "The tuple type constructor requires one argument specifying the element types as a list.",
}
_TYPE_STARTS = {"TY_STRING", "TY_LIST", "TY_OBJECT"}
#: What no type specification reads as (the keyword, the constructor or the whole is wrong).
INVALID_TYPE = "type/invalid-type"


def _type_error(tokens: list, err, value_len: int) -> Diagnostic | None:
    tok = getattr(err, "token", None)
    expected = accepted(err)
    if tok is None or tok.type == "$END":
        idx, start, end = len(tokens), value_len, value_len
        ttype, tval = "$END", ""
    else:
        idx = next((k for k, t in enumerate(tokens) if t is tok), len(tokens))
        start, end, ttype, tval = tok.start_pos, tok.end_pos, tok.type, tok.value
    if ttype == "INVALID":
        return None
    prev = tokens[idx - 1] if idx > 0 else None
    ptype = prev.type if prev is not None else ""
    nxt = tokens[idx + 1] if idx + 1 < len(tokens) else None

    def d(detail, s=start, e=end):
        return _diag(s, e, INVALID_TYPE, _SUMMARY, detail)

    frames = _frames(tokens, idx)
    inner = frames[-1] if frames else None
    ctor = tokens[inner - 1] if inner is not None and inner > 0 and tokens[inner].type == "LPAR" else None
    # inside an optional(...) default value or a nested expression: template messages
    if ctor is not None and ctor.type == "TY_OPTIONAL" and expected and expected <= {"RPAR", "COMMA"}:
        return d("Optional attribute modifier expects at most two arguments: the attribute type, and a default value.")
    in_default = any(tokens[f].type == "LPAR" and f > 0 and tokens[f - 1].type == "TY_OPTIONAL"
                     and any(tokens[k].type == "COMMA" for k in range(f, idx)) for f in frames)
    if in_default:
        return syntax_error(tokens, err, value_len)

    # What the whole specification gets wrong (no keyword and no call, or a keyword alone that is no
    # type) is reported over all of it, as Terraform reports it (the expression's range).
    whole = inner is None and idx == 0
    if _TYPE_STARTS & expected:
        # a type was expected here
        if ttype == "NAME":
            if nxt is not None and nxt.type == "LPAR":
                return d(f'Keyword "{tval}" is not a valid type constructor.', *((0, value_len) if whole else (start, end)))
            sugg = difflib.get_close_matches(tval, _KEYWORDS, n=1)
            extra = f' Did you mean "{sugg[0]}"?' if sugg else ""
            return d(f'The keyword "{tval}" is not a valid type specification.{extra}',
                     *((0, value_len) if whole and nxt is None else (start, end)))
        if ttype == "TY_OPTIONAL":
            return d('Keyword "optional" is valid only as a modifier for object type attributes.')
        if inner is not None and ctor is not None and ctor.type in ("TY_LIST", "TY_SET", "TY_MAP") and ttype in ("RPAR", "$END"):
            return d(_CTOR_DETAIL[ctor.value], tokens[inner].start_pos, end)
        if inner is not None and ctor is not None and ctor.type == "TY_OPTIONAL" and ttype == "RPAR":
            return d("Optional attribute modifier requires the attribute type as its argument.", tokens[inner].start_pos, end)
        return d("A type specification is either a primitive type keyword (bool, number, string) or a complex "
                 "type constructor call, like list(string).", *((0, value_len) if whole else (start, end)))
    if prev is not None and ptype in ("TY_STRING", "TY_NUMBER", "TY_BOOL", "TY_ANY") and ttype == "LPAR":
        what = "Type constraint keyword" if ptype == "TY_ANY" else "Primitive type keyword"
        return d(f'{what} "{prev.value}" does not expect arguments.')
    if prev is not None and ptype in ("TY_SET", "TY_OBJECT", "TY_TUPLE") and "LPAR" in expected:
        return d(_CTOR_DETAIL[prev.value], prev.start_pos, prev.end_pos)
    if ctor is not None and ctor.type in ("TY_LIST", "TY_SET", "TY_MAP", "TY_OBJECT", "TY_TUPLE") and "RPAR" in expected:
        return d(_CTOR_DETAIL[ctor.value], start, end)
    if ptype == "LPAR" and prev is not None and idx >= 2 and tokens[idx - 2].type == "TY_TUPLE":
        return d("Tuple type constructor requires a list of element types.")
    if ptype == "LPAR" and prev is not None and idx >= 2 and tokens[idx - 2].type == "TY_OBJECT":
        return d("Object type constructor requires a map whose keys are attribute names and whose values are the "
                 "corresponding attribute types.")
    if ctor is not None and ctor.type == "TY_OPTIONAL":
        return d("Optional attribute modifier expects at most two arguments: the attribute type, and a default value.")
    if inner is not None and tokens[inner].type == "LBRACE":
        if "EQUALS" in expected:
            return d('Expected an equals sign ("=") after the attribute name, then the attribute type.')
        if "NAME" in expected and ttype not in ("RBRACE",):
            return d("Object type attribute names must be plain identifiers.")
        return d("Expected a newline or comma to mark the beginning of the next attribute, or a closing brace.")
    if inner is None and ttype != "$END":
        return _diag(start, end, "type/extra-characters", _SUMMARY,
                     f"Extra characters after the type specification: {describe(tok)}.")
    return d("A type specification is either a primitive type keyword (bool, number, string) or a complex "
             "type constructor call, like list(string).")


@lru_cache(maxsize=4096)
def parse_type_relative(value: str) -> tuple[object, tuple[Diagnostic, ...]]:
    """`parse_type` with decoded-index positions (cached by content)."""
    lexed = lx.tokenize(value, "type")
    diags = list(lexed.diagnostics)
    if not lexed.tokens:
        diags.append(_diag(0, len(value), "type/missing-type", _SUMMARY,
                           "A type specification is required, like string or list(string)."))
        return Invalid(0, len(value)), tuple(diags)
    res, err, sem = _run(lexed.tokens, "type_constraint", _type_parser())
    if err is not None:
        d = _type_error(lexed.tokens, err, len(value))
        if d is not None:
            diags.append(d)
        return Invalid(0, len(value)), tuple(_sorted(diags))
    return res, tuple(_sorted(diags + sem))


def parse_type(value: str, offsets: Sequence[int]) -> TypeResult:
    tree, diags = parse_type_relative(value)
    return TypeResult(remap(tree, offsets), tuple(remap_diagnostic(d, offsets) for d in diags))
