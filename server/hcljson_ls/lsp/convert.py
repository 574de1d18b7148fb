"""Core data <-> lsprotocol types. Offsets become positions here and nowhere else in `lsp/`.

    to_range(index, start, end, encoding) -> types.Range
    to_diagnostic(d, index, encoding, uri, docs_url=None) -> types.Diagnostic
    code_anchor(code) -> str
    to_document_symbols(symbols, index, encoding) -> list[types.DocumentSymbol]
    to_symbol_information(symbols, index, encoding, uri) -> list[types.SymbolInformation]   (flat)
    to_folding_ranges(ranges, index, encoding, line_folding_only=True, range_limit=None)
    to_selection_range(selection, index, encoding) -> types.SelectionRange
    to_hover(hover, index, encoding) -> types.Hover | None

Contract
--------
* Ranges go through the document's `LineIndex` in the session's negotiated position encoding.
* A diagnostic keeps its stable `code`, gets ``source="hcljson-ls"``, its `message` (summary then
  detail), and `relatedInformation` from `related` (in the same document). When `docs_url` is set,
  `codeDescription.href` is ``<docs_url>#<code_anchor(code)>``.
* Document symbols: `kind` names a `SymbolKind` member; an empty `detail` is left out. Clients
  without hierarchical support get the same symbols flattened (parents first) with `containerName`.
* Folding: `startLine` is the line of the opening bracket, `endLine` the line of the closing one,
  minus one when the closing bracket starts its own line (only whitespace before it), so that it
  stays visible. Ranges that end up spanning no line are dropped, and so is any later range that
  starts on the line of an earlier one (the outer one is kept; editors fold one range per line).
  Unless the client folds whole lines only, `startCharacter` is just after the opening bracket and
  `endCharacter` is the closing bracket's column when `endLine` is its line. At most `range_limit`.
* Selection ranges keep the chain's order (innermost first, `parent` outwards).
* `code_anchor` is the anchor GitHub-style Markdown renderers give a heading that is exactly the
  code in backticks (e.g. ``### `syntax/missing-comma` `` -> ``syntaxmissing-comma``).
"""

from __future__ import annotations

import re

from lsprotocol import types

from collections.abc import Iterable, Sequence

from .. import diagnostic as core
from ..features.folding import FoldingRange
from ..features.hover import Hover
from ..features.selection import SelectionRange
from ..features.symbols import DocumentSymbol
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


# -- document symbols ----------------------------------------------------------------------------


def _symbol_kind(kind: str) -> types.SymbolKind:
    try:
        return types.SymbolKind[kind]
    except KeyError:
        return types.SymbolKind.Object


def to_document_symbols(symbols: Sequence[DocumentSymbol], index: LineIndex, encoding: str) -> list[types.DocumentSymbol]:
    """Hierarchical symbols, converted without recursion (post-order over an explicit stack)."""
    out: list[types.DocumentSymbol] = []
    # frame: [symbol, the list to append its result to, converted children or None]
    stack: list[list] = [[s, out, None] for s in reversed(symbols)]
    while stack:
        frame = stack[-1]
        symbol, target, children = frame
        if children is None and symbol.children:
            frame[2] = children = []
            stack.extend([c, children, None] for c in reversed(symbol.children))
            continue
        stack.pop()
        target.append(
            types.DocumentSymbol(
                name=symbol.name,
                kind=_symbol_kind(symbol.kind),
                range=to_range(index, symbol.start, symbol.end, encoding),
                selection_range=to_range(index, symbol.selection_start, symbol.selection_end, encoding),
                detail=symbol.detail or None,
                children=children,
            )
        )
    return out


def to_symbol_information(
    symbols: Sequence[DocumentSymbol], index: LineIndex, encoding: str, uri: str
) -> list[types.SymbolInformation]:
    """The same symbols, flat (each before its children), for clients without hierarchical support."""
    out: list[types.SymbolInformation] = []
    stack: list[tuple[DocumentSymbol, str | None]] = [(s, None) for s in reversed(symbols)]
    while stack:
        symbol, container = stack.pop()
        out.append(
            types.SymbolInformation(
                name=symbol.name,
                kind=_symbol_kind(symbol.kind),
                location=types.Location(uri=uri, range=to_range(index, symbol.start, symbol.end, encoding)),
                container_name=container,
            )
        )
        stack.extend((c, symbol.name) for c in reversed(symbol.children))
    return out


# -- folding ---------------------------------------------------------------------------------------


def to_folding_ranges(
    ranges: Iterable[FoldingRange],
    index: LineIndex,
    encoding: str,
    line_folding_only: bool = True,
    range_limit: int | None = None,
) -> list[types.FoldingRange]:
    text = index.text
    out: list[types.FoldingRange] = []
    last_start_line = -1
    for r in ranges:
        start_line, start_character = index.position(r.start, encoding)
        if start_line == last_start_line:
            continue
        close_line, close_character = index.position(r.end, encoding)
        end_line = close_line
        own_line = not text[index.line_start(close_line) : r.end].strip()
        if own_line:
            end_line -= 1
        if end_line <= start_line:
            continue
        folding = types.FoldingRange(start_line=start_line, end_line=end_line, kind=r.kind)
        if not line_folding_only:
            folding.start_character = index.position(r.start + 1, encoding)[1]
            if not own_line:
                folding.end_character = close_character
        out.append(folding)
        last_start_line = start_line
        if range_limit is not None and len(out) >= range_limit:
            break
    return out


# -- selection and hover -----------------------------------------------------------------------------


def to_selection_range(selection: SelectionRange, index: LineIndex, encoding: str) -> types.SelectionRange:
    chain = selection.chain()  # innermost first
    result: types.SelectionRange | None = None
    for start, end in reversed(chain):
        result = types.SelectionRange(range=to_range(index, start, end, encoding), parent=result)
    assert result is not None
    return result


def empty_selection(position: types.Position) -> types.SelectionRange:
    return types.SelectionRange(range=types.Range(start=position, end=position))


def to_hover(hover: Hover | None, index: LineIndex, encoding: str) -> types.Hover | None:
    if hover is None:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=hover.markdown),
        range=to_range(index, hover.start, hover.end, encoding),
    )
