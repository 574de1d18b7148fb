"""Structural diagnostics of the HCL JSON layer: codes and message builders.

Every function returns a `Diagnostic` with a `structure/...` code (documented in
docs/diagnostics.md, section "HCL JSON structure diagnostics"). Messages say what was found and
what was expected; suggestions are difflib's closest match (`similar.close_match`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import NamedTuple

from ..diagnostic import ERROR, WARNING, Deferred, Diagnostic, Fix, Related
from ..jsonsyntax.tree import Node
from .similar import close_match
from .values import kind_phrase, quoted

UNKNOWN_ARGUMENT = "structure/unknown-argument"
UNKNOWN_BLOCK_TYPE = "structure/unknown-block-type"
BLOCK_TYPE = "structure/block-type"
BODY_TYPE = "structure/body-type"
BODY_ELEMENT_TYPE = "structure/body-element-type"
DYNAMIC_BODY_TYPE = "structure/dynamic-body-type"
LABEL_TYPE = "structure/label-type"
LABEL_ELEMENT_TYPE = "structure/label-element-type"
MISSING_LABEL = "structure/missing-label"
MISSING_ARGUMENT = "structure/missing-argument"
DUPLICATE_ARGUMENT = "structure/duplicate-argument"
DUPLICATE_KEY = "structure/duplicate-key"
VALUE_TYPE = "structure/value-type"
TEMPLATE_IN_LITERAL = "structure/template-in-literal"
TOO_MANY_BLOCKS = "structure/too-many-blocks"
TOO_FEW_BLOCKS = "structure/too-few-blocks"


def suggestion(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `name` most likely misspells, or None."""
    cands = [c for c in candidates if c]
    if not cands:
        return None
    lower = {c.lower(): c for c in cands}
    if name.lower() in lower:
        return lower[name.lower()]
    return close_match(name, cands, 0.7)


def quoted_fix(start: int, end: int, name: str) -> tuple[Fix, ...]:
    """The quick fix that replaces the JSON string at `[start, end)` (quotes included) by `name`."""
    return (Fix(start, end, json.dumps(name, ensure_ascii=False), f"Change to {quoted(name)}"),)


def unknown_name(start: int, end: int, name: str, candidates: list[str], where: str, blocks_only: bool, attrs_only: bool) -> Diagnostic:
    """An unknown argument or block type; its "Did you mean ...?" and quick fix are worked out when
    the diagnostic is read (`diagnostic.Deferred`): a runaway of unknown names (49,886 block types
    after a deleted `{` in 100,000 outputs) shows `diagnostics.maxPerCode` of them, and the others'
    closest names are never searched for."""
    if blocks_only:
        code, summary, what = UNKNOWN_BLOCK_TYPE, f"Unknown block type {quoted(name)}", "block type"
    elif attrs_only:
        code, summary, what = UNKNOWN_ARGUMENT, f"Unsupported argument {quoted(name)}", "argument"
    else:
        code, summary, what = UNKNOWN_ARGUMENT, f"Unknown argument or block type {quoted(name)}", "argument or block type"
    if not candidates:
        return Diagnostic(start, end, ERROR, code, summary,
                          f"There is no {what} named {quoted(name)} in {where}, which expects no properties.")
    return Deferred(start, end, ERROR, code, summary, f"There is no {what} named {quoted(name)} in {where}.",
                    (), (), _ClosestName(name, candidates, end - start))


class _ClosestName(NamedTuple):
    """The "Did you mean ...?" of an unknown name and its quick fix (replacing the `length`
    characters of the key from the diagnostic's start), worked out on first read. Equal when asked
    of equal names and candidates."""

    name: str
    candidates: list[str]
    length: int

    def __call__(self, base: int) -> tuple[str, tuple[Fix, ...]]:
        s = suggestion(self.name, self.candidates)
        if s is None:
            return "", ()
        return f" Did you mean {quoted(s)}?", quoted_fix(base, base + self.length, s)


def block_value_type(node: Node, start: int, end: int, type_name: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, BLOCK_TYPE, f"Expected {quoted(type_name)} block content",
        f"The value of a {quoted(type_name)} block must be a JSON object (one block) or an array of "
        f"objects (several blocks), but this is {kind_phrase(node)}.",
    )


def body_type(node: Node, start: int, end: int, what: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, BODY_TYPE, "Expected a block body",
        f"The body of {what} must be a JSON object (or an array of objects), but this is {kind_phrase(node)}.",
    )


def body_element_type(node: Node, start: int, end: int, what: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, BODY_ELEMENT_TYPE, "Expected an object in body array",
        f"Each element of an array holding the body of {what} must be a JSON object of arguments and "
        f"blocks, but this element is {kind_phrase(node)}.",
    )


def dynamic_body_type(node: Node, start: int, end: int, what: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, DYNAMIC_BODY_TYPE, "Expected a single JSON object",
        f"The body of {what} must be a single JSON object whose properties are the names to define, "
        f"but this is {kind_phrase(node)}.",
    )


def label_type(node: Node, start: int, end: int, type_name: str, label: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, LABEL_TYPE, f"Expected a {label} label",
        f"A {quoted(type_name)} block needs a {label}: a JSON object whose property names are the "
        f"{label} values (or an array of such objects) is expected here, but this is {kind_phrase(node)}.",
    )


def label_element_type(node: Node, start: int, end: int, type_name: str, label: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, LABEL_ELEMENT_TYPE, f"Expected an object naming a {label}",
        f"Each element of this array must be a JSON object whose property names are {quoted(type_name)} "
        f"{label} values, but this element is {kind_phrase(node)}.",
    )


def missing_label(start: int, end: int, type_name: str, label: str, kind: str) -> Diagnostic:
    found = {"null": "null", "array": "an empty array"}.get(kind, "an empty object")
    return Diagnostic(
        start, end, ERROR, MISSING_LABEL, f"Missing {label} label",
        f"A {quoted(type_name)} block needs its {label} label here: an object with a property for each "
        f"block, keyed by the {label}, but this is {found}.",
    )


def missing_argument(start: int, end: int, name: str, where: str, insert_at: int | None = None, first: bool = True) -> Diagnostic:
    """With `insert_at` (just after the body's `{`), a quick fix that adds the argument there (before
    the body's first member unless `first`)."""
    fixes: tuple[Fix, ...] = ()
    if insert_at is not None:
        text = json.dumps(name, ensure_ascii=False) + ': ""' + ("" if first else ", ")
        fixes = (Fix(insert_at, insert_at, text, f"Add missing required argument {quoted(name)}"),)
    return Diagnostic(
        start, end, ERROR, MISSING_ARGUMENT, f"Missing required argument {quoted(name)}",
        f"The argument {quoted(name)} is required in {where}, but it is not set.", (), fixes,
    )


def duplicate_argument(start: int, end: int, name: str, first: tuple[int, int]) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, DUPLICATE_ARGUMENT, f"Duplicate argument {quoted(name)}",
        f"The argument {quoted(name)} is already set earlier in this body; an argument can be set only once.",
        (Related(first[0], first[1], f"{quoted(name)} first set here"),),
    )


def duplicate_key(start: int, end: int, name: str, first: tuple[int, int]) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, DUPLICATE_KEY, f"Duplicate object attribute {quoted(name)}",
        f"This object value already has an attribute named {quoted(name)}; in an expression each "
        "property name can appear only once.",
        (Related(first[0], first[1], f"{quoted(name)} first defined here"),),
    )


def value_type(node: Node, start: int, end: int, name: str, expected: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, VALUE_TYPE, f"Expected {expected}",
        f"The argument {quoted(name)} takes {expected}, but this is {kind_phrase(node)}.",
    )


def element_type(node: Node, start: int, end: int, name: str, expected: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, VALUE_TYPE, f"Expected {expected}",
        f"Each element of {quoted(name)} must be {expected}, but this is {kind_phrase(node)}.",
    )


def property_type(node: Node, start: int, end: int, name: str, expected: str) -> Diagnostic:
    return Diagnostic(
        start, end, ERROR, VALUE_TYPE, f"Expected {expected}",
        f"Each property of {quoted(name)} must have {expected} as its value, but this is {kind_phrase(node)}.",
    )


def template_in_literal(start: int, end: int, name: str) -> Diagnostic:
    return Diagnostic(
        start, end, WARNING, TEMPLATE_IN_LITERAL, "Template sequence in a literal value",
        f"The value of {quoted(name)} is taken literally, so this template sequence is not evaluated "
        "and stays in the value as written.",
    )


def too_many_blocks(start: int, end: int, type_name: str, limit: int, where: str) -> Diagnostic:
    many = "one" if limit == 1 else str(limit)
    return Diagnostic(
        start, end, ERROR, TOO_MANY_BLOCKS, f"Too many {quoted(type_name)} blocks",
        f"At most {many} {quoted(type_name)} block{'s' if limit != 1 else ''} may appear in {where}; this one is extra.",
    )


def too_few_blocks(start: int, end: int, type_name: str, limit: int, found: int, where: str) -> Diagnostic:
    need = "a" if limit == 1 else f"at least {limit}"
    return Diagnostic(
        start, end, ERROR, TOO_FEW_BLOCKS, f"Missing {quoted(type_name)} block",
        f"{where[0].upper()}{where[1:]} needs {need} {quoted(type_name)} block{'s' if limit != 1 else ''}, "
        f"but {'none is' if found == 0 else f'only {found} are'} defined.",
    )
