"""Incremental decoding: a `DecodeCache` reused across incremental reparses gives exactly the
result of decoding the new tree from scratch, and only the top-level blocks whose text changed are
decoded again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.hcljson.decode import DecodeCache, decode_file
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.text.document import Edit

from hcljson_fixtures import SCHEMAS, check_invariants

ROOT = SCHEMAS["root"]


def make_doc(n: int) -> str:
    things = ",\n".join(
        f'    "t{i}": {{"size": {i}, "doc": "d{i}", "tags": {{"a": "x", "a": "y"}}, '
        f'"part": [{{"p": {{"weight": "${{w}}"}}}}], "data": {{"k": [1, 2, "${{z}}"]}}}}'
        for i in range(n)
    )
    return '{\n  "name": "n",\n  "thing": {\n   "kind": {\n' + things + '\n   }\n  },\n  "vars": {"a": 1}\n}'


def edit(text: str, start: int, old_end: int, new: str) -> tuple[str, Edit]:
    return text[:start] + new + text[old_end:], Edit(start, old_end, start + len(new))


def assert_same_as_fresh(text: str, tree, body, diags) -> None:
    fresh_body, fresh_diags = decode_file(text, tree.root, ROOT)
    assert body == fresh_body
    assert diags == fresh_diags
    check_invariants(text, body)


def test_edit_inside_one_block_redecodes_only_that_block():
    text = make_doc(20)
    cache = DecodeCache()
    tree = parse(text)
    body, diags = decode_file(text, tree.root, ROOT, cache)
    assert cache.misses == 21 and cache.hits == 0  # 20 things and 1 vars block, none cached yet
    at = text.index('"size": 7') + len('"size": ')
    new_text, e = edit(text, at, at + 1, "77")
    tree = reparse(tree, text, new_text, e)
    cache.note_edit(e)
    cache.hits = cache.misses = 0
    body2, diags2 = decode_file(new_text, tree.root, ROOT, cache)
    assert cache.misses == 1 and cache.hits == 20
    assert_same_as_fresh(new_text, tree, body2, diags2)
    assert body2.blocks[7].body.attribute("size").expr.end - body2.blocks[7].body.attribute("size").expr.start == 2
    # later blocks moved by one character, earlier ones did not
    assert body2.blocks[8].body.start == body.blocks[8].body.start + 1
    assert body2.blocks[6].body is body.blocks[6].body


def test_cache_survives_full_reparse_by_missing_safely():
    text = make_doc(5)
    cache = DecodeCache()
    decode_file(text, parse(text).root, ROOT, cache)
    new_text = " " + text
    tree = parse(new_text)  # brand new nodes: identity misses, nothing stale is reused
    cache.hits = cache.misses = 0
    body, diags = decode_file(new_text, tree.root, ROOT, cache)
    assert cache.hits == 0
    assert_same_as_fresh(new_text, tree, body, diags)
    assert len(cache) == 6


def test_in_place_update_of_an_ancestor_is_detected():
    # An edit in a nested container re-parses that container only; the top-level body node keeps its
    # identity but its text changed, so the cached decode must not be reused.
    text = make_doc(3)
    cache = DecodeCache()
    tree = parse(text)
    decode_file(text, tree.root, ROOT, cache)
    at = text.index('"weight"')
    new_text, e = edit(text, at, at + len('"weight"'), '"wieght"')
    tree = reparse(tree, text, new_text, e)
    body, diags = decode_file(new_text, tree.root, ROOT, cache)
    assert [d.code for d in diags if d.code == "structure/unknown-argument"] == ["structure/unknown-argument"]
    assert_same_as_fresh(new_text, tree, body, diags)


TEXT = make_doc(4)


def test_unnoted_edits_are_found_by_comparing_texts():
    text = make_doc(6)
    cache = DecodeCache()
    tree = parse(text)
    decode_file(text, tree.root, ROOT, cache)
    at = text.index('"a": "y"') + 1
    new_text, e = edit(text, at, at + 1, "b")  # makes the duplicate key go away in block t0
    tree = reparse(tree, text, new_text, e)
    cache.hits = cache.misses = 0
    body, diags = decode_file(new_text, tree.root, ROOT, cache)  # no note_edit
    assert cache.misses == 1 and cache.hits == 6
    assert_same_as_fresh(new_text, tree, body, diags)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(TEXT)), st.integers(0, 3), st.sampled_from(["", "1", '"', "{", "}", "x", ",", " ", '"a": 1,'])), min_size=1, max_size=4))
def test_random_edits_match_fresh_decode(edits):
    text = TEXT
    cache = DecodeCache()
    tree = parse(text)
    decode_file(text, tree.root, ROOT, cache)
    for start, length, new in edits:
        start = min(start, len(text))
        old_end = min(len(text), start + length)
        new_text, e = edit(text, start, old_end, new)
        tree = reparse(tree, text, new_text, e)
        cache.note_edit(e)
        text = new_text
        body, diags = decode_file(text, tree.root, ROOT, cache)
        assert_same_as_fresh(text, tree, body, diags)
