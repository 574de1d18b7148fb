"""End to end over stdio: a `terraform.tfvars.json` the client opens with the language id `json` (what
editors without our file patterns send) is analysed by its name against the variables of its module
(files the client never opened): the undeclared-variable warning with its quick fix, the wrong-type
error, and again after the declaring file changes on disk; hover, definition, completion and symbols.
And the editors route such files to the server: the VS Code extension's file patterns and the Neovim
filetype patterns match them."""

from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace import is_ours
from hcljson_ls.workspace.files import uri_of_path

from .helpers import PULL, lsp_position, lsp_range, open_document, wait_for

MODULE = r"""
//- /env/variables.tf.json
{"variable": {"region": {"type": "string", "description": "Where it runs — région"}, ⟨"port"⟩: {"type": "number"}}}
//- /env/sizes.tf
variable "zones" {
  type = list(string)
}
//- /env/terraform.tfvars.json
{
  ⟨"regoin"⟩: "eu-west-1",
  "p$[port]ort": ⟨"eighty"⟩,
  ⟨"z$[zones]ones"⟩: ["a"]
$[after_zones]}
"""

TFVARS = "/env/terraform.tfvars.json"
#: What the ⟨⟩ of terraform.tfvars.json mark, in order.
TFVARS_RANGES = ("regoin", "eighty", "zones")


def _capabilities(pull: bool) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, version_support=True),
            diagnostic=PULL if pull else None,
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=[types.CodeActionKind.QuickFix])
                )
            ),
            document_symbol=types.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
            completion=types.CompletionClientCapabilities(completion_item=types.ClientCompletionItemOptions(
                documentation_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText])),
        ),
        workspace=types.WorkspaceClientCapabilities(
            workspace_folders=True,
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        ),
    )


class Module:
    def __init__(self, root: Path) -> None:
        self.fixture = parse_fixture(MODULE)
        self.paths = self.fixture.write(root)
        self.uri = uri_of_path(str(self.paths[TFVARS]))
        self.text = self.fixture.files[TFVARS].text
        self.ranges = dict(zip(TFVARS_RANGES, self.fixture.files[TFVARS].ranges, strict=True))

    def range_of(self, name: str) -> types.Range:
        return lsp_range(self.text, *self.ranges[name])

    def position(self, mark: str) -> types.Position:
        return lsp_position(self.text, self.fixture.files[TFVARS].marks[mark])


async def _start(client: LanguageClient, root: Path, pull: bool = False) -> Module:
    m = Module(root)
    folder = types.WorkspaceFolder(uri=uri_of_path(str(root)), name="root")
    await client.initialize_session(types.InitializeParams(capabilities=_capabilities(pull), workspace_folders=[folder]))
    open_document(client, m.uri, m.text, language_id="json")
    return m


@pytest.mark.parametrize("pull", [False, True], ids=["push", "pull"])
async def test_undeclared_variable_in_a_tfvars_file_opened_as_json(client: LanguageClient, tmp_path, pull):
    m = await _start(client, tmp_path, pull)
    doc = types.TextDocumentIdentifier(uri=m.uri)
    if pull:
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=doc))
        found = list(report.items)
    else:
        found = await wait_for(lambda: client.diagnostics.get(m.uri), what="diagnostics of the tfvars file")
    assert [(d.code, d.severity, d.range) for d in found] == [
        ("tfvars/undeclared-variable", types.DiagnosticSeverity.Warning, m.range_of("regoin")),
        ("tfvars/wrong-type", types.DiagnosticSeverity.Error, m.range_of("eighty")),
    ]
    assert found[0].message == ('Value for undeclared variable "regoin": The module declares no variable "regoin"; '
                                'Terraform ignores this value with a warning. Did you mean "region"?')
    assert found[1].message == "Unsuitable value for var.port: The type of var.port is number: a number is required."
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=doc, range=found[0].range, context=types.CodeActionContext(diagnostics=[found[0]]))
    )
    [action] = actions
    [change] = action.edit.changes[m.uri]
    assert (action.kind, action.title, change.range, change.new_text) == (
        types.CodeActionKind.QuickFix, 'Change to "region"', m.range_of("regoin"), '"region"')


async def test_a_declaration_changed_on_disk_reaches_the_open_tfvars_file(client: LanguageClient, tmp_path):
    m = await _start(client, tmp_path)
    await wait_for(lambda: len(client.diagnostics.get(m.uri) or []) == 2, what="the first diagnostics")
    m.paths["/env/variables.tf.json"].write_text(
        '{"variable": {"regoin": {}, "port": {"type": "string"}}}', encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=uri_of_path(str(m.paths["/env/variables.tf.json"])), type=types.FileChangeType.Changed)]))
    await wait_for(lambda: client.diagnostics.get(m.uri) == [], what="no diagnostics once the variables fit")


async def test_hover_definition_completion_and_symbols(client: LanguageClient, tmp_path):
    m = await _start(client, tmp_path)
    doc = types.TextDocumentIdentifier(uri=m.uri)
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=m.position("zones")))
    assert "type: `list(string)`" in hover.contents.value and "Declared in `env/sizes.tf`." in hover.contents.value
    assert hover.range == m.range_of("zones")

    found = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=m.position("port")))
    variables = m.fixture.files["/env/variables.tf.json"]
    assert [(loc.uri, loc.range) for loc in found] == [
        (uri_of_path(str(m.paths["/env/variables.tf.json"])), lsp_range(variables.text, *variables.ranges[0]))]

    items = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=m.position("after_zones")))
    listed = items.items if isinstance(items, types.CompletionList) else items
    assert [(i.label, i.detail) for i in listed] == [("region", "string")]  # port and zones are set already

    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc))
    assert [(s.name, s.kind) for s in symbols] == [
        ("regoin", types.SymbolKind.Variable), ("port", types.SymbolKind.Variable), ("zones", types.SymbolKind.Variable)]


# ---- the editors route these files to the server ---------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
TFVARS_NAMES = ["terraform.tfvars.json", "prod.auto.tfvars.json", "staging.tfvars.json"]


def test_the_vscode_extension_opens_tfvars_files_as_terraform_json() -> None:
    manifest = json.loads((ROOT / "vscode-extension" / "package.json").read_text(encoding="utf-8"))
    [language] = [lang for lang in manifest["contributes"]["languages"] if lang["id"] == "terraform-json"]
    for name in TFVARS_NAMES:
        assert any(fnmatch.fnmatchcase(name, p) for p in language["filenamePatterns"]), name
        assert is_ours(f"file:///w/{name}", "terraform-json") and is_ours(f"file:///w/{name}", "json")


@pytest.mark.parametrize("path", ["editors/neovim/init-snippet.lua", "editors/neovim/ftdetect/terraform-json.lua"])
def test_neovim_gives_tfvars_files_the_terraform_json_filetype(path: str) -> None:
    # `['.*%.tfvars%.json'] = 'terraform-json'`: a Lua pattern (`%.` is a literal dot), anchored by Neovim.
    lua = (ROOT / path).read_text(encoding="utf-8")
    patterns = re.findall(r"\['([^']+)'\]\s*=\s*'terraform-json'", lua)
    regexes = [re.compile(p.replace("%.", r"\.") + r"\Z") for p in patterns]
    for name in TFVARS_NAMES:
        assert any(r.match(name) for r in regexes), (name, patterns)
