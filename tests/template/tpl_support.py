"""Test support for the template layer: JSON string fixtures with range markers.

A fixture is the *source text* of one JSON string literal's content (what sits between the quotes
in a `.tf.json` file, escapes and all) with markers:

* `⟦` ... `⟧` — an expected range (several allowed, in order);
* `$0` — the cursor.

`doc(src)` embeds the content in a small document (`{"locals": {"x": "<content>"}}`, so every
offset is non-trivially shifted), decodes the string with the project's JSON string decoder and
returns a `Fixture` with the document text, the decoded value and offsets, the marked ranges and
the cursor, all as absolute document offsets.
"""

from __future__ import annotations

from dataclasses import dataclass

from hcljson_ls.jsonsyntax.strings import decode
from hcljson_ls.jsonsyntax.tree import make_string

PREFIX = '{"locals": {"x": "'
SUFFIX = '"}}'
OPEN, CLOSE, CURSOR = "⟦", "⟧", "$0"


@dataclass
class Fixture:
    text: str
    value: str
    offsets: object
    ranges: list
    cursor: int | None
    content_start: int
    content_end: int

    def slice(self, start: int, end: int) -> str:
        return self.text[start:end]


def doc(src: str) -> Fixture:
    ranges: list[tuple[int, int]] = []
    stack: list[int] = []
    out: list[str] = []
    cursor = None
    i = 0
    pos = len(PREFIX)
    while i < len(src):
        if src.startswith(OPEN, i):
            stack.append(pos)
            i += 1
        elif src.startswith(CLOSE, i):
            ranges.append((stack.pop(), pos))
            i += 1
        elif src.startswith(CURSOR, i):
            cursor = pos
            i += 2
        else:
            out.append(src[i])
            pos += 1
            i += 1
    assert not stack, "unbalanced range markers"
    content = "".join(out)
    text = PREFIX + content + SUFFIX
    start = len(PREFIX) - 1  # the opening quote
    node = make_string(start, start + len(content) + 2, '"', True, "\\" in content)
    dec = decode(text, start, node)
    ranges.sort()
    return Fixture(text, dec.value, dec.offsets, ranges, cursor, len(PREFIX), len(PREFIX) + len(content))
