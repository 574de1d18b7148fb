"""End to end over stdio: a long completion list leaves each item's documentation for
`completionItem/resolve`, which fills it in; a short one carries it inline."""

from __future__ import annotations

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import capabilities, lsp_position, open_document

URI = "file:///nowhere/stack/main.tf.json"
#: Its marks: completion right after `${` ($[all]) and after `${var.` ($[variables]).
MARKED = parse_fixture('{\n  "variable": {"region": {"description": "Where it runs"}},\n  "locals": {"a": "${$[all]", "b": "${var.$[variables]"}\n}\n').only
TEXT = MARKED.text


async def _complete(client: LanguageClient, mark: str) -> types.CompletionList:
    at = MARKED.marks[mark]
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=URI), position=lsp_position(TEXT, at))
    )
    assert isinstance(result, types.CompletionList)
    return result


async def test_long_lists_resolve_documentation_lazily(client: LanguageClient):
    caps = capabilities()
    caps.text_document.completion = types.CompletionClientCapabilities(
        completion_item=types.ClientCompletionItemOptions(documentation_format=[types.MarkupKind.PlainText])
    )
    await client.initialize_session(types.InitializeParams(capabilities=caps))
    open_document(client, URI, TEXT)
    everything = await _complete(client, "all")
    assert len(everything.items) > 50
    upper = next(i for i in everything.items if i.label == "upper")
    assert upper.documentation is None and upper.data == {"documentation": upper.data["documentation"]}
    resolved = await client.completion_item_resolve_async(upper)
    assert resolved.documentation.value == upper.data["documentation"] and "uppercase" in resolved.documentation.value
    assert resolved.label == "upper" and resolved.text_edit == upper.text_edit

    # A short list (the variables after `var.`) needs no second request.
    short = await _complete(client, "variables")
    assert [i.label for i in short.items] == ["region"] and short.items[0].data is None
