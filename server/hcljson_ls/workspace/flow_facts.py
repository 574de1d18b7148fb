"""The flow facts (`terraform.flow.FileFlow`) of each JSON configuration file, remembered until the
file changes; `Workspace.flow_facts` puts a module's together.

    FlowFacts()
      .entry(uri, stamp, source, max_file_bytes) -> [may mark, facts or what to compute them from]
      .facts(entry) -> FileFlow          (static) the facts of an entry, computed once
      .forget(uri)                       the document closed

Contract
--------
* `stamp` says what the entry was made from (an open document's revision, a file's summary on
  disk): an entry is kept while the stamp is the same (or equal). `source` is the open
  `DocumentState` or the file's path (read at most `max_file_bytes`).
* "may mark" is `terraform.flow.may_mark`, a text search of the buffer (no join of a large text per
  version); the facts themselves are computed only when asked (`facts`), once per entry. An open
  document that could not mark at its previous entry is searched around what changed since only
  (`may_mark_changed`, through `DocumentState.keep` / `carried`).
"""

from __future__ import annotations

from typing import Any

from ..jsonsyntax import parse
from ..terraform.analysis import analyze_file
from ..terraform.rules.flow import FileFlow, file_flow, may_mark, may_mark_changed
from .document import DocumentState
from .files import read_text


class FlowFacts:
    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[str, tuple[Any, list]] = {}  # uri -> (stamp, entry)

    def entry(self, uri: str, stamp: Any, source: Any, max_file_bytes: int) -> list:
        """The remembered `[may mark, facts or the text/state to compute them from]` of one file."""
        cached = self._entries.get(uri)
        if cached is not None and (cached[0] is stamp or cached[0] == stamp):
            return cached[1]
        if isinstance(source, DocumentState):
            entry = [_document_may_mark(source), source]
        else:
            got = read_text(source, max_file_bytes)
            entry = [got.text is not None and may_mark(got.text), (got.text, source)]
        self._entries[uri] = (stamp, entry)
        return entry

    @staticmethod
    def facts(entry: list) -> FileFlow:
        """The facts of one file's entry (`entry`), computed once."""
        got = entry[1]
        if isinstance(got, FileFlow):
            return got
        if isinstance(got, DocumentState):
            flow = file_flow(got.text, got.analysis.body.each_block())  # not `blocks`: every body kept
        else:
            text, path = got
            flow = file_flow(text, analyze_file(text, parse(text).root, path).body.blocks) if text is not None else FileFlow()
        entry[1] = flow
        return flow

    def forget(self, uri: str) -> None:
        self._entries.pop(uri, None)


_MAY_MARK = "may mark"  # (`DocumentState.keep` key)


def _document_may_mark(state: DocumentState) -> bool:
    """`may_mark` of an open document's buffer (never joined for it), searched around the change
    since the last answer only when that answer was False (`may_mark_changed`)."""
    buffer = state.document.buffer
    kept = state.carried(_MAY_MARK)
    if kept is not None and not kept[0]:
        change = kept[1]
        marking = change is not None and may_mark_changed(buffer, change[0], change[2])
    else:
        marking = may_mark(buffer)
    state.keep(_MAY_MARK, marking)
    return marking
