"""The server's own overhead before our code runs, measured when asked: ``HCLJSON_LS_TIMING=1``.

    ENABLED                      whether the environment asked for it (read once, at import)
    body_read(size)              the transport got a whole message body off the wire
    receiving(size)              the protocol starts on a body of `size` bytes (the oldest read)
    handler_started(method)      log how long ago the body being handled arrived, when ENABLED

Contract
--------
With ``HCLJSON_LS_TIMING`` set (to anything but "" or "0") the transport (`lsp.transport`) calls
`body_read` when it has read a whole message body off the wire, `HcljsonProtocol.receive` calls
`receiving` as it starts on one, and the `didOpen` / `didChange` handlers (`lsp.protocol`) log to
stderr, at warning level so that it shows under the default log level::

    timing textDocument/didOpen bytes read -> handler: 12.3 ms (5039481 bytes)

that is: from the moment the body was read to the moment our handler starts (waiting for the event
loop, decoding the JSON, structuring the params with cattrs, dispatching). `bench/peer.py` prints it. Off by
default: then each handler pays one global check.

Measured (`bench/peer.py`): 0.4 ms at 50 KB, 13-14 ms at 5 MB, 54 ms at 20 MB, 2% of the open;
nearly all of it decoding the message's JSON (`json.loads` then: 11-12 ms at 5 MB alone; since
session 20 msgspec, `protocol.decode_body`: ~5 ms at 5 MB, ~22 ms at 20 MB), cattrs structuring of
the params too small to see beside it (its hooks made before the first message:
`HcljsonProtocol.warm_steps`), so decoding `didOpen`/`didChange` without cattrs would gain nothing
measurable (docs/performance.md, "Where the open goes").
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque

log = logging.getLogger(__name__)

ENABLED = os.environ.get("HCLJSON_LS_TIMING", "") not in ("", "0")

#: Bodies read and not yet handled, oldest first: (when, size). Bodies are handled in the order the
#: transport reads them. (One value for the last body read instead made a body that arrived while
#: the `didOpen` before it was decoded shorten that one's figure: 0.4 ms for 5 MB, session 20.)
_read: deque[tuple[float, int]] = deque()
#: The body being handled: (when it was read, its size), or None for one the transport did not read
#: (what `lsp.early` read before the server started).
_current: tuple[float, int] | None = None


def body_read(size: int) -> None:
    _read.append((time.perf_counter(), size))


def receiving(size: int) -> None:
    global _current
    _current = _read.popleft() if _read and _read[0][1] == size else None


def handler_started(method: str) -> None:
    if _current is not None:
        elapsed = time.perf_counter() - _current[0]
        log.warning("timing %s bytes read -> handler: %.1f ms (%d bytes)", method, elapsed * 1000, _current[1])
