"""End to end over stdio: the automatic provider-schema route. A module with a `.terraform` directory
gets its provider schemas from a stand-in `terraform` first on the server's PATH (`providers schema
-json` printing the random provider's schema), in the background with work-done progress; the
schema diagnostics then reach the client (pushed, or pulled after a refresh). A second server with
the same cache directory (`XDG_CACHE_HOME`) gets them without running the tool; a changed lock file
runs it again; `runTerraform: false` runs nothing and forgets what was fetched."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
import shared_data
from lsprotocol import types
from pytest_lsp import LanguageClient
from stand_in_terraform import StandIn

from hcljson_ls.workspace.files import uri_of_path

from .helpers import open_document, published_for, start_in_folder, wait_for

SCHEMA = shared_data.RANDOM_SCHEMA
shared_data.require(SCHEMA)

MAIN = '{"resource": {"random_string": {"id": {"lenght": 8}}}}\n'
LOCK = 'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.5.1"\n}\n'
TYPO = "schema/unknown-argument"


@pytest.fixture
def setup(tmp_path: Path):
    """A module that was `init`ed, a stand-in `terraform`, and the server's environment."""
    stack = tmp_path / "work" / "stack"
    (stack / ".terraform").mkdir(parents=True)
    (stack / ".terraform.lock.hcl").write_text(LOCK, encoding="utf-8")
    (stack / "main.tf.json").write_text(MAIN, encoding="utf-8")
    tool = StandIn(tmp_path / "bin")
    tool.install("terraform", prints=SCHEMA)
    env = {**os.environ, "PATH": tool.path_first(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    return stack, tool, env


def _pushed_codes(client: LanguageClient, uri: str) -> list[list[str]]:
    return [[d.code for d in p.diagnostics] for p in published_for(client, uri)]


def _schema_progress(client: LanguageClient) -> list[list]:
    return [rs for rs in client.progress_reports.values() if rs and getattr(rs[0], "title", "") == "Loading provider schemas"]


async def test_schemas_are_fetched_in_the_background_cached_and_fetched_again_for_a_new_lock_file(setup):
    stack, tool, env = setup
    uri = uri_of_path(str(stack / "main.tf.json"))

    client = await start_in_folder(env, stack.parent)
    try:
        # The lock file is watched along with the configuration files.
        [registration] = await wait_for(lambda: client.registrations, what="registerCapability")
        assert [w["globPattern"] for w in registration.register_options["watchers"]] == [
            "**/*.{tf.json,tofu.json,tf,tofu}", "**/.terraform.lock.hcl", "**/.terraform/modules/modules.json"
        ]
        open_document(client, uri, MAIN)
        # First without schemas, then pushed again once the stand-in has printed them.
        await wait_for(lambda: any(TYPO in codes for codes in _pushed_codes(client, uri)), what="schema diagnostics")
        assert TYPO not in _pushed_codes(client, uri)[0]
        [typo] = [d for d in client.published[-1].diagnostics if d.code == TYPO]
        assert typo.message.endswith('Did you mean "length"?')
        assert tool.runs() == [f"{stack} providers schema -json TF_IN_AUTOMATION=1"]
        [[begin, *_, end]] = await wait_for(lambda: [r for r in _schema_progress(client) if r[-1].kind == "end"], what="progress end")
        assert begin.kind == "begin" and begin.message == str(stack) and end.kind == "end"

        # Another document of the module does not fetch again.
        other = uri_of_path(str(stack / "other.tf.json"))
        open_document(client, other, '{"resource": {"random_pet": {"p": {"lenght": 2}}}}')
        await wait_for(lambda: any(TYPO in codes for codes in _pushed_codes(client, other)), what="the other's diagnostics")
        assert len(tool.runs()) == 1

        # A new lock file (another provider version): the tool runs again.
        before = len(client.published)
        (stack / ".terraform.lock.hcl").write_text(LOCK.replace("3.5.1", "3.6.0"), encoding="utf-8")
        lock_uri = uri_of_path(str(stack / ".terraform.lock.hcl"))
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=lock_uri, type=types.FileChangeType.Changed)])
        )
        await wait_for(lambda: len(tool.runs()) == 2, what="a second run")
        await wait_for(lambda: len([r for r in _schema_progress(client) if r[-1].kind == "end"]) == 2, what="the second run's end")
        await asyncio.sleep(0.5)  # the module's documents re-diagnosed: the same schemas, the same diagnostics
        assert [p for p in client.published[before:] if p.uri == uri] == []  # pushed only when they change
        assert TYPO in [d.code for d in published_for(client, uri)[-1].diagnostics]
    finally:
        await client.shutdown_session()

    # A second server with the same cache, a pulling client: the cached schemas, no run.
    client = await start_in_folder(env, stack.parent, pull=True)
    try:
        open_document(client, uri, MAIN)
        first = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        await wait_for(lambda: client.refreshes, what="workspace/diagnostic/refresh")
        again = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=first.result_id)
        )
        assert again.kind == "full" and again.result_id != first.result_id
        assert TYPO in [d.code for d in again.items]
        assert len(tool.runs()) == 2
        assert client.published == []  # a pulling client is not pushed to
    finally:
        await client.shutdown_session()


async def test_run_terraform_false_runs_nothing_and_turning_it_off_forgets_the_fetched_schemas(setup):
    stack, tool, env = setup
    uri = uri_of_path(str(stack / "main.tf.json"))
    client = await start_in_folder(env, stack.parent, options={"providerSchemas": {"runTerraform": False}})
    try:
        open_document(client, uri, MAIN)
        await wait_for(lambda: published_for(client, uri), what="diagnostics")
        await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=2))
        )
        assert tool.runs() == [] and _schema_progress(client) == []
        assert TYPO not in _pushed_codes(client, uri)[-1]

        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"providerSchemas": {"runTerraform": True}}))
        await wait_for(lambda: TYPO in _pushed_codes(client, uri)[-1], what="schema diagnostics")
        assert len(tool.runs()) == 1

        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"providerSchemas": {"runTerraform": False}}))
        await wait_for(lambda: TYPO not in _pushed_codes(client, uri)[-1], what="schema diagnostics gone")
    finally:
        await client.shutdown_session()


async def test_a_failing_tool_is_shown_to_the_user_once(setup):
    stack, tool, env = setup
    tool.install("terraform", body="echo 'Error: Inconsistent dependency lock file' >&2; exit 1")
    client = await start_in_folder(env, stack.parent)
    try:
        open_document(client, uri_of_path(str(stack / "main.tf.json")), MAIN)
        messages = await wait_for(lambda: [m for m in client.messages if "providers schema" in m.message], what="showMessage")
        expected = f"\"terraform providers schema -json\" failed in {stack} (exit status 1): Error: Inconsistent dependency lock file."
        assert [(m.type, m.message) for m in messages] == [(types.MessageType.Warning, expected)]
        # The same failure again (the lock file changed, the tool still fails) is not shown twice.
        (stack / ".terraform.lock.hcl").write_text(LOCK + "\n", encoding="utf-8")
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=uri_of_path(str(stack / ".terraform.lock.hcl")), type=types.FileChangeType.Changed)
        ]))
        await wait_for(lambda: [r for r in _schema_progress(client) if r[-1].kind == "end"][1:], what="the second run's end")
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri_of_path(str(stack / "main.tf.json"))),
            position=types.Position(line=0, character=2),
        ))
        assert len([m for m in client.messages if "providers schema" in m.message]) == 1
    finally:
        await client.shutdown_session()
