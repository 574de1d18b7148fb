"""Navigation fixtures: `$0` marks the offset (tests/fixture.py); the expected context is a compact
description.

Each expectation is a dict of the Context fields to check:
  kind, chain (blocks from the root as "type label label"), type, labels, index (label_index),
  name, attr (attribute name), path, string (decoded value), at (decoded index), mode (string mode).
"""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from hcljson_fixtures import SCHEMAS

from hcljson_ls.hcljson.decode import decode_file
from hcljson_ls.hcljson.locate import locate
from hcljson_ls.jsonsyntax import parse

DOC = """{
  "//": "generated",
  "name": "n-${var.x}",
  "thing": {
    "kind": {
      "one": {
        "size": {"a": ["x", "y${z}"], "b": {"c": "d"}},
        "refs": ["aws.a", "b.c"],
        "doc": "lit ${x}",
        "tags": {"k": "v"},
        "links": {"aws": "aws.west"},
        "ignore": "all",
        "triggers": ["a.b", {"k": "t"}],
        "part": [{"p1": {"weight": 1}}, {"p2": {"note": "x"}}],
        "unknwn": "u",
        "count": 
      }
    }
  },
  "vars": {"v": "${a}"},
  "free": {"f": {"anything": {"deep": ["s"]}}},
  "nope": 1
}"""


def at(marker: str) -> str:
    """DOC with `$0` placed at the first occurrence of `marker` where marker's own `|` shows the
    cursor position (e.g. `"si|ze"`)."""
    before, after = marker.split("|")
    i = DOC.index(before + after)
    return DOC[: i + len(before)] + "$0" + DOC[i + len(before) :]


CASES = [
    # root body
    (at('"//|": "generated"'), dict(kind="comment", chain=[], name="//")),
    (at('"na|me"'), dict(kind="argument_name", chain=[], name="name", attr="name", string="name", at=2, mode="literal")),
    (at('"n-${v|ar.x}"'), dict(kind="value", attr="name", string="n-${var.x}", at=5, mode="template", path=())),
    (at('"no|pe"'), dict(kind="unknown_name", name="nope", chain=[])),
    (at('"nope": |1'), dict(kind="value", attr=None, name="nope")),
    (at('|{\n  "//"'), dict(kind="body", chain=[])),
    # block type and labels
    (at('"thi|ng"'), dict(kind="block_type", type="thing", name="thing", chain=[])),
    (at('"ki|nd"'), dict(kind="label", type="thing", labels=["kind"], index=0, string="kind", at=2)),
    (at('"o|ne"'), dict(kind="label", type="thing", labels=["kind", "one"], index=1, string="one", at=1)),
    (at('"kind": {|\n'), dict(kind="label_slot", type="thing", labels=["kind"], index=1)),
    (at('"thing": {|\n'), dict(kind="label_slot", type="thing", labels=[], index=0)),
    # inside a block body
    (at('"si|ze"'), dict(kind="argument_name", chain=["thing kind one"], attr="size", name="size")),
    (at('"one": {|\n'), dict(kind="body", chain=["thing kind one"])),
    (at('"unk|nwn"'), dict(kind="unknown_name", chain=["thing kind one"], name="unknwn")),
    (at('"count": |\n'), dict(kind="value", attr="count", chain=["thing kind one"])),
    # expressions: keys, nested values, modes
    (at('{"|a": ["x"'), dict(kind="value", attr="size", path=("a",), string="a", at=0, mode="template")),
    (at('["x", "y${|z}"]'), dict(kind="value", attr="size", path=("a", 1), string="y${z}", at=3, mode="template")),
    (at('{"c": "|d"}'), dict(kind="value", attr="size", path=("b", "c"), string="d", at=0, mode="template")),
    (at('["aws.a", "b|.c"]'), dict(kind="value", attr="refs", path=(1,), string="b.c", at=1, mode="traversal")),
    (at('"lit $|{x}"'), dict(kind="value", attr="doc", string="lit ${x}", at=5, mode="literal")),
    (at('{"k|": "v"}'), dict(kind="value", attr="tags", path=("k",), string="k", at=1, mode="literal")),
    (at('{"aws": "aws.we|st"}'), dict(kind="value", attr="links", path=("aws",), string="aws.west", at=6, mode="traversal")),
    (at('"ignore": "a|ll"'), dict(kind="value", attr="ignore", string="all", at=1, mode="keyword")),
    (at('["a|.b", {"k"'), dict(kind="value", attr="triggers", path=(0,), string="a.b", at=1, mode="native")),
    (at('{"k": "|t"}'), dict(kind="value", attr="triggers", path=(1, "k"), string="t", mode="template")),
    (at('["x", |"y${z}"]'), dict(kind="value", attr="size", path=("a", 1), string="y${z}", at=0)),
    (at('["x",| "y'), dict(kind="value", attr="size", path=("a",), string=None)),
    # nested blocks with array forms
    (at('"p|1"'), dict(kind="label", type="part", labels=["p1"], chain=["thing kind one"])),
    (at('"we|ight"'), dict(kind="argument_name", chain=["thing kind one", "part p1"], attr="weight")),
    (at('"no|te"'), dict(kind="argument_name", chain=["thing kind one", "part p2"], attr="note")),
    (at('{"note": "|x"}'), dict(kind="value", attr="note", string="x", mode="literal", chain=["thing kind one", "part p2"])),
    (at('"part": [|{'), dict(kind="label_slot", type="part", index=0)),
    # dynamic and open bodies
    (at('{"v": "${|a}"}'), dict(kind="value", chain=["vars"], attr="v", string="${a}", at=2, mode="template")),
    (at('"an|ything"'), dict(kind="argument_name", chain=["free f"], attr="anything")),
    (at('["|s"]'), dict(kind="value", chain=["free f"], attr="anything", path=("deep", 0), string="s", mode="template")),
]


def _describe(block) -> str:
    return " ".join([block.type_name, *block.label_values])


@pytest.mark.parametrize("annotated,expected", CASES, ids=[str(i) for i in range(len(CASES))])
def test_locate(annotated, expected):
    f = parse_fixture(annotated).only
    text, offset = f.text, f.cursor
    assert offset is not None
    tree = parse(text)
    body, _ = decode_file(text, tree.root, SCHEMAS["root"])
    ctx = locate(text, body, offset)
    got = {
        "kind": ctx.kind,
        "chain": [_describe(b) for b in ctx.blocks],
        "type": ctx.type_name,
        "labels": [lab.value for lab in ctx.labels],
        "index": ctx.label_index,
        "name": ctx.name,
        "attr": ctx.attribute.name if ctx.attribute is not None else None,
        "path": ctx.path,
        "string": ctx.string.value if ctx.string is not None else None,
        "at": ctx.string.index if ctx.string is not None else None,
        "mode": ctx.string.mode if ctx.string is not None else None,
    }
    assert {k: got[k] for k in expected} == expected, got


def test_locate_string_offsets_through_escapes():
    text = '{"name": "a\\nb${x}"}'
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    off = text.index("${x}") + 2  # on `x`
    ctx = locate(text, body, off)
    s = ctx.string
    assert s is not None and s.value == "a\nb${x}" and s.index == 5
    assert s.decoded.offsets[s.index] == off


def test_locate_outside_and_context_blocks_are_decoded_objects():
    text = '  {"thing": {"k": {"n": {"size": 1}}}}  '
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    assert locate(text, body, 0).kind == "outside"
    assert locate(text, body, len(text)).kind == "outside"
    ctx = locate(text, body, text.index('"size"') + 1)
    assert ctx.blocks[0] is body.blocks[0] and ctx.body is body.blocks[0].body
    assert ctx.attribute is body.blocks[0].body.attributes[0]
    assert ctx.schema is SCHEMAS["root"].blocks["thing"].body


def test_locate_label_and_type_key_name_their_first_block():
    text = '{"thing": {"k": {"a": {"size": 1}, "b": {"size": 2}}}}'
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    ctx = locate(text, body, text.index('"k"') + 1)
    assert ctx.kind == "label" and ctx.block is body.blocks[0]
    ctx = locate(text, body, text.index('"b"') + 1)
    assert ctx.kind == "label" and ctx.block is body.blocks[1]
    ctx = locate(text, body, 2)
    assert ctx.kind == "block_type" and ctx.block is body.blocks[0] and ctx.block_schema.labels == ("kind", "name")


def test_locate_deep_expression_iteratively():
    depth = 20_000
    text = '{"name": ' + "[" * depth + '"x"' + "]" * depth + "}"
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    ctx = locate(text, body, text.index('"x"') + 1)
    assert ctx.kind == "value" and len(ctx.path) == depth and ctx.string.value == "x"


@pytest.mark.parametrize("offset", range(0, 60))
def test_locate_never_fails_on_broken_input(offset):
    text = '{"thing": {"k": {size: [1, "a\\q", }, "part": [3, {"p": }]}}'
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    ctx = locate(text, body, min(offset, len(text)))
    assert ctx.kind


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

KINDS = {"outside", "body", "comment", "block_type", "label", "label_slot", "body_slot", "argument_name",
         "unknown_name", "value"}


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(DOC)), st.integers(0, 40), st.sampled_from(["", "{", "}", "[", '"', ":", ",", "x"]),
       st.lists(st.integers(0, len(DOC) + 40), min_size=1, max_size=8))
def test_locate_total_on_mangled_documents(start, length, insert, offsets):
    """Whatever the edit, every offset gets a context, with ranges inside the text."""
    text = DOC[:start] + insert + DOC[start + length :]
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    for off in offsets:
        off = min(off, len(text))
        ctx = locate(text, body, off)
        assert ctx.kind in KINDS
        if ctx.name_range is not None:
            assert 0 <= ctx.name_range[0] <= ctx.name_range[1] <= len(text)
        if ctx.string is not None:
            assert 0 <= ctx.string.index <= len(ctx.string.value)
            assert ctx.string.start <= off <= ctx.string.end
