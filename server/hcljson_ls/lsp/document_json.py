"""Whole-document answers in their JSON shape, without lsprotocol: document symbols, folding
ranges and semantic tokens, what an editor asks of a document as it opens it.

    document_symbols(symbols, pos) -> list[dict]                  DocumentSymbol[]
    symbol_information(symbols, pos, uri) -> list[dict]           SymbolInformation[], flat
    folding_ranges(ranges, pos, line_folding_only, range_limit) -> list[dict]    FoldingRange[]
    whole_document_json(store, uri, method, capabilities, group_by_construct_path, encoding)
                                       -> the answer to one of `WHOLE_DOCUMENT_METHODS`, JSON data
    SYMBOL_KINDS                       LSP's `SymbolKind` numbers by name

Contract
--------
* `lsp.convert` wraps the first three for the server (`Json`; its module doc says how they are
  written, and tests compare them with what lsprotocol writes). `whole_document_json` is the
  server's answer made from the same features and builders (`lsp.server`'s handlers, less their
  cancellation points): `lsp.first_open` answers with it before pygls and lsprotocol are imported.
* LSP's numbers are written out (`SYMBOL_KINDS`; a test compares them with lsprotocol's); a kind
  LSP does not name is `Object`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..features import folding as folding_feature
from ..features import semantic_tokens as semantic_feature
from ..features import symbols as symbols_feature
from ..features.folding import FoldingRange
from ..features.symbols import DocumentSymbol
from ..workspace import Workspace
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

#: The methods `whole_document_json` answers.
WHOLE_DOCUMENT_METHODS = frozenset({"textDocument/documentSymbol", "textDocument/foldingRange",
                                    "textDocument/semanticTokens/full"})


def whole_document_json(store: Workspace, uri: str, method: str, capabilities: Any, group_by_construct_path: bool,
                        encoding: str) -> Any:
    """The server's answer to `method` (one of `WHOLE_DOCUMENT_METHODS`) for open document `uri`
    of `store`, as JSON data; `capabilities` is the client's ``textDocument`` capabilities."""
    state = store.get(uri)
    if state is None:
        return None
    snapshot, index = store.snapshot(), state.line_index
    pos = Positions(index, encoding)
    if method == "textDocument/documentSymbol":
        symbols = symbols_feature.document_symbols(snapshot, uri, group_by_construct_path)
        if _capability(capabilities, "documentSymbol", "hierarchicalDocumentSymbolSupport"):
            return document_symbols(symbols, pos)
        return symbol_information(symbols, pos, uri)
    if method == "textDocument/foldingRange":
        return folding_ranges(folding_feature.folding_ranges(snapshot, uri), pos,
                              bool(_capability(capabilities, "foldingRange", "lineFoldingOnly")),
                              _capability(capabilities, "foldingRange", "rangeLimit"))
    tokens = semantic_feature.semantic_tokens(snapshot, uri)
    return {"data": encode_tokens(tokens, index, encoding, semantic_feature.legend())}


def _capability(capabilities: Any, *path: str) -> Any:
    for name in path:
        capabilities = capabilities.get(name) if isinstance(capabilities, dict) else None
    return capabilities


def document_symbols(symbols: Sequence[DocumentSymbol], pos: Positions) -> list[dict]:
    # Pass 1: every symbol in the order pass 2 makes them (post-order), and its four offsets.
    emitted: list[DocumentSymbol] = []
    stack: list[list] = [[s, False] for s in reversed(symbols)]
    while stack:
        frame = stack[-1]
        symbol = frame[0]
        if not frame[1] and symbol.children:
            frame[1] = True
            stack.extend([c, False] for c in reversed(symbol.children))
            continue
        stack.pop()
        emitted.append(symbol)
    offsets: list[int] = []
    for x in emitted:
        offsets += (x.start, x.end, x.selection_start, x.selection_end)
    lines, chars = pos.many(offsets)
    at = [{"line": ln, "character": ch} for ln, ch in zip(lines, chars)]
    # Pass 2: the JSON, children before their parent, in the same order.
    out: list[dict] = []
    k = 0
    # frame: [symbol, the list to append its result to, converted children or None]
    frames: list[list] = [[s, out, None] for s in reversed(symbols)]
    while frames:
        frame = frames[-1]
        symbol, target, children = frame
        if children is None and symbol.children:
            frame[2] = children = []
            frames.extend([c, children, None] for c in reversed(symbol.children))
            continue
        frames.pop()
        item = {
            "name": symbol.name,
            "kind": SYMBOL_KINDS.get(symbol.kind, _OBJECT),
            "range": {"start": at[k], "end": at[k + 1]},
            "selectionRange": {"start": at[k + 2], "end": at[k + 3]},
        }
        k += 4
        if symbol.detail:
            item["detail"] = symbol.detail
        if children:
            item["children"] = children
        target.append(item)
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
