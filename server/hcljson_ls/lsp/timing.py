"""The server's own overhead before our code runs, measured when asked: ``HCLJSON_LS_TIMING=1``.

    ENABLED                      whether the environment asked for it (read once, at import)
    body_read(size)              the transport got a whole message body off the wire
    handler_started(method)      log how long ago the last body arrived, when ENABLED

Contract
--------
With ``HCLJSON_LS_TIMING`` set (to anything but "" or "0") the transport (`lsp.transport`) calls
`body_read` when it has read a whole message body off the wire, and the `didOpen` /
`didChange` handlers (`lsp.protocol`) log to stderr, at warning level so that it shows under the
default log level::

    timing textDocument/didOpen bytes read -> handler: 12.3 ms (5039481 bytes)

that is: from the moment the body was read to the moment our handler starts (waiting for the event
loop, decoding the JSON, structuring the params with cattrs, dispatching). `bench/peer.py` prints it. Off by
default: then each handler pays one global check.

Measured (`bench/peer.py`): 0.4 ms at 50 KB, 13-14 ms at 5 MB, 54 ms at 20 MB, 2% of the open;
nearly all of it `json.loads` of the message (C: 11-12 ms at 5 MB alone), cattrs structuring of the
params too small to see beside it, so decoding `didOpen`/`didChange` without cattrs would gain
nothing measurable (docs/performance.md, "Where the open goes").
"""

from __future__ import annotations

import logging
import os
import time

log = logging.getLogger(__name__)

ENABLED = os.environ.get("HCLJSON_LS_TIMING", "") not in ("", "0")

_arrived = 0.0
_size = 0


def body_read(size: int) -> None:
    global _arrived, _size
    _arrived, _size = time.perf_counter(), size


def handler_started(method: str) -> None:
    if _arrived:
        elapsed = time.perf_counter() - _arrived
        log.warning("timing %s bytes read -> handler: %.1f ms (%d bytes)", method, elapsed * 1000, _size)
