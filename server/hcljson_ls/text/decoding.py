"""Bytes that are meant to be UTF-8 text, and where they are not, as people count places.

    decode_utf8(data) -> str            the text; raises `NotUtf8` at the first bad byte
    NotUtf8(byte, line, column)         1-based line and column (in characters) of that byte

Contract
--------
* The text is decoded exactly (no newline translation, a byte order mark kept).
* `NotUtf8` locates the first byte that does not decode: its line counts line ends as LSP and
  `LineIndex` do (``\\n``, ``\\r\\n`` or a lone ``\\r``), its column counts the characters before it
  on its line, plus one. `str(error)` is ``not UTF-8 text (byte 0xff at line 3, column 5)``.
"""

from __future__ import annotations

import re

__all__ = ["NotUtf8", "decode_utf8"]

_LINE_END = re.compile(rb"\r\n?|\n")


class NotUtf8(ValueError):
    def __init__(self, byte: int, line: int, column: int) -> None:
        super().__init__(f"not UTF-8 text (byte 0x{byte:02x} at line {line}, column {column})")
        self.byte, self.line, self.column = byte, line, column


def decode_utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        ends = list(_LINE_END.finditer(before))
        line_start = ends[-1].end() if ends else 0
        column = len(before[line_start:].decode("utf-8")) + 1
        raise NotUtf8(data[error.start], len(ends) + 1, column) from None
