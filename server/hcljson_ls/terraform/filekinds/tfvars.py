"""Variable definitions files (`*.tfvars.json`, `*.auto.tfvars.json`, `terraform.tfvars.json`): their
values checked against the input variables the module of their directory declares.

    is_tfvars(name) -> bool                     a variable definitions file, by name (any case)
    TFVARS_SCHEMA                               how such a file decodes: one attribute per variable
    Variable(name, type, nullable)              what the module declares of one variable
    check(text, attributes, variables) -> list[Diagnostic]
    type_of(type_text) -> type node | None      a type constraint as written, parsed (None: any)
    conversion_problem(text, node, start, type_node) -> Problem | None
    placeholder(type_text) -> str               a value of the type to start from (`""`, `0`, `[]`, ...)

Contract
--------
* A tfvars file is not part of the module's configuration: it declares nothing and holds no blocks.
  Terraform reads it as HCL JSON "just attributes" without an evaluation context, so every string
  is taken literally (no templates) and `"//"` is a comment; a name given twice is the decoder's
  `structure/duplicate-argument`.
* `check` reports, per root attribute (the decoded root body's `attributes`):
  - `tfvars/undeclared-variable` (warning, on the name) when the module declares no variable of
    that name: Terraform warns ("Value for undeclared variable") and goes on, since one file may
    serve several configurations. "Did you mean ...?" with a quick fix when a declared name is close.
  - `tfvars/wrong-type` (error, on the innermost value that does not fit) when the value cannot be
    converted to the variable's type constraint, by go-cty's conversion rules as Terraform applies
    them: numbers and bools convert to `string`; a string converts to `number` when it is a decimal
    number and to `bool` when it is "true", "false", "1" or "0"; arrays to `list`, `set` (any
    length) and `tuple` (exactly its length), element by element; objects to `map` (value by value)
    and to `object({...})` attribute by attribute: a missing attribute is an error unless it is
    `optional(...)`, extra attributes are dropped silently; `any` takes anything, but the elements
    of a `list(any)` / `set(any)` / `map(any)` must unify to one type (reported only when they
    certainly cannot: primitives mixed with arrays or objects, arrays mixed with objects, or numbers
    with bools and no string).
    `null` fits every type, except at the top of a variable declared `nullable = false`.
    A type constraint that does not parse is not checked (its own diagnostic is in the declaring file).
* Messages follow cty's wording with the path to the value (`attribute "port": a number is required`).
* Pure functions of the text, the decoded attributes and the declarations; never raises on any
  tree the JSON layer produces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...diagnostic import ERROR, WARNING, Diagnostic
from ...hcljson.model import Attribute
from ...hcljson.problems import quoted_fix, suggestion
from ...hcljson.schema import BodySchema
from ...hcljson.values import quoted, string_text
from ...jsonsyntax.tree import ARRAY, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE, Node
from ...template.nodes import Invalid
from ...template.types import CollectionType, ObjectType, PrimitiveType, TupleType, parse_type_relative
from ..definition import catalogue

__all__ = [
    "TFVARS_SCHEMA",
    "UNDECLARED_VARIABLE",
    "WRONG_TYPE",
    "Problem",
    "Variable",
    "check",
    "conversion_problem",
    "is_number_string",
    "is_tfvars",
    "placeholder",
    "type_of",
]

UNDECLARED_VARIABLE = "tfvars/undeclared-variable"
WRONG_TYPE = "tfvars/wrong-type"

#: The root of a tfvars file: every property is a variable's value (HCL "just attributes").
TFVARS_SCHEMA = BodySchema(dynamic_attributes=True, description="Values for the input variables of a module.")

_PRIMITIVES = (STRING, NUMBER, TRUE, FALSE)
_NUMBER_CHARS = frozenset("0123456789+-.eE")


def is_tfvars(name: str | None) -> bool:
    """True for a JSON variable definitions file name, path or URI (`*.tfvars.json`, any case)."""
    return bool(name) and catalogue.file_kind(name, ignore_case=True) == catalogue.TFVARS_JSON  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Variable:
    """What the module declares of one input variable: its type constraint as written ("" when it
    has none: any value) and whether it accepts null."""

    name: str
    type: str = ""
    nullable: bool = True


@dataclass(frozen=True, slots=True)
class Problem:
    """Where a value does not fit its type, and why (cty's wording, with the path to the value)."""

    start: int
    end: int
    message: str


def check(text: str, attributes: Sequence[Attribute], variables: Mapping[str, Variable]) -> list[Diagnostic]:
    """The diagnostics of a tfvars file's root `attributes` against the module's `variables`."""
    out: list[Diagnostic] = []
    for attr in attributes:
        expr = attr.expr
        if expr is None:  # a name being typed: the syntax layer says what is missing
            continue
        variable = variables.get(attr.name)
        if variable is None:
            out.append(_undeclared(attr, variables))
            continue
        if expr.node.kind == NULL and not variable.nullable:
            out.append(Diagnostic(expr.start, expr.end, ERROR, WRONG_TYPE, f"Unsuitable value for var.{attr.name}",
                                  f"var.{attr.name} is declared with nullable = false, so it cannot be set to null."))
            continue
        problem = conversion_problem(text, expr.node, expr.start, type_of(variable.type))
        if problem is not None:
            out.append(Diagnostic(problem.start, problem.end, ERROR, WRONG_TYPE, f"Unsuitable value for var.{attr.name}",
                                  f"The type of var.{attr.name} is {variable.type}: {problem.message}."))
    return out


def _undeclared(attr: Attribute, variables: Mapping[str, Variable]) -> Diagnostic:
    hint = suggestion(attr.name, variables)
    detail = (f"The module declares no variable {quoted(attr.name)}; Terraform ignores this value with a warning."
              + (f" Did you mean {quoted(hint)}?" if hint else ""))
    fixes = quoted_fix(attr.name_start, attr.name_end, hint) if hint else ()
    return Diagnostic(attr.name_start, attr.name_end, WARNING, UNDECLARED_VARIABLE,
                      f"Value for undeclared variable {quoted(attr.name)}", detail, fixes=fixes)


def type_of(type_text: str) -> object | None:
    """The parsed type constraint `type_text` (`template.types` nodes), None for any value: no type,
    or one that does not parse."""
    if not type_text.strip():
        return None
    tree, _ = parse_type_relative(type_text)
    return None if isinstance(tree, Invalid) else tree


def conversion_problem(text: str, node: Node, start: int, type_node: object | None) -> Problem | None:
    """Why the JSON value `node` (absolute start `start`) cannot convert to `type_node` (a
    `template.types` node; None: any), or None when it can (or is broken: the syntax layer says so)."""
    return _convert(text, node, start, type_node, "")


def _convert(text: str, node: Node, start: int, t: object | None, path: str) -> Problem | None:
    kind = node.kind
    if t is None or kind == NULL or (kind not in _PRIMITIVES and kind not in (ARRAY, OBJECT)):
        return None
    end = start + node.end - node.start
    if isinstance(t, PrimitiveType):
        return _primitive(text, node, start, end, t.name, path)
    if isinstance(t, CollectionType):
        element = t.element if not _is_any(t.element) else None
        wanted = OBJECT if t.kind == "map" else ARRAY
        if kind != wanted:
            return _mismatch(node, start, end, path, f"{_describe(t)} required")
        items = _items(text, node, start)
        if element is None:
            return _unify(items, start, path, "map" if t.kind == "map" else t.kind)
        return _elements(text, [(label, child, child_start, element) for label, child, child_start in items], path)
    if isinstance(t, TupleType):
        if kind != ARRAY:
            return _mismatch(node, start, end, path, "tuple required")
        items = _items(text, node, start)
        if len(items) != len(t.elements):
            return _mismatch(node, start, end, path, f"a tuple of {len(t.elements)} element{'s' if len(t.elements) != 1 else ''} "
                             f"is required, not {len(items)}")
        return _elements(text, [(*item, element) for item, element in zip(items, t.elements)], path)
    if isinstance(t, ObjectType):
        if kind != OBJECT:
            return _mismatch(node, start, end, path, "object required")
        given = {name: (child, child_start) for name, child, child_start in _members(text, node, start)}
        for attribute in t.attributes:
            found_child = given.get(attribute.name)
            if found_child is None:
                if not attribute.optional:
                    return Problem(start, start + 1, f"{path}attribute {quoted(attribute.name)} is required")
                continue
            found = _convert(text, found_child[0], found_child[1], attribute.type, f"{path}attribute {quoted(attribute.name)}: ")
            if found is not None:
                return found
        return None
    return None  # a type node this module does not know: accept


def _elements(text: str, elements: list[tuple[str, Node, int, object | None]], path: str) -> Problem | None:
    """The first problem among `(label, value, absolute start, type)` elements of a collection."""
    for label, child, child_start, element in elements:
        found = _convert(text, child, child_start, element, f"{path}element {label}: ")
        if found is not None:
            return found
    return None


def _primitive(text: str, node: Node, start: int, end: int, name: str, path: str) -> Problem | None:
    kind = node.kind
    if name == "any" or (name == "string" and kind in _PRIMITIVES):
        return None
    if name == "number":
        if kind == NUMBER:
            return None
        if kind == STRING:
            return None if _is_number(string_text(text, node, start)) else Problem(start, end, f"{path}a number is required")
    if name == "bool":
        if kind in (TRUE, FALSE):
            return None
        if kind == STRING:
            ok = string_text(text, node, start) in ("true", "false", "1", "0")
            return None if ok else Problem(start, end, f"{path}a bool is required")
    return _mismatch(node, start, end, path, f"{name} required")


def _is_number(value: str) -> bool:
    """What Go's `big.Float.Parse(value, 10)` accepts: a decimal number, an exponent, `Inf`."""
    if value.lstrip("+-") in ("Inf", "inf"):
        return True
    if not value or not set(value) <= _NUMBER_CHARS:
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True


#: `_is_number`, for the rules written over `hcljson.view` (`repetition_values`).
is_number_string = _is_number


def _mismatch(node: Node, start: int, end: int, path: str, message: str) -> Problem:
    """A value of the wrong kind: a scalar is marked whole, an array or object by its bracket."""
    return Problem(start, start + 1 if node.kind in (ARRAY, OBJECT) else end, f"{path}{message}")


def _describe(t: object | None) -> str:
    """cty's phrase for a collection type in messages: `list of string`, `map of any single type`."""
    if isinstance(t, CollectionType):
        return f"{t.kind} of {_describe(t.element) if not _is_any(t.element) else 'any single type'}"
    if isinstance(t, PrimitiveType):
        return t.name
    if isinstance(t, TupleType):
        return "tuple"
    return "object"


def _is_any(t: object | None) -> bool:
    return t is None or (isinstance(t, PrimitiveType) and t.name == "any")


def _items(text: str, node: Node, start: int) -> list[tuple[str, Node, int]]:
    """(label for messages, value, absolute start) of each element of an array (`0`) or object (`"key"`)."""
    if node.kind == OBJECT:
        return [(quoted(name), v, v_start) for name, v, v_start in _members(text, node, start)]
    return [(str(i), m.value, start + m.value.start) for i, m in enumerate(node.items) if m.value is not None]  # type: ignore[attr-defined]


def _members(text: str, node: Node, start: int) -> list[tuple[str, Node, int]]:
    """(name, value, absolute start) of each member of an object with a readable name and a value."""
    out = []
    for m in node.items:  # type: ignore[attr-defined]
        k, v = m.key, m.value
        if k is None or v is None or k.kind != STRING:
            continue
        out.append((string_text(text, k, start + k.start), v, start + v.start))
    return out


def _unify(items: list[tuple[str, Node, int]], start: int, path: str, what: str) -> Problem | None:
    """Elements of a collection of `any` must unify to one type; reported only when they certainly cannot."""
    kinds = {"bool" if child.kind in (TRUE, FALSE) else child.kind for _, child, _ in items if child.kind != NULL}
    containers = kinds & {ARRAY, OBJECT}
    primitives = kinds - containers
    if (containers and primitives) or len(containers) == 2 or primitives == {NUMBER, "bool"}:
        return Problem(start, start + 1, f"{path}all {what} elements must have the same type")
    return None


def placeholder(type_text: str) -> str:
    """A JSON value to start from for a variable of type `type_text`: `""`, `0`, `false`, `[]`, `{}`."""
    t = type_of(type_text)
    if isinstance(t, PrimitiveType):
        return {"number": "0", "bool": "false"}.get(t.name, '""')
    if isinstance(t, TupleType) or (isinstance(t, CollectionType) and t.kind != "map"):
        return "[]"
    if isinstance(t, (ObjectType, CollectionType)):
        return "{}"
    return '""'
