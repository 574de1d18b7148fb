"""Argument values that are one interpolation, checked against the type the argument takes once what
`terraform validate` knows of them is known.

    ArgumentSite(start, end, value, name, expects, call="")   one argument's value: a `resolve` ref
    argument_site(start, end, value, name, expects, call="") -> ArgumentSite | None   the site, if it needs one
    expected_type(site) -> cty JSON type            what the argument takes

`terraform validate` evaluates each argument of a resource or data source (every input variable an
unknown value of its type, every literal local value known) and converts it to the attribute's type
in the provider's schema, so `"subnet_id": "${var.subnet_ids}"` with `subnet_ids` a `list(string)`
is an error ("Incorrect attribute value type") before any plan. A site is such a value: a JSON
string holding a template sequence, of a provider-defined top-level argument whose schema type is
not `dynamic` (`provider_rules.typed_arguments` finds them, on the tree and on the quick open's
values), when it is exactly one interpolation (`repetition.whole_expression`: its value is the
expression's, unconverted), or when the type is a collection or structure (any other template is a
string, which a primitive type always takes: `"sg-${var.env}"` is no set). `resolve` evaluates it
(`evaluate.typed_value`; a template that is not one interpolation is an unknown string) and judges
the conversion (`conversion.conversion_problem`), on the whole value, quotes included: Terraform's
range.

A module call's inputs are converted the same way to the child's variable types ("Invalid value
for input variable"): `call` is then the call's name (`module_calls` makes those sites, from the
tree only: the quick open analyses module calls).

`expects` is the type as compact JSON text, so that a site (and the quick open's key of one) is
hashable; `name` is the argument's, for the message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from ...template.lexer import IDENTIFIER_PATTERN
from ..expressions.repetition import whole_expression

__all__ = ["WRONG_TYPE", "ArgumentSite", "argument_site", "expected_type", "needs_site", "type_text"]

#: The code of a value that cannot convert to its argument's type (an error).
WRONG_TYPE = "schema/wrong-type"


@dataclass(frozen=True, slots=True)
class ArgumentSite:
    start: int  # the JSON string value, quotes included
    end: int
    value: str  # the string's value (decoded)
    name: str  # the argument's name
    expects: str  # its type, as compact JSON (`type_text`)
    call: str = ""  # a module call's name, for its input `name`; "" for a resource's argument

    def shifted(self, delta: int) -> ArgumentSite:
        if delta == 0:
            return self
        return ArgumentSite(self.start + delta, self.end + delta, self.value, self.name, self.expects, self.call)


def argument_site(start: int, end: int, value: str, name: str, expects: str, call: str = "") -> ArgumentSite | None:
    """The site of argument `name`'s JSON string value at `[start, end)` (quotes included), of
    decoded `value` (holding a template sequence) and type `expects`, when it needs one
    (`needs_site`); else None."""
    return ArgumentSite(start, end, value, name, expects, call) if needs_site(value, expects) else None


@lru_cache(maxsize=16384)
def needs_site(value: str, expects: str) -> bool:
    """Whether a template string `value` given to an argument of type `expects` (`type_text`) may
    fail to convert: one interpolation (its value is the expression's) unless it names something
    whose value validate does not know (`${aws_subnet.a.id}`: an unknown of any type), or any
    template when the type is no primitive (a template is a string).

    Why the tests before the parse: a generated file gives thousands of resources a distinct
    reference each (`"subnet_id": "${aws_subnet.r7.id}"`); parsing each to learn that it is one
    interpolation made the 5 MB open of bench/bench_schemas.py 1.26x -> 1.9x the open without
    schemas."""
    anything = not expects.startswith('"')
    if not value.startswith("${") or not value.endswith("}"):
        return anything
    named = _NAMED.fullmatch(value)
    if named is not None:
        return named.group(1) in _KNOWN_ROOTS
    return whole_expression(value) is not None or anything


#: A template that is one reference of names and whole-number indexes, its root captured.
_NAMED = re.compile(rf"\$\{{({IDENTIFIER_PATTERN})(?:\.{IDENTIFIER_PATTERN}|\[[0-9]+\])*\}}")
#: The roots whose values `terraform validate` knows (`resolve._known`).
_KNOWN_ROOTS = frozenset({"var", "local"})


def type_text(cty: object) -> str:
    """A cty JSON type as compact JSON text (what a site holds): remembered by the type object's
    identity (a schema's types are not changed once read), kept alive with it."""
    if type(cty) is str:
        return f'"{cty}"'
    hit = _TEXTS.get(id(cty))
    if hit is not None and hit[0] is cty:
        return hit[1]
    text = json.dumps(cty, separators=(",", ":"))
    if len(_TEXTS) >= 4096:
        _TEXTS.clear()
    _TEXTS[id(cty)] = (cty, text)
    return text


_TEXTS: dict[int, tuple[object, str]] = {}


@lru_cache(maxsize=1024)
def _parsed(text: str) -> object:
    return json.loads(text)


def expected_type(site: ArgumentSite) -> object:
    """The cty JSON type the argument of `site` takes."""
    return _parsed(site.expects)
