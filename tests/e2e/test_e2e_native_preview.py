"""End to end over stdio: the "Show as native HCL" code action. It is offered for a configuration
file (not for variable definitions), asks only for `source` kinds when the client limits the kinds,
and its command writes the document as native HCL under the user cache dir (nowhere else) and asks
the client to show that file (`window/showDocument`); the command's result is the same text."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from hcljson_ls.terraform.nativehcl.native import parse_native
from hcljson_ls.terraform.nativehcl.to_native import to_native
from hcljson_ls.workspace.files import path_of_uri, uri_of_path

from .conftest import make_client
from .helpers import open_document

TEXT = '{"variable": {"env": {"type": "string"}}, "resource": {"aws_instance": {"web": {"ami": "${var.env}"}}}}\n'


def _env(tmp: str) -> dict[str, str]:
    return {**os.environ, "XDG_CACHE_HOME": tmp, "HOME": tmp}


#: The server's cache and home: a fresh directory of the machine's temporary area (made at import,
#: since the pytest-lsp fixture's configuration is fixed when the module loads).
_CACHE_HOME = tempfile.mkdtemp(prefix="hcljson-native-e2e-")


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "hcljson_ls", "--stdio"],
        client_factory=make_client,
        server_env=_env(_CACHE_HOME),
    )
)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def _start(client: LanguageClient, root: Path) -> str:
    path = root / "main.tf.json"
    path.write_text(TEXT, encoding="utf-8")
    caps = types.ClientCapabilities(window=types.WindowClientCapabilities(show_document=types.ShowDocumentClientCapabilities(support=True)))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(root)), name="root")
    await client.initialize_session(types.InitializeParams(capabilities=caps, workspace_folders=[folder]))
    uri = uri_of_path(str(path))
    open_document(client, uri, TEXT)
    return uri


def _actions(client: LanguageClient, uri: str, only=None):
    context = types.CodeActionContext(diagnostics=[], only=only)
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=5))
    return client.text_document_code_action_async(
        types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=uri), range=whole, context=context)
    )


async def test_show_as_native_hcl_writes_the_text_under_the_cache_and_shows_it(client: LanguageClient, tmp_path: Path):
    uri = await _start(client, tmp_path)
    [action] = await _actions(client, uri)
    # lsprotocol's client-side converter reads any code action holding a `command` as a bare
    # `Command` (kind dropped, the nested command left as its JSON text): the kind is shown by the
    # `only` filtering below, the command by what it names.
    assert action.title == "Show as native HCL"
    assert "'command': 'hcljson.showAsNativeHcl'" in str(action.command) and uri in str(action.command)
    command = types.Command(title=action.title, command="hcljson.showAsNativeHcl", arguments=[uri])
    assert [a.title for a in await _actions(client, uri, only=[types.CodeActionKind.Source])] == ["Show as native HCL"]
    assert await _actions(client, uri, only=[types.CodeActionKind.QuickFix]) is None

    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )
    assert result == to_native(TEXT, "main.tf.json").text
    [shown] = client.shown_documents  # pytest-lsp records window/showDocument
    assert shown.take_focus
    path = Path(path_of_uri(shown.uri))
    assert path.name == "main.tf"
    assert Path(_CACHE_HOME) in path.parents  # the user cache dir, never the workspace
    assert sorted(p.name for p in tmp_path.iterdir()) == ["main.tf.json"]
    written = path.read_text(encoding="utf-8")
    assert written == result
    assert [d.key for d in parse_native(written).declarations] == [
        ("variable", "env"), ("variable-input", "env", "string", True), ("resource", "aws_instance", "web"),
        ("provider-use", "aws", None)]


async def test_not_offered_for_variable_definitions(client: LanguageClient, tmp_path: Path):
    await _start(client, tmp_path)
    path = tmp_path / "terraform.tfvars.json"
    path.write_text('{"env": "x"}', encoding="utf-8")
    uri = uri_of_path(str(path))
    open_document(client, uri, '{"env": "x"}', language_id="json")
    assert await _actions(client, uri) is None


async def test_a_document_that_is_not_open_is_a_clear_error(client: LanguageClient, tmp_path: Path):
    await _start(client, tmp_path)
    try:
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="hcljson.showAsNativeHcl", arguments=["file:///nonexistent-hcljson-test/x.tf.json"])
        )
    except Exception as e:  # the client raises the error response
        assert "not open" in str(e)
    else:
        raise AssertionError("expected an error response")
    assert client.shown_documents == []
