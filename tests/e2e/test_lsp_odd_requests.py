"""End to end over stdio: every request this server answers, asked about an unknown document, at a
position past the end of a known one, and with watched-file events for odd URIs, is answered (never an
error response), and the server still answers a valid request afterwards."""

from __future__ import annotations

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import initialize, open_document

URI = "file:///nowhere/stack/main.tf.json"
MARKED = parse_fixture('{\n  "variable": {"region": {}},\n  "output": {"o": {"value": "${var.r$0egion}"}}\n}\n').only
TEXT = MARKED.text
FAR = types.Position(line=10_000, character=10_000)


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _ask_everything(client: LanguageClient, uri: str, position: types.Position) -> None:
    doc = _doc(uri)
    await client.text_document_hover_async(types.HoverParams(text_document=doc, position=position))
    await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=position))
    await client.text_document_declaration_async(types.DeclarationParams(text_document=doc, position=position))
    await client.text_document_references_async(
        types.ReferenceParams(text_document=doc, position=position, context=types.ReferenceContext(include_declaration=True))
    )
    await client.text_document_document_highlight_async(types.DocumentHighlightParams(text_document=doc, position=position))
    await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=doc, position=position))
    await client.text_document_completion_async(types.CompletionParams(text_document=doc, position=position))
    await client.text_document_signature_help_async(types.SignatureHelpParams(text_document=doc, position=position))
    await client.text_document_code_action_async(
        types.CodeActionParams(text_document=doc, range=types.Range(start=position, end=position),
                               context=types.CodeActionContext(diagnostics=[]))
    )


async def test_odd_requests_are_answered_and_the_server_goes_on(client: LanguageClient):
    await initialize(client)
    open_document(client, URI, TEXT)
    await _ask_everything(client, "file:///nowhere/unknown.tf.json", types.Position(line=0, character=0))
    await _ask_everything(client, URI, FAR)
    await _ask_everything(client, "untitled:Untitled-1", FAR)
    await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="\x00 \U0001f600 %{"))
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri="untitled:x.tf.json", type=types.FileChangeType.Created),
        types.FileEvent(uri="file:///nowhere/stack", type=types.FileChangeType.Deleted),
        types.FileEvent(uri="file:///nowhere/stack/../x.tf.json", type=types.FileChangeType.Changed),
        types.FileEvent(uri="not a uri", type=types.FileChangeType.Changed),
    ]))
    # Still right: the reference resolves, and the hover on it says what it is.
    at = MARKED.cursor
    line = TEXT.count("\n", 0, at)
    position = types.Position(line=line, character=at - (TEXT.rfind("\n", 0, at) + 1))
    hover = await client.text_document_hover_async(types.HoverParams(text_document=_doc(URI), position=position))
    assert hover is not None and 'variable "region"' in hover.contents.value
    found = await client.text_document_definition_async(types.DefinitionParams(text_document=_doc(URI), position=position))
    assert [loc.range.start.line for loc in found] == [1]
