"""End to end over stdio: a `tests/*.tftest.json` the client opens with the language id `json` is checked
against the module above `tests/` (a file the client never opened): an undeclared resource in an
assertion with "Did you mean" and its quick-fix edit, a run that executes later, a misspelled
`command`; after the module's file is opened and changed to declare the resource, the test file's
diagnostics follow (push: published again; pull: a new report). Hover comes from the test file schema."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import PULL, change_document, lsp_position, open_document, wait_for

FILES = r"""
//- /mod/main.tf.json
{"resource": {"terraform_data": {"web": {}}}}
//- /mod/tests/unit.tftest.json
{
  "run": {
    "first": {"c$[command]ommand": "aply", "variables": {"x": "${run.second.id}"},
              "assert": [{"condition": "${⟨terraform_data.webb⟩.id != \"\"}", "error_message": "no id"}]},
    "second": {}
  }
}
"""
TEST = "/mod/tests/unit.tftest.json"
MAIN = "/mod/main.tf.json"


def _capabilities(pull: bool) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, version_support=True),
            diagnostic=PULL if pull else None,
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        ),
        workspace=types.WorkspaceClientCapabilities(workspace_folders=True),
    )


async def _diagnostics(client: LanguageClient, uri: str, pull: bool, count: int) -> list[types.Diagnostic]:
    if pull:
        async def report():
            got = await client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
            return list(got.items) if len(got.items) == count else None
        for _ in range(200):
            found = await report()
            if found is not None:
                return found
        raise AssertionError(f"no report of {count} diagnostics")
    return await wait_for(lambda: (found := client.diagnostics.get(uri)) is not None and len(found) == count and found,
                          what=f"{count} diagnostics of {uri}")


@pytest.mark.parametrize("pull", [False, True], ids=["push", "pull"])
async def test_a_test_file_is_checked_against_the_module_above_tests(client: LanguageClient, tmp_path, pull):
    fixture = parse_fixture(FILES)
    paths = fixture.write(tmp_path)
    test_uri, main_uri = uri_of_path(str(paths[TEST])), uri_of_path(str(paths[MAIN]))
    text = fixture.files[TEST].text
    folder = types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")
    await client.initialize_session(types.InitializeParams(capabilities=_capabilities(pull), workspace_folders=[folder]))
    open_document(client, test_uri, text, language_id="json")

    found = await _diagnostics(client, test_uri, pull, 3)
    by_code = {str(d.code): d for d in found}
    assert set(by_code) == {"structure/invalid-keyword", "test/unavailable-run", "reference/undeclared"}
    undeclared = by_code["reference/undeclared"]
    (start, end), = fixture.files[TEST].ranges
    assert undeclared.range.start == lsp_position(text, start)
    assert undeclared.range.end == lsp_position(text, end)
    assert 'Did you mean "terraform_data.web"?' in undeclared.message
    assert by_code["test/unavailable-run"].severity == types.DiagnosticSeverity.Error

    hovered = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=test_uri), position=lsp_position(text, fixture.files[TEST].marks["command"])))
    assert hovered is not None and '"plan"' in hovered.contents.value

    # The module under test now declares `webb`: the open test file is checked again.
    main_text = fixture.files[MAIN].text
    open_document(client, main_uri, main_text)
    change_document(client, main_uri, 2, types.TextDocumentContentChangeWholeDocument(text=main_text.replace('"web"', '"webb"')))
    found = await _diagnostics(client, test_uri, pull, 2)
    assert {str(d.code) for d in found} == {"structure/invalid-keyword", "test/unavailable-run"}
