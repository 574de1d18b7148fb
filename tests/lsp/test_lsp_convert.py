"""`lsp.convert` writes whole-document results (symbols, folding ranges) as JSON directly: what pygls
sends must be what lsprotocol objects of the same results would have sent, in every encoding."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types

from hcljson_ls.diagnostic import ERROR, WARNING, Diagnostic
from hcljson_ls.features.folding import folding_ranges_in
from hcljson_ls.features.formatting import Layout, document_edits
from hcljson_ls.features.results import CompletionItem
from hcljson_ls.features.semantic_tokens import tokens_for_body
from hcljson_ls.features.symbols import symbols_in
from hcljson_ls.lsp import completion_json, convert, document_json, first_open
from hcljson_ls.lsp.hover_json import hover_json
from hcljson_ls.lsp.positions import Positions
from hcljson_ls.lsp.semantic_encoding import encode
from hcljson_ls.lsp.server import create_server
from hcljson_ls.text.line_index import LineIndex
from hcljson_ls.workspace import DocumentState, Workspace

TEXT = """{
  "resource": {"aws_instance": {"wéb😀": {"ami": "a", "lifecycle": {"ignore_changes": ["tags"]}},
                                "db": [{"ami": "b"}, {"ami": "c"}]}},\r
  "locals": {"n😀": 1, "m": {"x": [1,
     2]}},
  "variable": {"v": {}}
}
"""


def lsprotocol_symbols(symbols, index, encoding):
    def rng(a, b):
        return convert.to_range(index, a, b, encoding)

    def one(s):
        return types.DocumentSymbol(
            name=s.name, kind=types.SymbolKind[s.kind], range=rng(s.start, s.end),
            selection_range=rng(s.selection_start, s.selection_end), detail=s.detail or None,
            children=[one(c) for c in s.children] or None,
        )

    return [one(s) for s in symbols]


class Wire:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def close(self) -> None:
        pass


def sent(result, method: str):
    """The JSON result pygls writes when a handler for `method` returns `result`."""
    protocol = create_server().protocol
    wire = Wire()
    protocol.set_writer(wire)
    protocol._send_response(1, result)  # what pygls does with a handler's return value
    [data] = wire.sent
    return json.loads(data.split(b"\r\n\r\n", 1)[1])["result"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_document_symbols_are_sent_as_lsprotocol_would_send_them(encoding) -> None:
    state = DocumentState.open("file:///m/main.tf.json", TEXT, 1)
    symbols = symbols_in(state.analysis.body)
    index = state.line_index
    ours = convert.Json(document_json.symbols_json(symbols, index, encoding, True, state.uri))
    method = types.TEXT_DOCUMENT_DOCUMENT_SYMBOL
    assert sent(ours, method) == sent(lsprotocol_symbols(symbols, index, encoding), method)
    flat = convert.Json(document_json.symbols_json(symbols, index, encoding, False, state.uri))
    reference = []
    stack = [(s, None) for s in reversed(symbols)]
    while stack:
        s, container = stack.pop()
        reference.append(types.SymbolInformation(
            name=s.name, kind=types.SymbolKind[s.kind], container_name=container,
            location=types.Location(uri=state.uri, range=convert.to_range(index, s.start, s.end, encoding))))
        stack.extend((c, s.name) for c in reversed(s.children))
    assert sent(flat, method) == sent(reference, method)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
@pytest.mark.parametrize("line_folding_only", [True, False])
def test_folding_ranges_are_sent_as_lsprotocol_would_send_them(encoding, line_folding_only) -> None:
    state = DocumentState.open("file:///m/main.tf.json", TEXT, 1)
    index, text = state.line_index, state.text
    ranges = folding_ranges_in(state.syntax.root, text)
    ours = convert.Json(document_json.folding_ranges(ranges, Positions(index, encoding), line_folding_only, 2))
    reference = []
    last = -1
    for r in ranges:
        sl, _ = index.position(r.start, encoding)
        if sl == last:
            continue
        cl, cc = index.position(r.end, encoding)
        own = not text[index.line_start(cl) : r.end].strip()
        el = cl - 1 if own else cl
        if el <= sl:
            continue
        f = types.FoldingRange(start_line=sl, end_line=el, kind=r.kind)
        if not line_folding_only:
            f.start_character = index.position(r.start + 1, encoding)[1]
            if not own:
                f.end_character = cc
        reference.append(f)
        last = sl
    method = types.TEXT_DOCUMENT_FOLDING_RANGE
    assert sent(ours, method) == sent(reference[:2], method)
    assert len(ours.value) == 2 and len(reference) == 3


def test_semantic_tokens_are_sent_as_lsprotocol_would_send_them() -> None:
    store = Workspace()
    store.open("file:///m/main.tf.json", TEXT, 1, "terraform-json")
    state = store.get("file:///m/main.tf.json")
    ours = document_json.semantic_tokens_json(store.snapshot(), state.uri, state.line_index, "utf-16")
    data = encode(tokens_for_body(state.text, state.analysis.body), state.line_index, "utf-16", document_json.LEGEND)
    method = types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL
    assert len(data) > 10 and ours == {"data": data}
    assert sent(convert.Json(ours), method) == sent(types.SemanticTokens(data=data), method)


def test_a_deprecated_argument_is_tagged_deprecated_and_nothing_else_is() -> None:
    # Editors strike the subject through (LSP `DiagnosticTag.Deprecated`): only `schema/deprecated`.
    text = '{"bucket": "b"}'
    index = LineIndex(text)
    deprecated = Diagnostic(1, 9, WARNING, "schema/deprecated", 'Deprecated attribute "bucket"', "It is deprecated.")
    unknown = Diagnostic(1, 9, ERROR, "schema/unknown-argument", 'Unsupported argument "bucket"', "No such argument.")
    assert list(convert.to_diagnostic(deprecated, index, "utf-16", "file:///x.tf.json").tags or ()) == [types.DiagnosticTag.Deprecated]
    assert convert.diagnostic_json(deprecated, index, "utf-16", "file:///x.tf.json")["tags"] == [types.DiagnosticTag.Deprecated.value]
    assert convert.to_diagnostic(unknown, index, "utf-16", "file:///x.tf.json").tags is None


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_formatting_edits_are_sent_as_lsprotocol_would_send_them(encoding) -> None:
    # TEXT has non-ASCII and astral characters before edits on the same line, and a "\r\n".
    edits = document_edits(TEXT, Layout(4, False))
    index = LineIndex(TEXT)
    assert len(edits) > 20
    reference = [types.TextEdit(range=convert.to_range(index, a, b, encoding), new_text=new) for a, b, new in edits]
    method = types.TEXT_DOCUMENT_FORMATTING
    assert sent(convert.to_text_edits(edits, index, encoding), method) == sent(reference, method)


def lsprotocol_completion_list(items, index, encoding):
    """What `completion_json.completion_list_json` sends, as lsprotocol objects (the form it had before it
    wrote the JSON shape itself)."""
    lazy = len(items) > completion_json.LAZY_DOCUMENTATION
    return types.CompletionList(is_incomplete=False, items=[
        types.CompletionItem(
            label=i.label,
            kind=types.CompletionItemKind[i.kind] if i.kind in types.CompletionItemKind.__members__ else types.CompletionItemKind.Text,
            detail=i.detail or None,
            documentation=types.MarkupContent(kind=types.MarkupKind.PlainText, value=i.documentation)
            if i.documentation and not lazy else None,
            data={"documentation": i.documentation} if lazy and i.documentation else None,
            sort_text=f"{i.sort}{i.label}",
            tags=[types.CompletionItemTag.Deprecated] if i.deprecated else None,
            filter_text=i.filter or i.label,
            insert_text_format=types.InsertTextFormat.Snippet if i.snippet else types.InsertTextFormat.PlainText,
            text_edit=types.TextEdit(range=convert.to_range(index, i.start, i.end, encoding), new_text=i.insert_text),
        )
        for i in items
    ])


@pytest.mark.parametrize("many", [False, True], ids=["documented", "documentation-resolved-later"])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_completion_lists_are_sent_as_lsprotocol_would_send_them(encoding, many) -> None:
    # Items over an astral character's word (TEXT's `wéb😀`), every optional field set and not.
    index = LineIndex(TEXT)
    at = TEXT.index("wéb😀")  # search: the word the items replace
    kinds = ["Property", "Variable", "Snippet", "Module", "not-a-kind"]
    items = [
        CompletionItem(f"it\u00e9m{n}", kinds[n % len(kinds)], at + n % 2, at + 5, f'"x{n}😀"', snippet=n % 3 == 0,
                       detail="" if n % 2 else f"detail {n}", documentation="" if n % 4 == 1 else f"doc é {n}",
                       sort=str(n % 9), filter="" if n % 2 else f"f{n}", deprecated=n % 5 == 0)
        for n in range(completion_json.LAZY_DOCUMENTATION + 5 if many else 12)
    ]
    method = types.TEXT_DOCUMENT_COMPLETION
    ours = sent(convert.Json(completion_json.completion_list_json(items, index, encoding)), method)
    assert ours == sent(lsprotocol_completion_list(items, index, encoding), method)
    assert ("data" in ours["items"][2]) == many and ours["items"][0]["tags"] == [1]


@pytest.mark.parametrize("name", ["plain", "wéb😀", "lone \ud800 surrogate"])
def test_a_json_result_is_framed_by_its_bytes(name) -> None:
    # A `Json` result is written by msgspec (by `json` for a lone surrogate, which msgspec refuses):
    # the header counts the body's bytes, and the body reads back as the value.
    protocol = create_server().protocol
    wire = Wire()
    protocol.set_writer(wire)
    value = [{"name": name, "kind": 5, "range": {"start": {"line": 0, "character": 2}}, "children": []}]
    protocol._send_response(7, convert.Json(value))
    [data] = wire.sent
    header, body = data.split(b"\r\n\r\n", 1)
    assert int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0]) == len(body)
    message = json.loads(body)
    assert message == {"jsonrpc": "2.0", "id": 7, "result": value}


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_a_hover_is_sent_as_lsprotocol_would_send_it(encoding) -> None:
    # A hover on a variable after astral characters on its line, and on a line after others.
    text = TEXT.replace('"locals": {"n😀": 1,', '"locals": {"n😀": 1, "k😀": "${var.v}",')
    store = Workspace()
    uri = "file:///h/main.tf.json"
    store.open(uri, text, 1, "terraform-json")
    index = LineIndex(text)
    line, character = index.position(text.index("var.v") + 5, encoding)  # search: on the name
    found = hover_json(store, uri, line, character, encoding)
    assert found is not None and '"v"' in found["contents"]["value"], found
    state = store.get(uri)
    markdown, start, end = found["contents"]["value"], state.line_index.offset(
        (found["range"]["start"]["line"], found["range"]["start"]["character"]), encoding), state.line_index.offset(
        (found["range"]["end"]["line"], found["range"]["end"]["character"]), encoding)
    assert text[start:end] == "var.v"
    reference = types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
                            range=convert.to_range(index, start, end, encoding))
    assert sent(convert.Json(found), types.TEXT_DOCUMENT_HOVER) == sent(reference, types.TEXT_DOCUMENT_HOVER)
    assert hover_json(store, "file:///h/other.tf.json", 0, 0, encoding) is None


def test_the_symbol_kind_numbers_are_lsps() -> None:
    assert document_json.SYMBOL_KINDS == {k.name: k.value for k in types.SymbolKind}


def test_first_open_answers_the_whole_document_methods_document_json_builds() -> None:
    assert first_open._WHOLE_DOCUMENT == document_json.WHOLE_DOCUMENT_METHODS


def test_the_completion_numbers_are_lsps() -> None:
    assert completion_json.COMPLETION_KINDS == {k.name: k.value for k in types.CompletionItemKind}
    assert (completion_json._PLAIN_TEXT, completion_json._SNIPPET) == (types.InsertTextFormat.PlainText.value,
                                                                      types.InsertTextFormat.Snippet.value)
    assert completion_json._DEPRECATED == types.CompletionItemTag.Deprecated.value
