"""End to end over stdio: the setting `indexing.ignorePaths` keeps directories out of the workspace
scan (workspace symbols of files never opened do not list them), and a changed setting brings them
back (issue 20 §6)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from hcljson_ls.workspace.files import uri_of_path


async def test_ignored_directories_are_left_out_of_the_scan_until_the_setting_changes(client: LanguageClient, tmp_path: Path):
    for path, name in [("live/main.tf.json", "kept_output"), ("vendor/mod/main.tf.json", "vendored_output")]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text('{"output": {"%s": {"value": 1}}}\n' % name, encoding="utf-8")
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=uri_of_path(str(tmp_path)), name="root")],
        initialization_options={"indexing": {"ignorePaths": ["vendor"]}}))

    async def names(query: str) -> list[str]:
        got = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
        return [s.name for s in got or []]

    for _ in range(200):  # the scan runs in the background after `initialized`
        if await names("kept_output"):
            break
        await asyncio.sleep(0.05)
    assert await names("kept_output") == ["output.kept_output"]
    assert await names("vendored_output") == []  # the scan has run: the ignored directory is not in it

    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"hcljson": {"indexing": {"ignorePaths": []}}}))
    for _ in range(200):
        if await names("vendored_output"):
            break
        await asyncio.sleep(0.05)
    assert await names("vendored_output") == ["output.vendored_output"]
