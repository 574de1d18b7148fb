"""The values static evaluation works with: a cty type in its JSON encoding, and a known value or not.

    Val(type, value=UNKNOWN)     a cty-like value (see `evaluate`'s module doc for the encoding)
    UNKNOWN                      the value of a `Val` that is not known
    DYNAMIC                      an unknown value of unknown type (the answer when unsure)
    LITERAL_WORD                 a string written as a literal whose text is not kept (a local's word)
    type_kind(type) -> str       its kind: "string", "dynamic", "list", "object", ...
    type_phrase(type) -> str     a cty type in words, as Terraform names it ("list of string")
    a_type(type) -> str          the same with its article ("a list of string", "an object")

The one home of these for `evaluate` (which computes them), `conversion` (which converts them) and
the rules that word them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DYNAMIC", "LITERAL_WORD", "UNKNOWN", "Val", "a_type", "type_kind", "type_phrase", "wholly_known"]


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


@dataclass(frozen=True, slots=True)
class Val:
    type: object
    value: object = UNKNOWN

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN


DYNAMIC = Val("dynamic")
#: A string of a literal whose text is not kept (`local_values` blanks the words of a local's value):
#: an unknown string to every rule, but known for `wholly_known` (Terraform knows it). One
#: object, told apart by identity.
LITERAL_WORD = Val("string")


def type_kind(t: object) -> str:
    """The kind of a cty type: a primitive's or `dynamic`'s name, else its first element
    (`"list"`, `"object"`, ...)."""
    return t if isinstance(t, str) else t[0]  # type: ignore[index]


def type_phrase(t: object) -> str:
    """A cty type in words, as Terraform names it: "list of string", "map of object", "tuple"."""
    kind = type_kind(t)
    if kind in ("list", "set", "map"):
        return f"{kind} of {type_phrase(t[1])}"  # type: ignore[index]
    return "any value" if kind == "dynamic" else kind


def a_type(t: object) -> str:
    """`type_phrase` with its article: "a list of string", "an object"."""
    phrase = type_phrase(t)
    return ("an " if phrase[:1] in "aeiou" else "a ") + phrase


def wholly_known(val: Val) -> bool:
    """Whether `val` and every element or attribute in it is known and not null (a literal's word,
    `LITERAL_WORD`, is known to Terraform though its text is not kept here)."""
    if val is LITERAL_WORD:
        return True
    v = val.value
    if v is UNKNOWN or v is None:
        return False
    if type(v) is tuple:
        return all(wholly_known(x) for x in v)
    if type(v) is dict:
        return all(wholly_known(x) for x in v.values())
    return True
