"""The server ends at once when told to, whatever it holds: `exit` does not wait for Python to free a
large document's objects one by one (a 39 MB document of 495,000 small blocks took 28 s to shut down;
`cli._exit_now`).

What is bounded is the server's CPU time from `shutdown` to its exit (the kernel's account,
`Wire.wait_exit_with_cpu`): the work freeing objects is CPU work, and CPU time does not grow while
the process waits for a core that another test (pytest-xdist's other worker) is using."""

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

    held = wire.cpu_seconds()
    assert held > 1.0, f"the server did only {held:.2f} s of work before (not the document this test needs)"
    assert wire.request("shutdown", None, timeout=30)["result"] is None
    wire.notify("exit", None)
    code, total = wire.wait_exit_with_cpu(timeout=60)
    assert code == 0
    spent = total - held
    assert spent < 1.0, f"shutdown and exit took {spent:.2f} s of CPU"
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

    held = wire.cpu_seconds()
    assert wire.request("shutdown", None, timeout=30)["result"] is None
    answered = wire.cpu_seconds() - held
    wire.notify("exit", None)
    code, total = wire.wait_exit_with_cpu(timeout=60)
    assert code == 0
    spent = total - held
    assert "Traceback" not in wire.log()
    # The rest of the build is seconds of CPU: waited for, it would be counted here.
    assert answered < 1.0 and spent < 1.0, f"shutdown answered after {answered:.2f} s of CPU, exited after {spent:.2f} s"
