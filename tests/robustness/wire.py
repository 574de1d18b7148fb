"""A raw LSP client over the real server's stdio, for the robustness tests: it writes the
Content-Length framing itself, so it can send what no well-behaved client library would (a bad
header, a body that is not JSON, params of the wrong type, lone surrogates), and it records every
message the server sends, in order (publishDiagnostics with their versions included).

    with Wire.start(env=..., cwd=...) as wire:
        wire.initialize(root=..., options={...})
        wire.open(URI, TEXT)
        wire.request("textDocument/hover", {...}, timeout=10) -> the response message (a dict)
        wire.notify(method, params); wire.send_raw(bytes)
        wire.diagnostics(URI, version=None, timeout=10) -> the last published list for that version

Every wait has a timeout and fails the test with what was waited for; `wire.alive()` says whether
the process is still running. The server's stderr (its log) is kept in `wire.log()`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "hcljson_ls", "--stdio"]

#: JSON-RPC error codes the tests expect.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
REQUEST_CANCELLED = -32800


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(message: dict, ensure_ascii: bool = False) -> bytes:
    # surrogatepass: a lone surrogate in a Python string goes on the wire as its (invalid) UTF-8
    # bytes; the tests that want it as a JSON escape pass ensure_ascii=True instead.
    return json.dumps(message, ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass")


class Wire:
    def __init__(self, process: subprocess.Popen, log_file: Any) -> None:
        self.process = process
        self._log_file = log_file
        self.received: list[dict] = []
        self._lock = threading.Lock()
        self._new = threading.Condition(self._lock)
        self._ids = iter(range(1, 1 << 30))
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- process --------------------------------------------------------------------------------

    @classmethod
    @contextmanager
    def start(cls, env: dict[str, str] | None = None, cwd: str | None = None, command: list[str] | None = None) -> Iterator[Wire]:
        log_file = tempfile.TemporaryFile()
        process = subprocess.Popen(
            command or SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_file,
            env=env if env is not None else dict(os.environ), cwd=cwd,
        )
        wire = cls(process, log_file)
        try:
            yield wire
        finally:
            wire.stop()
            log_file.close()

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            try:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
                self.process.wait(timeout=10)
            except (AssertionError, OSError, subprocess.TimeoutExpired):
                pass
        if self.alive():
            self.process.kill()
            self.process.wait(timeout=10)

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user and system, all its threads), from Linux's /proc: unlike
        the wall clock, it does not grow while the process waits for a core another test is using."""
        stat = Path(f"/proc/{self.process.pid}/stat").read_text(encoding="ascii")
        fields = stat.rsplit(")", 1)[1].split()  # after the command name: state, ppid, ...
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime, in ticks

    def wait_exit_with_cpu(self, timeout: float) -> tuple[int, float]:
        """Wait for the server to exit: its exit code and its total CPU time (the kernel's account of the
        reaped process, `os.wait4`)."""
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(self.process.pid, os.WNOHANG)
            if pid:
                self.process.returncode = os.waitstatus_to_exitcode(status)
                return self.process.returncode, usage.ru_utime + usage.ru_stime
            assert time.monotonic() < deadline, f"the server did not exit within {timeout} s"
            time.sleep(0.01)

    def log(self) -> str:
        self._log_file.seek(0)
        return self._log_file.read().decode("utf-8", "replace")

    # -- sending --------------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict, ensure_ascii: bool = False) -> None:
        self.send_raw(frame(encode({"jsonrpc": "2.0", **message}, ensure_ascii)))

    def notify(self, method: str, params: Any, **kw: Any) -> None:
        self.send({"method": method, "params": params}, **kw)

    def send_request(self, method: str, params: Any, **kw: Any) -> int:
        id_ = next(self._ids)
        self.send({"id": id_, "method": method, "params": params}, **kw)
        return id_

    def request(self, method: str, params: Any, timeout: float = 30, **kw: Any) -> dict:
        return self.response(self.send_request(method, params, **kw), timeout)

    def response(self, id_: int, timeout: float = 30) -> dict:
        return self.wait(lambda m: m.get("id") == id_ and "method" not in m, timeout, f"the response to request {id_}")

    # -- receiving ------------------------------------------------------------------------------

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            message = json.loads(out.read(length))
            if message.get("method") in ("workspace/configuration", "client/registerCapability",
                                         "window/workDoneProgress/create", "workspace/diagnostic/refresh"):
                result = [None] * len(message["params"]["items"]) if message["method"] == "workspace/configuration" else None
                try:
                    self.send({"id": message["id"], "result": result})
                except OSError:
                    return
            with self._new:
                self.received.append(message)
                self._new.notify_all()

    def wait(self, predicate: Callable[[dict], bool], timeout: float, what: str, after: int = 0) -> dict:
        """The first message (from index `after` on) matching `predicate`; fails after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._new:
            while True:
                for message in self.received[after:]:
                    if predicate(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0 or not self.alive():
                    state = "alive" if self.alive() else f"exited with {self.process.returncode}"
                    raise AssertionError(f"timed out waiting for {what} (server {state}); log:\n{self.log()[-3000:]}")
                self._new.wait(min(left, 0.2))

    def published(self, uri: str) -> list[dict]:
        """Every publishDiagnostics params for `uri`, in the order they arrived."""
        with self._lock:
            return [m["params"] for m in self.received
                    if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 30) -> list[dict]:
        """The diagnostics of the first publication for `uri` (at `version`, when given) that has not
        been returned yet; see `published` for all of them."""
        seen = getattr(self, "_seen", 0)
        message = self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            and (version is None or m["params"].get("version") == version),
            timeout, f"diagnostics of {uri} at version {version}", after=seen,
        )
        with self._lock:
            self._seen = self.received.index(message) + 1
        return message["params"]["diagnostics"]

    # -- the usual session ----------------------------------------------------------------------

    def initialize(self, root: str | None = None, options: Any = None, timeout: float = 30) -> dict:
        params = {
            "processId": None,
            "rootUri": None if root is None else "file://" + root,
            "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True},
                                               "documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}},
            "initializationOptions": options,
        }
        result = self.request("initialize", params, timeout)
        assert "result" in result, result
        self.notify("initialized", {})
        return result["result"]

    def open(self, uri: str, text: str, version: int = 1, **kw: Any) -> None:
        self.notify("textDocument/didOpen",
                    {"textDocument": {"uri": uri, "languageId": "terraform-json", "version": version, "text": text}}, **kw)

    def change(self, uri: str, version: int, changes: list[dict]) -> None:
        self.notify("textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def hover(self, uri: str, line: int, character: int, timeout: float = 30) -> dict:
        return self.request("textDocument/hover",
                            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}, timeout)
