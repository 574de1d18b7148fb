"""The server's own overhead before our code runs, measured when asked: ``HCLJSON_LS_TIMING=1``.

    ENABLED                      whether the environment asked for it (read once, at import)
    TimedStdin(stream)           stdin for `start_io`: remembers when each message body was read
    handler_started(method)      log how long ago the last body arrived, when ENABLED

Contract
--------
With ``HCLJSON_LS_TIMING`` set (to anything but "" or "0") the server reads stdin through
`TimedStdin`, and the `didOpen` / `didChange` handlers (`lsp.protocol`) log to stderr, at warning
level so that it shows under the default log level::

    timing textDocument/didOpen bytes read -> handler: 12.3 ms (5039481 bytes)

that is: from the moment pygls's reader got the whole message body off stdin to the moment our
handler starts (pygls decoding the JSON, structuring the params with cattrs, dispatching).
`bench/peer.py` prints it. Off by default: then nothing is wrapped and each handler pays one global
check.

Measured (`bench/peer.py`): 0.4 ms at 50 KB, 13-14 ms at 5 MB, 54 ms at 20 MB, 2% of the open;
nearly all of it `json.loads` of the message (C: 11-12 ms at 5 MB alone), cattrs structuring of the
params too small to see beside it, so decoding `didOpen`/`didChange` without cattrs would gain
nothing measurable (docs/performance.md, "Where the open goes").
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import BinaryIO

log = logging.getLogger(__name__)

ENABLED = os.environ.get("HCLJSON_LS_TIMING", "") not in ("", "0")


class TimedStdin:
    """A binary stream whose `read` remembers when it returned and how much (pygls reads a
    message's body with one `read(n)`, its header lines with `readline`)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self.arrived = 0.0
        self.size = 0

    def readline(self) -> bytes:
        return self._stream.readline()

    def read(self, n: int = -1) -> bytes:
        data = self._stream.read(n)
        self.arrived, self.size = time.perf_counter(), len(data)
        return data

    def close(self) -> None:
        self._stream.close()


_stdin: TimedStdin | None = None


def stdin() -> BinaryIO | None:
    """What `start_io` should read: a `TimedStdin` over the process's stdin when ENABLED, else None
    (pygls's default)."""
    global _stdin
    if not ENABLED:
        return None
    _stdin = TimedStdin(sys.stdin.buffer)
    return _stdin  # type: ignore[return-value]


def handler_started(method: str) -> None:
    if _stdin is not None and _stdin.arrived:
        elapsed = time.perf_counter() - _stdin.arrived
        log.warning("timing %s bytes read -> handler: %.1f ms (%d bytes)", method, elapsed * 1000, _stdin.size)
