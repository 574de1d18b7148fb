"""Data-driven fixtures for the HCL JSON decoder: every rule, in object AND array forms at each
level (block value, label level, body). Each source marks the exact ranges (`⟨...⟩`) of the
expected diagnostics, listed with their codes in source order; `outline` is the expected decoded
structure (None: not checked). Every fixture also checks the structural invariants. Markers: see
tests/fixture.py."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from hcljson_fixtures import SCHEMAS, check_invariants, outline

from hcljson_ls.hcljson.decode import decode_body, decode_file
from hcljson_ls.jsonsyntax import parse

U_ARG = "structure/unknown-argument"
U_BLOCK = "structure/unknown-block-type"

CASES = [
    # id, schema, annotated source, expected codes, expected outline
    # ---- bodies: object, array of objects, comments, order, duplicates --------------------------
    ("empty-object", "root", "{}", [], ""),
    ("empty-array", "root", "[]", [], ""),
    ("array-of-objects", "root", '[{"name": 1}, {"version": "v"}]', [], "name version"),
    ("comment-root", "root", '{"//": "generated", "name": 1, "//": "twice"}', [], "name"),
    ("comment-in-array-body", "root", '[{"//": "x"}, {"name": 1}]', [], "name"),
    ("comment-in-block-body", "root", '{"thing": {"a": {"b": {"//": "c", "size": 1}}}}', [], 'thing "a" "b" {size}'),
    ("comment-as-label", "root", '{"thing": {"//": {"b": {"size": 1}}}}', [], 'thing "//" "b" {size}'),
    ("comment-in-expression", "root", '{"name": {"//": 1, "x": 2}}', [], "name"),
    ("order-kept", "root", '{"version": "1", "name": 2}', [], "version name"),
    ("duplicate-argument", "root", '{"name": 1, ⟨"name"⟩: 2}', ["structure/duplicate-argument"], "name"),
    ("duplicate-across-array", "root", '[{"name": 1}, {⟨"name"⟩: 2}]', ["structure/duplicate-argument"], "name"),
    ("unknown-argument", "root", '{⟨"nmae"⟩: 1}', [U_ARG], ""),
    ("unknown-block-type", "blocks", '{⟨"thnig"⟩: {}}', [U_BLOCK], ""),
    ("unknown-in-body", "root", '{"thing": {"a": {"b": {"size": 1, ⟨"sise"⟩: 2}}}}', [U_ARG], 'thing "a" "b" {size}'),
    ("escaped-key", "root", '{"n\\u0061me": 1}', [], "name"),
    # body of a block: wrong types
    ("block-value-string", "root", '{"settings": ⟨"x"⟩}', ["structure/block-type"], ""),
    ("block-value-number", "root", '{"thing": {"a": {"b": ⟨1⟩}}}', ["structure/block-type"], ""),
    ("body-array-element", "root", '{"any": {"a": [{}, ⟨2⟩]}}', ["structure/body-type"], 'any "a" {} any "a" {}'),
    ("body-array-of-arrays", "root", '{"settings": [[{"level": 1}, ⟨3⟩]]}', ["structure/body-element-type"], "settings {level}"),
    ("null-block", "root", '{"settings": null}', [], ""),
    ("null-in-block-array", "root", '{"settings": [null]}', [], "settings {}"),
    ("empty-block-array", "root", '{"settings": []}', [], ""),
    ("blocks-array", "root", '{"thing": {"a": {"b": [{"size": 1}, {"size": 2}]}}}', [], 'thing "a" "b" {size} thing "a" "b" {size}'),
    # ---- labels: object and array levels, flattening, missing labels ---------------------------
    ("labels-object", "root", '{"thing": {"k": {"n1": {"size": 1}, "n2": {"size": 2}}}}', [],
     'thing "k" "n1" {size} thing "k" "n2" {size}'),
    ("labels-array-first-level", "root", '{"thing": [{"k": {"n": {"size": 1}}}, {"k": {"m": {"size": 2}}}]}', [],
     'thing "k" "n" {size} thing "k" "m" {size}'),
    ("labels-array-second-level", "root", '{"thing": {"k": [{"n": {"size": 1}}, {"n": {"size": 2}}]}}', [],
     'thing "k" "n" {size} thing "k" "n" {size}'),
    ("labels-duplicate-keys", "root", '{"thing": {"k": {"n": {"size": 1}}, "k": {"n": {"size": 2}}}}', [],
     'thing "k" "n" {size} thing "k" "n" {size}'),
    ("label-level-string", "root", '{"thing": ⟨"k"⟩}', ["structure/label-type"], ""),
    ("label-level-number", "root", '{"thing": {"k": ⟨5⟩}}', ["structure/label-type"], ""),
    ("label-array-element", "root", '{"thing": [⟨"k"⟩, {"k": {"n": {"size": 1}}}]}', ["structure/label-element-type"], 'thing "k" "n" {size}'),
    ("missing-label-empty", "root", '{"thing": ⟨{}⟩}', ["structure/missing-label"], ""),
    ("missing-label-second", "root", '{"thing": {"k": ⟨{}⟩}}', ["structure/missing-label"], ""),
    ("missing-label-null", "root", '{"thing": {"k": ⟨null⟩}}', ["structure/missing-label"], ""),
    ("missing-label-empty-array", "root", '{"thing": ⟨[]⟩}', ["structure/missing-label"], ""),
    ("missing-label-array-of-empty", "root", '{"thing": ⟨[{}]⟩}', ["structure/missing-label"], ""),
    ("label-then-null-body", "root", '{"suite": {"s": null}}', [], ""),
    ("escaped-label", "root", '{"suite": {"\\u0073": {"case": {"c": {}}}}}', [], 'suite "s" {case "c" {}}'),
    # ---- required arguments and block counts ---------------------------------------------------
    # (a missing argument or block is reported on the body's closing brace, as Terraform does)
    ("missing-required", "root", '{"thing": {"k": {"n": {⟨}⟩}}}', ["structure/missing-argument"], 'thing "k" "n" {}'),
    ("missing-required-array-body", "root", '{"thing": {"k": {"n": [{"size": 1}, {⟨}⟩]}}}', ["structure/missing-argument"],
     'thing "k" "n" {size} thing "k" "n" {}'),
    ("required-in-array-body", "root", '{"thing": {"k": {"n": [[{"count": 1}, {"size": 1}]]}}}', [], 'thing "k" "n" {count size}'),
    ("missing-required-root", "required", '{"version": "1"⟨}⟩', ["structure/missing-argument"], "version"),
    ("required-null-value-counts", "root", '{"thing": {"k": {"n": {"size": null}}}}', [], None),
    ("too-many-blocks", "root", '{"settings": {}, "settings": ⟨{⟩}}', ["structure/too-many-blocks"], "settings {} settings {}"),
    ("too-many-blocks-array", "root", '{"settings": ⟨[⟩{}, {}]}', ["structure/too-many-blocks"], "settings {} settings {}"),
    ("too-few-blocks", "root", '{"suite": {"s": {"title": "t"⟨}⟩}}', ["structure/too-few-blocks"], 'suite "s" {title}'),
    # ---- dynamic attributes --------------------------------------------------------------------
    ("dynamic", "root", '{"vars": {"a": 1, "b": "${x}", "//": "c"}}', [], "vars {a b}"),
    ("dynamic-duplicate", "root", '{"vars": {"a": 1, ⟨"a"⟩: 2}}', ["structure/duplicate-argument"], "vars {a}"),
    ("dynamic-several-blocks", "root", '{"vars": [{"a": 1}, {"a": 2}]}', [], "vars {a} vars {a}"),
    ("dynamic-needs-object", "root", '{"vars": [⟨[{"a": 1}]⟩]}', ["structure/dynamic-body-type"], "vars {}"),
    ("dynamic-null-element", "root", '{"vars": [⟨null⟩]}', ["structure/dynamic-body-type"], "vars {}"),
    # ---- open bodies ---------------------------------------------------------------------------
    ("open-attributes", "root", '{"free": {"f": {"id": "x", "anything": {"a": 1}, "anything": 2}}}', [], 'free "f" {id anything anything}'),
    ("open-attribute-values-checked", "root", '{"free": {"f": {"x": {"a": 1, ⟨"a"⟩: 2}}}}', ["structure/duplicate-key"], None),
    ("open-blocks", "root", '{"blocky": {"id": 1, "nested": {"deep": {"x": 1}}}}', [], "blocky {id nested {deep}}"),
    ("open-blocks-wrong-value", "root", '{"blocky": {"nested": ⟨3⟩}}', ["structure/block-type"], "blocky {}"),
    ("any-block-body-open", "root", '{"any": {"a": {"x": 1, "y": {"z": 2}}}}', [], 'any "a" {x y}'),
    ("open-root", "open", '{"a": 1, "b": [1, 2]}', [], "a b"),
    # ---- expressions ---------------------------------------------------------------------------
    ("expression-kinds", "thing", '{"size": [1, "a", true, null, {"k": 2}], "count": 1.5e3}', [], "size count"),
    ("duplicate-key", "thing", '{"size": {"a": 1, ⟨"a"⟩: 2}}', ["structure/duplicate-key"], "size"),
    ("duplicate-key-deep", "thing", '{"size": [[{"b": {"a": 1, ⟨"a"⟩: 2}}]]}', ["structure/duplicate-key"], "size"),
    ("duplicate-key-escaped", "thing", '{"size": {"a": 1, ⟨"\\u0061"⟩: 2}}', ["structure/duplicate-key"], "size"),
    ("different-template-keys", "thing", '{"size": {"${a}": 1, "${b}": 2}}', [], "size"),
    ("literal-string-ok", "thing", '{"size": 1, "doc": "plain"}', [], "size doc"),
    ("literal-string-null", "thing", '{"size": 1, "doc": null}', [], "size doc"),
    ("literal-string-type", "thing", '{"size": 1, "doc": ⟨[1]⟩}', ["structure/value-type"], "size doc"),
    ("template-in-literal", "thing", '{"size": 1, "doc": "a ⟨${⟩x}"}', ["structure/template-in-literal"], "size doc"),
    ("directive-in-literal", "thing", '{"size": 1, "doc": "⟨%{⟩ if x }"}', ["structure/template-in-literal"], "size doc"),
    ("escaped-template-in-literal", "thing", '{"size": 1, "doc": ⟨"\\u0024{x}"⟩}', ["structure/template-in-literal"], "size doc"),
    ("template-in-literal-deep", "thing", '{"size": 1, "data": {"a": ["⟨${⟩x}"]}}', ["structure/template-in-literal"], None),
    ("literal-any-json", "thing", '{"size": 1, "data": [1, {"a": null}, false]}', [], None),
    ("template-in-expression-ok", "thing", '{"size": "${x}"}', [], None),
    ("traversal", "thing", '{"size": 1, "ref": "a.b"}', [], None),
    ("traversal-not-string", "thing", '{"size": 1, "ref": ⟨["a.b"]⟩}', ["structure/value-type"], None),
    ("traversal-null", "thing", '{"size": 1, "ref": ⟨null⟩}', ["structure/value-type"], None),
    ("traversal-list", "thing", '{"size": 1, "refs": ["a.b", "c"]}', [], None),
    ("traversal-list-string", "thing", '{"size": 1, "refs": ⟨"a.b"⟩}', ["structure/value-type"], None),
    ("traversal-list-element", "thing", '{"size": 1, "refs": ["a", ⟨1⟩, ⟨{}⟩]}', ["structure/value-type"] * 2, None),
    ("type", "thing", '{"size": 1, "type": "list(string)"}', [], None),
    ("type-not-string", "thing", '{"size": 1, "type": ⟨{"a": "string"}⟩}', ["structure/value-type"], None),
    ("keyword", "thing", '{"size": 1, "ignore": "all"}', [], None),
    ("keyword-list", "thing", '{"size": 1, "ignore": ["a", "b.c"]}', [], None),
    ("keyword-wrong", "thing", '{"size": 1, "ignore": ⟨true⟩}', ["structure/value-type"], None),
    ("map-of-literals", "thing", '{"size": 1, "tags": {"a": "1", "b": "2"}}', [], None),
    ("map-of-literals-template", "thing", '{"size": 1, "tags": {"b": "⟨${⟩x}"}}', ["structure/template-in-literal"], None),
    ("map-of-literals-value", "thing", '{"size": 1, "tags": {"a": ⟨1⟩}}', ["structure/value-type"], None),
    ("map-of-literals-dup", "thing", '{"size": 1, "tags": {"a": "1", ⟨"a"⟩: "2"}}', ["structure/duplicate-key"], None),
    ("map-not-object", "thing", '{"size": 1, "links": ⟨["a"]⟩}', ["structure/value-type"], None),
    ("traversal-map", "thing", '{"size": 1, "links": {"aws": "aws.west"}}', [], None),
    ("native", "thing", '{"size": 1, "call": "f(x)"}', [], None),
    ("native-non-string", "thing", '{"size": 1, "call": {"a": [1]}}', [], None),
    ("native-list", "thing", '{"size": 1, "triggers": ["a.b", {"x": 1}, null]}', [], None),
    ("native-list-not-array", "thing", '{"size": 1, "triggers": ⟨"a"⟩}', ["structure/value-type"], None),
    ("native-list-object-dup", "thing", '{"size": 1, "triggers": [{"x": 1, ⟨"x"⟩: 2}]}', ["structure/duplicate-key"], None),
    # ---- broken JSON: no cascades ----------------------------------------------------------------
    ("missing-value", "thing", '{"size": }', [], "size"),
    ("bare-value", "thing", '{"size": True}', [], "size"),
    ("bare-key", "thing", '{size: 1}', [], "size"),
    ("unclosed", "root", '{"thing": {"k": {"n": {"size": 1', [], 'thing "k" "n" {size}'),
    ("block-value-missing", "root", '{"settings": }', [], ""),
    ("label-value-missing", "root", '{"thing": {"k": }}', [], ""),
]

IDS = [c[0] for c in CASES]
assert len(set(IDS)) == len(IDS), "duplicate fixture ids"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_decode_fixture(case):
    _id, schema_name, annotated, codes, expected_outline = case
    f = parse_fixture(annotated).only
    text, ranges = f.text, f.ranges
    tree = parse(text)
    body, diags = decode_file(text, tree.root, SCHEMAS[schema_name])
    structural = [d for d in diags if d.code.startswith("structure/")]
    got = [(d.code, (d.start, d.end)) for d in structural]
    assert got == list(zip(codes, ranges)), "\n".join(f"{d.code} {text[d.start:d.end]!r}: {d.message}" for d in structural)
    for d in structural:
        assert d.summary and d.detail.endswith((".", "?")), d
    if expected_outline is not None:
        assert outline(body) == expected_outline
    check_invariants(text, body)


def test_suggestion_in_unknown_names():
    text = '{"thnig": {}, "settigns": {}, "zzz": 1}'
    _, diags = decode_file(text, parse(text).root, SCHEMAS["root"])
    details = [d.detail for d in diags]
    assert 'Did you mean "thing"?' in details[0]
    assert 'Did you mean "settings"?' in details[1]
    assert "Did you mean" not in details[2]
    assert [d.summary for d in diags] == [
        'Unknown argument or block type "thnig"',
        'Unknown argument or block type "settigns"',
        'Unknown argument or block type "zzz"',
    ]


def test_block_only_and_attribute_only_wording():
    text = '{"setings": {}}'
    _, diags = decode_file(text, parse(text).root, SCHEMAS["blocks"])
    assert diags[0].summary == 'Unknown block type "setings"' and 'Did you mean "settings"?' in diags[0].detail
    text = '{"thing": {"a": {"b": {"size": 1, "part": {"p": {"wieght": 1}}}}}}'
    _, diags = decode_file(text, parse(text).root, SCHEMAS["root"])
    assert diags[0].summary == 'Unsupported argument "wieght"' and 'Did you mean "weight"?' in diags[0].detail
    assert 'a "part" block' in diags[0].detail


def test_decoded_elements_keep_ranges_and_schemas():
    text = '{"thing": {"k": [{"n": {"size": 1, "part": [{"p": {"weight": "${w}"}}]}}]}}'
    body, diags = decode_file(text, parse(text).root, SCHEMAS["root"])
    assert diags == []
    (thing,) = body.blocks
    assert text[slice(*thing.type_range)] == '"thing"'
    assert [text[slice(*lab.range)] for lab in thing.labels] == ['"k"', '"n"']
    assert thing.label_values == ("k", "n")
    assert thing.header_range == thing.labels[1].range
    assert text[slice(*thing.body_range)].startswith('{"size"')
    assert thing.schema is SCHEMAS["root"].blocks["thing"]
    size = thing.body.attribute("size")
    assert size is not None and text[slice(*size.name_range)] == '"size"' and size.expr.kind == "number"
    assert size.schema.required and size.mode == "expression"
    (part,) = thing.body.blocks_of("part")
    weight = part.body.attributes[0]
    assert text[weight.expr.start : weight.expr.end] == '"${w}"'
    assert weight.expr.mode == "expression"


def test_literal_mode_kept_on_expression():
    text = '{"thing": {"k": {"n": {"size": 1, "doc": "${x}", "data": {"a": "${y}"}}}}}'
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    attrs = {a.name: a for a in body.blocks[0].body.attributes}
    assert attrs["doc"].expr.mode == "literal_string"
    assert attrs["data"].expr.mode == "literal"
    assert attrs["size"].expr.mode == "expression"


def test_missing_value_kept_as_attribute_without_expression():
    text = '{"thing": {"k": {"n": {"size": 1, "count": }}}}'
    body, _ = decode_file(text, parse(text).root, SCHEMAS["root"])
    count = body.blocks[0].body.attribute("count")
    assert count is not None and count.expr is None and count.end == count.name_end


def test_decode_body_reports_shape_of_root():
    text = "[[]]"
    tree = parse(text, require_body=False)
    _, diags = decode_body(text, tree.root, 0, SCHEMAS["root"])
    assert [(d.code, d.start, d.end) for d in diags] == [("structure/body-element-type", 1, 3)]


def test_decode_file_leaves_root_shape_to_syntax_layer():
    text = "[1]"
    tree = parse(text)
    body, diags = decode_file(text, tree.root, SCHEMAS["root"])
    assert diags == [] and [d.code for d in tree.diagnostics] == ["syntax/root-not-body"]
    body, diags = decode_file("", None, SCHEMAS["root"])
    assert diags == [] and body.node is None


def test_deep_expression_is_walked_iteratively():
    depth = 50_000
    text = '{"size": ' + "[" * depth + '{"a": 1, "a": 2}' + "]" * depth + "}"
    _, diags = decode_file(text, parse(text).root, SCHEMAS["thing"])
    assert [d.code for d in diags] == ["structure/duplicate-key"]
