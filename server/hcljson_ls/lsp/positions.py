"""Many offsets to LSP positions at once (whole-document results: symbols, folding, semantic tokens).

    Positions(line_index, encoding)
      .position(offset) -> (line, character)     exactly `LineIndex.position(offset, encoding)`
      .line(offset) -> int                       the line alone (a binary search)
      .many(offsets) -> (lines, characters)      `position` of each offset, as two lists
      .starts_through(offset) -> (starts, every) the first line starts, through the line after `offset`'s
      .line_and_start(offset) -> (line, start)   its line and where the line starts (the first starts only)
      .simple                                    True when characters are plain code-point columns

Contract
--------
* Results are always those of `text.LineIndex.position` (clamping included: an offset on a line
  terminator is the end of that line's content; outside the text it is clamped); a property test
  checks it on random texts in every encoding.
* One object serves one version of one document: it copies the line starts once (O(lines), on the
  first conversion that needs them: `starts`), then
  each conversion is a binary search plus a subtraction when columns are plain character counts --
  UTF-32, an ASCII text, or UTF-16 without characters outside the BMP -- and
  `LineIndex.position` otherwise (non-ASCII columns in UTF-8, astral characters in UTF-16).
"""

from __future__ import annotations

from bisect import bisect_right

from ..text.encodings import UTF16, UTF32, check_encoding
from ..text.line_index import LineIndex


class Positions:
    __slots__ = ("index", "encoding", "_text", "_starts", "_prefix", "simple", "_crlf")

    def __init__(self, index: LineIndex, encoding: str = UTF16) -> None:
        encoding = check_encoding(encoding)
        self.index = index
        self.encoding = encoding
        self._text: str | None = None  # (the text joined on first need: a conversion near a line's end)
        self._crlf: bool | None = None
        self._starts: list[int] | None = None  # (O(lines): made on first need)
        self._prefix: tuple[list[int], int] | None = None  # (the first line starts, through an offset's line)
        # The index keeps its count of astral characters across edits, its buffer whether it is
        # ASCII: no scan of the text per call.
        self.simple = encoding == UTF32 or index.buffer.isascii() or (encoding == UTF16 and index.astral_count() == 0)

    @property
    def text(self) -> str:
        """The document's text (joined once, on first need)."""
        if self._text is None:
            self._text = self.index.text
        return self._text

    @property
    def size(self) -> int:
        """The text's length (without joining it)."""
        return len(self.index.buffer)

    @property
    def crlf(self) -> bool:
        """Whether the text has a CRLF line end (found on first need)."""
        if self._crlf is None:
            self._crlf = "\r\n" in self.text
        return self._crlf

    @property
    def starts(self) -> list[int]:
        """Every line start (copied from the index on first need)."""
        if self._starts is None:
            self._starts = self.index.line_starts()
        return self._starts

    def starts_through(self, offset: int) -> tuple[list[int], bool]:
        """`LineIndex.starts_through`: the line starts through the start of the line after
        `offset`'s, and whether they are all of them (`starts`); the longest asked is kept."""
        if self._starts is not None:
            return self._starts, True
        if self._prefix is None or self._prefix[1] < offset:
            starts, every = self.index.starts_through(offset)
            if every:
                self._starts = starts
                return starts, True
            self._prefix = (starts, offset)
        return self._prefix[0], False

    def line_and_start(self, offset: int) -> tuple[int, int]:
        """The line of `offset` (clamped into the text) and where it starts: from the first line
        starts only (`starts_through`) while the index has none (the first edit after a large
        document's open, whose shown diagnostics lie near its start, finds no other); past half the
        text, where `starts_through` finds them all, counted (`LineIndex.line_and_start`)."""
        if self._starts is None and not self.index.has_line_starts:
            if offset > self.size // 2 and (self._prefix is None or self._prefix[1] < offset):
                return self.index.line_and_start(offset)
            starts, _ = self.starts_through(offset)
            line = bisect_right(starts, offset) - 1 if offset > 0 else 0
            return line, starts[line]
        index = self.index
        line = index.line_of(offset)
        return line, index.line_start(line)

    def line(self, offset: int) -> int:
        """The line of `offset` (clamped into the text; a terminator belongs to its line)."""
        if offset <= 0:
            return 0
        return bisect_right(self.starts, offset) - 1

    def position(self, offset: int) -> tuple[int, int]:
        if not self.simple:
            return self.index.position(offset, self.encoding)
        if offset <= 0:
            return (0, 0)
        text = self.text
        if offset > len(text):
            offset = len(text)
        starts = self.starts
        line = bisect_right(starts, offset) - 1
        start = starts[line]
        if line + 1 < len(starts):
            nxt = starts[line + 1]
            if offset >= nxt - 1:  # on (or just before) the line terminator: clamp to the content end
                end = nxt - 2 if nxt - 2 >= start and text[nxt - 1] == "\n" and text[nxt - 2] == "\r" else nxt - 1
                if offset > end:
                    offset = end
        return (line, offset - start)

    def many(self, offsets: list[int]) -> tuple[list[int], list[int]]:
        """`position(o)` for every offset, as a list of lines and a list of characters (in bulk:
        comprehensions over C-level binary searches when columns are plain)."""
        if not self.simple:
            pairs = [self.index.position(o, self.encoding) for o in offsets]
            return [p[0] for p in pairs], [p[1] for p in pairs]
        text = self.text
        n = len(text)
        starts = self.starts
        offs = [0 if o < 0 else n if o > n else o for o in offsets]
        lines = [bisect_right(starts, o) - 1 for o in offs]
        chars = [o - starts[ln] for o, ln in zip(offs, lines)]
        if self.crlf:
            # The only offset past its line's content: on the "\n" of a "\r\n" (the end is the "\r").
            for i, o in enumerate(offs):
                if 0 < o < n and text[o] == "\n" and text[o - 1] == "\r" and chars[i] > 0:
                    chars[i] -= 1
        return lines, chars
