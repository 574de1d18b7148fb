"""Core data <-> lsprotocol types. Offsets become positions here, and in the JSON builders that
import no lsprotocol (`diagnostic_json`, `hover_json`, `completion_json`, `document_json`:
`lsp.first_open` uses them before the server is imported), and nowhere else in `lsp/`.

    to_range(index, start, end, encoding) -> types.Range
    diagnostic_json(d, index, encoding, uri, docs_url=None, index_of=None) -> dict (the wire form)
    to_diagnostic(d, index, encoding, uri, docs_url=None, index_of=None) -> types.Diagnostic
    code_anchor(code) -> str
    Json(value)                       a result already in its JSON shape
    to_selection_range(selection, index, encoding) -> types.SelectionRange
    to_signature_help(help, label_offsets=True) -> types.SignatureHelp | None
    to_text_edits(edits, index, encoding) -> Json (TextEdit[])
    to_quick_fixes(fixable, index, encoding, uri, sent, docs_url=None) -> list[types.CodeAction]

Contract
--------
* Ranges go through the document's `LineIndex` in the session's negotiated position encoding
  (whole-document results through `lsp.positions.Positions`, the same positions in bulk).
* Whole-document results (symbols, folding ranges, semantic tokens: `lsp.document_json`, whose
  module doc gives their rules) are built in their JSON shape directly and wrapped in `Json`,
  which is written without cattrs walking it (see `Json`): tens of thousands of lsprotocol objects
  would cost more to build and to serialize than everything else. So are a hover
  (`lsp.hover_json`), a completion list (`lsp.completion_json`) and text edits. The rest
  (diagnostics, selection ranges: a few objects each) are lsprotocol objects.
* A diagnostic keeps its stable `code`, gets ``source="hcljson-ls"``, its `message` (summary then
  detail), and `relatedInformation` from `related` (in the same document, or in another file of the
  module, whose `LineIndex` `index_of(uri)` gives; a place in a file that cannot be read is left
  out). When `docs_url` is set,
  `codeDescription.href` is ``<docs_url>#<code_anchor(code)>``.
* A diagnostic has no `data`: its quick fixes are answered on `textDocument/codeAction`
  (`to_quick_fixes`, of `features.quick_fixes.fixable`'s diagnostics), one action per fix, named by
  the client's diagnostic of the same range and code when the client sent it.
* Selection ranges keep the chain's order (innermost first, `parent` outwards).
* Signature help: one signature; parameter labels are `[start, end]` offsets into its label in
  UTF-16 code units whatever the position encoding (LSP: "based on a UTF-16 string
  representation"), or the parameter's text for clients without `labelOffsetSupport`; no active
  parameter is sent as an index past the last one (an omitted index would mean the first).
* `code_anchor` is the anchor GitHub-style Markdown renderers give a heading that is exactly the
  code in backticks (e.g. ``### `syntax/missing-comma` `` -> ``syntaxmissing-comma``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter

from .. import diagnostic as core
from ..features.selection import SelectionRange
from ..features.signature_help import SignatureHelp
from ..text.line_index import LineIndex
from .diagnostic_json import SOURCE, code_anchor, diagnostic_json, range_json  # noqa: F401 (re-exported: part of this module's API)
from .positions import Positions


def to_position(index: LineIndex, offset: int, encoding: str) -> types.Position:
    line, character = index.position(offset, encoding)
    return types.Position(line=line, character=character)


def to_range(index: LineIndex, start: int, end: int, encoding: str) -> types.Range:
    return types.Range(start=to_position(index, start, encoding), end=to_position(index, end, encoding))


def to_diagnostic(
    d: core.Diagnostic, index: LineIndex, encoding: str, uri: str, docs_url: str | None = None,
    index_of: Callable[[str], LineIndex | None] | None = None,
) -> types.Diagnostic:
    """`diagnostic_json` as an lsprotocol object."""
    return converter().structure(diagnostic_json(d, index, encoding, uri, docs_url, index_of), types.Diagnostic)


@functools.cache
def converter() -> Any:
    """pygls's converter of lsprotocol objects, made on first need (building one takes 20-80 ms)."""
    return default_converter()


def kind_wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether a code action of `kind` answers a request limited to `only` (LSP: a kind matches
    itself and its sub-kinds: `source` asks for `source.x`)."""
    return not only or any(kind == k or kind.startswith(f"{k}.") for k in only)


def to_quick_fixes(
    fixable: Sequence[core.Diagnostic], index: LineIndex, encoding: str, uri: str,
    sent: Sequence[types.Diagnostic], docs_url: str | None = None,
) -> list[types.CodeAction]:
    """One quick fix code action per fix of each of `fixable` (our diagnostics of document `uri`:
    `features.quick_fixes.fixable`), in order, each preferred. Each action names its diagnostic as
    the client has it: the one of `sent` (the request's `context.diagnostics`) that is ours with the
    same range and code, else ours as we send it (the client sent none, or stale ones); named
    without its `data` or related information (what identifies it: echoing more in each of N
    actions makes the answer grow with N)."""
    theirs: dict[tuple, types.Diagnostic] = {}
    for s in sent:
        if s.source in (SOURCE, None):
            theirs.setdefault((_span(s.range), s.code), s)  # (one look-up each: a client may send thousands)
    actions = []
    for d in fixable:
        where = to_range(index, d.start, d.end, encoding)
        named = theirs.get((_span(where), d.code))
        named = _without_data(named if named is not None else to_diagnostic(d, index, encoding, uri, docs_url))
        for fix in d.fixes:
            edit = types.TextEdit(range=to_range(index, fix.start, fix.end, encoding), new_text=fix.new_text)
            actions.append(types.CodeAction(
                title=fix.title, kind=types.CodeActionKind.QuickFix, diagnostics=[named], is_preferred=True,
                edit=types.WorkspaceEdit(changes={uri: [edit]}),
            ))
    return actions


def _span(r: types.Range) -> tuple[int, int, int, int]:
    return r.start.line, r.start.character, r.end.line, r.end.character


def _without_data(d: types.Diagnostic) -> types.Diagnostic:
    """`d` as a code action names it: what identifies it, without its `data` or related information."""
    return types.Diagnostic(
        range=d.range, message=d.message, severity=d.severity, code=d.code,
        code_description=d.code_description, source=d.source, tags=d.tags,
    )


def resolve_completion(item: types.CompletionItem) -> types.CompletionItem:
    """The item with the documentation `completion_json.completion_list_json` left in its `data`."""
    data = item.data if isinstance(item.data, dict) else {}
    doc = data.get("documentation")
    if isinstance(doc, str) and doc and item.documentation is None:
        item.documentation = types.MarkupContent(kind=types.MarkupKind.PlainText, value=doc)
    return item


def to_locations(locations: Iterable, index_of: Callable[[str], LineIndex | None], encoding: str) -> list[types.Location]:
    """`features.navigation.Location`s as LSP locations (a file that cannot be read is left out)."""
    out = []
    for loc in locations:
        index = index_of(loc.uri)
        if index is not None:
            out.append(types.Location(uri=loc.uri, range=to_range(index, loc.start, loc.end, encoding)))
    return out


def to_workspace_edit(edits: dict, index_of: Callable[[str], LineIndex | None], encoding: str) -> types.WorkspaceEdit:
    changes = {}
    for uri, items in edits.items():
        index = index_of(uri)
        if index is None:
            continue
        changes[uri] = [types.TextEdit(range=to_range(index, e.start, e.end, encoding), new_text=e.new_text) for e in items]
    return types.WorkspaceEdit(changes=changes)


def to_workspace_symbols(symbols: Iterable, index_of: Callable[[str], LineIndex | None], encoding: str) -> list[types.WorkspaceSymbol]:
    out = []
    for s in symbols:
        index = index_of(s.uri)
        if index is None:
            continue
        out.append(types.WorkspaceSymbol(
            name=s.name, kind=_symbol_kind(s.kind), container_name=s.container,
            location=types.Location(uri=s.uri, range=to_range(index, s.start, s.end, encoding)),
        ))
    return out


# -- whole-document results ---------------------------------------------------------------------


class Json:
    """A result already in its JSON shape (the LSP wire format), handed to pygls as it is.

    pygls 2.1 serializes a response with ``json.dumps(message, default=protocol._serialize_message)``,
    which unstructures the message with cattrs: lsprotocol objects field by field, plain lists and
    dicts element by element -- in Python, about a second for 120K document symbols -- while an
    object cattrs does not know is left alone, and for it `_serialize_message` returns
    ``value.__dict__``. So a `Json` is never walked by cattrs: its `__dict__` is the value, which
    `json` encodes at C speed. (Our protocol writes it itself, with msgspec: `protocol.encoded`,
    ~4x faster still.) The value must be made of dicts, lists, strings, numbers, booleans
    and None, with LSP's field names (camelCase) and None-valued optional fields left out, exactly
    as lsprotocol would write them (tests compare the two)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    @property
    def __dict__(self) -> object:  # type: ignore[override]
        return self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Json) and other.value == self.value

    def __repr__(self) -> str:
        return f"Json({self.value!r})"


def _symbol_kind(kind: str) -> types.SymbolKind:
    try:
        return types.SymbolKind[kind]
    except KeyError:
        return types.SymbolKind.Object


# -- selection and hover -----------------------------------------------------------------------------


#: The most ranges one selection chain sends: the innermost ones and the outermost. The answer is
#: a linked list that pygls serializes recursively (100 000 levels of nesting would overflow the
#: stack and leave the request unanswered), and no one expands a selection 200 times.
MAX_SELECTION_DEPTH = 200


def to_selection_range(selection: SelectionRange, index: LineIndex, encoding: str) -> types.SelectionRange:
    chain = selection.chain()  # innermost first
    if len(chain) > MAX_SELECTION_DEPTH:
        chain = [*chain[: MAX_SELECTION_DEPTH - 1], chain[-1]]
    result: types.SelectionRange | None = None
    for start, end in reversed(chain):
        result = types.SelectionRange(range=to_range(index, start, end, encoding), parent=result)
    assert result is not None
    return result


def empty_selection(position: types.Position) -> types.SelectionRange:
    return types.SelectionRange(range=types.Range(start=position, end=position))


def to_signature_help(help: SignatureHelp | None, label_offsets: bool = True) -> types.SignatureHelp | None:
    """One signature. Parameter labels are `[start, end]` offsets into the signature label in
    UTF-16 code units, as LSP defines them whatever the position encoding ("based on a UTF-16
    string representation"; clients such as Zed check it), or, for a client without
    `labelOffsetSupport`, the parameter's text itself. No active parameter (too many arguments) is
    sent as an index past the last parameter, which clients highlight nothing for (LSP 3.17 has no
    `null` here, and an omitted index means the first parameter). The same index goes in the
    signature itself."""
    if help is None:
        return None
    label = help.label
    parameters = []
    for p in help.parameters:
        if label_offsets:
            start = _utf16_length(label[: p.start])
            parameters.append(types.ParameterInformation(label=(start, start + _utf16_length(label[p.start : p.end]))))
        else:
            parameters.append(types.ParameterInformation(label=label[p.start : p.end]))
    active = help.active_parameter if help.active_parameter is not None else len(parameters)
    # The signature's own `activeParameter` is sent too: lsprotocol writes an unset one as `null`,
    # which LSP 3.18 reads as "no parameter is active", overriding the top-level index.
    signature = types.SignatureInformation(
        label=label,
        documentation=help.documentation or None,
        parameters=parameters,
        active_parameter=active,
    )
    return types.SignatureHelp(signatures=[signature], active_signature=0, active_parameter=active)


def _utf16_length(s: str) -> int:
    return len(s) + sum(1 for c in s if ord(c) > 0xFFFF)


# -- formatting ---------------------------------------------------------------------------------


def to_text_edits(edits: Sequence[tuple[int, int, str]], index: LineIndex, encoding: str) -> Json:
    """`features.formatting` edits `(start, end, new_text)` as `TextEdit[]` JSON (positions in bulk:
    reformatting a minified 5 MB document is ~0.5M edits)."""
    pos = Positions(index, encoding)
    offsets = [o for start, end, _ in edits for o in (start, end)]
    lines, chars = pos.many(offsets)
    return Json([
        {
            "range": {
                "start": {"line": lines[k], "character": chars[k]},
                "end": {"line": lines[k + 1], "character": chars[k + 1]},
            },
            "newText": e[2],
        }
        for k, e in zip(range(0, len(offsets), 2), edits)
    ])
