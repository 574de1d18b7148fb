"""Rename with a `moved` block over stdio (`features.moved`): the code action "Rename and add a moved
block" on a resource's name key, the server command that answers it with one `workspace/applyEdit`
(the round trip: the client applies it and says so), and `textDocument/rename` under the setting
`rename.addMovedBlock`."""

from __future__ import annotations

import json
from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_position, open_document

#: Its marks: in the resource's name (`$[name]`), in a reference to it (`$[reference]`) and in the
#: reference's type (`$[elsewhere]`).
MARKED_MAIN = parse_fixture("""{
  "resource": {
    "terraform_data": {
      "w$[name]eb": {"input": 1}
    }
  },
  "output": {
    "id": {"value": "${t$[elsewhere]erraform_data.w$[reference]eb.id}"}
  }
}
""").only
MAIN = MARKED_MAIN.text
OTHER = '{"output": {"again": {"value": "${terraform_data.web.output}"}}}\n'


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    def offset(p: types.Position) -> int:
        lines = text.split("\n")
        return sum(len(x) + 1 for x in lines[: p.line]) + p.character

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


async def _start(client: LanguageClient, root: Path, options=None) -> tuple[str, str]:
    (root / "main.tf.json").write_text(MAIN, encoding="utf-8")
    (root / "other.tf.json").write_text(OTHER, encoding="utf-8")
    caps = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(apply_edit=True))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(root)), name="root")
    await client.initialize_session(types.InitializeParams(capabilities=caps, workspace_folders=[folder], initialization_options=options))
    main, other = uri_of_path(str(root / "main.tf.json")), uri_of_path(str(root / "other.tf.json"))
    open_document(client, main, MAIN)
    return main, other


async def test_the_code_action_and_its_command_rename_with_a_moved_entry(client: LanguageClient, tmp_path: Path):
    applied: list[types.ApplyWorkspaceEditParams] = []

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        applied.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)

    main, other = await _start(client, tmp_path)
    at = lsp_position(MAIN, MARKED_MAIN.marks["name"])
    context = types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Refactor])
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=main), range=types.Range(start=at, end=at), context=context))
    # lsprotocol's client-side converter reads a code action holding a `command` as a bare `Command`.
    [action] = actions
    assert action.title == "Rename and add a moved block"
    assert "'command': 'hcljson.renameWithMoved'" in str(action.command) and "'web'" in str(action.command)
    elsewhere = lsp_position(MAIN, MARKED_MAIN.marks["elsewhere"])  # a reference: rename it there instead
    assert await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=main), range=types.Range(start=elsewhere, end=elsewhere), context=context)) is None

    # What the VS Code extension's `hcljson.renameWithMoved` sends once the user typed the new name.
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="hcljson.applyRenameWithMoved", arguments=[main, {"line": at.line, "character": at.character}, "app"]))
    assert result == {"applied": True}
    [params] = applied
    assert params.label == "Rename and add a moved block"
    changes = params.edit.changes
    assert set(changes) == {main, other}  # every reference in the workspace, the file on disk too
    renamed = json.loads(_apply(MAIN, list(changes[main])))
    assert renamed["moved"] == [{"from": "terraform_data.web", "to": "terraform_data.app"}]
    assert renamed["resource"]["terraform_data"] == {"app": {"input": 1}}
    assert _apply(OTHER, list(changes[other])) == OTHER.replace("terraform_data.web", "terraform_data.app")


async def test_a_taken_name_is_refused_with_the_reason(client: LanguageClient, tmp_path: Path):
    main, _ = await _start(client, tmp_path)
    at = lsp_position(MAIN, MARKED_MAIN.marks["name"])
    try:
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="hcljson.applyRenameWithMoved", arguments=[main, {"line": at.line, "character": at.character}, "9x"]))
    except Exception as error:  # the client sees the JSON-RPC error with the message
        assert "is not a valid name" in str(error)
    else:
        raise AssertionError("a bad name was accepted")


async def test_rename_adds_the_moved_entry_when_the_setting_says_so(client: LanguageClient, tmp_path: Path):
    main, _ = await _start(client, tmp_path, options={"rename": {"addMovedBlock": True}})
    at = lsp_position(MAIN, MARKED_MAIN.marks["reference"])  # from a reference
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=main), position=at, new_name="app"))
    assert json.loads(_apply(MAIN, list(edit.changes[main])))["moved"] == [{"from": "terraform_data.web", "to": "terraform_data.app"}]


async def test_rename_adds_no_moved_entry_by_default(client: LanguageClient, tmp_path: Path):
    main, _ = await _start(client, tmp_path)
    at = lsp_position(MAIN, MARKED_MAIN.marks["name"])
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=main), position=at, new_name="app"))
    assert "moved" not in json.loads(_apply(MAIN, list(edit.changes[main])))
