"""Document: change shapes, versions, clamping, encoding negotiation, and a 5 MB edit."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from lsprotocol import types
from text_reference import line_starts as ref_line_starts

from hcljson_ls.text import ENCODINGS, Document, Edit, LineIndex, check_encoding, negotiate_encoding


def test_document_holds_what_it_was_given() -> None:
    document = Document("file:///a%20b/main.tf.json", "{}\n", 3, "terraform-json")
    assert (document.uri, document.text, document.version, document.language_id) == (
        "file:///a%20b/main.tf.json",
        "{}\n",
        3,
        "terraform-json",
    )
    assert document.line_index.line_count == 2
    assert document.position(3) == (1, 0)
    assert document.offset((0, 1)) == 1


def test_changes_apply_in_order_each_relative_to_the_previous_text() -> None:
    document = Document("u", "abc\ndef")
    edits = document.apply_changes(
        [
            ((1, 0), (1, 3), "XY"),  # "abc\nXY"
            ((0, 3), (1, 0), ""),  # "abcXY"
            ((0, 0), (0, 0), "😀"),  # "😀abcXY"
            ((0, 2), (0, 3), "-"),  # after the emoji (2 UTF-16 units): "😀-bcXY"
        ]
    )
    assert document.text == "😀-bcXY"
    assert edits == [Edit(4, 7, 6), Edit(3, 4, 3), Edit(0, 0, 1), Edit(1, 2, 2)]
    assert document.version == 0


def test_the_encoding_decides_what_a_character_is() -> None:
    for encoding, column in (("utf-16", 2), ("utf-8", 4), ("utf-32", 1)):
        document = Document("u", "😀x")
        document.apply_changes([((0, column), (0, column + 1), "y")], encoding)
        assert document.text == "😀y", encoding


def test_lsprotocol_change_events_are_accepted() -> None:
    document = Document("u", "hello\nworld")
    partial = types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(1, 0), types.Position(1, 5)), text="there"
    )
    whole = types.TextDocumentContentChangeWholeDocument(text="hello\nthere!")
    edits = document.apply_changes([partial, whole], types.PositionEncodingKind.Utf16, version=7)
    assert document.text == "hello\nthere!"
    assert document.version == 7
    assert edits == [Edit(6, 11, 11), Edit(11, 11, 12)]


def test_other_change_shapes() -> None:
    document = Document("u", "abc")
    document.apply_changes([SimpleNamespace(range=None, text="xyz")])
    assert document.text == "xyz"
    rng = SimpleNamespace(start=SimpleNamespace(line=0, character=1), end=SimpleNamespace(line=0, character=2))
    document.apply_changes([SimpleNamespace(range=rng, text="Y")])
    assert document.text == "xYz"
    as_json = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": ""}
    document.apply_changes([as_json])
    assert document.text == "Yz"
    document.apply_changes([{"text": "full"}, (None, "fuller"), (None, None, "fullest")])
    assert document.text == "fullest"
    document.apply_changes([(((0, 4), (0, 7)), "!")])
    assert document.text == "full!"


def test_out_of_range_and_reversed_ranges_are_clamped() -> None:
    document = Document("u", "ab\ncd")
    assert document.apply_changes([((1, 2), (0, 1), "-")]) == [Edit(1, 5, 2)]  # reversed
    assert document.text == "a-"
    assert document.apply_changes([((5, 0), (9, 9), "!")]) == [Edit(2, 2, 3)]  # past the end
    assert document.text == "a-!"
    assert document.apply_changes([((-1, -1), (0, -4), "^")]) == [Edit(0, 0, 1)]  # negative
    assert document.text == "^a-!"
    assert document.apply_changes([((0, 99), (0, 100), "$")]) == [Edit(4, 4, 5)]  # past end of line
    assert document.text == "^a-!$"


def test_replace_by_offsets_clamps() -> None:
    document = Document("u", "abc")
    assert document.replace(5, -2, "Z") == Edit(0, 3, 1)
    assert document.text == "Z"


def test_crlf_joins_and_splits_keep_lines_right() -> None:
    document = Document("u", "a\rb")
    document.apply_changes([((1, 0), (1, 0), "\n")])  # "a\r\nb": the lone CR becomes a CRLF
    assert document.text == "a\r\nb"
    assert document.line_index.line_starts() == [0, 3]
    document.apply_changes([((0, 1), (0, 1), "x")])  # "ax\r\nb"
    document.replace(3, 3, "y")  # between CR and LF: "ax\ry\nb"
    assert document.text == "ax\ry\nb"
    assert document.line_index.line_starts() == [0, 3, 5]
    document.replace(3, 4, "")  # join them again
    assert document.line_index.line_starts() == [0, 4] == ref_line_starts(document.text)


def test_unknown_encoding_is_rejected_before_any_change() -> None:
    document = Document("u", "abc")
    with pytest.raises(ValueError):
        document.apply_changes(["new"], "ucs-2")
    assert document.text == "abc"


@pytest.mark.parametrize(
    "client,chosen",
    [
        (None, "utf-16"),
        ([], "utf-16"),
        (["utf-8"], "utf-8"),
        (["utf-32", "utf-8", "utf-16"], "utf-32"),
        (["utf-7", "utf-8"], "utf-8"),
        (["ebcdic"], "utf-16"),
        (["UTF-8"], "utf-8"),
        ([types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16], "utf-8"),
    ],
)
def test_negotiate_encoding(client, chosen) -> None:
    result = negotiate_encoding(client)
    assert result == chosen
    assert type(result) is str
    assert result in ENCODINGS


def test_encodings() -> None:
    assert ENCODINGS == ("utf-16", "utf-8", "utf-32")
    assert check_encoding("Utf-32") == "utf-32"
    with pytest.raises(ValueError):
        check_encoding("utf16")


def test_one_character_edits_in_a_5_mb_document() -> None:
    line = '    "aws_instance_%d": {"ami": "ami-123", "tags": {"Name": "n\u00e9 %d"}},\r\n'
    text = "".join(line % (n, n) for n in range(75_000))
    assert len(text) > 5_000_000
    document = Document("u", text)
    index = document.line_index
    assert len(index._blocks) > 10  # really exercises the blocked layout
    lines = index.line_count
    middle = index.line_start(lines // 2) + 10
    edits = document.apply_changes([((lines // 2, 10), (lines // 2, 10), "\n")], "utf-8")
    assert edits == [Edit(middle, middle, middle + 1)]
    edits = document.apply_changes([((10, 0), (11, 0), "")])  # delete a whole line near the start
    assert index.line_count == lines  # one added, one removed
    fresh = LineIndex(document.text)
    assert index.line_starts() == fresh.line_starts()
    for offset in (0, 5, middle - 1, middle, middle + 1, middle + 2, len(document.text) - 3, len(document.text)):
        for encoding in ENCODINGS:
            assert index.position(offset, encoding) == fresh.position(offset, encoding)
    assert document.position(len(document.text)) == (lines - 1, 0)
