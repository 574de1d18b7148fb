"""Malformed JSON-RPC over the real server's stdio: a bad header, a body that is not JSON, a message
that is not a request, unknown methods, params of the wrong type, odd positions and versions. Each
is answered with the proper JSON-RPC error (or ignored, for a notification), never a crash or a
hang, and the server is still right afterwards (`still_right`)."""

from __future__ import annotations

import pytest

from .conftest import OPTIONS, VALID, VALID_HOVER, still_right
from .wire import INVALID_PARAMS, METHOD_NOT_FOUND, Wire, frame

URI = "file:///nonexistent-hcljson-test/stack/main.tf.json"


def test_a_body_that_is_not_json_is_answered_parse_error_and_skipped(wire: Wire):
    # JSON-RPC: a parse error is answered with id null (the request's id cannot be read).
    wire.initialize(options=OPTIONS)
    wire.send_raw(frame(b'{"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": {'))
    wire.send_raw(frame(b"\xff\xfe not utf-8"))
    still_right(wire)
    assert wire.log().count("a message that is not JSON") == 2
    assert not [m for m in wire.received if m.get("id") == 99]
    errors = [m["error"] for m in wire.received if "error" in m and m.get("id") is None]
    assert [e["code"] for e in errors] == [-32700, -32700], errors
    assert all(e["message"].startswith("Parse error: ") for e in errors)


@pytest.mark.parametrize("header", [
    # No Content-Length: the body cannot be found, its line is skipped (pygls reads headers line by
    # line, so garbage without a line end would swallow the next frame's header).
    b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}\r\n",
    b"Content-Length: banana\r\n\r\n",
    b"Nonsense without a colon\r\n\r\n",
], ids=["no-length", "length-not-a-number", "garbage-line"])
def test_a_bad_header_is_skipped(wire: Wire, header: bytes):
    wire.initialize(options=OPTIONS)
    wire.send_raw(header)
    still_right(wire)


@pytest.mark.parametrize("body", [b"[]", b"42", b'"text"', b'{"jsonrpc": "2.0"}', b'{"jsonrpc": "2.0", "id": 5}'],
                         ids=["array", "number", "string", "empty-message", "id-only"])
def test_a_json_body_that_is_no_message_is_survived(wire: Wire, body: bytes):
    wire.initialize(options=OPTIONS)
    wire.send_raw(frame(body))
    still_right(wire)


def test_an_unknown_request_is_method_not_found_and_an_unknown_notification_is_ignored(wire: Wire):
    wire.initialize(options=OPTIONS)
    wire.notify("custom/somethingNobodyKnows", {"x": 1})
    wire.notify("$/somethingOptional", {"x": 1})
    answer = wire.request("custom/unknownRequest", {"x": 1}, timeout=20)
    assert answer["error"]["code"] == METHOD_NOT_FOUND, answer
    assert "custom/unknownRequest" in answer["error"]["message"]
    answer = wire.request("$/unknownRequest", None, timeout=20)
    assert answer["error"]["code"] == METHOD_NOT_FOUND, answer
    still_right(wire)


@pytest.mark.parametrize("method, params", [
    ("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": "zero", "character": 0}}),
    ("textDocument/hover", {"textDocument": 5, "position": None}),
    ("textDocument/hover", [1, 2, 3]),
    ("textDocument/documentSymbol", "not an object"),
    ("textDocument/completion", {"textDocument": {"uri": URI}, "position": {"line": -1, "character": -5}}),
], ids=["position-string", "document-number", "params-array", "params-string", "negative-position"])
def test_params_of_the_wrong_type_are_invalid_params(wire: Wire, method: str, params: object):
    wire.initialize(options=OPTIONS)
    wire.open(URI, VALID)
    answer = wire.request(method, params, timeout=20)
    assert answer["error"]["code"] == INVALID_PARAMS, answer
    still_right(wire)


@pytest.mark.parametrize("params", [
    {"textDocument": {"uri": URI, "version": 2}, "contentChanges": "oops"},
    {"textDocument": {"uri": URI}, "contentChanges": [{"text": 5}]},
    {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": {"start": {"line": 1}}, "text": "x"}]},
    None,
], ids=["changes-string", "text-number", "half-a-range", "no-params"])
def test_a_notification_with_wrong_params_is_ignored(wire: Wire, params: object):
    wire.initialize(options=OPTIONS)
    wire.open(URI, VALID)
    assert wire.diagnostics(URI, version=1) == []
    wire.notify("textDocument/didChange", params)
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": 1}})
    still_right(wire)
    # The document is as it was: the hover on its reference still works.
    answer = wire.hover(URI, *VALID_HOVER)
    assert 'variable "region"' in answer["result"]["contents"]["value"]


def test_edits_past_the_end_and_unknown_versions_and_documents(wire: Wire):
    wire.initialize(options=OPTIONS)
    wire.open(URI, VALID)
    far = {"line": 10_000, "character": 10_000}
    wire.change(URI, 2, [{"range": {"start": far, "end": far}, "text": "\n"}])  # appended at the end
    wire.change(URI, 1, [{"range": {"start": {"line": 0, "character": 0}, "end": far}, "text": VALID}])  # an older version
    wire.change("file:///nonexistent-hcljson-test/never-opened.tf.json", 3, [{"text": "{"}])
    wire.notify("textDocument/didClose", {"textDocument": {"uri": "file:///nonexistent-hcljson-test/never-opened.tf.json"}})
    answer = wire.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///nonexistent-hcljson-test/x.tf.json"}})
    assert answer.get("result") is None and "error" not in answer, answer
    answer = wire.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": far})
    assert "error" not in answer, answer
    still_right(wire)
