"""A document's text kept in chunks, so that a small edit costs the same in any document size.

    TextBuffer(text, chunk=CHUNK) the text, cut into chunks of about `chunk` characters
    len(buf), buf[i], buf[a:b]    like a `str` (offsets are `str` indices; slices with step 1 only)
    buf.find(sub, start, end)     like `str.find`, on `buf[start:end]`
    buf.splice(start, end, new)   `buf[start:end] = new` (offsets clamped, order-normalised)
    buf.full()                    the whole text as one `str`, joined on demand and kept until
                                  the next splice (`str(buf)` is the same)
    buf.isascii()                 O(1)
    readable(text, start, end)    (`str`, start, end): `text[start:end]` where a regex can read it

Contract
--------
Python strings are immutable, so editing one `str` copies all of it: about 1 ms per keystroke in a
5 MB document. Here a splice rewrites one chunk (or the few an edit spans) and moves the start
offsets of the later chunks: O(chunk size + number of chunks), with chunks of `CHUNK` characters
(a 5 MB text has ~150). Reading a slice costs a binary search plus the slice; `full()` joins the
chunks once per version, for the readers that need a real `str` (a full parse, a regex over
everything). A text that was never spliced answers every read from the `str` it was built from.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import cast

__all__ = ["TextBuffer", "CHUNK", "readable"]

CHUNK = 32768


class TextBuffer:
    __slots__ = ("_chunks", "_starts", "_len", "_joined", "_nonascii", "_chunk")

    def __init__(self, text: str = "", chunk: int = CHUNK) -> None:
        self._chunk = max(1, chunk)
        self._len = len(text)
        self._joined: str | None = text
        # The chunks are cut on the first splice (`_chunked`): until then every read is answered by
        # `_joined`, and cutting them at once kept a second copy of every opened document's text
        # (1x its size: 50 MB for a 50 MB document, ~1/15 of the memory target; bench_memory).
        self._chunks: list[str] | None = None
        self._starts: list[int] | None = None
        self._nonascii: int | None = None  # non-ASCII chunks, counted with the chunks

    def _chunked(self) -> tuple[list[str], list[int]]:
        """The chunks and their start offsets, cut from the joined text on first need."""
        chunks, starts = self._chunks, self._starts
        if chunks is None or starts is None:
            text, size, n = self._joined or "", self._chunk, self._len
            chunks = self._chunks = [text[i : i + size] for i in range(0, n, size)] if n > size else [text]
            starts = self._starts = list(range(0, n, size)) if n > size else [0]
            self._nonascii = 0 if text.isascii() else sum(1 for c in chunks if not c.isascii())
        return chunks, starts

    # ---- reading ------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._len

    def __str__(self) -> str:
        return self.full()

    def __repr__(self) -> str:
        return f"TextBuffer(len={self._len}, chunks={len(self._chunks) if self._chunks is not None else 'not cut yet'})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextBuffer):
            other = other.full()
        return isinstance(other, str) and len(other) == self._len and self.full() == other

    __hash__ = None  # type: ignore[assignment]  # mutable

    def full(self) -> str:
        joined = self._joined
        if joined is None:
            joined = self._joined = "".join(self._chunked()[0])
        return joined

    def isascii(self) -> bool:
        joined = self._joined
        if joined is not None:
            return joined.isascii()  # (O(1): a flag of the `str`)
        return self._nonascii == 0

    def __getitem__(self, key):
        joined = self._joined
        if joined is not None:
            return joined[key]
        if isinstance(key, slice):
            start, stop, step = key.indices(self._len)
            if step != 1:
                return self.full()[key]
            return self._slice(start, stop)
        n = self._len
        if key < 0:
            key += n
        if not 0 <= key < n:
            raise IndexError("TextBuffer index out of range")
        chunks, starts = self._chunked()
        c = bisect_right(starts, key) - 1
        return chunks[c][key - starts[c]]

    def _slice(self, start: int, stop: int) -> str:
        if stop <= start:
            return ""
        chunks, starts = self._chunked()
        c = bisect_right(starts, start) - 1
        cs = starts[c]
        chunk = chunks[c]
        if stop <= cs + len(chunk):
            return chunk[start - cs : stop - cs]
        parts = [chunk[start - cs :]]
        c += 1
        while c < len(chunks):
            cs = starts[c]
            chunk = chunks[c]
            if stop <= cs + len(chunk):
                parts.append(chunk[: stop - cs])
                break
            parts.append(chunk)
            c += 1
        return "".join(parts)

    def find(self, sub: str, start: int = 0, end: int | None = None) -> int:
        joined = self._joined
        if joined is not None:
            return joined.find(sub, start, end if end is not None else self._len)
        n = self._len
        start = max(0, start + n if start < 0 else start)
        end = n if end is None else max(0, min(n, end + n if end < 0 else end))
        i = self._slice(start, end).find(sub)
        return i + start if i >= 0 else -1

    # ---- editing ------------------------------------------------------------------------------

    def splice(self, start: int, end: int, new: str) -> None:
        """Replace `self[start:end]` by `new`."""
        n = self._len
        if start > end:
            start, end = end, start
        start = min(max(start, 0), n)
        end = min(max(end, 0), n)
        if start == end and not new:
            return
        chunks, starts = self._chunked()
        c1 = bisect_right(starts, start) - 1
        c2 = bisect_right(starts, end) - 1
        if c2 > c1 and end == starts[c2]:
            c2 -= 1  # the edit ends exactly where chunk c2 begins: it does not touch it
        s1 = starts[c1]
        first, last = chunks[c1], chunks[c2]
        s2 = starts[c2]
        piece = first[: start - s1] + new + last[end - s2 :]
        old = chunks[c1 : c2 + 1]
        size = self._chunk
        if len(piece) > 2 * size:
            repl = [piece[i : i + size] for i in range(0, len(piece), size)]
        elif piece or len(chunks) == c2 - c1 + 1:
            repl = [piece]
        else:
            repl = []  # an emptied chunk disappears (one chunk always remains)
        delta = len(new) - (end - start)
        offs = []
        at = s1
        for p in repl:
            offs.append(at)
            at += len(p)
        tail = starts[c2 + 1 :]
        chunks[c1 : c2 + 1] = repl
        starts[c1:] = offs + ([s + delta for s in tail] if delta else tail)
        self._len = n + delta
        self._joined = None
        self._nonascii = cast(int, self._nonascii) + sum(1 for p in repl if not p.isascii()) - sum(1 for p in old if not p.isascii())


def readable(text: str | TextBuffer, start: int, end: int) -> tuple[str, int, int]:
    """`text[start:end]` as a `str` a regex can read (`pattern.search(*readable(...))`): a `str`
    itself with the bounds unchanged (nothing copied), a `TextBuffer`'s slice from 0 (regexes
    cannot read a buffer; the analysis is given one after an edit)."""
    if type(text) is str:
        return text, start, end
    return text[start:end], 0, end - start
