"""Position encodings as LSP 3.17 names them, and choosing one with the client.

An LSP `Position.character` counts code units of the negotiated encoding:

- ``"utf-16"``: UTF-16 code units (the default; every client and server must support it),
- ``"utf-8"``: UTF-8 bytes,
- ``"utf-32"``: Unicode code points, i.e. exactly Python `str` indices within a line.

Everything in this package takes an ``encoding`` argument spelled exactly like that. The values of
lsprotocol's ``PositionEncodingKind`` are `str` subclasses with these values, so they work as-is.

`stored_width(text)` bounds a long text's widest character without reading it: what its length in
UTF-8 or UTF-16 can be.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"

#: The encodings we support, in our order of preference for a client that lists none.
ENCODINGS: tuple[str, ...] = (UTF16, UTF8, UTF32)


def check_encoding(encoding: str) -> str:
    """Return the canonical spelling of `encoding`; raise ValueError for an unknown one.

    An unknown encoding is a programming error (the server only uses what `negotiate_encoding`
    returned), so it is reported loudly rather than silently mapped to something else.
    """
    if encoding == UTF16:
        return UTF16
    if encoding == UTF8:
        return UTF8
    if encoding == UTF32:
        return UTF32
    lowered = str(encoding).strip().lower()
    if lowered in ENCODINGS:
        return lowered
    raise ValueError(f"unknown position encoding {encoding!r}; expected one of {', '.join(ENCODINGS)}")


def negotiate_encoding(client_encodings: Iterable[str] | None) -> str:
    """Pick the position encoding for a session (LSP 3.17 `general.positionEncodings`).

    The client lists the encodings it supports in its order of preference; we take the first one we
    support. When the client omits the capability (``None``) or lists nothing we support, the answer
    is ``"utf-16"``, which LSP requires every server to support.
    """
    if client_encodings is None:
        return UTF16
    for candidate in client_encodings:
        if not isinstance(candidate, str):
            continue
        lowered = candidate.strip().lower()
        if lowered in ENCODINGS:
            return lowered
    return UTF16


def stored_width(text: str) -> int:
    """How many bytes CPython stores each character of `text` in, or more (PEP 393: 1, 2 or 4,
    chosen by its widest character; 1 up to U+00FF, 2 up to U+FFFF, lone surrogates included),
    read from the object's size: ~100 bytes of header and a slot per character and one more, so
    exact from a few thousand characters on; 4 (no bound) for a shorter text or an interpreter that
    does not say. A copy CPython may keep with the string (its UTF-8) only makes the size, and so
    this answer (at most 4), larger: a bound on the widest character, never too small.

    Why: to know that a long text is under a size limit (`workspace.files.utf8_size`), or has no
    astral character (`LineIndex.astral_count`), without encoding it (session 19-20: 16-18 ms each
    for a 20 MB document's open)."""
    n = len(text)
    if n < 4096:
        return 4
    try:
        stored = sys.getsizeof(text) // n
    except TypeError:  # (an interpreter without object sizes)
        return 4
    return stored if stored < 4 else 4
