"""`hcljson.view`: the tree's view and the values' view read any JSON value alike, so a rule written
once over the view judges both alike (the rules themselves: tests/terraform/test_body_rules.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.hcljson.skim import Pairs
from hcljson_ls.hcljson.view import ABSENT, VALUES, TreeValue, TreeView, Unanswerable
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.tree import NUMBER, STRING
from hcljson_ls.terraform.rules.provider_rules import wrong_kinds

KEYS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)
SCALARS = st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False, allow_infinity=False) \
    | st.text(max_size=8) | st.sampled_from(["${var.x}", "%{ if true }a%{ endif }", "12", "1.5e3", "true", "0", " 3"])
VALUES_ = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.lists(st.tuples(KEYS, inner), max_size=4), max_leaves=25)
PRIMITIVES = st.sampled_from(["string", "number", "bool", "dynamic"])
TYPES = st.recursive(PRIMITIVES, lambda inner: st.tuples(st.sampled_from(["list", "set", "map"]), inner).map(list)
                     | st.lists(inner, max_size=3).map(lambda ts: ["tuple", ts])
                     | st.dictionaries(KEYS, inner, max_size=3).map(lambda fs: ["object", fs]), max_leaves=6)


def to_json(v: object) -> str:
    """`v` (objects as lists of pairs, so keys may repeat) as JSON text, spaced and escaped at random
    places the tree must see through."""
    if isinstance(v, list) and v and all(isinstance(x, tuple) for x in v):
        return "{ " + ", ".join(f"{json.dumps(k)} : {to_json(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + " ,".join(to_json(x) for x in v) + " ]"
    return json.dumps(v)


def both(v: object) -> tuple[str, TreeView, TreeValue, object]:
    text = " " + to_json(v)
    root = parse(text).root
    assert root is not None
    return text, TreeView(text), TreeValue(root, root.start), json.loads(text, object_pairs_hook=Pairs)


def same(tree: TreeView, t: TreeValue, value: object, text: str) -> None:
    kind = tree.kind(t)
    assert kind == VALUES.kind(value)
    start, end = tree.range(t)
    assert json.loads(text[start:end], object_pairs_hook=Pairs) == value
    if kind == STRING:
        assert tree.string(t) == VALUES.string(value)
    elif kind == NUMBER and type(value) is int:
        assert tree.number_text(t) == VALUES.number_text(value)
    members = list(tree.members(t))
    assert [k for k, _ in members] == [k for k, _ in VALUES.members(value)]
    for (_, x), (_, y) in zip(members, VALUES.members(value)):
        same(tree, x, y, text)
    items = list(tree.items(t))
    assert len(items) == len(list(VALUES.items(value)))
    for x, y in zip(items, VALUES.items(value)):
        same(tree, x, y, text)


@settings(max_examples=100, deadline=None)
@given(VALUES_)
def test_the_two_views_read_any_value_alike(v: object) -> None:
    text, tree, t, value = both(v)
    same(tree, t, value, text)


@settings(max_examples=100, deadline=None)
@given(VALUES_, TYPES)
def test_wrong_kinds_finds_the_same_on_both_views(v: object, cty: object) -> None:
    text, tree, t, value = both(v)
    on_tree: list = []
    on_values: list = []
    wrong_kinds(tree, t, cty, "a", on_tree)
    wrong_kinds(VALUES, value, cty, "a", on_values)
    assert [(f.code, f.summary, f.detail) for f in on_tree] == [(f.code, f.summary, f.detail) for f in on_values]


def test_the_values_view_has_no_positions_and_no_float_text() -> None:
    with pytest.raises(Unanswerable):
        VALUES.range("x")
    with pytest.raises(Unanswerable):
        VALUES.number_text(1.0)
    with pytest.raises(Unanswerable):
        VALUES.plain_string("x")
    assert VALUES.number_text(12) == "12"


def test_members_and_blocks_of_a_body_on_values() -> None:
    body = json.loads('{"count": null, "lifecycle": [{"a": 1}, {"b": 2}], "x": 1, "x": 2}', object_pairs_hook=Pairs)
    assert VALUES.member(body, "count") is None  # a JSON null is a value
    assert VALUES.member(body, "missing") is ABSENT
    assert VALUES.member(body, "x") == 1  # the first, as `Body.attribute`
    assert VALUES.block(body, "lifecycle") == Pairs([("a", 1)])
    assert VALUES.block(body, "x") is ABSENT
