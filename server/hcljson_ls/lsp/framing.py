"""LSP's base protocol framing, without I/O: bytes in, whole message bodies and problems out.

    reader = FrameReader()
    for event in reader.feed(chunk):       # any chunking of the stream gives the same events
        Body(data)                          # one message's body, exactly as sent (not decoded)
        Problem(text)                       # a header block that could not be read: log it
    Decoded(value)                          # (never made here: a body decoded by `lsp.first_open`)

Contract
--------
A message is a header block (``Name: value`` lines ending in CRLF, or LF alone, then an empty
line) and a body of exactly ``Content-Length`` bytes. Header names are case-insensitive; headers
other than ``Content-Length`` (``Content-Type``) are ignored, and empty lines between messages too.

Nothing on the wire puts the reader out of step for more than the bad message itself:

* A header block that cannot be read (no ``Content-Length``, a length that is not a decimal
  number, negative, given twice with two values, over `MAX_BODY_BYTES`; a line that is no
  ``Name: value``; a header block longer than `MAX_HEADER_BYTES`) gives one `Problem`. The reader
  then skips to the next ``Content-Length`` header it sees, wherever it starts (a body that was not
  announced, or the rest of a body whose length was given too short, is skipped on the way),
  keeping only a few bytes while it skips, so a huge or endless unannounced body costs no memory.
* A length given too long would swallow the next message. A valid JSON body can hold no raw line
  break inside a string and no letters outside one, so ``Content-Length: <digits>`` followed by a
  line break inside a body proves the body ended before it: the body is cut there (a `Problem`,
  then the `Body` of what came before, which the caller answers as usual, with a parse error if it
  is not JSON), and the next message is read from there. When the bytes that have arrived end in
  what may be the start of such a line, the reader waits for more before deciding (a valid JSON
  body never ends so).
* A length over `MAX_BODY_BYTES` is refused before any of the body is kept.

The reader holds at most one body (up to `MAX_BODY_BYTES`) plus the bytes after it that have
already arrived.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The largest body accepted (bytes): larger ones are skipped, never buffered.
MAX_BODY_BYTES = 1 << 30
#: The longest header block accepted (bytes); real ones are under 100.
MAX_HEADER_BYTES = 8192

#: A ``Content-Length`` header anywhere: where the reader starts again after a problem.
_HEADER_START = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
#: A whole ``Content-Length`` header line: inside a body it proves the body's length was wrong.
_HEADER_LINE = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r?\n", re.IGNORECASE)
#: The longest ``Content-Length`` line `_header_line` recognises inside a body (bytes, line break included).
_LONGEST_LINE = 1024
#: RFC 7230's header name (a token).
_NAME = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
_DIGITS = re.compile(rb"[0-9]+\Z")
#: How far past a body's announced end its bytes are searched for a header line, and how far back
#: from the end of what has arrived a cut header line is looked for (`_header_may_follow`).
_OVERLAP = 64


@dataclass(frozen=True, slots=True)
class Body:
    data: bytes


@dataclass(frozen=True, slots=True)
class Problem:
    text: str


@dataclass(frozen=True, slots=True)
class Decoded:
    """A body already decoded (`lsp.first_open` decodes the messages it reads): its JSON value, so
    that the server neither decodes it again nor keeps its bytes (a large `didOpen` is 1x the text)."""

    value: object


Event = Body | Problem | Decoded


class FrameReader:
    """Splits a byte stream into message bodies (see the module docstring)."""

    def __init__(self, max_body: int = MAX_BODY_BYTES, max_header: int = MAX_HEADER_BYTES) -> None:
        self._max_body = max_body
        self._max_header = max_header
        self._buffer = bytearray()
        self._length: int | None = None  # the body's length once its header block has been read
        self._searched = 0  # in body mode: the body's prefix already searched for a header line
        self._skipping = False

    def feed(self, data: bytes) -> list[Event]:
        """The events that `data`, appended to what came before, completes."""
        self._buffer += data
        events: list[Event] = []
        while True:
            if self._skipping:
                if not self._resync(0):
                    return events
            elif self._length is None:
                if not self._read_headers(events):
                    return events
            elif not self._read_body(events):
                return events

    # -- states -----------------------------------------------------------------------------------

    def _resync(self, start: int) -> bool:
        """Skip to the next ``Content-Length`` header at or after `start`; False when none has arrived."""
        found = _HEADER_START.search(self._buffer, start)
        if found is None:
            keep = 32  # a header cut by the end of this chunk (never the bad one before `start`)
            del self._buffer[: max(start, len(self._buffer) - keep)]
            self._skipping = True
            return False
        del self._buffer[: found.start()]
        self._skipping = False
        return True

    def _problem(self, events: list[Event], text: str, restart: int) -> bool:
        events.append(Problem(text))
        self._length = None
        self._resync(restart)
        return not self._skipping

    def _read_headers(self, events: list[Event]) -> bool:
        buffer, position, length = self._buffer, 0, None
        seen = False
        while True:
            end = buffer.find(b"\n", position)
            if end < 0:
                if len(buffer) > self._max_header:
                    return self._problem(events, f"a header block longer than {self._max_header} bytes", 1)
                return False  # the lines read so far are read again with the rest
            line = bytes(buffer[position:end]).rstrip(b"\r")
            line_start, position = position, end + 1
            if not line.strip():
                if not seen:  # blank lines between messages
                    del buffer[:position]
                    position = 0
                    continue
                if length is None:
                    return self._problem(events, "a header block without Content-Length", position)
                del buffer[:position]
                self._length, self._searched = length, 0
                return True
            seen = True
            name, colon, value = line.partition(b":")
            if not colon or not _NAME.match(name):
                return self._problem(events, f"a header line that is not 'Name: value': {_shown(line)}", line_start + 1)
            if name.lower() != b"content-length":
                if name.lower().endswith(b"content-length"):  # the rest of a body, then the next header
                    return self._problem(events, f"a header line that is not 'Name: value': {_shown(line)}", line_start + 1)
                continue
            value = value.strip()
            if not _DIGITS.match(value):
                return self._problem(events, f"a Content-Length that is not a number of bytes: {_shown(value)}", line_start + 1)
            given = int(value)
            if given > self._max_body:
                return self._problem(events, f"a Content-Length of {given} bytes, over the limit of {self._max_body}", line_start + 1)
            if length is not None and given != length:
                return self._problem(events, "two different Content-Length headers", line_start + 1)
            length = given

    def _read_body(self, events: list[Event]) -> bool:
        length, buffer = self._length, self._buffer
        assert length is not None
        # A header line inside the body (bytes already here, up to just past the body) cuts it short.
        window_end = min(len(buffer), length + _OVERLAP)
        found = _header_line(buffer, self._searched, window_end)
        if found is not None and found.start() < length:
            cut = found.start()
            events.append(Problem(f"a Content-Length of {length} bytes, but the next message starts after {cut}"))
            events.append(Body(_take(buffer, cut)))
            self._length = None
            return True
        self._searched = window_end
        if len(buffer) < length or self._header_may_follow(length):
            return False
        events.append(Body(_take(buffer, length)))
        self._length = None
        return True


    def _header_may_follow(self, length: int) -> bool:
        """Whether the bytes from before `length` to the end of what has arrived are the start of a
        header line cut by the end of the chunk (a length given a few bytes too long): then wait."""
        buffer = self._buffer
        for p in range(max(0, len(buffer) - _OVERLAP), length):
            if buffer[p] in b"cC" and _header_prefix(bytes(buffer[p:])):
                return True
        return False


def _header_line(buffer: bytearray, start: int, end: int) -> re.Match[bytes] | None:
    """The first whole ``Content-Length`` line (`_HEADER_LINE`) that ends in ``buffer[start:end]``.

    Such a line ends in a raw line break, which a JSON body holds only between tokens, and a body
    written on one line, as clients write them, holds none: for it this is one `bytes.find`
    (memchr). Only from the first line break on is the case-insensitive `_HEADER_LINE` searched
    for, in one pass at C speed, as it was over every byte before (30-40 ms for a 5.7 MB
    ``didOpen`` in 64 KB chunks, so that the reader fell behind the client's writes and the open
    waited for it). Matching at each line break instead, in Python, cost ~4 us a line: 1.5 s for
    1.6 MB of short lines."""
    newline = buffer.find(b"\n", start, end)
    if newline < 0:
        return None
    return _HEADER_LINE.search(buffer, max(0, newline - _LONGEST_LINE), end)


def _take(buffer: bytearray, size: int) -> bytes:
    """The first `size` bytes of `buffer`, removed from it (copied once: a body can be 5 MB and more)."""
    with memoryview(buffer) as view:
        taken = bytes(view[:size])
    del buffer[:size]
    return taken


_WORD = b"content-length"
_AFTER_WORD = re.compile(rb"[ \t]*(?::[ \t]*(?:[0-9]+[ \t]*\r?)?)?")


def _header_prefix(tail: bytes) -> bool:
    """Whether `tail` is the beginning of a ``Content-Length: <digits>`` line (not a whole one)."""
    tail = tail.lower()
    if len(tail) <= len(_WORD):
        return _WORD.startswith(tail)
    return tail.startswith(_WORD) and _AFTER_WORD.fullmatch(tail, len(_WORD)) is not None


def _shown(text: bytes, limit: int = 60) -> str:
    shown = text[:limit].decode("utf-8", "backslashreplace")
    return repr(shown + ("..." if len(text) > limit else ""))
