"""An open document: its current text, version, language id and `LineIndex`.

Contract
--------
`Document.apply_changes` applies LSP content changes in order (each one's range refers to the text
left by the previous one) and returns one `Edit` per change, in offsets:
``Edit(start, old_end, new_end)`` says ``old_text[start:old_end]`` became ``new_text[start:new_end]``.

A change can be given as

- a `str`: the whole new text (a full replacement);
- ``(range, text)`` or ``(start, end, text)`` where ``range`` is ``(start, end)`` or ``None`` and
  ``start``/``end`` are ``(line, character)`` pairs in the given encoding; ``None`` means a full
  replacement;
- any object with a ``text`` attribute and an optional ``range`` attribute whose ``start``/``end`` have
  ``line``/``character`` attributes (lsprotocol's ``TextDocumentContentChangeEvent`` types), or a
  mapping of the same shape (``{"range": {"start": {"line": .., "character": ..}, ...}, "text": ..}``).

Ranges are clamped into the document and a reversed range is normalised; nothing raises on
odd positions. A full replacement is reported as the smallest edit that turns the old text into the
new one (common prefix and suffix are trimmed), so full-sync clients still get incremental work
downstream; a change that alters nothing is reported as an empty edit
(``start == old_end == new_end``).

The text is kept in a `TextBuffer` (chunks) owned by the `LineIndex`: an edit rewrites one chunk.
`Document.buffer` slices it; `Document.text` joins it into one `str` on demand, once per version.

The URI is stored as given; this module does no URI handling.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .buffer import TextBuffer
from .encodings import UTF16, check_encoding
from .line_index import LineIndex

__all__ = ["Document", "Edit", "merge_edits"]


@dataclass(frozen=True, slots=True)
class Edit:
    """``old_text[start:old_end]`` was replaced; the replacement is ``new_text[start:new_end]``."""

    start: int
    old_end: int
    new_end: int

    @property
    def delta(self) -> int:
        """How much longer the text became (negative when it shrank)."""
        return self.new_end - self.old_end


def merge_edits(edits: Sequence[Edit]) -> Edit | None:
    """One edit covering a sequence of consecutive edits (each relative to the previous result).

    The result says which span of the text before the first edit became which span of the text
    after the last one; ``None`` for an empty sequence.
    """
    if not edits:
        return None
    start, old_end, new_end = edits[0].start, edits[0].old_end, edits[0].new_end
    for e in edits[1:]:
        # Current covered span is [start, new_end); e is in current coordinates.
        end_current = max(new_end, e.old_end)
        old_end = end_current - (new_end - old_end)
        new_end = end_current + (e.new_end - e.old_end)
        start = min(start, e.start)
    return Edit(start, old_end, new_end)


def _common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of `a` and `b`, at memcmp speed."""
    limit = min(len(a), len(b))
    lo = 0
    step = 4096
    while lo + step <= limit and a[lo : lo + step] == b[lo : lo + step]:
        lo += step
        if step < 1 << 20:
            step <<= 1
    hi = min(lo + step, limit)
    # Invariant: a[:lo] == b[:lo]; the first difference (if any) is before hi.
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the longest common suffix of `a` and `b`, at most `limit`."""
    na, nb = len(a), len(b)
    lo = 0
    step = 4096
    while lo + step <= limit and a[na - lo - step : na - lo] == b[nb - lo - step : nb - lo]:
        lo += step
        if step < 1 << 20:
            step <<= 1
    hi = min(lo + step, limit)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[na - mid : na - lo] == b[nb - mid : nb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _pair(obj: Any) -> tuple[int, int]:
    """A ``(line, character)`` from a tuple, an object with attributes, or a mapping."""
    if isinstance(obj, Mapping):
        return int(obj.get("line", 0)), int(obj.get("character", 0))
    if hasattr(obj, "line"):
        return int(obj.line), int(obj.character)
    line, character = obj
    return int(line), int(character)


def _split_change(change: Any) -> tuple[tuple[tuple[int, int], tuple[int, int]] | None, str]:
    """``(range or None, text)`` for any accepted change shape (see the module docstring)."""
    if isinstance(change, str):
        return None, change
    if isinstance(change, Mapping):
        rng = change.get("range")
        text = change.get("text", "")
        if rng is None:
            return None, text
        return (_pair(rng["start"]), _pair(rng["end"])), text
    if hasattr(change, "text") and not isinstance(change, tuple):
        rng = getattr(change, "range", None)
        if rng is None:
            return None, change.text
        return (_pair(rng.start), _pair(rng.end)), change.text
    if len(change) == 3:
        start, end, text = change
        if start is None or end is None:
            return None, text
        return (_pair(start), _pair(end)), text
    rng, text = change
    if rng is None:
        return None, text
    if hasattr(rng, "start"):
        return (_pair(rng.start), _pair(rng.end)), text
    start, end = rng
    return (_pair(start), _pair(end)), text


class Document:
    """The mutable state of one open document."""

    __slots__ = ("uri", "version", "language_id", "_index")

    def __init__(self, uri: str, text: str, version: int = 0, language_id: str = "") -> None:
        self.uri = uri
        self.version = version
        self.language_id = language_id
        self._index = LineIndex(text)

    @property
    def text(self) -> str:
        """The whole text as one `str` (joined once per version after an edit: O(size))."""
        return self._index.text

    @property
    def buffer(self) -> TextBuffer:
        """The text for slicing (`buffer[a:b]`, `len`, `find`) without joining it."""
        return self._index.buffer

    @property
    def line_index(self) -> LineIndex:
        return self._index

    def position(self, offset: int, encoding: str = UTF16) -> tuple[int, int]:
        """``(line, character)`` of `offset`; see `LineIndex.position`."""
        return self._index.position(offset, encoding)

    def offset(self, position: tuple[int, int], encoding: str = UTF16) -> int:
        """Offset of ``(line, character)``; see `LineIndex.offset`."""
        return self._index.offset(position, encoding)

    def replace(self, start: int, end: int, new_text: str) -> Edit:
        """Replace ``text[start:end]`` (offsets, clamped, order-normalised) with `new_text`."""
        n = len(self._index.buffer)
        if start > end:
            start, end = end, start
        start = min(max(start, 0), n)
        end = min(max(end, 0), n)
        # The text is a `TextBuffer`: the splice rewrites one chunk, never the whole text.
        self._index.update(start, end, new_text)
        return Edit(start, end, start + len(new_text))

    def set_text(self, new_text: str) -> Edit:
        """Replace the whole text; reported (and indexed) as the smallest covering edit."""
        old = self._index.text
        prefix = _common_prefix(old, new_text)
        suffix = _common_suffix(old, new_text, min(len(old), len(new_text)) - prefix)
        old_end = len(old) - suffix
        new_end = len(new_text) - suffix
        if prefix == 0 and old_end == len(old) and len(old) > 0 and len(new_text) > 0:
            # Nothing in common: rebuilding beats splicing.
            self._index = LineIndex(new_text)
        else:
            self._index.update(prefix, old_end, new_text[prefix:new_end], new_text)
        return Edit(prefix, old_end, new_end)

    def apply_changes(
        self, changes: Iterable[Any], encoding: str = UTF16, version: int | None = None
    ) -> list[Edit]:
        """Apply LSP content changes in order; one `Edit` per change (see the module docstring).

        `version`, when given, becomes the document's version.
        """
        encoding = check_encoding(encoding)
        edits: list[Edit] = []
        for change in changes:
            rng, text = _split_change(change)
            if rng is None:
                edits.append(self.set_text(text))
                continue
            index = self._index
            start = index.offset(rng[0], encoding)
            end = index.offset(rng[1], encoding)
            edits.append(self.replace(start, end, text))
        if version is not None:
            self.version = version
        return edits

    def __repr__(self) -> str:
        return f"Document({self.uri!r}, version={self.version}, len={len(self.text)})"
