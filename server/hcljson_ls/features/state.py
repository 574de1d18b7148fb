"""One open document and everything derived from it: the unit every feature works on.

    DocumentState.open(uri, text, version, language_id) -> DocumentState
    state.apply_changes(changes, encoding, version=None) -> list[Edit]
    state.syntax                   the current `jsonsyntax.ParseResult` (identical to a full parse)
    state.cached(key, compute)     a later layer's result for the current text, computed once
    state.kept(key, factory)       a per-document object that survives changes (e.g. a decode cache)
    state.path                     the file system path of a `file:` URI (else the URI's path), or None

Contract
--------
* `state.document` is the `text.Document` (text, version, language id, `LineIndex`).
* `apply_changes` applies LSP content changes one by one (each relative to the text left by the
  previous one; see `text.document`) and, for each resulting `Edit`, updates the parse with
  `jsonsyntax.reparse.reparse(old_result, None, document.buffer, edit)` (slices only: no copy of
  the whole text). A full-text replacement arrives
  as the smallest covering edit, so it goes through `reparse` too, which falls back to a full parse
  when that is cheaper. Edits with nothing to do (no change at all) keep the current parse.
* Parsing never raises by contract; if it does anyway (a bug), the error is logged, the parse is
  dropped and redone in full the next time `syntax` is read, so a bug costs one slow parse, never a
  stale tree or a lost document.
* `cached(key, compute)` stores `compute(state)` until the next change; later layers (HCL structure,
  templates, Terraform) keep their per-document results there instead of adding fields here.
  Everything cached is dropped on every change. `kept(key, factory)` is for objects a layer carries
  from one version to the next itself (such as the analysis engine, `hcljson.incremental.IncrementalFile`):
  made once per document. A kept object with a `note_edit(edit)` method is told about every `Edit`
  that changed the text, in order, as it is applied -- the very edit the reparse got -- so it knows
  where the tree changed.
* Not thread-safe: one owner (the LSP event loop, or the CLI) mutates a state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

from ..jsonsyntax import ParseResult, parse
from ..text.buffer import TextBuffer
from ..text.document import Document, Edit
from ..text.encodings import UTF16
from ..text.line_index import LineIndex

log = logging.getLogger(__name__)

T = TypeVar("T")


def _reparse(old: ParseResult, new_text: TextBuffer, edit: Edit) -> ParseResult:
    from ..jsonsyntax.reparse import reparse

    return reparse(old, None, new_text, edit)


class DocumentState:
    """The text of one document plus its parse and the results of later layers."""

    __slots__ = ("document", "_syntax", "_cache", "_kept")

    def __init__(self, document: Document, syntax: ParseResult | None = None) -> None:
        self.document = document
        self._syntax = syntax
        self._cache: dict[str, Any] = {}
        self._kept: dict[str, Any] = {}

    @classmethod
    def open(cls, uri: str, text: str, version: int = 0, language_id: str = "") -> DocumentState:
        state = cls(Document(uri, text, version, language_id))
        state._syntax = state._full_parse()
        return state

    # -- the document -------------------------------------------------------------------------

    @property
    def uri(self) -> str:
        return self.document.uri

    @property
    def version(self) -> int:
        return self.document.version

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def line_index(self) -> LineIndex:
        return self.document.line_index

    @property
    def path(self) -> str | None:
        """The file system path for a `file:` URI; the path part of another URI; None without one.

        Layers use it for what a file's name means (e.g. Terraform override files), never to read it.
        """
        parts = urlsplit(self.document.uri)
        if not parts.path:
            return None
        path = unquote(parts.path)
        if parts.scheme == "file" and parts.netloc and parts.netloc != "localhost":
            path = f"//{parts.netloc}{path}"  # UNC
        return path

    # -- layers -------------------------------------------------------------------------------

    @property
    def syntax(self) -> ParseResult:
        """The current JSON parse; parsed in full on demand after a failed incremental update."""
        if self._syntax is None:
            self._syntax = parse(self.document.text)
        return self._syntax

    def cached(self, key: str, compute: Callable[[DocumentState], T]) -> T:
        """`compute(self)`, remembered until the text changes."""
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = compute(self)
            return value

    def kept(self, key: str, factory: Callable[[], T]) -> T:
        """A per-document object made by `factory()` on first use and kept across changes."""
        try:
            return self._kept[key]
        except KeyError:
            value = self._kept[key] = factory()
            return value

    # -- changes ------------------------------------------------------------------------------

    def apply_changes(
        self, changes: Iterable[Any], encoding: str = UTF16, version: int | None = None
    ) -> list[Edit]:
        """Apply LSP content changes (see `text.document`) and bring the parse up to date."""
        document = self.document
        edits: list[Edit] = []
        self._cache.clear()
        for change in changes:
            for edit in document.apply_changes((change,), encoding):
                edits.append(edit)
                if edit.start == edit.old_end == edit.new_end:
                    continue  # nothing changed
                # The reparse slices the text buffer around the edit: no copy of the whole text.
                self._update_syntax(document.buffer, edit)
                self._note_edit(edit)
        if version is not None:
            document.version = version
        return edits

    def _note_edit(self, edit: Edit) -> None:
        dropped = []
        for key, value in self._kept.items():
            note = getattr(value, "note_edit", None)
            if note is None:
                continue
            try:
                note(edit)
            except Exception:
                # One that cannot follow edits must not serve stale results: made afresh next time.
                log.exception("kept %r could not take an edit for %s; dropping it", key, self.uri)
                dropped.append(key)
        for key in dropped:
            del self._kept[key]

    def _update_syntax(self, new_text: TextBuffer, edit: Edit) -> None:
        old = self._syntax
        if old is None:
            return  # already dropped: the next read of `syntax` parses in full
        try:
            self._syntax = _reparse(old, new_text, edit)
        except Exception:
            log.exception("incremental reparse failed for %s (%r); parsing in full next time", self.uri, edit)
            self._syntax = None

    def _full_parse(self) -> ParseResult | None:
        try:
            return parse(self.document.text)
        except Exception:
            log.exception("parse failed for %s", self.document.uri)
            return None

    def __repr__(self) -> str:
        return f"DocumentState({self.uri!r}, version={self.version}, len={len(self.text)})"
