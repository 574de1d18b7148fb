"""Local values that `terraform validate` knows: JSON literals, and locals that are one reference.

    LOCAL_VALUE                                  the fact's kind: ("local-value", name, JSON shape)
    LOCAL_REFERENCE                              ("local-reference", name, root, names): `"${var.x}"`
    LOCAL_VALUE_USED                             (LOCAL_VALUE_USED, name): what a reader's `uses` holds
    local_value_fact(attribute, text) -> tuple | None     one `locals` attribute's fact
    local_value(name, own, scope) -> Val | (root, names) | None   what is known of `local.NAME`

`terraform validate` evaluates local values, so a local written as a literal is a known value
there: `{"locals": {"names": ["a", "b"]}}` makes `"for_each": "${local.names}"` a tuple (an error)
and `"${upper(local.names)}"` an invalid function argument. A `locals` attribute whose value is a
JSON literal (at most `_LIMIT` characters) states a fact with its shape as compact JSON: the value,
each string that is no number replaced by `_WORD` (read back as an unknown string), each template
string inside an array or object by `_TEMPLATE` (read back as an unknown value of unknown type:
`{"region": "${var.region}"}` is an object with a `region` attribute, whatever it holds). An
object key holding a template sequence leaves the attribute names unknown: no fact. So typing in
a local's text changes no fact (no
declaration changes: an edit there stays as cheap as before), and the rules still see every
structure, number and numeric string; they miss only what a word's letters would decide (`"count":
"${local.word}"`). A local that is exactly one reference to a variable or another local
(`"names": "${var.names}"`, attribute steps only) states that reference, which the reader follows:
`validate` gives the local the value (or the type) of what it names. Any other local is an
unknown value of unknown type here.

`local_value` reads the facts of this file (`own`) and of the module's other files (`scope`): the
value is known when the module declares the local once and that declaration has a fact. A reader
adds `(LOCAL_VALUE_USED, name)` to its `uses`; `resolve.affected` maps a changed fact to it.
"""

from __future__ import annotations

import json
from typing import Any

from ...hcljson.model import Attribute
from ...hcljson.values import string_text
from ...jsonsyntax.tree import STRING
from ...template.nodes import Attr
from ..expressions.evaluate import DYNAMIC, Val
from ..expressions.repetition import whole_reference
from ..expressions.values import LITERAL_WORD
from ..filekinds.tfvars import is_number_string

__all__ = ["LOCAL_REFERENCE", "LOCAL_VALUE", "LOCAL_VALUE_USED", "literal_val", "local_value", "local_value_fact"]

LOCAL_VALUE = "local-value"
LOCAL_REFERENCE = "local-reference"
LOCAL_VALUE_USED = "local-value-of"
#: The kinds of facts about a local's value.
_KINDS = (LOCAL_VALUE, LOCAL_REFERENCE)
#: The longest literal kept as a fact (its JSON text, compact).
_LIMIT = 4096


def local_value_fact(attribute: Attribute, text: str) -> tuple | None:
    """`(LOCAL_VALUE, name, compact JSON shape)` of a `locals` attribute whose value is a JSON
    literal: a string without a template sequence, or an array or object whose keys have none;
    `(LOCAL_REFERENCE, name, root, names)` of one that is a
    string of exactly one reference to a variable or a local (`"${var.names}"`, `"${local.o.ids}"`:
    attribute steps only); else None."""
    expr = attribute.expr
    if expr is None or expr.end - expr.start > _LIMIT:
        return None
    raw = text[expr.start : expr.end]
    if expr.kind == STRING and "{" in raw and ("${" in raw or "%{" in raw or "\\u" in raw):
        named = whole_reference(string_text(text, expr.node, expr.start))
        if named is None or any(type(s) is not Attr for s in named[2]):
            return None
        return (LOCAL_REFERENCE, attribute.name, named[0], (named[1], *(s.name for s in named[2])))
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if _has_template(value) if type(value) is str else _template_key(value):
        return None
    return (LOCAL_VALUE, attribute.name, json.dumps(_shape(value), separators=(",", ":"), ensure_ascii=False))


#: What a string that is no number is in a fact (a NUL: no number either, so read back the same).
_WORD = "\u0000"
#: What a template string inside a structure is in a fact: an unknown value of unknown type.
_TEMPLATE = "\u0001"


def _shape(value: Any) -> Any:
    """`value` with every template string replaced by `_TEMPLATE`, and every other string that is
    no number (`is_number_string`) by `_WORD`."""
    if type(value) is str:
        if "${" in value or "%{" in value:
            return _TEMPLATE
        return value if is_number_string(value) else _WORD
    if type(value) is list:
        return [_shape(v) for v in value]
    if type(value) is dict:
        return {k: _shape(v) for k, v in value.items()}
    return value


def _has_template(value: str) -> bool:
    return "${" in value or "%{" in value


def _template_key(value: Any) -> bool:
    """Whether an object inside `value` has a key holding a template sequence (its attribute names
    are then not known)."""
    if type(value) is list:
        return any(_template_key(v) for v in value)
    if type(value) is dict:
        return any(_has_template(k) or _template_key(v) for k, v in value.items())
    return False


def literal_val(value: Any) -> Val:
    """The value of a fact's JSON literal as `terraform validate` reads it in an expression: an
    array is a tuple, an object an object, `null` a null of unknown type, `_WORD` an unknown string
    (`LITERAL_WORD`: known to Terraform, so a set of them is wholly known)."""
    if value is None:
        return Val("dynamic", None)
    if type(value) is bool:
        return Val("bool", value)
    if type(value) in (int, float):
        return Val("number", value)
    if type(value) is str:
        if value == _TEMPLATE:
            return DYNAMIC
        return LITERAL_WORD if value == _WORD else Val("string", value)
    if type(value) is list:
        items = tuple(literal_val(v) for v in value)
        return Val(["tuple", [i.type for i in items]], items)
    attrs = {k: literal_val(v) for k, v in value.items()}
    return Val(["object", {k: v.type for k, v in attrs.items()}], attrs)


def local_value(name: str, own: frozenset, scope: Any) -> Val | tuple[str, tuple[str, ...]] | None:
    """What `validate` knows of `local.NAME` when the module declares it once: the value of a
    literal, or `(root, names)` of the one reference it is (for the caller to follow); None when
    unknown, as in a module with an override file (which may set another value, and states no
    facts)."""
    if getattr(scope, "has_override_files", False):
        return None
    facts = list(_own_facts(own).get(name, ()))
    declared = 1 if ("local", name) in own else 0
    if scope is not None:
        facts.extend(k for kind in _KINDS for k in scope.keys(kind) if k[1] == name)
        declared += 1 if scope.declared(("local", name)) else 0
    if len(facts) != 1 or declared != 1:
        return None
    fact = facts[0]
    if fact[0] == LOCAL_REFERENCE:
        return fact[2], fact[3]
    return literal_val(json.loads(fact[2]))


_OWN: dict[int, tuple[frozenset, dict[str, list[tuple]]]] = {}


def _own_facts(own: frozenset) -> dict[str, list[tuple]]:
    """name -> the file's own facts about local `name`, once per `own` (one object for
    every block of an update: a scan of it per reference would be ~5 ms at 5 MB)."""
    cached = _OWN.get(id(own))
    if cached is not None and cached[0] is own:
        return cached[1]
    found: dict[str, list[tuple]] = {}
    for k in own:
        if k[0] in _KINDS:
            found.setdefault(k[1], []).append(k)
    if len(_OWN) > 64:
        _OWN.clear()
    _OWN[id(own)] = (own, found)
    return found
