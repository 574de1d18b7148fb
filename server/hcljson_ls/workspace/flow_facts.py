"""The flow facts (`terraform.flow.FileFlow`) of each JSON configuration file, remembered until the
file changes, and a module's put together.

    FlowFacts(module_map, documents, marks_appeared)
      .of_module(key, always=False) -> [(uri, FileFlow)] | None   every JSON file's of module `key`
      .active                            the modules whose facts hold marks (as last put together)
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
* When a module's facts come to hold marks (`active`), the owner is told (`marks_appeared(key)`):
  where marks flow may have changed in its other documents without any declaration changing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..jsonsyntax import parse
from ..terraform.analysis import analyze_file
from ..terraform.definition import catalogue
from ..terraform.rules.flow import FileFlow, file_flow, may_mark, may_mark_changed
from .document import DocumentState
from .files import read_text, uri_of_path
from .module_map import ModuleMap
from .open_documents import OpenDocuments


class FlowFacts:
    __slots__ = ("_entries", "_modules", "_documents", "_marks_appeared", "active")

    def __init__(self, module_map: ModuleMap, documents: OpenDocuments, marks_appeared: Callable[[str], None]) -> None:
        self._entries: dict[str, tuple[Any, list]] = {}  # uri -> (stamp, entry)
        self._modules = module_map
        self._documents = documents
        self._marks_appeared = marks_appeared
        self.active: set[str] = set()  # modules whose flow facts hold marks

    def of_module(self, key: str, always: bool = False) -> list[tuple[str, FileFlow]] | None:
        """`(uri, flow facts)` of every JSON configuration file of module `key` (`terraform.flow`),
        open buffers over the files on disk; None when the module has an override file (it may
        change what a variable or output declares: the module is not judged). Empty when no file
        of the module may mark a value (`terraform.flow.may_mark`, a text search), unless `always`
        (a child module's variables): then no document's analysis is built for it (a quick-opened
        document keeps its quick result).
        Native files say nothing here (their variables count as unmarked). Each file's facts are
        remembered until it changes (an open document's revision, a file's summary on disk)."""
        names = self._modules.effective_names(key)
        if any(catalogue.is_override_file(n) for n in names):
            return None
        module = self._modules.module(key)
        open_docs = self._documents.by_name(key)
        files: list[tuple[str, Any, Any]] = []  # (uri, stamp, how to read it)
        for name in names:
            if catalogue.file_kind(name) != catalogue.CONFIG_JSON:
                continue
            uri = open_docs.get(name)
            if uri is not None:
                files.append((uri, ("open", self._documents.revision(uri)), self._documents.get(uri)))
                continue
            disk_file = module.disk.get(name)
            if disk_file is None or not os.path.isabs(key):
                continue
            path = os.path.join(key, name)
            files.append((uri_of_path(path), self._modules.summary(module, disk_file), path))
        limit = self._documents.max_file_bytes
        entries = [self.entry(uri, stamp, source, limit) for uri, stamp, source in files]
        if not always and not any(marking for marking, _ in entries):
            self.active.discard(key)
            return []
        out = [(uri, FlowFacts.facts(entry)) for (uri, _, _), entry in zip(files, entries)]
        if any(f.has_marks for _, f in out):
            if key not in self.active:  # marks appeared without a declaration changing: the others again
                self.active.add(key)
                self._marks_appeared(key)
        else:
            self.active.discard(key)
        return out

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
