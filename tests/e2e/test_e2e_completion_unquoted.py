"""End to end over stdio: completion where the user has not typed `"` yet (an empty `{}`, after a
member, before one) offers the keys and inserts them with their quotes, `: ` and a value, so the
document stays valid JSON; the same for state backends (`terraform.backend`, a backend's body, a
`terraform_remote_state` `config`). A client without snippets, so each item's text is plain JSON."""

from __future__ import annotations

import json

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import lsp_position, open_document

URI = "file:///nonexistent-hcljson-test/unquoted/main.tf.json"


def _apply(text: str, edit: types.TextEdit) -> str:
    def offset(p: types.Position) -> int:
        return sum(len(x) + 1 for x in text.split("\n")[: p.line]) + p.character

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]


@pytest.mark.parametrize("doc, label, expected", [
    ('{"variable": {"v": {$0}}}', "description", {"variable": {"v": {"description": ""}}}),
    ('{"variable": {"v": {"type": "string", $0}}}', "default", {"variable": {"v": {"type": "string", "default": ""}}}),
    ('{"variable": {"v": {$0 "type": "string"}}}', "default", {"variable": {"v": {"default": "", "type": "string"}}}),
    ('{"variable": {"v": {"type": "string"\n  $0\n}}}', "nullable", {"variable": {"v": {"type": "string", "nullable": True}}}),
    ('{"terraform": {"backend": {$0}}}', "local", {"terraform": {"backend": {"local": {}}}}),
    ('{"terraform": {"backend": {"local": {$0}}}}', "path", {"terraform": {"backend": {"local": {"path": ""}}}}),
    ('{"data": {"terraform_remote_state": {"r": {"backend": "local", "config": {$0}}}}}', "path",
     {"data": {"terraform_remote_state": {"r": {"backend": "local", "config": {"path": ""}}}}}),
])
async def test_a_key_without_a_typed_quote_is_inserted_as_valid_json(client: LanguageClient, doc, label, expected):
    f = parse_fixture(doc).only
    await client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    open_document(client, URI, f.text)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=lsp_position(f.text, f.cursor)))
    items = result.items if isinstance(result, types.CompletionList) else result
    item = next(i for i in items if i.label == label)
    assert item.insert_text_format in (None, types.InsertTextFormat.PlainText)
    assert json.loads(_apply(f.text, item.text_edit)) == expected
