"""Open documents over the `maxFileSizeMB` setting: not analysed, one diagnostic each says so.

    Oversized()
      .open(uri, text, version, max_mb, docs_url=None) -> bool   True (and remembered, and logged
                                                                 once) when `text` is over the limit
      .diagnostics(uri) -> (version, [Diagnostic]) | None         for an oversized open document
      .close(uri) -> bool                                         True when `uri` was one
      uri in oversized

Contract
--------
* The size is the text's UTF-8 length (`workspace.files.too_large` words the message, as for a
  file on disk skipped by the scan). Such a document is never stored, parsed or analysed: the
  server keeps only its diagnostic (`limit/file-too-large`, a warning at the start of the file),
  published once; its edits are ignored until it is closed and opened again (also after the
  setting changes: the text is not kept to analyse it later).
* Opening a smaller version of an oversized document forgets that it was one.
"""

from __future__ import annotations

import logging

from lsprotocol import types

from ..diagnostic import WARNING, Diagnostic
from ..text.line_index import LineIndex
from ..workspace.files import MB, file_name, too_large
from . import convert

log = logging.getLogger(__name__)

CODE = "limit/file-too-large"


def utf8_size(text: str, limit: int) -> int:
    """The UTF-8 length of `text`, encoded only when its length in characters cannot decide."""
    if len(text) > limit or 4 * len(text) <= limit:
        return len(text)  # over for sure (a character is at least a byte), or under for sure
    return len(text.encode("utf-8", "surrogatepass"))


class Oversized:
    def __init__(self) -> None:
        self._open: dict[str, tuple[int, types.Diagnostic]] = {}

    def open(self, uri: str, text: str, version: int, max_mb: int, docs_url: str | None = None) -> bool:
        limit = max_mb * MB
        problem = too_large(file_name(uri) or uri, utf8_size(text, limit), limit)
        if problem is None:
            self._open.pop(uri, None)
            return False
        log.warning("%s", problem)
        core = Diagnostic(0, 0, WARNING, CODE, "File too large",
                          problem + " Raise the setting and reopen the file to analyse it.")
        self._open[uri] = (version, convert.to_diagnostic(core, LineIndex(""), "utf-16", uri, docs_url))
        return True

    def diagnostics(self, uri: str) -> tuple[int, list[types.Diagnostic]] | None:
        found = self._open.get(uri)
        return None if found is None else (found[0], [found[1]])

    def close(self, uri: str) -> bool:
        return self._open.pop(uri, None) is not None

    def __contains__(self, uri: str) -> bool:
        return uri in self._open
