"""The LSP `Diagnostic` of a core diagnostic as JSON data, without lsprotocol (issue 22 §4).

    diagnostic_json(d, index, encoding, uri, docs_url=None, index_of=None) -> dict
    code_anchor(code) -> str          the section anchor of a code in docs/diagnostics.md
    SOURCE                            every diagnostic's ``source``

Contract
--------
The data is what pygls writes for the lsprotocol `Diagnostic` (`convert.to_diagnostic` structures
it; `tests/lsp/test_diagnostic_forms.py` compares them). This module imports neither lsprotocol
nor cattrs, so that the first document's diagnostics (`lsp.first_open`) can be sent before those
are imported; LSP's enumeration values are written here as numbers (LSP 3.17).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .. import diagnostic as core
from ..text.line_index import LineIndex

SOURCE = "hcljson-ls"

#: LSP's `DiagnosticSeverity` values.
ERROR, WARNING, INFORMATION, HINT = 1, 2, 3, 4
#: LSP's `DiagnosticTag` values.
UNNECESSARY, DEPRECATED = 1, 2


def code_anchor(code: str) -> str:
    return re.sub(r"[^\w\- ]", "", code.lower()).replace(" ", "-")


def diagnostic_json(
    d: core.Diagnostic, index: LineIndex, encoding: str, uri: str, docs_url: str | None = None,
    index_of: Callable[[str], LineIndex | None] | None = None,
) -> dict[str, Any]:
    """The LSP `Diagnostic` of `d` as JSON data, exactly as pygls writes the lsprotocol object
    (`convert.to_diagnostic`): its fields in lsprotocol's order, none that is None. Built directly: the wire
    form of tens of thousands of diagnostics is made here (`lsp.diagnostic_forms`)."""
    out: dict[str, Any] = {"range": _range_json(index, d.start, d.end, encoding), "message": d.plain_message,
                           "severity": _SEVERITY.get(d.severity, ERROR)}
    if d.code:
        out["code"] = d.code
        if docs_url:
            out["codeDescription"] = {"href": f"{docs_url}#{code_anchor(d.code)}"}
    out["source"] = SOURCE
    if d.code in _DEPRECATED_CODES:
        out["tags"] = [DEPRECATED]  # the client strikes it through
    elif d.code in _UNNECESSARY_CODES:
        out["tags"] = [UNNECESSARY]  # the client fades it
    if d.related:
        related = []
        for r in d.related:
            where, where_index = uri, index
            if r.uri is not None and r.uri != uri:
                other = index_of(r.uri) if index_of is not None else None
                if other is None:
                    continue  # that file cannot be read now: its place cannot be shown
                where, where_index = r.uri, other
            related.append({"location": {"uri": where, "range": _range_json(where_index, r.start, r.end, encoding)},
                            "message": core.plain(r.message)})
        out["relatedInformation"] = related
    if d.fixes:
        # The quick fixes travel with the diagnostic (`data`), so a code action needs no recomputation.
        out["data"] = {"fixes": [{"range": _range_json(index, f.start, f.end, encoding), "newText": f.new_text,
                                  "title": f.title} for f in d.fixes]}
    return out


#: LSP's `DiagnosticSeverity` of each of ours.
_SEVERITY = {core.ERROR: ERROR, core.WARNING: WARNING, core.INFORMATION: INFORMATION, core.HINT: HINT}

#: Codes whose subject is deprecated: the client strikes it through (`DiagnosticTag.Deprecated`).
_DEPRECATED_CODES = frozenset({"schema/deprecated"})
#: Codes whose subject could go: the client fades it (`DiagnosticTag.Unnecessary`).
_UNNECESSARY_CODES = frozenset({"reference/unused"})


def _range_json(index: LineIndex, start: int, end: int, encoding: str) -> dict:
    (sl, sc), (el, ec) = index.position(start, encoding), index.position(end, encoding)
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
