"""Test support for the template layer: JSON string fixtures with range markers.

A fixture is the *source text* of one JSON string literal's content (what sits between the quotes
in a `.tf.json` file, escapes and all) with the markers of tests/fixture.py:

* `⟨` ... `⟩` — an expected range (several allowed, in order);
* `$0` — the cursor.

`doc(src)` embeds the content in a small document (`{"locals": {"x": "<content>"}}`, so every
offset is non-trivially shifted), decodes the string with the project's JSON string decoder and
returns a `Fixture` with the document text, the decoded value and offsets, the marked ranges and
the cursor, all as absolute document offsets.
"""

from __future__ import annotations

from dataclasses import dataclass

from fixture import parse_fixture

from hcljson_ls.jsonsyntax.strings import decode
from hcljson_ls.jsonsyntax.tree import make_string

PREFIX = '{"locals": {"x": "'
SUFFIX = '"}}'


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
    marked = parse_fixture(src).only
    content, shift = marked.text, len(PREFIX)
    text = PREFIX + content + SUFFIX
    start = shift - 1  # the opening quote
    node = make_string(start, start + len(content) + 2, '"', True, "\\" in content)
    dec = decode(text, start, node)
    ranges = [(s + shift, e + shift) for s, e in marked.ranges]
    cursor = None if marked.cursor is None else marked.cursor + shift
    return Fixture(text, dec.value, dec.offsets, ranges, cursor, shift, shift + len(content))
