"""`lsp.positions.Positions` and the semantic tokens encoding agree with `LineIndex.position`
(the one definition of positions) on any text, offset and encoding."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.features.semantic_tokens import TOKEN_MODIFIERS_ALL, TOKEN_TYPES_ALL
from hcljson_ls.lsp.positions import Positions
from hcljson_ls.lsp.semantic_encoding import encode
from hcljson_ls.text.line_index import LineIndex

_TEXT = st.lists(st.sampled_from(["a", " ", "\n", "\r\n", "\r", "é", "😀", "\u2028", "{", '"', "xyz\n"]), max_size=40).map("".join)
_ENCODINGS = st.sampled_from(["utf-16", "utf-8", "utf-32"])


@settings(max_examples=300, deadline=None)
@given(_TEXT, _ENCODINGS)
def test_positions_are_line_index_positions(text: str, encoding: str) -> None:
    index = LineIndex(text)
    pos = Positions(index, encoding)
    for offset in range(-2, len(text) + 3):
        assert pos.position(offset) == index.position(offset, encoding), offset
        assert pos.line(offset) == index.position(offset, encoding)[0]


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.lists(st.integers(-2, 200), max_size=6))
def test_a_line_and_its_start_before_the_index_is_built_are_the_index_s(text: str, offsets: list[int]) -> None:
    head = len(text)
    text += "\n" + "a" * 100  # (a longer text: the first line starts found alone, the index not built)
    pos = Positions(LineIndex(text))
    built = LineIndex(text)
    for offset in offsets:
        line = built.line_of(offset)
        assert pos.line_and_start(offset) == (line, built.line_start(line)), offset
    assert not pos.index.has_line_starts or any(o > head for o in offsets)  # (past the text's first half)


def test_one_diagnostic_far_into_a_large_text_is_placed_without_every_line_start():
    """After an edit, a syntax error near a 5 MB document's end was placed by finding every line
    start (24 ms): counted now (`LineIndex.line_and_start`), the index left as it is."""
    text = "x\r\n" * 50_000 + "y\nz"
    pos = Positions(LineIndex(text))
    assert pos.line_and_start(len(text) - 1) == (50_001, len(text) - 1)
    assert pos.line_and_start(len(text) - 3) == (50_000, len(text) - 3)
    assert pos.line_and_start(5) == (1, 3)  # (near the start: the first line starts only)
    assert not pos.index.has_line_starts


def reference_encode(tokens, index: LineIndex, encoding: str) -> list[int]:
    """The encoding spelled out with `LineIndex.position`, one token piece per line."""
    types = {t: i for i, t in enumerate(TOKEN_TYPES_ALL)}
    bits_of = {m: 1 << i for i, m in enumerate(TOKEN_MODIFIERS_ALL)}
    data: list[int] = []
    prev = (0, 0)
    for s, e, kind, mods in tokens:
        if kind not in types or e <= s:
            continue
        bits = 0
        for m in mods:
            bits |= bits_of.get(m, 0)
        (l1, c1), (l2, c2) = index.position(s, encoding), index.position(e, encoding)
        pieces = []
        line, col = l1, c1
        while line < l2:
            pieces.append((line, col, index.position(index.line_end(line), encoding)[1] - col))
            line, col = line + 1, 0
        pieces.append((l2, col if l1 == l2 else 0, c2 - (col if l1 == l2 else 0)))
        for line, col, length in pieces:
            if length > 0:
                data += (line - prev[0], col - prev[1] if line == prev[0] else col, length, types[kind], bits)
                prev = (line, col)
    return data


@settings(max_examples=300, deadline=None)
@given(_TEXT, _ENCODINGS, st.data())
def test_encoding_matches_the_reference(text: str, encoding: str, data) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=12)))
    kinds = st.sampled_from([*TOKEN_TYPES_ALL[:4], "nonsense"])
    mods = st.lists(st.sampled_from([*TOKEN_MODIFIERS_ALL, "other"]), max_size=2).map(tuple)
    tokens = [(a, b, data.draw(kinds), data.draw(mods)) for a, b in zip(cuts[::2], cuts[1::2])]
    index = LineIndex(text)
    assert encode(tokens, index, encoding) == reference_encode(tokens, index, encoding)
