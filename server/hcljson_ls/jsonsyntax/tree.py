"""The lossless JSON syntax tree.

Contract
--------
* Every node records `start`/`end` (half-open, character offsets) **relative to the start of its
  enclosing container** (the `Object`/`Array` whose `items` hold it). The root value's positions are
  relative to 0, i.e. absolute. This makes an incremental reparse cheap: after an edit only the
  later siblings inside each ancestor of the edited container move, never the whole document.
  Use `absolute(...)`-style arithmetic while walking: a child's absolute start is
  `base + child.start`, where `base` is the absolute start of its container; the base for a
  container's own items is that container's absolute start.
* `Member.colon` and `Member.comma` are relative offsets (in the same coordinate system as the
  member's key/value) of the `:` / `,` character, or -1 when absent.
* A container's open bracket is at its `start`; when `closed` is true its close bracket is at
  `end - 1`. When not closed, `end` is where the parser gave up (end of last item or of input).
* Missing pieces are `None` (a member with no value), junk is an `Error` node.
* Nodes are owned by their `ParsedDocument`; an incremental reparse may update the positions of
  nodes after an edit in place. Do not keep nodes across document versions (except through the
  pending-aware helpers below).
* Lazy shifts (a gap, as in a gap buffer). After an edit inside member `i` of a container, every
  later member moves by the edit's length delta. Rather than rewriting them at once (O(width) per
  edit), the container records `pending = (k, d)`: members at index >= k are still to be moved by
  `d`. Reading `container.items` applies any pending shift first, so every reader that reaches
  members through `items` sees current positions. A later edit at index j moves only the members
  between j and k (`shift_after`): typing in one place costs O(1) per ancestor, however wide.
  Code that keeps members across versions (the incremental analysis) or must not force a shift
  reads `raw_items` and adds `member_shift(container, index)` itself.
* The source text is not stored in nodes: slice the document text with absolute offsets.

Token stream (lossless): `scanner.tokens(text)` yields tokens whose texts concatenate to the source.
"""

from __future__ import annotations

# Node kinds (class attribute `kind` on each node class).
OBJECT = "object"
ARRAY = "array"
STRING = "string"
NUMBER = "number"
TRUE = "true"
FALSE = "false"
NULL = "null"
BARE = "bare"  # an unquoted word used where a string/key was expected (e.g. `{foo: 1}`, `True`)
ERROR = "error"  # junk that is not a value at all


class Node:
    __slots__ = ("start", "end")
    kind: str = ""

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.start}, {self.end})"


class String(Node):
    """A string token. `quote` is '"' (or "'" for a single-quoted string, which is an error).

    `terminated` is False when the closing quote is missing (the string then ends at the end of
    its line). `escaped` is True when the raw text contains a backslash (the decoded value then
    differs from the raw text; see `strings.decode`).

    Plain strings (double-quoted, terminated, no backslash: nearly all of them) carry only their
    positions; the three flags are class attributes. Others are `FlaggedString`s, which store them.
    Build strings with `make_string`; test with `isinstance(node, String)`.
    """

    __slots__ = ()
    kind = STRING
    quote = '"'
    terminated = True
    escaped = False

    @property
    def content_start(self) -> int:
        """Relative offset of the first character after the opening quote."""
        return self.start + 1

    @property
    def content_end(self) -> int:
        """Relative offset just after the last content character (before the closing quote)."""
        return self.end - 1 if self.terminated else self.end


class FlaggedString(String):
    """A string that is single-quoted, unterminated or contains escapes."""

    __slots__ = ("quote", "terminated", "escaped")

    def __init__(self, start: int, end: int, quote: str, terminated: bool, escaped: bool) -> None:
        self.start = start
        self.end = end
        self.quote = quote
        self.terminated = terminated
        self.escaped = escaped


def make_string(start: int, end: int, quote: str = '"', terminated: bool = True, escaped: bool = False) -> String:
    if quote == '"' and terminated and not escaped:
        return String(start, end)
    return FlaggedString(start, end, quote, terminated, escaped)


class Number(Node):
    """A number; its raw text (arbitrary precision) is `text[abs_start:abs_end]`."""

    __slots__ = ()
    kind = NUMBER


class Literal(Node):
    """`true`, `false` or `null`; `value` is the Python value."""

    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: object) -> None:
        self.start = start
        self.end = end
        self.value = value

    @property
    def kind(self) -> str:  # type: ignore[override]
        return TRUE if self.value is True else FALSE if self.value is False else NULL


class Bare(Node):
    """An unquoted word in a value or key position (already reported as an error)."""

    __slots__ = ()
    kind = BARE


class Error(Node):
    """Characters that could not be a value (already reported as an error)."""

    __slots__ = ()
    kind = ERROR


class Member:
    """One `"key": value,` entry of an object, or one `value,` element of an array.

    For arrays `key` is None and `colon` is -1. Any part may be missing (None / -1) after an error.
    All offsets are relative to the enclosing container's start.
    """

    __slots__ = ("key", "colon", "value", "comma")

    def __init__(self, key: Node | None, colon: int, value: Node | None, comma: int) -> None:
        self.key = key
        self.colon = colon
        self.value = value
        self.comma = comma

    @property
    def start(self) -> int:
        k = self.key if self.key is not None else self.value
        if k is not None:
            return k.start
        return self.colon if self.colon >= 0 else self.comma

    @property
    def end(self) -> int:
        if self.comma >= 0:
            return self.comma + 1
        if self.value is not None:
            return self.value.end
        if self.colon >= 0:
            return self.colon + 1
        return self.key.end if self.key is not None else self.start

    def __repr__(self) -> str:
        return f"Member({self.key!r}, {self.colon}, {self.value!r}, {self.comma})"


def shift_members(items: list[Member], lo: int, hi: int, delta: int) -> None:
    """Move every position of `items[lo:hi]` (keys, colons, values, commas) by `delta`."""
    for i in range(lo, hi):
        mm = items[i]
        k = mm.key
        c = mm.colon
        if k is not None:
            e = k.end
            k.start += delta
            k.end += delta
            if c >= 0:
                # a colon that was the key's end stays the same int object (`fastparse`, "One int")
                mm.colon = k.end if c is e else c + delta
        elif c >= 0:
            mm.colon = c + delta
        v = mm.value
        c = mm.comma
        if v is not None:
            e = v.end
            v.start += delta
            v.end += delta
            if c >= 0:
                mm.comma = v.end if c is e else c + delta
        elif c >= 0:
            mm.comma = c + delta


class Container(Node):
    """`items` is the member list with every position current (see "Lazy shifts" above);
    `raw_items` is the same list without applying a pending shift; `pending` is None or `(k, d)`."""

    __slots__ = ("raw_items", "closed", "pending")

    def __init__(self, start: int, end: int, items: list[Member], closed: bool) -> None:
        self.start = start
        self.end = end
        self.raw_items = items
        self.closed = closed
        self.pending: tuple[int, int] | None = None

    @property
    def items(self) -> list[Member]:
        if self.pending is not None:
            k, d = self.pending
            self.pending = None
            shift_members(self.raw_items, k, len(self.raw_items), d)
        return self.raw_items

    @items.setter
    def items(self, value: list[Member]) -> None:
        self.raw_items = value
        self.pending = None

    def settle_through(self, index: int) -> None:
        """Make the positions of members `0..index` current (members after it may stay pending)."""
        p = self.pending
        if p is not None and p[0] <= index:
            k, d = p
            shift_members(self.raw_items, k, index + 1, d)
            self.pending = (index + 1, d) if index + 1 < len(self.raw_items) else None

    def shift_after(self, index: int, delta: int) -> None:
        """Record that every member after `index` moves by `delta` (lazily; see "Lazy shifts").
        Costs the number of members between `index` and the previous edit's place."""
        if delta == 0:
            return
        k = index + 1
        items = self.raw_items
        if k >= len(items):
            return
        p = self.pending
        if p is None:
            self.pending = (k, delta)
            return
        pk, pd = p
        if pk < k:
            shift_members(items, pk, k, pd)  # these stay behind the new gap: apply their shift now
        elif k < pk:
            shift_members(items, k, pk, delta)  # these only get the new shift
            k = pk
        total = pd + delta
        self.pending = (k, total) if total else None


def member_at(container: Container, rel: int) -> int:
    """The index of the last member of `container` starting at or before `rel` (relative to the
    container's start), -1 when none; by binary search, reading pending shifts without applying
    them."""
    items = container.raw_items
    p = container.pending
    pk, pd = p if p is not None else (len(items), 0)
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid].start + (pd if mid >= pk else 0) <= rel:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def member_shift(container: Container, index: int) -> int:
    """The pending shift of member `index` of `container`: add it to the positions stored in the
    member (from `raw_items`) to get current ones."""
    p = container.pending
    return p[1] if p is not None and index >= p[0] else 0


class Object(Container):
    """`{ ... }`; `items` are members in source order (duplicates kept)."""

    __slots__ = ()
    kind = OBJECT


class Array(Container):
    """`[ ... ]`; `items` are members with `key=None`."""

    __slots__ = ()
    kind = ARRAY


def walk(node: Node, base: int = 0):
    """Yield `(node, absolute_start, absolute_end)` for `node` and every descendant, depth-first,
    without recursion. `base` is the absolute start of `node`'s container (0 for the root)."""
    stack: list[tuple[Node, int]] = [(node, base)]
    while stack:
        n, b = stack.pop()
        yield n, b + n.start, b + n.end
        if isinstance(n, Container):
            inner = b + n.start
            for m in reversed(n.items):
                if m.value is not None:
                    stack.append((m.value, inner))
                if m.key is not None:
                    stack.append((m.key, inner))


def snapshot(node: Node | None, base: int = 0):
    """A comparable, absolute-position rendering of a tree (for tests: incremental == full parse).

    Iterative; returns nested tuples."""
    if node is None:
        return None
    out: list = []
    stack: list = [(node, base, out)]
    while stack:
        n, b, sink = stack.pop()
        if n is None:
            sink.append(None)
            continue
        a = b + n.start
        if isinstance(n, Container):
            items: list = []
            sink.append((n.kind, a, b + n.end, n.closed, items))
            plist = [[a + m.colon if m.colon >= 0 else -1, a + m.comma if m.comma >= 0 else -1] for m in n.items]
            items.extend(plist)
            for m, parts in zip(reversed(n.items), reversed(plist)):
                stack.append((m.value, a, parts))
                stack.append((m.key, a, parts))
        elif isinstance(n, String):
            sink.append((n.kind, a, b + n.end, n.quote, n.terminated, n.escaped))
        else:
            sink.append((n.kind, a, b + n.end))
    return out[0]
