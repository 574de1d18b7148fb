"""End to end over stdio: hover and completion from a provider schema file named in the
`providerSchemas.files` initialization option (the real AWS 4.13 schema of the shared data), and
the deprecated tag on a completion item (the random provider's `number`)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import shared_data
from fixture import parse_fixture
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .conftest import make_client
from .helpers import lsp_position, lsp_range, open_document

AWS, RANDOM = shared_data.AWS_SCHEMA, shared_data.RANDOM_SCHEMA
shared_data.require(AWS, RANDOM)

FIXTURE = """\
//- /main.tf.json
{"resource": {
  "aws_instance": {"web": {⟨"instance_type"⟩: "t3.micro", "ebs_block_device": [{"device_name": "/dev/sdb", $0}]}},
  "random_string": {"r": {"length": 8, $[random]}}
}}
"""


async def _start(root: Path, tmp_path: Path) -> LanguageClient:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "hcljson_ls", "--stdio"], client_factory=make_client, server_env=env
    )
    client = await config.start()
    markup = [types.MarkupKind.Markdown, types.MarkupKind.PlainText]
    completion = types.CompletionClientCapabilities(completion_item=types.ClientCompletionItemOptions(
        snippet_support=True,
        documentation_format=markup,
        tag_support=types.CompletionItemTagOptions(value_set=[types.CompletionItemTag.Deprecated]),
    ))
    hover = types.HoverClientCapabilities(content_format=markup)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(completion=completion, hover=hover)),
            workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(root)), name="work")],
            # A path relative to the workspace folder and an absolute one.
            initialization_options={"providerSchemas": {"files": ["schemas/aws.json", str(RANDOM)], "runTerraform": False}},
        )
    )
    return client


async def test_hover_and_completion_from_a_schema_file(tmp_path: Path) -> None:
    root = tmp_path / "work"
    fw = parse_fixture(FIXTURE)
    paths = fw.write(root)
    (root / "schemas").mkdir()
    (root / "schemas" / "aws.json").write_bytes(AWS.read_bytes())
    main = fw.files["/main.tf.json"]
    text = main.text
    uri = uri_of_path(str(paths["/main.tf.json"]))
    client = await _start(root, tmp_path)
    try:
        open_document(client, uri, text)
        doc = types.TextDocumentIdentifier(uri=uri)

        (start, end), = main.ranges
        # Schema files are read in the background (off the event loop): ask until the schema is there.
        for _ in range(300):
            hovered = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=lsp_position(text, start + 3)))
            if hovered is not None and "optional argument" in getattr(hovered.contents, "value", ""):
                break
            await asyncio.sleep(0.1)
        assert hovered is not None and hovered.range == lsp_range(text, start, end)
        assert isinstance(hovered.contents, types.MarkupContent) and hovered.contents.kind == types.MarkupKind.Markdown
        assert hovered.contents.value.startswith('**instance_type** — optional argument of `resource "aws_instance" "web"`')
        assert "type: `string`" in hovered.contents.value

        result = await client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=lsp_position(text, main.cursor))
        )
        items = {i.label: i for i in (result.items if isinstance(result, types.CompletionList) else result or [])}
        assert {"volume_size", "encrypted", "volume_type"} <= set(items) and "device_name" not in items
        size = items["volume_size"]
        assert size.kind == types.CompletionItemKind.Property and size.detail == "number"
        assert size.insert_text_format == types.InsertTextFormat.Snippet
        assert isinstance(size.text_edit, types.TextEdit) and size.text_edit.new_text == '"volume_size": ${1:0}'

        at = main.marks["random"]
        result = await client.text_document_completion_async(types.CompletionParams(text_document=doc, position=lsp_position(text, at)))
        items = {i.label: i for i in (result.items if isinstance(result, types.CompletionList) else result or [])}
        assert list(items["number"].tags or ()) == [types.CompletionItemTag.Deprecated]
        assert not items["upper"].tags
    finally:
        await client.shutdown_session()
