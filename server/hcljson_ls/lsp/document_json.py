"""Whole-document answers in their JSON shape, without lsprotocol: document symbols, folding
ranges and semantic tokens, what an editor asks of a document as it opens it. The server's handlers
answer with them (wrapped in `convert.Json`, between their cancellation points), and so does
`lsp.first_open` before pygls and lsprotocol are imported.

    symbols_json(symbols, index, encoding, hierarchical, uri) -> list[dict]
                                       DocumentSymbol[], or SymbolInformation[] (flat) without `hierarchical`
    folding_json(snapshot, uri, index, encoding, line_folding_only, range_limit) -> list[dict]
    semantic_tokens_json(snapshot, uri, index, encoding, span=None) -> dict   SemanticTokens
    whole_document_json(store, uri, method, capabilities, group_by_construct_path, encoding)
                                       the answer to one of `WHOLE_DOCUMENT_METHODS`, the client's
                                       capabilities as JSON data (`first_open`)
    SYMBOL_KINDS                       LSP's `SymbolKind` numbers by name
    LEGEND                             the semantic tokens' legend (types, modifiers)

Contract
--------
* Ranges go through the document's `LineIndex` in the session's position encoding, in bulk
  (`lsp.positions.Positions`). Each result is built in its JSON shape directly, exactly as
  lsprotocol would write it (tests compare the two): tens of thousands of lsprotocol objects would
  cost more to build and to serialize than everything else.
* Document symbols: `kind` is LSP's number of the `SymbolKind` member it names (`SYMBOL_KINDS`,
  compared with lsprotocol's by a test; a kind LSP does not name is `Object`); an empty `detail` is
  left out. Clients without hierarchical support get the same symbols flattened (parents first)
  with `containerName`.
* Folding: `startLine` is the line of the opening bracket, `endLine` the line of the closing one,
  minus one when the closing bracket starts its own line (only whitespace before it), so that it
  stays visible. Ranges that end up spanning no line are dropped, and so is any later range that
  starts on the line of an earlier one (the outer one is kept; editors fold one range per line).
  Unless the client folds whole lines only, `startCharacter` is just after the opening bracket and
  `endCharacter` is the closing bracket's column when `endLine` is its line. At most `range_limit`.
* Semantic tokens: `{"data": [...]}`, LSP's relative encoding (`lsp.semantic_encoding`) with
  `LEGEND`, the legend the server advertises.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..features import folding as folding_feature
from ..features import semantic_tokens as semantic_feature
from ..features import symbols as symbols_feature
from ..features.folding import FoldingRange
from ..features.symbols import DocumentSymbol
from ..text.line_index import LineIndex
from ..workspace import Snapshot, Workspace
from .positions import Positions
from .semantic_encoding import encode as encode_tokens

#: LSP's `SymbolKind` numbers, by name.
SYMBOL_KINDS: dict[str, int] = {
    "File": 1, "Module": 2, "Namespace": 3, "Package": 4, "Class": 5, "Method": 6, "Property": 7,
    "Field": 8, "Constructor": 9, "Enum": 10, "Interface": 11, "Function": 12, "Variable": 13,
    "Constant": 14, "String": 15, "Number": 16, "Boolean": 17, "Array": 18, "Object": 19, "Key": 20,
    "Null": 21, "EnumMember": 22, "Struct": 23, "Event": 24, "Operator": 25, "TypeParameter": 26,
}
_OBJECT = SYMBOL_KINDS["Object"]

#: The semantic tokens' legend: (token types, token modifiers).
LEGEND = semantic_feature.legend()
#: The methods `whole_document_json` answers.
WHOLE_DOCUMENT_METHODS = frozenset({"textDocument/documentSymbol", "textDocument/foldingRange",
                                    "textDocument/semanticTokens/full"})


def symbols_json(symbols: Sequence[DocumentSymbol], index: LineIndex, encoding: str, hierarchical: bool,
                 uri: str) -> list[dict]:
    """`symbols` as `DocumentSymbol[]`, or flat as `SymbolInformation[]` for a client without
    hierarchical support."""
    pos = Positions(index, encoding)
    return document_symbols(symbols, pos) if hierarchical else symbol_information(symbols, pos, uri)


def folding_json(snapshot: Snapshot, uri: str, index: LineIndex, encoding: str, line_folding_only: bool,
                 range_limit: int | None) -> list[dict]:
    """The folding ranges of document `uri` (`features.folding`), as `FoldingRange[]`."""
    return folding_ranges(folding_feature.folding_ranges(snapshot, uri), Positions(index, encoding),
                          line_folding_only, range_limit)


def semantic_tokens_json(snapshot: Snapshot, uri: str, index: LineIndex, encoding: str,
                         span: tuple[int, int] | None = None) -> dict:
    """The semantic tokens of document `uri` (`features.semantic_tokens`; those of offsets `span`
    only, when given), as `SemanticTokens`."""
    tokens = semantic_feature.semantic_tokens(snapshot, uri) if span is None else semantic_feature.semantic_tokens(snapshot, uri, *span)
    return {"data": encode_tokens(tokens, index, encoding, LEGEND)}


def whole_document_json(store: Workspace, uri: str, method: str, capabilities: Any, group_by_construct_path: bool,
                        encoding: str) -> Any:
    """The server's answer to `method` (one of `WHOLE_DOCUMENT_METHODS`) for open document `uri`
    of `store`, as JSON data; `capabilities` is the client's ``textDocument`` capabilities."""
    state = store.get(uri)
    if state is None:
        return None
    snapshot, index = store.snapshot(), state.line_index
    if method == "textDocument/documentSymbol":
        return symbols_json(symbols_feature.document_symbols(snapshot, uri, group_by_construct_path), index, encoding,
                            bool(_capability(capabilities, "documentSymbol", "hierarchicalDocumentSymbolSupport")), uri)
    if method == "textDocument/foldingRange":
        return folding_json(snapshot, uri, index, encoding,
                            bool(_capability(capabilities, "foldingRange", "lineFoldingOnly")),
                            _capability(capabilities, "foldingRange", "rangeLimit"))
    return semantic_tokens_json(snapshot, uri, index, encoding)


def _capability(capabilities: Any, *path: str) -> Any:
    for name in path:
        capabilities = capabilities.get(name) if isinstance(capabilities, dict) else None
    return capabilities


def document_symbols(symbols: Sequence[DocumentSymbol], pos: Positions) -> list[dict]:
    # Each symbol's JSON, children first (`symbols.rebuilt`), its four places filled in after, in one
    # conversion of all their offsets.
    made: list[tuple[dict, DocumentSymbol]] = []

    def make(symbol: DocumentSymbol, children: list[dict]) -> dict:
        item: dict = {"name": symbol.name, "kind": SYMBOL_KINDS.get(symbol.kind, _OBJECT), "range": None,
                      "selectionRange": None}
        if symbol.detail:
            item["detail"] = symbol.detail
        if children:
            item["children"] = children
        made.append((item, symbol))
        return item

    out = symbols_feature.rebuilt(symbols, make)
    offsets: list[int] = []
    for _, x in made:
        offsets += (x.start, x.end, x.selection_start, x.selection_end)
    lines, chars = pos.many(offsets)
    at = [{"line": ln, "character": ch} for ln, ch in zip(lines, chars)]
    k = 0
    for item, _ in made:
        item["range"] = {"start": at[k], "end": at[k + 1]}
        item["selectionRange"] = {"start": at[k + 2], "end": at[k + 3]}
        k += 4
    return out


def symbol_information(symbols: Sequence[DocumentSymbol], pos: Positions, uri: str) -> list[dict]:
    flat: list[tuple[DocumentSymbol, str | None]] = []
    stack: list[tuple[DocumentSymbol, str | None]] = [(s, None) for s in reversed(symbols)]
    while stack:
        symbol, container = stack.pop()
        flat.append((symbol, container))
        stack.extend((c, symbol.name) for c in reversed(symbol.children))
    offsets: list[int] = []
    for x, _ in flat:
        offsets += (x.start, x.end)
    lines, chars = pos.many(offsets)
    out: list[dict] = []
    for i, (symbol, container) in enumerate(flat):
        j = 2 * i
        item = {
            "name": symbol.name,
            "kind": SYMBOL_KINDS.get(symbol.kind, _OBJECT),
            "location": {"uri": uri, "range": {"start": {"line": lines[j], "character": chars[j]},
                                               "end": {"line": lines[j + 1], "character": chars[j + 1]}}},
        }
        if container is not None:
            item["containerName"] = container
        out.append(item)
    return out


def folding_ranges(ranges: Iterable[FoldingRange], pos: Positions, line_folding_only: bool,
                   range_limit: int | None) -> list[dict]:
    text = pos.text
    starts = pos.starts
    line_of = pos.line
    out: list[dict] = []
    last_start_line = -1
    for r in ranges:
        start_line = line_of(r.start)
        if start_line == last_start_line:
            continue
        close_line = line_of(r.end)
        end_line = close_line
        own_line = not text[starts[close_line] : r.end].strip()
        if own_line:
            end_line -= 1
        if end_line <= start_line:
            continue
        folding: dict = {"startLine": start_line, "endLine": end_line}
        if r.kind is not None:
            folding["kind"] = r.kind
        if not line_folding_only:
            folding["startCharacter"] = pos.position(r.start + 1)[1]
            if not own_line:
                folding["endCharacter"] = pos.position(r.end)[1]
        out.append(folding)
        last_start_line = start_line
        if range_limit is not None and len(out) >= range_limit:
            break
    return out
