"""pytest-lsp fixtures: the real `hcljson-ls` server over stdio, driven by a scripted LSP client.

`client` is started but not initialized: each test calls `await initialize(client, ...)` with the
capabilities it needs (push-only or pull-capable, position encodings, settings). Every
`textDocument/publishDiagnostics` is recorded in order in `client.published` (pytest-lsp itself keeps
only the latest per URI, without the version), every `client/registerCapability` registration in
`client.registrations`, and `workspace/diagnostic/refresh` requests are counted in `client.refreshes`.
"""

from __future__ import annotations

import sys

import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features


def _record_publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    params.diagnostics = list(params.diagnostics)  # the converter makes tuples
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)  # type: ignore[attr-defined]


def _record_registration(client: LanguageClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)  # type: ignore[attr-defined]


def _record_refresh(client: LanguageClient, params: None) -> None:
    client.refreshes += 1  # type: ignore[attr-defined]


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.refreshes = 0  # type: ignore[attr-defined]
    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record_publish,
            types.CLIENT_REGISTER_CAPABILITY: _record_registration,
            types.WORKSPACE_DIAGNOSTIC_REFRESH: _record_refresh,
        },
    )
    return client


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "hcljson_ls", "--stdio"], client_factory=make_client)
)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()
