"""Static analyses (static list, static map, static string) and the walk over the strings of an
expression with their modes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.hcljson.decode import decode_file
from hcljson_ls.hcljson.expression import iter_strings, static_list, static_map, static_string, string_mode_of
from hcljson_ls.hcljson.model import Expression
from hcljson_ls.hcljson.schema import (
    EXPRESSION,
    KEYWORD_OR_TRAVERSAL_LIST,
    LITERAL,
    MAP_OF_LITERAL_STRINGS,
    NATIVE_LIST,
    TRAVERSAL_LIST,
    TRAVERSAL_MAP,
)
from hcljson_ls.jsonsyntax import parse

from hcljson_fixtures import SCHEMAS


def expr_of(src: str, mode: str = EXPRESSION) -> tuple[str, Expression]:
    tree = parse(src, require_body=False)
    return src, Expression(tree.root, tree.root.start, tree.root.end, mode)


def test_static_list_elements_and_modes():
    text, e = expr_of('["a.b", 1, {"x": "y"}]', TRAVERSAL_LIST)
    items = static_list(e)
    assert [text[i.start : i.end] for i in items] == ['"a.b"', "1", '{"x": "y"}']
    assert {i.mode for i in items} == {"traversal"}
    assert string_mode_of(items[0]) == "traversal"
    assert static_list(expr_of('"a"')[1]) is None
    _, e = expr_of('["a", "b"]', NATIVE_LIST)
    assert [string_mode_of(i) for i in static_list(e)] == ["native", "native"]
    _, e = expr_of('["a"]', KEYWORD_OR_TRAVERSAL_LIST)
    assert string_mode_of(static_list(e)[0]) == "traversal"
    assert string_mode_of(expr_of('"all"', KEYWORD_OR_TRAVERSAL_LIST)[1]) == "keyword"


def test_static_map_pairs_and_modes():
    text, e = expr_of('{"aws": "aws.west", "google": "google.x"}', TRAVERSAL_MAP)
    pairs = static_map(e)
    assert [(text[k.start : k.end], text[v.start : v.end]) for k, v in pairs] == [('"aws"', '"aws.west"'), ('"google"', '"google.x"')]
    assert all(k.mode == v.mode == "traversal" for k, v in pairs)
    _, e = expr_of('{"a": "${x}"}', MAP_OF_LITERAL_STRINGS)
    (k, v), = static_map(e)
    assert string_mode_of(v) == "literal" and v.is_literal
    assert static_map(expr_of("[1]")[1]) is None


def test_static_string_gives_offsets_for_later_layers():
    text, e = expr_of('"aws_instance.\\u0061"')
    d = static_string(text, e)
    assert d.value == "aws_instance.a"
    assert text[d.offsets[13] : d.offsets[14]] == "\\u0061"
    assert static_string(*expr_of("1")) is None


def test_iter_strings_in_document_order_with_places():
    text, e = expr_of('{"a": ["x", {"b": "y"}, "z"], "c": "w"}', TRAVERSAL_MAP)
    got = [(text[s.start : s.end], s.mode, s.is_key) for s in iter_strings(e)]
    assert got == [
        ('"a"', "traversal", True),
        ('"x"', None, False),
        ('"b"', None, True),
        ('"y"', None, False),
        ('"z"', None, False),
        ('"c"', "traversal", True),
        ('"w"', "traversal", False),
    ]
    text, e = expr_of('{"a": ["${x}"]}', LITERAL)
    assert {s.mode for s in iter_strings(e)} == {"literal"}


def test_iter_strings_of_decoded_attribute_values():
    text = '{"thing": {"k": {"n": {"size": {"k": ["${a}", "b"]}, "refs": ["x.y"], "doc": "d"}}}}'
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    got = {a.name: [(text[s.start:s.end], s.mode) for s in iter_strings(a.expr)] for a in body.blocks[0].body.attributes}
    assert got == {
        "size": [('"k"', "template"), ('"${a}"', "template"), ('"b"', "template")],
        "refs": [('"x.y"', "traversal")],
        "doc": [('"d"', "literal")],
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_iter_strings_finds_every_string(value):
    text = json.dumps(value)
    _, e = expr_of(text)
    found = [json.loads(text[s.start : s.end]) for s in iter_strings(e)]
    expected = []
    stack = [value]
    while stack:  # pre-order, document order
        v = stack.pop()
        if isinstance(v, str):
            expected.append(v)
        elif isinstance(v, list):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            for k, x in reversed(list(v.items())):
                stack.append(x)
                stack.append(k)
    assert found == expected
