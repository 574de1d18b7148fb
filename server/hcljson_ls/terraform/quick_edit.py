"""The quick result after an edit inside one top-level block: the quick open of the new text with
only the edited block read again (issue 21 §2, "the first edit never waits").

    quick_after_edit(before, text, start, old_end, new_end, path, scope) -> QuickResult | None

Contract
--------
* `before` is the `terraform.quick.QuickResult` of the text before the edit (with the same path and
  scope: a scope that answers differently since makes the caller drop `before`), `text` the text
  after it, and `(start, old_end, new_end)` one edit covering every change between them. The answer
  EQUALS `quick_file(text, path, scope)` (diagnostics in their order, definitions, spans, counts);
  tests/terraform/test_quick_edit.py compares them after random edits.
* None ("not localised here": the caller runs `quick_file` on the whole text) unless:
  - `before` has the skim's spans and reported no duplicate across blocks. A syntax error after
    the edited block is no obstacle: the broken rest of the text (the skim's `tail`, analysed as
    one piece) is unchanged, so its analysis is the same, moved with the text after the block
    (an edit in a 5 MB file with a syntax error re-read the whole text: ~150 ms, 1.1x the peer's
    edit in `bench/peer.py`'s 5MB-error);
  - the edit lies strictly inside one block's value (after its first character, before its
    last), which the skim's reader (`skim.skim_value`) reads again from the same start to exactly
    the shifted end: the rest of the text is unchanged, so the whole is what `skim` reads, with
    this one value new;
  - that block, read again alone by the quick open's own code (`quick.quick_blocks`, its
    references resolved against the file's definitions as they were), defines the same keys as
    before: the file's definitions, its `required_providers` and every other block's resolution
    then stand (they depend on the definitions and the scope, not on the block's text), and no
    duplicate appears;
  - every diagnostic of the block, before and after, lies inside its value (one on a header key,
    which blocks share, could not be told apart), none of the others reaches into it, and no
    related place or fix of another block's diagnostic points into it.
* Then the result is the diagnostics before the block, the block's new ones, and the ones after it
  moved by the edit's length; the same for the definitions' places and the spans. The other blocks
  are not read: the cost is the edited block's analysis plus moving what comes after it (noted
  once per run of diagnostics, `diagnostic.Runs`, and once per array of places, `text.offsets`).
"""

from __future__ import annotations

import json
from array import array
from bisect import bisect_right
from collections.abc import Sequence

from ..diagnostic import Deferred, Diagnostic, Runs
from ..hcljson.model import Label
from ..hcljson.skim import Skim, Skimmed, skim_value
from .quick import ANALYSED, LOCATED, Places, QuickResult, _moved, _Unsure, quick_blocks
from .resolution.resolve import Scope

__all__ = ["quick_after_edit"]


def quick_after_edit(before: QuickResult, text: str, start: int, old_end: int, new_end: int, path: str | None,
                     scope: Scope | None) -> QuickResult | None:
    """See the module doc."""
    spans = before.spans
    if spans is None or before.duplicated or len(before.blocks) != len(spans.starts) + (spans.tail >= 0):
        return None
    if (getattr(scope, "provider_schemas", None) is not None) != (before.providers is not None):
        return None
    i = bisect_right(spans.starts, start) - 1  # the last value starting at or before the edit
    if i < 0:
        return None
    b_start, b_end = spans.starts[i], spans.ends[i]
    if not (b_start < start and old_end < b_end):
        return None
    delta = new_end - old_end
    read = skim_value(text, b_start)
    if read is None or read[1] != b_end + delta:
        return None
    value, end = read
    heads = spans.keys(i)  # (before the edit: their text and places are unchanged)
    (ts, te), labels = heads[0], tuple(Label(json.loads(text[ls:le]), ls, le) for ls, le in heads[1:])
    block = Skimmed(json.loads(text[ts:te]), ts, te, labels, b_start, end, value)
    keys = before._keys
    ends = before.block_ends
    first = ends[i - 1] if i else 0
    last = ends[i]
    own = before.own if before.own is not None else frozenset(keys)
    part = quick_blocks(text, path, scope, Skim((block,), spans.root_start, len(text)), own, before.providers)
    if part is None or part._keys != keys[first:last]:
        return None
    diagnostics = _spliced(before.diagnostics, part.diagnostics, heads, b_start, b_end, end, delta)
    if diagnostics is None:
        return None
    # The definitions after the block moved by `delta` (noted, not written: `text.offsets`), then
    # the block's own set (those inside its value may now lie past its old end: not moved).
    places = Places(before._places.flat.moved(b_end, delta).replaced(2 * first, part._places.flat))
    old, new = before.blocks[i], part.blocks[0]
    result = QuickResult(diagnostics, list(keys), places,
                         before.certified - (old != ANALYSED) + (new != ANALYSED),
                         before.analysed - (old == ANALYSED) + (new == ANALYSED),
                         before.located - (old == LOCATED) + (new == LOCATED))
    result.blocks = bytearray(before.blocks)
    result.blocks[i] = new
    result.block_ends = array("l", ends)
    result.providers = before.providers
    result.declared = before.declared  # the same keys in the same order (their places are read on demand)
    result.own = own  # (the same set: what the resolution keeps for it is found by identity)
    result.spans = spans.moved(i, delta)
    return result


def _spliced(old: Sequence[Diagnostic], new: Sequence[Diagnostic], heads: list[tuple[int, int]], b_start: int,
             b_end: int, end: int, delta: int) -> Sequence[Diagnostic] | None:
    """`old` with the diagnostics of the block value `[b_start, b_end)` (which now ends at `end`;
    its header keys at `heads`) replaced by `new` and the later ones moved by `delta`; None when
    they cannot be told apart (module doc). The answer is `Runs`: the runs before the block kept,
    the later ones moved by noting `delta` once per run (no copy per diagnostic), unless a
    diagnostic outside the block holds a place on the other side of it (then each is moved)."""
    for d in new:  # (makes the block's pieces: an unmade one would keep this version's text alive)
        if d.start < b_start or d.end > end:
            return None
    runs = Runs.of(old)
    lo = runs.count_before(b_start)
    hi = runs.count_before(b_end, lo)
    if any(r.high() > b_end for r in runs.cut(lo, hi)):  # (bounds first: its pieces not made)
        for k in range(lo, hi):
            if runs[k].end > b_end:
                return None
    for s, e in heads:  # its header keys
        at = runs.count_before(s, 0, lo)
        while at < lo and runs[at].start <= e:
            if runs[at].end <= e:
                return None
            at += 1
    before, after = runs.cut(0, lo), runs.cut(hi, len(runs), delta)
    if all(r.high() <= b_start for r in before) and all(r.low() - delta >= b_end for r in after):
        return Runs.joined([*before, Runs.new(new), *after])
    found = _moved_each(runs.flat(), lo, hi, b_start, b_end, delta)
    return None if found is None else Runs.of([*found[:lo], *new, *found[lo:]])


def _moved_each(old: list[Diagnostic], lo: int, hi: int, b_start: int, b_end: int,
                delta: int) -> list[Diagnostic] | None:
    """`old` without `old[lo:hi]` (the edited block's), each other diagnostic moved by the edit
    (one holding a place in the block, or ending past its start before it: None)."""

    def move(x: int, y: int) -> tuple[int, int]:
        if y <= b_start:
            return x, y
        if x >= b_end:
            return x + delta, y + delta
        raise _Unsure(x)

    kept = old[:lo]
    try:
        for n, d in enumerate(kept):
            if d.end > b_start:
                return None
            if _elsewhere(d, b_start):
                kept[n] = _moved(d, move)
        later = [_moved(d, move) for d in old[hi:]] if delta else old[hi:]
    except _Unsure:
        return None
    return kept + later


def _elsewhere(d: Diagnostic, b_start: int) -> bool:
    """Whether a related place or a fix of `d` reaches `b_start` or beyond (a deferred diagnostic's
    fixes are placed from its own start: `diagnostic.Deferred`)."""
    for r in d.related:
        if r.uri is None and r.end > b_start:
            return True
    if type(d) is Deferred:
        return False
    return any(f.end > b_start for f in d.fixes)
