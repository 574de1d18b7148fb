"""The plain results the feature requests return, in character offsets (the `lsp` layer turns them
into LSP types). They live apart from the requests so that the implementation serving a kind of
file (`features.kinds`) returns them as the configuration's implementation does.

    Hover(markdown, start, end)
    Location(uri, start, end)
    CompletionItem(label, kind, start, end, insert_text, ...)
    DocumentSymbol(name, kind, start, end, selection_start, selection_end, detail, children)
    Token = (start, end, token type, modifiers)       one semantic token
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Hover:
    markdown: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Location:
    uri: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class CompletionItem:
    label: str
    kind: str  # an LSP `CompletionItemKind` member name
    start: int  # the range the item replaces (the typed part of the word)
    end: int
    insert_text: str
    snippet: bool = False
    detail: str = ""
    documentation: str = ""
    sort: str = "5"  # relevance group, then the label
    filter: str = ""  # what a client matches the typed text against (default: the label)
    deprecated: bool = False  # shown struck through (LSP `CompletionItemTag.Deprecated`)


@dataclass(frozen=True, slots=True)
class DocumentSymbol:
    name: str
    kind: str
    start: int
    end: int
    selection_start: int
    selection_end: int
    detail: str = ""
    children: tuple[DocumentSymbol, ...] = ()


Token = tuple[int, int, str, tuple[str, ...]]
