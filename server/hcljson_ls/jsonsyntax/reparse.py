"""Incremental reparse: `reparse(old, new_text, edit) -> ParseResult`, always equal to
`parse(new_text)` (same tree shape, same positions, same diagnostics), but usually much cheaper.

`edit` is any object with `start`, `old_end`, `new_end` (absolute offsets; see `text.Edit`): the
characters `[start:old_end]` of the old text were replaced by `new_text[start:new_end]`. `new_text` is a
`str` or anything that slices like one and has `full()` for the whole `str` (`text.TextBuffer`):
the reparse reads only slices around the edit, and the whole text only for a full parse.

Strategy (after rust-analyzer): find the innermost node whose inside strictly contains the edit —
  1. a string token when the edit stays between its quotes and the new text still scans as one
     complete string ending at the same place relative to the edit; or
  2. the smallest closed container (`{...}`/`[...]`) whose interior contains the edit, re-parsed
     alone, accepted only when it still closes exactly at its (shifted) end and reports no error that
     could interact with its ancestors (unclosed/mismatched brackets, an unclosed string on its last
     line); a container whose opening line holds an unclosed string before it is passed over for an
     enclosing one (where such a string ends depends on the rest of its line);
otherwise (or when the edit touches the root's brackets) the whole document is parsed again.
The new node replaces the old one in place; later siblings in every ancestor shift by the edit's
delta (positions are container-relative, so nothing deeper moves), and old diagnostics inside the
replaced range are swapped for the new ones while later ones shift. Later siblings move lazily
(`tree.Container.shift_after`: a pending shift per container, applied when `items` is read), so the
cost is the size of the re-parsed node, the depth, a binary search per ancestor and the distance from
the previous edit's place -- independent of the document's size.

The old tree is updated in place and returned inside a new `ParseResult`.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from ..diagnostic import Diagnostic, start_of
from .parser import _CONTROL, ParseResult, _closing_quote, _diag_key, _err, _escape_errors, parse, parse_container_at
from .scanner import STRING_LEXEME
from .tree import Container, Member, Node, String, make_string, member_at

# A member slot holding the node to replace: (container, absolute base of container, member, "key"|"value")
_Slot = tuple


def reparse(old: ParseResult, new_text, edit) -> ParseResult:
    """See the module doc. The old text is not needed: the old tree says all."""
    start, old_end, new_end = edit.start, edit.old_end, edit.new_end
    delta = new_end - old_end
    root = old.root
    if root is None or not isinstance(root, Container) or not root.closed:
        return parse(_whole(new_text))
    if not (root.start < start and old_end <= root.end - 1):
        return parse(_whole(new_text))  # the edit touches the root's own brackets

    path = _path_to(root, start, old_end)
    # path: list of (container, abs_base, member_index, role) from the root down to the innermost slot
    result = _try_string(path, old, new_text, start, old_end, delta)
    if result is None:
        result = _try_container(root, path, old, new_text, start, old_end, delta)
    return result if result is not None else parse(_whole(new_text))


def _whole(text) -> str:
    return text if isinstance(text, str) else text.full()


def _path_to(root: Container, start: int, old_end: int) -> list:
    """Descend from the root to the innermost member whose key or value contains [start, old_end].

    Returns a list of `(container, container_abs_start, index, role, node)`: `node` (a key or a value)
    at `container.raw_items[index]` contains the edit, `role` says which. Each member on the path is
    made current (`settle_through`); nothing else is (later siblings may keep a pending shift)."""
    path = []
    node: Node = root
    base = 0  # absolute start of node's parent
    while isinstance(node, Container):
        cabs = base + node.start
        i = member_at(node, start - cabs)
        if i < 0:
            break
        node.settle_through(i)
        m = node.raw_items[i]
        found = None
        for role, child in (("key", m.key), ("value", m.value)):
            if child is None:
                continue
            cs, ce = cabs + child.start, cabs + child.end
            if cs < start and old_end < ce:
                found = (role, child)
                break
        if found is None:
            break
        path.append((node, cabs, i, found[0], found[1]))
        node = found[1]
        base = cabs
    return path


def _try_string(path, old: ParseResult, text: str, start: int, old_end: int, delta: int):
    if not path:
        return None
    container, cabs, i, role, node = path[-1]
    if not isinstance(node, String) or node.quote != '"' or not node.terminated:
        return None
    sabs = cabs + node.start
    old_send = cabs + node.end
    if not (sabs < start and old_end <= old_send - 1):
        return None
    new_send = old_send + delta
    body = text[sabs:new_send]
    # Scanning only the string's own new extent gives the full text's verdict: the lexeme must end
    # exactly there, on a quote that closes it (checked below when there are escapes).
    m = STRING_LEXEME['"'](body)
    if m is None or m.end() != len(body) or len(body) < 2 or body[-1] != '"':
        return None
    escaped = "\\" in body
    if escaped and not _closing_quote(body):
        return None
    diags: list[Diagnostic] = []
    if escaped:
        _escape_errors(body, sabs, diags)
    if _CONTROL.search(body):
        for cm in _CONTROL.finditer(body):
            _err(diags, sabs + cm.start(), sabs + cm.end(), "syntax/control-character", "Control character in string",
                 f"A JSON string cannot contain a raw control character (U+{ord(cm.group()):04X}); write it as an escape such as `\\t` or `\\u{ord(cm.group()):04x}`.")
    # A string used as a key or value produces no other diagnostics of its own; its role-specific
    # ones (none for strings) stay. Swap its diagnostics and shift the rest.
    new_node = make_string(node.start, node.end + delta, '"', True, escaped)
    m_obj: Member = container.raw_items[i]
    if role == "key":
        m_obj.key = new_node
    else:
        m_obj.value = new_node
    _shift_after(path, len(path) - 1, delta)
    return ParseResult(old.root, _splice_diags(old.diagnostics, sabs, old_send, diags, delta))


def _try_container(root: Container, path, old: ParseResult, text: str, start: int, old_end: int, delta: int):
    # The innermost container whose interior contains the edit: walk the path backwards.
    for depth in range(len(path) - 1, -1, -1):
        container, cabs, i, role, node = path[depth]
        if not isinstance(node, Container) or not node.closed:
            continue
        nabs = cabs + node.start
        old_nend = cabs + node.end
        if not (nabs < start and old_end <= old_nend - 1):
            continue
        if _open_string_before(old.diagnostics, text, nabs):
            continue  # that string may now end elsewhere: an enclosing container holds its whole line
        new_node, diags, clean = parse_container_at(text, nabs, old_nend + delta)
        if not clean or new_node is None:
            return None  # an enclosing container would be affected: let the full parse decide
        new_node.start = node.start
        new_node.end = node.end + delta
        m_obj: Member = container.raw_items[i]
        if role == "key":  # pragma: no cover - keys are never containers
            return None
        m_obj.value = new_node
        _shift_after(path, depth, delta)
        return ParseResult(old.root, _splice_diags(old.diagnostics, nabs, old_nend, diags, delta))
    return None


def _open_string_before(diags: list[Diagnostic], text, at: int) -> bool:
    """Is there an unclosed string on the line of `at`, before it? (From the old diagnostics and the
    text before `at`, which the edit left alone.) Where such a string ends depends on the rest of its
    line (parser: "Unclosed strings"), so an edit after it on the line may move its end. A line holds
    at most one: an unclosed string is the last string of its line."""
    near = text[max(0, at - 4096):at]
    line_start = at - len(near) + max(near.rfind("\n"), near.rfind("\r")) + 1
    if line_start == at - len(near) and at > len(near):  # a line longer than `near`: read it all
        head = text[:at]
        line_start = max(head.rfind("\n"), head.rfind("\r")) + 1
    # Diagnostics are sorted by start: only those starting on the line, before `at`, are read.
    i = bisect_left(diags, at, key=start_of)
    while i > 0:
        i -= 1
        d = diags[i]
        if d.start < line_start:
            return False
        if d.code == "syntax/unterminated-string":
            return True
    return False


def _shift_after(path, depth: int, delta: int) -> None:
    """Shift everything after the replaced node at `path[depth]` by `delta` in each ancestor: the
    rest of the member holding it now, the later members lazily (`Container.shift_after`)."""
    if delta == 0:
        return
    for d in range(depth, -1, -1):
        container, cabs, i, role, node = path[d]
        m = container.raw_items[i]  # current: `_path_to` settled it
        # Inside the member that holds the replaced node: the parts after it.
        if role == "key":
            if m.colon >= 0:
                m.colon += delta
            if m.value is not None:
                m.value.start += delta
                m.value.end += delta
        if m.comma >= 0:
            m.comma += delta
        if d != depth:
            # the replaced node's ancestor (a container value) got longer/shorter
            m.value.end += delta
        container.shift_after(i, delta)
    # The root container itself is relative to 0: its end moves.
    path[0][0].end += delta


def _splice_diags(old: list[Diagnostic], rstart: int, rend_old: int, new: list[Diagnostic], delta: int) -> list[Diagnostic]:
    """Replace the old diagnostics inside [rstart, rend_old] by `new`; shift those after."""
    out: list[Diagnostic] = []
    for d in old:
        if rstart < d.start < rend_old and d.end <= rend_old:
            continue  # strictly inside the replaced node: superseded by `new`
        out.append(_shift_diag(d, rend_old, delta))
    out.extend(new)
    out.sort(key=_diag_key)
    return out


def _shift_diag(d: Diagnostic, at: int, delta: int) -> Diagnostic:
    if delta == 0 or (d.end < at and all(r.end < at for r in d.related)):
        return d

    def mv(x: int) -> int:
        return x + delta if x >= at else x

    return replace(d, start=mv(d.start), end=mv(d.end),
                   related=tuple(replace(r, start=mv(r.start), end=mv(r.end)) for r in d.related))
