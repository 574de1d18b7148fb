"""The first document is analysed once: `lsp.first_open` opens it and answers its diagnostics before
the server is imported, and the server goes on with that workspace (`HcljsonServer.adopt_store`),
its own `didOpen` of the document finding it open as it is (`Workspace.open`). Before session 10
the server opened it again in a workspace of its own: every large document's quick open ran twice
(twice the time, and both analyses alive together at the peak of the open, issue 22 "Limits").

In-process, through the real parts `hcljson_ls.entry` runs (`lsp.early`, `lsp.first_open`, the
server's `start_io` over a pipe); what is counted is the quick open itself (`terraform.quick`'s
`quick_file`, as `workspace.document` calls it)."""

from __future__ import annotations

import io
import json
import os
import sys
import time

from hcljson_ls.lsp import early, first_open
from hcljson_ls.lsp.server import create_server
from hcljson_ls.workspace import document as document_module

URI = "file:///nonexistent-hcljson-test/once/main.tf.json"
TEXT = '{\n  "variable": {"region": {}},\n  "output": {"o": {"value": "${var.regio}"}}\n}\n'


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _responses(written: bytes) -> list[dict]:
    messages, rest = [], written
    while rest:
        head, _, rest = rest.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        messages.append(json.loads(rest[:length]))
        rest = rest[length:]
    return messages


def _quick_opens(monkeypatch) -> list[tuple[str, list]]:
    """Each quick open from now on (`quick_file`, as `workspace.document` calls it): its path, and the
    list it leaves its decoded blocks in (`Workspace.leftovers`)."""
    opened: list[tuple[str, list]] = []
    quick_file = document_module.quick_file

    def counted(text, path, scope, leftovers):
        opened.append((path, leftovers))
        return quick_file(text, path, scope, leftovers)

    monkeypatch.setattr(document_module, "quick_file", counted)
    return opened


def test_the_first_document_is_analysed_once_by_first_open_and_the_server(monkeypatch):
    opened = _quick_opens(monkeypatch)
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {"textDocument": {"diagnostic": {}}},
                    "initializationOptions": {"diagnostics": {"unusedDeclarations": False}}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": URI, "languageId": "terraform-json", "version": 1, "text": TEXT}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": URI}}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": URI}}},
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    read_end, write_end = os.pipe()
    os.write(write_end, b"".join(_frame(m) for m in messages))
    os.close(write_end)
    out = io.BytesIO()
    stdin = open(read_end, "rb", closefd=True)  # closed below
    try:
        monkeypatch.setattr(sys, "stdin", stdin)
        early.started = early.start(read_end, out)
        first_open.serve(early.started, read_end, out)
        assert [path for path, _ in opened] == ["/nonexistent-hcljson-test/once/main.tf.json"]  # the early answer's
        assert early.started.handoff.first.store is not None
        assert create_server().start_io(stdout=out) == 0
    finally:
        early.started = None
        stdin.close()
    answers = {m["id"]: m for m in _responses(out.getvalue()) if "id" in m}
    assert sorted(answers) == [1, 2, 3, 4]  # each answered once: 2 early, 3 by the server
    assert answers[3]["result"]["items"] == answers[2]["result"]["items"]
    assert [d["code"] for d in answers[2]["result"]["items"]] == ["reference/undeclared"]
    assert [path for path, _ in opened] == ["/nonexistent-hcljson-test/once/main.tf.json"]  # ... and only that one


class _Recorded(io.BytesIO):
    """What a session writes, with how many decoded blocks were still to be freed at each write."""

    def __init__(self, opened: list[tuple[str, list]]) -> None:
        super().__init__()
        self.opened = opened  # (`_quick_opens`)
        self.left_at_writes: list[int] = []

    def write(self, data) -> int:
        self.left_at_writes.append(len(self.opened[0][1]) if self.opened else -1)
        return super().write(data)


def test_the_decoded_blocks_are_freed_after_the_answer_while_no_message_waits(monkeypatch):
    """The quick open's decoded blocks (`Workspace.leftovers`) are freed by the session a few at a
    time while it waits for the next message (`first_open._read`), after the answer: not as the
    answer is written, which an edit sent as it arrives waited for (10-13 ms at 5 MB)."""
    opened = _quick_opens(monkeypatch)
    monkeypatch.setattr(first_open, "FREED_AT_ONCE", 1)  # (a look for a message between any two)
    blocks = ", ".join(f'"o{i}": {{"value": "${{var.region}}"}}' for i in range(5))
    text = '{"variable": {"region": {}}, "output": {' + blocks + "}}"
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {"textDocument": {"diagnostic": {}}}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": URI, "languageId": "terraform-json", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": URI}}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange",  # (sent as the answer arrives: it waits)
         "params": {"textDocument": {"uri": URI, "version": 2},
                    "contentChanges": [{"range": {"start": {"line": 0, "character": 1},
                                                  "end": {"line": 0, "character": 1}}, "text": " "}]}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/diagnostic",
         "params": {"textDocument": {"uri": URI}, "previousResultId": None}},
    ]
    read_end, write_end = os.pipe()
    os.write(write_end, b"".join(_frame(m) for m in messages))  # (kept open: the session then waits, idle)
    out = _Recorded(opened)
    try:
        early.started = early.start(read_end, out)
        # (An import on the thread, as `entry`'s: the session goes on after its answer until it ends.)
        first_open.serve(early.started, read_end, out, lambda: time.sleep(0.2))
        answers = {m["id"]: m for m in _responses(out.getvalue()) if "id" in m}
        assert sorted(answers) == [1, 2, 3] and answers[3]["result"]["items"] == []
        (_, kept), (_, again) = opened  # (the open's, then the edit's: one list)
        assert again is kept
        # The pulls' answers, and the edit between them: handled before any block was freed (the
        # edit's own then added to them).
        assert out.left_at_writes[-2:] == [6, 12]
        assert kept == []  # ... then each freed while the session waited for a message
        assert early.started.handoff.first.store.leftovers is kept
    finally:
        early.started = None
        os.close(write_end)
        os.close(read_end)
