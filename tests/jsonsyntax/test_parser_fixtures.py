"""Data-driven fixtures: each source marks the exact ranges (`⟨...⟩`, see tests/fixture.py) of the
expected diagnostics, listed with their codes in source order. Every fixture also checks the tree is well formed and the
scanner is lossless."""

import pytest
from fixture import parse_fixture

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.scanner import scan
from hcljson_ls.jsonsyntax.tree import walk

CASES = [
    # (annotated source, expected codes in order of range start)
    # A missing comma marks the token after the gap (a gap is easy to miss, and may be empty).
    ('{"a": 1 ⟨"b"⟩: 2}', ["syntax/missing-comma"]),
    ('{"a": 1⟨"b"⟩: 2}', ["syntax/missing-comma"]),
    ('{"a": 1\n  ⟨"b"⟩: 2}', ["syntax/missing-comma"]),
    ('[{} ⟨{⟩}]', ["syntax/missing-comma"]),
    ('{"a": [1 ⟨2.5e3⟩]}', ["syntax/missing-comma"]),
    ('{"a": 1⟨,⟩}', ["syntax/trailing-comma"]),
    ('{"a": [1, 2⟨,⟩ ]}', ["syntax/trailing-comma"]),
    ('{"a"⟨ ⟩1}', ["syntax/missing-colon"]),
    ('{"a" ⟨=⟩ 1}', ["syntax/equals-not-colon"]),
    ('{⟨a⟩: 1}', ["syntax/unquoted-key"]),
    ('{⟨\'a\'⟩: ⟨\'b\'⟩}', ["syntax/single-quoted", "syntax/single-quoted"]),
    ('{"a": 1, ⟨// note⟩\n "b": 2}', ["syntax/comment"]),
    ('{"a": 1, ⟨/* note */⟩ "b": 2}', ["syntax/comment"]),
    ('{"//": "a real comment key", "a": 1}', []),
    ('{"a": ⟨"abc⟩\n}', ["syntax/unterminated-string"]),
    # An unclosed string ends before the line's trailing structure (a deleted closing quote keeps
    # the line's `:`, `{`, `}`, `,`): the containers keep their shape.
    ('{"a": {⟨"b⟩: {\n "c": 1}}, "d": 2}', ["syntax/unterminated-string"]),
    ('{"a": {"b": ⟨"x⟩,\n "c": 1}, "d": 2}', ["syntax/unterminated-string"]),
    ('{"a": [⟨"x⟩],\n "d": 2}', ["syntax/unterminated-string"]),
    ('{"a": {"b": ⟨"${var.x}⟩},\n "d": 2}', ["syntax/unterminated-string"]),
    ('{"a": ⟨"b: c, d⟩\n}', ["syntax/unterminated-string"]),
    ('{"a": "x⟨\\q⟩y"}', ["syntax/invalid-escape"]),
    ('{"a": "x⟨\\u12⟩y"}', ["syntax/invalid-escape"]),
    ('{"a": "x\\\\qy \\u00e9 \\/ \\ud83d\\ude00"}', []),
    ('{"a": "x⟨\t⟩y"}', ["syntax/control-character"]),
    ('{"a": ⟨01⟩}', ["syntax/invalid-number"]),
    ('{"a": ⟨.5⟩}', ["syntax/invalid-number"]),
    ('{"a": ⟨1.⟩}', ["syntax/invalid-number"]),
    ('{"a": ⟨+1⟩}', ["syntax/invalid-number"]),
    ('{"a": ⟨1e⟩}', ["syntax/invalid-number"]),
    ('{"a": ⟨NaN⟩}', ["syntax/invalid-number"]),
    ('{"a": ⟨-Infinity⟩}', ["syntax/invalid-number"]),
    ('{"a": -0.5e+10, "b": 1E-2, "c": 0}', []),
    ('{"a": ⟨True⟩}', ["syntax/invalid-literal"]),
    ('{"a": ⟨none⟩}', ["syntax/invalid-literal"]),
    ('{"a": ⟨undefined⟩}', ["syntax/invalid-literal"]),
    ('{"a": true, "b": false, "c": null}', []),
    ('{"a": 1⟨⟩', ["syntax/unclosed-bracket"]),
    ('{"a": [1⟨⟨⟩⟩', ["syntax/unclosed-bracket", "syntax/unclosed-bracket"]),
    ('{"a": [1⟨}⟩', ["syntax/mismatched-bracket"]),
    ('{"a": 1⟨]⟩}', ["syntax/mismatched-bracket"]),
    ('{"a": 1} ⟨{"b": 2}⟩', ["syntax/extra-data"]),
    ('⟨   ⟩', ["syntax/empty-document"]),
    ('⟨⟩', ["syntax/empty-document"]),
    ('⟨"text"⟩', ["syntax/root-not-body"]),
    ('[{"a": 1}, ⟨2⟩]', ["syntax/root-not-body"]),
    ('[{"a": 1}, {"b": 2}]', []),
    ('{"a":⟨ ⟩, "b": 1}', ["syntax/missing-value"]),
    ('{"a":⟨ ⟩}', ["syntax/missing-value"]),
    ('{"a"⟨⟩, "b": 1}', ["syntax/missing-colon"]),
    ('{"a": 1,⟨,⟩ "b": 2}', ["syntax/extra-comma"]),
    ('{⟨{⟩"a": 1}}', ["syntax/missing-key"]),
    ('{"a": ⟨@⟩}', ["syntax/unexpected-token"]),
    ('{"a": [1⟨:⟩ 2]}', ["syntax/unexpected-token"]),
    ('{"a": [⟨@⟩, ⟨#⟩]}', ["syntax/unexpected-token", "syntax/unexpected-token"]),
]


@pytest.mark.parametrize("annotated,codes", CASES, ids=[c[0] for c in CASES])
def test_fixture(annotated, codes):
    f = parse_fixture(annotated).only
    text, ranges = f.text, f.ranges
    result = parse(text)
    got = [(d.start, d.end, d.code) for d in result.diagnostics]
    # Fixtures list ranges in order; codes are paired with them in that order.
    want = [(s, e, c) for (s, e), c in zip(ranges, codes)]
    assert sorted(got) == sorted(want)
    assert "".join(scan(text)) == text
    if result.root is not None:
        for _node, s, e in walk(result.root):
            assert 0 <= s <= e <= len(text)


def test_recovery_keeps_members_before_and_after_an_error():
    text = '{"a": 1, "b": , "c": {"d": [1, 2 3]}, "e": true}'
    result = parse(text)
    root = result.root
    keys = [text[m.key.start + 1 : m.key.end - 1] for m in root.items]
    assert keys == ["a", "b", "c", "e"]
    c = root.items[2].value
    d = c.items[0].value
    assert len(d.items) == 3  # 1, 2 and 3 are all kept


def test_mismatched_bracket_points_at_the_opener():
    text = '{"a": [1, 2}'
    (diag,) = [d for d in parse(text).diagnostics if d.code == "syntax/mismatched-bracket"]
    assert (diag.start, diag.end) == (11, 12)
    assert [(r.start, r.end) for r in diag.related] == [(6, 7)]


def test_unclosed_bracket_points_at_the_opener():
    text = '{"a": {"b": 1}'
    (diag,) = parse(text).diagnostics
    assert diag.code == "syntax/unclosed-bracket"
    assert (diag.start, diag.end) == (14, 14)
    assert [(r.start, r.end) for r in diag.related] == [(0, 1)]


def test_messages_are_sentences_with_codes():
    for annotated, _ in CASES:
        for d in parse(parse_fixture(annotated).only.text).diagnostics:
            assert d.summary and d.detail.endswith((".", "?")), d
            assert d.code.startswith("syntax/")


def test_hundred_thousand_levels_of_nesting():
    depth = 100_000
    text = '{"a":' * depth + "1" + "}" * depth
    result = parse(text)
    assert result.diagnostics == []
    unclosed = parse("[" * depth)
    assert len(unclosed.diagnostics) == depth + 1  # each `[` is unclosed, and the root holds arrays
    mixed = parse('{"a":' * depth)
    assert all(d.code in ("syntax/unclosed-bracket", "syntax/missing-value") for d in mixed.diagnostics)
