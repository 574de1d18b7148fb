"""The JSON value of a syntax tree, as plain Python data (for tests, hover and static analysis).

`to_python(text, node, base=0)` returns: dict-like objects as `Pairs` (a list of `(key, value)` tuples,
duplicates and order kept), arrays as lists, strings decoded, numbers as `int` or `float` from their
raw text (use the raw text for arbitrary precision), literals as `True`/`False`/`None`; error nodes as
`None`. Iterative: arbitrarily deep input does not hit the recursion limit.
"""

from __future__ import annotations

from typing import Any

from .strings import decode
from .tree import Array, Literal, Node, Number, Object, String


class Pairs(list):
    """An object's members as `(key, value)` tuples, in source order with duplicates kept."""


def number_value(raw: str) -> int | float:
    try:
        return int(raw)
    except ValueError:
        return float(raw)


def to_python(text: str, node: Node | None, base: int = 0):
    if node is None:
        return None
    # Explicit stack of (node, base, container_result, key) frames; results attach to their parent.
    root_holder: list = []
    stack: list[tuple[Node | None, int, list, str | None]] = [(node, base, root_holder, None)]
    while stack:
        n, b, parent, key = stack.pop()
        val: Any = None  # a member without a value (in a broken document) reads as null
        if n is not None:
            a = b + n.start
            if isinstance(n, Object):
                val = Pairs()
                for m in reversed(n.items):
                    k = decode(text, a + m.key.start, m.key).value if isinstance(m.key, String) else None
                    stack.append((m.value, a, val, k))
            elif isinstance(n, Array):
                val = []
                for m in reversed(n.items):
                    stack.append((m.value, a, val, None))
            elif isinstance(n, String):
                val = decode(text, a, n).value
            elif isinstance(n, Number):
                val = number_value(text[a : b + n.end])
            elif isinstance(n, Literal):
                val = n.value
        if isinstance(parent, Pairs):
            parent.append((key, val))
        else:
            parent.append(val)
    return root_holder[0]
