"""The quick fixes of the diagnostics a document shows, worked out when they are asked for.

    fixable(snapshot, uri, start, end, unused=False, max_per_code=0, sent=()) -> list[Diagnostic]

Contract
--------
* The diagnostics are the ones the document shows with these settings (`features.diagnostics.gathered`
  with the same `unused` and `max_per_code`: what the client was sent for the current version), so
  a fix is offered for a shown diagnostic only, never for one `limit/too-many` stands for.
* `fixable` gives those that have at least one fix (`Diagnostic.fixes`) and whose range meets
  ``[start, end]``, ends included (a cursor just before or just after a diagnostic's range is on it,
  as editors ask), or that the client names (`sent`: ``(start, end, code)`` of the diagnostics the
  request carries, which LSP calls the ones "overlapping the range": Neovim sends those of the
  cursor's line with a cursor elsewhere on it), in position order. The fixes of a deferred diagnostic
  (`diagnostic.Deferred`) are worked out only for these: the others' ranges are all that is read.
* An unknown `uri` has none.

Why not in the diagnostics: carried by each LSP diagnostic (its `data`), the fixes were ~40% of the
answer of a 5 MB document with 24,750 diagnostics shown, for the one or two a user applies
(issue 21 §3, session 12). rust-analyzer works them out on `textDocument/codeAction` too.
"""

from __future__ import annotations

from collections.abc import Collection

from ..diagnostic import Diagnostic
from ..workspace import Snapshot
from . import diagnostics


def fixable(snapshot: Snapshot, uri: str, start: int, end: int, unused: bool = False,
            max_per_code: int = 0, sent: Collection[tuple[int, int, str]] = ()) -> list[Diagnostic]:
    """The shown diagnostics of `uri` with fixes whose range meets ``[start, end]`` or that `sent`
    names (see the module doc)."""
    if end < start:
        start, end = end, start
    named = set(sent)
    last = max([end, *(s for s, _, _ in named)])
    out = []
    for d in diagnostics.gathered(snapshot, uri, unused, max_per_code):
        if d.start > last:
            break  # (in position order: every later one starts after the range and what was sent)
        if (d.start <= end and d.end >= start or (d.start, d.end, d.code) in named) and d.fixes:
            out.append(d)
    return out
