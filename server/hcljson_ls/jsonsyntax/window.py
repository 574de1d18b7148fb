"""The tree of a window of a document: the keys on the way from the root to a region of the text,
and that region, every node at its place in the whole text, without parsing the rest.

    parse_window(text, opener, keys, region_start, region_end, depth) -> Node | None

Why: a request sent before a large document's tree is built needs only the part around its
offset (`hcljson.window`). Parsing that part costs what the part costs; a text of the document's
length with everything else blanked would cost a scan of the whole length.

Contract
--------
* `opener` is the position of the root's `{`; `keys` the way down from it, one key per level:
  `(key_start, key_end, colon, next_opener)`, the key string's range, its `:` and the `{` of the
  object its value is (`-1` for the last key, whose value starts the region). `text[region_start:
  region_end]` starts with the last key's value and may close levels and open others (the
  members that follow it); `depth` objects are still open at its end.
* The result is the tree `parse` gives for the small document made of these pieces
  (`{"k0":{"k1":VALUE...}}`), with every position moved to its place in `text`: the pieces of
  `keys` each to its own, the region's by one shift. Inside the region's members, every node is
  what a parse of the whole of `text` gives (positions are container-relative: see `tree`); the
  containers on the way hold only the members of the window, and a container whose closing
  bracket lies after the region ends just after it.
* None when the pieces do not make a document without a syntax diagnostic. Never raises.
"""

from __future__ import annotations

from .parser import parse
from .tree import Container, Node

__all__ = ["parse_window"]


def parse_window(text: str, opener: int, keys: tuple[tuple[int, int, int, int], ...], region_start: int,
                 region_end: int, depth: int) -> Node | None:
    """See the module doc."""
    parts = ["{"]
    marks: list[tuple[int, int, int]] = [(0, opener, 1)]  # (small document start, text start, length)
    at = 1
    for key_start, key_end, colon, next_opener in keys:
        marks.append((at, key_start, key_end - key_start))
        parts.append(text[key_start:key_end])
        at += key_end - key_start
        marks.append((at, colon, 1))
        parts.append(":")
        at += 1
        if next_opener >= 0:
            marks.append((at, next_opener, 1))
            parts.append("{")
            at += 1
    region = at
    delta = region_start - region
    parts.append(text[region_start:region_end])
    parts.append("}" * depth)
    try:
        parsed = parse("".join(parts))
    except Exception:  # parsing never raises by contract; a bug here only costs the window
        return None
    root = parsed.root
    if parsed.diagnostics or not isinstance(root, Container):
        return None

    def start_of(p: int) -> int:  # where a node starting at `p` of the small document is in `text`
        if p >= region:
            return p + delta
        for s, r, n in marks:
            if s <= p < s + n:
                return r + (p - s)
        raise ValueError(p)

    def end_of(p: int) -> int:  # the same for an end (a key's end meets the next piece's start)
        if p > region:
            return p + delta
        for s, r, n in marks:
            if s < p <= s + n:
                return r + (p - s)
        raise ValueError(p)

    try:
        root_start = start_of(root.start)
        root.end = end_of(root.end)
        root.start = root_start
        _relocate(root, 0, root_start, len([k for k in keys if k[3] >= 0]), start_of, end_of)
    except ValueError:  # a piece the small document did not put where it was written: no window
        return None
    return root


def _relocate(container: Container, small: int, real: int, below: int, start_of, end_of) -> None:
    """Move the members of `container` (at `small` in the small document, `real` in the text)
    to their places; its first member's value is the next container on the way when `below` > 0."""
    for i, m in enumerate(container.items):
        k = m.key
        if k is not None:
            ks, ke = small + k.start, small + k.end
            k.start, k.end = start_of(ks) - real, end_of(ke) - real
        if m.colon >= 0:
            m.colon = start_of(small + m.colon) - real
        if m.comma >= 0:
            m.comma = start_of(small + m.comma) - real
        v = m.value
        if v is not None:
            vs, ve = small + v.start, small + v.end
            v_real = start_of(vs)
            v.start, v.end = v_real - real, end_of(ve) - real
            if i == 0 and below > 0 and isinstance(v, Container):
                _relocate(v, vs, v_real, below - 1, start_of, end_of)
