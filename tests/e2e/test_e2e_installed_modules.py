"""End to end over stdio: a module `terraform init` installed (listed in the root module's
`.terraform/modules/modules.json`, a registry source) gives its outputs as a local child does:
completion after `module.net.`, the unknown-output error with "Did you mean" and its quick fix; and
a re-init (the manifest rewritten, its watched-file event) updates the published diagnostics."""

from __future__ import annotations

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_position, lsp_range, open_document, wait_for

TREE = """\
//- /app/.terraform/modules/net/outputs.tf.json
{"output": {"vpc_id": {"value": "v-1"}, "subnet_ids": {"value": ["s-1"]}}}
//- /app/.terraform/modules/modules.json
{"Modules": [{"Key": "", "Source": "", "Dir": "."},
             {"Key": "net", "Source": "registry.terraform.io/acme/net/aws", "Version": "1.0.0", "Dir": ".terraform/modules/net"}]}
//- /app/main.tf.json
{"module": {"net": {"source": "acme/net/aws", "version": "1.0.0"}},
 "output": {"x": {"value": "${module.net.$0}"}, "y": {"value": "${module.net⟨.subnet_id⟩}"}}}
"""


async def test_installed_module_outputs_over_stdio(client: LanguageClient, tmp_path):
    fixture = parse_fixture(TREE)
    paths = fixture.write(tmp_path)
    main = fixture.files["/app/main.tf.json"]
    uri = uri_of_path(str(paths["/app/main.tf.json"]))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)))
    await client.initialize_session(types.InitializeParams(capabilities=capabilities, workspace_folders=[folder]))
    open_document(client, uri, main.text)
    doc = types.TextDocumentIdentifier(uri=uri)

    got = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=lsp_position(main.text, main.cursor)))
    items = got.items if isinstance(got, types.CompletionList) else got
    assert {"vpc_id", "subnet_ids"} <= {i.label for i in items}

    def undeclared() -> list[types.Diagnostic]:
        return [d for d in client.diagnostics.get(uri) or [] if d.code == "reference/undeclared-output"]

    [typo] = await wait_for(lambda: [d for d in undeclared() if "subnet_id\"" in d.message], what="the unknown-output error")
    assert typo.range == lsp_range(main.text, *main.ranges[0])
    assert typo.severity == types.DiagnosticSeverity.Error and 'Did you mean "subnet_ids"?' in typo.message
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc, range=typo.range, context=types.CodeActionContext(diagnostics=[typo])))
    [fix] = [a for a in actions or [] if getattr(a, "kind", None) == types.CodeActionKind.QuickFix]
    [change] = fix.edit.changes[uri]
    assert (fix.title, change.new_text) == ('Change to "subnet_ids"', "subnet_ids")

    # `terraform init -upgrade` installs version 2.0.0, which has `subnet_id`, in another directory.
    app = tmp_path / "app"
    (app / ".terraform/modules/net2").mkdir()
    (app / ".terraform/modules/net2/outputs.tf.json").write_text('{"output": {"vpc_id": {"value": 1}, "subnet_id": {"value": 2}}}')
    manifest = app / ".terraform/modules/modules.json"
    manifest.write_text(manifest.read_text().replace("modules/net\"", "modules/net2\"").replace("1.0.0", "2.0.0"))
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri_of_path(str(manifest)), type=types.FileChangeType.Changed)]))
    await wait_for(lambda: client.diagnostics.get(uri) is not None and not undeclared(), what="the error gone after re-init")
