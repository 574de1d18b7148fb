"""End to end over stdio: provider schemas that arrive while the server builds a quick-opened document
in steps (`HcljsonServer._prepare`) reach a pulling client, as in the real VS Code trust test.

A pulling client opens a document of ~500 KB `random_string` resources (one with a misspelt argument
that only the random provider's schema reports) and pulls its quick-open diagnostics; the server
starts the build 50 ms later, in slices. Right then the random provider's schema file is named in
`providerSchemas.files` (`workspace/didChangeConfiguration`): read off the event loop and applied
between two slices, it asks the client to refresh, and the pull that follows has the schema
diagnostic (a refresh for the settings themselves may come first). Once the build is done, nothing changes: no second refresh (the build's check against
the quick result found nothing to disagree with), and the next pulls are answered "unchanged"."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

import shared_data
from lsprotocol import types
from pytest_lsp import ClientServerConfig

from hcljson_ls.workspace.files import uri_of_path

from .conftest import make_client
from .helpers import PULL, open_document, wait_for

RANDOM = shared_data.RANDOM_SCHEMA
shared_data.require(RANDOM)

TYPO = "schema/unknown-argument"
TEXT = json.dumps(
    {"resource": {"random_string": {**{f"s{i}": {"length": 8, "special": False, "keepers": {"k": f"${{var.v}}-{i}"}}
                                       for i in range(5_000)},
                                    "bad": {"lenght": 8, "length": 8}}},
     "variable": {"v": {"type": "string"}}},
    indent=2,
)


async def test_schemas_arriving_during_the_build_reach_a_pulling_client(tmp_path: Path) -> None:
    root = tmp_path / "work"
    root.mkdir()
    path = root / "main.tf.json"
    path.write_text(TEXT, encoding="utf-8")
    uri = uri_of_path(str(path))
    config = ClientServerConfig(server_command=[sys.executable, "-m", "hcljson_ls", "--stdio"], client_factory=make_client,
                                server_env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    client = await config.start()
    try:
        await client.initialize_session(types.InitializeParams(
            capabilities=types.ClientCapabilities(
                text_document=types.TextDocumentClientCapabilities(diagnostic=PULL),
                workspace=types.WorkspaceClientCapabilities(
                    diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True))),
            workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(root)), name="work")],
            initialization_options={"providerSchemas": {"runTerraform": False}}))

        async def pull(previous: str | None = None) -> types.DocumentDiagnosticReport:
            return await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous))

        open_document(client, uri, TEXT)
        opened = await pull()
        assert opened.kind == "full" and not opened.items  # the quick open's answer, no schemas yet
        answered = time.monotonic()
        await asyncio.sleep(0.1)  # the build has started (50 ms after the answer)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"hcljson": {"providerSchemas": {"files": [str(RANDOM)], "runTerraform": False}}}))
        # A refresh for the settings, another once the schema file is read: the client pulls after each.
        with_schemas, seen = opened, 0
        while with_schemas is opened or with_schemas.kind == "unchanged":
            await wait_for(lambda: client.refreshes > seen, timeout=60, what="workspace/diagnostic/refresh")
            seen = client.refreshes
            with_schemas = await pull(opened.result_id)
        assert [d.code for d in with_schemas.items] == [TYPO]
        during = time.monotonic() - answered
        refreshed = client.refreshes

        # The build ends on its own (seconds on a loaded machine: it is not waited for by a request).
        await asyncio.sleep(max(3.0, 2 * during))
        assert client.refreshes == refreshed, "the build found its quick result wrong and refreshed again"
        assert (await pull(with_schemas.result_id)).kind == "unchanged"
        # A request that needs the tree (finishing the build if it is still going): still the same.
        symbols = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        assert symbols
        assert (await pull(with_schemas.result_id)).kind == "unchanged"
        assert client.refreshes == refreshed
    finally:
        await client.shutdown_session()
