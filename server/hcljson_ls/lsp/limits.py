"""Open documents over the `maxFileSizeMB` setting: not analysed, syntax only; a diagnostic says so.

    Oversized()
      .open(uri, text, version, max_mb, docs_url=None) -> bool   True (and remembered, and logged
                                                                 once) when `text` is over the limit
      .diagnostics(uri) -> (version, [Diagnostic]) | None         for an oversized open document
      .change(uri, version, changes) -> bool                      True when `uri` is one: its
                                                                 diagnostics now stand for `version`
      .close(uri) -> bool                                         True when `uri` was one
      uri in oversized

Contract
--------
* The size is the text's UTF-8 length (`workspace.files.too_large` words the message, as for a
  file on disk skipped by the scan). Such a document is never stored, parsed or analysed: the
  server keeps only its diagnostic (`limit/file-too-large`, a warning at the start of the file),
  published once per version; its edits are not analysed until it is closed and opened again (also
  after the setting changes: the text is not kept to analyse it later). An edit moves its
  diagnostics on to the new version, so a client that drops diagnostics of an older version still
  shows them: the `limit/file-too-large` warning stays; the syntax error is found again when the
  edit sends the whole text (a client without incremental sync), and is dropped otherwise (its
  position may no longer be right, and the text to find it again is not kept).
* Syntax only: the text is read once by the standard JSON reader (C speed, its objects dropped at
  once), and its first syntax error, if any, is a second diagnostic (`limit/syntax-only`, an error
  at that character, the reader's own wording), so a broken 50 MB file still says where.
* Opening a smaller version of an oversized document forgets that it was one.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from ..diagnostic import ERROR, WARNING, Diagnostic
from ..text.line_index import LineIndex
from ..workspace.files import MB, file_name, too_large, utf8_size
from . import convert

log = logging.getLogger(__name__)

CODE = "limit/file-too-large"
SYNTAX_CODE = "limit/syntax-only"


def _position(text: str, offset: int) -> types.Position:
    """The LSP (UTF-16) position of `offset`, without indexing the whole text."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=len(text[start:offset].encode("utf-16-le", "surrogatepass")) // 2)


def first_syntax_error(text: str) -> tuple[int, str] | None:
    """(offset, message) of the first JSON syntax error the standard reader finds, or None."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return e.pos, e.msg
    except (ValueError, RecursionError) as e:  # nesting deeper than the reader's recursion limit
        return 0, str(e) or type(e).__name__
    return None


class Oversized:
    def __init__(self) -> None:
        self._open: dict[str, tuple[int, list[types.Diagnostic], str | None]] = {}  # uri -> (version, shown, docs url)

    def open(self, uri: str, text: str, version: int, max_mb: int, docs_url: str | None = None) -> bool:
        limit = max_mb * MB
        problem = too_large(file_name(uri) or uri, utf8_size(text, limit), limit)
        if problem is None:
            self._open.pop(uri, None)
            return False
        log.warning("%s", problem)
        core = Diagnostic(0, 0, WARNING, CODE, "File too large",
                          problem + " Only its JSON syntax is checked; raise the setting and reopen the file to analyse it.")
        shown = [convert.to_diagnostic(core, LineIndex(""), "utf-16", uri, docs_url)]
        error = first_syntax_error(text)
        if error is not None:
            shown.append(self._syntax(uri, text, error, docs_url))
        self._open[uri] = (version, shown, docs_url)
        return True

    @staticmethod
    def _syntax(uri: str, text: str, error: tuple[int, str], docs_url: str | None) -> types.Diagnostic:
        at = _position(text, error[0])
        syntax = convert.to_diagnostic(
            Diagnostic(0, 0, ERROR, SYNTAX_CODE, "Invalid JSON", f"{error[1]} (the file is too large to say more)."),
            LineIndex(""), "utf-16", uri, docs_url,
        )
        syntax.range = types.Range(start=at, end=at)
        return syntax

    def change(self, uri: str, version: int, changes: Sequence[Any]) -> bool:
        found = self._open.get(uri)
        if found is None:
            return False
        shown = [d for d in found[1] if d.code == CODE]
        whole = next((c for c in reversed(changes) if getattr(c, "range", None) is None and hasattr(c, "text")), None)
        if whole is not None and whole is changes[-1]:
            error = first_syntax_error(whole.text) if len(whole.text) else None
            if error is not None:
                shown.append(self._syntax(uri, whole.text, error, found[2]))
        self._open[uri] = (version, shown, found[2])
        return True

    def diagnostics(self, uri: str) -> tuple[int, list[types.Diagnostic]] | None:
        found = self._open.get(uri)
        return None if found is None else (found[0], list(found[1]))

    def close(self, uri: str) -> bool:
        return self._open.pop(uri, None) is not None

    def __contains__(self, uri: str) -> bool:
        return uri in self._open
