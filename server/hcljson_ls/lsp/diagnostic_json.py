"""The LSP `Diagnostic` of a core diagnostic as JSON data, without lsprotocol (issue 22 §4).

    diagnostic_json(d, index, encoding, uri, docs_url=None, index_of=None) -> dict
    diagnostic_text(d, index, encoding, uri, docs_url=None, index_of=None) -> str
                                      ``json.dumps`` of that data, written directly
    write_diagnostic(d, range_text, uri, docs_url=None, escape=False, elsewhere=None) -> str
                                      the same text with the ranges written by the caller (templates)
    code_anchor(code) -> str          the section anchor of a code in docs/diagnostics.md
    range_json(index, start, end, encoding) -> dict     an LSP `Range` as JSON data
    SOURCE                            every diagnostic's ``source``

Contract
--------
The data is what pygls writes for the lsprotocol `Diagnostic` (`convert.to_diagnostic` structures
it; `tests/lsp/test_diagnostic_forms.py` compares them). This module imports neither lsprotocol
nor cattrs, so that the first document's diagnostics (`lsp.first_open`) can be sent before those
are imported; LSP's enumeration values are written here as numbers (LSP 3.17).

A diagnostic's quick fixes (`Diagnostic.fixes`) are not part of it: no `data` is written. They are
worked out when the client asks for code actions (`features.quick_fixes`, `convert.to_quick_fixes`):
carried in `data`, they were ~40% of the answer for a 5 MB document with 24,750 diagnostics shown,
and converting their ranges a good part of the forms' cost (issue 21 §3, session 12).

`diagnostic_text` and `write_diagnostic` write the JSON text of that data without building it:
exactly ``json.dumps(diagnostic_json(...))`` (default separators, ``ensure_ascii``), the fields in
the same order, each string written by the `json` module's own C string encoder (a property test
in `tests/lsp/test_diagnostic_text.py` compares them). Why: the open of a file with 24,750
diagnostics shown made a dict per diagnostic and walked it with ``json.dumps``, ~half of the
forms' cost (`lsp.diagnostic_forms`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from json.encoder import encode_basestring_ascii as _string  # `json.dumps` of a str (ensure_ascii), in C
from typing import Any

from .. import diagnostic as core
from ..text.line_index import LineIndex

SOURCE = "hcljson-ls"

#: LSP's `DiagnosticSeverity` values.
ERROR, WARNING, INFORMATION, HINT = 1, 2, 3, 4
#: LSP's `DiagnosticTag` values.
UNNECESSARY, DEPRECATED = 1, 2


@functools.lru_cache(maxsize=1024)
def code_anchor(code: str) -> str:
    return re.sub(r"[^\w\- ]", "", code.lower()).replace(" ", "-")


def diagnostic_json(
    d: core.Diagnostic, index: LineIndex, encoding: str, uri: str, docs_url: str | None = None,
    index_of: Callable[[str], LineIndex | None] | None = None,
) -> dict[str, Any]:
    """The LSP `Diagnostic` of `d` as JSON data, exactly as pygls writes the lsprotocol object
    (`convert.to_diagnostic`): its fields in lsprotocol's order, none that is None. Built directly: the wire
    form of tens of thousands of diagnostics is made here (`lsp.diagnostic_forms`)."""
    out: dict[str, Any] = {"range": range_json(index, d.start, d.end, encoding), "message": d.plain_message,
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
            related.append({"location": {"uri": where, "range": range_json(where_index, r.start, r.end, encoding)},
                            "message": core.plain(r.message)})
        out["relatedInformation"] = related
    return out


def diagnostic_text(
    d: core.Diagnostic, index: LineIndex, encoding: str, uri: str, docs_url: str | None = None,
    index_of: Callable[[str], LineIndex | None] | None = None,
) -> str:
    """``json.dumps(diagnostic_json(d, ...))``, written directly (see the module doc)."""

    def range_text(start: int, end: int, where: LineIndex = index) -> str:
        (sl, sc), (el, ec) = where.position(start, encoding), where.position(end, encoding)
        return f'{{"start": {{"line": {sl}, "character": {sc}}}, "end": {{"line": {el}, "character": {ec}}}}}'

    def elsewhere(r: core.Related) -> str | None:
        other = index_of(r.uri) if index_of is not None and r.uri is not None else None
        return None if other is None else range_text(r.start, r.end, other)

    return write_diagnostic(d, range_text, uri, docs_url, False, elsewhere)


def write_diagnostic(
    d: core.Diagnostic, range_text: Callable[[int, int], str], uri: str, docs_url: str | None = None,
    escape: bool = False, elsewhere: Callable[[core.Related], str | None] | None = None,
) -> str:
    """The text `diagnostic_text` writes, each range of this document written by `range_text(start,
    end)`, called in the order the ranges appear in the text: the diagnostic's, then its related
    locations' (in order). A related location in another file is written by
    `elsewhere` (None: dropped, as `diagnostic_json` drops one whose file cannot be read; without
    `elsewhere`, every one is dropped). With `escape`, every ``%`` of the strings is doubled (the
    text is then a ``%`` template whose conversions are `range_text`'s)."""
    code = d.code

    def q(value: str) -> str:
        text = _string(value)
        return text.replace("%", "%%") if escape and "%" in text else text

    parts = ['{"range": ', range_text(d.start, d.end), ', "message": ', q(d.plain_message), ', "severity": ',
             _SEVERITY_TEXT.get(d.severity, "1")]
    if code:
        parts += [', "code": ', q(code)]
        if docs_url:
            parts += [', "codeDescription": {"href": ', q(f"{docs_url}#{code_anchor(code)}"), "}"]
    parts.append(_SOURCE_FIELD)
    if code in _DEPRECATED_CODES:
        parts.append(f', "tags": [{DEPRECATED}]')
    elif code in _UNNECESSARY_CODES:
        parts.append(f', "tags": [{UNNECESSARY}]')
    related = d.related
    if related:
        items = []
        for r in related:
            if r.uri is not None and r.uri != uri:
                where = elsewhere(r) if elsewhere is not None else None
                if where is None:
                    continue  # that file cannot be read now: its place cannot be shown
                items.append(f'{{"location": {{"uri": {q(r.uri)}, "range": {where}}}, "message": {q(core.plain(r.message))}}}')
            else:
                items.append(f'{{"location": {{"uri": {q(uri)}, "range": {range_text(r.start, r.end)}}}, '
                             f'"message": {q(core.plain(r.message))}}}')
        parts += [', "relatedInformation": [', ", ".join(items), "]"]
    parts.append("}")
    return "".join(parts)


#: LSP's `DiagnosticSeverity` of each of ours.
_SEVERITY = {core.ERROR: ERROR, core.WARNING: WARNING, core.INFORMATION: INFORMATION, core.HINT: HINT}

_SEVERITY_TEXT = {k: str(v) for k, v in _SEVERITY.items()}
_SOURCE_FIELD = f', "source": {_string(SOURCE)}'

#: Codes whose subject is deprecated: the client strikes it through (`DiagnosticTag.Deprecated`).
_DEPRECATED_CODES = frozenset({"schema/deprecated"})
#: Codes whose subject could go: the client fades it (`DiagnosticTag.Unnecessary`).
_UNNECESSARY_CODES = frozenset({"reference/unused"})


def range_json(index: LineIndex, start: int, end: int, encoding: str) -> dict:
    """The LSP `Range` of `[start, end)`, in its JSON shape."""
    (sl, sc), (el, ec) = index.position(start, encoding), index.position(end, encoding)
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
