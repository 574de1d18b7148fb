"""Navigation fixtures: a named mark `$[name]` in DOC, or `$0`, marks the offset (tests/fixture.py);
the expected context is a compact description.

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

DOC = """$[root]{
  "//$[comment]": "generated",
  "na$[name_key]me": "n-${v$[name_template]ar.x}",
  "thi$[thing_key]ng": {$[thing_slot]
    "ki$[kind_label]nd": {$[kind_slot]
      "o$[one_label]ne": {$[one_body]
        "si$[size_key]ze": {"$[size_a_key]a": ["x",$[size_a_comma] $[size_a_1_quote]"y${$[size_a_1]z}"], "b": {"c": "$[size_b_c]d"}},
        "refs": ["aws.a", "b$[refs_1].c"],
        "doc": "lit $$[doc_dollar]{x}",
        "tags": {"k$[tags_k]": "v"},
        "links": {"aws": "aws.we$[links_aws]st"},
        "ignore": "a$[ignore_value]ll",
        "triggers": ["a$[triggers_0].b", {"k": "$[triggers_1_k]t"}],
        "part": [$[part_slot]{"p$[part_p1]1": {"we$[weight_key]ight": 1}}, {"p2": {"no$[note_key]te": "$[note_value]x"}}],
        "unk$[unknwn_key]nwn": "u",
        "count": $[count_value]
      }
    }
  },
  "vars": {"v": "${$[vars_v]a}"},
  "free": {"f": {"an$[anything_key]ything": {"deep": ["$[deep_0]s"]}}},
  "no$[nope_key]pe": $[nope_value]1
}"""
DOC_FILE = parse_fixture(DOC).only


CASES = [
    # root body
    ("comment", dict(kind="comment", chain=[], name="//")),
    ("name_key", dict(kind="argument_name", chain=[], name="name", attr="name", string="name", at=2, mode="literal")),
    ("name_template", dict(kind="value", attr="name", string="n-${var.x}", at=5, mode="template", path=())),
    ("nope_key", dict(kind="unknown_name", name="nope", chain=[])),
    ("nope_value", dict(kind="value", attr=None, name="nope")),
    ("root", dict(kind="body", chain=[])),
    # block type and labels
    ("thing_key", dict(kind="block_type", type="thing", name="thing", chain=[])),
    ("kind_label", dict(kind="label", type="thing", labels=["kind"], index=0, string="kind", at=2)),
    ("one_label", dict(kind="label", type="thing", labels=["kind", "one"], index=1, string="one", at=1)),
    ("kind_slot", dict(kind="label_slot", type="thing", labels=["kind"], index=1)),
    ("thing_slot", dict(kind="label_slot", type="thing", labels=[], index=0)),
    # inside a block body
    ("size_key", dict(kind="argument_name", chain=["thing kind one"], attr="size", name="size")),
    ("one_body", dict(kind="body", chain=["thing kind one"])),
    ("unknwn_key", dict(kind="unknown_name", chain=["thing kind one"], name="unknwn")),
    ("count_value", dict(kind="value", attr="count", chain=["thing kind one"])),
    # expressions: keys, nested values, modes
    ("size_a_key", dict(kind="value", attr="size", path=("a",), string="a", at=0, mode="template")),
    ("size_a_1", dict(kind="value", attr="size", path=("a", 1), string="y${z}", at=3, mode="template")),
    ("size_b_c", dict(kind="value", attr="size", path=("b", "c"), string="d", at=0, mode="template")),
    ("refs_1", dict(kind="value", attr="refs", path=(1,), string="b.c", at=1, mode="traversal")),
    ("doc_dollar", dict(kind="value", attr="doc", string="lit ${x}", at=5, mode="literal")),
    ("tags_k", dict(kind="value", attr="tags", path=("k",), string="k", at=1, mode="literal")),
    ("links_aws", dict(kind="value", attr="links", path=("aws",), string="aws.west", at=6, mode="traversal")),
    ("ignore_value", dict(kind="value", attr="ignore", string="all", at=1, mode="keyword")),
    ("triggers_0", dict(kind="value", attr="triggers", path=(0,), string="a.b", at=1, mode="native")),
    ("triggers_1_k", dict(kind="value", attr="triggers", path=(1, "k"), string="t", mode="template")),
    ("size_a_1_quote", dict(kind="value", attr="size", path=("a", 1), string="y${z}", at=0)),
    ("size_a_comma", dict(kind="value", attr="size", path=("a",), string=None)),
    # nested blocks with array forms
    ("part_p1", dict(kind="label", type="part", labels=["p1"], chain=["thing kind one"])),
    ("weight_key", dict(kind="argument_name", chain=["thing kind one", "part p1"], attr="weight")),
    ("note_key", dict(kind="argument_name", chain=["thing kind one", "part p2"], attr="note")),
    ("note_value", dict(kind="value", attr="note", string="x", mode="literal", chain=["thing kind one", "part p2"])),
    ("part_slot", dict(kind="label_slot", type="part", index=0)),
    # dynamic and open bodies
    ("vars_v", dict(kind="value", chain=["vars"], attr="v", string="${a}", at=2, mode="template")),
    ("anything_key", dict(kind="argument_name", chain=["free f"], attr="anything")),
    ("deep_0", dict(kind="value", chain=["free f"], attr="anything", path=("deep", 0), string="s", mode="template")),
]


def _describe(block) -> str:
    return " ".join([block.type_name, *block.label_values])


@pytest.mark.parametrize("mark,expected", CASES, ids=[mark for mark, _ in CASES])
def test_locate(mark, expected):
    text, offset = DOC_FILE.text, DOC_FILE.marks[mark]
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
    f = parse_fixture('{"name": "a\\nb${$0x}"}').only
    text, off = f.text, f.cursor
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    ctx = locate(text, body, off)
    s = ctx.string
    assert s is not None and s.value == "a\nb${x}" and s.index == 5
    assert s.decoded.offsets[s.index] == off


def test_locate_outside_and_context_blocks_are_decoded_objects():
    f = parse_fixture('$[start]  {"thing": {"k": {"n": {"$0size": 1}}}}  $[end]').only
    text = f.text
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    assert locate(text, body, f.marks["start"]).kind == "outside"
    assert locate(text, body, f.marks["end"]).kind == "outside"
    ctx = locate(text, body, f.cursor)
    assert ctx.blocks[0] is body.blocks[0] and ctx.body is body.blocks[0].body
    assert ctx.attribute is body.blocks[0].body.attributes[0]
    assert ctx.schema is SCHEMAS["root"].blocks["thing"].body


def test_locate_label_and_type_key_name_their_first_block():
    f = parse_fixture('{"$[type]thing": {"$[k]k": {"a": {"size": 1}, "$[b]b": {"size": 2}}}}').only
    text = f.text
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    ctx = locate(text, body, f.marks["k"])
    assert ctx.kind == "label" and ctx.block is body.blocks[0]
    ctx = locate(text, body, f.marks["b"])
    assert ctx.kind == "label" and ctx.block is body.blocks[1]
    ctx = locate(text, body, f.marks["type"])
    assert ctx.kind == "block_type" and ctx.block is body.blocks[0] and ctx.block_schema.labels == ("kind", "name")


def test_locate_deep_expression_iteratively():
    depth = 20_000
    f = parse_fixture('{"name": ' + "[" * depth + '"$0x"' + "]" * depth + "}").only
    text = f.text
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    ctx = locate(text, body, f.cursor)
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
@given(st.integers(0, len(DOC_FILE.text)), st.integers(0, 40), st.sampled_from(["", "{", "}", "[", '"', ":", ",", "x"]),
       st.lists(st.integers(0, len(DOC_FILE.text) + 40), min_size=1, max_size=8))
def test_locate_total_on_mangled_documents(start, length, insert, offsets):
    """Whatever the edit, every offset gets a context, with ranges inside the text."""
    text = DOC_FILE.text[:start] + insert + DOC_FILE.text[start + length :]
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
