"""Formatting: the layout rule, kept tokens, minimal and idempotent edits, ranges (features.formatting).

The properties generate valid JSON texts as a tree of raw lexemes (numbers spelled in every way JSON
allows, strings with escapes, duplicate and `"//"` keys) laid out with random whitespace, and check
the formatted text against a renderer of the same tree written here from the documented rule."""

from __future__ import annotations

import json
import random

import pytest
from feat_support import apply_edits
from fixture import parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features.formatting import MAX_TAB_SIZE, WIDTH, Layout, document_edits, format_document, format_range, range_edits
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.scanner import WS, scan

# -- generated documents: a tree of raw lexemes ------------------------------------------------------

numbers = st.sampled_from(["0", "-0", "1", "42", "-7", "2.50", "1e5", "1E+2", "-3.0e-2", "123456789012345678901234567890", "0.1"])
plain = st.text(alphabet="abcxyz_-. é/", max_size=10)
escapes = st.sampled_from(["\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00", "\\t", "${var.x}"])
strings = st.lists(plain | escapes, max_size=3).map(lambda parts: '"' + "".join(parts) + '"')
scalars = numbers | strings | st.sampled_from(["true", "false", "null"])
keys = strings | st.sampled_from(['"//"', '"a"', '"a"'])  # "a" twice: duplicates are common
trees = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5).map(lambda xs: ("array", xs))
    | st.lists(st.tuples(keys, inner), max_size=4).map(lambda ms: ("object", ms)),
    max_leaves=30,
)
layouts = st.builds(Layout, st.sampled_from([1, 2, 4, 8]), st.booleans(), st.sampled_from([None, False, True]),
                    st.sampled_from([None, False, True]))


def scatter(tree, rng: random.Random) -> str:
    """`tree` as JSON with random whitespace in every gap (and at both ends)."""

    def ws() -> str:
        return "".join(rng.choice(["", " ", "\t", "\n", "\r\n", "\r", "  \n    "]) for _ in range(rng.randint(0, 2)))

    def render(node) -> str:
        if isinstance(node, str):
            return node
        kind, items = node
        if kind == "array":
            parts = [ws() + render(x) + ws() for x in items]
            return "[" + ",".join(parts) + ws() + "]"
        parts = [ws() + k + ws() + ":" + ws() + render(v) + ws() for k, v in items]
        return "{" + ",".join(parts) + ws() + "}"

    return ws() + render(tree) + ws()


def reference(tree, layout: Layout, eol: str = "\n") -> str:
    """The documented layout, written independently of the formatter (recursively: trees are small)."""
    unit = " " * layout.tab_size if layout.insert_spaces else "\t"
    tab = max(layout.tab_size, 1)

    def columns(s: str) -> int:
        return len(s.expandtabs(tab)) if "\t" in s else len(s)

    def render(node, depth: int, prefix: str, comma: str) -> str:
        if isinstance(node, str):
            return node
        kind, items = node
        if not items:
            return "{}" if kind == "object" else "[]"
        indent = unit * (depth + 1)
        if kind == "array":
            if all(isinstance(x, str) for x in items):
                line = "[" + ", ".join(items) + "]"
                if columns(unit * depth) + len(prefix) + len(line) + len(comma) <= WIDTH:
                    return line
            body = [indent + render(x, depth + 1, "", "," if i < len(items) - 1 else "") for i, x in enumerate(items)]
        else:
            body = [indent + k + ": " + render(v, depth + 1, k + ": ", "," if i < len(items) - 1 else "")
                    for i, (k, v) in enumerate(items)]
        close = "}" if kind == "object" else "]"
        return ("{" if kind == "object" else "[") + eol + ("," + eol).join(body) + eol + unit * depth + close

    return render(tree, 0, "", "")


def lexemes(text: str) -> list[str]:
    return [t.rstrip(WS) for t in scan(text) if t.rstrip(WS)]


def values(text: str):
    """Values with key order, duplicates and numbers as written."""
    return json.loads(text, object_pairs_hook=list, parse_float=str, parse_int=str)


def formatted(text: str, layout: Layout = Layout()) -> str:
    return apply_edits(text, document_edits(text, layout))


def first_break(text: str) -> str:
    for i, ch in enumerate(text):
        if ch == "\n":
            return "\n"
        if ch == "\r":
            return "\r\n" if text.startswith("\n", i + 1) else "\r"
    return "\n"


# -- properties ----------------------------------------------------------------------------------------


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(trees, st.randoms(use_true_random=False), layouts)
def test_formatting_follows_the_layout_keeps_every_token_and_is_idempotent(tree, rng, layout):
    text = scatter(tree, rng)
    assert parse(text, require_body=False).diagnostics == []
    edits = document_edits(text, layout)
    for start, end, new in edits:  # only whitespace between tokens, sorted and disjoint
        assert not text[start:end].strip(WS) and not new.strip(WS)
    assert all(a[1] <= b[0] for a, b in zip(edits, edits[1:]))
    out = apply_edits(text, edits)
    assert lexemes(out) == lexemes(text)  # keys, strings with their escapes, numbers as written
    assert values(out) == values(text)
    eol = first_break(text)
    body = out.rstrip(WS)
    assert body == reference(tree, layout, eol)
    tail = out[len(body):]
    assert tail.strip("\r\n") == "" and len(tail) % len(eol) == 0 and tail == eol * (len(tail) // len(eol))
    assert document_edits(out, layout) == []
    # the whole range is the whole document
    assert range_edits(text, parse(text, require_body=False).root, 0, len(text), layout) == edits


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(trees, st.randoms(use_true_random=False), st.data())
def test_range_formatting_edits_only_the_range_lines_and_agrees_with_the_whole(tree, rng, data):
    text = scatter(tree, rng)
    root = parse(text, require_body=False).root
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    edits = range_edits(text, root, a, b, Layout())
    first = max(text.rfind("\n", 0, a), text.rfind("\r", 0, a)) + 1
    last = b - 1 if b > a and b > 0 and text[b - 1] in "\r\n" else b
    ends = [i for i in (text.find("\n", last), text.find("\r", last)) if i >= 0]
    line_end = max(min(ends) if ends else len(text), b)
    for start, end, new in edits:
        assert first <= start <= end <= line_end
        assert not text[start:end].strip(WS) and not new.strip(WS)
    out = apply_edits(text, edits)
    assert lexemes(out) == lexemes(text)
    # a formatted document has nothing left to format in any range
    formatted = apply_edits(text, document_edits(text, Layout()))
    assert range_edits(formatted, parse(formatted, require_body=False).root, min(a, len(formatted)),
                       min(b, len(formatted)), Layout()) == []


# -- examples ----------------------------------------------------------------------------------------


def test_layout_of_a_cdktf_like_document():
    text = ('{"//":{"metadata":{"version":"0.20.0","stackName":"app"}},"terraform":{"required_providers":{}},'
            '"resource":{"terraform_data":{"a":{"triggers_replace":["${var.a}","${var.b}"],"input":[]},'
            '"a":{"depends_on":["terraform_data.b"]}}}}\n')
    out = apply_edits(text, document_edits(text, Layout()))
    assert out == """{
  "//": {
    "metadata": {
      "version": "0.20.0",
      "stackName": "app"
    }
  },
  "terraform": {
    "required_providers": {}
  },
  "resource": {
    "terraform_data": {
      "a": {
        "triggers_replace": ["${var.a}", "${var.b}"],
        "input": []
      },
      "a": {
        "depends_on": ["terraform_data.b"]
      }
    }
  }
}
"""


def test_a_scalar_array_goes_on_one_line_exactly_when_its_line_fits_in_80_columns():
    def array_of(n: int, layout: Layout = Layout()) -> str:
        return formatted('{"k": ["' + "x" * n + '"]}', layout)

    # `  "k": ["x..."]` is 11 columns around the x's
    assert array_of(WIDTH - 11) == '{\n  "k": ["' + "x" * (WIDTH - 11) + '"]\n}'
    assert array_of(WIDTH - 10) == '{\n  "k": [\n    "' + "x" * (WIDTH - 10) + '"\n  ]\n}'
    # a tab counts tab_size columns
    assert array_of(WIDTH - 11 - 6, Layout(8, False)).count("\n") == 2
    assert array_of(WIDTH - 11 - 5, Layout(8, False)).count("\n") == 4


def test_the_comma_after_an_array_counts_and_arrays_of_containers_are_one_per_line():
    row = "[" + ", ".join(['"xxxxxxxxx"'] * 6) + "]"  # 78 columns, 80 with its indentation
    text = "[" + row + ',[1],[{}],[[]]]'
    assert apply_edits(text, document_edits(text, Layout())) == (
        '[\n  [\n' + ',\n'.join(['    "xxxxxxxxx"'] * 6) + '\n  ],\n'  # 81 columns with its comma
        '  [1],\n  [\n    {}\n  ],\n  [\n    []\n  ]\n]'
    )
    text = "[" + row + "]"  # without the comma it fits
    assert apply_edits(text, document_edits(text, Layout())) == "[\n  " + row + "\n]"


def test_edits_are_minimal():
    text = '{\n  "a": 1,\n    "b": [1,2],\n  "c": {}\n}\n'
    assert document_edits(text, Layout()) == [(14, 16, ""), (24, 24, " ")]
    assert document_edits(apply_edits(text, document_edits(text, Layout())), Layout()) == []


def test_line_breaks_follow_the_document():
    assert formatted('{"a": 1,\r\n"b": 2}') == '{\r\n  "a": 1,\r\n  "b": 2\r\n}'
    assert formatted('{"a": 1,\r"b": 2}') == '{\r  "a": 1,\r  "b": 2\r}'
    assert formatted('{"a": 1}') == '{\n  "a": 1\n}'


def test_final_newlines():
    text = '{}\n\n\n'
    assert apply_edits(text, document_edits(text, Layout())) == text
    assert apply_edits(text, document_edits(text, Layout(trim_final_newlines=True))) == "{}\n"
    assert apply_edits("{}", document_edits("{}", Layout(insert_final_newline=True))) == "{}\n"
    assert apply_edits("{}  ", document_edits("{}  ", Layout())) == "{}"


def test_documents_with_syntax_errors_get_no_edit_and_others_do(tmp_path):
    ws = parse_fixture('''
        //- /bad.tf.json
        {"a": 1,}
        //- /comment.tf.json
        {"a": 1 // note
        }
        //- /array.tf.json
        [ {"a":1} ]
        //- /list.tfvars.json
        [ "x",1 ]
    ''').workspace(tmp_path, open=["/bad.tf.json", "/comment.tf.json", "/array.tf.json", "/list.tfvars.json"])
    snap = ws.snapshot()
    for path in ("/bad.tf.json", "/comment.tf.json"):
        assert format_document(snap, ws.uri(path), Layout()) == []
        assert format_range(snap, ws.uri(path), 0, 3, Layout()) == []
    text = snap.document(ws.uri("/array.tf.json")).text
    assert apply_edits(text, format_document(snap, ws.uri("/array.tf.json"), Layout())) == '[\n  {\n    "a": 1\n  }\n]\n'
    # not an HCL body (`syntax/root-not-body`), but valid JSON: still formatted
    text = snap.document(ws.uri("/list.tfvars.json")).text
    assert apply_edits(text, format_document(snap, ws.uri("/list.tfvars.json"), Layout())) == '["x", 1]\n'
    assert format_document(snap, "file:///nowhere.tf.json", Layout()) is None


def test_range_formatting_uses_the_current_indentation_of_the_container():
    fixture = parse_fixture('{\n    "locals": {"a": [1,2],\n$0"b":{"c":1}$0}}\n').only
    text = fixture.text
    start, end = fixture.selection
    out = apply_edits(text, range_edits(text, parse(text).root, start, end, Layout()))
    assert out == '{\n    "locals": {"a": [1,2],\n      "b": {\n        "c": 1\n      }\n    }}\n'


@pytest.mark.parametrize("text", ['{"a": [1, 2]}', '{"a": []}', "[]"])
def test_cursor_ranges_in_single_line_documents(text):
    for offset in range(len(text) + 1):
        edits = range_edits(text, parse(text, require_body=False).root, offset, offset, Layout())
        assert lexemes(apply_edits(text, edits)) == lexemes(text)


def test_absurd_nesting_gives_no_edit_and_a_huge_tab_size_is_clamped():
    deep = "[" * 20_000 + "]" * 20_000  # laid out, its indentation alone would be ~800 M characters
    assert document_edits(deep, Layout()) == []
    assert range_edits(deep, parse(deep, require_body=False).root, 5, 5, Layout()) == []
    moderate = "[" * 50 + "]" * 50
    assert formatted(moderate).count("\n") == 98
    pad = " " * MAX_TAB_SIZE
    assert formatted('{"a": {"b": 1}}', Layout(tab_size=10**12)) == '{\n' + pad + '"a": {\n' + pad * 2 + '"b": 1\n' + pad + '}\n}'
