"""The server ends at once when told to, whatever it holds: `exit` does not wait for Python to free a
large document's objects one by one (a 39 MB document of 495,000 small blocks took 28 s to shut down;
`cli._exit_now`)."""

from __future__ import annotations

import json
import time

from .conftest import OPTIONS
from .wire import Wire

#: Enough small blocks that freeing them one by one takes seconds (about 4 MB, 60,000 blocks; before
#: `_exit_now`, 120,000 took 5.7 s on a loaded machine).
BLOCKS = 60_000


def test_shutdown_and_exit_take_under_a_second_with_a_large_document_open(wire: Wire, tmp_path) -> None:
    wire.initialize(options=OPTIONS)
    text = json.dumps({"output": {f"o{i}": {"value": i, "description": "d"} for i in range(BLOCKS)}}, indent=1)
    uri = (tmp_path / "main.tf.json").as_uri()
    wire.open(uri, text)
    assert wire.diagnostics(uri, timeout=300) == []
    # A request builds the tree and the analysis of every block (what the server then holds).
    answer = wire.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, timeout=300)
    assert len(answer["result"]) == BLOCKS

    started = time.monotonic()
    assert wire.request("shutdown", None, timeout=30)["result"] is None
    wire.notify("exit", None)
    assert wire.process.wait(timeout=60) == 0
    elapsed = time.monotonic() - started
    assert elapsed < 1.0, f"shutdown and exit took {elapsed:.2f} s"
    assert "Traceback" not in wire.log()


def test_shutdown_during_the_build_after_a_quick_open_is_answered_at_once(wire: Wire, tmp_path) -> None:
    """The tree and analysis built after a quick open are built in slices that yield to messages
    (`HcljsonServer._prepare`): `shutdown` does not wait for the build (issue 23)."""
    wire.initialize(options=OPTIONS)
    text = json.dumps({"output": {f"o{i}": {"value": i, "description": "d"} for i in range(BLOCKS)}}, indent=1)
    uri = (tmp_path / "main.tf.json").as_uri()
    wire.open(uri, text)
    assert wire.diagnostics(uri, timeout=300) == []  # the quick open's answer: the build starts 50 ms later
    # That answer may come before the full server is imported (`lsp.first_open`), which then opens the
    # document again: its answer to a pull says that its own quick open is done.
    assert wire.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=300)["result"]["items"] == []
    time.sleep(0.3)  # well into the build (seconds for 60,000 blocks)

    started = time.monotonic()
    assert wire.request("shutdown", None, timeout=30)["result"] is None
    answered = time.monotonic() - started
    wire.notify("exit", None)
    assert wire.process.wait(timeout=60) == 0
    elapsed = time.monotonic() - started
    assert "Traceback" not in wire.log()
    assert answered < 1.0 and elapsed < 1.0, f"shutdown answered in {answered:.2f} s, exited after {elapsed:.2f} s"
