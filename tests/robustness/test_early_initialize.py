"""The real server answers `initialize` once, early (`lsp.early`), and handles what followed it in
the same write as any other message."""

from __future__ import annotations

import json

from .conftest import OPTIONS, still_right
from .wire import Wire, encode, frame

URI = "file:///nonexistent-hcljson-test/early/main.tf.json"
BROKEN = '{\n  "output": {"o": {"value": "${var.nope}"}}\n}\n'


def _initialize(msg_id: int) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
            "params": {"processId": None, "rootUri": None, "initializationOptions": OPTIONS,
                       "capabilities": {"general": {"positionEncodings": ["utf-8"]},
                                        "textDocument": {"rename": {"prepareSupport": True},
                                                         "publishDiagnostics": {"versionSupport": True}}}}}


def test_initialize_and_what_follows_it_at_once_are_answered_once(wire: Wire):
    opened = {"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": URI, "languageId": "terraform-json", "version": 1, "text": BROKEN}}}
    hover = {"jsonrpc": "2.0", "id": 102, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": URI}, "position": {"line": 1, "character": 33}}}
    wire.send_raw(b"".join(frame(encode(m)) for m in (_initialize(101), {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                                                 opened, hover)))
    result = wire.response(101, timeout=60)["result"]
    assert result["capabilities"]["positionEncoding"] == "utf-8"
    assert result["capabilities"]["renameProvider"] == {"prepareProvider": True}
    assert result["serverInfo"]["name"] == "hcljson-ls"
    [problem] = wire.diagnostics(URI, version=1, timeout=60)
    assert problem["code"] == "reference/undeclared", problem
    assert "result" in wire.response(102, timeout=60)
    still_right(wire)
    assert [m for m in wire.received if m.get("id") == 101 and "method" not in m] == [wire.response(101)]
    assert " ERROR " not in wire.log() and "Traceback" not in wire.log(), wire.log()


def test_initialize_split_across_writes_is_answered_early_once(wire: Wire):
    body = json.dumps(_initialize(107)).encode()
    message = frame(body)
    wire.send_raw(message[:10])
    wire.send_raw(message[10:40])
    wire.send_raw(message[40:])
    assert wire.response(107, timeout=60)["result"]["capabilities"]["positionEncoding"] == "utf-8"
    wire.notify("initialized", {})
    still_right(wire)
    assert len([m for m in wire.received if m.get("id") == 107]) == 1
    assert " ERROR " not in wire.log(), wire.log()


def test_a_second_initialize_in_the_first_write_is_refused(wire: Wire):
    wire.send_raw(frame(encode(_initialize(101))) + frame(encode(_initialize(102))))
    assert "result" in wire.response(101, timeout=60)
    assert wire.response(102, timeout=60)["error"]["code"] == -32600
    wire.notify("initialized", {})
    still_right(wire)


def test_the_end_of_input_before_any_message_ends_the_server(wire: Wire):
    assert wire.process.stdin is not None
    wire.process.stdin.close()
    assert wire.process.wait(timeout=60) == 0


def test_a_server_started_without_the_early_reader_answers_too():
    """`hcljson_ls.cli`'s own `--stdio` (what an older console script runs): nothing was read early, so
    the transport's reader starts with nothing handed over. It used to die at once on that (an
    `UnboundLocalError` in the `lsp-stdin` thread), and the client got no answer at all."""
    import sys

    command = [sys.executable, "-c", "import sys; from hcljson_ls.cli import main; sys.exit(main(['--stdio']))"]
    with Wire.start(command=command) as wire:
        assert wire.request("initialize", _initialize(1)["params"], timeout=60)["result"]["serverInfo"]["name"] == "hcljson-ls"
        wire.notify("initialized", {})
        wire.open(URI, BROKEN)
        [problem] = wire.diagnostics(URI, version=1, timeout=60)
        assert problem["code"] == "reference/undeclared", problem
        assert "Traceback" not in wire.log(), wire.log()
