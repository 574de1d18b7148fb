"""`jsonsyntax.window.parse_window`: the tree of the keys on the way to a region and of the region,
every node at its place in the whole text. Inside the region, every node (kind, absolute range),
colon and comma is what the full parse has there; the containers on the way start where the full
parse's do."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.tree import Container, walk
from hcljson_ls.jsonsyntax.window import parse_window

KEYS = st.sampled_from(["a", "b", "web", "é", "k\"q", "x y"])
LEAVES = st.integers(-5, 5) | st.booleans() | st.none() | st.text(max_size=4)
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3), max_leaves=6)
# Three levels of objects (root, level, level) over values: as HCL JSON blocks are laid out.
DOCS = st.dictionaries(KEYS, st.dictionaries(KEYS, st.dictionaries(KEYS, VALUES, min_size=1, max_size=3), min_size=1, max_size=3),
                       min_size=1, max_size=3)


def _members(container: Container, base: int):
    """(member, absolute start of its container) for each member."""
    return [(m, base + container.start) for m in container.items]


def _parts(root) -> list[tuple]:
    """Every node with its absolute range, and every colon and comma, absolute."""
    out = []
    for node, start, end in walk(root):
        out.append((node.kind, start, end))
    stack = [(root, 0)]
    while stack:
        c, b = stack.pop()
        for m, inner in _members(c, b):
            out.extend([("colon", inner + m.colon)] if m.colon >= 0 else [])
            out.extend([("comma", inner + m.comma)] if m.comma >= 0 else [])
            if isinstance(m.value, Container):
                stack.append((m.value, inner))
    return out


@settings(max_examples=150, deadline=None)
@given(DOCS, st.sampled_from([None, 0, 2, "\t"]), st.booleans(), st.data())
def test_the_window_is_the_full_parse_around_the_region(doc, indent, ascii_, data) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_)
    full = parse(text).root
    assert isinstance(full, Container)
    # The leaves of the third level (each a member's value), in document order, with their way down.
    ways = []
    for m0 in full.items:
        v0 = m0.value
        for m1 in v0.items:
            v1 = m1.value
            for m2 in v1.items:
                b1 = full.start + v0.start
                b2 = b1 + v1.start
                keys = ((full.start + m0.key.start, full.start + m0.key.end, full.start + m0.colon, b1),
                        (b1 + m1.key.start, b1 + m1.key.end, b1 + m1.colon, b2),
                        (b2 + m2.key.start, b2 + m2.key.end, b2 + m2.colon, -1))
                ways.append((keys, b2 + m2.value.start, b2 + m2.value.end))
    first = data.draw(st.integers(0, len(ways) - 1))
    last = data.draw(st.integers(first, min(len(ways) - 1, first + 2)))
    keys, start, _ = ways[first]
    _, _, end = ways[last]
    window = parse_window(text, full.start, keys, start, end, 3)
    assert window is not None
    def within(p: tuple) -> bool:  # (a comma just after the region is not in it)
        return start <= p[1] and (p[-1] <= end if len(p) == 3 else p[1] < end)

    inside = sorted(filter(within, _parts(window)))
    assert inside and inside == sorted(filter(within, _parts(full)))
    # The way down: each container starts where the full parse's does, and each key is its key.
    assert window.start == full.start
    w1 = window.items[0].value
    assert window.start + w1.start == keys[0][3] and window.start + window.items[0].key.start == keys[0][0]
    assert window.start + w1.start + w1.items[0].key.start == keys[1][0]


def test_a_window_that_does_not_parse_cleanly_is_none() -> None:
    text = '{"a": {"b": {"c": 1, "d": [}}}'
    assert parse_window(text, 0, ((1, 4, 4, 6), (7, 10, 10, 12), (13, 16, 16, -1)), 18, len(text) - 3, 3) is None
