"""Mode-aware tokenizer for the HCL native template and expression language.

Contract
--------
`tokenize(value, mode)` scans a **decoded** string (positions are decoded-character indices, not
document offsets) and returns a `Lexed(tokens, diagnostics, segments)`:

* `tokens`: `lark.Token`s whose `type` is one of the terminals declared in
  `grammars/template.lark` (and `grammars/types.lark` for `mode="type"`), with `start_pos` and
  `end_pos` set. Whitespace and comments produce no tokens; newlines produce `_NL` only where HCL
  makes them significant (directly inside an object constructor `{ ... }`).
* `mode`: `"template"` (the whole string is a template: literal text, `${`, `%{`), `"expression"`
  (a bare expression, e.g. a static traversal) or `"type"` (a type constraint: type keywords are
  lexed as `TY_*` terminals).
* `segments` (template mode only): the top-level pieces, as `(kind, first, stop, closed)` token
  index ranges with kind `"text"`, `"interp"` or `"directive"`; used for error recovery.
* Lexical problems (invalid characters, bad escapes in nested quoted strings, multi-line quoted
  strings) are reported in `diagnostics` with decoded-index ranges; the offending character is
  still emitted as an `INVALID` token so that the parser stops there.

Modes follow hclsyntax's scanner: brace counting decides where an interpolation ends (`}` closes
the innermost `{`, `${` or `%{`; unclosed `(`/`[` inside are abandoned), `"` inside an expression
opens a quoted template with backslash escapes, and `$${` / `%%{` are literal `${` / `%{`.
`for`, `in`, `if` are keywords only where a `for` expression or directive needs them; `true`,
`false`, `null` are literals except after a dot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token

from ..diagnostic import ERROR, Diagnostic

# token type names (must match the terminals of template.lark / types.lark)
TEXT = "TEXT"
INTERP_OPEN = "INTERP_OPEN"
DIRECTIVE_OPEN = "DIRECTIVE_OPEN"
TEMPLATE_CLOSE = "TEMPLATE_CLOSE"
QUOTE_OPEN = "QUOTE_OPEN"
QUOTE_CLOSE = "QUOTE_CLOSE"
NAME = "NAME"
NUMBER = "NUMBER"
INVALID = "INVALID"
NL = "_NL"

_PUNCT = {
    "...": "ELLIPSIS", "::": "DCOLON", "=>": "ARROW", "==": "EQ", "!=": "NE", "<=": "LE", ">=": "GE",
    "&&": "AND", "||": "OR", "+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH", "%": "PERCENT",
    "<": "LT", ">": "GT", "!": "BANG", "?": "QMARK", ":": "COLON", "=": "EQUALS", ".": "DOT",
    ",": "COMMA", "(": "LPAR", ")": "RPAR", "[": "LSQB", "]": "RSQB", "{": "LBRACE", "}": "RBRACE",
}
_LITERAL_WORDS = {"true": "TRUE", "false": "FALSE", "null": "NULL"}
DIRECTIVE_WORDS = {"if": "IF", "else": "ELSE", "endif": "ENDIF", "for": "FOR", "endfor": "ENDFOR"}
TYPE_WORDS = {
    "string": "TY_STRING", "number": "TY_NUMBER", "bool": "TY_BOOL", "any": "TY_ANY",
    "list": "TY_LIST", "set": "TY_SET", "map": "TY_MAP", "tuple": "TY_TUPLE", "object": "TY_OBJECT",
    "optional": "TY_OPTIONAL",
}

#: HCL's identifier token as the lexer scans it: a letter or `_` (not a digit), then word characters
#: and `-`. The one copy of the pattern; a whole name is checked by `terraform.catalogue.IDENTIFIER`
#: (exact about Unicode classes: `\w` also takes `²`, which no identifier holds).
IDENTIFIER_PATTERN = r"[^\W\d][\w-]*"

_EXPR_RE = re.compile(
    r"""
    (?P<ws>[ \t\r]+)
  | (?P<nl>\n)
  | (?P<comment>\#[^\n]*|//[^\n]*|/\*.*?\*/)
  | (?P<number>[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
  | (?P<name>"""
    + IDENTIFIER_PATTERN
    + r""")
  | (?P<strip>~\})
  | (?P<bad>\*\*|/\*)
  | (?P<punct>\.\.\.|::|=>|==|!=|<=|>=|&&|\|\||[-+*/%<>!?:=.,()\[\]{}])
  | (?P<bad1>[&|^~;'`\u201c\u201d])
  | (?P<quote>")
    """,
    re.VERBOSE | re.DOTALL,
)
_FOR_AHEAD = re.compile(r"\s*for(?![\w-])")
_TOP_SPECIAL = re.compile(r"\$\$\{|%%\{|\$\{~?|%\{~?")
_Q_SPECIAL = re.compile(r"\$\$\{|%%\{|\$\{~?|%\{~?|\\|\"|\n")
_HEX = re.compile(r"[0-9A-Fa-f]+")

_BAD_DETAIL = {
    "&": ("Unsupported operator", 'Bitwise operators are not supported. Did you mean boolean AND ("&&")?'),
    "|": ("Unsupported operator", 'Bitwise operators are not supported. Did you mean boolean OR ("||")?'),
    "^": ("Unsupported operator", "Bitwise operators are not supported."),
    "~": ("Invalid character", 'A "~" strip marker is only valid right after "${" or "%{", or right before the closing "}".'),
    "**": ("Unsupported operator", '"**" is not a supported operator. Exponentiation is not supported as an operator.'),
    ";": ("Invalid character", 'The ";" character is not valid. Use commas to separate items in collection values.'),
    "'": ("Invalid character", 'Single quotes are not valid. Use double quotes (") to enclose strings.'),
    "`": ("Invalid character", 'The "`" character is not valid here.'),
    "\u201c": ("Invalid character", '"Curly quotes" are not valid here. Replace the character with a "straight quote".'),
    "\u201d": ("Invalid character", '"Curly quotes" are not valid here. Replace the character with a "straight quote".'),
    "/*": ("Unterminated comment", 'There is no "*/" to close this comment before the end of the string.'),
}


@dataclass(frozen=True, slots=True)
class Lexed:
    tokens: list
    diagnostics: list
    segments: list


def _tok(type_: str, value: str, start: int, end: int) -> Token:
    return Token(type_, value, start, None, None, None, None, end)


def _diag(start: int, end: int, code: str, summary: str, detail: str) -> Diagnostic:
    return Diagnostic(start, end, ERROR, code, summary, detail)


class _Frame:
    """One open bracket/sequence: kind, newline significance, `for` keyword state."""

    __slots__ = ("kind", "nl", "fstate")

    def __init__(self, kind: str, nl: bool) -> None:
        self.kind = kind  # interp | directive | brace | paren | bracket | quoted | base
        self.nl = nl
        self.fstate = 0  # 0: no for; 1: after `for`; 2: after `in`; 3: after `if`


def tokenize(value: str, mode: str = "template") -> Lexed:
    """The tokens of `value` in `mode` (see the module's contract). One loop over the expression
    tokens, with the frames of open brackets on a stack; template text is scanned a part at a time
    (`_top_level_part`, `_quoted_part`)."""
    toks: list[Token] = []
    diags: list[Diagnostic] = []
    segments: list[tuple[str, int, int, bool]] = []
    n = len(value)
    pos = 0
    stack: list[_Frame] = []
    if mode != "template":
        stack.append(_Frame("base", False))
    type_mode = mode == "type"
    prev = ""  # type of the last emitted token
    seg_start = -1
    append = toks.append

    while pos < n:
        if not stack:
            pos = _top_level_part(value, pos, toks, segments, stack)
            if stack:  # a `${` or `%{` opened
                seg_start = len(toks) - 1
                prev = toks[-1].type
            continue

        top = stack[-1]
        if top.kind == "quoted":
            pos = _quoted_part(value, pos, toks, stack, diags)
            prev = toks[-1].type if toks else ""
            continue

        # ---- expression tokens
        m = _EXPR_RE.match(value, pos)
        if m is None:  # any other character (e.g. `$`, `@`, a control character)
            pos = _invalid(toks, diags, value[pos], pos, pos + 1)
            prev = INVALID
            continue
        kind = m.lastgroup or ""  # (every alternative of the pattern is a named group)
        end = m.end()
        text = m.group()
        if kind == "ws" or kind == "comment":
            pos = end
            continue
        if kind == "nl":
            if top.nl and prev != NL and prev != "LBRACE" and prev != "COMMA":
                append(_tok(NL, "\n", pos, end))
                prev = NL
            pos = end
            continue
        if kind == "number":
            append(_tok(NUMBER, text, pos, end))
        elif kind == "name":
            append(_tok(NAME if prev == "DOT" else _word(text, prev, top, type_mode), text, pos, end))
        elif kind == "strip":
            i = _innermost_unabandoned(stack)
            if i >= 0 and stack[i].kind in ("interp", "directive"):
                del stack[i:]
                append(_tok(TEMPLATE_CLOSE, text, pos, end))
            else:
                end = _invalid(toks, diags, "~", pos, pos + 1)
        elif kind == "bad" or kind == "bad1":
            end = _invalid(toks, diags, text, pos, n if text == "/*" else end)
        elif kind == "quote":
            append(_tok(QUOTE_OPEN, text, pos, end))
            stack.append(_Frame("quoted", False))
        else:  # punct
            t = _PUNCT[text]
            if t in _BRACKETS:
                t = _bracket(t, stack, value, end)
            append(_tok(t, text, pos, end))
        prev = toks[-1].type
        pos = end
        if prev == TEMPLATE_CLOSE and not stack and mode == "template":
            segments.append(_sequence(toks, seg_start, True))

    if mode == "template" and stack:
        segments.append(_sequence(toks, seg_start, False))
    return Lexed(toks, diags, segments)


def _sequence(toks: list[Token], first: int, closed: bool) -> tuple[str, int, int, bool]:
    """The segment of the `${` or `%{` sequence whose opening token is `toks[first]`, to the last token."""
    return ("interp" if toks[first].type == INTERP_OPEN else "directive", first, len(toks), closed)


_UNUSED_CHARACTER = ("Invalid character", "This character is not used within the language.")


def _invalid(toks: list[Token], diags: list, text: str, start: int, end: int) -> int:
    """An INVALID token for `text` at `start`..`end`, reported (as `_BAD_DETAIL` says, or as a
    character the language does not use); returns `end`."""
    summary, detail = _BAD_DETAIL.get(text, _UNUSED_CHARACTER)
    code = "template/unsupported-operator" if summary == "Unsupported operator" else "template/invalid-character"
    diags.append(_diag(start, end, code, summary, detail))
    toks.append(_tok(INVALID, text, start, end))
    return end


_BRACKETS = frozenset(("LPAR", "LSQB", "LBRACE", "RPAR", "RSQB", "RBRACE"))


def _bracket(t: str, stack: list[_Frame], value: str, end: int) -> str:
    """Open or close a frame for the bracket `t` (its token ends at `end`); its terminal: `t`, or
    TEMPLATE_CLOSE for a `}` that closes a `${` or `%{`. A `{` holds significant newlines unless a
    `for` follows it; a `)` or `]` closes only its own kind of frame."""
    if t == "LPAR":
        stack.append(_Frame("paren", False))
    elif t == "LSQB":
        stack.append(_Frame("bracket", False))
    elif t == "LBRACE":
        stack.append(_Frame("brace", _FOR_AHEAD.match(value, end) is None))
    elif t == "RPAR" or t == "RSQB":
        if stack[-1].kind == ("paren" if t == "RPAR" else "bracket"):
            stack.pop()
    else:  # RBRACE
        i = _innermost_unabandoned(stack)
        if i >= 0 and stack[i].kind in ("interp", "directive", "brace"):
            closing = stack[i].kind
            del stack[i:]
            if closing != "brace":
                return TEMPLATE_CLOSE
    return t


def _top_level_part(value: str, pos: int, toks: list[Token], segments: list, stack: list[_Frame]) -> int:
    """Top-level template text from `pos` (a TEXT token, its segment) and the `${` or `%{` that ends
    it (its token, a frame opened); where the expression starts (the end of `value` without one)."""
    start = pos
    text, pos, m = _text(value, pos, _TOP_SPECIAL, [])  # (nothing is reported at the top level)
    if pos > start:
        segments.append(("text", len(toks), len(toks) + 1, True))
        toks.append(_tok(TEXT, text, start, pos))
    if m is None:
        return pos
    s = m.group()
    kind = "interp" if s[0] == "$" else "directive"
    toks.append(_tok(INTERP_OPEN if kind == "interp" else DIRECTIVE_OPEN, s, pos, m.end()))
    stack.append(_Frame(kind, False))
    return m.end()


def _quoted_part(value: str, pos: int, toks: list[Token], stack: list[_Frame], diags: list) -> int:
    """The text of a quoted template from `pos` (a TEXT token) and what ends it: the closing `"`
    (its frame closed) or a `${` or `%{` (a frame opened); where the lexer goes on."""
    start = pos
    text, pos, m = _text(value, pos, _Q_SPECIAL, diags)
    if pos > start:
        toks.append(_tok(TEXT, text, start, pos))
    if m is None:
        return pos
    s = m.group()
    if s == '"':
        stack.pop()
        toks.append(_tok(QUOTE_CLOSE, s, pos, pos + 1))
        return pos + 1
    toks.append(_tok(INTERP_OPEN if s[0] == "$" else DIRECTIVE_OPEN, s, pos, m.end()))
    stack.append(_Frame("interp" if s[0] == "$" else "directive", False))
    return m.end()


def _text(value: str, pos: int, special: re.Pattern, diags: list) -> tuple[str, int, re.Match | None]:
    """Template text from `pos` up to the next match of `special` that stops it: its decoded text
    (`$${` and `%%{` give `${` and `%{`), where it stops, and the match that stops it (None at the end
    of `value`). At the top level (`_TOP_SPECIAL`) only `${` or `%{` stops it; in a quoted template
    inside an expression (`_Q_SPECIAL`) escapes are decoded, a line break is reported, and `"` stops
    it too."""
    buf: list[str] = []
    while True:
        m = special.search(value, pos)
        if m is None:
            buf.append(value[pos:])
            return "".join(buf), len(value), None
        s = m.group()
        buf.append(value[pos:m.start()])
        if s == "$${" or s == "%%{":
            buf.append(s[1:])
            pos = m.end()
            continue
        if s == "\n":
            diags.append(_diag(m.start(), m.end(), "template/multiline-string", "Invalid multi-line string",
                               "Quoted strings may not be split over multiple lines. To produce a multi-line "
                               "string, use the \\n escape to represent a newline character."))
            buf.append("\n")
            pos = m.end()
            continue
        if s == "\\":
            pos = _escape(value, m.start(), buf, diags)
            continue
        return "".join(buf), m.start(), m


def _word(text: str, prev: str, top: _Frame, type_mode: bool) -> str:
    """The terminal of a name not after a dot: a directive word after `%{`, `for`/`in`/`if` where a
    `for` needs them (moving `top.fstate` on), a literal, a type keyword in a type, else NAME."""
    if prev == DIRECTIVE_OPEN and top.kind == "directive":
        t = DIRECTIVE_WORDS.get(text, NAME)
        if t == "FOR":
            top.fstate = 1
        return t
    if text == "for" and (prev == "LSQB" or prev == "LBRACE") and top.kind in ("bracket", "brace"):
        top.fstate = 1
        return "FOR"
    if text == "in" and top.fstate == 1:
        top.fstate = 2
        return "IN"
    if text == "if" and top.fstate == 2 and top.kind != "directive":
        top.fstate = 3
        return "IF"
    if text in _LITERAL_WORDS:
        return _LITERAL_WORDS[text]
    if type_mode and text in TYPE_WORDS:
        return TYPE_WORDS[text]
    return NAME


def _innermost_unabandoned(stack: list[_Frame]) -> int:
    """The index of the innermost frame that a `}` or `~}` can close, -1 if none: brace counting as
    hclsyntax does, unclosed `(` and `[` are abandoned."""
    i = len(stack) - 1
    while i >= 0 and stack[i].kind in ("paren", "bracket"):
        i -= 1
    return i


_SIMPLE_ESC = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def _escape(value: str, pos: int, buf: list, diags: list) -> int:
    """Decode one backslash escape of a nested quoted string at `pos`; return the next index."""
    if pos + 1 >= len(value):
        diags.append(_diag(pos, pos + 1, "template/invalid-escape", "Invalid escape sequence",
                           "Backslash must be followed by an escape sequence selector character."))
        return pos + 1
    c = value[pos + 1]
    if c in _SIMPLE_ESC:
        buf.append(_SIMPLE_ESC[c])
        return pos + 2
    if c in "uU":
        want = 4 if c == "u" else 8
        m = _HEX.match(value, pos + 2, pos + 2 + want)
        if m is None or len(m.group()) != want:
            got = m.end() if m else pos + 2
            diags.append(_diag(pos, got, "template/invalid-escape", "Invalid escape sequence",
                               f"The \\{c} escape sequence must be followed by {'four' if want == 4 else 'eight'} hexadecimal digits."))
            return got
        cp = int(m.group(), 16)
        if cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
            diags.append(_diag(pos, m.end(), "template/invalid-escape", "Invalid escape sequence",
                               f"Cannot encode character U+{cp:04x} in UTF-8."))
        else:
            buf.append(chr(cp))
        return m.end()
    diags.append(_diag(pos, pos + 2, "template/invalid-escape", "Invalid escape sequence",
                       f'The symbol "{c}" is not a valid escape sequence selector.'))
    buf.append(c)
    return pos + 2
