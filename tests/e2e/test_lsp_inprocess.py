"""The real server object, fed JSON-RPC messages in-process (no subprocess, no event loop).

Checks what a client cannot see: pygls's own text store never holds or rebuilds our documents, and a
handler that fails leaves the server working.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from pygls.workspace import Workspace

from hcljson_ls.lsp.server import HcljsonServer, create_server

URI = "file:///m/main.tf.json"


class Wire:
    """Collects what the server sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        body = data.split(b"\r\n\r\n", 1)[1]
        self.sent.append(json.loads(body))

    def close(self) -> None:
        pass

    def notifications(self, method: str) -> list[dict[str, Any]]:
        return [m["params"] for m in self.sent if m.get("method") == method]

    def response(self, msg_id: int) -> dict[str, Any]:
        [response] = [m for m in self.sent if m.get("id") == msg_id and "method" not in m]
        return response


_ids = iter(range(1, 1_000_000))


def send(server: HcljsonServer, method: str, params: Any, request: bool = False) -> int | None:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    msg_id = None
    if request:
        msg_id = message["id"] = next(_ids)
    structured = json.loads(json.dumps(message), object_hook=server.protocol.structure_message)
    server.protocol.handle_message(structured)
    if request:  # a request handled by a coroutine (long requests are: see lsp.server) runs on the loop
        loop = asyncio.get_event_loop_policy().get_event_loop()
        for _ in range(5):
            loop.run_until_complete(asyncio.sleep(0))
    return msg_id


@pytest.fixture
def server_and_wire():
    loop = asyncio.new_event_loop()  # the loop `send` runs coroutine handlers on
    asyncio.set_event_loop(loop)
    yield _server_and_wire()
    asyncio.set_event_loop(None)
    loop.close()


def _server_and_wire():
    server = create_server()
    wire = Wire()
    server.protocol.set_writer(wire)
    send(server, "initialize", {"capabilities": {}}, request=True)
    # No `initialized`: its handler is a coroutine, and without an event loop pygls could only
    # create it, never run it (a "never awaited" warning later); it would only fetch settings.
    return server, wire


def _open(server: HcljsonServer, text: str, uri: str = URI, version: int = 1) -> None:
    send(
        server,
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "terraform-json", "version": version, "text": text}},
    )


def _insert(server: HcljsonServer, line: int, character: int, text: str, version: int, uri: str = URI) -> None:
    position = {"line": line, "character": character}
    send(
        server,
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": position, "end": position}, "text": text}],
        },
    )


def test_pygls_workspace_never_stores_or_rebuilds_documents(server_and_wire, monkeypatch):
    server, wire = server_and_wire

    def forbidden(*args, **kwargs):
        raise AssertionError("pygls's text store was used")

    for name in ("put_text_document", "update_text_document", "remove_text_document"):
        monkeypatch.setattr(Workspace, name, forbidden)

    _open(server, '{\n  "//": 1\n}\n')
    _insert(server, 1, 9, ",", version=2)
    assert server.store.get(URI).text == '{\n  "//": 1,\n}\n'
    assert server.protocol.workspace.text_documents == {}
    published = wire.notifications("textDocument/publishDiagnostics")
    assert [p["version"] for p in published] == [1, 2]
    assert [d["code"] for d in published[-1]["diagnostics"]] == ["syntax/trailing-comma"]

    send(server, "textDocument/didClose", {"textDocument": {"uri": URI}})
    assert server.store.get(URI) is None
    assert wire.notifications("textDocument/publishDiagnostics")[-1] == {"uri": URI, "diagnostics": []}


def test_a_failing_handler_is_logged_and_the_server_goes_on(server_and_wire, monkeypatch, caplog):
    server, wire = server_and_wire
    _open(server, "{}")

    def explode(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(server.store, "change", explode)
    _insert(server, 0, 1, "x", version=2)  # a notification that fails
    assert "textDocument/didChange failed" in caplog.text

    monkeypatch.setattr(server, "diagnostic_report", explode)
    msg_id = send(server, "textDocument/diagnostic", {"textDocument": {"uri": URI}}, request=True)
    assert wire.response(msg_id)["result"] == {"kind": "full", "items": []}  # answered, empty

    monkeypatch.undo()
    _open(server, '{"//": [1,]}', uri="file:///m/other.tf.json")
    published = wire.notifications("textDocument/publishDiagnostics")
    assert published[-1]["uri"] == "file:///m/other.tf.json"
    assert [d["code"] for d in published[-1]["diagnostics"]] == ["syntax/trailing-comma"]


def test_a_failing_diagnostics_provider_does_not_hide_the_others(server_and_wire, monkeypatch):
    from hcljson_ls.features import diagnostics

    server, wire = server_and_wire

    def broken(state):
        raise RuntimeError("provider bug")

    monkeypatch.setattr(diagnostics, "PROVIDERS", [("broken", broken), *diagnostics.PROVIDERS])
    _open(server, '{"//": [1,]}')
    [published] = wire.notifications("textDocument/publishDiagnostics")
    assert [d["code"] for d in published["diagnostics"]] == ["syntax/trailing-comma"]


def test_incremental_edits_reparse_identically_to_a_full_parse(server_and_wire):
    from hcljson_ls.jsonsyntax import parse

    server, _ = server_and_wire
    text = '{\n  "resource": {\n    "x": { "y": [1, 2, 3] }\n  }\n}\n'
    _open(server, text)
    edits = [(2, 20, ", 4"), (2, 10, '"z": true, '), (0, 1, "\n"), (3, 5, "}")]
    for version, (line, character, inserted) in enumerate(edits, start=2):
        _insert(server, line, character, inserted, version)
        state = server.store.get(URI)
        full = parse(state.text)
        assert [(d.start, d.end, d.code) for d in state.syntax.diagnostics] == [
            (d.start, d.end, d.code) for d in full.diagnostics
        ]
        assert state.version == version


def _request(server: HcljsonServer, wire: Wire, method: str, params: dict[str, Any]) -> Any:
    response = wire.response(send(server, method, params, request=True))
    assert "error" not in response, response
    return response["result"]


def _ask_everything(server: HcljsonServer, wire: Wire) -> dict[str, Any]:
    doc = {"textDocument": {"uri": URI}}
    position = {"line": 1, "character": 4}  # on "resources"
    return {
        "symbols": _request(server, wire, "textDocument/documentSymbol", doc),
        "folding": _request(server, wire, "textDocument/foldingRange", doc),
        "selection": _request(server, wire, "textDocument/selectionRange", {**doc, "positions": [position]}),
        "hover": _request(server, wire, "textDocument/hover", {**doc, "position": position}),
    }


BROKEN_DOC = '{\n  "resources": {\n    "aws_instance": {"web": {"ami": [1,]}}\n  }\n}\n'


def test_one_failing_feature_does_not_stop_the_others(server_and_wire, monkeypatch, caplog):
    from hcljson_ls.features import symbols

    server, wire = server_and_wire

    def explode(*args, **kwargs):
        raise RuntimeError("symbols bug")

    monkeypatch.setattr(symbols, "document_symbols", explode)
    _open(server, BROKEN_DOC)
    answers = _ask_everything(server, wire)
    assert answers["symbols"] is None  # answered, empty
    assert "textDocument/documentSymbol failed" in caplog.text and "symbols bug" in caplog.text
    assert [(r["startLine"], r["endLine"]) for r in answers["folding"]] == [(0, 3), (1, 2)]
    assert answers["selection"][0]["range"] == {"start": {"line": 1, "character": 3}, "end": {"line": 1, "character": 12}}
    assert answers["hover"] is None  # an unknown block type has nothing to explain (the diagnostic does)
    [published] = wire.notifications("textDocument/publishDiagnostics")
    assert [d["code"] for d in published["diagnostics"]] == ["structure/unknown-block-type", "syntax/trailing-comma"]


def test_a_failing_analysis_leaves_syntax_features_working(server_and_wire, monkeypatch, caplog):
    from hcljson_ls.workspace import document

    server, wire = server_and_wire

    class Exploding:
        def note_edit(self, edit):
            pass

        def update(self, *args, **kwargs):
            raise RuntimeError("analysis bug")

    monkeypatch.setattr(document, "file_engine", lambda path, scope=None: Exploding())
    _open(server, BROKEN_DOC)
    [published] = wire.notifications("textDocument/publishDiagnostics")
    assert [d["code"] for d in published["diagnostics"]] == ["syntax/trailing-comma"]  # the syntax provider still reports
    assert "provider 'structure' failed" in caplog.text
    answers = _ask_everything(server, wire)
    assert answers["symbols"] is None and answers["hover"] is None
    assert len(answers["folding"]) == 2 and answers["selection"][0]["parent"]

    monkeypatch.undo()  # the bug is gone: the next version is analysed normally
    _insert(server, 0, 1, " ", version=2)
    answers = _ask_everything(server, wire)
    assert answers["symbols"] == []  # "resources" is no block type: nothing to list
    [*_, published] = wire.notifications("textDocument/publishDiagnostics")
    assert "structure/unknown-block-type" in [d["code"] for d in published["diagnostics"]]


def test_the_server_raises_gc_thresholds_and_never_lowers_them():
    import gc

    from hcljson_ls.lsp.server import GC_THRESHOLDS

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        create_server()
        assert gc.get_threshold() == GC_THRESHOLDS
        gc.set_threshold(GC_THRESHOLDS[0] * 2, 1, GC_THRESHOLDS[2] * 3)
        create_server()
        assert gc.get_threshold() == (GC_THRESHOLDS[0] * 2, GC_THRESHOLDS[1], GC_THRESHOLDS[2] * 3)
    finally:
        gc.set_threshold(*before)


def test_an_opens_decoded_blocks_are_freed_once_its_diagnostics_are_written(server_and_wire, monkeypatch):
    # The quick open leaves its decoded blocks (`Workspace.leftovers`) for the server to free after
    # the answer is written, so that the client does not wait for the freeing (10-13 ms at 5 MB).
    server, wire = server_and_wire
    monkeypatch.setattr(HcljsonServer, "PREPARE_DELAY", 0)  # (as the background build, after a delay)
    text = json.dumps({"resource": {"terraform_data": {f"r{i}": {"input": i} for i in range(40)}},
                       "output": {"o": {"value": "${var.missing}"}}})
    at_write: list[int] = []
    write = wire.write
    wire.write = lambda data: (write(data), b"publishDiagnostics" in data  # type: ignore[method-assign]
                               and at_write.append(len(server.store.leftovers)))

    async def scenario() -> None:
        _open(server, text)  # a client that does not pull: the diagnostics are pushed from didOpen
        for _ in range(5):
            await asyncio.sleep(0)

    asyncio.get_event_loop_policy().get_event_loop().run_until_complete(scenario())
    [published] = wire.notifications("textDocument/publishDiagnostics")
    assert [d["code"] for d in published["diagnostics"]] == ["reference/undeclared"]
    assert at_write == [41], "the decoded blocks were freed before the diagnostics were written"
    assert server.store.leftovers == []


def test_the_decoded_blocks_are_freed_a_few_at_a_time_while_a_message_waits(server_and_wire, monkeypatch):
    # The freeing is background work: with a message waiting (`transport.Inbox`), each loop turn
    # frees one step (`FREED_AT_ONCE` blocks), so that the message is handled after a step, not
    # after all of them (~50 ms at 20 MB).
    server, wire = server_and_wire
    monkeypatch.setattr(HcljsonServer, "FREED_AT_ONCE", 4)
    monkeypatch.setattr(HcljsonServer, "PREPARE_DELAY", 0)
    text = json.dumps({"resource": {"terraform_data": {f"r{i}": {"input": i} for i in range(40)}},
                       "output": {"o": {"value": "${var.missing}"}}})
    left: list[int] = []

    async def scenario() -> None:
        server.inbox.put()  # a message read off the wire, not handled yet
        _open(server, text)
        for _ in range(8):
            left.append(len(server.store.leftovers))
            await asyncio.sleep(0)
        server.inbox.take()
        for _ in range(3):
            await asyncio.sleep(0)

    asyncio.get_event_loop_policy().get_event_loop().run_until_complete(scenario())
    freeing = left[left.index(41):]  # (from the turn the diagnostics were written)
    steps = [a - b for a, b in zip(freeing, freeing[1:]) if a != b]  # (the first turn waits `PREPARE_DELAY`)
    assert len(steps) >= 3 and set(steps) == {4}, left
    assert server.store.leftovers == []
