"""What the cursor is in, inside a template that is still being typed (for completion).

`context_at(value, offsets, doc_offset) -> CursorContext` looks only at the text before the cursor
(tokenized with `lexer.tokenize`), so it works on input that does not parse: `"${var."`,
`"${lookup(var.m, "`, `"${upp"`. `value`/`offsets` are the decoded string and its offset map
(see `parse`); `doc_offset` is an absolute document offset inside the string's content.

`CursorContext.kind` is one of:

* `"literal"`    — in literal template text, outside any `${`/`%{` (nothing to complete);
* `"string"`     — in the literal text of a quoted string inside an expression;
* `"traversal"`  — after a dot of a traversal: `root` and `steps` (attribute names as `str`,
  literal indexes as `int`/`str`) before the attribute being typed, `prefix` = what is typed of it;
* `"identifier"` — a name being typed where an expression starts (a variable or a function; a
  `namespace` tuple for `provider::aws::ar`), `prefix` = what is typed;
* `"expression"` — an empty expression slot (after `${`, `(`, `,`, an operator, ...);
* `"directive"`  — right after `%{`, where a directive keyword goes (`prefix` as typed);
* `"other"`      — anywhere else (after a complete operand, inside a number, ...).

`call` is the innermost enclosing function call when the cursor is directly in its argument list:
`CallContext(name, arg_index, name_span)` (`arg_index` counts the commas before the cursor).
`prefix_span` is the typed part of the word (absolute), `word_span` the whole word under the cursor.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from . import lexer as lx
from .nodes import Span
from .parse import _frames

__all__ = ["CursorContext", "CallContext", "context_at"]


@dataclass(frozen=True, slots=True)
class CallContext:
    name: str
    arg_index: int
    name_span: Span


@dataclass(frozen=True, slots=True)
class CursorContext:
    kind: str
    prefix: str = ""
    prefix_span: Span | None = None
    word_span: Span | None = None
    root: str | None = None
    root_span: Span | None = None
    steps: tuple = ()
    namespace: tuple[str, ...] = ()
    call: CallContext | None = None


_WORD_REST = re.compile(r"[\w-]*")
_EXPR_SLOT = {"INTERP_OPEN", "LPAR", "COMMA", "LSQB", "LBRACE", "QMARK", "COLON", "EQUALS", "ARROW", "OR", "AND",
              "EQ", "NE", "LT", "GT", "LE", "GE", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "BANG", "IN", "IF", "_NL"}


def _decoded_index(offsets: Sequence[int], n: int, doc_offset: int) -> int:
    """The decoded index of the cursor: the number of decoded characters wholly before it."""
    if doc_offset <= offsets[0]:
        return 0
    if doc_offset >= offsets[n]:
        return n
    return bisect.bisect_right(offsets, doc_offset, 0, n + 1) - 1


def context_at(value: str, offsets: Sequence[int], doc_offset: int) -> CursorContext:
    n = len(value)
    c = _decoded_index(offsets, n, doc_offset)
    lexed = lx.tokenize(value[:c], "template")
    toks = lexed.tokens
    frames = _frames(toks, len(toks))
    if not frames:
        return CursorContext("literal")
    inner = toks[frames[-1]]
    if inner.type == "QUOTE_OPEN":
        return CursorContext("string", call=_call(toks, frames, offsets))
    last = toks[-1]

    def word(start: int) -> tuple[Span, Span]:
        m = _WORD_REST.match(value, c)  # (matches the empty string: never None)
        return (offsets[start], offsets[c]), (offsets[start], offsets[m.end() if m is not None else c])

    call = _call(toks, frames, offsets)
    typing = last.type not in ("TEXT",) and last.end_pos == c and _is_word(last.type)
    if inner.type == "DIRECTIVE_OPEN":
        if last.type == "DIRECTIVE_OPEN":
            return CursorContext("directive", "", (offsets[c], offsets[c]), word(c)[1])
        if typing and len(toks) >= 2 and toks[-2].type == "DIRECTIVE_OPEN":
            ps, ws = word(last.start_pos)
            return CursorContext("directive", last.value, ps, ws)
    if typing:
        ps, ws = word(last.start_pos)
        before = toks[-2] if len(toks) >= 2 else None
        if before is not None and before.type == "DOT":
            root, rspan, steps = _traversal_before(toks, len(toks) - 2, offsets)
            if root is not None:
                return CursorContext("traversal", last.value, ps, ws, root, rspan, steps, call=call)
            return CursorContext("other", last.value, ps, ws, call=call)
        if before is not None and before.type == "DCOLON":
            ns = _namespace_before(toks, len(toks) - 2)
            return CursorContext("identifier", last.value, ps, ws, namespace=ns, call=call)
        if before is None or before.type in _EXPR_SLOT or before.type == "DIRECTIVE_OPEN":
            return CursorContext("identifier", last.value, ps, ws, call=call)
        return CursorContext("other", last.value, ps, ws, call=call)
    here = (offsets[c], offsets[c])
    if last.type == "DOT" and last.end_pos == c:
        root, rspan, steps = _traversal_before(toks, len(toks) - 1, offsets)
        if root is not None:
            return CursorContext("traversal", "", here, word(c)[1], root, rspan, steps, call=call)
    if last.type == "DCOLON" and last.end_pos == c:
        return CursorContext("identifier", "", here, word(c)[1], namespace=_namespace_before(toks, len(toks) - 1), call=call)
    if last.type in _EXPR_SLOT:
        return CursorContext("expression", "", here, word(c)[1], call=call)
    return CursorContext("other", "", here, None, call=call)


def _is_word(t: str) -> bool:
    return t in ("NAME", "TRUE", "FALSE", "NULL", "FOR", "IN", "IF", "ELSE", "ENDIF", "ENDFOR")


def _traversal_before(toks: list, dot: int, offsets) -> tuple[str | None, Span | None, tuple]:
    """Walk back from the DOT at `dot` over `.name`, `.0` and `[literal]` steps to the root name."""
    steps: list = []
    i = dot - 1
    while i >= 0:
        t = toks[i]
        if _is_word(t.type) or t.type == "NUMBER":
            if i >= 1 and toks[i - 1].type == "DOT":
                steps.append(int(t.value) if t.type == "NUMBER" and t.value.isdigit() else t.value)
                i -= 2
                continue
            if t.type == "NUMBER":
                return None, None, ()
            steps.reverse()
            return t.value, (offsets[t.start_pos], offsets[t.end_pos]), tuple(steps)
        if t.type == "RSQB" and i >= 4 and [x.type for x in toks[i - 4:i]] == ["LSQB", "QUOTE_OPEN", "TEXT", "QUOTE_CLOSE"]:
            steps.append(toks[i - 2].value)
            i -= 5
            continue
        if t.type == "RSQB" and i >= 2 and toks[i - 2].type == "LSQB":
            k = toks[i - 1]
            if k.type == "NUMBER" and k.value.isdigit():
                steps.append(int(k.value))
            elif k.type == "STAR":
                steps.append("*")
            else:
                return None, None, ()
            i -= 3
            continue
        if t.type == "STAR" and i >= 1 and toks[i - 1].type == "DOT":
            steps.append("*")
            i -= 2
            continue
        return None, None, ()
    return None, None, ()


def _namespace_before(toks: list, dcolon: int) -> tuple[str, ...]:
    parts: list[str] = []
    i = dcolon
    while i >= 1 and toks[i].type == "DCOLON" and toks[i - 1].type == "NAME":
        parts.append(toks[i - 1].value)
        i -= 2
    parts.reverse()
    return tuple(parts)


def _call(toks: list, frames: list[int], offsets) -> CallContext | None:
    if not frames:
        return None
    k = frames[-1]
    if toks[k].type != "LPAR" or k == 0 or toks[k - 1].type != "NAME":
        return None
    # function name, possibly namespaced
    j = k - 1
    parts = [toks[j].value]
    while j >= 2 and toks[j - 1].type == "DCOLON" and toks[j - 2].type == "NAME":
        j -= 2
        parts.append(toks[j].value)
    parts.reverse()
    depth = 0
    commas = 0
    for t in toks[k + 1:]:
        if t.type in ("LPAR", "LSQB", "LBRACE", "QUOTE_OPEN", "INTERP_OPEN"):
            depth += 1
        elif t.type in ("RPAR", "RSQB", "RBRACE", "QUOTE_CLOSE", "TEMPLATE_CLOSE"):
            depth -= 1
        elif t.type == "COMMA" and depth == 0:
            commas += 1
    return CallContext("::".join(parts), commas, (offsets[toks[j].start_pos], offsets[toks[k - 1].end_pos]))
