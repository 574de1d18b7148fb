"""End to end over stdio: the newer provider schema sections (`ephemeral_resource_schemas`,
`action_schemas`, `resource_identity_schemas`) of a schema file given with `providerSchemas.files`
(the hand-written `tests/data/provider-schemas/new-sections.handwritten.schemas.json`): the pulled
diagnostics of an ephemeral body, an action's `config` and an import's `identity`, and completion in
an ephemeral body."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .helpers import PULL, lsp_position, open_document

SCHEMA = str(Path(__file__).resolve().parents[1] / "data" / "provider-schemas" / "new-sections.handwritten.schemas.json")
MARKED = parse_fixture("""{
  "ephemeral": {"example_token": {"t": {"$[audiense]audiense": "x"}}},
  "action": {"example_restart": {"r": {"config": {"server_id": "a", "forse": true}}}},
  "resource": {"example_server": {"s": {"name": "a"}}},
  "import": [{"to": "example_server.s", "identity": {"re$[regoin]goin": "eu"}}]
}
""").only
TEXT = MARKED.text


async def test_new_sections_are_checked_and_completed(client: LanguageClient, tmp_path: Path):
    (tmp_path / "main.tf.json").write_text(TEXT, encoding="utf-8")
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    item = types.ClientCompletionItemOptions(documentation_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText])
    caps = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        diagnostic=PULL, completion=types.CompletionClientCapabilities(completion_item=item)))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")
    await client.initialize_session(types.InitializeParams(
        capabilities=caps, workspace_folders=[folder],
        initialization_options={"providerSchemas": {"files": [SCHEMA], "runTerraform": False}}))
    open_document(client, uri, TEXT)
    lines = TEXT.split("\n")
    found: list = []
    for _ in range(100):  # the schema file is read in the background: pull until its findings come
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        found = sorted((d.code, lines[d.range.start.line][d.range.start.character:d.range.end.character])
                       for d in report.items if str(d.code).startswith("schema/"))
        if found:
            break
        await asyncio.sleep(0.1)
    assert found == [
        ("schema/missing-argument", "{"),  # the identity's required_for_import "id"
        ("schema/missing-argument", "}"),  # the ephemeral body's required "audience", at its closing brace
        ("schema/unknown-argument", '"audiense"'),
        ("schema/unknown-argument", '"forse"'),
        ("schema/unknown-argument", '"regoin"'),
    ]
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=lsp_position(TEXT, MARKED.marks["audiense"])))
    items = result.items if isinstance(result, types.CompletionList) else result
    assert {"audience", "ttl", "scope"} <= {i.label for i in items}


MARKED_QUERY = parse_fixture('{"list": {"exa$[type]mple_server": {"all": {"provider": "example", "config": {"na$[name_prefix]me_prefix": "web"}}}}}\n').only
QUERY_TEXT = MARKED_QUERY.text


async def test_identity_and_list_bodies_are_completed_and_hovered(client: LanguageClient, tmp_path: Path):
    (tmp_path / "main.tf.json").write_text(TEXT, encoding="utf-8")
    (tmp_path / "find.tfquery.json").write_text(QUERY_TEXT, encoding="utf-8")
    uri, query = (uri_of_path(str(tmp_path / n)) for n in ("main.tf.json", "find.tfquery.json"))
    folder = types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), workspace_folders=[folder],
        initialization_options={"providerSchemas": {"files": [SCHEMA], "runTerraform": False}}))
    open_document(client, uri, TEXT)
    open_document(client, query, QUERY_TEXT)

    async def labels(doc: str, text: str, offset: int) -> set[str]:
        at = lsp_position(text, offset)
        result = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=doc), position=at))
        items = result.items if isinstance(result, types.CompletionList) else result or []
        return {i.label for i in items}

    identity_key = MARKED.marks["regoin"]
    for _ in range(100):  # the schema file is read in the background
        if await labels(uri, TEXT, identity_key):
            break
        await asyncio.sleep(0.1)
    assert await labels(uri, TEXT, identity_key) == {"region"}
    assert await labels(query, QUERY_TEXT, MARKED_QUERY.marks["type"]) == {"example_server", "example_volume"}
    assert "name_prefix" in await labels(query, QUERY_TEXT, MARKED_QUERY.marks["name_prefix"])

    at = lsp_position(QUERY_TEXT, MARKED_QUERY.marks["name_prefix"])
    found = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=query), position=at))
    assert found is not None and "name_prefix" in str(found.contents)


async def test_a_list_type_completes_to_its_whole_block_until_the_setting_is_off(client: LanguageClient, tmp_path: Path):
    """Picking a list resource type inserts the whole `list` block (`provider` and the `config`
    arguments it requires, tab stops in each); `completion.prefillRequired` off: the type alone."""
    marked = parse_fixture('{"list": {⟨"example_vo$0"⟩}}\n').only
    text = marked.text
    (tmp_path / "main.tf.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "find.tfquery.json").write_text(text, encoding="utf-8")
    query = uri_of_path(str(tmp_path / "find.tfquery.json"))
    snippets = types.CompletionClientCapabilities(completion_item=types.ClientCompletionItemOptions(snippet_support=True))
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(completion=snippets)),
        workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")],
        initialization_options={"providerSchemas": {"files": [SCHEMA], "runTerraform": False}}))
    open_document(client, query, text)
    params = types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=query),
                                    position=lsp_position(text, marked.cursor))

    async def volume() -> types.CompletionItem | None:
        result = await client.text_document_completion_async(params)
        items = result.items if isinstance(result, types.CompletionList) else result or []
        return next((i for i in items if i.label == "example_volume"), None)

    item = None
    for _ in range(100):  # the schema file is read in the background
        if (item := await volume()) is not None:
            break
        await asyncio.sleep(0.1)
    assert item is not None and item.text_edit is not None
    assert item.insert_text_format == types.InsertTextFormat.Snippet
    assert item.text_edit.new_text == '"example_volume": {"${1:name}": {"provider": "${2:example}", "config": {"zone": "$3"}}}'
    assert (item.text_edit.range.start.character, item.text_edit.range.end.character) == marked.ranges[0]

    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"hcljson": {"completion": {"prefillRequired": False}}}))
    for _ in range(100):
        item = await volume()
        if item is not None and item.text_edit is not None and item.text_edit.new_text == "example_volume":
            break
        await asyncio.sleep(0.1)
    assert item is not None and item.text_edit is not None and item.text_edit.new_text == "example_volume"


async def test_ephemeral_action_and_required_provider_names_are_completed(client: LanguageClient, tmp_path: Path):
    """The type labels of `ephemeral` and `action` blocks from the loaded schema, and a
    `required_providers` entry for a provider the module uses, written with its source."""
    marked = parse_fixture('{"terraform": {"required_providers": {"ex$[provider]": {}}},\n'
                           ' "ephemeral": {"exa$[ephemeral]": {}},\n "action": {"exam$[action]": {}},\n'
                           ' "resource": {"example_server": {"s": {"name": "a"}}}}\n').only
    text = marked.text
    (tmp_path / "main.tf.json").write_text(text, encoding="utf-8")
    uri = uri_of_path(str(tmp_path / "main.tf.json"))
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")],
        initialization_options={"providerSchemas": {"files": [SCHEMA], "runTerraform": False}}))
    open_document(client, uri, text)

    async def items(mark: str) -> dict[str, types.CompletionItem]:
        got = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=lsp_position(text, marked.marks[mark])))
        return {i.label: i for i in (got.items if isinstance(got, types.CompletionList) else got or [])}

    for _ in range(100):  # the schema file is read in the background
        if await items("ephemeral"):
            break
        await asyncio.sleep(0.1)
    assert set(await items("ephemeral")) == {"example_token"}
    assert set(await items("action")) == {"example_restart"}
    entry = (await items("provider"))["example"]
    assert entry.text_edit is not None and entry.text_edit.new_text == '"example"'  # a colon follows: the name only
