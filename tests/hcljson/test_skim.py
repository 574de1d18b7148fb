"""`hcljson.skim`: on a valid document of the shapes it follows, the blocks it finds are what the full
walk of the tree finds at the top level (`decode.walk_file`: types and labels with their ranges, each
value's range), with each value as `json` reads it; any JSON the full walk reads otherwise gives
None. The documents are written with every spacing `json.dumps` has, and label keys that need
escapes or hold a control character: the keys the skim reads in one match and those it reads with
`scanstring`."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from hcljson_ls.hcljson.decode import walk_file
from hcljson_ls.hcljson.skim import skim, skim_value
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.definition.schema import CONFIG_SCHEMA

#: Keys of every kind: plain, with a quote, a backslash, a control character, non-ASCII, astral.
keys = st.text(st.sampled_from(['a', 'b', '_', '-', '0', '"', '\\', '\x01', '\n', 'é', '😀', ' ', '/']), min_size=1, max_size=6)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
bodies = st.dictionaries(keys, values, max_size=3)
#: Block types of each label count: `locals` none, `variable` one, `resource` two; every body an
#: object (what both walks read as a block; the skim reads any value, left to the full analysis).
documents = st.dictionaries(
    st.sampled_from(["locals", "variable", "output", "resource", "data"]),
    st.dictionaries(keys, st.dictionaries(keys, bodies, min_size=1, max_size=3), min_size=1, max_size=3),
    min_size=1, max_size=4,
)
spacings = st.sampled_from([
    {"indent": 2}, {"indent": None}, {"separators": (",", ":")}, {"indent": 0}, {"indent": "\t"},
    {"indent": 1, "separators": (" ,", " : ")}, {"ensure_ascii": False},
])


def _shaped(doc: dict) -> dict:
    """`doc` as the block types take it: a `locals` body at once, a `variable`'s and an `output`'s
    under one label, a `resource`'s and a `data`'s under two."""
    out: dict = {}
    for t, level in doc.items():
        if t == "locals":
            out[t] = next(iter(next(iter(level.values())).values()))
        elif t in ("variable", "output"):
            out[t] = {k: next(iter(inner.values())) for k, inner in level.items()}
        else:
            out[t] = level
    return out


def _labels_of(doc: dict) -> set[str]:
    return {k for t, level in doc.items() if t != "locals" for k, inner in level.items()} | {
        k for t, level in doc.items() if t in ("resource", "data") for inner in level.values() for k in inner}


def _walked(text: str) -> list[tuple]:
    walk = walk_file(text, parse(text).root, CONFIG_SCHEMA)
    return [(t.type_name, t.type_start, t.type_end, tuple((lab.value, lab.start, lab.end) for lab in t.labels),
             t.body_start, t.body_end) for t in walk.tops]


@given(documents, spacings)
def test_the_skim_finds_what_the_full_walk_finds(doc, spacing):
    text = json.dumps(_shaped(doc), **spacing)
    found = skim(text, CONFIG_SCHEMA)
    if "//" in _labels_of(doc):
        assert found is None  # a comment as a label: not a shape the skim follows
        return
    assert found is not None, text
    got = [(b.type_name, b.type_start, b.type_end, tuple((lab.value, lab.start, lab.end) for lab in b.labels),
            b.start, b.end) for b in found.blocks]
    assert got == _walked(text)
    for b in found.blocks:
        assert b.value == json.loads(text[b.start:b.end], object_pairs_hook=tuple)
        assert skim_value(text, b.start) == (b.value, b.end)


@given(documents, spacings, st.data())
def test_a_key_cut_short_or_a_missing_colon_is_refused_or_broken(doc, spacing, data):
    """One character removed from a label level (a quote, a colon, a comma, a brace): the skim gives
    None or stops at a broken block, never blocks the full walk does not find."""
    text = json.dumps(_shaped(doc), **spacing)
    at = data.draw(st.sampled_from([i for i, c in enumerate(text) if c in '":,{}'] or [0]))
    broken = text[:at] + text[at + 1:]
    found = skim(broken, CONFIG_SCHEMA)
    if found is None or found.tail is not None or any(type(b.value) is not tuple for b in found.blocks):
        return  # (refused, broken, or a value only the skim takes for a block)
    try:
        json.loads(broken)
    except ValueError:
        raise AssertionError(f"a skim of invalid JSON: {broken!r}") from None
    got = [(b.type_name, b.type_start, b.type_end, tuple((lab.value, lab.start, lab.end) for lab in b.labels),
            b.start, b.end) for b in found.blocks]
    assert got == _walked(broken)
