"""How soon a thread that has read a message gets the interpreter from a main thread that works.

    prompt_readers()    set the interpreter's switch interval to `SWITCH_INTERVAL` (process-wide)

Contract
--------
The server reads stdin on a thread (`lsp.early` before the server is imported, then
`lsp.transport`), and its main thread runs the event loop: requests, and background work in
slices (the tree built after a quick open, the decoded blocks freed, the workspace scanned) that
yield as soon as `transport.Inbox` says a message waits. But a thread that has read a message must
first get the interpreter from a main thread that is running Python code, and CPython hands it
over only every switch interval: 5 ms by default. So every message that arrived during
background work waited up to 5 ms before the slice could even see it.

`prompt_readers` lowers the interval to `SWITCH_INTERVAL`. A reader blocked in `os.read` does
not ask for the interpreter, so nothing switches more often while no message arrives; only the
arrival of one costs the main thread a switch. Called where a stdio server starts
(`hcljson_ls.entry`, before `lsp.early`'s reader; `transport.serve_stdio`).

Measured (`bench/peer.py --ours-only`, 3 runs, alternating): an edit of a 5 MB document, sent
while its tree is built in the background, 12.4-12.9 -> 7.8-8.4 ms; at 20 MB 30.5-37.7 ->
26.3-30.0 ms. The open and the first edit did not change.
"""

from __future__ import annotations

import sys

__all__ = ["SWITCH_INTERVAL", "prompt_readers"]

#: Seconds (CPython's default is 0.005).
SWITCH_INTERVAL = 0.0005


def prompt_readers() -> None:
    sys.setswitchinterval(SWITCH_INTERVAL)
