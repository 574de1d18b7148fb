"""Pushing diagnostics (`textDocument/publishDiagnostics`), debounced per document.

    Publisher(compute, send)
    publisher.schedule(uri, delay)   publish after `delay` seconds unless rescheduled first
    publisher.publish(uri)           publish now (cancels a pending one)
    publisher.clear(uri)             cancel a pending one and publish an empty list (document closed)
    publisher.due()                  whether a publish waits for the loop (its delay passed)

Contract
--------
* `compute(uri)` returns ``(version, diagnostics)`` for the document's *current* state, or None when
  the document is no longer open; `send(uri, version, diagnostics)` sends them.
* A burst of `schedule` calls for one document within `delay` of each other ends in one publish,
  `delay` after the last call. `schedule(uri, 0)` publishes on the next turn of the event loop.
* Diagnostics are always computed when they are sent, from the current state, on the event loop
  thread that also applies changes: so every publish carries the newest version, and versions sent
  for a document never go backwards. A publish for a document closed in the meantime is dropped.
* Without a running event loop (e.g. called from a plain test), `schedule` publishes at once.
* Background work in slices (`HcljsonServer._run_slice`) ends its slice when `due()`, as when a
  message waits: a push after an edit during a large document's build waited behind a slice of it
  (5 MB, a push client: 55-70 ms an edit against 9-30 ms; `bench/bench_cold_edits.py --push`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger(__name__)

Compute = Callable[[str], "tuple[int | None, Sequence[Any]] | None"]
Send = Callable[[str, "int | None", Sequence[Any]], None]


class Publisher:
    def __init__(self, compute: Compute, send: Send) -> None:
        self._compute = compute
        self._send = send
        self._pending: dict[str, asyncio.TimerHandle] = {}

    def schedule(self, uri: str, delay: float) -> None:
        self._cancel(uri)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.publish(uri)
            return
        self._pending[uri] = loop.call_later(max(delay, 0.0), self._fire, uri)

    def publish(self, uri: str) -> None:
        self._cancel(uri)
        try:
            computed = self._compute(uri)
            if computed is None:
                return
            version, diagnostics = computed
            self._send(uri, version, diagnostics)
        except Exception:
            log.exception("publishing diagnostics for %s failed", uri)

    def clear(self, uri: str) -> None:
        self._cancel(uri)
        try:
            self._send(uri, None, [])
        except Exception:
            log.exception("clearing diagnostics for %s failed", uri)

    def pending(self, uri: str) -> bool:
        return uri in self._pending

    def due(self) -> bool:
        """Whether a publish is due now (its delay has passed): background work yields to it."""
        if not self._pending:
            return False
        try:
            now = asyncio.get_running_loop().time()
        except RuntimeError:
            return False
        return any(handle.when() <= now for handle in self._pending.values())

    def cancel_all(self) -> None:
        for uri in list(self._pending):
            self._cancel(uri)

    def _fire(self, uri: str) -> None:
        self._pending.pop(uri, None)
        self.publish(uri)

    def _cancel(self, uri: str) -> None:
        handle = self._pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
