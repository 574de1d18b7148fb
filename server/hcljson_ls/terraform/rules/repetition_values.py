"""The literal values of `count` and `for_each` of a resource, data source or module call, checked as
`terraform validate` evaluates them.

    repetition_findings(view, block_type, labels, body) -> list[Finding]   one resource/data/module body
    conflict_findings(view, block_type, labels, body) -> list[Finding]     `count` with `for_each`

The rules are written once over `hcljson.view` (body rules of `body_rules.BODY_RULES`): the full
analysis runs it on the tree, the quick open on the C scanner's values.

Contract
--------
Only values known without evaluating anything are judged: a JSON number, boolean, null, array or
object, or a string without a template sequence (`${`/`%{` anywhere in its decoded value, an
escaped `$${` included, leaves the string alone: its value is an expression's, judged elsewhere or
unknown until plan). Terraform 1.11.4 (checked with `terraform validate -json` on each variant):

* `meta-argument/invalid-count` (error, on the value): `count` null ("Invalid count argument"), a
  boolean, array or object, or a string cty cannot read as a number ("Incorrect value type"), a
  negative number or one that is not whole ("Invalid count argument"). A numeric string counts as
  its number (`"3"`, `"1e1"` are fine; `" 3"`, `"0x10"` are not numbers).
* `meta-argument/invalid-for-each` (error, on the value): `for_each` other than a JSON object: an
  array (a tuple, even empty), a string, a number, a boolean or null. A set or map comes only from
  an expression (`${toset(...)}`), which is never judged here.
* `structure/conflicting-arguments` (error, on the later of the two names, the first related): a
  block that takes both `count` and `for_each` (`catalogue.MULTI_INSTANCE_BLOCKS`) given both
  (Terraform then reads neither; nor does `repetition_findings`). Which name is later is a position:
  on values (`hcljson.view.VALUES`) that is `Unanswerable`, and the block goes to the full analysis.
* Not in override files (the merged block is what Terraform judges); never raises.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from ...diagnostic import ERROR
from ...hcljson.values import quoted
from ...hcljson.view import ABSENT, NO_VALUE, Finding, ValueView
from ...jsonsyntax.tree import ARRAY, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE
from ..definition import catalogue
from ..definition.catalogue import MULTI_INSTANCE_BLOCKS
from ..filekinds.tfvars import is_number_string

__all__ = ["CONFLICTING_ARGUMENTS", "INVALID_COUNT", "INVALID_FOR_EACH", "REPETITION_BLOCKS", "conflict_findings",
           "repetition_findings"]

CONFLICTING_ARGUMENTS = "structure/conflicting-arguments"
INVALID_COUNT = "meta-argument/invalid-count"
INVALID_FOR_EACH = "meta-argument/invalid-for-each"

#: The blocks whose literal `count`/`for_each` this module judges (Terraform evaluates them alike).
REPETITION_BLOCKS = catalogue.EVALUATED_REPETITION_BLOCKS

_TYPE_NAMES = {ARRAY: "tuple", NUMBER: "number", TRUE: "bool", FALSE: "bool", STRING: "string"}


def _is_template(value: str) -> bool:
    return "${" in value or "%{" in value


def _count(view: ValueView, v: Any) -> Finding | None:
    kind = view.kind(v)
    if kind == NULL:
        return Finding(v, ERROR, INVALID_COUNT, "Invalid count argument",
                       "The \"count\" argument is null, but it needs a whole number of instances (0 or more).")
    if kind in (TRUE, FALSE, ARRAY, OBJECT):
        return Finding(v, ERROR, INVALID_COUNT, "Incorrect value type",
                       f"The \"count\" argument needs a number, but this is {_what(kind)}.")
    if kind == STRING:
        value = view.string(v)
        if _is_template(value):
            return None
        if not is_number_string(value):
            return Finding(v, ERROR, INVALID_COUNT, "Incorrect value type",
                           f"The \"count\" argument needs a number, but {quoted(value)} is not one.")
    elif kind == NUMBER:
        value = view.number_text(v)
        if value.isdigit() and value.isascii():
            return None  # a whole number, 0 or more, as written (`count = 3`): what every file has
    else:
        return None  # broken: the syntax layer reports it
    try:
        number = Decimal(value)
    except InvalidOperation:
        return None
    if not number.is_finite() or abs(number.adjusted()) > 400:
        return None  # far beyond any count (and beyond what Decimal rounds): not judged
    if number != number.to_integral_value():
        return Finding(v, ERROR, INVALID_COUNT, "Invalid count argument",
                       f"The \"count\" argument must be a whole number, but this is {value}.")
    if number < 0:
        return Finding(v, ERROR, INVALID_COUNT, "Invalid count argument",
                       f"The \"count\" argument must be 0 or more, but this is {value}.")
    return None


def _what(kind: str) -> str:
    return {TRUE: "a boolean", FALSE: "a boolean", ARRAY: "a JSON array", OBJECT: "a JSON object"}[kind]


def _for_each(view: ValueView, v: Any) -> Finding | None:
    kind = view.kind(v)
    if kind == OBJECT:
        return None
    if kind == NULL:
        return Finding(v, ERROR, INVALID_FOR_EACH, "Invalid for_each argument",
                       "The \"for_each\" argument is null, but it needs a map or a set of strings.")
    if kind == STRING and _is_template(view.string(v)):
        return None
    name = _TYPE_NAMES.get(kind)
    what = "JSON array (a tuple)" if kind == ARRAY else name
    if name is None:
        return None  # broken: the syntax layer reports it
    hint = " To make one instance per element of a list, turn it into a set with toset()." if kind == ARRAY else ""
    return Finding(v, ERROR, INVALID_FOR_EACH, "Invalid for_each argument",
                   f"The \"for_each\" argument needs a map or a set of strings, but this value is a {what}.{hint}")


def repetition_findings(view: ValueView, block_type: str, labels: tuple[str, ...], body: Any) -> list[Finding]:
    """The findings on the literal `count` and `for_each` of a top-level body (see the module doc)."""
    if block_type not in REPETITION_BLOCKS:
        return []
    count, for_each = view.member(body, "count"), view.member(body, "for_each")
    if count is not ABSENT and for_each is not ABSENT:
        return []  # `structure/conflicting-arguments`: Terraform reads neither
    out: list[Finding] = []
    for v, check in ((count, _count), (for_each, _for_each)):
        if v is not ABSENT and v is not NO_VALUE:
            f = check(view, v)
            if f is not None:
                out.append(f)
    return out


def conflict_findings(view: ValueView, block_type: str, labels: tuple[str, ...], body: Any) -> list[Finding]:
    """`count` with `for_each` in a block that takes both (see the module doc)."""
    if block_type not in MULTI_INSTANCE_BLOCKS:
        return []
    count, for_each = view.key(body, "count"), view.key(body, "for_each")
    if count is ABSENT or for_each is ABSENT:
        return []
    first, second = (count, for_each) if view.range(count) <= view.range(for_each) else (for_each, count)
    first_name = "count" if first is count else "for_each"
    what = "A module block" if block_type == "module" else f"A {quoted(block_type)} block"
    return [Finding(
        second, ERROR, CONFLICTING_ARGUMENTS, f"Invalid combination of {quoted('count')} and {quoted('for_each')}",
        f"{what} cannot use both {quoted('count')} and {quoted('for_each')}: \"count\" makes a numbered list of "
        "instances and \"for_each\" one instance per element. Keep one of them.",
        related=((first, f"{quoted(first_name)} is set here"),),
    )]
