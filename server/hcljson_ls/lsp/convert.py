"""Core data <-> lsprotocol types. Offsets become positions here and nowhere else in `lsp/`.

    to_range(index, start, end, encoding) -> types.Range
    to_diagnostic(d, index, encoding, uri, docs_url=None) -> types.Diagnostic
    code_anchor(code) -> str

Contract
--------
* Ranges go through the document's `LineIndex` in the session's negotiated position encoding.
* A diagnostic keeps its stable `code`, gets ``source="hcljson-ls"``, its `message` (summary then
  detail), and `relatedInformation` from `related` (in the same document). When `docs_url` is set,
  `codeDescription.href` is ``<docs_url>#<code_anchor(code)>``.
* `code_anchor` is the anchor GitHub-style Markdown renderers give a heading that is exactly the
  code in backticks (e.g. ``### `syntax/missing-comma` `` -> ``syntaxmissing-comma``).
"""

from __future__ import annotations

import re

from lsprotocol import types

from .. import diagnostic as core
from ..text.line_index import LineIndex

SOURCE = "hcljson-ls"

_SEVERITY = {
    core.ERROR: types.DiagnosticSeverity.Error,
    core.WARNING: types.DiagnosticSeverity.Warning,
    core.INFORMATION: types.DiagnosticSeverity.Information,
    core.HINT: types.DiagnosticSeverity.Hint,
}


def to_position(index: LineIndex, offset: int, encoding: str) -> types.Position:
    line, character = index.position(offset, encoding)
    return types.Position(line=line, character=character)


def to_range(index: LineIndex, start: int, end: int, encoding: str) -> types.Range:
    return types.Range(start=to_position(index, start, encoding), end=to_position(index, end, encoding))


def code_anchor(code: str) -> str:
    return re.sub(r"[^\w\- ]", "", code.lower()).replace(" ", "-")


def to_diagnostic(
    d: core.Diagnostic, index: LineIndex, encoding: str, uri: str, docs_url: str | None = None
) -> types.Diagnostic:
    related = None
    if d.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=to_range(index, r.start, r.end, encoding)),
                message=r.message,
            )
            for r in d.related
        ]
    description = None
    if docs_url and d.code:
        description = types.CodeDescription(href=f"{docs_url}#{code_anchor(d.code)}")
    return types.Diagnostic(
        range=to_range(index, d.start, d.end, encoding),
        message=d.message,
        severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Error),
        code=d.code or None,
        code_description=description,
        source=SOURCE,
        related_information=related,
    )
