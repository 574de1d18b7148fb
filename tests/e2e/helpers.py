"""Helpers for the end-to-end LSP tests: client capabilities, starting a server on a workspace folder with
its own environment (the tests that run tools), waiting, reference positions, edits.

(Fixture markers are read by tests/fixture.py.)"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from hcljson_ls.workspace.files import uri_of_path

from .conftest import make_client

PULL = types.DiagnosticClientCapabilities(dynamic_registration=False, related_document_support=False)


def capabilities(
    *, encodings: Sequence[str] | None = None, pull: bool = False, configuration: bool = False
) -> types.ClientCapabilities:
    """A minimal client: push-only unless `pull`, with the given `general.positionEncodings`."""
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=list(encodings)) if encodings is not None else None,
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True, code_description_support=True
            ),
            diagnostic=PULL if pull else None,
        ),
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        ),
    )


def tool_capabilities(*, pull: bool) -> types.ClientCapabilities:
    """A client of the tests that run tools (`terraform providers schema`, `validate`): it saves, watches
    files (dynamic registration), shows work-done progress; pushed diagnostics unless `pull`."""
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
            diagnostic=PULL if pull else None,
        ),
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        ),
        window=types.WindowClientCapabilities(work_done_progress=True),
    )


async def start_in_folder(env: dict, root, *, pull: bool = False, options: dict | None = None) -> LanguageClient:
    """A server started with environment `env` (e.g. a stand-in tool first on PATH), initialized with
    `tool_capabilities` and the one workspace folder `root`."""
    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "hcljson_ls", "--stdio"], client_factory=make_client, server_env=env
    )
    client = await config.start()
    folder = types.WorkspaceFolder(uri=uri_of_path(str(root)), name="work")
    await client.initialize_session(
        types.InitializeParams(capabilities=tool_capabilities(pull=pull), workspace_folders=[folder], initialization_options=options)
    )
    return client


async def initialize(
    client: LanguageClient,
    *,
    encodings: Sequence[str] | None = None,
    pull: bool = False,
    options: Any = None,
    configuration: bool = False,
) -> types.InitializeResult:
    caps = capabilities(encodings=encodings, pull=pull, configuration=configuration)
    return await client.initialize_session(types.InitializeParams(capabilities=caps, initialization_options=options))


async def wait_for(predicate: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    """Poll `predicate` until it returns something truthy (and return that) or fail after `timeout`.

    30 s: the server answers `initialize` before importing its features (`lsp.early`), so the first
    diagnostics a test waits for include that import (~1 s quiet, 5-7 s on a loaded 2-core machine)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def published_for(client: LanguageClient, uri: str) -> list[types.PublishDiagnosticsParams]:
    return [p for p in client.published if p.uri == uri]  # type: ignore[attr-defined]


def lsp_position(text: str, offset: int, encoding: str = "utf-16") -> types.Position:
    """Reference conversion with plain string arithmetic (text uses `\\n` line ends)."""
    before = text[:offset]
    line = before.count("\n")
    column_text = before[before.rfind("\n") + 1 :]
    if encoding == "utf-16":
        character = len(column_text.encode("utf-16-le")) // 2
    elif encoding == "utf-8":
        character = len(column_text.encode("utf-8"))
    else:
        character = len(column_text)
    return types.Position(line=line, character=character)


def lsp_range(text: str, start: int, end: int, encoding: str = "utf-16") -> types.Range:
    return types.Range(start=lsp_position(text, start, encoding), end=lsp_position(text, end, encoding))


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1, language_id: str = "terraform-json") -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)
        )
    )


def change_document(client: LanguageClient, uri: str, version: int, *changes: types.TextDocumentContentChangeEvent) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=list(changes)
        )
    )


def edit(start: types.Position, end: types.Position, text: str) -> types.TextDocumentContentChangeEvent:
    return types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text=text)


UNUSED = "reference/unused"


def without_unused(diagnostics):
    """The diagnostics other than the `reference/unused` hints (on by default), for tests about something else."""
    return [d for d in diagnostics if d.code != UNUSED]
