"""Whether a value `terraform validate` knows converts to a type: go-cty's conversion rules, as far
as the value's type (and its known parts) decide.

    conversion_problem(val, want) -> str | None    why `val` cannot be a `want`, or None
    unify(a, b) -> type | None                       the one type two types convert to (a conditional's)

`terraform validate` evaluates each argument with every input variable an unknown value of its type
and every literal local value known, then converts the result to the type the argument takes: a
provider schema's attribute type, a module's input variable type. A conversion that cannot exist for
the value's type fails whatever the value is, so `"${var.names}"` with `names` a `list(string)` is
an error for a `string` argument. Types are cty's JSON encoding (`evaluate.Val`); `want` may mark
optional object attributes (`["object", {...}, [names]]`).

The rules (cty's `convert` package, checked against Terraform 1.11.4 in tests/conformance):

* Anything converts to `dynamic`; a value of unknown type, and null, may be anything.
* Primitives: a number or a bool converts to a string; a string to a number or a bool only when it
  reads as one ("1.5"; "true", "false", "1", "0"), so only a known string can fail; a number and a
  bool never convert to each other. A primitive never converts to a collection or structure, nor
  they to a primitive.
* A list, set or tuple converts to a list or set whose element type each element converts to; a map
  or an object to a map the same way; a tuple to a tuple of as many elements, each converting. An
  object converts to an object type that has no required attribute it lacks, each common attribute
  converting (extra ones are dropped). A map never converts to an object, nor a list or set to a
  tuple.
* Elements of type `dynamic` (`list(any)`): the elements must have one type; this says so only
  when they surely cannot: primitives with collections or structures, or numbers with bools and
  no string (a string is what a number and a bool both convert to).

The answer is in our words, with the path to the part that does not fit ("element 0: ...").

`unify` is HCL's choice of a conditional's result type (cty's `UnifyUnsafe`, as Terraform 1.11.4
applies it in the cases `types/conditional-*`): equal types are that type; `dynamic` is `dynamic`;
primitives unify to `string` when one of them is a string, a number and a bool never; collections
of one kind by their element types; objects of the same attributes attribute by attribute, of
other attributes to a map of all their types; tuples of one length element by element, of other
lengths to a list of all their elements; anything else to the one of the two the other converts to.
None: no such type ("Inconsistent conditional result types").
"""

from __future__ import annotations

from typing import Any

from ...hcljson.values import quoted
from ..filekinds.tfvars import is_number_string
from .values import UNKNOWN, Val, a_type, type_kind

__all__ = ["conversion_problem", "unify"]

_PRIMITIVES = frozenset({"string", "number", "bool"})
_SEQUENCES = frozenset({"list", "set", "tuple"})
_BOOL_STRINGS = frozenset({"true", "false", "1", "0"})
#: A collection kind wanted -> the collection kinds converted to it element by element, and the
#: structural kind converted to it part by part.
_COLLECTION_SOURCES = {"list": (("list", "set"), "tuple"), "set": (("list", "set"), "tuple"), "map": (("map",), "object")}


def conversion_problem(val: Val, want: object) -> str | None:
    """Why `val` cannot convert to type `want` (see the module doc), or None when it can or may."""
    return _problem(val.type, val.value, want)



def _mismatch(got: object, want: object) -> str:
    return f"{a_type(want)} is required, but this is {a_type(got)}"


def _problem(got: object, value: object, want: object) -> str | None:
    if want == "dynamic" or got == "dynamic" or value is None or got == want:
        return None
    wk, gk = type_kind(want), type_kind(got)
    if wk in _PRIMITIVES or gk in _PRIMITIVES:
        if wk not in _PRIMITIVES or gk not in _PRIMITIVES:
            return _mismatch(got, want)
        return _primitive(gk, value, wk)
    sources = _COLLECTION_SOURCES.get(wk)
    if sources is not None:
        collections, structural = sources
        if gk in collections:
            return _within("its elements", _problem(got[1], UNKNOWN, want[1]))  # type: ignore[index]
        if gk == structural:
            return _elements((_tuple_parts if gk == "tuple" else _object_parts)(got, value), want[1])  # type: ignore[index]
        return _mismatch(got, want)
    if wk == "tuple":
        if gk == "tuple":
            wanted = want[1]  # type: ignore[index]
            parts = _tuple_parts(got, value)
            if len(parts) != len(wanted):
                return f"a tuple of {len(wanted)} elements is required, but this has {len(parts)}"
            for (label, t, v), w in zip(parts, wanted):
                found = _within(label, _problem(t, v, w))
                if found is not None:
                    return found
            return None
        return _mismatch(got, want)
    if wk == "object":
        return _object(got, value, want) if gk == "object" else _mismatch(got, want)
    return None


def _primitive(got: str, value: object, want: str) -> str | None:
    if want == "string":
        return None  # numbers and bools convert to strings
    if got != "string":
        return _mismatch(got, want)  # a number and a bool never convert to each other
    if value is UNKNOWN or type(value) is not str:
        return None
    if want == "number":
        return None if is_number_string(value) else f"a number is required, but {quoted(value)} is not one"
    return None if value in _BOOL_STRINGS else f"a bool is required, but {quoted(value)} is not one"


def _tuple_parts(got: object, value: object) -> list[tuple[str, object, object]]:
    """(where, type, value) of each element of a tuple type (its values when known)."""
    types = got[1]  # type: ignore[index]
    if type(value) is tuple and len(value) == len(types):
        return [(f"element {i}", v.type, v.value) for i, v in enumerate(value)]
    return [(f"element {i}", t, UNKNOWN) for i, t in enumerate(types)]


def _object_parts(got: object, value: object) -> list[tuple[str, object, object]]:
    """(where, type, value) of each attribute of an object type (its values when known)."""
    types = got[1]  # type: ignore[index]
    if type(value) is dict:
        return [(f"attribute {quoted(n)}", v.type, v.value) for n, v in value.items()]
    return [(f"attribute {quoted(n)}", t, UNKNOWN) for n, t in types.items()]


def _elements(parts: list[tuple[str, object, object]], want: object) -> str | None:
    """The first element of a tuple or object that cannot be a `want`; with `want` dynamic, whether
    the elements surely have no one type (primitives beside collections or structures)."""
    if want == "dynamic":
        kinds = {type_kind(t) for _, t, v in parts if t != "dynamic" and v is not None}
        primitive = kinds & _PRIMITIVES
        if primitive and (primitive != kinds or primitive == {"number", "bool"}):
            return "all its elements must have one type"
        return None
    for label, t, v in parts:
        found = _within(label, _problem(t, v, want))
        if found is not None:
            return found
    return None


def _object(got: Any, value: object, want: Any) -> str | None:
    attrs = got[1]
    wanted = want[1]
    optional = set(want[2]) if len(want) > 2 else set()  # (cty's JSON: the optional attributes' names, third)
    missing = [n for n in wanted if n not in attrs and n not in optional]
    if missing:
        return f"attribute {quoted(missing[0])} is required"
    known = value if type(value) is dict else {}
    for name, t in wanted.items():
        if name not in attrs:
            continue
        part = known.get(name)
        found = _within(f"attribute {quoted(name)}",
                        _problem(part.type, part.value, t) if part is not None else _problem(attrs[name], UNKNOWN, t))
        if found is not None:
            return found
    return None


def _within(label: str, problem: str | None) -> str | None:
    return None if problem is None else f"{label}: {problem}"


def unify(a: Any, b: Any) -> object | None:
    """The type both `a` and `b` convert to as HCL's conditional chooses it (module doc), or None."""
    if a == b:
        return a
    if a == "dynamic" or b == "dynamic":
        return "dynamic"
    ka, kb = type_kind(a), type_kind(b)
    if ka in _PRIMITIVES and kb in _PRIMITIVES:
        return "string" if "string" in (ka, kb) else None
    if ka == kb and ka in _COLLECTION_SOURCES:
        element = unify(a[1], b[1])
        return None if element is None else [ka, element]
    if ka == kb == "object":
        if set(a[1]) == set(b[1]):
            attrs = {n: unify(t, b[1][n]) for n, t in a[1].items()}
            return None if None in attrs.values() else ["object", attrs]
        element = _unify_all([*a[1].values(), *b[1].values()])
        return None if element is None else ["map", element]
    if ka == kb == "tuple":
        if len(a[1]) == len(b[1]):
            elements = [unify(x, y) for x, y in zip(a[1], b[1])]
            return None if None in elements else ["tuple", elements]
        element = _unify_all([*a[1], *b[1]])
        return None if element is None else ["list", element]
    if conversion_problem(Val(b), a) is None:
        return a
    if conversion_problem(Val(a), b) is None:
        return b
    return None


def _unify_all(types: list) -> object | None:
    """`unify` over several types (the elements of a map or list made of two structures)."""
    out: object | None = types[0] if types else "dynamic"
    for t in types[1:]:
        out = unify(out, t)
        if out is None:
            return None
    return out
