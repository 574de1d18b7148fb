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

the opening bracket of the value under the block's last header key (its last label, else its type
key), which ends at `key_end`: the `{` of a body written as an object, the `[` of an array of
bodies (every block of the array shares it). None when the text there is no `:` then `{` or `[`
(mid-edit); the caller then keeps the key.
"""

from __future__ import annotations

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
    n = len(text)
    i = key_end
    while i < n and text[i] in _JSON_SPACE:
        i += 1
    if i >= n or text[i] != ":":
        return None
    i += 1
    while i < n and text[i] in _JSON_SPACE:
        i += 1
    if i < n and text[i] in "{[":
        return (i, i + 1)
    return None
