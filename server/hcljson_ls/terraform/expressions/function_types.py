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
Terraform 1.11.4 in tests/conformance, `types/typed-{merge,keys,values,length,lookup}-*`):

* `merge` -- each argument a map or an object ("arguments must be maps or objects, got ...");
* `keys` -- a map or an object ("must have map or object type", on the argument);
* `values` -- a map or an object ("values() requires a map as the first argument");
* `length` -- a string, a collection or a structure ("argument must be a string, a collection type,
  or a structural type": not a number or a bool);
* `lookup` -- its first argument a map or an object ("lookup() requires a map as the first
  argument", on the argument).

Nothing is said when an argument's type is not known (`dynamic`, a null): cty calls no type
function then (or, for `merge`, stops at it), so any argument of unknown type leaves the call alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from .values import Val, type_phrase

__all__ = ["type_problem"]

_MAPPINGS = frozenset({"map", "object"})
_MEASURABLE = frozenset({"string", "list", "map", "set", "tuple", "object"})


def _kind(val: Val) -> str:
    t = val.type
    return t if isinstance(t, str) else t[0]  # type: ignore[index]


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


_CHECKS = {"merge": _merge, "keys": _keys, "values": _values, "length": _length, "lookup": _lookup}


def type_problem(name: str, args: Sequence[Val]) -> tuple[int | None, str] | None:
    """What built-in function `name` (`core::` prefix allowed) says of the types of `args`: the
    argument it names (None: the call) and its words; None when it accepts them or may."""
    check = _CHECKS.get(name[6:] if name.startswith("core::") else name)
    if check is None or not args or any(val.value is None or val.type == "dynamic" for val in args):
        return None
    return check(args)
