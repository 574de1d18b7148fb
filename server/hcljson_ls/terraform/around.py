"""The analysis of the top-level blocks around an offset, alone: what hover, completion, definition
and signature help read before a quick-opened document's tree is built (issue 21 §2).

    Spans.of(skim) -> Spans                      where the skim found each top-level block
    window_of(text, spans, offset) -> (lo, hi) | None     the window of blocks around `offset`
    window_view(text, path, scope, spans, lo, hi) -> FileView | None     its analysis

Contract
--------
* `Spans` keeps, for a document `hcljson.skim` read, each block value's header keys and range and
  the root's `{`, without the values (kept by `terraform.quick.QuickResult` while the document's
  tree is not built); after a syntax error, the blocks before it and where the broken block's
  value starts (`tail`: the skim's `tail`, which runs to the end of the text).
* `window_of` and `window_view` give the `FileView` of the analysis (`analysis.file_engine` with the
  document's path: the rules of the full path) of a window of the document: the block value
  holding `offset` (in its value, or on one of its header keys) and the one on each side of it,
  parsed alone at their places in the text (`jsonsyntax.window`), analysed as the quick open
  analyses a block alone (the module's engine, no scope: nothing resolved against the module). A
  top-level block's decoded body and refs depend on the block alone (`hcljson.incremental`: they
  are computed per block), so its
  `blocks_at(offset)`, `refs_at(offset)` and `locate(text, view, offset)` are those of the full
  view: the window holds the blocks `blocks_at` looks at (the last one whose body starts before
  `offset` and the next two), each value holds exactly one block (an object), and `offset` is in a
  value or on a key of the window, or between two blocks that are members of one label level's
  object (`}, "next": {`: where a cursor at a line's end sits), where `locate` walks only members
  of the window.
* None (the caller then needs the tree) when the window would hold the broken block of a document
  with a syntax error (`tail`: an offset in the last block before it, or after), when `offset` is
  elsewhere (between other members, on a `"//"` comment at the root), when a value of the window
  is an array (several blocks, or none), or when the window does not parse cleanly. The analysis's
  diagnostics and definitions are those of the window alone: not to be read
  (`hcljson.window.PartialView` refuses them).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from ..hcljson.incremental import FileView
from ..hcljson.skim import Skim
from ..jsonsyntax.window import parse_window
from ..text.offsets import Offsets
from .analysis import file_engine
from .resolution.resolve import Scope

__all__ = ["Spans", "window_view"]

#: `:` then the `{` of the object a label level's key opens; `:` before a block's value.
_OPENS = re.compile(r"[ \t\n\r]*(:)[ \t\n\r]*(\{)")
_COLON = re.compile(r"[ \t\n\r]*(:)[ \t\n\r]*")
#: What stands between a block's value and its next sibling's last header key (`, "` up to the key).
_COMMA = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")

@dataclass(frozen=True, slots=True)
class Spans:
    """Where each top-level block value of a skimmed document is (see the module doc): positions
    only, in arrays. Block `i`'s value is `[starts[i], ends[i])`; its header keys (the type, then
    each label, quotes included) are the pairs `(heads[k], heads[k + 1])` for `k` in
    `range(at[i], at[i + 1], 2)`. Kept while the tree is built, so no object per block: the skim's
    `Label`s and position ints were made among its values, and keeping them kept the memory pages
    of those values from being reused or released (session 10, docs/performance.md). `tail`: after
    a syntax error, where the broken block's value starts (the blocks are those before it); -1
    without one. An edit moves the positions after it without rewriting them (`moved`)."""

    root_start: int
    starts: Offsets
    ends: Offsets
    heads: Offsets
    at: array[int]
    tail: int = -1

    @classmethod
    def of(cls, found: Skim) -> Spans:
        blocks = found.blocks
        # (The arrays made from lists: appending to each array, int by int, was ~3% of a 5 MB open.)
        heads_list: list[int] = []
        at_list = [0]
        for b in blocks:
            heads_list += (b.type_start, b.type_end)
            for label in b.labels:
                heads_list += (label.start, label.end)
            at_list.append(len(heads_list))
        return cls(found.root_start, Offsets([b.start for b in blocks]), Offsets([b.end for b in blocks]),
                   Offsets(heads_list), array("q", at_list), -1 if found.tail is None else found.tail.start)

    def keys(self, i: int) -> list[tuple[int, int]]:
        """The ranges of block `i`'s header keys: the type's, then each label's."""
        heads = self.heads
        return [(heads[k], heads[k + 1]) for k in range(self.at[i], self.at[i + 1], 2)]

    def moved(self, i: int, delta: int) -> Spans:
        """These spans after an edit inside block `i`'s value, whose end moved by `delta`: every
        place from its old end on moved by `delta` (noted, not written: `text.offsets`); the header
        keys before it, which later blocks share, stay."""
        if not delta:
            return self
        end = self.ends[i]
        tail = self.tail + delta if self.tail >= 0 else -1  # (the broken rest lies after every block)
        return Spans(self.root_start, self.starts.moved(end, delta), self.ends.moved(end, delta),
                     self.heads.moved(end, delta), self.at, tail)


def window_of(text: str, spans: Spans, offset: int) -> tuple[int, int] | None:
    """The indexes `[lo, hi)` of the blocks of the window around `offset`, or None (module doc):
    one window answers every offset it is given for, so a caller can keep one per window."""
    starts, ends = spans.starts, spans.ends
    n = len(starts)
    i = bisect_left(starts, offset)  # the values before it start before `offset`
    if i > 0 and offset < ends[i - 1]:
        pass  # inside the value before (it starts before `offset`)
    elif i < n and (starts[i] == offset or any(s <= offset <= e for s, e in spans.keys(i))):
        pass  # on the next value's opening bracket or on one of its header keys
    elif 0 < i < n and ends[i - 1] <= offset and _siblings(text, spans, i):
        pass  # between the value before and the next one, members of one object (`}, "key": {`)
    else:
        return None
    lo, hi = max(0, i - 1), min(n, i + 2)
    if spans.tail >= 0 and i + 2 > n:  # the window would hold the broken block, which the skim did not read
        return None
    for b in range(lo, hi):
        if text[starts[b]] != "{":  # an array: several blocks or none, `blocks_at` may look further
            return None
    return lo, hi


def _siblings(text: str, spans: Spans, i: int) -> bool:
    """Whether blocks `i - 1` and `i` are members of one label level's object, with nothing but
    their comma and block `i`'s last label between their values: an offset in that gap is in the
    same container as in the whole tree, among members the window holds, where a request reads
    nothing of the other members (not at the root, where completion reads every block's name)."""
    if spans.at[i + 1] - spans.at[i] < 4:  # no label: its type key is a member of the root
        return False
    key_start, key_end = spans.heads[spans.at[i + 1] - 2], spans.heads[spans.at[i + 1] - 1]
    comma = _COMMA.match(text, spans.ends[i - 1])
    colon = _COLON.match(text, key_end)
    return comma is not None and comma.end() == key_start and colon is not None and colon.end() == spans.starts[i]


def _tree(text: str, spans: Spans, lo: int, hi: int) -> Any:
    heads = spans.keys(lo)
    keys = []
    for n, (s, e) in enumerate(heads):
        opens = n < len(heads) - 1
        m = (_OPENS if opens else _COLON).match(text, e)
        if m is None or (not opens and m.end() != spans.starts[lo]):
            return None
        keys.append((s, e, m.start(1), m.start(2) if opens else -1))
    last_levels = (spans.at[hi] - spans.at[hi - 1]) // 2  # its type and labels: the levels its value closes
    return parse_window(text, spans.root_start, tuple(keys), spans.starts[lo], spans.ends[hi - 1], last_levels)


def window_view(text: str, path: str | None, scope: Scope | None, spans: Spans, lo: int, hi: int) -> FileView | None:
    """The analysis of window `[lo, hi)` (`window_of`) alone, or None when it does not parse cleanly."""
    root = _tree(text, spans, lo, hi)
    if root is None:
        return None
    # Without the scope, as the quick open analyses a block alone: nothing is resolved against the
    # module (its diagnostics are not read), but the engine, which decides what a block refers to.
    return file_engine(path, None, scope.engine if scope is not None else None).update(text, root).body
