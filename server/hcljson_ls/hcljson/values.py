"""Small helpers over JSON nodes shared by the hcljson modules: key text, kind phrases.

`key_text(text, node, abs_start)` is the decoded name of a property key (a `String` node, or a
`Bare` word as written, for recovery) or None when the node cannot name anything.

The literal-string mode (`schema.LITERAL_STRING`), written once for the decoder (on the tree) and
for the quick open (on the C scanner's values):

    LITERAL_STRING_KINDS                 the kinds such an argument takes without a diagnostic
    has_template_sequence(value) -> bool a string read literally that the decoder warns about

A value of another kind is `structure/value-type`; a string whose decoded value holds `${` or
`%{` is `structure/template-in-literal` (`decode.check_expression`, which places it).

Where HCL says a JSON block is defined (`hcl.Block.DefRange` of hashicorp/hcl's `json` package,
the range Terraform reports a duplicate declaration at):

    definition_range(text, key_end) -> (start, end) | None
    defined_at(text, header) -> (start, end)

the opening bracket of the value under the block's last header key (its last label, else its type
key), which ends at `key_end`: the `{` of a body written as an object, the `[` of an array of
bodies (every block of the array shares it). None when the text there is no `:` then `{` or `[`
(mid-edit); `defined_at` then keeps the key (`header`, its range).

Where HCL says a JSON attribute is (`hcl.Attribute.Range`: from its name to the end of its value,
the range Terraform reports a duplicate local value at):

    value_end(text, key_end) -> int | None

the end of the one JSON value after the key ending at `key_end`, or None when the text there is
no `:` then one whole JSON value (mid-edit, a syntax error inside it).
"""

from __future__ import annotations

import json
import re
from typing import cast

from ..jsonsyntax import strings
from ..jsonsyntax.tree import ARRAY, BARE, ERROR, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE, Bare, Node, String

#: The JSON kinds a literal-string argument takes: a string (read literally), null (absent), and
#: a number or a boolean, which HCL converts to the string it spells (`"description": 12` is "12").
LITERAL_STRING_KINDS = frozenset({STRING, NULL, NUMBER, TRUE, FALSE})


def has_template_sequence(value: str) -> bool:
    """Whether string `value` (decoded), read literally, holds a template sequence (`${` or `%{`,
    `$${` included): Terraform keeps it as written, the decoder warns."""
    return "${" in value or "%{" in value


_PHRASE = {
    OBJECT: "a JSON object",
    ARRAY: "a JSON array",
    STRING: "a JSON string",
    NUMBER: "a JSON number",
    TRUE: "a JSON boolean",
    FALSE: "a JSON boolean",
    NULL: "null",
    BARE: "an unquoted word",
    ERROR: "an invalid value",
}


def kind_phrase(node: Node) -> str:
    """`a JSON object`, `a JSON number`, `null` ... for messages."""
    return _PHRASE.get(node.kind, "a value")


def kind_phrase_of(kind: str) -> str:
    """`kind_phrase` of a value of `jsonsyntax.tree` kind `kind` (as `hcljson.view` gives it)."""
    return _PHRASE.get(kind, "a value")


def key_text(text: str, node: Node | None, abs_start: int) -> str | None:
    """The decoded name given by key `node` whose absolute start is `abs_start`."""
    if isinstance(node, String):
        if node.escaped:
            return strings.decode(text, abs_start, node).value
        return text[abs_start + 1 : abs_start + (node.end - node.start) - (1 if node.terminated else 0)]
    if isinstance(node, Bare):
        return text[abs_start : abs_start + node.end - node.start]
    return None


def string_text(text: str, node: Node, abs_start: int) -> str:
    """The decoded value of string `node` whose absolute start is `abs_start`. Callers pass a node
    whose `kind` is STRING (they test the kind, which the checker does not take for the class)."""
    s = cast(String, node)
    if s.escaped:
        return strings.decode(text, abs_start, s).value
    return text[abs_start + 1 : abs_start + (s.end - s.start) - (1 if s.terminated else 0)]


_CONTROL = re.compile("[\x00-\x1f]")


def quoted(name: str) -> str:
    """`name` in double quotes for messages (escaping quotes and control characters)."""
    out = name.replace("\\", "\\\\").replace('"', '\\"')
    if not out.isprintable() and _CONTROL.search(out) is not None:  # isprintable: C, the common case
        out = "".join(c if ord(c) >= 32 else f"\\u{ord(c):04x}" for c in out)
    return f'"{out}"'


_JSON_SPACE = " \t\n\r"


def definition_range(text, key_end: int) -> tuple[int, int] | None:
    """The `{` or `[` opening the value of the key ending at `key_end` (see the module doc).
    `text` is a `str` or anything indexed like one (`text.TextBuffer`)."""
    i = _value_start(text, key_end)
    if i is not None and i < len(text) and text[i] in "{[":
        return (i, i + 1)
    return None


def defined_at(text, header: tuple[int, int]) -> tuple[int, int]:
    """Where a block whose last header key is at `header` is defined (`definition_range` after it),
    else that key."""
    return definition_range(text, header[1]) or header


def _value_start(text, key_end: int) -> int | None:
    """Where the value after the key ending at `key_end` starts (past the `:` and the space around
    it: perhaps the end of the text), or None when no `:` follows the key."""
    n = len(text)
    i = key_end
    while i < n and text[i] in _JSON_SPACE:
        i += 1
    if i >= n or text[i] != ":":
        return None
    i += 1
    while i < n and text[i] in _JSON_SPACE:
        i += 1
    return i


_DECODER = json.JSONDecoder()
#: The first stretch of text `value_end` decodes; a value longer than that is decoded again from a
#: stretch four times longer, so a value costs a constant factor of its length.
_FIRST_STRETCH = 256
#: How near a stretch's end an error may come from the cut: a `\\uXXXX\\uXXXX` pair, a literal.
_CUT = 16


def value_end(text, key_end: int) -> int | None:
    """The end of the JSON value after the key ending at `key_end` (see the module doc). `text` is a
    `str` or anything sliced like one (`text.TextBuffer`): only the stretch up to the value's end
    (and the first error in it) is read, so a broken value costs no more than a whole one."""
    i = _value_start(text, key_end)
    n = len(text)
    if i is None or i >= n:
        return None
    size = _FIRST_STRETCH
    while True:
        stretch = text[i : i + size]
        whole = i + size >= n  # (the stretch reaches the end of the text)
        try:
            _, end = _DECODER.raw_decode(stretch)
        except RecursionError:  # (nested deeper than Python's decoder goes: no range of it)
            return None
        except json.JSONDecodeError as error:
            # Cut short by the stretch (a string or a container open at its end, an escape, a
            # number or a literal cut) is read again from a longer one; an error before its last
            # characters is the value's own.
            if whole or (error.pos < len(stretch) - _CUT and not error.msg.startswith("Unterminated string")):
                return None
        else:
            if end < len(stretch) or whole:  # (a number or literal at the stretch's end may go on)
                return i + end
        size *= 4
