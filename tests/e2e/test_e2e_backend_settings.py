"""End to end over stdio: a state backend's settings (`definition.backends`) in a
`terraform.backend` body: completion gives each its type and flags as the detail, the required
ones first and our description as documentation; hover on a setting says the same. No diagnostics
for the body: `terraform validate` does not check backend configuration (it is read at init)."""

from __future__ import annotations

from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import PULL, lsp_position, open_document

#: Its marks: the hovered key ⟨"bucket"⟩ (`$[hover]` in it), the completion after the last setting (`$0`).
MARKED = parse_fixture('{"terraform": {"backend": {"s3": {⟨"b$[hover]ucket"⟩: "b", "nosuch": 1, "encrypt": "yes" $0}}}}\n').only
TEXT = MARKED.text


async def test_backend_settings_are_completed_and_hovered(client: LanguageClient, tmp_path: Path):
    (tmp_path / "main.tf.json").write_text(TEXT, encoding="utf-8")
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    item = types.ClientCompletionItemOptions(documentation_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText])
    caps = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        diagnostic=PULL, completion=types.CompletionClientCapabilities(completion_item=item)))
    await client.initialize_session(types.InitializeParams(
        capabilities=caps, workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")]))
    open_document(client, uri, TEXT)
    doc = types.TextDocumentIdentifier(uri=uri)

    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=lsp_position(TEXT, MARKED.cursor)))
    items = result.items if isinstance(result, types.CompletionList) else result
    by_label = {i.label: i for i in items}
    assert "bucket" not in by_label and "encrypt" not in by_label  # written already
    key = by_label["key"]
    assert key.detail == "string, required"
    assert "Path of the state object in the bucket." in str(key.documentation)
    ordered = sorted(items, key=lambda i: i.sort_text or i.label)
    assert ordered[0].label == "key"  # the one required setting not written yet comes first
    assert by_label["use_lockfile"].detail == "bool"
    assert list(by_label["endpoint"].tags or ()) == [types.CompletionItemTag.Deprecated]

    found = await client.text_document_hover_async(types.HoverParams(
        text_document=doc, position=lsp_position(TEXT, MARKED.marks["hover"])))
    assert found is not None
    assert "**bucket** (string, required)" in found.contents.value and "S3 bucket that holds the state." in found.contents.value
    assert (found.range.start.character, found.range.end.character) == MARKED.ranges[0]

    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc))
    assert [d for d in report.items if d.severity == types.DiagnosticSeverity.Error] == []
