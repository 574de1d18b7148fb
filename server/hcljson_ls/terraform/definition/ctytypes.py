"""cty types in their JSON encoding, rendered in HCL's type constraint syntax.

    render_type(t) -> str        `["map", ["list", "string"]]` -> `map(list(string))`
    is_type(t) -> bool           whether `t` is a well-formed cty JSON type

The JSON encoding is the one of `terraform metadata functions -json` and `terraform providers schema
-json` (go-cty's `ctyjson.MarshalType`): `"string"`, `"number"`, `"bool"`, `"dynamic"`,
`["list", T]`, `["set", T]`, `["map", T]`, `["tuple", [T, ...]]`, `["object", {NAME: T, ...}]` and
`["object", {NAME: T, ...}, [OPTIONAL_NAME, ...]]` (an object type with optional attributes).

Contract
--------
* One rendering everywhere (hover, signature help, completion details, diagnostics): the syntax a
  user writes in `variable.type`. The dynamic pseudo-type is `any`; tuples are `tuple([A, B])`;
  objects `object({name = string, port = optional(number)})`, attributes in the given order (cty's
  own encoding sorts them), separated by `, `. An attribute name that is not an HCL identifier is
  written as a JSON string (`"a b" = string`), so the text stays unambiguous.
* `render_type` raises `ValueError` for anything that is not a well-formed cty JSON type; check
  untrusted input (a provider schema read from disk) with `is_type` first, or catch the error.
* Pure functions of plain JSON values; imports only the catalogue (what an identifier is).
"""

from __future__ import annotations

import json

from .catalogue import IDENTIFIER

__all__ = ["render_type", "is_type", "PRIMITIVES", "DYNAMIC"]

#: The JSON names of the primitive types (rendered unchanged).
PRIMITIVES = frozenset({"string", "number", "bool"})
#: The JSON name of the dynamic pseudo-type (rendered `any`).
DYNAMIC = "dynamic"

_COLLECTIONS = frozenset({"list", "set", "map"})


def render_type(t: object) -> str:
    """`t` (a cty JSON type) in HCL type constraint syntax; `ValueError` if it is malformed."""
    if isinstance(t, str):
        if t in PRIMITIVES:
            return t
        if t == DYNAMIC:
            return "any"
        raise ValueError(f"not a cty type: {t!r}")
    if isinstance(t, list) and t and isinstance(t[0], str):
        kind = t[0]
        if kind in _COLLECTIONS and len(t) == 2:
            return f"{kind}({render_type(t[1])})"
        if kind == "tuple" and len(t) == 2 and isinstance(t[1], list):
            return "tuple([" + ", ".join(render_type(e) for e in t[1]) + "])"
        if kind == "object" and len(t) in (2, 3) and isinstance(t[1], dict):
            optional = t[2] if len(t) == 3 else []
            if not isinstance(optional, list) or not all(isinstance(n, str) and n in t[1] for n in optional):
                raise ValueError(f"not a cty type: {t!r} (bad optional attribute list)")
            attributes = []
            for name, attribute_type in t[1].items():
                rendered = render_type(attribute_type)
                if name in optional:
                    rendered = f"optional({rendered})"
                key = name if name.isascii() and IDENTIFIER.match(name) else json.dumps(name, ensure_ascii=False)
                attributes.append(f"{key} = {rendered}")
            return "object({" + ", ".join(attributes) + "})"
    raise ValueError(f"not a cty type: {t!r}")


def is_type(t: object) -> bool:
    """True when `t` is a well-formed cty JSON type (`render_type` accepts it)."""
    try:
        render_type(t)
    except (ValueError, RecursionError):
        return False
    return True
