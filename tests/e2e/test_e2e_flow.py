"""End to end over stdio: sensitive values flow from a variable through a local value in another
open document to a root output ("Output refers to sensitive values", Terraform 1.11.4's verdict in
tests/features/test_feat_flow.py), and the output's document is published again when an edit of
the other document makes the value plain (`nonsensitive`): no declaration changes there."""

from __future__ import annotations

from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import change_document, lsp_range, open_document, wait_for

MODULE = r"""
//- /app/locals.tf.json
{"variable": {"s": {"type": "string", "default": "x", "sensitive": true}},
 "locals": {"x": "${⟨var.s⟩}"}}
//- /app/main.tf.json
{"output": {"o": ⟨{⟩"value": "${local.x}"}}}
"""


async def test_sensitive_value_through_another_document(client: LanguageClient, tmp_path: Path) -> None:
    fixture = parse_fixture(MODULE)
    paths = fixture.write(tmp_path)
    main_text, locals_text = fixture.files["/app/main.tf.json"].text, fixture.files["/app/locals.tf.json"].text
    main, locals_ = uri_of_path(str(paths["/app/main.tf.json"])), uri_of_path(str(paths["/app/locals.tf.json"]))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")
    await client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities(), workspace_folders=[folder]))
    open_document(client, locals_, locals_text)
    open_document(client, main, main_text)
    found = await wait_for(lambda: client.diagnostics.get(main), what="diagnostics of main.tf.json")
    assert [(d.code, d.severity, d.range) for d in found] == [
        ("flow/sensitive-output", types.DiagnosticSeverity.Error, lsp_range(main_text, *fixture.files["/app/main.tf.json"].ranges[0]))]
    assert found[0].message.startswith("Output refers to sensitive values: ")
    change_document(client, locals_, 2, types.TextDocumentContentChangePartial(
        range=lsp_range(locals_text, *fixture.files["/app/locals.tf.json"].ranges[0]), text="nonsensitive(var.s)"))
    await wait_for(lambda: client.diagnostics.get(main) == [], what="main.tf.json published again, without the error")
