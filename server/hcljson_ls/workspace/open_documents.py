"""The documents the editor has open, laid over the files on disk: their states, a revision each,
and which of them are stale (their diagnostics may have changed through another file).

    OpenDocuments()
      .get(uri) / .uris() / len() / uri in       the open states
      .put(state) / .drop(uri)                   opened (a new revision), closed (forgotten)
      .revision(uri)                             changes on every open and change, never repeats
      .touch(uris)                               new revisions (what they report may differ)
      .stale(uris) / .take_stale()               to diagnose again, collected until taken
      .in_module(key, but=None)                  the open URIs of module directory `key`
      .by_name(key)                              the same by file name
      .variable_files() / .test_files()          the open `*.tfvars.json` and test files
      .text_of(uri) / .view_of(uri) / .line_index(uri)   the open buffer's, else the file on disk's

Contract
--------
* A revision comes from one counter for all documents: a revision never repeats, so a result id
  made of it (`Workspace.result_id`) names one version of what a document reports.
* `take_stale` returns only URIs still open.
* `in_module` reads the module of each open URI from its path (`files.module_key`): a workspace
  holds few open documents, and this is asked once per event or request, not per reference.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ..hcljson.incremental import FileView
from ..terraform.filekinds.testfile import is_test_file
from ..terraform.filekinds.tfvars import is_tfvars
from ..text.line_index import LineIndex
from .disk_reads import DiskReads
from .document import DocumentState
from .files import MAX_FILE_BYTES, file_name, module_key, path_of_uri, read_text


class OpenDocuments:
    """The open documents: states, revisions, the stale set, and reads that prefer their buffers."""

    __slots__ = ("_states", "_revisions", "_counter", "_stale", "_tfvars", "_tests", "disk", "max_file_bytes")

    def __init__(self) -> None:
        self._states: dict[str, DocumentState] = {}
        self._revisions: dict[str, int] = {}
        self._counter = itertools.count(1)
        self._stale: set[str] = set()
        self._tfvars: set[str] = set()  # the open variable definitions files
        self._tests: set[str] = set()  # the open test files
        self.disk = DiskReads()  # views and line indexes of files on disk read for requests
        self.max_file_bytes = MAX_FILE_BYTES  # files on disk above it are not read

    def get(self, uri: str) -> DocumentState | None:
        return self._states.get(uri)

    def uris(self) -> list[str]:
        return list(self._states)

    def items(self) -> Iterable[tuple[str, DocumentState]]:
        return self._states.items()

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, uri: object) -> bool:
        return uri in self._states

    def put(self, state: DocumentState) -> None:
        """`state` is the open document of its URI now, with a new revision."""
        uri = state.uri
        self._states[uri] = state
        self._revisions[uri] = next(self._counter)
        if is_tfvars(uri):
            self._tfvars.add(uri)
        if is_test_file(uri):
            self._tests.add(uri)

    def drop(self, uri: str) -> None:
        """`uri` is no longer open (nothing happens when it was not)."""
        self._states.pop(uri, None)
        self._revisions.pop(uri, None)
        self._tfvars.discard(uri)
        self._tests.discard(uri)

    def revision(self, uri: str) -> int | None:
        """A number that changes on every open and change of `uri` and never repeats."""
        return self._revisions.get(uri)

    def touch(self, uris: Iterable[str]) -> None:
        """Each open one of `uris` gets a new revision: what it reports may differ."""
        for uri in uris:
            if uri in self._states:
                self._revisions[uri] = next(self._counter)

    def stale(self, uris: Iterable[str]) -> None:
        """`uris` are to be diagnosed again (`take_stale`)."""
        self._stale.update(uris)

    def take_stale(self) -> set[str]:
        """The open documents made stale since the last call."""
        stale, self._stale = self._stale, set()
        return {u for u in stale if u in self._states}

    def in_module(self, key: str, but: str | None = None) -> set[str]:
        """The open URIs of module directory `key`, but `but`."""
        return {u for u in self._states if u != but and module_key(u) == key}

    def by_name(self, key: str) -> dict[str, str]:
        """file name -> open URI, of module directory `key`."""
        return {file_name(u): u for u in self._states if module_key(u) == key}

    def variable_files(self) -> set[str]:
        """The open variable definitions files (`*.tfvars.json`)."""
        return self._tfvars

    def test_files(self) -> set[str]:
        """The open test files."""
        return self._tests

    def text_of(self, uri: str) -> str | None:
        """The text of `uri`: the open buffer's, else the file on disk's (None when unreadable)."""
        state = self._states.get(uri)
        if state is not None:
            return state.text
        path = path_of_uri(uri)
        return read_text(path, self.max_file_bytes).text if path is not None else None

    def view_of(self, uri: str) -> tuple[str, FileView] | None:
        """The text (an open document's `TextBuffer`: slice it) and decoded body of JSON file `uri`:
        the open document's analysis, else the file on disk analysed now (kept for the last few
        files only: a request's, not a summary)."""
        state = self._states.get(uri)
        if state is not None:
            # The text buffer, not a joined `str` (slices and indexing are all a view's readers do).
            return state.document.buffer, state.analysis.body  # type: ignore[return-value]
        path = path_of_uri(uri)
        return self.disk.view(path, self.max_file_bytes) if path is not None else None

    def line_index(self, uri: str) -> LineIndex | None:
        """The `LineIndex` of `uri`: the open buffer's, else the file on disk's (read once per
        stamp); None when it cannot be read."""
        state = self._states.get(uri)
        if state is not None:
            return state.line_index
        path = path_of_uri(uri)
        return self.disk.line_index(path, self.max_file_bytes) if path is not None else None
