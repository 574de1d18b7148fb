"""Diagnostics that scale with what changed (issue 21 §3), through the real server over stdio: pull
result ids answered "unchanged" while nothing changed, pushes only when the set changed, and runaway
repeats of one code collapsed (`diagnostics.maxPerCode`, `limit/too-many`)."""

from __future__ import annotations

import asyncio
import json

from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import change_document, edit, initialize, lsp_position, lsp_range, open_document, published_for, wait_for

URI = "file:///forms/main.tf.json"

# One misspelt reference (an error with a "Did you mean ...?" fix) after a string we edit freely.
TEXT = json.dumps({
    "variable": {"environment": {"default": "dev"}},
    "locals": {"note": "free text", "name": "${var.enviroment}"},
}, indent=2)


QUIET = {"diagnostics": {"unusedDeclarations": False}}


def _params(uri: str, previous: str | None = None) -> types.DocumentDiagnosticParams:
    return types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)


def _in_note() -> types.Position:
    return lsp_position(TEXT, TEXT.index("free text") + 4)


async def test_pull_answers_unchanged_until_the_diagnostics_change(client: LanguageClient):
    # local.name is unused: its hint (on by default) would arrive after the background build; this is about the rest.
    await initialize(client, pull=True, options=QUIET)
    open_document(client, URI, TEXT)
    first = await client.text_document_diagnostic_async(_params(URI))
    assert first.kind == "full" and first.result_id
    [undeclared] = first.items
    assert undeclared.code == "reference/undeclared"
    start = TEXT.index("var.enviroment")
    assert undeclared.range == lsp_range(TEXT, start, start + len("var.enviroment"))

    # An edit inside another string changes no diagnostic: "unchanged", with the same id.
    change_document(client, URI, 2, edit(_in_note(), _in_note(), "y"))
    same = await client.text_document_diagnostic_async(_params(URI, first.result_id))
    assert same.kind == "unchanged" and same.result_id == first.result_id

    # A new line above moves the diagnostic: a full report, a new id, the new place.
    top = types.Position(line=1, character=0)
    change_document(client, URI, 3, edit(top, top, "\n"))
    moved = await client.text_document_diagnostic_async(_params(URI, first.result_id))
    assert moved.kind == "full" and moved.result_id != first.result_id
    [again] = moved.items
    assert again.range.start.line == undeclared.range.start.line + 1
    assert again.range.start.character == undeclared.range.start.character
    assert again.message == undeclared.message and again.data is None  # (its fix: test_e2e_quick_fixes)

    # Taking the line out again: the same diagnostics as first, but never an old id again.
    change_document(client, URI, 4, edit(top, types.Position(line=2, character=0), ""))
    back = await client.text_document_diagnostic_async(_params(URI, moved.result_id))
    assert back.kind == "full" and back.items == first.items and back.result_id not in (first.result_id, moved.result_id)


async def test_push_sends_only_when_the_diagnostics_changed(client: LanguageClient):
    await initialize(client, options={"diagnostics": {"debounceMs": 0, "unusedDeclarations": False}})
    open_document(client, URI, TEXT)
    await wait_for(lambda: published_for(client, URI), what="the open's diagnostics")
    change_document(client, URI, 2, edit(_in_note(), _in_note(), "y"))  # changes no diagnostic
    await asyncio.sleep(0.2)
    start = lsp_position(TEXT, TEXT.index("enviroment") + len("enviro"))
    change_document(client, URI, 3, edit(start, start, "n"))  # fixes the reference: no diagnostic left
    await wait_for(lambda: len(published_for(client, URI)) >= 2, what="the fix's diagnostics")
    await asyncio.sleep(0.2)
    pushed = published_for(client, URI)
    # Version 2 changed nothing: not sent (versions are published in order, so it would be before 3).
    assert [(p.version, [d.code for d in p.diagnostics]) for p in pushed] == [(1, ["reference/undeclared"]), (3, [])]


def _many(count: int) -> str:
    return json.dumps({
        "variable": {"environment": {}},
        "locals": {f"v{i}": f"${{var.environmnt{i}}}" for i in range(count)},
    }, indent=2)


async def test_runaway_repeats_of_one_code_are_one_summary_at_the_first_hidden(client: LanguageClient):
    await initialize(client, pull=True, options={"diagnostics": {"maxPerCode": 2}})
    text = _many(5)
    open_document(client, URI, text)
    report = await client.text_document_diagnostic_async(_params(URI))
    codes = [d.code for d in report.items]
    assert codes == ["reference/undeclared", "reference/undeclared", "limit/too-many"]
    summary = report.items[2]
    third = text.index("var.environmnt2")
    assert summary.range == lsp_range(text, third, third + len("var.environmnt2"))
    assert summary.severity == types.DiagnosticSeverity.Error
    assert summary.message.startswith('3 more "reference/undeclared" diagnostics not shown')
    assert "environmnt2" in summary.message  # the first one not shown, said where it is

    # 0: all of them.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"diagnostics": {"maxPerCode": 0}}))
    report = await client.text_document_diagnostic_async(_params(URI, report.result_id))
    assert [d.code for d in report.items] == ["reference/undeclared"] * 5
