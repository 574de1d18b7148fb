"""Hypothesis properties of the JSON layer.

* Any JSON value dumped by `json.dumps` (any indent, ASCII or not) parses with no error to the same
  value as `json.loads` with duplicates kept, and the scanner is lossless.
* Random edit sequences: the incremental reparse equals a full parse of the new text, always.
"""

import json
import string
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.jsonsyntax.scanner import scan
from hcljson_ls.jsonsyntax.tree import snapshot
from hcljson_ls.jsonsyntax.value import Pairs, to_python

keys = st.text(min_size=0, max_size=8)
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.lists(st.tuples(keys, inner), max_size=4).map(Pairs),
    max_leaves=25,
)


def dumps(v, indent, ensure_ascii):
    # json.dumps cannot write duplicate keys from a dict; render Pairs by hand.
    if isinstance(v, Pairs):
        sep = "\n" if indent is not None else ""
        inner = ("," + sep).join(json.dumps(k, ensure_ascii=ensure_ascii) + ": " + dumps(x, indent, ensure_ascii) for k, x in v)
        return "{" + sep + inner + sep + "}"
    if isinstance(v, list):
        return "[" + ", ".join(dumps(x, indent, ensure_ascii) for x in v) + "]"
    return json.dumps(v, indent=indent, ensure_ascii=ensure_ascii)


def normalize(v):
    if isinstance(v, Pairs):
        return ("object", [(k, normalize(x)) for k, x in v])
    if isinstance(v, list):
        return [normalize(x) for x in v]
    if isinstance(v, float) and v.is_integer():
        return v
    return v


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(values, st.sampled_from([None, 0, 2]), st.booleans())
def test_dumped_json_parses_to_the_same_value(value, indent, ensure_ascii):
    text = dumps(value, indent, ensure_ascii)
    result = parse(text, require_body=False)
    assert result.diagnostics == []
    assert "".join(scan(text)) == text
    expected = json.loads(text, object_pairs_hook=lambda ps: Pairs(ps))
    assert normalize(to_python(text, result.root)) == normalize(expected)


@settings(max_examples=300)
@given(st.text(alphabet=string.printable + "é😀\u2028", max_size=60))
def test_any_text_parses_without_raising_and_losslessly(text):
    result = parse(text)
    assert "".join(scan(text)) == text
    for d in result.diagnostics:
        assert 0 <= d.start <= d.end <= len(text)


@dataclass
class Edit:
    start: int
    old_end: int
    new_end: int


BASE = json.dumps(
    {
        "//": {"metadata": {"version": "0.20"}},
        "resource": {
            "aws_instance": {
                "web": {"ami": "ami-1", "tags": {"Name": "web ${var.x}", "é": "😀"}, "count": 2},
                "db": [{"ami": "ami-2", "depends_on": ["aws_instance.web"]}],
            }
        },
        "variable": {"region": {"default": "eu-west-1"}},
    },
    indent=2,
    ensure_ascii=False,
)

pieces = st.sampled_from(['"', "{", "}", "[", "]", ",", ":", " ", "\n", "\\", "a", "1", "${", "//", "true", "é", "😀", '"x"', "\\u00e9"])
edits = st.lists(
    st.tuples(st.floats(0, 1), st.integers(0, 6), st.lists(pieces, max_size=3).map("".join)), min_size=1, max_size=12
)


def signature(result):
    return snapshot(result.root), [(d.start, d.end, d.code, d.summary, d.related) for d in result.diagnostics]


@settings(max_examples=400, deadline=None)
@given(edits)
def test_incremental_reparse_equals_full_parse(steps):
    assert_reparse_equals_full_parse(BASE, steps)


def assert_reparse_equals_full_parse(text: str, steps) -> None:
    """Each of `steps` (where, as a fraction of the text; how many characters replaced; by what)
    applied by `reparse` to the last result gives what a full parse of the new text gives."""
    current = parse(text)
    for frac, length, insert in steps:
        start = int(frac * len(text))
        end = min(len(text), start + length)
        new_text = text[:start] + insert + text[end:]
        current = reparse(current, new_text, Edit(start, end, start + len(insert)))
        text = new_text
        assert signature(current) == signature(parse(text))
