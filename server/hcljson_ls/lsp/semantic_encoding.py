"""LSP's relative encoding of semantic tokens (the `data` array of a `SemanticTokens` result).

    encode(tokens, line_index, encoding="utf-16", legend=None) -> list[int]

Contract
--------
* `tokens` are `features.semantic_tokens` tokens: sorted by start, non-overlapping, absolute
  half-open offsets, `(start, end, type, modifiers)`.
* The result is `deltaLine, deltaStartChar, length, tokenType, tokenModifiers` per token in the
  given position encoding (`utf-16`, `utf-8`, `utf-32`); a token that spans lines becomes one token
  per line (line terminators are not part of any token). Tokens whose type is not in the legend
  are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..features.semantic_tokens import TOKEN_MODIFIERS_ALL, TOKEN_TYPES_ALL, Token
from ..text.encodings import UTF16
from ..text.line_index import LineIndex
from .positions import Positions


def encode(tokens: Iterable[Token], line_index: LineIndex, encoding: str = UTF16,
           legend: tuple[Sequence[str], Sequence[str]] | None = None) -> list[int]:
    """LSP's relative encoding of `tokens` (sorted, non-overlapping, absolute offsets); see the
    module doc. `legend` defaults to `legend()`. Positions come from one `Positions` sweep: a
    token on one line whose columns are plain character counts costs a few additions."""
    types, mods = legend if legend is not None else (TOKEN_TYPES_ALL, TOKEN_MODIFIERS_ALL)
    type_index = {t: i for i, t in enumerate(types)}
    mod_bit = {m: 1 << i for i, m in enumerate(mods)}
    mod_bits: dict[tuple[str, ...], int] = {}
    data: list[int] = []
    prev_line = 0
    prev_char = 0
    pos = Positions(line_index, encoding)
    position = pos.position
    simple = pos.simple
    text = pos.text
    n = len(text)
    starts = pos.starts
    nlines = len(starts)
    # The sweep: the line holding the current token start, its start and its content end.
    line, line_start, content_end, next_start = -1, 0, -1, 0
    for s, e, kind, modifiers in tokens:
        ti = type_index.get(kind)
        if ti is None or e <= s:
            continue
        bits = mod_bits.get(modifiers)
        if bits is None:
            bits = mod_bits[modifiers] = sum(mod_bit.get(m, 0) for m in set(modifiers))
        if simple and 0 < s and e <= n:
            while s >= next_start and line + 1 < nlines:
                line += 1
                line_start = starts[line]
                if line + 1 < nlines:
                    next_start = starts[line + 1]
                    crlf = next_start - 2 >= line_start and text[next_start - 1] == "\n" and text[next_start - 2] == "\r"
                    content_end = next_start - 2 if crlf else next_start - 1
                else:
                    next_start = n + 1
                    content_end = n
            if e <= content_end:  # one line, plain columns
                col = s - line_start
                if line == prev_line:
                    data += (0, col - prev_char, e - s, ti, bits)
                else:
                    data += (line - prev_line, col, e - s, ti, bits)
                prev_line, prev_char = line, col
                continue
        l1, c1 = position(s)
        l2, c2 = position(e)
        if l1 == l2:
            pieces: Sequence[tuple[int, int, int]] = ((l1, c1, c2 - c1),)
        else:
            pieces = []
            ln, col = l1, c1
            while ln < l2:
                _, end_col = position(line_index.line_end(ln))
                pieces.append((ln, col, end_col - col))
                ln += 1
                col = 0
            pieces.append((l2, 0, c2))
        for ln, col, length in pieces:
            if length <= 0:
                continue
            if ln == prev_line:
                data += (0, col - prev_char, length, ti, bits)
            else:
                data += (ln - prev_line, col, length, ti, bits)
            prev_line, prev_char = ln, col
    return data
