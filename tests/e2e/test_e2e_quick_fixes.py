"""Quick fixes worked out on `textDocument/codeAction` (issue 21 §3, session 12), through the real
server over stdio: a diagnostic goes out without its fixes (no `data`); a code action on its range
answers them, naming the diagnostic as the client has it (also elsewhere on its line when the client
sends it, as Neovim does); after an edit moved it, at its new place (the client's diagnostics then
stale, or none sent); none when `only` leaves quick fixes out."""

from __future__ import annotations

import json

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import change_document, edit, initialize, lsp_range, open_document, wait_for

URI = "file:///quick-fixes/main.tf.json"

# One misspelt reference: its diagnostic's range (the address) and its fix's (the name) marked.
_FIXTURE = parse_fixture(
    '{\n$[top]  "variable": {"region": {}},\n$[line]  "output": {"o": {"value": "${⟨var.⟨regoin⟩⟩}"}, "p": {"value": 1}}\n}\n'
).only
TEXT = _FIXTURE.text
(DIAGNOSTIC, NAME) = _FIXTURE.ranges
TOP = _FIXTURE.marks["top"]  # the start of the line above it
MAIN_LINE = _FIXTURE.marks["line"]  # the start of its line

OPTIONS = {"diagnostics": {"unusedDeclarations": False, "debounceMs": 0}}


def _apply(text: str, start: int, end: int, new_text: str) -> str:
    return text[:start] + new_text + text[end:]


async def _actions(client: LanguageClient, where: types.Range, sent: list[types.Diagnostic],
                   only: list[str] | None = None) -> list[types.CodeAction]:
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), range=where,
        context=types.CodeActionContext(diagnostics=sent, only=only)))
    return [a for a in got or [] if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix]


@pytest.mark.parametrize("pull", [False, True], ids=["push", "pull"])
async def test_quick_fixes_are_worked_out_on_code_action(client: LanguageClient, pull: bool):
    await initialize(client, pull=pull, options=OPTIONS)
    open_document(client, URI, TEXT)
    if pull:
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI)))
        [d] = report.items
    else:
        [d] = await wait_for(lambda: client.diagnostics.get(URI), what="the open's diagnostics")
    assert d.code == "reference/undeclared" and d.range == lsp_range(TEXT, *DIAGNOSTIC)
    assert d.data is None and 'Did you mean "var.region"?' in d.message  # the suggestion, not its fix

    # On its range: its fix, naming the diagnostic as the client sent it.
    [action] = await _actions(client, d.range, [d], only=[types.CodeActionKind.QuickFix])
    assert action.title == 'Change to "var.region"' and action.is_preferred and list(action.diagnostics) == [d]
    [change] = action.edit.changes[URI]
    assert change.range == lsp_range(TEXT, *NAME) and change.new_text == "region"
    # A cursor at its end, the client sending no diagnostic: the same fix, naming ours.
    at_end = lsp_range(TEXT, DIAGNOSTIC[1], DIAGNOSTIC[1])
    assert await _actions(client, at_end, []) == [action]
    # Elsewhere on its line, the client sending it (as Neovim sends the line's): its fix; sending none: none.
    line_start = lsp_range(TEXT, MAIN_LINE, MAIN_LINE)
    assert await _actions(client, line_start, [d]) == [action]
    assert await _actions(client, line_start, []) == []

    # A line inserted above moves it: the fix at its new place, though the client's diagnostic is stale.
    top = lsp_range(TEXT, TOP, TOP)
    change_document(client, URI, 2, edit(top.start, top.end, "\n"))
    moved = _apply(TEXT, TOP, TOP, "\n")
    moved_range = lsp_range(moved, DIAGNOSTIC[0] + 1, DIAGNOSTIC[1] + 1)
    [action] = await _actions(client, moved_range, [d])
    [named] = action.diagnostics
    assert named.range == moved_range and named.code == d.code and named.message == d.message and named.data is None
    [change] = action.edit.changes[URI]
    assert change.range == lsp_range(moved, NAME[0] + 1, NAME[1] + 1) and change.new_text == "region"
    fixed = _apply(moved, NAME[0] + 1, NAME[1] + 1, change.new_text)
    assert json.loads(fixed)["output"]["o"]["value"] == "${var.region}"

    # `only` without quick fixes: none of them (a sub-kind of another kind, or another kind).
    for only in ([types.CodeActionKind.RefactorRewrite], [types.CodeActionKind.Source], ["quickfix.other"]):
        assert await _actions(client, moved_range, [named], only=only) == [], only
