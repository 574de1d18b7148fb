"""Answering `initialize` before the server is imported (issue 22 §4: start-up).

    start(stdin_fd, stdout) -> Early       read the first message on a thread; answer it when it is `initialize`
    take() -> Handoff | None               the reader `entry` started (`started`), once its first message is read
    Early.wait() -> Handoff                what was read (for `lsp.transport`) and what was answered (for `lsp.protocol`)
    answer(params) -> dict | None          the `InitializeResult` for `params`, or None when this module cannot tell
    computed_answer(params) -> dict        the full server's own answer (imports it): the reference for the tests

Contract
--------
Importing `lsp.server` (pygls, lsprotocol's ~1,000 attrs classes, every feature) takes most of a
second, more on a loaded machine; an editor that sends keystrokes before `initialize` is answered
loses them (VS Code did, issue 22). So `hcljson_ls.entry` starts this module's reader thread
first, then imports the server: the thread reads the first message off stdin and, when it is an
`initialize` request whose params have the shape LSP gives them, writes the answer at once, from
`capabilities.json` (the full server's capabilities, precomputed: `python -m hcljson_ls.lsp.early`
writes the file) with the position encoding chosen by `text.negotiate_encoding`, as the full server
chooses it. Three client capabilities change our answer (`FACETS`: ``rename.prepareSupport`` makes
pygls answer `RenameOptions`; ``willSave`` and ``willSaveWaitUntil`` add a ``false``): the file holds
the answer to a client without them and a patch for each of them set to false or true; a client
that gives one of them a value of another type is left to the server. `tests/lsp/test_early.py` compares `answer` with `computed_answer` for the real
clients' capabilities pytest-lsp ships and for random ones.

Nothing is lost or answered twice: the bytes read (the `FrameReader` with what it holds, the
events it gave) are handed to the transport, which handles them first; the server then handles the
`initialize` as usual (folders, settings, the client's capabilities) and `lsp.protocol` drops its
response, logging an error when it differs from the early answer (then `capabilities.json` is stale).
Anything else as the first message (another method, a notification, bad JSON, a framing problem,
the end of input) is left wholly to the server, which answers as it always did.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..text.encodings import negotiate_encoding
from .framing import Body, Event, FrameReader

#: Where the precomputed answers are (package data).
CAPABILITIES_FILE = os.path.join(os.path.dirname(__file__), "capabilities.json")
#: How much one read asks for (as `lsp.transport`).
CHUNK = 1 << 16


@dataclass
class Handoff:
    """What the early reader read and answered; the transport goes on from here."""

    frames: FrameReader = field(default_factory=FrameReader)
    events: list[Event | None] = field(default_factory=list)  # None: the end of input
    answered_id: int | str | None = None  # the id of the `initialize` answered early
    answer: dict[str, Any] | None = None  # the result sent for it
    first: Any = None  # what `lsp.first_open` answered next (its `First`), if anything

    @property
    def ended(self) -> bool:
        return None in self.events


class Early:
    """The reader thread started by `start`."""

    def __init__(self, stdin_fd: int, stdout: BinaryIO) -> None:
        self.handoff = Handoff()
        self._thread = threading.Thread(target=self._run, args=(stdin_fd, stdout), name="lsp-early", daemon=True)
        self._thread.start()

    def wait(self) -> Handoff:
        self._thread.join()
        return self.handoff

    def read_first(self, timeout: float) -> bool:
        """Whether the first message was read (and answered when it could be) within `timeout` seconds."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self, stdin_fd: int, stdout: BinaryIO) -> None:
        handoff = self.handoff
        while not handoff.events:
            try:
                chunk = os.read(stdin_fd, CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                handoff.events.append(None)
                return
            handoff.events.extend(handoff.frames.feed(chunk))
        first = handoff.events[0]
        if not isinstance(first, Body):
            return
        try:
            message = json.loads(first.data)
        except (ValueError, RecursionError):
            return
        if not _is_initialize(message) or (result := answer(message["params"])) is None:
            return
        body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}, ensure_ascii=True)
        try:
            stdout.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body.encode("ascii")))
            stdout.flush()
        except (OSError, ValueError):  # the client is gone: the server will find out
            return
        handoff.answered_id, handoff.answer = message["id"], result


def start(stdin_fd: int, stdout: BinaryIO) -> Early:
    return Early(stdin_fd, stdout)


#: The reader `hcljson_ls.entry` started for this process; the server takes it once (`take`).
started: Early | None = None


def take() -> Handoff | None:
    """The handoff of the reader started for this process (waiting for its first message), or None."""
    global started
    early, started = started, None
    return early.wait() if early is not None else None


def _is_initialize(message: Any) -> bool:
    """A JSON-RPC `initialize` request with the params' required shape (LSP 3.17 `InitializeParams`)."""
    if not (isinstance(message, dict) and message.get("jsonrpc") == "2.0" and message.get("method") == "initialize"):
        return False
    msg_id = message.get("id")
    if isinstance(msg_id, bool) or not isinstance(msg_id, (int, str)):
        return False
    params = message.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
        return False
    pid = params.get("processId")
    return pid is None or (isinstance(pid, int) and not isinstance(pid, bool))


def _path(value: Any, *names: str) -> Any:
    for name in names:
        value = value.get(name) if isinstance(value, dict) else None
    return value


_answers: dict[str, Any] | None = None


def _precomputed() -> dict[str, Any] | None:
    global _answers
    if _answers is None:
        try:
            with open(CAPABILITIES_FILE, encoding="utf-8") as file:
                _answers = json.load(file)
        except (OSError, ValueError):
            return None
    return _answers


def answer(params: dict[str, Any]) -> dict[str, Any] | None:
    """The `InitializeResult` (as JSON data) the full server gives for `params`; None when the
    precomputed answers cannot be read or the client's capabilities are of a shape not foreseen."""
    answers = _precomputed()
    capabilities = params["capabilities"]
    encodings = _path(capabilities, "general", "positionEncodings")
    if answers is None or not (encodings is None or (isinstance(encodings, list) and all(isinstance(e, str) for e in encodings))):
        return None
    result = json.loads(json.dumps(answers["default"]))
    for facet in FACETS:
        value = _path(capabilities, *facet.split("."))
        if value is None:
            continue
        if not isinstance(value, bool):
            return None
        _merge(result, answers["facets"][facet][json.dumps(value)])
    result["capabilities"]["positionEncoding"] = negotiate_encoding(encodings)
    return result


#: The client capabilities that change the answer (those pygls's `ServerCapabilitiesBuilder` reads
#: for the methods we have): each, set alone to false or true, changes it by a patch stored in
#: `capabilities.json` (the tests check that the patches combine into the full server's answer).
FACETS = ("textDocument.rename.prepareSupport", "textDocument.synchronization.willSave",
          "textDocument.synchronization.willSaveWaitUntil")


def _merge(into: dict[str, Any], patch: dict[str, Any]) -> None:
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _patch(base: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """What `_merge` needs to make `other` of `base` (keys only added or changed)."""
    if set(base) - set(other):
        raise ValueError(f"a client capability removes {sorted(set(base) - set(other))}: not a patch")
    return {key: (_patch(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value)
            for key, value in other.items() if base.get(key) != value}


def _nested(path: str, value: Any) -> dict[str, Any]:
    for name in reversed(path.split(".")):
        value = {name: value}
    return value


def computed_answer(params: dict[str, Any]) -> dict[str, Any]:
    """What a fresh full server answers to `initialize` with `params` (JSON data)."""
    from .server import create_server  # lazy: the full server, the very import this module answers without

    sent: list[dict[str, Any]] = []

    class Capture:
        def write(self, data: bytes) -> None:
            sent.append(json.loads(data.split(b"\r\n\r\n", 1)[1]))

        def close(self) -> None:
            pass

    protocol = create_server()._hcljson_protocol
    protocol.set_writer(Capture())
    protocol.receive(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}).encode())
    [response] = [m for m in sent if m.get("id") == 1]
    return response["result"]


def write_capabilities(path: str = CAPABILITIES_FILE) -> None:
    """Write `capabilities.json` from the full server's answers."""
    default = computed_answer({"processId": None, "capabilities": {}})
    answers: dict[str, Any] = {"default": default, "facets": {}}
    for facet in FACETS:
        answers["facets"][facet] = {
            json.dumps(value): _patch(default, computed_answer({"processId": None, "capabilities": _nested(facet, value)}))
            for value in (False, True)}
    del default["capabilities"]["positionEncoding"]  # the client's choice: set per answer
    with open(path, "w", encoding="utf-8") as file:
        json.dump(answers, file, indent=1, sort_keys=True)
        file.write("\n")


if __name__ == "__main__":
    write_capabilities()
    print(f"wrote {CAPABILITIES_FILE}")
