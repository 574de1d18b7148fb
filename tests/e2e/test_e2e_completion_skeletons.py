"""End to end over stdio: completing a resource type (the random provider's schema file named in
`providerSchemas.files`) inserts the whole block as a snippet over the whole key string; after
`workspace/didChangeConfiguration` turns `completion.prefillRequired` off, the type alone."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import shared_data
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import ClientServerConfig

from hcljson_ls.workspace.files import uri_of_path

from .conftest import make_client
from .helpers import lsp_position, lsp_range, open_document

RANDOM = shared_data.RANDOM_SCHEMA
shared_data.require(RANDOM)

FIXTURE = """\
//- /main.tf.json
{"resource": {⟨"random_st$0"⟩}}
"""


async def test_a_type_completes_to_its_block_until_the_setting_is_off(tmp_path: Path) -> None:
    root = tmp_path / "work"
    fw = parse_fixture(FIXTURE)
    paths = fw.write(root)
    main = fw.files["/main.tf.json"]
    uri = uri_of_path(str(paths["/main.tf.json"]))
    config = ClientServerConfig(server_command=[sys.executable, "-m", "hcljson_ls", "--stdio"], client_factory=make_client,
                                server_env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    client = await config.start()
    try:
        completion = types.CompletionClientCapabilities(completion_item=types.ClientCompletionItemOptions(
            snippet_support=True, documentation_format=[types.MarkupKind.PlainText]))
        await client.initialize_session(types.InitializeParams(
            capabilities=types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(completion=completion)),
            workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(root)), name="work")],
            initialization_options={"providerSchemas": {"files": [str(RANDOM)], "runTerraform": False}}))
        open_document(client, uri, main.text)
        key = lsp_range(main.text, *main.ranges[0])
        params = types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                        position=lsp_position(main.text, main.cursor))

        async def random_string() -> types.CompletionItem | None:
            got = await client.text_document_completion_async(params)
            items = got.items if isinstance(got, types.CompletionList) else got or []
            return next((i for i in items if i.label == "random_string"), None)

        item = None
        for _ in range(300):  # schema files are read in the background: ask until the schema is there
            if (item := await random_string()) is not None:
                break
            await asyncio.sleep(0.1)
        assert item is not None
        assert item.insert_text_format == types.InsertTextFormat.Snippet and item.filter_text == '"random_string"'
        assert item.text_edit == types.TextEdit(range=key, new_text='"random_string": {"${1:name}": {"length": ${2:0}}}')

        # The notification's settings apply before the next request is handled (a sync handler).
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"hcljson": {"completion": {"prefillRequired": False}}}))
        item = await random_string()
        assert item is not None
        typed = lsp_range(main.text, main.ranges[0][0] + 1, main.cursor)  # inside the quotes
        assert item.text_edit == types.TextEdit(range=typed, new_text="random_string")
        assert item.insert_text_format == types.InsertTextFormat.PlainText
    finally:
        await client.shutdown_session()
