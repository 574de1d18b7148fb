"""End to end over stdio: the typed and keyword values of issue 20 §6 in one document: `true` /
`false` for a bool argument, `when` and `on_failure` keywords of a provisioner, the arguments of
the resource in `ignore_changes`, the other managed resources in `replace_triggered_by`, and the
built-in provisioner types for a provisioner label being typed."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_position, open_document

TEXT = """{
  "resource": {"terraform_data": {
    "e": {"input": 2},
    "d": {"input": 1,
      "lifecycle": {"create_before_destroy": false, "ignore_changes": [""], "replace_triggered_by": ["terraform_data."]},
      "provisioner": {"local-exec": {"command": "x", "when": "", "on_failure": ""}, "fi": {"source": "a", "destination": "b"}}}
  }}
}
"""


async def test_typed_and_keyword_values_over_stdio(client: LanguageClient, tmp_path: Path):
    (tmp_path / "main.tf.json").write_text(TEXT, encoding="utf-8")
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")]))
    open_document(client, uri, TEXT)

    async def labels(after: str, shift: int = 0) -> set[str]:
        at = lsp_position(TEXT, TEXT.index(after) + len(after) + shift)
        got = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=at))
        items = got.items if isinstance(got, types.CompletionList) else got or []
        return {i.label for i in items}

    assert await labels('"create_before_destroy": f') == {"true", "false"}
    assert {"input", "triggers_replace"} <= await labels('"ignore_changes": ["')
    assert "terraform_data" in await labels('"replace_triggered_by": ["')
    others = await labels('"replace_triggered_by": ["terraform_data.')
    assert "e" in others and "d" not in others  # not itself
    assert await labels('"when": "') == {"create", "destroy"}
    assert await labels('"on_failure": "') == {"continue", "fail"}
    assert await labels('"fi') == {"file"}
