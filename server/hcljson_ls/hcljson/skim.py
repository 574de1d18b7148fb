"""The top-level blocks of a valid HCL JSON file, found in C without building a tree: what the
quick open (`terraform.quick`) reads.

    skim(text, schema) -> Skim | None
    skim_value(text, start) -> (value, end) | None     one block's value again (after an edit inside it)

Contract
--------
* Only for a document that is valid JSON (RFC 8259: no `NaN`/`Infinity`, no control characters
  in strings, nothing after the root) whose root is an object. Anything else, and any shape this
  module does not follow, gives None: the caller then parses and decodes as usual. None is never
  wrong; a `Skim` is exactly what the full decode (`decode.walk_file`) sees at the top level.
* Followed shapes: the root object's members are `"//"` (a comment, skipped) or block types of
  `schema`; each label level is a non-empty JSON object whose keys are the labels (never `"//"`).
  A label level written as an array, `null` or `{}`, or a type the schema does not know, gives None.
* Each `Skimmed` is one value under its last header key (the block's body, or an array of bodies):
  its type key and label keys with exact ranges (quotes included, as `model.Label`), the value's
  range `[start, end)`, and the value as Python data: JSON objects are `Pairs` (a tuple of
  `(key, value)` in document order, so repeated keys stay visible), arrays are lists.
* A JSON syntax error inside a block's value (where most errors of a large file are) does not
  give None: the blocks before it are returned, and `tail` is the broken block's header keys and
  where its value starts (`end` is the text's end: the value, then everything after it, which
  closes the enclosing levels), with `openers`, the positions of the `{` of the root and of each
  label level on its way, for a caller that analyses the rest of the text on its own.
* `skim_value` reads the JSON value at `start` exactly as `skim` reads a block's value (same
  decoder: `Pairs`, no constants, strict strings), or None where `skim` would not give it.
* Cost: the values are parsed by the C scanner of the standard `json` module; the Python loop runs
  once per member of the root and of the label levels (measured 33 ms for a 5 MB CDKTF document
  of 5,750 blocks, against 24 ms for `json.loads` of it and 160 ms for `jsonsyntax.parse`).
"""

from __future__ import annotations

import json
import json.decoder
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from .model import Label
from .schema import BodySchema

__all__ = ["Pairs", "Skim", "Skimmed", "skim", "skim_value"]

_COMMENT = "//"


#: A JSON object: the tuple of its `(key, value)` members, in document order (a value of this type is
#: always an object: the scanner makes no other tuple, and arrays are lists). A tuple rather than a
#: list subclass: the scanner's hook makes one per object, and the subclass's constructor and
#: deallocation cost ~5 ms of the 5 MB benchmark document's open (parse 21.7 -> 18.1 ms, free 4.5 ->
#: 3.5 ms, session 17).
Pairs = tuple


class _Refused(Exception):
    pass


def _no_constant(name: str) -> None:  # NaN, Infinity, -Infinity: JSON has none of them
    raise _Refused(name)


_DECODER = json.JSONDecoder(object_pairs_hook=Pairs, parse_constant=_no_constant, strict=True)
# The C scanners behind `json.loads` (documented attributes of CPython's decoder that typeshed omits).
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_STRING: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
# Whitespace at a position: the pattern matches the empty string, so the match is never None.
_WS_MATCH = cast(Callable[[str, int], "re.Match[str]"], re.compile(r"[ \t\n\r]*").match)


class Skimmed(NamedTuple):
    """One value under its last header key (see the module doc). A named tuple: one is made per
    block, and a frozen dataclass's constructor costs three times as much (0.8 us against 0.26)."""

    type_name: str
    type_start: int
    type_end: int
    labels: tuple[Label, ...]
    start: int
    end: int
    value: object


@dataclass(frozen=True, slots=True)
class Skim:
    """The blocks in document order, and the root object's range; after a syntax error, the blocks
    before it and `tail` (see the module doc; `root_end` is then the text's length)."""

    blocks: tuple[Skimmed, ...]
    root_start: int
    root_end: int
    tail: Skimmed | None = None
    openers: tuple[int, ...] = ()


class _Broken(Exception):
    """A syntax error inside the value of `block` (`value` None, `end` the text's end)."""

    def __init__(self, block: Skimmed, openers: tuple[int, ...]) -> None:
        self.block = block
        self.openers = openers


def skim(text: str, schema: BodySchema) -> Skim | None:
    """The top-level blocks of `text` read with `schema` (see the module doc), or None."""
    out: list[Skimmed] = []
    try:
        return _skim(text, schema, out)
    except _Broken as broken:
        return Skim(tuple(out), broken.openers[0], len(text), broken.block, broken.openers)
    except (_Refused, ValueError, IndexError, StopIteration):  # JSONDecodeError is a ValueError
        return None
    except RecursionError:  # very deep nesting: the full parser copes, the C scanner does not
        return None


def skim_value(text: str, start: int) -> tuple[Any, int] | None:
    """The value at `start` and its end, read as `skim` reads a block's value (module doc), or None."""
    try:
        return _SCAN(text, start)
    except (_Refused, ValueError, IndexError, StopIteration, RecursionError):
        return None


def _skim(text: str, schema: BodySchema, out: list[Skimmed]) -> Skim:
    ws = _WS_MATCH
    i = ws(text, 0).end()
    if text[i] != "{":
        raise _Refused("root")
    root_start = i
    i = ws(text, i + 1).end()
    blocks = schema.blocks
    first = True
    while (member := _member(text, i, first)) is not None:
        first = False
        name, ks, ke, i = member
        if name == _COMMENT:
            _, i = _SCAN(text, i)
        else:
            bs = blocks.get(name)
            if bs is None:
                raise _Refused(name)
            i = _labels(text, i, name, ks, ke, len(bs.labels), (), out, (root_start,))
        i = ws(text, i).end()
    end = i + 1
    if ws(text, end).end() != len(text):
        raise _Refused("extra")
    return Skim(tuple(out), root_start, end)


def _member(text: str, i: int, first: bool) -> tuple[str, int, int, int] | None:
    """At `i`, the start of an object's next member (after a comma unless `first`) or its closing
    brace: the member's key, the key's range and where its value starts; None at the brace.

    A key without escapes or control characters is read with its comma and colon by one match
    (`_FIRST_KEY`, `_NEXT_KEY`): this runs once per block, and three whitespace matches and
    `scanstring` were ~1 us of the skim's ~2.6 us of Python a block (5 MB: 44 ms in all, 27 ms of
    it the values' C scanning; session 20)."""
    m = (_FIRST_KEY if first else _NEXT_KEY)(text, i)
    if m is not None:
        return m.group(1), m.start(1) - 1, m.end(1) + 1, m.end()
    ws = _WS_MATCH
    c = text[i]
    if c == "}":
        return None
    if not first:
        if c != ",":
            raise _Refused(",")
        i = ws(text, i + 1).end()
        c = text[i]
    if c != '"':
        raise _Refused("key")
    key, end = _STRING(text, i + 1, True)
    after = ws(text, end).end()
    if text[after] != ":":
        raise _Refused(":")
    return key, i, end, ws(text, after + 1).end()


def _labels(text: str, i: int, type_name: str, ts: int, te: int, levels: int, labels: tuple[Label, ...],
            out: list[Skimmed], openers: tuple[int, ...]) -> int:
    """Read the value at `i` under `labels` with `levels` label levels to go; returns its end."""
    if not levels:
        try:
            value, end = _SCAN(text, i)
        except json.JSONDecodeError:
            raise _Broken(Skimmed(type_name, ts, te, labels, i, len(text), None), openers) from None
        out.append(Skimmed(type_name, ts, te, labels, i, end, value))
        return end
    ws = _WS_MATCH
    if text[i] != "{":
        raise _Refused("label level")
    openers = (*openers, i)
    i = ws(text, i + 1).end()
    if text[i] == "}":
        raise _Refused("empty label level")
    first = True
    while (member := _member(text, i, first)) is not None:
        first = False
        label, ls, le, i = member
        if label == _COMMENT:
            raise _Refused("comment label")
        i = _labels(text, i, type_name, ts, te, levels - 1, labels + (Label(label, ls, le),), out, openers)
        i = ws(text, i).end()
    return i + 1


#: A member's key (no escape, no control character: as `scanstring` reads it strictly, its text),
#: its colon and the whitespace to its value, at a member's start; `_NEXT_KEY` after its comma.
_FIRST_KEY = cast(Callable[[str, int], "re.Match[str] | None"],
                  re.compile(r'"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*').match)
_NEXT_KEY = cast(Callable[[str, int], "re.Match[str] | None"],
                 re.compile(r',[ \t\n\r]*"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*').match)
