"""Hypothesis properties of LineIndex and Document against a naive model and plain strings."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from text_reference import line_starts as ref_line_starts
from text_reference import offset as ref_offset
from text_reference import position as ref_position

from hcljson_ls.text import ENCODINGS, Document, Edit, LineIndex, line_index, merge_edits

# Characters that stress every path: line ends, 2/3/4-byte UTF-8, astral, combining, a lone
# surrogate, and Unicode separators that are *not* LSP line ends.
ALPHABET = ["a", "b", " ", "\n", "\r", "\r\n", "é", "中", "😀", "\u0301", "\u2028", "\x85", "\f", "\ud800"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join)
encodings = st.sampled_from(ENCODINGS)
block_sizes = st.one_of(st.none(), st.integers(min_value=1, max_value=6))


def check_invariants(index: LineIndex) -> None:
    # A block's shift is derived (`first - block[0]`), so the invariants are on the stored lists.
    blocks, firsts, first_lines = index._blocks, index._firsts, index._first_lines
    assert len(blocks) == len(firsts) == len(first_lines) >= 1
    assert blocks[0][0] == firsts[0] == 0
    assert firsts == sorted(set(firsts)), "blocks in order, none starting where another does"
    line = 0
    for block, _first, first_line in zip(blocks, firsts, first_lines):
        assert block, "no empty blocks"
        assert list(block) == sorted(set(block))
        assert first_line == line
        line += len(block)


def same_answers(index: LineIndex, text: str) -> None:
    fresh = LineIndex(text)
    assert index.text == text
    assert index.line_starts() == fresh.line_starts() == ref_line_starts(text)
    assert index.line_count == fresh.line_count
    for o in range(-1, len(text) + 2):
        assert index.line_of(o) == fresh.line_of(o)
        for encoding in ENCODINGS:
            assert index.position(o, encoding) == fresh.position(o, encoding)
    for line in range(-1, fresh.line_count + 1):
        assert index.line_start(line) == fresh.line_start(line)
        assert index.line_end(line) == fresh.line_end(line)
        for character in (0, 1, 2, 3, 5, 40):
            for encoding in ENCODINGS:
                assert index.offset((line, character), encoding) == fresh.offset((line, character), encoding)


@given(texts, st.integers(min_value=1, max_value=5))
@example("\r\r\n", 1)  # a slice ending on the first "\r" was extended onto the second: "\r\n" split (found by hypothesis, session 11)
def test_line_starts_scanned_in_slices_match_the_naive_model(text: str, slice_size: int) -> None:
    # The line starts are scanned a slice of the text at a time (`_SCAN_SLICE`, 1 MiB); tiny
    # slices put slice boundaries everywhere, between the "\r" and "\n" of a "\r\n" too.
    saved = line_index._SCAN_SLICE
    line_index._SCAN_SLICE = slice_size
    try:
        assert LineIndex(text).line_starts() == ref_line_starts(text)
    finally:
        line_index._SCAN_SLICE = saved


@given(texts, st.integers(-2, 160))
@example("a\r\nb\r\nc", 0)  # the cut just after a "\r": its "\n" is past the cut, the start there dropped
def test_the_first_line_starts_are_the_index_s_without_building_it(text: str, offset: int) -> None:
    text += "\n" + "a" * 100  # (the first line starts of a longer text: found alone, not by building the index)
    index = LineIndex(text)
    starts, every = index.starts_through(offset)
    expected = ref_line_starts(text)
    assert index.has_line_starts == every  # (found from the text alone, unless it is every start)
    assert starts == expected[: len(starts)]
    assert not every or len(starts) == len(expected)
    if not every:  # through the start of the line after the offset's
        assert starts[-1] > max(0, offset)
    assert index.line_count == len(expected)  # (which builds the index)
    assert index.has_line_starts and index.starts_through(offset) == (expected, True)


@given(texts, st.lists(st.integers(-2, 45), max_size=6), st.booleans())
def test_lines_counted_in_the_text_are_the_index_s(text: str, offsets: list[int], ascending: bool) -> None:
    # `line_bounds_at`: each offset's line, its start and the next line's start, without the index.
    if ascending:
        offsets = sorted(offsets)
    index = LineIndex(text)
    got = line_index.line_bounds_at(text, offsets)
    expected = []
    for offset in offsets:
        line = index.line_of(max(0, min(offset, len(text))))
        expected.append((line, index.line_start(line), index.line_start(line + 1) if line + 1 < index.line_count else -1))
    assert got == expected


@given(texts, encodings, block_sizes)
def test_position_matches_naive_model(text: str, encoding: str, block_size) -> None:
    index = LineIndex(text, block_size=block_size)
    check_invariants(index)
    assert index.line_starts() == ref_line_starts(text)
    for o in range(-2, len(text) + 3):
        assert index.position(o, encoding) == ref_position(text, o, encoding)


@given(texts, encodings, block_sizes, st.data())
def test_offset_matches_naive_model(text: str, encoding: str, block_size, data) -> None:
    index = LineIndex(text, block_size=block_size)
    for _ in range(20):
        line = data.draw(st.integers(min_value=-2, max_value=index.line_count + 1))
        character = data.draw(st.integers(min_value=-2, max_value=2 * len(text) + 3))
        assert index.offset((line, character), encoding) == ref_offset(text, line, character, encoding)



@given(texts, encodings, st.integers(min_value=1, max_value=5), st.data())
@example("a\r\nb", "utf-16", 2, None)  # a slice ending between the "\r" and the "\n"
def test_before_its_line_starts_are_found_an_index_converts_by_counting(text: str, encoding: str, slice_size: int,
                                                                        data) -> None:
    """Before the line starts are found, `position` and `offset` count the line ends up to their
    place (`_COUNT_SLICE` at a time: tiny slices put slice ends everywhere) and find none: the naive
    model's answers, the index left without its line starts (each conversion asked as the first:
    its budget of counting, `_counted`, unspent)."""
    saved = line_index._COUNT_SLICE
    line_index._COUNT_SLICE = slice_size
    try:
        index = LineIndex(text)
        built = LineIndex(text)
        for o in range(-2, len(text) + 3):
            index._counted = 0
            assert index.position(o, encoding) == ref_position(text, o, encoding)
            index._counted = 0
            line = built.line_of(o)
            assert index.line_and_start(o) == (line, built.line_start(line))
        lines = len(ref_line_starts(text))
        asked = [(line, character) for line in range(-1, lines + 1) for character in (0, 1, 2, 5)]
        if data is not None:
            asked += [(data.draw(st.integers(-2, lines + 1)), data.draw(st.integers(-2, 2 * len(text) + 3)))
                      for _ in range(10)]
        for line, character in asked:
            index._counted = 0
            assert index.offset((line, character), encoding) == ref_offset(text, line, character, encoding)
        assert not index.has_line_starts
        if data is None:
            return
        # After an edit (the text now a `TextBuffer` of pieces, never joined for this), from the last
        # line counted when the edit is after its start, else from the text's start.
        start, end, inserted = data.draw(st.tuples(st.integers(0, len(text)), st.integers(0, len(text)), texts))
        start, end = min(start, end), max(start, end)
        index.update(start, end, inserted)
        text = text[:start] + inserted + text[end:]
        lines = len(ref_line_starts(text))
        for _ in range(10):
            line, character = data.draw(st.integers(-2, lines + 1)), data.draw(st.integers(-2, 2 * len(text) + 3))
            index._counted = 0
            assert index.offset((line, character), encoding) == ref_offset(text, line, character, encoding)
            o = data.draw(st.integers(-2, len(text) + 2))
            index._counted = 0
            assert index.position(o, encoding) == ref_position(text, o, encoding)
        assert not index.has_line_starts
    finally:
        line_index._COUNT_SLICE = saved


def test_an_edit_at_a_counted_line_start_forgets_it():
    """A line start depends on the characters before it and at it: a "\n" inserted right after a
    lone "\r" joins it into one line end, and the line counted there starts one later."""
    index = LineIndex("a\rb\nc")
    assert index.offset((1, 0)) == 2
    index.update(2, 2, "\n")  # "a\r\nb\nc"
    assert index.offset((1, 0)) == 3 and index.offset((2, 0)) == 5
    assert not index.has_line_starts

def test_once_conversions_have_counted_through_the_text_the_line_starts_are_found():
    """Counting is for the first conversions after an open: once they have counted through twice as
    many characters as the text holds, the next one finds every line start (edits back to back, with
    no pause for the background build, then cost what they did)."""
    text = "x\n" * 1000
    index = LineIndex(text)
    assert index.offset((500, 0)) == 1000 and not index.has_line_starts
    assert index.position(1800) == (900, 0) and not index.has_line_starts  # (2,800 of 4,000 counted)
    assert index.position(1400) == (700, 0) and not index.has_line_starts  # (4,200)
    assert index.offset((700, 1)) == 1401 and index.has_line_starts

@given(texts, encodings)
def test_round_trip_on_character_boundaries(text: str, encoding: str) -> None:
    index = LineIndex(text)
    for o in range(len(text) + 1):
        inside_crlf = 0 < o < len(text) and text[o - 1] == "\r" and text[o] == "\n"
        if not inside_crlf:
            assert index.offset(index.position(o, encoding), encoding) == o


splices = st.tuples(st.integers(-3, 60), st.integers(-3, 60), texts)


@given(texts, st.lists(splices, min_size=1, max_size=8), block_sizes)
@settings(max_examples=300)
def test_incremental_update_equals_fresh_index(text: str, edits, block_size) -> None:
    index = LineIndex(text, block_size=block_size)
    for start, end, inserted in edits:
        lo, hi = sorted((min(max(start, 0), len(text)), min(max(end, 0), len(text))))
        text = text[:lo] + inserted + text[hi:]
        index.update(start, end, inserted, text)  # raw (possibly reversed, out-of-range) range
        check_invariants(index)
    same_answers(index, text)


@given(st.integers(1, 8), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 6), texts), max_size=12))
@settings(max_examples=100)
def test_incremental_update_across_many_blocks(block_size: int, edits) -> None:
    text = "".join(("x" * (n % 5)) + ("\r\n", "\n", "\r")[n % 3] for n in range(120))
    index = LineIndex(text, block_size=block_size)
    for start, length, inserted in edits:
        start = min(start, len(text))
        end = min(start + length * 17, len(text))  # long deletions span several blocks
        text = text[:start] + inserted + text[end:]
        index.update(start, end, inserted, text)
        check_invariants(index)
    assert index.line_starts() == ref_line_starts(text)
    same_answers(index, text)


def test_a_shrunken_block_absorbs_its_successor() -> None:
    text = "a\n" * 40
    index = LineIndex(text, block_size=8)
    assert index.line_count == 41  # built now: the index finds its line starts on first need
    new = text[:17] + "XYZ" + text[31:]
    index.update(17, 31, "XYZ", new)
    check_invariants(index)
    assert len(index._blocks[1]) == 9  # [16] plus the next block's eight starts
    assert index.line_starts() == ref_line_starts(new)
    same_answers(index, new)


def test_update_with_inconsistent_text_rebuilds() -> None:
    index = LineIndex("a\nb")
    index.update(0, 1, "xyz", "completely\ndifferent\n")
    assert index.line_starts() == [0, 11, 21]


@st.composite
def lsp_changes(draw, text_len: int):
    """A change as the LSP layer would pass it, possibly out of range or reversed."""
    kind = draw(st.sampled_from(["range", "range", "range", "full"]))
    new = draw(texts)
    if kind == "full":
        return draw(st.sampled_from([new, (None, new)]))
    pos = st.tuples(st.integers(-1, 6), st.integers(-1, text_len + 4))
    return (draw(pos), draw(pos), new)


def apply_plain(text: str, change, encoding: str) -> str:
    """The model: apply a change to a plain string via the naive position model."""
    if isinstance(change, str):
        return change
    if len(change) == 2:
        return change[1]
    (sl, sc), (el, ec), new = change
    a = ref_offset(text, sl, sc, encoding)
    b = ref_offset(text, el, ec, encoding)
    a, b = min(a, b), max(a, b)
    return text[:a] + new + text[b:]


@given(texts, encodings, st.data())
@settings(max_examples=300)
def test_apply_changes_equals_plain_string_edits(text: str, encoding: str, data) -> None:
    document = Document("file:///x.tf.json", text, 1, "terraform-json")
    changes = [data.draw(lsp_changes(len(text) + 10)) for _ in range(data.draw(st.integers(1, 5)))]
    expected = text
    texts_seen = [text]
    for change in changes:
        expected = apply_plain(expected, change, encoding)
        texts_seen.append(expected)
    edits = document.apply_changes(changes, encoding, version=2)
    assert document.text == expected
    assert document.version == 2
    assert len(edits) == len(changes)
    for before, after, edit in zip(texts_seen, texts_seen[1:], edits):
        assert 0 <= edit.start <= edit.old_end <= len(before)
        assert edit.start <= edit.new_end <= len(after)
        assert before[: edit.start] + after[edit.start : edit.new_end] + before[edit.old_end :] == after
    merged = merge_edits(edits)
    assert merged is not None
    assert text[: merged.start] + expected[merged.start : merged.new_end] + text[merged.old_end :] == expected
    assert len(expected) - len(text) == merged.new_end - merged.old_end
    same_answers(document.line_index, expected)


@given(texts, texts)
def test_full_replacement_is_reported_as_the_smallest_edit(old: str, new: str) -> None:
    document = Document("u", old)
    (edit,) = document.apply_changes([new])
    assert document.text == new
    assert old[: edit.start] == new[: edit.start]
    assert old[edit.old_end :] == new[edit.new_end :]
    # Minimal: the characters just inside the edit differ (or the edit is empty on that side).
    if edit.start < min(edit.old_end, edit.new_end):
        assert old[edit.start] != new[edit.start]
    if edit.start < edit.old_end and edit.start < edit.new_end:
        assert old[edit.old_end - 1] != new[edit.new_end - 1]
    same_answers(document.line_index, new)


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30), texts), min_size=1, max_size=6), texts)
def test_merge_edits_covers_a_sequence(splices_, text: str) -> None:
    original = text
    edits = []
    for a, b, new in splices_:
        a, b = sorted((min(a, len(text)), min(b, len(text))))
        edits.append(Edit(a, b, a + len(new)))
        text = text[:a] + new + text[b:]
    merged = merge_edits(edits)
    assert original[: merged.start] + text[merged.start : merged.new_end] + original[merged.old_end :] == text
    assert merged.start <= min(e.start for e in edits)


def test_common_prefix_and_suffix_on_long_texts() -> None:
    base = "ab\n" * 200_000
    for at in (0, 1, 4095, 4096, 4097, 300_000, len(base) - 1):
        document = Document("u", base)
        new = base[:at] + "Z" + base[at + 1 :]
        (edit,) = document.apply_changes([new])
        assert edit == Edit(at, at + 1, at + 1)
    document = Document("u", base)
    assert document.apply_changes([base]) == [Edit(len(base), len(base), len(base))]


queries = st.lists(
    st.tuples(st.booleans(), encodings, st.integers(-1, 6), st.integers(-2, 90)), min_size=1, max_size=30
)


@given(st.lists(st.sampled_from(ALPHABET), max_size=80).map("".join), queries, st.integers(0, 3))
@settings(max_examples=300)
def test_long_line_anchors_give_the_same_answers(text: str, qs, threshold: int) -> None:
    """Conversions that reuse the previous one's end (on long lines) agree with the naive model."""
    import hcljson_ls.text.line_index as line_index

    saved = line_index._ANCHOR_MIN_COLUMN
    line_index._ANCHOR_MIN_COLUMN = threshold  # make every conversion use and leave an anchor
    try:
        index = LineIndex(text)
        for to_position, encoding, line, number in qs:
            if to_position:
                assert index.position(number, encoding) == ref_position(text, number, encoding)
            else:
                assert index.offset((line, number), encoding) == ref_offset(text, line, number, encoding)
        # An update forgets the anchor.
        index.update(0, 0, "😀", "😀" + text)
        text = "😀" + text
        for _to_position, encoding, line, number in qs:
            assert index.position(number, encoding) == ref_position(text, number, encoding)
            assert index.offset((line, number), encoding) == ref_offset(text, line, number, encoding)
    finally:
        line_index._ANCHOR_MIN_COLUMN = saved


def test_long_minified_line_with_non_ascii() -> None:
    text = '{"a": "é😀中", "b": [' + ",".join('"x%d😀"' % n for n in range(3000)) + "]}"
    index = LineIndex(text)
    probes = list(range(0, len(text), 997)) + [len(text)]
    for encoding in ENCODINGS:
        expected = [ref_position(text, o, encoding) for o in probes]
        assert [index.position(o, encoding) for o in probes] == expected
        assert [index.position(o, encoding) for o in reversed(probes)] == expected[::-1]
        assert [index.offset(p, encoding) for p in expected] == probes
        assert [index.offset(p, encoding) for p in reversed(expected)] == probes[::-1]


@given(texts, st.lists(st.tuples(st.integers(-3, 60), st.integers(-3, 60), texts), min_size=1, max_size=6), st.booleans())
def test_an_index_edited_before_its_first_query_equals_a_fresh_one(text: str, edits, query_between: bool) -> None:
    """The line starts are found on first need: edits before that only change the text (the
    index is then built from the text as it is), edits after it move the built index."""
    index = LineIndex(text)
    for n, (start, end, inserted) in enumerate(edits):
        lo, hi = sorted((min(max(start, 0), len(text)), min(max(end, 0), len(text))))
        text = text[:lo] + inserted + text[hi:]
        index.update(start, end, inserted)
        if query_between and n == len(edits) // 2:
            assert index.line_starts() == ref_line_starts(text)
    same_answers(index, text)
