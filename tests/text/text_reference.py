"""A deliberately naive, character-by-character model of LSP positions, to check LineIndex against.

It shares no code with `hcljson_ls.text`: line ends and column widths are worked out one
character at a time, straight from the LSP specification.
"""

from __future__ import annotations


def lines(text: str) -> list[tuple[int, int, int]]:
    """(start, content_end, next_start) of every line."""
    out = []
    start = i = 0
    while i < len(text):
        c = text[i]
        if c == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            out.append((start, i, i + 2))
            i += 2
            start = i
        elif c in "\r\n":
            out.append((start, i, i + 1))
            i += 1
            start = i
        else:
            i += 1
    out.append((start, len(text), len(text)))
    return out


def width(ch: str, encoding: str) -> int:
    if encoding == "utf-32":
        return 1
    if encoding == "utf-16":
        return 2 if ord(ch) > 0xFFFF else 1
    return len(ch.encode("utf-8", "surrogatepass"))


def position(text: str, offset: int, encoding: str) -> tuple[int, int]:
    offset = min(max(offset, 0), len(text))
    for number, (start, end, _next) in enumerate(lines(text)):
        if offset < _next or number == len(lines(text)) - 1:
            column = sum(width(c, encoding) for c in text[start : min(offset, end)])
            return number, column
    raise AssertionError("unreachable")


def offset(text: str, line: int, character: int, encoding: str) -> int:
    line, character = max(line, 0), max(character, 0)
    all_lines = lines(text)
    if line >= len(all_lines):
        return len(text)
    start, end, _next = all_lines[line]
    units, o = 0, start
    while o < end and units + width(text[o], encoding) <= character:
        units += width(text[o], encoding)
        o += 1
    return o


def line_starts(text: str) -> list[int]:
    return [start for start, _end, _next in lines(text)]
