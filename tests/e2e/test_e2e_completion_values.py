"""End to end over stdio: the typed and keyword values of issue 20 §6 in one document: `true` /
`false` for a bool argument, `when` and `on_failure` keywords of a provisioner, the arguments of
the resource in `ignore_changes`, the other managed resources in `replace_triggered_by`, the
built-in provisioner types for a provisioner label being typed, and the `action_trigger.events`
keywords of the module's Terraform version (its `required_version`)."""

from __future__ import annotations

from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import lsp_position, open_document

#: Its marks: where each value is completed.
MARKED = parse_fixture("""{
  "resource": {"terraform_data": {
    "e": {"input": 2},
    "d": {"input": 1,
      "lifecycle": {"create_before_destroy": f$[bool]alse, "ignore_changes": ["$[argument]"], "replace_triggered_by": ["$[type]terraform_data.$[name]"]},
      "provisioner": {"local-exec": {"command": "x", "when": "$[when]", "on_failure": "$[on_failure]"}, "fi$[provisioner]": {"source": "a", "destination": "b"}}}
  }}
}
""").only
TEXT = MARKED.text


async def opened(client: LanguageClient, tmp_path: Path, text: str) -> str:
    """`text` written as `main.tf.json` in a workspace folder of its own, the session started, the
    document opened; its URI."""
    (tmp_path / "main.tf.json").write_text(text, encoding="utf-8")
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")]))
    open_document(client, uri, text)
    return uri


async def test_typed_and_keyword_values_over_stdio(client: LanguageClient, tmp_path: Path):
    uri = await opened(client, tmp_path, TEXT)

    async def labels(mark: str) -> set[str]:
        at = lsp_position(TEXT, MARKED.marks[mark])
        got = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=at))
        items = got.items if isinstance(got, types.CompletionList) else got or []
        return {i.label for i in items}

    assert await labels("bool") == {"true", "false"}
    assert {"input", "triggers_replace"} <= await labels("argument")
    assert "terraform_data" in await labels("type")
    others = await labels("name")
    assert "e" in others and "d" not in others  # not itself
    assert await labels("when") == {"create", "destroy"}
    assert await labels("on_failure") == {"continue", "fail"}
    assert await labels("provisioner") == {"file"}


#: Terraform 1.14 (the module's `required_version`) has the create and update events, not the
#: destroy ones (1.16): `language.ACTION_TRIGGER_EVENTS`.
MARKED_EVENTS = parse_fixture("""{
  "terraform": {"required_version": "~> 1.14.0"},
  "resource": {"terraform_data": {"a": {"lifecycle": {"action_trigger": {
    "events": ["after_create", "⟨af$0_cr⟩", "$[empty]"], "actions": []}}}}}
}
""").only
EVENTS = MARKED_EVENTS.text


async def test_action_trigger_events_are_the_keywords_of_the_module_version_over_stdio(client: LanguageClient, tmp_path: Path):
    uri = await opened(client, tmp_path, EVENTS)

    async def items(offset: int) -> list[types.CompletionItem]:
        got = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=lsp_position(EVENTS, offset)))
        return got.items if isinstance(got, types.CompletionList) else got or []

    assert {i.label for i in await items(MARKED_EVENTS.marks["empty"])} == {"before_create", "before_update", "after_update"}  # not listed ones
    [after_update] = await items(MARKED_EVENTS.cursor)
    assert after_update.label == "after_update"
    assert after_update.kind == types.CompletionItemKind.EnumMember
    # It replaces the whole string, the part after the cursor too.
    assert after_update.text_edit.range == types.Range(*(lsp_position(EVENTS, at) for at in MARKED_EVENTS.ranges[0]))
    assert after_update.text_edit.new_text == "after_update"
