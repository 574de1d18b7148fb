"""The protocol edge over the real server's stdio (and TCP): framing that a bad header cannot put out
of step, the lifecycle LSP prescribes (before `initialize`, after `shutdown`, `exit`'s status), a
JSON-RPC error for every message that is no valid request, no traceback in any answer, quiet logs
for routine events, and answers that do not grow with what the client echoes back."""

from __future__ import annotations

import json
import os
import pty
import select
import socket
import subprocess
import time

import pytest
from fixture import parse_fixture

from .conftest import OPTIONS, VALID, VALID_HOVER, still_right
from .wire import INVALID_PARAMS, INVALID_REQUEST, SERVER, Wire, frame

URI = "file:///nonexistent-hcljson-test/stack/main.tf.json"
SERVER_NOT_INITIALIZED = -32002

HOVER = {"textDocument": {"uri": URI}, "position": {"line": VALID_HOVER[0], "character": VALID_HOVER[1]}}


def _request(id_: int, method: str = "textDocument/hover", params: object = HOVER) -> bytes:
    return frame(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}).encode())


def _errors(wire: Wire, id_: object) -> list[dict]:
    return [m["error"] for m in wire.received if "error" in m and m.get("id") == id_ and "method" not in m]


# -- framing --------------------------------------------------------------------------------------

_BODY = b'{"jsonrpc": "2.0", "id": 500, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///x.tf.json"}, "position": {"line": 0, "character": 0}}}'

BAD_FRAMES = {
    "not-a-number": b"Content-Length: twelve\r\n\r\n" + _BODY,
    "negative": b"Content-Length: -5\r\n\r\n" + _BODY,
    "missing": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + _BODY,
    "too-short": b"Content-Length: %d\r\n\r\n" % (len(_BODY) - 20) + _BODY,
    "too-long": b"Content-Length: %d\r\n\r\n" % (len(_BODY) + 40) + _BODY,
    "over-a-gigabyte": b"Content-Length: 5000000000\r\n\r\n" + _BODY,
    "garbage-without-line-end": b"garbage that never ends its line" + _BODY,
    "two-lengths": b"Content-Length: 3\r\nContent-Length: %d\r\n\r\n" % len(_BODY) + _BODY,
}


@pytest.mark.parametrize("together", [True, False], ids=["one-write", "two-writes"])
def test_a_bad_header_costs_only_its_own_message(wire: Wire, together: bool):
    # Each bad frame, then a valid request: the request is answered (pygls's reader stayed out of step).
    wire.initialize(options=OPTIONS)
    wire.open(URI, VALID)
    for n, bad in enumerate(sorted(BAD_FRAMES), start=100):
        nxt = _request(n)
        if together:
            wire.send_raw(BAD_FRAMES[bad] + nxt)
        else:
            wire.send_raw(BAD_FRAMES[bad])
            time.sleep(0.1)
            wire.send_raw(nxt)
        answer = wire.response(n, timeout=30)
        assert 'variable "region"' in answer["result"]["contents"]["value"], (bad, answer)
    assert wire.alive()
    assert wire.log().count("skipped an unreadable message header") >= len(BAD_FRAMES) - 1  # too-short: a parse error


def test_header_names_are_case_insensitive(wire: Wire):
    wire.initialize(options=OPTIONS)
    wire.open(URI, VALID)
    body = json.dumps({"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": HOVER}).encode()
    wire.send_raw(b"content-LENGTH:%d\r\ncontent-type: application/vscode-jsonrpc\r\n\r\n" % len(body) + body)
    assert "result" in wire.response(8, timeout=30)


# -- messages that are no valid request -------------------------------------------------------------

NOT_A_REQUEST = {
    "batch": (b'[{"jsonrpc": "2.0", "id": 901, "method": "shutdown"}]', None),
    "empty-batch": (b"[]", None),
    "no-jsonrpc": (b'{"id": 41, "method": "textDocument/hover", "params": {}}', 41),
    "jsonrpc-1.0": (b'{"jsonrpc": "1.0", "id": "x", "method": "shutdown"}', "x"),
    "method-not-a-string": (b'{"jsonrpc": "2.0", "id": 42, "method": 7}', 42),
    "id-only": (b'{"jsonrpc": "2.0", "id": 43}', 43),
    "id-an-object": (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}', None),
    "deeply-nested": (b'{"jsonrpc": "2.0", "id": 44, "method": "textDocument/hover", "params": '
                      + b"[" * 100_000 + b"]" * 100_000 + b"}", None),
    "deeply-nested-unfinished": (b'{"jsonrpc": "2.0", "id": 45, "method": "x", "params": ' + b"{\"a\": " * 50_000, None),
    "number": (b"42", None),
}


def test_a_message_that_is_no_request_is_answered_invalid_request(wire: Wire):
    # JSON-RPC 2.0: Invalid Request (-32600), with the id when it can be read, else null.
    wire.initialize(options=OPTIONS)
    for name, (body, id_) in NOT_A_REQUEST.items():
        after = len(wire.received)
        wire.send_raw(frame(body))
        message = wire.wait(lambda m: "error" in m and "method" not in m, 30, f"the error for {name}", after=after)
        assert message.get("id") == id_ and message["error"]["code"] == INVALID_REQUEST, (name, message)
    assert not [m for m in wire.received if "result" in m and m.get("id") in (901, 41, 42, 43, 44, 45, "x")]
    still_right(wire)


# -- lifecycle ----------------------------------------------------------------------------------------

def test_a_request_before_initialize_is_server_not_initialized_and_initialize_is_answered(wire: Wire):
    hover = wire.send_request("textDocument/hover", HOVER)
    wire.notify("initialized", {})
    wire.open(URI, VALID)
    symbols = wire.send_request("workspace/symbol", {"query": ""})
    assert wire.response(hover, timeout=30)["error"]["code"] == SERVER_NOT_INITIALIZED
    assert wire.response(symbols, timeout=30)["error"]["code"] == SERVER_NOT_INITIALIZED
    wire.initialize(options=OPTIONS)
    again = wire.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, timeout=30)
    assert again["error"]["code"] == INVALID_REQUEST
    still_right(wire)


def test_after_shutdown_a_request_is_invalid_request_and_exit_is_status_0(wire: Wire):
    wire.initialize(options=OPTIONS)
    assert wire.request("shutdown", None, timeout=30)["result"] is None
    answer = wire.request("textDocument/hover", HOVER, timeout=30)
    assert answer["error"]["code"] == INVALID_REQUEST, answer
    wire.notify("exit", None)
    assert wire.process.wait(timeout=30) == 0


def test_exit_without_shutdown_is_status_1(wire: Wire):
    wire.initialize(options=OPTIONS)
    wire.notify("exit", None)
    assert wire.process.wait(timeout=30) == 1
    assert "Traceback" not in wire.log()


def test_tcp_ends_quietly_after_shutdown_and_exit(env: dict[str, str], home):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([*SERVER[:-1], "--tcp", "--port", str(port)], env=env, cwd=str(home),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.05)
        with conn:
            conn.sendall(_request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
            conn.sendall(_request(2, "shutdown", None))
            received = b""
            while b'"id": 2' not in received and b'"id":2' not in received:
                chunk = conn.recv(65536)
                assert chunk, received
                received += chunk
            conn.sendall(frame(b'{"jsonrpc": "2.0", "method": "exit"}'))
            assert server.wait(timeout=30) == 0
        assert server.stderr is not None
        err = server.stderr.read().decode()
        assert "Traceback" not in err and "SystemExit" not in err, err
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


# -- quiet logs, plain errors -----------------------------------------------------------------------

def test_routine_protocol_events_log_no_warning(wire: Wire):
    wire.initialize(options=OPTIONS)
    wire.open(URI, VALID)
    done = wire.send_request("textDocument/hover", HOVER)
    wire.response(done, timeout=30)
    wire.notify("$/cancelRequest", {"id": done})  # a finished request: routine
    wire.notify("$/setTrace", {"value": "off"})
    wire.notify("$/progress", {"token": "x", "value": {"kind": "end"}})
    still_right(wire)
    assert " WARNING " not in wire.log() and " ERROR " not in wire.log(), wire.log()


def test_execute_command_without_arguments_is_invalid_params_without_traceback(wire: Wire):
    wire.initialize(options=OPTIONS)
    for params in ({"command": "hcljson.showAsNativeHcl"}, {"command": "hcljson.showAsNativeHcl", "arguments": []},
                   {"command": "hcljson.showAsNativeHcl", "arguments": [5]}):
        answer = wire.request("workspace/executeCommand", params, timeout=30)
        assert answer["error"]["code"] == INVALID_PARAMS, answer
        assert "data" not in answer["error"] or not answer["error"]["data"], answer
        assert "Traceback" not in json.dumps(answer) and ".py" not in json.dumps(answer)
    still_right(wire)
    assert "Traceback" not in wire.log(), wire.log()


def test_a_show_document_answered_with_null_still_answers_the_command(wire: Wire, home):
    params = {"processId": None, "rootUri": None, "initializationOptions": OPTIONS,
              "capabilities": {"window": {"showDocument": {"support": True}}}}
    assert "result" in wire.request("initialize", params, timeout=30)
    wire.notify("initialized", {})
    wire.open(URI, VALID)
    command = wire.send_request("workspace/executeCommand", {"command": "hcljson.showAsNativeHcl", "arguments": [URI]})
    show = wire.wait(lambda m: m.get("method") == "window/showDocument", 30, "window/showDocument")
    wire.send({"id": show["id"], "result": None})
    answer = wire.response(command, timeout=30)
    assert 'variable "region"' in answer["result"], answer
    still_right(wire)


# -- answers bounded by the server, not by the client -----------------------------------------------

def test_code_actions_come_from_our_diagnostics_not_from_what_the_client_echoes(wire: Wire):
    """A code action's quick fixes are worked out by the server (`features.quick_fixes`): a client's
    diagnostic, whatever its `data`, adds none, and naming one of ours echoes neither its `data` nor
    its related information (echoed in each of N actions, the answer grew with N²)."""
    wire.initialize(options=OPTIONS)
    text = '{"variable": {"region": {}}, "output": {"o": {"value": "${var.regio}"}}}'
    wire.open(URI, text)
    [ours] = wire.diagnostics(URI, version=1, timeout=60)
    assert "data" not in ours
    edit = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "newText": "{", "title": "Fix"}
    fixes = [dict(edit, title=f"Fix {i}") for i in range(2_000)]
    related = [{"location": {"uri": URI, "range": edit["range"]}, "message": "x" * 1000}] * 200
    theirs = {"range": edit["range"], "message": "m", "data": {"fixes": fixes}}
    echoed = dict(ours, data={"fixes": fixes}, relatedInformation=related)
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": len(text)}}
    params = {"textDocument": {"uri": URI}, "range": whole, "context": {"diagnostics": [theirs, echoed]}}
    wire.send(dict(id=9001, method="textDocument/codeAction", params=params))
    answer = wire.response(9001, timeout=60)
    [action] = [a for a in answer["result"] if a.get("kind") == "quickfix"]
    assert action["title"] == 'Change to "var.region"' and action["diagnostics"] == [ours]
    assert len(json.dumps(answer)) < 5_000
    for data in (None, "x", {"fixes": "x"}, {"fixes": {"a": 1}}, [1, 2]):
        params["context"]["diagnostics"] = [dict(theirs, data=data)]
        answer = wire.request("textDocument/codeAction", params, timeout=30)
        assert "error" not in answer and [a["diagnostics"] for a in answer["result"] if a.get("kind") == "quickfix"] == [[ours]]


def test_workspace_symbols_are_capped(wire: Wire):
    wire.initialize(options=OPTIONS)
    text = json.dumps({"variable": {f"v{i}": {} for i in range(5_200)}})
    wire.open(URI, text)
    wire.diagnostics(URI, version=1, timeout=60)
    answer = wire.request("workspace/symbol", {"query": ""}, timeout=60)
    assert len(answer["result"]) == 5_000
    answer = wire.request("workspace/symbol", {"query": "v5199"}, timeout=60)
    assert [s["name"] for s in answer["result"]][:1] == ["var.v5199"]


def test_each_signature_sends_its_active_parameter(wire: Wire):
    wire.initialize(options=OPTIONS)
    marked = parse_fixture('{"locals": {"a": "${format(\\"%s\\", $01)}"}}').only
    wire.open(URI, marked.text)
    position = {"line": 0, "character": marked.cursor}
    answer = wire.request("textDocument/signatureHelp", {"textDocument": {"uri": URI}, "position": position}, timeout=30)
    help = answer["result"]
    assert [s.get("activeParameter") for s in help["signatures"]] == [help["activeParameter"]] == [1], help


# -- a terminal -------------------------------------------------------------------------------------

def test_started_in_a_terminal_it_says_what_it_waits_for(env: dict[str, str], home):
    controller, terminal = pty.openpty()
    server = subprocess.Popen(SERVER[:-1], env=env, cwd=str(home), stdin=terminal,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(terminal)
    try:
        assert server.stderr is not None
        said = b""
        deadline = time.monotonic() + 30
        while b"--help" not in said and time.monotonic() < deadline:
            ready, _, _ = select.select([server.stderr], [], [], 1)
            if ready:
                said += os.read(server.stderr.fileno(), 4096)
        text = said.decode()
        assert "waiting for an LSP client on stdin" in text and "hcljson-ls --help" in text, text
        assert server.poll() is None  # still waiting, as a server does
    finally:
        server.kill()
        server.wait()
        os.close(controller)


def test_on_a_pipe_it_says_nothing(env: dict[str, str], home):
    result = subprocess.run(SERVER, env=env, cwd=str(home), stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert result.returncode == 0 and result.stderr == b"" and result.stdout == b"", result



def test_rename_refusals_reach_the_client_with_their_reason(wire: Wire):
    wire.initialize(options=OPTIONS)
    marked = parse_fixture('{"variable": {"region": {}, "zone": {}}, "locals": {"a": "${var.r$[region]egion}", "b": "${var.n$[nowhere]owhere}"}}').only
    wire.open(URI, marked.text)
    at_region = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": marked.marks["region"]}}
    at_nowhere = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": marked.marks["nowhere"]}}
    assert wire.request("textDocument/prepareRename", at_region, timeout=30)["result"] is not None
    refused = wire.request("textDocument/prepareRename", at_nowhere, timeout=30)
    assert refused["error"]["code"] == -32803 and "declares" in refused["error"]["message"], refused
    for new_name, why in (("count", "reserved"), ("zone", "already declares"), ("²x", "not a valid name")):
        refused = wire.request("textDocument/rename", dict(at_region, newName=new_name), timeout=30)
        assert refused["error"]["code"] == -32803 and why in refused["error"]["message"], refused
    assert "changes" in wire.request("textDocument/rename", dict(at_region, newName="area"), timeout=30)["result"]
    assert " ERROR " not in wire.log() and "Traceback" not in wire.log(), wire.log()  # refusals are routine
