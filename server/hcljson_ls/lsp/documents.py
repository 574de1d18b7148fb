"""The server's own store of open documents (pygls's workspace never sees them).

    is_ours(uri, language_id) -> bool
    DocumentStore: open / change / close / get / uris / revision

Contract
--------
* A document is ours when its language id is one of `LANGUAGE_IDS` or its file name ends with
  ``.tf.json`` or ``.tofu.json`` (any language id: VS Code and Neovim call such files ``json``).
  Other documents are not stored; changes and closes for them are ignored.
* `change` applies incremental (or full) content changes through `features.state.DocumentState`,
  whose cost does not grow with the document size.
* `revision(uri)` is a number that changes on every open and every change of that document, and
  never repeats within a session (a document closed and reopened at the same version gets a new
  one); it identifies a diagnostics result (`resultId`).
"""

from __future__ import annotations

import itertools
import logging
import posixpath
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote, urlsplit

from ..features.state import DocumentState

log = logging.getLogger(__name__)

#: Language ids that always mean "Terraform/OpenTofu JSON" (the VS Code extension's is the first).
LANGUAGE_IDS = frozenset({"terraform-json", "opentofu-json", "tofu-json"})
SUFFIXES = (".tf.json", ".tofu.json")


def file_name(uri: str) -> str:
    """The last path segment of `uri`, percent-decoded (``""`` when there is none)."""
    try:
        path = urlsplit(uri).path
    except ValueError:
        path = uri
    return posixpath.basename(unquote(path))


def is_ours(uri: str, language_id: str | None) -> bool:
    if language_id in LANGUAGE_IDS:
        return True
    return file_name(uri).lower().endswith(SUFFIXES)


class DocumentStore:
    def __init__(self) -> None:
        self._states: dict[str, DocumentState] = {}
        self._revisions: dict[str, int] = {}
        self._counter = itertools.count(1)

    def open(self, uri: str, text: str, version: int, language_id: str) -> DocumentState | None:
        """Store and parse a newly opened document; None (and nothing stored) when it is not ours."""
        if not is_ours(uri, language_id):
            log.debug("ignoring %s (language id %r)", uri, language_id)
            self._states.pop(uri, None)
            return None
        state = DocumentState.open(uri, text, version, language_id)
        self._states[uri] = state
        self._revisions[uri] = next(self._counter)
        return state

    def change(self, uri: str, version: int, changes: Iterable[Any], encoding: str) -> DocumentState | None:
        state = self._states.get(uri)
        if state is None:
            return None
        state.apply_changes(changes, encoding, version)
        self._revisions[uri] = next(self._counter)
        return state

    def close(self, uri: str) -> bool:
        """Forget `uri`; True when it was one of ours."""
        self._revisions.pop(uri, None)
        return self._states.pop(uri, None) is not None

    def get(self, uri: str) -> DocumentState | None:
        return self._states.get(uri)

    def revision(self, uri: str) -> int | None:
        return self._revisions.get(uri)

    def uris(self) -> list[str]:
        return list(self._states)

    def __iter__(self) -> Iterator[DocumentState]:
        return iter(list(self._states.values()))

    def __len__(self) -> int:
        return len(self._states)
