"""String decoding: the decoded value and the exact decoded-index -> source-offset map."""

import pytest

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.strings import decode


def decoded(text):
    root = parse(text, require_body=False).root
    return decode(text, root.start, root)


@pytest.mark.parametrize(
    "text,value,offsets",
    [
        ('"abc"', "abc", [1, 2, 3, 4]),
        ('"a\\"b"', 'a"b', [1, 2, 4, 5]),
        ('"a\\\\b"', "a\\b", [1, 2, 4, 5]),
        ('"a\\/b"', "a/b", [1, 2, 4, 5]),
        ('"\\u0024{x}"', "${x}", [1, 7, 8, 9, 10]),
        ('"é\\u00e9"', "éé", [1, 2, 8]),
        ('"\\ud83d\\ude00!"', "😀!", [1, 13, 14]),  # surrogate pair -> one character
        ('"\\ud83d!"', "\ud83d!", [1, 7, 8]),  # lone surrogate kept
        ('"\\q"', "\\q", [1, 2, 3]),  # invalid escape kept as written
        ('"\\n\\t"', "\n\t", [1, 3, 5]),
        ('"unterminated', "unterminated", list(range(1, 14))),
    ],
)
def test_decode(text, value, offsets):
    d = decoded(text)
    assert d.value == value
    assert list(d.offsets) == offsets


def test_offsets_of_a_string_inside_a_document_are_absolute():
    text = '{"k": "a\\"${x}"}'
    root = parse(text).root
    member = root.items[0]
    d = decode(text, root.start + member.value.start, member.value)
    assert d.value == 'a"${x}'
    i = d.value.index("$")
    assert text[d.offsets[i] : d.offsets[i + 1]] == "$"
    assert d.source_range(0, len(d.value)) == (7, 14)  # up to the closing quote
