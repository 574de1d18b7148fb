"""End to end over stdio: completion and diagnostics follow the module's engine and version.

A Terraform 1.11 module (its `required_version`) is not offered `enabled` in a resource's `lifecycle`
(OpenTofu's) nor the `action` block (Terraform 1.14); a 1.14 module is offered `action`; the
`engineVersion` setting, changed while the session runs, changes both, and the diagnostics of a
document already open.
"""

from __future__ import annotations

from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_position, open_document
from .test_lsp_completion import completion, start

LIFECYCLE = parse_fixture('{"resource": {"terraform_data": {"r": {"lifecycle": {"$0"}}}}}').only
ROOT = parse_fixture('{"terraform": {"required_version": "~> 1.11.0"}, "$0"}').only


async def _labels(client: LanguageClient, uri: str, fixture) -> set[str]:
    return {i.label for i in await completion(client, uri, lsp_position(fixture.text, fixture.cursor))}


async def test_completion_follows_the_version_of_the_module(client: LanguageClient, tmp_path: Path):
    (tmp_path / "versions.tf.json").write_text('{"terraform": {"required_version": "~> 1.11.0"}}', encoding="utf-8")
    await start(client, root=tmp_path, snippets=False)
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    open_document(client, uri, LIFECYCLE.text)
    labels = await _labels(client, uri, LIFECYCLE)
    assert {"create_before_destroy", "prevent_destroy", "ignore_changes"} <= labels
    assert "enabled" not in labels  # OpenTofu 1.11's, not Terraform's
    assert "destroy" not in labels  # Terraform 1.16's

    root_uri = uri_of_path(str(tmp_path / "root.tf.json"))
    open_document(client, root_uri, ROOT.text)
    labels = await _labels(client, root_uri, ROOT)
    assert {"resource", "variable", "check", "ephemeral"} <= labels
    assert "action" not in labels and "language" not in labels

    # The setting wins over required_version: Terraform 1.14 has action blocks.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"hcljson": {"engineVersion": "1.14"}}))
    labels = await _labels(client, root_uri, ROOT)
    assert "action" in labels


async def test_diagnostics_follow_the_engine_version_setting(client: LanguageClient, tmp_path: Path):
    await start(client, root=tmp_path, snippets=False)
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    open_document(client, uri, '{"action": {"local_command": {"a": {}}}}')
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [d.code for d in report.items] == []  # the newest Terraform has actions
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"hcljson": {"engineVersion": "1.11"}}))
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [d.code for d in report.items] == ["language/newer-version"]
    assert "Terraform 1.14" in report.items[0].message
