"""The process's memory after each phase of a document's open, when asked: ``HCLJSON_LS_MEMORY=1``.

    ENABLED              whether the environment asked for it (read once, at import)
    mark(phase)          write the process's peak and current resident set to stderr, when ENABLED

Contract
--------
With ``HCLJSON_LS_MEMORY`` set (to anything but "" or "0"), the open's phases (the transport's
read of a large message, `lsp.first_open`'s decode, open, quick open and diagnostics, the server's
`didOpen`, first diagnostics, line starts, stepped build and check against the quick result) each
write one line to stderr when they end::

    memory first_open.quick: VmHWM 812.4 MB, VmRSS 790.1 MB

`VmHWM` is the peak resident set so far, `VmRSS` the current one (Linux's ``/proc/self/status``;
nothing is written where it cannot be read). The line goes straight to stderr, not through
`logging`: `lsp.first_open` runs before logging is configured. `bench/bench_memory.py --phases`
prints them as a table. Off by default: each phase end then pays a call that checks one global, and callers
that need extra work to separate two phases (computing the quick result before the diagnostics
that would compute it anyway) do it only when ENABLED.
"""

from __future__ import annotations

import os
import re
import sys

ENABLED = os.environ.get("HCLJSON_LS_MEMORY", "") not in ("", "0")

_FIELD = re.compile(r"^(VmHWM|VmRSS):\s+(\d+) kB", re.M)


def mark(phase: str) -> None:
    """Write ``memory <phase>: VmHWM .. MB, VmRSS .. MB`` to stderr (only when ENABLED)."""
    if not ENABLED:
        return
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            fields = dict(_FIELD.findall(status.read()))
        line = f"memory {phase}: VmHWM {int(fields['VmHWM']) / 1024:.1f} MB, VmRSS {int(fields['VmRSS']) / 1024:.1f} MB\n"
        sys.stderr.write(line)
        sys.stderr.flush()
    except (OSError, KeyError, ValueError):
        pass
