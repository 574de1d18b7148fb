"""What `count` and `for_each` accept, judged on a value: the one statement of the rule, whether the
value is a JSON literal (`rules.repetition_values`), a template's constant expression, an input
variable of a known type or a local value written as a literal (`resolution.resolve`, through a
`RepetitionSite`).

    count_problem(val, what=None) -> (summary, detail) | None
    for_each_problem(val, what=None) -> (summary, detail) | None
    whole_expression(value) -> expression node | None   a template string that is one interpolation
    template_value(value) -> Val | None                a template string's value (references unknown)
    whole_reference(value) -> (root, name, steps) | None   when it is `var.NAME...` or `local.NAME...`
    type_phrase(type) -> str                           a cty type in words ("list of string")
    INVALID_COUNT, INVALID_FOR_EACH                    the codes of the rule's diagnostics

Terraform 1.11.4 (`terraform validate -json`, each case in tests/conformance) evaluates `count` and
`for_each` of a resource, data source and module call while validating, every input variable an
unknown value of its type constraint:

* `count`: null ("Invalid count argument"); a bool, list, set, map, object or tuple, known or not
  ("Incorrect value type": a number is required); a known string that is no number ("Incorrect value
  type"); a known number below 0 or not whole ("Invalid count argument"). An unknown number or
  string may be anything.
* `for_each`: null, and any list, tuple, string, number or bool, known or not ("Invalid for_each
  argument"). A map or object is fine; so is a set, as far as this module judges (a known set whose
  elements are not strings is an error too, but no value here is a known set).

`what` words the value for the message (a literal's "a JSON array") in place of its type's phrase.
A JSON string whose template is exactly one interpolation (`"${...}"`) has its expression's value,
unconverted; any other template is a string (unknown: `"a${1}"` is no `for_each`, and may be a `count`).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache

from ...hcljson.values import quoted
from ...template.nodes import Attr, Traversal
from ...template.parse import parse_template_relative, unwrap
from ..filekinds.tfvars import is_number_string
from .evaluate import Val, expression_value
from .values import a_type, type_kind, type_phrase, wholly_known

__all__ = ["INVALID_COUNT", "INVALID_FOR_EACH", "count_problem", "for_each_problem", "template_value", "type_phrase",
           "whole_expression", "whole_reference"]

INVALID_COUNT = "meta-argument/invalid-count"
INVALID_FOR_EACH = "meta-argument/invalid-for-each"

Problem = tuple[str, str]

_STRING = Val("string")
_NOT_COUNTS = frozenset({"bool", "list", "set", "map", "object", "tuple"})
_NOT_FOR_EACH = frozenset({"list", "tuple", "string", "number", "bool"})
_TO_SET = " To make one instance per element of a list, turn it into a set with toset()."
_TO_MAP = " To make one instance per element, turn it into a map with a `for` expression that gives each a key."



def count_problem(val: Val, what: str | None = None) -> Problem | None:
    """Why `val` cannot be a `count` (see the module doc), or None when it can or may."""
    value = val.value
    if value is None:
        return ("Invalid count argument",
                "The \"count\" argument is null, but it needs a whole number of instances (0 or more).")
    kind = type_kind(val.type)
    if kind in _NOT_COUNTS:
        return "Incorrect value type", f"The \"count\" argument needs a number, but this is {what or a_type(val.type)}."
    if not val.known or kind not in ("string", "number"):
        return None
    text = value if type(value) is str else str(value)
    if kind == "string" and not is_number_string(text):
        return "Incorrect value type", f"The \"count\" argument needs a number, but {quoted(text)} is not one."
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    if not number.is_finite() or abs(number.adjusted()) > 400:
        return None  # far beyond any count (and beyond what Decimal rounds): not judged
    if number != number.to_integral_value():
        return "Invalid count argument", f"The \"count\" argument must be a whole number, but this is {text}."
    if number < 0:
        return "Invalid count argument", f"The \"count\" argument must be 0 or more, but this is {text}."
    return None


def for_each_problem(val: Val, what: str | None = None) -> Problem | None:
    """Why `val` cannot be a `for_each` (see the module doc), or None when it can or may."""
    if val.value is None:
        return "Invalid for_each argument", "The \"for_each\" argument is null, but it needs a map or a set of strings."
    kind = type_kind(val.type)
    if kind == "set" and val.type[1] not in ("string", "dynamic") and wholly_known(val):  # type: ignore[index]
        return ("Invalid for_each set argument", "The \"for_each\" argument needs a map or a set of strings, but this "
                f"set's elements are of type {type_phrase(val.type[1])}. To make one instance per element, turn it into a map "  # type: ignore[index]
                "with a `for` expression that gives each a key.")
    if kind not in _NOT_FOR_EACH:
        return None
    hint = ""
    if kind == "list":
        hint = _TO_SET if val.type[1] in ("string", "dynamic") else _TO_MAP  # type: ignore[index]
    elif kind == "tuple":
        hint = _TO_SET if all(e == "string" for e in val.type[1]) else _TO_MAP  # type: ignore[index]
    return ("Invalid for_each argument", "The \"for_each\" argument needs a map or a set of strings, but this value is "
            f"{what or a_type(val.type)}.{hint}")


@lru_cache(maxsize=4096)
def whole_expression(value: str):
    """The expression of template string `value` (decoded) when it is exactly one interpolation
    that parses (`"${expr}"`: its value is the expression's, unconverted), else None."""
    if not value.startswith("${"):
        return None
    tree, diagnostics = parse_template_relative(value)
    expr = unwrap(tree)
    return None if diagnostics or expr is tree else expr


@lru_cache(maxsize=4096)
def template_value(value: str) -> Val | None:
    """The value of template string `value` (decoded, holding a template sequence): its expression's
    when it is one interpolation (`whole_expression`), evaluated with every reference unknown
    (`evaluate.expression_value`), else an unknown string; None when it does not parse or the
    evaluation finds an error of its own (the template checks report those)."""
    tree, diagnostics = parse_template_relative(value)
    if diagnostics:
        return None
    expr = unwrap(tree)
    return _STRING if expr is tree else expression_value(expr)


@lru_cache(maxsize=4096)
def whole_reference(value: str) -> tuple[str, str, tuple] | None:
    """`(root, name, steps after it)` when template string `value` is one interpolation of an input
    variable or a local value (`"${var.NAME...}"`, `"${local.NAME...}"`), else None."""
    expr = whole_expression(value)
    if type(expr) is not Traversal or expr.root not in _KNOWN_ROOTS or not expr.steps or type(expr.steps[0]) is not Attr:
        return None
    return expr.root, expr.steps[0].name, tuple(expr.steps[1:])


#: The references whose value (or type) `validate` knows while validating: input variables (a
#: type) and local values (a literal's value).
_KNOWN_ROOTS = frozenset({"var", "local"})
