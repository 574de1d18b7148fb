"""Fast path of the JSON parser for well-formed input: `fast_parse(text) -> Node | None`; never raises.

Contract: when `text` is plain, strictly well-formed JSON (RFC 8259; whitespace only `[ \\t\\n\\r]`),
return exactly the tree that the error-recovering parser (`parser._parse_value_tokens`) builds for it
(same node types, same relative positions, see `tree`). Return None for anything else -- invalid
JSON, an empty document, anything unusual -- so that the caller falls back to the robust parser,
which reports the errors. The fast path never accepts a text the robust parser would report.

How: `text.split('"')` (C calls, a part of the text at a time: `_pieces`) cuts the text into
alternating pieces: the "outside" segments (punctuation, whitespace, numbers and literals between two
strings) and the string contents.
A string costs two C-level checks (a backslash? all printable?) and its node. A string whose content
ends in an odd run of backslashes had its closing quote escaped and is joined with the next piece;
a string with a backslash has its escapes checked with one regex search. Each distinct outside
segment is tokenised once (with the scanner's regex) into structural ops, kept in a cache shared by
all parses: generated and pretty-printed JSON repeats the same few segments (`": "`, `",\\n    "`,
`": {\\n      "`, ...) all the time. A small state machine, in locals, applies the ops; any token
that is not `{ } [ ] : ,`, a valid number, `true`, `false`, `null` or whitespace, and anything out
of place (a trailing comma, a missing colon, a mismatched bracket, extra data...) makes it bail out.

`fast_parse_or_resume(text)` is the same, except that on a text it cannot take it returns where it
stopped (`Resume`: the position of the token it did not take, the containers open there with the
members read so far, and the state), so that `parser.parse` lets the robust parser go on from that
token instead of parsing the text again from its first byte: one error near the end of a large
document no longer costs two parses (tests: `parse` equals a robust parse from the first byte on
damaged documents).

One int: a colon right after its key, and a comma right after its value, are stored as the very int
object of the key's or the value's end (equal values: the tree is the same). Positions in a wide
container are over 256, so each is an int object of its own (32 B): for the usual layout of
generated JSON (`"key": {...},`) that is 64 B less a member (`tree.shift_members` keeps them shared).

Shared ints: every position the tree stores below `SHARED_INTS` is the one int object of that value
kept in `_INTS` (equal values: the tree is the same). Positions are relative to their container, so
the blocks of a generated document, written alike, hold the same few hundred values over and over:
without sharing each one over 256 was an int of its own (32 B), ~0.7x the text's size for a
CDKTF-like document (session 11: 4.2 MB of ints for 6 MB). Only the wide containers' own members,
far from their start, keep ints of their own.

Nearly all the time goes into making the nodes, so `String` and `Member` nodes are made with
`object.__new__` and filled slot by slot (see `ENABLED`); containers go through their constructor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import chain
from typing import Any

from ..steps import run_out
from .scanner import VALID_NUMBER, WS, scan
from .tree import Array, FlaggedString, Literal, Member, Node, Number, Object, String

# A backslash that does not start a valid escape, in a string content whose escaped backslashes
# (backslash pairs) are replaced by `_`, which is not part of any escape.
_BAD_ESCAPE = re.compile(r"""\\(?!["/bfnrt]|u[0-9a-fA-F]{4})""").search
_CONTROL = re.compile(r"[\x00-\x1f]").search

# Parser states (the robust parser's, plus before and after the root value).
_O_VALUE, _A_VALUE, _ROOT, _O_KEY, _O_COLON, _O_COMMA, _A_COMMA, _DONE = range(8)
# Op codes in an outside segment: `(code, start, x, value)`, offsets relative to the segment; `x` is
# the end of a number or literal, and the state inside an opened container.
_CLOSE_OBJECT, _CLOSE_ARRAY, _OPEN_OBJECT, _OPEN_ARRAY, _COMMA, _NUMBER, _LITERAL, _COLON = range(8)
_PUNCT = {":": _COLON, ",": _COMMA, "{": _OPEN_OBJECT, "[": _OPEN_ARRAY, "}": _CLOSE_OBJECT, "]": _CLOSE_ARRAY}
_LITERALS = {"true": True, "false": False, "null": None}

# Ends the list of pieces (a unique object: `split` never returns it). It contains a backslash, so
# the main loop meets it only in its rare escaped-string branch.
_END = "".join(["\\", "end"])

_new = object.__new__

#: Positions below this are stored as `_INTS[p]` (see "Shared ints"): 8,192 ints made once (~330 KB).
SHARED_INTS = 1 << 13
_INTS = list(range(SHARED_INTS))


class _Stop(Exception):
    """The fast path met what it does not take, at `at` (relative to the current container's start),
    with its state still that of the text before `at`."""

    def __init__(self, at: int) -> None:
        self.at = at


#: The fast path's container states, by name (`Resume.state`).
_STATE_NAMES = {_O_KEY: "key", _O_COLON: "colon", _O_VALUE: "value", _O_COMMA: "comma",
                _A_VALUE: "element", _A_COMMA: "element-comma", _DONE: "done"}


@dataclass(frozen=True, slots=True)
class Resume:
    """Where `fast_parse_or_resume` stopped in a text it could not take, and the tree it built up to
    there, for the robust parser to go on from (`parser.parse`) instead of starting again from the
    first byte (a 5 MB document with one error near its end paid two parses: its `didOpen` took
    0.75 s against 0.18 s for the valid document; resumed, 0.19 s; the open through the server,
    `bench/peer.py` 5MB-error: 1.03 -> 0.70 s).

    * `pos`: the absolute offset where it stopped: the start of the token it did not take, or the
      whitespace before it; everything before `pos` is well-formed and in the tree.
    * `containers`: the open containers, outermost first, as ``(node, base, opener)``: the
      `Object`/`Array` (start relative to its parent's, as the robust parser makes it when it
      opens: ``end = start + 1``, ``closed`` False) holding the items read so far, its absolute
      start, ``"{"`` or ``"["``; each is already the value of its member in its parent
      (`holders[i]`: the member of ``containers[i - 1]`` holding ``containers[i]``; ``holders[0]``
      is a detached member holding the root).
    * `state`: the innermost container's state: "key", "colon", "value", "comma" (objects),
      "element", "element-comma" (arrays), or "done" (the root value is complete: `root`, no
      containers). In "colon" and "value", `key` and `colon` are the pending member's key node and
      colon (relative), not yet in the container's items (the robust parser adds the member at its key).
    """

    pos: int
    containers: tuple
    holders: tuple
    state: str
    key: Node | None
    colon: int
    root: Node | None


def _resumption(at: int, stack: list, items: list, st: int, key, colon: int, holder: Member) -> Resume | None:
    """The `Resume` for the fast path's state (see `_fast_parse`), or None when nothing was read."""
    if st == _ROOT:
        return None  # stopped at the first token: the robust parser starts there anyway
    if st == _DONE:
        return Resume(at, (), (), "done", None, -1, holder.value)
    containers = []
    holders = []
    base = 0
    for i, (_, _, _, owner, x) in enumerate(stack):
        base += x
        inner = stack[i + 1] if i + 1 < len(stack) else None
        # a container's kind: what its parent returns to when a child closes, or the current state
        is_object = inner[2] == _O_COMMA if inner is not None else st in (_O_KEY, _O_COLON, _O_VALUE, _O_COMMA)
        node = (Object if is_object else Array)(x, x + 1, inner[0] if inner is not None else items, False)
        owner.value = node
        containers.append((node, base, "{" if is_object else "["))
        holders.append(owner)
    return Resume(base + at, tuple(containers), tuple(holders), _STATE_NAMES[st], key, colon, containers[0][0])


def fast_parse_or_resume(text: str) -> Node | Resume | None:
    """`fast_parse`, or where it stopped (`Resume`) when the text is not plain well-formed JSON and
    it read something first; None when it read nothing (or is disabled). Never raises."""
    if not ENABLED:
        return None
    try:
        return _fast_parse(text, True)
    except Exception:  # defensive, as in `fast_parse`
        return None


def _fills_slots_exactly() -> bool:
    """The hot loop makes `String` and `Member` nodes with `object.__new__` and fills their slots
    (a third cheaper than calling the constructors, which is most of a parse's time). That is only
    the same as the constructors while the classes keep exactly these slots; if `tree` changes them
    the fast path switches itself off (and a test says so)."""
    try:
        if Node.__slots__ != ("start", "end") or String.__slots__ != () or String.__mro__ != (String, Node, object):
            return False
        if Member.__slots__ != ("key", "colon", "value", "comma") or Member.__mro__ != (Member, object):
            return False
        k = String(3, 5)
        m = Member(k, 6, None, 9)
        return (k.start, k.end, type(k)) == (3, 5, String) and (m.key, m.colon, m.value, m.comma) == (k, 6, None, 9)
    except Exception:
        return False


ENABLED = _fills_slots_exactly()


def fast_parse(text: str) -> Node | None:
    """The tree of `text` if it is plain well-formed JSON, else None (see the module docstring)."""
    if not ENABLED:
        return None
    try:
        tree = _fast_parse(text)
    except Exception:  # defensive: the fast path must never break a parse; the robust one decides
        return None
    return None if isinstance(tree, Resume) else tree  # (without `resume` it never is one)


# Compiled outside segments, shared by all parses (documents and their edits repeat the same few).
_SEGMENTS: dict = {}
_SEGMENTS_MAX = 4096  # entries; the cache is emptied when full
_SEGMENT_MAX = 120  # characters; longer segments are compiled every time


def _compile(seg: str) -> tuple | None:
    """`(kind, offset, ops, length)` for one outside segment (cached when short), or None if it holds
    anything but structure and whitespace.

    `kind` is `_COLON` or `_COMMA` when the segment starts with that character (at `offset`); `ops`
    are then the segment's other ops. Otherwise `kind` is -1 and `ops` are all of them."""
    ops: list[tuple[int, int, Any, Any]] = []
    rel = 0
    for tok in scan(seg):
        c = tok[0]
        if c in WS:  # leading whitespace (the scanner attaches other whitespace to the token before)
            rel += len(tok)
            continue
        lex = tok.rstrip(WS)
        code = _PUNCT.get(c)
        if code is not None:
            state = _O_KEY if code == _OPEN_OBJECT else _A_VALUE if code == _OPEN_ARRAY else None
            ops.append((code, rel, state, None))
        elif c in "-0123456789" and VALID_NUMBER(lex):
            ops.append((_NUMBER, rel, rel + len(lex), None))
        elif lex in _LITERALS:
            ops.append((_LITERAL, rel, rel + len(lex), _LITERALS[lex]))
        else:
            return None
        rel += len(tok)
    if ops and (ops[0][0] == _COLON or ops[0][0] == _COMMA):
        result = ops[0][0], ops[0][1], tuple(ops[1:]), len(seg)
    else:
        result = -1, 0, tuple(ops), len(seg)
    if len(seg) <= _SEGMENT_MAX:
        if len(_SEGMENTS) >= _SEGMENTS_MAX:
            _SEGMENTS.clear()
        _SEGMENTS[seg] = result
    return result


def _fast_parse(text: str, resume: bool = False) -> Node | Resume | None:
    return run_out(_fast_parse_steps(text, resume, -1))


#: `fast_parse_steps` pauses after this many objects closed (a few ms of a CDKTF-like document),
STEP_OBJECTS = 512
#: The text is split into pieces about this many characters at a time (`_pieces`).
SPLIT_CHUNK = 1 << 18


def fast_parse_steps(text: str, resume: bool = False):
    """`fast_parse_or_resume` as a generator: it yields (None) between steps of about
    `STEP_OBJECTS` closed objects, so a caller can do other work between them, and returns what
    `fast_parse_or_resume` returns. Never raises (but `StopIteration`, with the result)."""
    if not ENABLED:
        return None
    try:
        return (yield from _fast_parse_steps(text, resume, STEP_OBJECTS))
    except Exception:  # defensive, as in `fast_parse`
        return None


def _pieces(text: str):
    """The lists of pieces whose concatenation is `text.split('"')`, then `[_END]`: pairs of (outside
    segment, string content), the last (segment, `_END`). The text is split a part at a time, each
    part about `SPLIT_CHUNK` characters cut just before a quote (that quote is the separator between
    two parts' pieces), as the parse reaches it (`itertools.chain.from_iterable`).

    Why parts: all the pieces of a text at once were ~5.5x its size (a `str` of ~60 B for every
    piece, two a string, and the list), alive beside the growing tree until the parse's end: the
    parse's peak was twice the tree it made (session 11, a 6 MB CDKTF-like document: peak 68.8 MB
    for a 35.7 MB tree). One split is also one long C call: parts keep the steps of
    `fast_parse_steps` short."""
    at = 0
    n = len(text)
    while at + SPLIT_CHUNK < n:
        q = text.find('"', at + SPLIT_CHUNK)
        if q < 0:
            break
        yield text[at:q].split('"')
        at = q + 1
    yield (text[at:] if at else text).split('"')
    yield [_END]


def _escaped_string(s: str, it, p: int) -> str:
    """The content of a string with a backslash, its opening quote at `p`: joined with the next
    pieces while its closing quote is escaped (an odd run of backslashes before it). Raises `_Stop`
    on an invalid escape, a control character or no closing quote."""
    if s[-1] == "\\":
        while (len(s) - len(s.rstrip("\\"))) % 2:
            nxt = next(it)
            if nxt is _END:
                raise _Stop(p)
            s = s + '"' + nxt
    if _BAD_ESCAPE(s.replace("\\\\", "_") if "\\\\" in s else s) or (not str.isprintable(s) and _CONTROL(s)):
        raise _Stop(p)
    return s


def _fast_parse_steps(text: str, resume: bool, every: int):
    """The fast path; yields after every `every` objects closed (never when `every` is -1)."""
    # One long function on purpose (issue 21): every op and every string is a few operations on
    # locals. Measured on the 5 MB CDKTF-like document of bench/: 348,024 ops and 203,040 strings,
    # fast_parse 321 ms; a 6-argument call returning a tuple costs 236 ns here, so one helper call
    # per op or string would add about 130 ms, 41 % of the parse. Session 10 measured one such
    # split (`bench/bench_split.py fastparse`, that 5 MB document, the split and this code
    # alternately in one process, loaded 2-core machine): the string's place taken in a helper
    # (`_take(node, st, key, colon, member, append, holder) -> (st, key, member)`, one call per
    # string) made the parse 1.09x and 1.13x (medians of 11 and 15 turns). Only what runs once per
    # part of the text (`_pieces`) or per string with a backslash (`_escaped_string`) is outside.
    budget = every
    it = chain.from_iterable(_pieces(text))
    cache = _SEGMENTS
    compile_ = _compile
    stack: list = []
    push = stack.append
    pop = stack.pop
    items: list = []
    append = items.append
    st = _ROOT
    p = 0  # offset of the current piece relative to the current container's start
    key = None  # the key of the member being read (objects)
    colon = -1  # and its colon
    member: Any = None  # the last member of the current container (set in every state that uses it)
    holder = _new(Member)  # its value is the root
    O_VALUE, A_VALUE, ROOT, O_KEY, O_COLON, O_COMMA, A_COMMA, DONE = range(8)
    CLOSE_OBJECT, CLOSE_ARRAY, OPEN_OBJECT, OPEN_ARRAY, COMMA, NUMBER, LITERAL, COLON = range(8)
    String_, Member_, Object_, Array_, Number_, Literal_ = String, Member, Object, Array, Number, Literal
    END = _END
    printable = str.isprintable
    new = _new
    ended = False  # the loop met `_END` (with an odd number of quotes it never does)
    ints = _INTS  # a stored position `q` is `ints[q] if q < lim else q` (see "Shared ints")
    lim = SHARED_INTS

    try:
        for seg, s in zip(it, it):
            # ---- the outside segment, at `p` ----
            try:
                kind, r, ops, n = cache[seg]
            except KeyError:
                compiled = compile_(seg)
                if compiled is None:  # something else than structure: a comment, a bare word, ...
                    raise _Stop(p) from None
                kind, r, ops, n = compiled
            if kind == COLON:
                if st != O_COLON:
                    raise _Stop(p + r)
                if r:
                    colon = p + r
                    if colon < lim:
                        colon = ints[colon]
                else:
                    colon = p  # right after the key: its end's int (see "One int")
                st = O_VALUE
            elif kind == COMMA:
                if st == O_COMMA:
                    st = O_KEY
                elif st == A_COMMA:
                    st = A_VALUE
                else:
                    raise _Stop(p + r)
                if r:
                    r += p
                    member.comma = ints[r] if r < lim else r
                else:
                    member.comma = p  # right after a string value: its end's int
            if ops:
                for code, a, b, val in ops:
                    a += p
                    if code == CLOSE_OBJECT:
                        if st != O_COMMA and (st != O_KEY or items):
                            raise _Stop(a)  # a trailing comma, a missing value, `]` for `{`, ...
                        pitems, append, st, member, x = pop()
                        a += x + 1
                        member.value = Object_(x, ints[a] if a < lim else a, items, True)
                        items = pitems
                        p += x
                        budget -= 1
                        if budget == 0:  # a pause (steps only): everything lives in this frame
                            yield
                            budget = every
                    elif code == CLOSE_ARRAY:
                        if st != A_COMMA and (st != A_VALUE or items):
                            raise _Stop(a)
                        pitems, append, st, member, x = pop()
                        a += x + 1
                        member.value = Array_(x, ints[a] if a < lim else a, items, True)
                        items = pitems
                        p += x
                    elif code <= OPEN_ARRAY:
                        # the member holding the new container now; its value is set when it closes
                        if st == O_VALUE:
                            member = new(Member_)
                            member.key = key
                            member.colon = colon
                            member.comma = -1
                            append(member)
                            push((items, append, O_COMMA, member, ints[a] if a < lim else a))
                        elif st == A_VALUE:
                            member = new(Member_)
                            member.key = None
                            member.colon = -1
                            member.comma = -1
                            append(member)
                            push((items, append, A_COMMA, member, ints[a] if a < lim else a))
                        elif st == ROOT:
                            push((items, append, DONE, holder, a))
                        else:
                            raise _Stop(a)
                        items = []
                        append = items.append
                        p -= a
                        st = b
                    elif code == COMMA:
                        if st == O_COMMA:
                            st = O_KEY
                        elif st == A_COMMA:
                            st = A_VALUE
                        else:
                            raise _Stop(a)
                        v = member.value
                        if v is not None and v.end == a:
                            member.comma = v.end  # (see "One int")
                        else:
                            member.comma = ints[a] if a < lim else a
                    elif code == COLON:  # after whitespace
                        if st != O_COLON:
                            raise _Stop(a)
                        colon = ints[a] if a < lim else a
                        st = O_VALUE
                    else:  # a number or a literal
                        if a < lim:
                            a = ints[a]
                        b += p
                        if b < lim:
                            b = ints[b]
                        node: Node = Number_(a, b) if code == NUMBER else Literal_(a, b, val)
                        if st == O_VALUE:
                            member = new(Member_)
                            member.key = key
                            member.colon = colon
                            member.value = node
                            member.comma = -1
                            append(member)
                            st = O_COMMA
                        elif st == A_VALUE:
                            member = new(Member_)
                            member.key = None
                            member.colon = -1
                            member.value = node
                            member.comma = -1
                            append(member)
                            st = A_COMMA
                        elif st == ROOT:
                            holder.value = node
                            st = DONE
                        else:
                            raise _Stop(a)
            p += n

            # ---- the string, its opening quote at `p` ----
            if "\\" in s:
                if s is END:
                    ended = True
                    break
                s = _escaped_string(s, it, p)
                node = FlaggedString(p, p, '"', True, True)  # (its positions are set below)
            else:
                if not printable(s) and _CONTROL(s):
                    raise _Stop(p)  # a raw tab, line break or other control character
                node = new(String_)
            q = p + len(s) + 2
            if q < lim:  # both ends shared (see "Shared ints")
                node.start = ints[p]
                node.end = p = ints[q]
            else:
                node.start = p
                node.end = p = q
            if st == O_KEY:
                key = node
                st = O_COLON
            elif st == O_VALUE:
                member = new(Member_)
                member.key = key
                member.colon = colon
                member.value = node
                member.comma = -1
                append(member)
                st = O_COMMA
            elif st == A_VALUE:
                member = new(Member_)
                member.key = None
                member.colon = -1
                member.value = node
                member.comma = -1
                append(member)
                st = A_COMMA
            elif st == ROOT:
                holder.value = node
                st = DONE
            else:
                raise _Stop(node.start)  # `p` is past the string already
    except _Stop as stop:
        return _resumption(stop.at, stack, items, st, key, colon, holder) if resume else None
    if st != DONE:  # the input ended inside a container (or inside a string: no resumption)
        return _resumption(p, stack, items, st, key, colon, holder) if resume and ended else None
    if p != len(text):
        return None
    return holder.value
