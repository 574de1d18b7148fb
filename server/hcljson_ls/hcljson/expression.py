"""HCL static analyses over decoded JSON expressions, and the strings inside an expression.

    static_list(expr) -> tuple[Expression, ...] | None        the elements, when `expr` is an array
    static_map(expr)  -> tuple[(key Expression, value Expression), ...] | None   when an object
    static_string(text, expr) -> strings.Decoded | None        the content of a string expression
                                                               (static call / static traversal
                                                               source, for the template layer)
    string_mode_of(expr) -> str | None                         how a string `expr` is read
    iter_strings(expr) -> Iterator[StringRef]                  every string (keys too), with mode

Nothing here parses templates or traversals: later layers do, on the decoded string and its
offsets map (`jsonsyntax.strings.decode`). Sub-expressions get the mode their position implies
(an element of a `TRAVERSAL_LIST` is a `TRAVERSAL`, a key of a `TRAVERSAL_MAP` too, ...).
All walks are iterative.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..jsonsyntax import strings
from ..jsonsyntax.tree import ARRAY, OBJECT, STRING, Container, String
from .model import Expression
from .schema import (
    AT_DEEPER,
    AT_DEEPER_KEY,
    AT_ELEMENT,
    AT_KEY,
    AT_ROOT,
    AT_VALUE,
    EXPRESSION,
    KEYWORD_OR_TRAVERSAL_LIST,
    LITERAL,
    LITERAL_STRING,
    MAP_OF_LITERAL_STRINGS,
    NATIVE,
    NATIVE_LIST,
    TRAVERSAL,
    TRAVERSAL_LIST,
    TRAVERSAL_MAP,
    string_mode,
)

# Mode of an element of a static list, per the list's mode.
_ELEMENT_MODE = {
    EXPRESSION: EXPRESSION,
    LITERAL: LITERAL,
    NATIVE: EXPRESSION,
    TRAVERSAL_LIST: TRAVERSAL,
    KEYWORD_OR_TRAVERSAL_LIST: TRAVERSAL,
    NATIVE_LIST: NATIVE,
}
# Modes of (key, value) of a static map, per the map's mode.
_PAIR_MODE = {
    EXPRESSION: (EXPRESSION, EXPRESSION),
    LITERAL: (LITERAL, LITERAL),
    NATIVE: (EXPRESSION, EXPRESSION),
    TRAVERSAL_MAP: (TRAVERSAL, TRAVERSAL),
    MAP_OF_LITERAL_STRINGS: (LITERAL_STRING, LITERAL_STRING),
}


@dataclass(frozen=True, slots=True)
class StringRef:
    """A string inside an expression: its node, absolute range, how it is read (`schema.STRING_*`,
    or None where the mode expects no string) and whether it is an object key."""

    node: String
    start: int
    end: int
    mode: str | None
    is_key: bool


def static_list(expr: Expression) -> tuple[Expression, ...] | None:
    """The elements of an array expression (HCL static list), or None when it is not an array."""
    node = expr.node
    if node.kind != ARRAY:
        return None
    inner = expr.start
    mode = _ELEMENT_MODE.get(expr.mode, expr.mode)
    return tuple(
        Expression(m.value, inner + m.value.start, inner + m.value.end, mode)
        for m in node.items  # type: ignore[attr-defined]
        if m.value is not None and m.value.kind not in ("error", "bare")
    )


def static_map(expr: Expression) -> tuple[tuple[Expression, Expression], ...] | None:
    """The (key, value) pairs of an object expression (HCL static map), or None when it is not
    an object. Members without a key or value are left out."""
    node = expr.node
    if node.kind != OBJECT:
        return None
    inner = expr.start
    kmode, vmode = _PAIR_MODE.get(expr.mode, (expr.mode, expr.mode))
    out = []
    for m in node.items:  # type: ignore[attr-defined]
        k, v = m.key, m.value
        if k is None or v is None or k.kind != STRING or v.kind in ("error", "bare"):
            continue
        out.append((Expression(k, inner + k.start, inner + k.end, kmode), Expression(v, inner + v.start, inner + v.end, vmode)))
    return tuple(out)


def static_string(text: str, expr: Expression) -> strings.Decoded | None:
    """The decoded content (with its offsets map) of a string expression, or None when `expr` is
    not a string: the input of HCL static call / static traversal analysis."""
    node = expr.node
    if node.kind != STRING:
        return None
    return strings.decode(text, expr.start, node)  # type: ignore[arg-type]


def string_mode_of(expr: Expression) -> str | None:
    """How a string expression is read (`schema.STRING_*`), None when `expr` is not a string or
    its mode takes no string."""
    if expr.node.kind != STRING:
        return None
    return string_mode(expr.mode, AT_ROOT)


def iter_strings(expr: Expression) -> Iterator[StringRef]:
    """Every string inside `expr` (object keys included) in document order, with its mode."""
    mode = expr.mode
    node = expr.node
    if node.kind == STRING:
        yield StringRef(node, expr.start, expr.end, string_mode(mode, AT_ROOT), False)  # type: ignore[arg-type]
        return
    if not isinstance(node, Container):
        return
    # Stack of (container, its absolute start, depth, next item index): document order.
    stack: list[tuple[Container, int, int, int]] = [(node, expr.start, 0, 0)]
    while stack:
        n, inner, depth, first = stack.pop()
        if depth == 0:
            kplace, vplace = (AT_KEY, AT_VALUE) if n.kind == OBJECT else (AT_KEY, AT_ELEMENT)
        else:
            kplace, vplace = AT_DEEPER_KEY, AT_DEEPER
        kmode = string_mode(mode, kplace)
        vmode = string_mode(mode, vplace)
        items = n.items
        for idx in range(first, len(items)):
            m = items[idx]
            k = m.key
            if k is not None and k.kind == STRING:
                yield StringRef(k, inner + k.start, inner + k.end, kmode, True)  # type: ignore[arg-type]
            v = m.value
            if v is None:
                continue
            if v.kind == STRING:
                yield StringRef(v, inner + v.start, inner + v.end, vmode, False)  # type: ignore[arg-type]
            elif isinstance(v, Container):
                stack.append((n, inner, depth, idx + 1))  # resume after this container
                stack.append((v, inner + v.start, depth + 1, 0))
                break
