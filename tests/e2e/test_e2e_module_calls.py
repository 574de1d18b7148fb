"""End to end over stdio: a module call is checked against the variables of its local child module
(a file the client never opened), with the quick fix of "Did you mean"; the diagnostics follow a
change of the child on disk (`workspace/didChangeWatchedFiles`). And `terraform_data` is checked with
no provider schema configured. Terraform 1.11.4's verdicts are in tests/features/test_feat_module_calls.py
and test_feat_builtin_schemas.py."""

from __future__ import annotations

from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_range, open_document, wait_for

MODULE = r"""
//- /app/child/variables.tf.json
{"variable": {"region": {"type": "string"}, "port": {"type": "number", "default": 80}}}
//- /app/main.tf.json
{
  "module": {"net": {"source": "./child", ⟨"regoin"⟩: "eu-west-1", "port": ⟨"eighty"⟩⟨}⟩},
  "resource": {"terraform_data": {"t": {⟨"inpt"⟩: 1}}}
}
"""
MAIN = "/app/main.tf.json"


def _capabilities() -> types.ClientCapabilities:
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, version_support=True),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=[types.CodeActionKind.QuickFix])
                )
            ),
        ),
        workspace=types.WorkspaceClientCapabilities(workspace_folders=True),
    )


async def _open_in_folder(client: LanguageClient, root: Path, uri: str, text: str) -> list[types.Diagnostic]:
    """Start a session on workspace folder `root`, open `uri` and wait for its diagnostics."""
    folder = types.WorkspaceFolder(uri=uri_of_path(str(root)), name="root")
    await client.initialize_session(types.InitializeParams(capabilities=_capabilities(), workspace_folders=[folder]))
    open_document(client, uri, text)
    return await wait_for(lambda: client.diagnostics.get(uri), what="diagnostics of main.tf.json")


async def test_module_calls_and_terraform_data_over_stdio(client: LanguageClient, tmp_path: Path) -> None:
    fixture = parse_fixture(MODULE)
    paths = fixture.write(tmp_path)
    text = fixture.files[MAIN].text
    uri = uri_of_path(str(paths[MAIN]))

    regoin, eighty, closing, inpt = (lsp_range(text, *r) for r in fixture.files[MAIN].ranges)

    found = await _open_in_folder(client, tmp_path, uri, text)
    assert [(d.code, d.severity, d.range) for d in found] == [
        ("module/unknown-input", types.DiagnosticSeverity.Error, regoin),
        ("module/wrong-type", types.DiagnosticSeverity.Error, eighty),
        ("module/missing-input", types.DiagnosticSeverity.Error, closing),
        ("schema/unknown-argument", types.DiagnosticSeverity.Error, inpt),
    ]
    assert found[0].message.startswith('Extraneous JSON object property: No argument or block type is named "regoin". '
                                       'Did you mean "region"?')
    doc = types.TextDocumentIdentifier(uri=uri)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=doc, range=found[0].range, context=types.CodeActionContext(diagnostics=[found[0]]))
    )
    [action] = [a for a in actions if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix]
    [change] = action.edit.changes[uri]
    assert (action.title, change.range, change.new_text) == ('Change to "region"', regoin, '"region"')

    # The child changes on disk: the caller's diagnostics follow.
    child = paths["/app/child/variables.tf.json"]
    child.write_text('{"variable": {"regoin": {}, "port": {"type": "string"}}}', encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri_of_path(str(child)), type=types.FileChangeType.Changed)]))
    await wait_for(lambda: [d.code for d in client.diagnostics.get(uri) or []] == ["schema/unknown-argument"],
                   what="only the terraform_data diagnostic once the call fits the child")


PASSING = r"""
//- /app/legacy/main.tf.json
{"provider": {"terraform": {"region": "x"}}}
//- /app/aliases/main.tf.json
{"terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform",
                                                      "configuration_aliases": ["terraform.y"]}}}}
//- /app/main.tf.json
{
  "terraform": {"required_providers": {"terraform": {"source": "terraform.io/builtin/terraform"}}},
  "module": {"l": {"source": "./legacy", "count": ⟨2⟩},
             "a": ⟨{⟩"source": "./aliases"}}
}
"""


async def test_provider_configurations_a_call_passes_over_stdio(client: LanguageClient, tmp_path: Path) -> None:
    """The provider passing rules (Terraform's verdicts: tests/conformance, module-calls/providers-*)
    through the real server, with the quick fix that passes the missing alias, applied and checked
    again; then the legacy child drops its configuration on disk."""
    fixture = parse_fixture(PASSING)
    paths = fixture.write(tmp_path)
    text = fixture.files[MAIN].text
    uri = uri_of_path(str(paths[MAIN]))
    legacy, brace = (lsp_range(text, *r) for r in fixture.files[MAIN].ranges)
    found = await _open_in_folder(client, tmp_path, uri, text)
    assert [(d.code, d.severity, d.range) for d in found] == [
        ("module/legacy-provider-configuration", types.DiagnosticSeverity.Error, legacy),
        ("module/missing-provider-configuration", types.DiagnosticSeverity.Error, brace),
    ]
    doc = types.TextDocumentIdentifier(uri=uri)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=doc, range=found[1].range, context=types.CodeActionContext(diagnostics=[found[1]]))
    )
    [action] = [a for a in actions if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix]
    [change] = action.edit.changes[uri]
    assert action.title == 'Pass "terraform.y" this module\'s "terraform"'
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(range=change.range, text=change.new_text)]))
    await wait_for(lambda: [d.code for d in client.diagnostics.get(uri) or []] == ["module/legacy-provider-configuration"],
                   what="the alias passed by the quick fix")
    child = paths["/app/legacy/main.tf.json"]
    child.write_text('{"provider": {"terraform": {}}}', encoding="utf-8")  # an empty block holds no configuration
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri_of_path(str(child)), type=types.FileChangeType.Changed)]))
    await wait_for(lambda: client.diagnostics.get(uri) == [], what="no diagnostic once the child holds no configuration")
