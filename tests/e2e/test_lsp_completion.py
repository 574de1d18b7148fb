"""End to end over stdio: completion (`textDocument/completion`) from the real `hcljson-ls` process.

The trigger characters it advertises; the items after `${var.` at the end of a line (an unterminated
string) with each `textEdit` range checked in UTF-16, UTF-8 and UTF-32 after non-ASCII text on the same
line; variables declared in files the editor never opened (JSON and native); functions as snippets
only for a client that takes snippets; keys that write valid JSON; and odd requests (a position past the
end, a document never opened) answered with an empty list, not an error.

Expected ranges are `⟨⟩` fixture markers (tests/fixture.py) turned into LSP positions with plain string
arithmetic (`helpers.lsp_range`), never with the server's own position code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_position, lsp_range, open_document

URI = "file:///nonexistent-hcljson-test/module/main.tf.json"

# `"${var.` typed at the end of a line, after non-ASCII text (é: 2 UTF-8 bytes; 🌍 and 𝄞: 4 bytes, UTF-16
# surrogate pairs), the string never closed.
AT_END_OF_LINE = parse_fixture(
    """\
{
  "variable": {"region": {}, "size": {}, "zone": {}},
  "locals": {"é🌍": "Grüße 🌍 𝄞 ${var.⟨re$0⟩
  }
}
"""
).only


def capabilities(*, encodings: list[str] | None = None, snippets: bool | None = None) -> types.ClientCapabilities:
    item = types.ClientCompletionItemOptions(
        snippet_support=snippets, documentation_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
    )
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings is not None else None,
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            completion=types.CompletionClientCapabilities(completion_item=item),
        ),
        workspace=types.WorkspaceClientCapabilities(workspace_folders=True),
    )


async def start(client: LanguageClient, *, encodings=None, snippets=None, root: Path | None = None) -> types.InitializeResult:
    folders = [types.WorkspaceFolder(uri=uri_of_path(str(root)), name="root")] if root is not None else None
    return await client.initialize_session(
        types.InitializeParams(capabilities=capabilities(encodings=encodings, snippets=snippets), workspace_folders=folders)
    )


async def completion(client: LanguageClient, uri: str, position: types.Position) -> list[types.CompletionItem]:
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )
    assert result is not None
    if isinstance(result, types.CompletionList):
        assert result.is_incomplete is False
        return list(result.items)
    return list(result)


def by_label(items: list[types.CompletionItem]) -> dict[str, types.CompletionItem]:
    out = {i.label: i for i in items}
    assert len(out) == len(items), "a label offered twice"
    return out


def plain(snippet: str) -> str:
    previous = None
    while previous != snippet:
        previous, snippet = snippet, re.sub(r"\$\{\d+:([^{}]*)\}", r"\1", snippet)
    return re.sub(r"\$\d+", "", snippet)


def apply(text: str, item: types.CompletionItem, encoding: str = "utf-16") -> str:
    """`text` with the item's textEdit applied (positions converted back by string arithmetic)."""
    edit = item.text_edit
    assert isinstance(edit, types.TextEdit)
    offsets = {}
    for offset in range(len(text) + 1):
        p = lsp_position(text, offset, encoding)
        offsets.setdefault((p.line, p.character), offset)
    start = offsets[(edit.range.start.line, edit.range.start.character)]
    end = offsets[(edit.range.end.line, edit.range.end.character)]
    new = plain(edit.new_text) if item.insert_text_format == types.InsertTextFormat.Snippet else edit.new_text
    return text[:start] + new + text[end:]


async def test_capability_and_trigger_characters(client: LanguageClient):
    result = await start(client)
    provider = result.capabilities.completion_provider
    assert isinstance(provider, types.CompletionOptions)
    assert {".", '"', "{", "$"} <= set(provider.trigger_characters or [])


def test_the_fixture_line_is_what_the_test_thinks() -> None:
    f = AT_END_OF_LINE
    start, end = f.ranges[0]
    assert f.text[start:end] == "re" and f.cursor == end
    line = f.text.splitlines()[lsp_position(f.text, end).line]
    assert line.endswith("${var.re") and "🌍" in line and "𝄞" in line
    columns = {e: lsp_position(f.text, end, e).character for e in ("utf-8", "utf-16", "utf-32")}
    assert len(set(columns.values())) == 3, columns  # the three encodings differ on this line


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
async def test_after_var_dot_at_the_end_of_a_line_exact_ranges(client: LanguageClient, encoding: str):
    result = await start(client, encodings=[encoding], snippets=True)
    assert result.capabilities.position_encoding == encoding
    f = AT_END_OF_LINE
    open_document(client, URI, f.text)
    items = await completion(client, URI, lsp_position(f.text, f.cursor, encoding))
    assert [i.label for i in items] == ["region"]
    (item,) = items
    assert item.kind == types.CompletionItemKind.Variable
    assert item.text_edit == types.TextEdit(range=lsp_range(f.text, *f.ranges[0], encoding), new_text="region")
    assert item.insert_text_format == types.InsertTextFormat.PlainText
    assert apply(f.text, item, encoding).splitlines()[2].endswith("𝄞 ${var.region")

    # The empty prefix: every variable, each inserted at the cursor.
    cursor = f.ranges[0][0]
    items = await completion(client, URI, lsp_position(f.text, cursor, encoding))
    assert sorted(i.label for i in items) == ["region", "size", "zone"]
    assert all(i.text_edit.range == lsp_range(f.text, cursor, cursor, encoding) for i in items)


MODULE = """
//- /stack/main.tf.json
{
  "resource": {"aws_instance": {"web": {
    "tags": {"Name": "Grüße 🌍 ${var.⟨$0⟩}"}
  }}}
}
//- /stack/variables.tf.json
{"variable": {"region": {"type": "string", "description": "Where it runs"}}}
//- /stack/sizes.tf
variable "size" {
  default = "t3.micro"
}
"""


async def test_variables_from_files_the_editor_never_opened(client: LanguageClient, tmp_path: Path):
    fixture = parse_fixture(MODULE)
    paths = fixture.write(tmp_path)
    main = fixture.files["/stack/main.tf.json"]
    uri = uri_of_path(str(paths["/stack/main.tf.json"]))
    await start(client, root=tmp_path, snippets=True)
    open_document(client, uri, main.text)
    items = await completion(client, uri, lsp_position(main.text, main.cursor))
    assert sorted(i.label for i in items) == ["region", "size"]
    assert all(i.text_edit.range == lsp_range(main.text, *main.ranges[0]) for i in items)
    for item in items:
        assert json.loads(apply(main.text, item))["resource"]["aws_instance"]["web"]["tags"]["Name"] == (
            f"Grüße 🌍 ${{var.{item.label}}}"
        )


FUNCTION = parse_fixture('{"locals": {"a": "é ${⟨upp$0⟩}"}}').only
KEY = parse_fixture('{"output": {"o": {⟨"$0"⟩}}}').only


@pytest.mark.parametrize("snippets", [True, False, None], ids=["snippets", "no-snippets", "not-said"])
async def test_functions_are_snippets_only_for_a_client_that_takes_them(client: LanguageClient, snippets):
    await start(client, snippets=snippets)
    open_document(client, URI, FUNCTION.text)
    items = await completion(client, URI, lsp_position(FUNCTION.text, FUNCTION.cursor))
    assert [i.label for i in items] == ["upper"]
    (upper,) = items
    assert upper.kind == types.CompletionItemKind.Function
    assert upper.text_edit.range == lsp_range(FUNCTION.text, *FUNCTION.ranges[0])
    if snippets:
        assert upper.insert_text_format == types.InsertTextFormat.Snippet
        assert upper.text_edit.new_text == "upper(${1:str})"
    else:
        assert upper.insert_text_format in (None, types.InsertTextFormat.PlainText)
        assert upper.text_edit.new_text == "upper"
    written = "é ${upper(str)}" if snippets else "é ${upper}"
    assert json.loads(apply(FUNCTION.text, upper)) == {"locals": {"a": written}}


@pytest.mark.parametrize("snippets", [True, False], ids=["snippets", "no-snippets"])
async def test_a_key_writes_valid_json(client: LanguageClient, snippets: bool):
    await start(client, snippets=snippets)
    open_document(client, URI, KEY.text)
    items = by_label(await completion(client, URI, lsp_position(KEY.text, KEY.cursor)))
    assert {"value", "description", "sensitive", "depends_on"} <= set(items)
    value = items["value"]
    assert value.text_edit.range == lsp_range(KEY.text, *KEY.ranges[0])
    assert value.text_edit.new_text == ('"value": "$1"' if snippets else '"value": ""')
    assert value.filter_text == '"value"'
    assert min(items.values(), key=lambda i: i.sort_text).label == "value"  # required first
    for item in items.values():
        assert item.insert_text_format == (types.InsertTextFormat.Snippet if snippets else types.InsertTextFormat.PlainText)
        json.loads(apply(KEY.text, item))


async def test_an_empty_document(client: LanguageClient):
    await start(client, snippets=False)
    open_document(client, URI, "")
    items = by_label(await completion(client, URI, types.Position(line=0, character=0)))
    assert {"resource", "variable", "locals", "output"} <= set(items)
    assert all(i.text_edit.range == lsp_range("", 0, 0) for i in items.values())


async def test_a_position_past_the_end_answers_an_empty_list(client: LanguageClient):
    await start(client)
    text = '{"variable": {"x": {}}, "locals": {"a": "${var.x}"}}\n'
    open_document(client, URI, text)
    assert await completion(client, URI, types.Position(line=40, character=3)) == []


async def test_a_document_never_opened_answers_an_empty_list(client: LanguageClient):
    await start(client)
    assert await completion(client, "file:///nowhere/main.tf.json", types.Position(line=0, character=0)) == []
    assert await completion(client, "untitled:Untitled-1", types.Position(line=3, character=7)) == []


async def test_after_a_closed_document_answers_an_empty_list(client: LanguageClient):
    await start(client)
    f = AT_END_OF_LINE
    open_document(client, URI, f.text)
    assert await completion(client, URI, lsp_position(f.text, f.cursor))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI)))
    assert await completion(client, URI, lsp_position(f.text, f.cursor)) == []
