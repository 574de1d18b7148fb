"""End to end over stdio: the `hcljson.validate` command (`lsp.validation`, `workspace.tool_validate`).

One case runs the real `terraform validate -json` (Terraform 1.11.4 here and in CI; under `CI=true`
a missing terraform fails, elsewhere it skips) and checks that its finding lands on the exact JSON
range after a non-ASCII character (bytes versus characters). The others use the stand-in
(`tests/stand_in_terraform.py`, first on PATH) for what must be deterministic: pulled and pushed
diagnostics kept until an edit, range-less findings shown as a message, progress, cancellation
through the progress, the timeout, garbage output, the trust setting and validate on save.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path

import pytest
from fixture import parse_fixture
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import LanguageClient
from stand_in_terraform import StandIn

from hcljson_ls.workspace.files import uri_of_path

from .helpers import change_document, edit, lsp_position, lsp_range, open_document, published_for, start_in_folder, wait_for

CI = os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")

#: "é" is two bytes in UTF-8: Terraform's byte offsets and our characters differ after it.
_MAIN = parse_fixture('{\n  "resource": {\n    "terraform_data": {\n      "x": {\n        "input": "é",\n        $[bogus]"bogus": 1\n      }\n    }\n  }\n}\n').only
MAIN, BOGUS = _MAIN.text, _MAIN.marks["bogus"]


async def _validate(client: LanguageClient, uri: str):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command="hcljson.validate", arguments=[uri]))


def _tool_diagnostics(diagnostics) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.source == "terraform validate"]


@pytest.fixture
def module(tmp_path: Path):
    stack = tmp_path / "work" / "stack"
    stack.mkdir(parents=True)
    (stack / "main.tf.json").write_text(MAIN, encoding="utf-8")
    return stack


@pytest.fixture
def stand_in(tmp_path: Path):
    tool = StandIn(tmp_path / "bin")
    env = {**os.environ, "PATH": tool.path_first(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    return tool, env


# -- the real terraform -------------------------------------------------------------------------


async def test_real_terraform_validate_maps_an_unknown_argument_to_its_exact_json_range(module: Path, tmp_path: Path):
    terraform = shutil.which("terraform")
    if terraform is None:
        if CI:
            pytest.fail("terraform is not on PATH (CI=true: the real-tool validation case must run)")
        pytest.skip("needs terraform on PATH")
    # Only the real tool's directory and the system's: no stand-in anywhere.
    env = {**os.environ, "PATH": os.pathsep.join([os.path.dirname(terraform), "/usr/bin", "/bin"]),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent)
    try:
        open_document(client, uri, MAIN)
        await wait_for(lambda: published_for(client, uri), what="our diagnostics")
        result = await _validate(client, uri)
        assert result == {"valid": False, "errorCount": 1, "warningCount": 0}
        [found] = _tool_diagnostics(
            (await wait_for(lambda: _tool_diagnostics(published_for(client, uri)[-1].diagnostics) and published_for(client, uri)[-1],
                            what="validate diagnostics")).diagnostics
        )
        assert found.range == lsp_range(MAIN, BOGUS, BOGUS + len('"bogus"'))
        assert found.severity == types.DiagnosticSeverity.Error
        assert found.message == 'Extraneous JSON object property: No argument or block type is named "bogus".'
        # An edit of the file makes them stale: dropped.
        change_document(client, uri, 2, edit(lsp_position(MAIN, 0), lsp_position(MAIN, 0), " "))
        await wait_for(lambda: published_for(client, uri)[-1].version == 2, what="diagnostics of the edit")
        assert _tool_diagnostics(published_for(client, uri)[-1].diagnostics) == []
    finally:
        await client.shutdown_session()


# -- the stand-in -------------------------------------------------------------------------------

WARNING_OUTPUT = {
    "format_version": "1.0", "valid": True, "error_count": 1, "warning_count": 1,
    "diagnostics": [
        {"severity": "warning", "summary": "Deprecated thing", "detail": "Use another.",
         "range": {"filename": "main.tf.json",
                   "start": {"line": 6, "column": 9, "byte": len(MAIN[:BOGUS].encode())},
                   "end": {"line": 6, "column": 16, "byte": len(MAIN[:BOGUS].encode()) + 7}}},
        {"severity": "error", "summary": "Missing required provider", "detail": "Run terraform init."},
    ],
}


async def test_findings_are_pulled_with_progress_and_a_rangeless_one_is_shown_as_a_message(module, stand_in, tmp_path):
    tool, env = stand_in
    output = tmp_path / "validate.json"
    output.write_text(json.dumps(WARNING_OUTPUT), encoding="utf-8")
    tool.install("terraform", prints=output)
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent, pull=True)
    try:
        open_document(client, uri, MAIN)
        first = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        assert _tool_diagnostics(first.items) == []
        refreshes = client.refreshes
        assert await _validate(client, uri) == {"valid": False, "errorCount": 1, "warningCount": 1}
        assert tool.runs() == [f"{module} validate -json TF_IN_AUTOMATION=1"]  # no init: not allowed by default
        await wait_for(lambda: client.refreshes > refreshes, what="workspace/diagnostic/refresh")
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=first.result_id))
        [warning] = _tool_diagnostics(report.items)
        assert warning.severity == types.DiagnosticSeverity.Warning
        assert warning.range == lsp_range(MAIN, BOGUS, BOGUS + 7)
        assert warning.message == "Deprecated thing: Use another."
        [message] = [m for m in client.messages if "Missing required provider" in m.message]
        assert message.type == types.MessageType.Error
        [reports] = [r for r in client.progress_reports.values() if _is_validating(r)]
        assert reports[0].kind == "begin" and reports[0].cancellable and reports[-1].kind == "end"
    finally:
        await client.shutdown_session()


async def test_the_timeout_kills_the_tool_and_says_so(module, stand_in, tmp_path):
    tool, env = stand_in
    pid_file = tmp_path / "pid"
    tool.install("terraform", body=f"echo $$ > {pid_file}; exec sleep 30")
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent, options={"validate": {"timeoutSeconds": 1}})
    try:
        open_document(client, uri, MAIN)
        result = await _validate(client, uri)
        assert "took longer than 1 seconds" in result["problem"]
        assert any("took longer than 1 seconds" in m.message for m in client.messages)
        assert not _alive(int(pid_file.read_text()))
    finally:
        await client.shutdown_session()


async def test_cancelling_the_progress_kills_the_tool(module, stand_in, tmp_path):
    tool, env = stand_in
    pid_file = tmp_path / "pid"
    tool.install("terraform", body=f"echo $$ > {pid_file}; exec sleep 30")
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent)
    try:
        open_document(client, uri, MAIN)
        running = asyncio.ensure_future(_validate(client, uri))
        [token] = await wait_for(lambda: pid_file.exists() and [t for t, r in client.progress_reports.items() if _is_validating(r)],
                                 what="the run")
        client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
        assert await running == {"cancelled": True}
        assert not _alive(int(pid_file.read_text()))
        assert _tool_diagnostics(published_for(client, uri)[-1].diagnostics) == []
    finally:
        await client.shutdown_session()


async def test_cancel_request_kills_the_tool(module, stand_in, tmp_path):
    tool, env = stand_in
    pid_file = tmp_path / "pid"
    tool.install("terraform", body=f"echo $$ > {pid_file}; exec sleep 30")
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent)
    try:
        open_document(client, uri, MAIN)
        params = types.ExecuteCommandParams(command="hcljson.validate", arguments=[uri])
        reply = asyncio.wrap_future(client.protocol.send_request(types.WORKSPACE_EXECUTE_COMMAND, params, msg_id="validate-1"))
        await wait_for(pid_file.exists, what="the run")
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="validate-1"))
        with pytest.raises(JsonRpcRequestCancelled):
            await reply
        pid = int(pid_file.read_text())
        await wait_for(lambda: not _alive(pid), what="the tool killed")
        # The server goes on: another run (of a tool that answers at once) works.
        tool.install("terraform", body='echo \'{"valid": true, "diagnostics": []}\'')
        assert await _validate(client, uri) == {"valid": True, "errorCount": 0, "warningCount": 0}
    finally:
        await client.shutdown_session()


async def test_garbage_output_is_a_message_not_a_diagnostic(module, stand_in):
    tool, env = stand_in
    tool.install("terraform", body="echo 'panic: oh no' >&2; echo '{not json'; exit 1")
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent)
    try:
        open_document(client, uri, MAIN)
        result = await _validate(client, uri)
        assert result["problem"] == f"`terraform validate -json` in {module} printed no validation result (exit status 1): panic: oh no."
        assert any(m.type == types.MessageType.Warning and "printed no validation result" in m.message for m in client.messages)
    finally:
        await client.shutdown_session()


async def test_an_untrusted_workspace_runs_nothing(module, stand_in, tmp_path):
    tool, env = stand_in
    tool.install("terraform", prints=tmp_path / "none")
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent, options={"providerSchemas": {"runTerraform": False}, "validateOnSave": True})
    try:
        open_document(client, uri, MAIN)
        with pytest.raises(Exception, match="turned off"):
            await _validate(client, uri)
        client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        await wait_for(lambda: published_for(client, uri), what="diagnostics")
        assert tool.runs() == []
    finally:
        await client.shutdown_session()


async def test_validate_on_save_runs_the_tool_and_pushes_its_findings(module, stand_in, tmp_path):
    tool, env = stand_in
    output = tmp_path / "validate.json"
    output.write_text(json.dumps(WARNING_OUTPUT), encoding="utf-8")
    tool.install("terraform", prints=output)
    uri = uri_of_path(str(module / "main.tf.json"))
    client = await start_in_folder(env, module.parent, options={"validateOnSave": True})
    try:
        open_document(client, uri, MAIN)
        client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        await wait_for(lambda: published_for(client, uri) and _tool_diagnostics(published_for(client, uri)[-1].diagnostics),
                       what="pushed findings")
        assert len(tool.runs()) == 1
    finally:
        await client.shutdown_session()


def _is_validating(reports: list) -> bool:
    return bool(reports) and getattr(reports[0], "title", "") == "Validating with terraform"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (killed, not yet reaped by the server) is not running either.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False
