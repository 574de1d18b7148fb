"""The literal values of `count` and `for_each` of a resource, data source or module call, checked as
`terraform validate` evaluates them.

    repetition_findings(view, block_type, labels, body) -> list[Finding]   one resource/data/module body
    conflict_findings(view, block_type, labels, body) -> list[Finding]     `count` with `for_each`

The rules are written once over `hcljson.view` (body rules of `body_rules.BODY_RULES`): the full
analysis runs it on the tree, the quick open on the C scanner's values. What a value may be is
`expressions.repetition`'s rule, which an input variable's type meets too (`resolve`).

Contract
--------
Judged: a JSON number, boolean, null, array or object, a string without a template sequence, and a
template: exactly one interpolation (`"${-1}"`, `"${[\"a\"]}"`) has its expression's value, every
reference in it unknown; any other (`"a${1}"`, `${`/`%{` anywhere in the decoded value, an escaped
`$${` included) is a string whose value is unknown until plan (`repetition.template_value`).
Terraform 1.11.4 (checked with `terraform validate -json` on each variant):

* `meta-argument/invalid-count` (error, on the value): `count` null ("Invalid count argument"), a
  boolean, array, object, list, set, map or tuple, or a string cty cannot read as a number
  ("Incorrect value type"), a negative number or one that is not whole ("Invalid count argument").
  A numeric string counts as its number (`"3"`, `"1e1"` are fine; `" 3"`, `"0x10"` are not numbers).
* `meta-argument/invalid-for-each` (error, on the value): `for_each` other than a map or an object:
  an array or tuple (even empty), a list, a string, a number, a boolean or null. A set comes only
  from an expression (`${toset(...)}`), whose value is never known here.
* `structure/conflicting-arguments` (error, on the later of the two names, the first related): a
  block that takes both `count` and `for_each` (`catalogue.MULTI_INSTANCE_BLOCKS`) given both
  (Terraform then reads neither; nor does `repetition_findings`). Which name is later is a position:
  on values (`hcljson.view.VALUES`) that is `Unanswerable`, and the block goes to the full analysis.
* Not in override files (the merged block is what Terraform judges); never raises.
"""

from __future__ import annotations

from typing import Any

from ...diagnostic import ERROR
from ...hcljson.values import quoted
from ...hcljson.view import ABSENT, NO_VALUE, Finding, ValueView
from ...jsonsyntax.tree import ARRAY, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE
from ..definition import catalogue
from ..definition.catalogue import MULTI_INSTANCE_BLOCKS
from ..expressions.evaluate import Val
from ..expressions.repetition import INVALID_COUNT, INVALID_FOR_EACH, count_problem, for_each_problem, template_value

__all__ = ["CONFLICTING_ARGUMENTS", "INVALID_COUNT", "INVALID_FOR_EACH", "REPETITION_BLOCKS", "conflict_findings",
           "repetition_findings"]

CONFLICTING_ARGUMENTS = "structure/conflicting-arguments"

#: The blocks whose literal `count`/`for_each` this module judges (Terraform evaluates them alike).
REPETITION_BLOCKS = catalogue.EVALUATED_REPETITION_BLOCKS

#: How a JSON literal is worded in the messages (`repetition.count_problem`'s `what`).
_LITERAL_WORDS = {TRUE: "a boolean", FALSE: "a boolean", ARRAY: "a JSON array", OBJECT: "a JSON object"}
#: The value a JSON literal of each kind stands for, as far as the rules read it (its type).
_LITERAL_VALUES = {NULL: Val("dynamic", None), TRUE: Val("bool", True), FALSE: Val("bool", False),
                   ARRAY: Val(["tuple", []]), OBJECT: Val(["object", {}])}


def _value(view: ValueView, v: Any, kind: str) -> Val | None:
    """The value `count` or `for_each` member `v` (of JSON kind `kind`) stands for: a literal's, a
    template's (`repetition.template_value`), else None (not judged)."""
    if kind == STRING:
        value = view.string(v)
        if "${" in value or "%{" in value:
            return template_value(value)
        return Val("string", value)
    if kind == NUMBER:
        return Val("number", view.number_text(v))
    return _LITERAL_VALUES.get(kind)  # (None: broken, the syntax layer reports it)


def _count(view: ValueView, v: Any) -> Finding | None:
    kind = view.kind(v)
    if kind == NUMBER:
        text = view.number_text(v)
        if text.isdigit() and text.isascii():
            return None  # a whole number, 0 or more, as written (`count = 3`): what every file has
    val = _value(view, v, kind)
    problem = None if val is None else count_problem(val, _LITERAL_WORDS.get(kind))
    return None if problem is None else Finding(v, ERROR, INVALID_COUNT, *problem)


def _for_each(view: ValueView, v: Any) -> Finding | None:
    kind = view.kind(v)
    if kind == OBJECT:
        return None
    val = _value(view, v, kind)
    problem = None if val is None else for_each_problem(val, "a JSON array (a tuple)" if kind == ARRAY else None)
    return None if problem is None else Finding(v, ERROR, INVALID_FOR_EACH, *problem)


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
