"""End to end over stdio: a module call's inputs come from the module it calls, a directory the
client never opened. Completion in the call's body offers the inputs it lacks (required first, with
type and description), hover on an input says what the child's variable is and where, definition
goes there (and from the `source` value to the module's first file; the value completes to local
directories), and references from the child's variable include the call's input."""

from __future__ import annotations

import asyncio

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_position, open_document

TREE = """\
//- /net/variables.tf.json
{"variable": {"c$[cidr]idr": {"type": "string", "description": "The network's range."}, "zone": {"default": "a"}}}
//- /live/main.tf.json
{"module": {"net": {"source": "..$[on_source]/$[in_source]net", "zone": "b", $0}}}
"""


async def test_module_inputs_over_stdio(client: LanguageClient, tmp_path):
    fixture = parse_fixture(TREE)
    paths = fixture.write(tmp_path)
    main = fixture.files["/live/main.tf.json"]
    uri = uri_of_path(str(paths["/live/main.tf.json"]))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")
    capabilities = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        completion=types.CompletionClientCapabilities(completion_item=types.ClientCompletionItemOptions(
            documentation_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]))),
        window=types.WindowClientCapabilities(work_done_progress=True))
    await client.initialize_session(types.InitializeParams(capabilities=capabilities, workspace_folders=[folder]))
    open_document(client, uri, main.text)
    doc = types.TextDocumentIdentifier(uri=uri)

    got = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=lsp_position(main.text, main.cursor)))
    items = got.items if isinstance(got, types.CompletionList) else got
    cidr = next(i for i in items if i.label == "cidr")
    assert cidr.detail == "string, required" and "zone" not in {i.label for i in items}
    assert "The network's range." in (cidr.documentation.value if hasattr(cidr.documentation, "value") else cidr.documentation)

    typed = '"cidr": "10.0.0.0/8"'
    text = main.text[: main.cursor] + typed + main.text[main.cursor :]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    at = lsp_position(text, main.cursor + len('"c'))  # in the key just typed
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=at))
    assert 'variable "cidr"' in hover.contents.value and "`net/variables.tf.json`" in hover.contents.value
    [loc] = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=at))
    assert loc.uri == uri_of_path(str(paths["/net/variables.tf.json"]))
    # Completion in the `source` value offers the local directories ("../net" has configuration files).
    got = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=lsp_position(text, main.marks["in_source"])))
    items = got.items if isinstance(got, types.CompletionList) else got
    assert [(i.label, i.detail) for i in items] == [("../net", "module")]
    # Definition on the `source` value: the called module's (first) file.
    at_source = lsp_position(text, main.marks["on_source"])
    [loc] = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=at_source))
    assert loc.uri == uri_of_path(str(paths["/net/variables.tf.json"])) and loc.range.start == types.Position(line=0, character=0)

    # From the child's variable, once the workspace is scanned: the call's input is a reference.
    child = uri_of_path(str(paths["/net/variables.tf.json"]))
    child_text = fixture.files["/net/variables.tf.json"].text

    async def references():
        return await client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=child), position=lsp_position(child_text, fixture.files["/net/variables.tf.json"].marks["cidr"]),
            context=types.ReferenceContext(include_declaration=False)))

    open_document(client, child, child_text)
    found = None
    for _ in range(200):  # the scan that finds the caller runs in the background after `initialized`
        found = await references()
        if found:
            break
        await asyncio.sleep(0.05)
    assert [(r.uri, r.range.start.line) for r in found or []] == [(uri, 0)]
