"""Serving one client over stdio or TCP: whole messages in, the exit status out.

    serve_stdio(protocol, stdin_fd, stdout, handoff=None) -> exit status   (handoff: what `lsp.early` read first)
    serve_tcp(protocol, host, port) -> exit status
    Inbox.waiting                       messages read and not yet handled (for the background scan)

Contract
--------
Replaces pygls's reading loops, which read stdin one header line at a time through an executor
(each line then waited for the event loop: 3-4 turns per message, each up to a background-scan
slice long) and kept no framing state across a bad header (`lsp.framing`).

* stdio: a reader thread reads stdin in chunks (``os.read`` on the descriptor: no buffered-reader
  lock a daemon thread could hold at exit), splits them with `framing.FrameReader`, and hands each
  whole body to the event loop (`call_soon_threadsafe`), where `HcljsonProtocol.receive` handles it.
  `Inbox` counts the bodies in flight, so a long job on the loop (the background scan) can yield as
  soon as one is waiting.
* TCP: one client; its stream is split by the same `FrameReader` on the loop.
* A framing `Problem` is logged (warning) and the reader goes on with the next message.
* The server ends when ``exit`` arrives (status 0 after ``shutdown``, else 1, as LSP says), or when
  the client's end closes (status 0), or when writing to the client fails (the client is gone:
  status 0). It ends quietly: no traceback, whatever the transport.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from typing import BinaryIO, Protocol

from . import memory_marks, timing
from .early import Handoff
from .framing import Body, Decoded, Event, FrameReader, Problem
from .protocol import HcljsonProtocol
from .switch_interval import prompt_readers

log = logging.getLogger(__name__)

#: How much one read asks for.
CHUNK = 1 << 16
#: A message body this long (bytes) is a phase of its own for `memory_marks`.
LARGE = 1 << 20


class Inbox:
    """How many message bodies have been read off the wire and not yet handled."""

    def __init__(self) -> None:
        self._count = 0
        self._lock = threading.Lock()

    def put(self) -> None:
        with self._lock:
            self._count += 1

    def take(self) -> None:
        with self._lock:
            self._count -= 1

    @property
    def waiting(self) -> bool:
        return self._count > 0


class _Session:
    """What both transports share: handing events to the protocol, and the end."""

    def __init__(self, protocol: HcljsonProtocol, inbox: Inbox) -> None:
        self.protocol = protocol
        self.inbox = inbox
        self.loop = asyncio.get_running_loop()
        self.ended: asyncio.Future[int] = self.loop.create_future()
        protocol.on_exit = self.end

    def end(self, code: int) -> None:
        if not self.ended.done():
            self.ended.set_result(code)

    def handle(self, event: Event | None) -> None:
        """One event from the reader (None: the client's end closed)."""
        if event is None:
            log.info("the client closed the connection")
            return self.end(0)
        if isinstance(event, Problem):
            log.warning("skipped an unreadable message header: %s", event.text)
            return
        try:
            if isinstance(event, Decoded):
                self.protocol.receive_value(event.value)
            else:
                self.protocol.receive(event.data)
        except (BrokenPipeError, ConnectionError):
            log.info("the client is gone")
            self.end(0)


class _Sink(Protocol):
    """Where `_Writer` writes: stdout's binary stream, or a TCP connection (`_StreamAdapter`)."""

    def write(self, data: bytes, /) -> object: ...

    def flush(self) -> object: ...


class _Writer:
    """stdout for pygls: each message written whole and flushed; a closed pipe ends the session."""

    def __init__(self, stream: _Sink, lost: Callable[[], None]) -> None:
        self._stream = stream
        self._lost = lost

    def write(self, data: bytes) -> None:
        try:
            self._stream.write(data)
            self._stream.flush()
        except (BrokenPipeError, ConnectionError, ValueError):  # ValueError: stdout closed
            self._lost()

    def close(self) -> None:
        pass


def serve_stdio(protocol: HcljsonProtocol, inbox: Inbox, stdin_fd: int, stdout: BinaryIO,
                handoff: Handoff | None = None) -> int:
    prompt_readers()  # the reader thread's messages reach a busy loop sooner
    return asyncio.run(_serve_stdio(protocol, inbox, stdin_fd, stdout, handoff))


async def _serve_stdio(protocol: HcljsonProtocol, inbox: Inbox, stdin_fd: int, stdout: BinaryIO,
                       handoff: Handoff | None) -> int:
    session = _Session(protocol, inbox)
    protocol.set_writer(_Writer(stdout, lambda: session.end(0)))
    loop = session.loop

    def post(event: Event | None) -> bool:
        inbox.put()

        def deliver() -> None:
            inbox.take()
            session.handle(event)

        try:
            loop.call_soon_threadsafe(deliver)
        except RuntimeError:  # the loop has closed: the server is ending
            return False
        return True

    def pump() -> None:
        frames = handoff.frames if handoff is not None else FrameReader()
        events = handoff.events if handoff is not None else []  # read by `lsp.early` before us
        events.reverse()
        while events:  # each let go once posted: a large message is not kept for the server's life
            event = events.pop()
            if not post(event) or event is None:
                return
            del event  # (not after the loop: with nothing handed over, there is no `event` to let go)
        while True:
            try:
                chunk = os.read(stdin_fd, CHUNK)
            except OSError as error:
                log.info("reading stdin failed: %s", error)
                chunk = b""
            if not chunk:
                post(None)
                return
            for event in frames.feed(chunk):
                if timing.ENABLED and isinstance(event, Body):
                    timing.body_read(len(event.data))
                if memory_marks.ENABLED and isinstance(event, Body) and len(event.data) > LARGE:
                    memory_marks.mark(f"transport.read ({len(event.data)} bytes)")
                if not post(event):
                    return

    threading.Thread(target=pump, name="lsp-stdin", daemon=True).start()
    return await session.ended


def serve_tcp(protocol: HcljsonProtocol, inbox: Inbox, host: str, port: int) -> int:
    return asyncio.run(_serve_tcp(protocol, inbox, host, port))


async def _serve_tcp(protocol: HcljsonProtocol, inbox: Inbox, host: str, port: int) -> int:
    session = _Session(protocol, inbox)
    connected = False

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connected
        if connected:  # one client per server
            writer.close()
            return
        connected = True
        log.info("client connected from %s", writer.get_extra_info("peername"))
        protocol.set_writer(_Writer(_StreamAdapter(writer), lambda: session.end(0)))
        frames = FrameReader()
        try:
            while not session.ended.done():
                chunk = await reader.read(CHUNK)
                if not chunk:
                    break
                for event in frames.feed(chunk):
                    if timing.ENABLED and isinstance(event, Body):
                        timing.body_read(len(event.data))
                    session.handle(event)
        except (ConnectionError, OSError) as error:
            log.info("the connection failed: %s", error)
        session.handle(None)

    server = await asyncio.start_server(client, host, port)
    log.info("serving on %s", ", ".join(str(s.getsockname()) for s in server.sockets))
    async with server:
        code = await session.ended
    return code


class _StreamAdapter:
    """An asyncio `StreamWriter` as the blocking-style stream `_Writer` expects."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    def write(self, data: bytes) -> None:
        if self._writer.is_closing():
            raise BrokenPipeError
        self._writer.write(data)

    def flush(self) -> None:
        pass
