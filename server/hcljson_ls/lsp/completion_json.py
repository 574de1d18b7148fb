"""The answer to `textDocument/completion` in its JSON shape, without lsprotocol.

    completion_json(store, uri, line, character, encoding, snippets, prefill) -> dict
    completion_list_json(items, index, encoding) -> dict      (CompletionList)
    LAZY_DOCUMENTATION                                        longer lists leave documentation in `data`

Contract
--------
The server answers completions with it (`lsp.server.completion`, wrapped in `convert.Json`), and
`lsp.first_open` answers with it the completions of its document before pygls and lsprotocol are
imported: one answer either way. `completion_json` is `features.completion.complete` at the
position (clamped into the text, in the session's position encoding; before the tree is built,
from the top-level blocks around it: `features.around`, the same answer); an empty list when `uri`
is not an open document of ours. `snippets` is the client's ``completionItem.snippetSupport``,
`prefill` the ``completion.prefillRequiredFields`` setting.

The list is written as lsprotocol writes a `CompletionList` (tests compare the two): each item
with a `textEdit` over exactly the typed part of the word, sorted by relevance group then label
(`sortText`). In a list longer than `LAZY_DOCUMENTATION` the documentation travels in `data` and is
filled in on `completionItem/resolve` (`convert.resolve_completion`). (As lsprotocol objects,
unstructured by cattrs, the 1,917 items of a `depends_on` element at 5 MB were 19 ms of a ~24 ms
request.) The numbers below are LSP's (`CompletionItemKind`, `InsertTextFormat`,
`CompletionItemTag`); tests/lsp/test_lsp_convert.py checks them against lsprotocol's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..features import around
from ..features import completion as completion_feature
from ..text.line_index import LineIndex
from ..workspace import Workspace
from .diagnostic_json import range_json

__all__ = ["COMPLETION_KINDS", "LAZY_DOCUMENTATION", "completion_json", "completion_list_json"]

#: Longer completion lists leave each item's documentation for `completionItem/resolve`.
LAZY_DOCUMENTATION = 50

#: LSP's `CompletionItemKind` numbers, by the member names `features.completion` gives as kinds.
COMPLETION_KINDS = {
    "Text": 1, "Method": 2, "Function": 3, "Constructor": 4, "Field": 5, "Variable": 6, "Class": 7,
    "Interface": 8, "Module": 9, "Property": 10, "Unit": 11, "Value": 12, "Enum": 13, "Keyword": 14,
    "Snippet": 15, "Color": 16, "File": 17, "Reference": 18, "Folder": 19, "EnumMember": 20,
    "Constant": 21, "Struct": 22, "Event": 23, "Operator": 24, "TypeParameter": 25,
}
_TEXT_KIND = COMPLETION_KINDS["Text"]
#: LSP's `InsertTextFormat` and `CompletionItemTag` numbers.
_PLAIN_TEXT, _SNIPPET, _DEPRECATED = 1, 2, 1


def completion_json(store: Workspace, uri: str, line: int, character: int, encoding: str, snippets: bool,
                    prefill: bool) -> dict:
    state = store.get(uri)
    if state is None:
        return {"isIncomplete": False, "items": []}
    index = state.line_index
    offset = index.offset((line, character), encoding)
    items = around.answer(completion_feature.complete, store.snapshot(), uri, offset, snippets, prefill)
    return completion_list_json(items, index, encoding)


def completion_list_json(items: Iterable, index: LineIndex, encoding: str) -> dict:
    """`features.completion.CompletionItem`s as an LSP `CompletionList` in its JSON shape (above)."""
    items = list(items)
    lazy = len(items) > LAZY_DOCUMENTATION
    out = []
    # Items replace the same typed word: its range is converted once per list, not once per item.
    ranges: dict[tuple[int, int], dict] = {}
    for i in items:
        span = (i.start, i.end)
        edit_range = ranges.get(span)
        if edit_range is None:
            edit_range = ranges[span] = range_json(index, i.start, i.end, encoding)
        item: dict[str, Any] = {"label": i.label, "kind": COMPLETION_KINDS.get(i.kind, _TEXT_KIND)}
        if i.detail:
            item["detail"] = i.detail
        if i.documentation:
            if lazy:
                item["data"] = {"documentation": i.documentation}
            else:
                item["documentation"] = {"kind": "plaintext", "value": i.documentation}
        item["sortText"] = f"{i.sort}{i.label}"
        if i.deprecated:
            item["tags"] = [_DEPRECATED]
        item["filterText"] = i.filter or i.label
        item["insertTextFormat"] = _SNIPPET if i.snippet else _PLAIN_TEXT
        item["textEdit"] = {"range": edit_range, "newText": i.insert_text}
        out.append(item)
    return {"isIncomplete": False, "items": out}
