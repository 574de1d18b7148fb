"""What some built-in functions check of their arguments' types beyond their declared parameter types:
the checks of their own type functions, which `terraform validate` runs on unknown values of known
types too (so `merge(var.list_of_maps)` is an error whatever the list holds).

    type_problem(name, args) -> (argument index or None, detail) | None

`args` are the evaluated arguments (`values.Val`), each already converted to its parameter's type.
The answer names the argument HCL reports the problem on ("Invalid function argument", on the
argument's start) or None for the call itself ("Error in function call", on the call's name and
`(`); the detail is the function's own words, as Terraform 1.11.4 prints them after "Invalid value
for ... parameter: " or "Call to function ... failed: ".

The checks, from go-cty's `function/stdlib` and Terraform's `lang/funcs` (checked against
Terraform 1.11.4 in tests/conformance, `types/typed-NAME-*` for each function NAME below):

* `merge` -- each argument a map or an object ("arguments must be maps or objects, got ...");
* `keys` -- a map or an object ("must have map or object type", on the argument);
* `values` -- a map or an object ("values() requires a map as the first argument");
* `length` -- a string, a collection or a structure ("argument must be a string, a collection type,
  or a structural type": not a number or a bool);
* `lookup` -- its first argument a map or an object ("lookup() requires a map as the first
  argument", on the argument);
* `element` -- a list or a tuple ("cannot read elements from ...", a known empty tuple: "cannot use
  element function with an empty list"); `zipmap`'s values a list or a tuple;
* `reverse` -- a list, a set or a tuple; `slice` -- a list or a tuple (a set: its own words); `one`
  -- a list, a set, or a tuple of at most one element (all three on the argument);
* `contains` -- a list, a set or a tuple; `flatten` -- the same; `coalescelist` -- each a list or a
  tuple: these three only on values Terraform knows (`contains` all its arguments, `flatten` all
  of its argument, `coalescelist` each argument up to the first unknown one), as cty runs them
  (`contains("abc", "a")`, not `contains(var.name, "a")`).

Nothing is said when an argument's type is not known (`dynamic`, a null): cty calls no type
function then (or, for `merge`, stops at it), so any argument of unknown type leaves the call alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from .values import LITERAL_WORD, Val, type_kind, type_phrase, wholly_known

__all__ = ["type_problem"]

_MAPPINGS = frozenset({"map", "object"})
_MEASURABLE = frozenset({"string", "list", "map", "set", "tuple", "object"})
_SEQUENCES = frozenset({"list", "tuple"})
_COLLECTIONS = _SEQUENCES | {"set"}


def _kind(val: Val) -> str:
    return type_kind(val.type)


def _merge(args: Sequence[Val]) -> tuple[int | None, str] | None:
    for val in args:
        if _kind(val) not in _MAPPINGS:
            return None, f'arguments must be maps or objects, got "{type_phrase(val.type)}"'
    return None


def _keys(args: Sequence[Val]) -> tuple[int | None, str] | None:
    return (0, "must have map or object type") if _kind(args[0]) not in _MAPPINGS else None


def _values(args: Sequence[Val]) -> tuple[int | None, str] | None:
    return (None, "values() requires a map as the first argument") if _kind(args[0]) not in _MAPPINGS else None


def _length(args: Sequence[Val]) -> tuple[int | None, str] | None:
    if _kind(args[0]) not in _MEASURABLE:
        return None, "argument must be a string, a collection type, or a structural type"
    return None


def _lookup(args: Sequence[Val]) -> tuple[int | None, str] | None:
    return (0, "lookup() requires a map as the first argument") if _kind(args[0]) not in _MAPPINGS else None


def _element(args: Sequence[Val]) -> tuple[int | None, str] | None:
    kind = _kind(args[0])
    if kind == "tuple" and not args[0].type[1] and args[1].known:  # type: ignore[index]
        return None, "cannot use element function with an empty list"
    return None if kind in _SEQUENCES else (None, f"cannot read elements from {type_phrase(args[0].type)}")


def _reverse(args: Sequence[Val]) -> tuple[int | None, str] | None:
    if _kind(args[0]) in _COLLECTIONS:
        return None
    return 0, f"can only reverse list or tuple values, not {type_phrase(args[0].type)}"


def _slice(args: Sequence[Val]) -> tuple[int | None, str] | None:
    kind = _kind(args[0])
    if kind == "set":
        return 0, ("cannot slice a set, because its elements do not have indices; explicitly convert to a list if "
                   "the ordering of the result is not important")
    return None if kind in _SEQUENCES else (0, "must be a list or tuple value")


def _zipmap(args: Sequence[Val]) -> tuple[int | None, str] | None:
    return None if _kind(args[1]) in _SEQUENCES else (None, "values argument must be a list or tuple value")


def _one(args: Sequence[Val]) -> tuple[int | None, str] | None:
    kind = _kind(args[0])
    if kind in ("list", "set") or (kind == "tuple" and len(args[0].type[1]) <= 1):  # type: ignore[index]
        return None
    return 0, "must be a list, set, or tuple value with either zero or one elements"


def _known(val: Val) -> bool:
    """Whether Terraform knows `val` (a literal's word too, whose text is not kept here)."""
    return val.known or val is LITERAL_WORD


def _contains(args: Sequence[Val]) -> tuple[int | None, str] | None:
    if not all(_known(val) for val in args) or _kind(args[0]) in _COLLECTIONS:
        return None
    return None, "argument must be list, tuple, or set"


def _flatten(args: Sequence[Val]) -> tuple[int | None, str] | None:
    if not wholly_known(args[0]) or _kind(args[0]) in _COLLECTIONS:
        return None
    return None, "can only flatten lists, sets and tuples"


def _coalescelist(args: Sequence[Val]) -> tuple[int | None, str] | None:
    for val in args:  # (in order: an unknown one leaves the rest unread)
        if not _known(val):
            return None
        if _kind(val) not in _SEQUENCES:
            return None, "coalescelist arguments must be lists or tuples"
    return None


_CHECKS = {"merge": _merge, "keys": _keys, "values": _values, "length": _length, "lookup": _lookup,
           "element": _element, "reverse": _reverse, "slice": _slice, "zipmap": _zipmap, "one": _one,
           "contains": _contains, "flatten": _flatten, "coalescelist": _coalescelist}


def type_problem(name: str, args: Sequence[Val]) -> tuple[int | None, str] | None:
    """What built-in function `name` (`core::` prefix allowed) says of the types of `args`: the
    argument it names (None: the call) and its words; None when it accepts them or may."""
    check = _CHECKS.get(name[6:] if name.startswith("core::") else name)
    if check is None or not args or any(val.value is None or val.type == "dynamic" for val in args):
        return None
    return check(args)
