"""Lazy shifts of later siblings (`tree.Container.shift_after`): whatever sequence of edits, reading
`items` gives the positions an eager shift would have given, and a reparse chain without any read in
between still ends equal to a full parse."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.jsonsyntax.tree import member_shift, snapshot
from hcljson_ls.text import Document

WIDE = json.dumps({f"k{i}": {"v": f"value {i}", "n": [i, "x"]} for i in range(40)}, indent=1)


def _positions(items, shift_of=lambda i: 0):
    out = []
    for i, m in enumerate(items):
        d = shift_of(i)
        out.append((m.key.start + d, m.key.end + d, m.colon + d, m.value.start + d, m.value.end + d,
                    m.comma + d if m.comma >= 0 else -1))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["shift", "settle", "peek"]), st.integers(0, 39), st.integers(-5, 5)),
                max_size=25))
def test_pending_shifts_read_like_eager_ones(ops):
    root = parse(WIDE).root
    model = _positions(root.items)
    for op, i, d in ops:
        if op == "shift":
            root.shift_after(i, d)
            model = [p if j <= i else tuple(x + d if x >= 0 else x for x in p) for j, p in enumerate(model)]
        elif op == "settle":
            root.settle_through(i)
            assert _positions(root.raw_items[: i + 1]) == model[: i + 1]
        # members read without forcing anything: raw positions plus `member_shift`
        assert _positions(root.raw_items, lambda j: member_shift(root, j)) == model
    assert _positions(root.items) == model
    assert root.pending is None


def _edit(doc: Document, result, start: int, end: int, new: str):
    pos = doc.position
    change = {"range": {"start": dict(zip(("line", "character"), pos(start, "utf-32"))),
                        "end": dict(zip(("line", "character"), pos(end, "utf-32")))}, "text": new}
    (edit,) = doc.apply_changes([change], "utf-32")
    return reparse(result, doc.buffer, edit)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 39), st.sampled_from(["ins", "del", "grow"]), st.sampled_from(["v", "n"])),
                min_size=1, max_size=12))
def test_edits_in_a_row_without_reads_end_equal_to_a_full_parse(edits):
    doc = Document("file:///w.tf.json", WIDE, 1)
    result = parse(WIDE)
    for i, kind, where in edits:
        text = doc.text
        anchor = text.index(f'"k{i}"')  # search: the text hypothesis edits
        at = text.index('"v": "', anchor) + 7 if where == "v" else text.index('"x', anchor) + 2  # search: the same
        if kind == "ins":
            result = _edit(doc, result, at, at, "Zé")
        elif kind == "del":
            result = _edit(doc, result, at, at + 1, "")
        else:
            result = _edit(doc, result, at, at, ' ", "more')  # one string becomes two elements/.. or a broken value
    fresh = parse(doc.text)
    assert snapshot(result.root) == snapshot(fresh.root)
    assert [d.message for d in result.diagnostics] == [d.message for d in fresh.diagnostics]
    assert [(d.start, d.end) for d in result.diagnostics] == [(d.start, d.end) for d in fresh.diagnostics]


def test_an_edit_leaves_later_siblings_pending_until_read():
    doc = Document("file:///w.tf.json", WIDE, 1)
    result = parse(WIDE)
    at = WIDE.index('"value 3"') + 2
    result = _edit(doc, result, at, at, "xyz")
    root = result.root
    assert root.pending == (4, 3)  # members 4.. not rewritten yet
    result = _edit(doc, result, at, at + 3, "")  # typing back in the same place: the gap closes in O(1)
    assert root.pending is None
    at = doc.text.index('"value 10"') + 2  # search: WIDE is json.dumps output
    result = _edit(doc, result, at, at, "ab")
    assert root.pending == (11, 2)
    assert snapshot(root) == snapshot(parse(doc.text).root)  # reading settles everything
    assert root.pending is None


def _shared(items) -> int:
    """How many members store their colon as their key's end int and their comma as their value's."""
    return sum((m.colon is m.key.end) + (m.comma is m.value.end) for m in items)


def test_a_colon_and_a_comma_next_to_their_key_and_value_share_its_int_through_shifts():
    # Positions over 256 are int objects of their own (32 B): the fast parse stores the colon right
    # after a key and the comma right after a value as that end's very object (`fastparse`, "One int").
    text = json.dumps({f"out_{i:04d}": {"value": i} for i in range(300)}, indent=2)
    root = parse(text).root
    items = root.items
    assert items[-1].key.start > 256
    assert _shared(items) == 2 * 300 - 1  # the last member has no comma
    model = _positions(items)
    root.shift_after(3, 1000)  # every later member moves (lazily), its ints rewritten
    items = root.items
    assert _positions(items) == [p if j <= 3 else tuple(x + 1000 if x >= 0 else x for x in p) for j, p in enumerate(model)]
    assert _shared(items) == 2 * 300 - 1
