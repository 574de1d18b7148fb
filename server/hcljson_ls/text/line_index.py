"""Offsets <-> LSP positions, in every position encoding; the only encoding-aware code.

Contract
--------
An *offset* is a Python `str` index into the document text (``0 <= offset <= len(text)``).
A *position* is ``(line, character)`` with both zero-based and ``character`` counted in the units
of the encoding (``"utf-16"`` code units by default, ``"utf-8"`` bytes, ``"utf-32"`` code points;
see `hcljson_ls.text.encodings`).

Lines end at ``"\\n"``, ``"\\r\\n"`` or a lone ``"\\r"`` (as LSP says); ``"\\r\\n"`` is one line end.
A text with *k* line ends has *k + 1* lines (the last one possibly empty), so ``""`` has one line.
Other Unicode line separators (U+2028, form feed, ...) are ordinary characters.

Nothing here raises on odd input; it clamps:

- an offset below 0 is 0, above ``len(text)`` is ``len(text)``;
- an offset inside a line terminator (on the ``"\\n"`` of ``"\\r\\n"``) maps to the end of that
  line's content, the same position as the offset of the ``"\\r"``;
- a negative line or character counts as 0; a character past the end of its line is the end of the line's
  content (before the terminator); a line past the last line is the end of the document;
- a character in the middle of a UTF-16 surrogate pair or of a multi-byte UTF-8 sequence is the
  start of that character.

Only an unknown encoding name raises `ValueError` (a programming error).

Lone surrogate code points in a `str` (which a JSON decoder can produce from ``"\\ud800"``) count as
one UTF-16 unit and three UTF-8 bytes, as if encoded with ``surrogatepass``.

Performance
-----------
The text itself is a `TextBuffer` (chunks), so `update` never copies the whole document; `text`
joins it on demand, `buffer` gives slice access without joining.
Line starts live in blocks of a few hundred each; every block carries a *shift* that is added
lazily when it is read (derived from the block's first start, the one list an edit moves). `update` after a splice rescans only the inserted text (plus one character
either side, for ``"\\r\\n"`` joins and splits), rewrites the one block that holds the edit, and
adds the size delta to the shift of each later block: O(block size + number of blocks + inserted
text), independent of the document size for ordinary edits.

Column conversion is O(1) when the whole document is ASCII (``str.isascii`` is O(1) in CPython), or
for UTF-16 when the document has no astral characters; otherwise it is O(column) at C speed.
On long lines (a minified document) a conversion remembers where it ended, so a run of
conversions in ascending order along one line walks that line once in total.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Generator, Iterator, Sequence
from itertools import accumulate
from math import isqrt

from ..steps import run_out
from .buffer import TextBuffer
from .encodings import UTF16, UTF32, check_encoding, stored_width

__all__ = ["LineIndex", "line_bounds_at"]

# One line terminator, longest first so "\r\n" is one match.
_LINE_BREAK = re.compile(r"\r\n?|\n")
# Characters that `str.splitlines` treats as line breaks but LSP does not.
_FOREIGN_BREAKS = ("\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")

_MIN_BLOCK = 512
# How much text `_line_starts` splits at once,
_SCAN_SLICE = 1 << 20
# and `LineIndex.build_steps` in one step (~5 ms of short lines).
_STEP_SLICE = 1 << 18
# Columns from which conversions remember where they ended, so that a run of conversions on one
# long non-ASCII line (a minified document) walks the line once rather than once per conversion.
_ANCHOR_MIN_COLUMN = 512


def _line_starts(text: str) -> array:
    """All line starts of `text`, ascending, starting with 0.

    An `array` of machine integers, built a slice of the text at a time: a `list` of Python ints
    took ~36 B a line (the int objects), and `splitlines` over the whole text one `str` per line
    at once (~30 MB for a 6 MB document of 375,000 short lines); now 8 B a line, and the pieces
    of one slice at a time."""
    return run_out(_line_starts_steps(text, _SCAN_SLICE))


def _line_starts_steps(text: str, every: int) -> Generator[None, None, array]:
    """`_line_starts` as a generator pausing (yielding None) after every slice of `every`
    characters (a text with foreign line separators: in one piece)."""
    starts = array("q", [0])
    if any(ch in text for ch in _FOREIGN_BREAKS):
        starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        return starts
    # C-speed path: splitlines agrees with LSP when no foreign separators are present.
    n = len(text)
    pos = 0
    while pos < n:
        if pos:
            yield
        end = min(n, pos + every)
        if end < n and text[end - 1] == "\r" and text[end] == "\n":
            end += 1  # never split a "\r\n" (only one: "\r\r\n" was split after its second "\r")
        chunk = text[pos:end]
        ends = list(accumulate(map(len, chunk.splitlines(True)), initial=pos))
        # ends[0] is the slice's start; its last end is a line start only after a line end.
        starts.extend(ends[1:] if chunk[-1] in "\r\n" else ends[1:-1])
        pos = end
    return starts


def line_bounds_at(text: str, offsets: Sequence[int]) -> list[tuple[int, int, int]]:
    """For each of `offsets` (each clamped into `text`; ascending is cheapest): its line, where that
    line starts, and where the next one starts (-1: it is the last line), as `LineIndex` counts
    lines (a terminator belongs to its line). Found by counting the terminators in the text from
    the previous offset's line on, without the line starts: for a few diagnostics far into a large
    document not yet indexed, finding every line start of 5 MB is ~35 ms, counting ~3 ms (a file
    with one syntax error near its end: `bench/peer.py`'s 5MB-error). An offset before the previous
    one's line counts from the text's start again."""
    n = len(text)
    out: list[tuple[int, int, int]] = []
    if not offsets:
        return out
    line = start = 0  # (a line start, and its line: where the counting goes on from)
    # Without a "\r" in what is read (up to the end of the last offset's line), only "\n" ends a
    # line: its counts are all there is to take. Not `"\r" in text`: that read the whole text, 0.2
    # ms at 5 MB, on every edit of bench/peer.py's 5MB-undeclared for the one new form it makes
    # (the `limit/too-many` summary, 200 KB in): 0.5 ms of forms a keystroke, now 0.3.
    last = min(max(max(offsets), 0), n)
    newline = text.find("\n", last)
    returns = text.find("\r", 0, n if newline < 0 else newline) >= 0
    for offset in offsets:
        at = 0 if offset < 0 else n if offset > n else offset
        if at < start:
            line = start = 0
        straddles = returns and 0 < at < n and text[at - 1] == "\r" and text[at] == "\n"  # (on the "\n" of a "\r\n")
        if returns:
            line += text.count("\r", start, at) - text.count("\r\n", start, at) - (straddles and at - 1 >= start)
        line += text.count("\n", start, at)
        # The start of its line: after the last "\n" before it, or after a lone "\r" after that one.
        after_newline = max(start, text.rfind("\n", start, at) + 1)
        ret = text.rfind("\r", after_newline, at - 1 if straddles else at) if returns else -1
        start = ret + 1 if ret >= 0 else after_newline
        # The next line's start: after the terminator that ends this line.
        if straddles:
            following = at + 1
        else:
            newline = text.find("\n", at)
            # (this line only, not the rest of the text)
            ret = text.find("\r", at, n if newline < 0 else newline) if returns else -1
            end = ret if ret >= 0 else newline
            following = -1 if end < 0 else end + 2 if text.startswith("\r\n", end) else end + 1
        out.append((line, start, following))
    return out


def _built(index: LineIndex) -> bool:
    """Whether `index` has its line starts (read without `__getattr__`, which would find them)."""
    try:
        object.__getattribute__(index, "_blocks")
    except AttributeError:
        return False
    return True


def _units(segment: str, encoding: str) -> int:
    """Length of `segment` in UTF-16 code units or UTF-8 bytes."""
    if segment.isascii():
        return len(segment)
    if encoding == UTF16:
        return len(segment.encode("utf-16-le", "surrogatepass")) // 2
    return len(segment.encode("utf-8", "surrogatepass"))


def _advance(segment: str, character: int, encoding: str) -> int:
    """How many characters of `segment` fit in `character` units (UTF-16 or UTF-8), stopping at
    the start of a character that the limit would cut. `segment` is at most `character` long."""
    if segment.isascii():
        return len(segment)
    if encoding == UTF16:
        extra = 0  # astral characters fully before the target, one extra unit each
        for m in _ASTRAL.finditer(segment):
            if m.start() + extra >= character:
                break
            extra += 1
        # Between the two halves of a pair, this lands on the pair's first character.
        return min(character - extra, len(segment))
    data = segment.encode("utf-8", "surrogatepass")
    if len(data) <= character:
        return len(segment)
    k = character
    while k > 0 and (data[k] & 0xC0) == 0x80:  # back to the start of a multi-byte character
        k -= 1
    return len(data[:k].decode("utf-8", "surrogatepass"))


def _astral_count(text: str) -> int:
    """Number of characters outside the BMP (each is two UTF-16 code units): none in a text stored
    at 1 or 2 bytes a character (`stored_width`), else counted by encoding it."""
    if text.isascii() or stored_width(text) < 4:
        return 0
    return len(text.encode("utf-16-le", "surrogatepass")) // 2 - len(text)


#: What `LineIndex` computes on first need.
_BUILT = ("_block_size", "_blocks", "_firsts", "_first_lines")
#: How much text `_line_bounds_by_count` counts the line ends of at once.
_COUNT_SLICE = 1 << 16


def _line_bounds_by_count(text: str | TextBuffer, line: int, known: int = 0, start: int = 0) -> tuple[int, int] | None:
    """The start and content end of `line` (at least 1, and at least `known`), found by counting the
    line ends from the start of line `known` (`start`: the text's start by default), a slice at a
    time, without keeping any line start; None past the last line. (A `"\r\n"` is never cut
    between two slices: counted as one line end.) `text` is sliced only: a `TextBuffer` after an
    edit is never joined."""
    n = len(text)
    pos, seen = start, known  # (`seen` line ends before `pos`, at most `line`)
    while True:
        end = min(n, pos + _COUNT_SLICE)
        if end < n and text[end - 1] == "\r" and text[end] == "\n":
            end += 1
        chunk = text[pos:end]
        k = chunk.count("\n")
        returns = chunk.count("\r")
        if returns:
            k += returns - chunk.count("\r\n")
        if seen + k >= line:
            break
        if end >= n:
            return None
        seen, pos = seen + k, end
    first = pos + _line_starts(chunk)[line - seen]  # (after the slice's (line - seen)-th line end)
    return first, _content_end(text, first)


def _content_end(text: str | TextBuffer, start: int) -> int:
    """Where the content of the line starting at `start` ends: at its terminator, else the text's end
    (sliced only, a `_COUNT_SLICE` at a time)."""
    n = len(text)
    at = start
    while at < n:
        piece = text[at : at + _COUNT_SLICE]
        newline = piece.find("\n")
        ret = piece.find("\r", 0, newline if newline >= 0 else len(piece))
        if ret >= 0:
            return at + ret
        if newline >= 0:
            return at + newline
        at += len(piece)
    return n


class LineIndex:
    """Line starts of one text, with offset <-> position conversion and incremental update.

    ``LineIndex(text)`` indexes `text` (a `str` or a `TextBuffer`, which it then owns); `update`
    applies one splice to the text and moves the index with it.
    """

    __slots__ = ("_text", "_block_size", "_blocks", "_firsts", "_first_lines", "_astral", "_anchor", "_asked_size",
                 "_changes", "_counted", "_last_counted")

    def __init__(self, text: str | TextBuffer, *, block_size: int | None = None) -> None:
        """Index `text`. `block_size` (line starts per block) is chosen from the line count unless
        given; tests pass tiny sizes to exercise the multi-block paths."""
        self._reset(text, block_size)

    def _reset(self, text: str | TextBuffer, block_size: int | None = None) -> None:
        # The line starts are found on first need (`__getattr__`), not here: a document opened and
        # diagnosed without a diagnostic to place never needs them then (finding them is 0.1 s of a
        # 20 MB document's open; the server builds them after answering, `DocumentState.prepare`).
        # The first conversions count instead (`_offset_by_count`, below).
        self._text = text if isinstance(text, TextBuffer) else TextBuffer(text)
        self._asked_size = block_size
        self._changes = getattr(self, "_changes", 0) + 1  # (a stepped build of the text before is stale)
        for name in _BUILT:  # (not `hasattr`: it would build the index, through `__getattr__`)
            try:
                delattr(self, name)
            except AttributeError:
                pass
        # Count of astral characters; computed lazily on the first UTF-16 conversion that needs it.
        self._astral: int | None = None
        # (line start, encoding, offset, units): the last long-line conversion; see `_anchor_for`.
        self._anchor: tuple[int, str, int, int] | None = None
        # How many characters conversions have counted line ends through, the line starts not found,
        # and the last line whose start was counted, with that start (kept by an edit after it).
        self._counted = 0
        self._last_counted: tuple[int, int] | None = None

    def __getattr__(self, name: str):
        # Called only for a slot not set yet: one of `_BUILT`, before the first query.
        if name not in _BUILT:
            raise AttributeError(name)
        self._build()
        return object.__getattribute__(self, name)

    def _build(self) -> None:
        self._install(_line_starts(self._text.full()))

    def build_steps(self) -> Iterator[None]:
        """Find the line starts (found on first need otherwise) in steps of `_STEP_SLICE`
        characters, for an owner that answers requests between them (the server, after a large
        document's open: in one piece, 300,000 tiny outputs (15 MB) took 0.3 s). The steps end,
        leaving the index as it is, when anything changed its text or built it meanwhile."""
        if _built(self):
            return  # built already
        changes = self._changes
        scan = _line_starts_steps(self._text.full(), _STEP_SLICE)
        while True:
            try:
                next(scan)
            except StopIteration as done:
                self._install(done.value)
                return
            yield
            if self._changes != changes or _built(self):
                return  # the text changed (found on first need then, from the text as it is) or built meanwhile

    def _install(self, starts: array) -> None:
        block_size = self._asked_size
        size = block_size if block_size and block_size > 0 else max(_MIN_BLOCK, isqrt(len(starts)))
        self._block_size = size
        # Actual line start = block value + shift of its block, where the shift is the block's actual
        # first line start minus its stored one (`_shift`): an edit moves only `_firsts` of later
        # blocks. Blocks are never empty; block 0 always begins with 0.
        self._blocks: list[array] = [starts[i : i + size] for i in range(0, len(starts), size)]  # arrays: 8 B a line
        # Actual first line start of each block (for bisecting offsets) ...
        self._firsts: list[int] = [block[0] for block in self._blocks]
        # ... and the line number of that first line (for bisecting line numbers).
        self._first_lines: list[int] = list(range(0, len(starts), size))

    # ------------------------------------------------------------------ queries

    @property
    def text(self) -> str:
        """The text this index describes, as one `str` (joined once per version after an edit)."""
        return self._text.full()

    @property
    def buffer(self) -> TextBuffer:
        """The text this index describes, for slicing without joining it (see `TextBuffer`)."""
        return self._text

    @property
    def line_count(self) -> int:
        """Number of lines; at least 1 (a trailing line end starts one more, empty, line)."""
        return self._first_lines[-1] + len(self._blocks[-1])

    def line_start(self, line: int) -> int:
        """Offset of the first character of `line` (clamped to ``0 .. line_count - 1``)."""
        if line <= 0:
            return 0
        first_lines = self._first_lines
        b = bisect_right(first_lines, line) - 1
        i = line - first_lines[b]
        block = self._blocks[b]
        if i >= len(block):  # past the last line
            b = len(self._blocks) - 1
            block = self._blocks[b]
            i = len(block) - 1
        return block[i] + self._firsts[b] - block[0]

    def line_end(self, line: int, include_terminator: bool = False) -> int:
        """Offset of the end of `line`'s content (before its terminator unless asked otherwise).

        `line` is clamped like in `line_start`.
        """
        if line < 0:
            line = 0
        text = self._text
        if line + 1 >= self.line_count:
            return len(text)
        nxt = self.line_start(line + 1)
        if include_terminator:
            return nxt
        if nxt >= 2 and text[nxt - 1] == "\n" and text[nxt - 2] == "\r":
            return nxt - 2
        return nxt - 1

    def line_of(self, offset: int) -> int:
        """The line containing `offset` (clamped into the text); a terminator belongs to its line."""
        if offset <= 0:
            return 0
        b = bisect_right(self._firsts, offset) - 1
        return self._first_lines[b] + bisect_right(self._blocks[b], offset - self._shift(b)) - 1

    @property
    def has_line_starts(self) -> bool:
        """Whether the line starts are found already (queries then cost no scan of the text)."""
        return _built(self)

    def starts_through(self, offset: int) -> tuple[list[int], bool]:
        """The line starts from the first through the start of the line after `offset`'s (`offset`
        clamped into the text), and whether they are surely every line start. From the index when it has
        them (or when they reach past half the text: it is built then); else found in the text up to
        there only, the index left as it is: a large document's
        diagnostics shown at its open (the first 1,000 of a code) lie near its start, and finding
        every line start of 5 MB is ~35 ms (the server finds them after answering the open). Starts
        before the cut are exact: a `"\\r\\n"` cut after its `"\\r"` gives a start at the cut only."""
        if _built(self):
            return self.line_starts(), True
        text = self._text.full()
        n = len(text)
        offset = max(0, min(offset, n))
        newline = text.find("\n", offset)
        newline = n if newline < 0 else newline
        ret = text.find("\r", offset, newline)  # (a "\r" only before that "\n": a scan of one line)
        cut = (newline if ret < 0 else ret) + 3  # (past the start after the line's end, "\r\n" included)
        if cut >= n or cut > n // 2:  # (most of them: the index is built, and kept)
            return self.line_starts(), True
        starts = _line_starts(text[:cut])
        if starts[-1] >= cut:
            starts.pop()
        return list(starts), False

    def line_starts(self) -> list[int]:
        """Every line start, ascending, as a list (O(number of lines): `lsp.positions` copies them once)."""
        out: list[int] = []
        for block, first in zip(self._blocks, self._firsts):
            shift = first - block[0]
            out.extend(x + shift for x in block) if shift else out.extend(block)
        return out

    def _line_bounds(self, b: int, i: int) -> tuple[int, int]:
        """(start, content end) of line `i` of block `b`."""
        block = self._blocks[b]
        shift = self._firsts[b] - block[0]
        start = block[i] + shift
        if i + 1 < len(block):
            nxt = block[i + 1] + shift
        elif b + 1 < len(self._blocks):
            nxt = self._firsts[b + 1]
        else:
            return start, len(self._text)
        text = self._text
        if text[nxt - 1] == "\n" and nxt - 2 >= start and text[nxt - 2] == "\r":
            return start, nxt - 2
        return start, nxt - 1

    def _shift(self, b: int) -> int:
        """What to add to the stored line starts of block `b`."""
        return self._firsts[b] - self._blocks[b][0]

    def astral_count(self) -> int:
        """How many astral characters (outside the BMP: two UTF-16 units) the text has; kept across
        updates once computed."""
        return self._astral_total()

    def _astral_total(self) -> int:
        if self._astral is None:
            self._astral = _astral_count(self._text.full())
        return self._astral

    def position(self, offset: int, encoding: str = UTF16) -> tuple[int, int]:
        """The ``(line, character)`` of `offset` in `encoding` units (see the module contract)."""
        if encoding != UTF16:
            encoding = check_encoding(encoding)
        text = self._text
        if offset <= 0:
            return (0, 0)
        if offset > len(text):
            offset = len(text)
        if self._counts():
            return self._position_by_count(offset, encoding)
        b = bisect_right(self._firsts, offset) - 1
        i = bisect_right(self._blocks[b], offset - self._shift(b)) - 1
        line = self._first_lines[b] + i
        start, end = self._line_bounds(b, i)
        if offset > end:
            offset = end
        column = offset - start
        if column == 0 or encoding == UTF32 or text.isascii():
            return (line, column)
        if encoding == UTF16 and self._astral_total() == 0:
            return (line, column)
        if column < _ANCHOR_MIN_COLUMN:
            return (line, _units(text[start:offset], encoding))
        base, base_units = self._anchor_for(start, encoding, offset, -1)
        units = base_units + _units(text[base:offset], encoding)
        self._anchor = (start, encoding, offset, units)
        return (line, units)

    def offset(self, position: tuple[int, int], encoding: str = UTF16) -> int:
        """The offset of ``position = (line, character)`` in `encoding` units, clamped (see above)."""
        if encoding != UTF16:
            encoding = check_encoding(encoding)
        line, character = position
        if line < 0:
            line = 0
        if character < 0:
            character = 0
        if self._counts():
            return self._offset_by_count(line, character, encoding)
        first_lines = self._first_lines
        b = bisect_right(first_lines, line) - 1
        i = line - first_lines[b]
        if i >= len(self._blocks[b]):
            return len(self._text)
        start, end = self._line_bounds(b, i)
        limit = start + character
        if limit >= end:
            limit = end
        text = self._text
        if encoding == UTF32 or limit == start or text.isascii():
            return limit
        if encoding == UTF16 and self._astral_total() == 0:
            return limit
        if character < _ANCHOR_MIN_COLUMN:
            return start + _advance(text[start:limit], character, encoding)
        base, base_units = self._anchor_for(start, encoding, -1, character)
        rest = character - base_units
        segment = text[base : min(end, base + rest)]
        taken = _advance(segment, rest, encoding)
        result = base + taken
        self._anchor = (start, encoding, result, base_units + _units(segment[:taken], encoding))
        return result

    # Before the line starts are found (`_built`), a conversion counts the line ends up to its place
    # instead of finding them all: the first request after a large document's open (a hover, sent as
    # its diagnostics arrive) waited for every line start of the text, 24 ms at 5 MB and ~100 ms at
    # 20 MB, where counting is 1-3 ms (session 19). The server finds them all in the background
    # meanwhile (`build_steps`). A line at or after the last one counted is counted from there (a
    # range's end after its start, and edits at one place sent back to back: the line stays known
    # through an edit after its start); `offset` slices an edited text, never joining it (`position`
    # and `line_and_start` join it, once a version). Once conversions have counted through twice as
    # many characters as the text holds (a fifth of finding every start; a hover's three conversions
    # in the middle of the text fit), the next one finds them all. Edits back to back at 5 MB,
    # without that line kept: +2-3 ms each; with it, what they cost with the line starts found. The
    # same answers (tests/text: the naive model's).

    def line_and_start(self, offset: int) -> tuple[int, int]:
        """The line of `offset` (clamped into the text) and where that line starts; counted before the
        line starts are found (see above): one diagnostic far into a large document, placed after an
        edit, found every line start of 5 MB (24 ms) for it (`lsp.positions`, session 19)."""
        if self._counts():
            line, start, _ = self._bounds_by_count(offset)
            return line, start
        line = self.line_of(offset)
        return line, self.line_start(line)

    def _counts(self) -> bool:
        """Whether a conversion counts line ends (see above): no line starts yet, the budget unspent."""
        return self._counted <= 2 * len(self._text) and not _built(self)

    def _bounds_by_count(self, offset: int) -> tuple[int, int, int]:
        """`line_bounds_at` of `offset` (clamped into the text) in the text, counted against the budget."""
        n = len(self._text)
        offset = 0 if offset < 0 else n if offset > n else offset
        self._counted += offset
        return line_bounds_at(self._text.full(), (offset,))[0]

    def _position_by_count(self, offset: int, encoding: str) -> tuple[int, int]:
        text = self._text.full()
        line, start, following = self._bounds_by_count(offset)
        if following >= 0:  # (an offset inside the line's terminator is at the end of its content)
            end = following - 2 if text.startswith("\r\n", following - 2) and following - 2 >= start else following - 1
            offset = min(offset, end)
        if encoding == UTF32 or offset == start or text.isascii():
            return (line, offset - start)
        return (line, _units(text[start:offset], encoding))

    def _offset_by_count(self, line: int, character: int, encoding: str) -> int:
        text = self._text
        if line == 0:
            bounds: tuple[int, int] | None = (0, _content_end(text, 0))
        else:  # (from the last line counted when this one is not before it: a range's end after its start)
            known = self._last_counted if self._last_counted is not None and self._last_counted[0] <= line else (0, 0)
            bounds = _line_bounds_by_count(text, line, *known)
            self._counted += (len(text) if bounds is None else bounds[0]) - known[1]
            if bounds is not None:
                self._last_counted = (line, bounds[0])
        if bounds is None:
            return len(text)
        start, end = bounds
        limit = min(start + character, end)
        if encoding == UTF32 or limit == start or text.isascii():
            return limit
        return start + _advance(text[start:limit], character, encoding)

    def _anchor_for(self, start: int, encoding: str, offset: int, character: int) -> tuple[int, int]:
        """A known ``(offset, units)`` on the line at `start` at or before the target, for
        walking a long non-ASCII line from there instead of from the line start."""
        anchor = self._anchor
        if anchor is not None and anchor[0] == start and anchor[1] == encoding:
            if (offset >= 0 and anchor[2] <= offset) or (character >= 0 and anchor[3] <= character):
                return anchor[2], anchor[3]
        return start, 0

    # ------------------------------------------------------------------ update

    def update(self, start: int, old_end: int, new_text: str, full_new_text: str | None = None) -> None:
        """Replace ``text[start:old_end]`` by `new_text` and move the index with it.

        Offsets are clamped and a reversed range is normalised. `full_new_text`, when given, is
        what the text must become; if it has not the length such a splice implies, the index is
        rebuilt from it (slow but correct).
        """
        buf = self._text
        n_old = len(buf)
        self._changes += 1
        if start > old_end:
            start, old_end = old_end, start
        start = min(max(start, 0), n_old)
        old_end = min(max(old_end, 0), n_old)
        new_end = start + len(new_text)
        delta = new_end - old_end
        if full_new_text is not None and len(full_new_text) != n_old + delta:
            self._reset(full_new_text, self._asked_size)
            return

        old_part = buf[start:old_end] if self._astral is not None else ""
        buf.splice(start, old_end, new_text)
        if self._last_counted is not None and start <= self._last_counted[1]:
            self._last_counted = None  # (a line start depends on the characters before it and at it only)
        if self._astral is not None:
            if buf.isascii():
                self._astral = 0
            else:
                self._astral += _astral_count(new_text) - _astral_count(old_part)
        self._anchor = None
        try:
            object.__getattribute__(self, "_blocks")
        except AttributeError:  # not built yet: it will be, from the text as it is then
            return

        # Line starts at s depend on the characters at s - 1 and s: the ones in [lo, old_end]
        # of the old text are dropped and those in [lo, new_end] of the new text are rescanned.
        lo = start if start > 0 else 1
        inserted = self._starts_between(lo, new_end)
        b1 = bisect_right(self._firsts, lo) - 1
        b2 = max(bisect_right(self._firsts, old_end) - 1, b1)
        base = self._shift(b1)
        if b1 == b2:
            block = self._blocks[b1]
            i = bisect_left(block, lo - base)
            j = bisect_right(block, old_end - base)
            if not inserted and i == j and delta == 0:
                return  # no line start moved
            removed = j - i
            region = block[:i]
            if inserted:
                region.extend([x - base for x in inserted] if base else inserted)
            if delta:
                region.extend([x + delta for x in block[j:]])
            else:
                region.extend(block[j:])
        else:
            region, removed = self._merged_region(b1, b2, base, lo, old_end, inserted, delta)
        self._replace_blocks(b1, b2, base, region, delta, len(inserted) - removed)

    def _starts_between(self, lo: int, new_end: int) -> list[int]:
        """The line starts in ``[lo, new_end]`` of the text (after a splice that ends at `new_end`)."""
        if new_end < lo:
            return []
        buf = self._text
        scan_end = new_end + 1 if new_end < len(buf) else new_end
        at = lo - 1
        return [e for e in (at + m.end() for m in _LINE_BREAK.finditer(buf[at:scan_end])) if e <= new_end]

    def _merged_region(self, b1: int, b2: int, base: int, lo: int, old_end: int, inserted: list[int],
                       delta: int) -> tuple[array, int]:
        """An edit across blocks `b1`..`b2`: their line starts relative to `base` (block `b1`'s shift)
        without those in ``[lo, old_end]``, with `inserted` and the later ones moved by `delta`;
        and how many were removed."""
        blocks = self._blocks
        region = array("q")
        removed = 0
        for k in range(b1, b2 + 1):
            own = self._shift(k)
            shift = own - base
            for x in blocks[k]:
                actual = x + own
                if actual < lo:
                    region.append(x + shift)
                elif actual <= old_end:
                    removed += 1
                else:
                    region.append(x + shift + delta)
        # The inserted starts go just before the first start that was after the old range.
        cut = bisect_left(region, lo - base)
        region[cut:cut] = array("q", [x - base for x in inserted])
        return region, removed

    def _replace_blocks(self, b1: int, b2: int, base: int, region: array, delta: int, line_delta: int) -> None:
        """Blocks `b1`..`b2` become `region` (line starts relative to `base`), re-chunked; the later
        blocks' first starts move by `delta` and their first lines by `line_delta`."""
        blocks, firsts, first_lines = self._blocks, self._firsts, self._first_lines
        # Absorb the next block when this region became small, so blocks do not fragment.
        hi = b2 + 1
        size = self._block_size
        if len(region) < (size + 3) // 4 and hi < len(blocks):
            shift = self._shift(hi) + delta - base
            region.extend([x + shift for x in blocks[hi]] if shift else blocks[hi])
            hi += 1

        # Re-chunk the region (empty only when all of a later block's starts were removed).
        if len(region) > 2 * size:
            chunks = [region[k : k + size] for k in range(0, len(region), size)]
        elif region:
            chunks = [region]
        else:
            chunks = []
        first_line = first_lines[b1]
        new_first_lines = []
        for chunk in chunks:
            new_first_lines.append(first_line)
            first_line += len(chunk)
        tail = slice(hi, None)
        blocks[b1:] = chunks + blocks[tail]
        # The new chunks keep the base shift; later blocks move by `delta` (their shift is derived).
        if delta:
            firsts[b1:] = [c[0] + base for c in chunks] + [f + delta for f in firsts[tail]]
        else:
            firsts[b1:] = [c[0] + base for c in chunks] + firsts[tail]
        if line_delta:
            first_lines[b1:] = new_first_lines + [f + line_delta for f in first_lines[tail]]
        else:
            first_lines[b1:] = new_first_lines + first_lines[tail]

    def __repr__(self) -> str:
        return f"LineIndex(len={len(self._text)}, lines={self.line_count}, blocks={len(self._blocks)})"
