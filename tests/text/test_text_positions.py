"""Data-driven offset <-> position fixtures in all three encodings.

`$0` in a fixture text marks an offset (and is removed from the text; see tests/fixture.py).
"""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.text import ENCODINGS, LineIndex


def marked(text: str) -> tuple[str, int]:
    """The text without its `$0` cursor, and the cursor's offset."""
    fixture = parse_fixture(text).only
    assert fixture.cursor is not None, text
    return fixture.text, fixture.cursor


# (marked text, utf-16 position, utf-8 position, utf-32 position)
OFFSET_TO_POSITION = [
    ("$0", (0, 0), (0, 0), (0, 0)),
    ("abc$0", (0, 3), (0, 3), (0, 3)),
    ("a😀$0b", (0, 3), (0, 5), (0, 2)),
    ("😀😀$0", (0, 4), (0, 8), (0, 2)),
    ("中文$0x", (0, 2), (0, 6), (0, 2)),
    ("é\n😀中$0", (1, 3), (1, 7), (1, 2)),
    ("e\u0301$0x", (0, 2), (0, 3), (0, 2)),  # combining acute accent is its own code point
    ("🇩🇪$0", (0, 4), (0, 8), (0, 2)),  # a flag is two astral code points
    ("a\r\n$0b", (1, 0), (1, 0), (1, 0)),
    ("a$0\r\nb", (0, 1), (0, 1), (0, 1)),
    ("a\r$0\nb", (0, 1), (0, 1), (0, 1)),  # inside a CRLF: end of the line's content
    ("a\r$0b", (1, 0), (1, 0), (1, 0)),  # lone CR ends a line
    ("a\n\r$0", (2, 0), (2, 0), (2, 0)),  # LF then CR: two line ends
    ("\r\n\r\n$0", (2, 0), (2, 0), (2, 0)),
    ("\r\r\n\n$0", (3, 0), (3, 0), (3, 0)),
    ("x\n😀\r\n中$0\ry", (2, 1), (2, 3), (2, 1)),
    ("a\u2028$0b", (0, 2), (0, 4), (0, 2)),  # LINE SEPARATOR is not an LSP line end
    ("\f\v\x85$0", (0, 3), (0, 4), (0, 3)),  # nor are form feed, vertical tab, NEL
    ("\ud800$0", (0, 1), (0, 3), (0, 1)),  # a lone surrogate: one unit, three bytes
]


@pytest.mark.parametrize("text,utf16,utf8,utf32", OFFSET_TO_POSITION)
def test_offset_to_position(text: str, utf16, utf8, utf32) -> None:
    source, at = marked(text)
    index = LineIndex(source)
    assert index.position(at) == utf16  # utf-16 is the default
    assert index.position(at, "utf-16") == utf16
    assert index.position(at, "utf-8") == utf8
    assert index.position(at, "utf-32") == utf32
    for encoding, expected in zip(("utf-16", "utf-8", "utf-32"), (utf16, utf8, utf32)):
        # The exact position of a character boundary maps back, unless it is inside a CRLF.
        if not (0 < at < len(source) and source[at - 1] == "\r" and source[at] == "\n"):
            assert index.offset(expected, encoding) == at


def test_offsets_outside_the_text_clamp() -> None:
    index = LineIndex("ab\ncd")
    for encoding in ENCODINGS:
        assert index.position(-5, encoding) == (0, 0)
        assert index.position(99, encoding) == (1, 2)


# (marked text where $0 is the expected offset, position, encodings it holds for)
ALL = ("utf-16", "utf-8", "utf-32")
POSITION_TO_OFFSET = [
    ("$0", (0, 0), ALL),
    ("$0", (0, 7), ALL),
    ("$0", (3, 7), ALL),
    ("ab$0\r\ncd", (0, 99), ALL),  # past the end of the line: before its terminator
    ("ab$0\ncd", (0, 3), ALL),
    ("a$0\r", (0, 5), ALL),
    ("a\r$0", (1, 5), ALL),  # the last line is empty after a trailing lone CR
    ("x\n$0", (1, 0), ALL),
    ("ab\ncd$0", (2, 0), ALL),  # past the last line: end of the document
    ("ab\ncd$0", (99, 99), ALL),
    ("$0ab", (-1, -1), ALL),  # negative values count as 0
    ("ab\n$0cd", (1, -3), ALL),
    ("ab$0\ncd", (-2, 2), ALL),
    ("a$0😀b", (0, 2), ("utf-16",)),  # between the halves of a surrogate pair
    ("a😀$0b", (0, 3), ("utf-16",)),
    ("a😀b$0", (0, 4), ("utf-16",)),
    ("a😀b$0", (0, 5), ("utf-16", "utf-32")),
    ("a😀b$0", (0, 6), ("utf-8",)),
    ("a$0😀b", (0, 2), ("utf-8",)),  # inside a four-byte sequence
    ("a$0😀b", (0, 3), ("utf-8",)),
    ("a$0😀b", (0, 4), ("utf-8",)),
    ("a😀$0b", (0, 5), ("utf-8",)),
    ("a😀$0b", (0, 2), ("utf-32",)),
    ("中$0文", (0, 3), ("utf-8",)),
    ("中$0文", (0, 4), ("utf-8",)),
    ("中$0文", (0, 5), ("utf-8",)),
    ("中文$0", (0, 6), ("utf-8",)),
    ("中$0文", (0, 1), ("utf-16", "utf-32")),
    ("é$0\n", (0, 2), ("utf-8",)),
    ("$0é\n", (0, 1), ("utf-8",)),
    ("e\u0301$0\r\n", (0, 2), ("utf-16", "utf-32")),
    ("e\u0301$0\r\n", (0, 3), ("utf-8",)),
    ("😀\r\n😀$0\r\n", (1, 2), ("utf-16",)),
    ("😀\r\n$0😀\r\n", (1, 1), ("utf-16",)),
    ("😀\r\n😀$0\r\n", (1, 9), ALL),
    ("\ud800$0x", (0, 1), ("utf-16", "utf-32")),
    ("\ud800$0x", (0, 3), ("utf-8",)),
]


@pytest.mark.parametrize("text,position,encodings", POSITION_TO_OFFSET)
def test_position_to_offset(text: str, position, encodings) -> None:
    source, at = marked(text)
    index = LineIndex(source)
    for encoding in encodings:
        assert index.offset(position, encoding) == at, encoding


def test_line_queries() -> None:
    source = "ab\r\ncd\ref\n"
    index = LineIndex(source)
    assert index.line_count == 4
    assert index.line_starts() == [0, 4, 7, 10]
    assert [index.line_start(n) for n in range(-1, 6)] == [0, 0, 4, 7, 10, 10, 10]
    assert [index.line_end(n) for n in range(4)] == [2, 6, 9, 10]
    assert [index.line_end(n, include_terminator=True) for n in range(4)] == [4, 7, 10, 10]
    assert [index.line_of(o) for o in range(-1, 12)] == [0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]


def test_empty_text_has_one_line() -> None:
    index = LineIndex("")
    assert index.line_count == 1
    assert index.line_starts() == [0]
    assert index.line_end(0) == 0


def test_unknown_encoding_is_a_programming_error() -> None:
    index = LineIndex("abc")
    with pytest.raises(ValueError, match="utf-7"):
        index.position(1, "utf-7")
    with pytest.raises(ValueError):
        index.offset((0, 1), "latin-1")


def test_encoding_names_are_case_insensitive_and_accept_str_enums() -> None:
    from lsprotocol.types import PositionEncodingKind

    index = LineIndex("😀x")
    assert index.position(2, PositionEncodingKind.Utf8) == (0, 5)
    assert index.position(2, "UTF-8") == (0, 5)
    assert index.offset((0, 2), PositionEncodingKind.Utf16) == 1


def test_line_starts_found_in_steps_are_those_found_at_once(monkeypatch) -> None:
    """`LineIndex.build_steps` (the server's background build after an open) finds the same line
    starts as a first query does, a slice of text at a time, and leaves an index that a query or an
    edit built meanwhile has as it is."""
    from hcljson_ls.text import line_index

    monkeypatch.setattr(line_index, "_STEP_SLICE", 7)
    text = "a\r\nbb\rccc\n\n" * 5 + "\r\nlast"
    stepped, at_once = LineIndex(text), LineIndex(text)
    steps = stepped.build_steps()
    assert sum(1 for _ in steps) > 5
    assert [stepped.line_start(n) for n in range(13)] == [at_once.line_start(n) for n in range(13)]
    assert stepped.line_count == at_once.line_count == 22
    assert list(stepped.build_steps()) == []  # built: nothing left to do

    for build_first in (False, True):  # an edit between two steps, then a query; or a query, then an edit
        edited, fresh = LineIndex(text), LineIndex("x\n" + text)
        steps = edited.build_steps()
        next(steps)
        if build_first:
            assert edited.line_count == 22
        edited.update(0, 0, "x\n")
        assert list(steps) == []  # the steps end at once: the old text's starts are not installed
        assert [edited.line_start(n) for n in range(23)] == [fresh.line_start(n) for n in range(23)]
        assert edited.line_count == 23
