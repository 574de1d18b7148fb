"""Decoding JSON string tokens with an exact decoded-index -> source-offset map.

`decode(text, abs_start, node) -> Decoded(value, offsets)`:
  * `value` is the decoded string (escapes resolved; `\\uD83D\\uDE00` pairs combined into one character;
    a lone surrogate is kept as that code point; an invalid escape such as `\\x` is kept as the two
    characters `\\x`, already reported by the parser);
  * `offsets[i]` is the absolute document offset of the source text of decoded character `i`, and
    `offsets[len(value)]` is the offset just after the content (the closing quote, or the end of an
    unterminated string). A decoded character's source text therefore spans `offsets[i]:offsets[i+1]`.
For strings without escapes `offsets` is a `range` (no per-character list is built).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .tree import String

_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "'": "'"}
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.|\Z)", re.S)


@dataclass(frozen=True, slots=True)
class Decoded:
    value: str
    offsets: Sequence[int]

    def source_range(self, i: int, j: int) -> tuple[int, int]:
        """Absolute source range of decoded characters `[i, j)`."""
        return self.offsets[i], self.offsets[j]


def decode(text: str, abs_start: int, node: String) -> Decoded:
    """Decode the string token `node` whose absolute start is `abs_start` (see module docstring)."""
    cstart = abs_start + 1
    cend = abs_start + (node.end - node.start) - (1 if node.terminated else 0)
    raw = text[cstart:cend]
    if not node.escaped:
        return Decoded(raw, range(cstart, cend + 1))
    return decode_raw(raw, cstart, node.quote)


def decode_raw(raw: str, cstart: int, quote: str = '"') -> Decoded:
    """Decode string content `raw` (without quotes) that starts at absolute offset `cstart`."""
    out: list[str] = []
    offs: list[int] = []
    pos = 0
    for m in _ESCAPE.finditer(raw):
        s = m.start()
        if s > pos:
            out.append(raw[pos:s])
            offs.extend(range(cstart + pos, cstart + s))
        esc = m.group()
        if len(esc) == 6:  # \uXXXX
            out.append(chr(int(esc[2:], 16)))
            offs.append(cstart + s)
        elif len(esc) == 2 and esc[1] in _SIMPLE and (esc[1] != "'" or quote == "'"):
            out.append(_SIMPLE[esc[1]])
            offs.append(cstart + s)
        else:  # invalid escape: keep it as written
            out.append(esc)
            offs.extend(range(cstart + s, cstart + s + len(esc)))
        pos = m.end()
    if pos < len(raw):
        out.append(raw[pos:])
        offs.extend(range(cstart + pos, cstart + len(raw)))
    offs.append(cstart + len(raw))
    value = "".join(out)
    if len(value) != len(offs) - 1:  # pragma: no cover - invariant
        raise AssertionError("decode offsets out of step")
    return _combine_surrogates(value, offs)


_HIGH_SURROGATE = re.compile("[\ud800-\udbff]")


def _combine_surrogates(value: str, offs: list[int]) -> Decoded:
    """Join `\\uD83D\\uDE00`-style pairs into one character (offset of the high half)."""
    if _HIGH_SURROGATE.search(value) is None:  # one C-level scan (the `any` over characters was ~half a decode)
        return Decoded(value, offs)
    chars: list[str] = []
    new_offs: list[int] = []
    i = 0
    n = len(value)
    while i < n:
        ch = value[i]
        if "\ud800" <= ch <= "\udbff" and i + 1 < n and "\udc00" <= value[i + 1] <= "\udfff":
            chars.append(chr(0x10000 + ((ord(ch) - 0xD800) << 10) + (ord(value[i + 1]) - 0xDC00)))
            new_offs.append(offs[i])
            i += 2
            continue
        chars.append(ch)
        new_offs.append(offs[i])
        i += 1
    new_offs.append(offs[n])
    return Decoded("".join(chars), new_offs)
