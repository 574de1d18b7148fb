"""TextBuffer: a chunked text that must read exactly like the `str` it stands for, after any splices."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.text import Document, LineIndex, TextBuffer

ALPHABET = st.sampled_from(list('ab{}"\\:\n\r') + ["é", "😀", "\u2028", " "])
TEXTS = st.text(ALPHABET, max_size=60)


def test_reads_like_a_str_across_chunks():
    text = "0123456789" * 5
    buf = TextBuffer(text, chunk=7)
    assert len(buf._chunked()[0]) == 8
    buf.splice(0, 0, "")  # a no-op keeps the joined text
    buf.splice(3, 3, "X")  # now reads go through the chunks
    model = text[:3] + "X" + text[3:]
    assert len(buf) == len(model)
    assert buf[5:40] == model[5:40]  # spans several chunks
    assert buf[7:14] == model[7:14]  # exactly one chunk
    assert buf[-3:] == model[-3:]
    assert buf[10:5] == ""
    assert buf[::2] == model[::2]
    assert [buf[i] for i in range(len(model))] == list(model)
    assert buf[-1] == model[-1]
    with pytest.raises(IndexError):
        buf[len(model)]
    assert buf.find("789", 8) == model.find("789", 8)  # search: the buffer's find is str.find's
    assert buf.find("789", 8, 12) == model.find("789", 8, 12)  # search: the buffer's find is str.find's
    assert buf.find("nope") == -1
    assert str(buf) == buf.full() == model
    assert buf == model and buf != model + "x"


def test_emptied_chunks_disappear_and_the_text_can_become_empty():
    buf = TextBuffer("abcdefghij", chunk=3)
    buf.splice(3, 6, "")  # exactly the second chunk
    assert buf.full() == "abcghij"
    assert len(buf._chunked()[0]) == 3
    buf.splice(0, len(buf), "")
    assert buf.full() == "" and len(buf) == 0 and buf[0:5] == ""
    buf.splice(0, 0, "new")
    assert buf.full() == "new"


def test_isascii_follows_the_edits():
    buf = TextBuffer("abc" * 10, chunk=4)
    assert buf.isascii()
    buf.splice(5, 6, "é")
    assert not buf.isascii()
    buf.splice(5, 6, "e")
    assert buf.isascii()


@settings(max_examples=300, deadline=None)
@given(
    text=TEXTS,
    chunk=st.integers(1, 9),
    edits=st.lists(st.tuples(st.integers(-3, 70), st.integers(-3, 70), TEXTS), max_size=8),
    reads=st.lists(st.tuples(st.integers(-5, 80), st.integers(-5, 80)), max_size=6),
)
def test_any_splices_read_like_the_str_model(text, chunk, edits, reads):
    buf = TextBuffer(text, chunk=chunk)
    model = text
    for a, b, new in edits:
        buf.splice(a, b, new)
        n = len(model)
        lo, hi = sorted((min(max(a, 0), n), min(max(b, 0), n)))
        model = model[:lo] + new + model[hi:]
        assert len(buf) == len(model)
        assert buf.isascii() == model.isascii()
        for x, y in reads:
            assert buf[x:y] == model[x:y]
            if -len(model) <= x < len(model):
                assert buf[x] == model[x]
            assert buf.find('"', x, y) == model.find('"', x, y)  # search: the buffer's find is str.find's
    assert buf.full() == model


@settings(max_examples=150, deadline=None)
@given(
    text=TEXTS,
    edits=st.lists(st.tuples(st.integers(0, 70), st.integers(0, 70), TEXTS), max_size=6),
)
def test_line_index_on_a_buffer_equals_a_fresh_index(text, edits):
    index = LineIndex(TextBuffer(text, chunk=4), block_size=2)
    model = text
    for a, b, new in edits:
        n = len(model)
        lo, hi = sorted((min(a, n), min(b, n)))
        index.update(lo, hi, new)
        model = model[:lo] + new + model[hi:]
        fresh = LineIndex(model)
        assert index.text == model
        assert index.line_starts() == fresh.line_starts()
        for off in range(len(model) + 1):
            for enc in ("utf-16", "utf-8", "utf-32"):
                assert index.position(off, enc) == fresh.position(off, enc)


def test_a_document_edit_does_not_join_the_text():
    text = '{"a": "' + "x" * 200_000 + '"}'
    doc = Document("file:///big.tf.json", text, 1)
    (edit,) = doc.apply_changes([{"range": {"start": {"line": 0, "character": 10}, "end": {"line": 0, "character": 10}}, "text": "y"}])
    buf = doc.buffer
    assert len(buf._chunked()[0]) > 1
    assert buf._joined is None  # the splice rewrote one chunk; nothing asked for the whole text yet
    assert buf[8:12] == "xxyx"
    assert doc.text == text[:10] + "y" + text[10:]
    assert edit.start == 10 and edit.new_end == 11
