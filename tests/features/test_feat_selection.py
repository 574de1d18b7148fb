"""Selection ranges: token -> member -> container -> ... -> root -> document."""

from __future__ import annotations

import json

import pytest
from fixture import parse_fixture
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.features.selection import selection_range, selection_ranges_in
from hcljson_ls.jsonsyntax import parse


def chain(src: str) -> list[str]:
    f = parse_fixture(src).only
    text, at = f.text, f.cursor
    assert at is not None
    r = selection_range(parse(text).root, text, at)
    assert r is not None
    return [text[s:e] for s, e in r.chain()]


MARKED = parse_fixture('{"resource": {"aws_instance": {"web": {"ami": "$[abc]abc", "tags": [1, 2]}}}}').only
DOC = MARKED.text

CASES = [
    (
        '{"a": {"b": "x$0yz"}}',
        ["xyz", '"xyz"', '"b": "xyz"', '{"b": "xyz"}', '"a": {"b": "xyz"}', '{"a": {"b": "xyz"}}'],
    ),
    (
        '{"a": {"b$0": 1}}',
        ["b", '"b"', '"b": 1', '{"b": 1}', '"a": {"b": 1}', '{"a": {"b": 1}}'],
    ),
    # The end of a token still selects it; the comma is not part of a member.
    ('{"a": 12$0, "b": 2}', ["12", '"a": 12', '{"a": 12, "b": 2}']),
    ('[1, [2, 3$0], 4]', ["3", "[2, 3]", "[1, [2, 3], 4]"]),
    # Between members: the container first.
    ('{"a": 1, $0 "b": 2}', ['{"a": 1,  "b": 2}']),
    # Whitespace around the root value: the document.
    ('  {"a": 1} $0\n', ['  {"a": 1} \n']),
    ('$0', []),
    ('{"a": tru$0e}', ["true", '"a": true', '{"a": true}']),
    ('{"a": "$0"}', ["", '""', '"a": ""', '{"a": ""}']),
]


@pytest.mark.parametrize(("src", "expected"), CASES)
def test_chain(src: str, expected: list[str]) -> None:
    if not expected:
        f = parse_fixture(src).only
        assert f.cursor is not None and selection_range(parse(f.text).root, f.text, f.cursor) is None
        return
    assert chain(src) == expected


def test_broken_input_still_gives_a_chain() -> None:
    for src in ['{"a": {"b": $0', '{"a" $0 1}', '{"a": [1, 2$0', '{"a": {"b": "unterminated$0\n}}']:
        got = chain(src)
        assert got[-1] == parse_fixture(src).only.text
        assert all(len(a) < len(b) for a, b in zip(got, got[1:]))


def test_many_offsets_at_once() -> None:
    root = parse(DOC).root
    abc = MARKED.marks["abc"]
    got = selection_ranges_in(root, DOC, [0, abc, len(DOC) + 10])
    assert [r.start for r in got] == [0, abc, 0]
    assert got[2].end == len(DOC)


def test_deep_documents_need_no_recursion() -> None:
    text = "[" * 5000 + "1" + "]" * 5000
    r = selection_range(parse(text).root, text, 5000)
    assert len(r.chain()) == 5001


@settings(max_examples=80, deadline=None)
@given(
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4),
                 lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3), max_leaves=20),
    st.sampled_from([None, 2]),
    st.floats(0, 1),
)
def test_each_range_strictly_contains_the_previous_and_the_offset(value, indent, where) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    at = int(where * len(text))
    r = selection_range(parse(text).root, text, at)
    spans = r.chain()
    assert spans[-1] == (0, len(text))
    for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
        assert s2 <= s1 and e1 <= e2 and (s1, e1) != (s2, e2)
    assert all(s <= at <= e for s, e in spans)
