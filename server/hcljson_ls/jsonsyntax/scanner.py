"""Lax JSON scanner: every character of the input lands in exactly one token; never raises.

A token is one lexeme plus the JSON whitespace (`[ \\t\\n\\r]*`) that follows it; a document that starts
with whitespace gets one leading whitespace-only token. Token texts therefore concatenate to the source.
The scanner is one C-level `re.findall` call (the measured fastest way to tokenise in pure Python);
the parser classifies tokens by their first character:

    "  string (double-quoted; an unterminated one stops at the end of its line, or before the
       line's trailing structure: a run of `: , { } [ ]` and blanks that ends the line, see `_OPEN_DQ`)
    '  single-quoted string (an error in JSON, scanned so recovery can go on)
    { } [ ] : , =   punctuation (`=` only so that `"a" = 1` gets a precise message)
    -+.0-9   number (scanned laxly: `01`, `.5`, `1.`, `1e` are one token each, validated by the parser)
    letters, `_`, `$`  word (`true`, `false`, `null`, or an unquoted word such as `True` or a bare key)
    /  comment (`// ...` to the end of the line, `/* ... */`, possibly unterminated)
    whitespace  only as the leading token
    anything else: a single unexpected character
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import cast

WS = " \t\n\r"

# A whole lexeme that is a valid JSON number (RFC 8259); the scanner's number tokens are lax (`01`,
# `.5`, `1e`), both parsers (`parser`, `fastparse`) validate them with this.
VALID_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z").match

# A closed string first; else an unclosed one (`_OPEN_DQ`).
_CLOSED_DQ = r""""[^"\\\n\r]*(?:\\[^\n\r][^"\\\n\r]*)*\""""
# An unclosed string's content: ordinary characters, escapes, `${...}`/`%{...}` template sequences
# (one level of nested braces), and runs of structural characters (`: , { } [ ]` with blanks) that
# go on with more content on the line. A run that ends the line (`: {`, `},`, `],`, `,` ...) is not
# content: it is the line's own structure, which a slip (a deleted closing quote) must not swallow.
# A template sequence left open (`"${format(x, ` being typed) holds the rest of the line: what is typed
# in it is the sequence's, not the line's structure.
# Linear: a run is read once (possessive), a template sequence up to the next brace.
_OPEN_DQ = (r""""(?:[^"\\\n\r:,{}\[\]$%]|\\[^\n\r]|[$%]\{(?:[^{}"\n\r]|\{[^{}"\n\r]*\})*\}"""
            r"""|[$%]\{(?:[^"\\\n\r]|\\[^\n\r])*+|[$%]"""
            r"""|[:,{}\[\] \t]++(?=[^"\n\r:,{}\[\] \t]))*\\?""")
_DQ = "(?:" + _CLOSED_DQ + "|" + _OPEN_DQ + ")"
_SQ = r"""'[^'\\\n\r]*(?:\\[^\n\r][^'\\\n\r]*)*\\?'?"""
_TOKEN = re.compile(
    "(?:" + _DQ  # double-quoted string (maybe unterminated)
    + r"""|[{}\[\]:,=]"""
    + "|" + _SQ  # single-quoted string
    + r"""|[-+]?(?:[0-9]|\.[0-9])(?:[eE][-+]|[0-9A-Za-z_.])*"""  # number, lax
    r"""|[-+]?[A-Za-z_$][A-Za-z0-9_$-]*"""  # word
    r"""|//[^\n\r]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?"""  # comments
    r"""|[ \t\n\r]+"""  # leading whitespace only (elsewhere it is trailing trivia)
    r"""|.)[ \t\n\r]*""",
    re.S,
)


def scan(text: str) -> list[str]:
    """The token texts of `text`, in order; `"".join(scan(text)) == text`."""
    return _TOKEN.findall(text)


# A string token's lexeme, by its opening quote. Each pattern matches every token that starts with
# its quote (an unclosed string runs to the end of the token), so the match is never None: typed as
# such, which `re`'s Optional return would not say.
_Lexeme = Callable[[str], "re.Match[str]"]
STRING_LEXEME: dict[str, _Lexeme] = {
    '"': cast(_Lexeme, re.compile(_DQ).match),
    "'": cast(_Lexeme, re.compile(_SQ).match),
}


def significant_length(tok: str) -> int:
    """Length of the lexeme part of a token (without its trailing whitespace)."""
    c = tok[0]
    if c in WS:
        return 0
    if c == '"' or c == "'":
        return STRING_LEXEME[c](tok).end()
    return len(tok.rstrip(WS))


def tokens(text: str) -> Iterator[tuple[int, int, int, str]]:
    """Yield `(start, lexeme_end, token_end, token_text)` for every token (lossless)."""
    pos = 0
    for tok in scan(text):
        n = len(tok)
        yield pos, pos + significant_length(tok), pos + n, tok
        pos += n
