"""Folding ranges: every multi-line object/array, outer first, in offsets of its brackets."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.features.folding import FoldingRange, folding_ranges_in, line_starts
from hcljson_ls.jsonsyntax import parse


def lines(text: str) -> list[tuple[int, int]]:
    starts = line_starts(text)

    def line(o: int) -> int:
        return sum(1 for s in starts if s <= o)

    return [(line(r.start), line(r.end)) for r in folding_ranges_in(parse(text).root, text)]


def test_multi_line_containers_fold_from_open_to_close_bracket() -> None:
    text = '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {"x": [1, 2]},\n  "c": {\n    "d": {}\n  }\n}\n'
    ranges = folding_ranges_in(parse(text).root, text)
    assert [(text[r.start], text[r.end]) for r in ranges] == [("{", "}"), ("[", "]"), ("{", "}")]
    assert lines(text) == [(0, 9), (1, 4), (6, 8)]
    assert all(isinstance(r, FoldingRange) and r.kind is None for r in ranges)


def test_single_line_documents_have_no_folds() -> None:
    text = '{"a": {"b": [1, {"c": 2}]}}'
    assert folding_ranges_in(parse(text).root, text) == ()
    assert folding_ranges_in(None, "") == ()


def test_crlf_and_lone_cr_are_line_breaks() -> None:
    assert lines('{\r\n"a": [\r1\r]\r\n}') == [(0, 4), (1, 3)]


def test_an_unclosed_container_folds_to_where_it_ends() -> None:
    text = '{\n  "a": {\n    "b": 1\n'
    ranges = folding_ranges_in(parse(text).root, text)
    assert ranges and ranges[0].start == 0
    assert all(r.end <= len(text) for r in ranges)


def test_inner_folds_of_a_one_line_container_are_skipped_but_siblings_are_not() -> None:
    text = '{"a": {"b": 1}, "c": [\n1]}'
    assert lines(text) == [(0, 1), (0, 1)]


def test_very_deep_nesting_needs_no_recursion() -> None:
    depth = 20000
    text = "[\n" * depth + "]\n" * depth
    assert len(folding_ranges_in(parse(text).root, text)) == depth


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.integers() | st.text(max_size=3),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=3), c, max_size=4), max_leaves=25),
       st.sampled_from([None, 1, 2]))
def test_folds_match_the_containers_that_span_lines(value, indent) -> None:
    text = json.dumps(value, indent=indent)
    ranges = folding_ranges_in(parse(text).root, text)
    assert [r.start for r in ranges] == sorted(r.start for r in ranges)
    for r in ranges:
        assert text[r.start] in "{[" and text[r.end] == {"{": "}", "[": "]"}[text[r.start]]
        assert "\n" in text[r.start : r.end]
    # Every multi-line container is there: count the brackets that open a line-spanning value.
    if indent is None:
        assert ranges == ()
    else:
        expected = sum(1 for i, ch in enumerate(text) if ch in "{[" and text[i + 1 : i + 2] == "\n")
        assert len(ranges) == expected


_PIECES = st.sampled_from(["{", "}", "[", "]", '"a": ', "1", ",", " ", "\n", "\r", "\r\n", '"x\ry"'])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_a_fold_is_a_container_whose_brackets_are_on_different_lines(text: str) -> None:
    from hcljson_ls.jsonsyntax.tree import Container, walk
    from hcljson_ls.text.line_index import LineIndex

    root = parse(text).root
    index = LineIndex(text)
    expected = []
    for node, start, end in (walk(root) if root is not None else ()):
        if not isinstance(node, Container):
            continue
        close = end - 1 if node.closed and end > start else end
        if index.line_of(start) != index.line_of(close):
            expected.append((start, close))
    # Containers inside a one-line container are one-line too, so pruning there loses nothing.
    assert sorted((r.start, r.end) for r in folding_ranges_in(root, text)) == sorted(expected)
