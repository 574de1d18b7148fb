"""Error-recovering JSON parser: `parse(text) -> ParseResult(root, diagnostics)`; never raises.

Iterative (no recursion, so 100 000 levels of nesting are fine) over the scanner's tokens.
Recovery keeps everything it can: members before and after an error stay in the tree.
Each error is reported once, with a tight range and a stable `syntax/...` code. A message depends
only on the text inside its own range (so an incremental reparse never leaves a stale message):

    syntax/missing-comma        two members/elements with no `,` between them (range: the token after
                                the gap, the second one's start: a gap is easy to miss)
    syntax/trailing-comma       `,` before `}` or `]`
    syntax/extra-comma          `,` where a member or element was expected
    syntax/missing-colon        a property name not followed by `:`
    syntax/equals-not-colon     `=` used instead of `:`
    syntax/missing-value        `"key":` followed by `,` or `}`
    syntax/missing-key          a value where a property name was expected
    syntax/unquoted-key         `{foo: 1}`
    syntax/single-quoted        `'text'`
    syntax/comment              `//` or `/* */` comment
    syntax/unterminated-string  no closing `"` before the end of the line (the string ends before
                                the line's trailing structure, see "Unclosed strings" below)
    syntax/invalid-escape       `\\x`, `\\u12`, ...
    syntax/control-character    a raw tab or other control character inside a string
    syntax/invalid-number       `01`, `.5`, `1.`, `+1`, `1e`, `NaN`, `Infinity`
    syntax/invalid-literal      `True`, `None`, `undefined`, ... (a bare word that is not true/false/null)
    syntax/unexpected-token     a character or token that cannot appear there
    syntax/byte-order-mark      an invisible U+FEFF (usually at the start of the file); a quick fix removes it
    syntax/unclosed-bracket     end of input inside `{` or `[` (related: the opener)
    syntax/mismatched-bracket   `]` closing a `{` or the reverse (related: the opener)
    syntax/extra-data           anything after the root value
    syntax/empty-document       no value at all
    syntax/root-not-body        (with `require_body`) the root is not an object or an array of objects

Diagnostics are returned sorted by position (start, end, code), so an incremental reparse can
splice them and still equal a full parse.

Unclosed strings (issue 23 "Hangs and blow-ups"): the scanner ends a string that has no closing
quote on its line before the line's trailing structure -- a run of `: , { } [ ]` (and blanks) that
ends the line -- instead of at the end of the line. A deleted closing quote (`"name: {`,
`"value": "x,`, `"x},`) therefore leaves the line's `:`, `{`, `}`, `,` to the parser, the containers
keep their shape, and the only diagnostics are the slip's own (unterminated string, perhaps a
missing colon); swallowing the `{` used to close the enclosing object at the block's `}` and turn
every later block into a root member (49,886 `structure/unknown-block-type` for one deleted quote
in 100,000 outputs). Structural characters followed by more text on the line stay in the string
(`"a: b, c`), and so do `${...}`/`%{...}` template sequences (`"${var.x},` ends after the `}`).
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from ..diagnostic import ERROR, Diagnostic, Fix, Related
from .fastparse import Resume, fast_parse, fast_parse_or_resume, fast_parse_steps
from .scanner import STRING_LEXEME, VALID_NUMBER, WS, scan
from .tree import Array, Bare, Container, Error, Literal, Member, Node, Number, Object, String, make_string

_ESCAPE = re.compile(r"""\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}|(u[0-9a-fA-F]{0,3}|[^"\\/bfnrtu]|\Z))""", re.S)
_CONTROL = re.compile(r"[\x00-\x1f]")
_CONTROL_BESIDES_WS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

_LITERALS = {"true": True, "false": False, "null": None}
_WORD_HINTS = {
    "True": "true", "TRUE": "true", "False": "false", "FALSE": "false",
    "None": "null", "none": "null", "Null": "null", "NULL": "null", "nil": "null", "undefined": "null",
}

# Parser states
_O_KEY, _O_COLON, _O_VALUE, _O_COMMA, _A_VALUE, _A_COMMA = range(6)
_CLOSER_FOR = {"{": "}", "[": "]"}


@dataclass(slots=True)
class ParseResult:
    """The tree (None for an empty document) and the syntax diagnostics, sorted by position."""

    root: Node | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


_BOM = "\ufeff"


def _err(diags: list, start: int, end: int, code: str, summary: str, detail: str, related=()) -> None:
    diags.append(Diagnostic(start, end, ERROR, code, summary, detail, tuple(related)))


def _unexpected(diags: list, start: int, end: int, tok: str, detail: str) -> None:
    """`syntax/unexpected-token` for `tok`; an invisible byte order mark (often written by Windows
    editors at the start of a file) is named instead, with the quick fix that removes it."""
    if tok.rstrip(WS) == _BOM:
        diags.append(Diagnostic(start, end, ERROR, "syntax/byte-order-mark", "Byte order mark",
                                "Here is an invisible byte order mark (U+FEFF), which JSON does not allow (editors on Windows "
                                "often write one at the start of a file); remove it.",
                                (), (Fix(start, end, "", "Remove the byte order mark"),)))
        return
    _err(diags, start, end, "syntax/unexpected-token", f"Unexpected {_q(tok)}", detail)


def _q(tok: str) -> str:
    """A short quoted rendering of a token for messages."""
    t = tok.rstrip(WS)
    if len(t) > 24:
        t = t[:21] + "..."
    return "`" + t + "`"


def parse(text: str, require_body: bool = True) -> ParseResult:
    """Parse `text` as a JSON document. With `require_body`, the root must be an object or an array
    of objects (an HCL JSON body); otherwise any JSON value is accepted as root."""
    return _finish(text, fast_parse_or_resume(text), require_body)  # well-formed input: no token scan


def parse_steps(text: str, require_body: bool = True) -> Generator[None, None, ParseResult]:
    """`parse` as a generator: it yields (None) between short steps of the fast path
    (`fastparse.fast_parse_steps`) and returns the `ParseResult`, so that a caller can build a large
    tree without holding the thread for the whole parse. After a syntax error the robust parser
    goes on from there in one piece."""
    return _finish(text, (yield from fast_parse_steps(text, True)), require_body)


def _finish(text: str, root: Node | Resume | None, require_body: bool) -> ParseResult:
    """The `ParseResult` from what the fast path gave (a tree, where it stopped, or None)."""
    diags: list[Diagnostic] = []
    if isinstance(root, Resume):  # the robust parser goes on from where the fast path stopped
        root = _parse_value_tokens(text, scan(text[root.pos:]), 0, diags, top_level=True, resume=_resumed(root))
    elif root is None:
        root = _parse_value_tokens(text, scan(text), 0, diags, top_level=True)
    if root is None:
        if not diags:
            _err(diags, 0, len(text), "syntax/empty-document", "Empty document",
                 "A JSON configuration file must contain an object, such as `{}`.")
    elif require_body:
        _check_body_root(root, diags)
    diags.sort(key=_diag_key)
    return ParseResult(root, diags)


def _resumed(r: Resume) -> tuple:
    """The robust parser's state (see `_parse_value_tokens`) where the fast path stopped: what it
    would hold after reading the same well-formed text before `r.pos` (so the parse that goes on
    from there equals a parse from the first byte: tests/jsonsyntax/test_fastparse.py)."""
    if r.state == "done":
        return [], None, 0, -1, None, -1, "", r.root, True, r.pos
    frames = []
    containers = r.containers
    for i, (node, base, opener) in enumerate(containers[:-1]):
        if opener == "{":
            frames.append((node, base, _O_COMMA, r.holders[i + 1], -1, opener))
        else:
            frames.append((node, base, _A_COMMA, None, -1, opener))
    fnode, base, opener = containers[-1]
    items = fnode.items
    state = r.state
    member: Member | None = None
    last_comma = -1
    if state == "key" or state == "element":
        st = _O_KEY if state == "key" else _A_VALUE
        if items:  # after a comma
            last_comma = base + items[-1].comma
            member = items[-1] if state == "key" else None
    elif state == "colon" or state == "value":
        member = Member(r.key, r.colon if state == "value" else -1, None, -1)
        items.append(member)
        st = _O_COLON if state == "colon" else _O_VALUE
    elif state == "comma":
        st, member = _O_COMMA, items[-1]
    else:
        st = _A_COMMA
    return frames, fnode, base, st, member, last_comma, opener, r.root, False, r.pos


def _diag_key(d: Diagnostic):
    return (d.start, d.end, d.code)


def _check_body_root(root: Node, diags: list) -> None:
    if isinstance(root, Object):
        return
    if isinstance(root, Array):
        base = root.start
        for m in root.items:
            v = m.value
            if v is not None and not isinstance(v, (Object, Error, Bare)):
                _err(diags, base + v.start, base + v.end, "syntax/root-not-body", "Root array element must be an object",
                     f"A configuration body given as an array must contain only objects, but this element is {_describe(v)}.")
        return
    if isinstance(root, (Error, Bare)):
        return  # already reported
    _err(diags, root.start, root.end, "syntax/root-not-body", "Root value must be an object",
         f"The root value of a JSON configuration file must be an object (or an array of objects), but it is {_describe(root)}.")


def _describe(node: Node) -> str:
    if isinstance(node, String):
        return "a string"
    if isinstance(node, Number):
        return "a number"
    if isinstance(node, Literal):
        return "null" if node.value is None else "a boolean"
    if isinstance(node, Array):
        return "an array"
    if isinstance(node, Object):
        return "an object"
    return "not a value"


def parse_container_at(text: str, start: int, end: int) -> tuple[Container | None, list[Diagnostic], bool]:
    """Parse `text[start:end]` as one container (used by incremental reparse).

    Returns `(node, diagnostics, clean)` where node positions are relative to `start` (node.start == 0)
    and diagnostics are absolute. `clean` is True only when the container closes exactly at `end` and
    no error could interact with the enclosing containers (no unclosed/mismatched bracket, no stray
    closer, no extra data, no unclosed string on the container's last line: where such a string ends
    depends on the rest of its line, see "Unclosed strings") — only then is the result identical to
    what a full parse would produce."""
    diags: list[Diagnostic] = []
    sub = text[start:end]
    node = fast_parse(sub)  # well-formed: the same tree the robust parser builds, with no diagnostic
    if isinstance(node, Container) and node.start == 0 and node.end == end - start:
        return node, diags, True
    node = _parse_value_tokens(sub, scan(sub), start, diags, top_level=False)
    if not isinstance(node, Container) or not node.closed or node.end != end - start:
        return None, diags, False
    last_line = start + max(sub.rfind("\n"), sub.rfind("\r")) + 1
    for d in diags:
        if d.code in ("syntax/unclosed-bracket", "syntax/mismatched-bracket", "syntax/extra-data"):
            return None, diags, False
        if d.code == "syntax/unterminated-string" and d.start >= last_line:
            return None, diags, False
    return node, diags, True


def _parse_value_tokens(text: str, toks: list[str], offset: int, diags: list, top_level: bool,
                        resume: tuple | None = None) -> Node | None:
    """The core loop. `offset` is added to every diagnostic position (for sub-parses); node positions
    are relative to their container (the root's to `offset`). With `resume` (`_resumed`; offset 0),
    `toks` are the tokens from `resume`'s position on and the parse goes on from that state.

    The current container's state lives in locals (`fnode`, `base`, `st`, `member`, `last_comma`,
    `opener`: a frame); enclosing containers are saved on `stack` as frames. Each token first meets
    the fast paths for well-formed JSON (inline, on locals: they take nearly every token of a
    document), then `_classify` and the error-reporting path of its place: `_root_token`,
    `_closer_token`, `_object_token` or `_array_token`, each taking and giving back a frame."""
    # Split from one 365-line loop (issue 21). The fast paths stay inline, and so does a number or a
    # word in a value's place (without it the split cost 5-6 %). Measured with the robust loop reading
    # a CDKTF-like document from its first member on (an error near the start; and one with an error
    # every 200 lines), the old and the new code alternately in one process, 31 runs each on a loaded
    # 2-core machine: 0.5 MB median 1.01x and 1.02x (best 1.00x and 1.02x) the single loop. Twice
    # 3,000 randomly broken documents gave the same trees and diagnostics as the single loop.
    # Session 10 (`bench/bench_split.py parser`, the same 0.5 MB documents, alternately in one
    # process): the string fast path in a helper (`_fast_string(tok, tpos, pos, base, st, fnode,
    # member, last_comma) -> (st, member, last_comma) | None`, one call per string) made the loop
    # 1.03-1.04x in four measurements (11 and 15 turns, well-formed and an error every 200 lines),
    # a loss on every one: the fast paths stay inline, and the function is longer than 80 lines.
    has_ctrl = _CONTROL_BESIDES_WS.search(text) is not None
    stack: list[tuple] = []
    # The state `st` says which of these are set: an open container whenever `st` is an object or
    # array state, a member in the object states past the key. The state machine, not the types,
    # guarantees it (checking would cost every token), hence `Any`.
    fnode: Any = None
    base = 0
    st = -1
    member: Any = None
    last_comma = -1
    opener = ""
    root: Node | None = None
    root_done = False
    extra = [-1, -1]  # start and end of what follows the root value
    pos = offset  # absolute start of the current token
    if resume is not None:
        stack, fnode, base, st, member, last_comma, opener, root, root_done, pos = resume
    dq_match = STRING_LEXEME['"']
    O_KEY, O_COLON, O_VALUE, O_COMMA, A_VALUE, A_COMMA = _O_KEY, _O_COLON, _O_VALUE, _O_COMMA, _A_VALUE, _A_COMMA

    for tok in toks:
        tpos = pos
        pos += len(tok)
        c = tok[0]

        # ---- fast paths for well-formed input ----------------------------------------------------
        if c == '"':
            if not has_ctrl and "\\" not in tok and "\t" not in tok:
                if tok[-1] == '"':
                    tend = pos
                else:
                    tend = tpos + dq_match(tok).end()
                if tend - tpos > 1 and tok[tend - tpos - 1] == '"':
                    if st == O_KEY:
                        member = Member(String(tpos - base, tend - base), -1, None, -1)
                        fnode.items.append(member)
                        st = O_COLON
                        last_comma = -1
                        continue
                    if st == O_VALUE:
                        member.value = String(tpos - base, tend - base)
                        st = O_COMMA
                        continue
                    if st == A_VALUE:
                        fnode.items.append(Member(None, -1, String(tpos - base, tend - base), -1))
                        st = A_COMMA
                        last_comma = -1
                        continue
        elif c == ":":
            if st == O_COLON:
                member.colon = tpos - base
                st = O_VALUE
                continue
        elif c == ",":
            if st == O_COMMA:
                member.comma = tpos - base
                st = O_KEY
                last_comma = tpos
                continue
            if st == A_COMMA:
                fnode.items[-1].comma = tpos - base
                st = A_VALUE
                last_comma = tpos
                continue
        elif c == "{" or c == "[":
            if st == O_VALUE or st == A_VALUE:
                node = (Object if c == "{" else Array)(tpos - base, tpos - base + 1, [], False)
                if st == O_VALUE:
                    member.value = node
                    stack.append((fnode, base, O_COMMA, member, -1, opener))
                else:
                    stack.append((fnode, base, A_COMMA, None, -1, opener))
                    fnode.items.append(Member(None, -1, node, -1))
                fnode = node
                base = tpos
                member = None
                last_comma = -1
                opener = c
                st = O_KEY if c == "{" else A_VALUE
                continue
        elif c == "}" or c == "]":
            if last_comma < 0 and (st == O_COMMA or st == A_COMMA or ((st == O_KEY or st == A_VALUE) and not fnode.items)) and (
                (c == "}") == (opener == "{")
            ):
                fnode.end = tpos + 1 - (base - fnode.start)
                fnode.closed = True
                if stack:
                    fnode, base, st, member, last_comma, opener = stack.pop()
                else:
                    fnode = None
                    st = -1
                    root_done = True
                continue

        # ---- the general path: what the token is, then what it means where it is -----------------
        token = _classify(tok, c, tpos, pos, has_ctrl, diags)
        if token is None:
            continue
        if fnode is None:
            if root_done:
                if extra[0] < 0:
                    extra[0] = tpos
                extra[1] = token[1]
                continue
            frame, root = _root_token(tok, c, tpos, token, offset, diags)
            if frame is None:
                root_done = root is not None
                continue
        elif c == "}" or c == "]":
            frame = _closer_token((fnode, base, st, member, last_comma, opener), stack, c, tpos, diags)
            if frame is None:
                fnode = None
                st = -1
                root_done = True
                continue
        elif token[0] == 1 and (st == O_VALUE or st == A_VALUE):  # a number or a word in its place: inline, as common as a string
            leaf = _make_leaf(token[2], tpos - base, token[1] - base, tok, tpos, diags, "value")
            if st == O_VALUE:
                member.value = leaf
                st = O_COMMA
            else:
                fnode.items.append(Member(None, -1, leaf, -1))
                st = A_COMMA
                last_comma = -1
            continue
        elif st <= O_COMMA:
            frame = _object_token((fnode, base, st, member, last_comma, opener), stack, text, offset, tok, c, tpos, token, diags)
        else:
            frame = _array_token((fnode, base, st, member, last_comma, opener), stack, tok, c, tpos, token, diags)
        fnode, base, st, member, last_comma, opener = frame

    # ---- end of input ----------------------------------------------------------------------------
    if fnode is not None:
        _close_at_end(offset + len(text.rstrip(WS)), fnode, base, opener, stack, diags)
    if extra[0] >= 0:
        _err(diags, extra[0], extra[1], "syntax/extra-data", "Extra content after the root value",
             "A JSON document holds exactly one value; remove what follows it, or wrap all values in one object or array.")
    return root


# A token the fast paths did not take, classified: (kind, value_end, leaf factory for `_make_leaf`).
# Kinds: a value (string, number, word), punctuation, junk.
_VALUE, _PUNCTUATION, _JUNK = 1, 2, 3
_Token = tuple[int, int, int]


def _classify(tok: str, c: str, tpos: int, pos: int, has_ctrl: bool, diags: list) -> _Token | None:
    """What the token `tok` (first character `c`, from `tpos` to `pos`) is; the errors of its own
    text (a string's escapes, a number's form, a comment) are reported here. None for whitespace
    and comments, which mean nothing to the structure."""
    if c == '"':
        if tok[-1] == '"':
            tend = pos
            body = tok
        else:
            tend = tpos + STRING_LEXEME['"'](tok).end()
            body = tok[: tend - tpos]
        _string_errors(body, tpos, tend, has_ctrl, diags)
        return _VALUE, tend, 1  # String
    if c == ":" or c == "," or c == "{" or c == "}" or c == "[" or c == "]" or c == "=":
        return _PUNCTUATION, tpos + 1, 0
    if c in WS:
        return None
    if c == "/":
        lex = tok.rstrip(WS)
        _err(diags, tpos, tpos + len(lex), "syntax/comment", "Comments are not allowed in JSON",
             'JSON has no comments; remove it, or put the text in a `"//"` property, which Terraform ignores in block bodies.')
        return None
    lexn = len(tok.rstrip(WS)) if tok[-1] in WS else len(tok)
    if c == "'":
        value_end = tpos + STRING_LEXEME["'"](tok).end()
        _err(diags, tpos, value_end, "syntax/single-quoted", "Single-quoted string",
             "JSON strings must use double quotes; replace the single quotes with `\"`.")
        return _VALUE, value_end, 5  # single-quoted String
    if c.isdigit() or c in "-+." and (len(tok) > 1 and (tok[1].isdigit() or tok[1] == ".")):
        if not VALID_NUMBER(tok[:lexn]):
            _invalid_number(diags, tpos, tpos + lexn, tok[:lexn])
        return _VALUE, tpos + lexn, 2  # Number
    if c.isalpha() or c in "_$" or (c in "-+" and lexn > 1):
        return _VALUE, tpos + lexn, 3 if tok[:lexn] in _LITERALS else 4  # Literal, or Bare (reported where it is used)
    return _JUNK, tpos + 1, 6


def _root_token(tok: str, c: str, tpos: int, token: _Token, offset: int, diags: list) -> tuple[tuple | None, Node | None]:
    """A token before the root value: (the frame of the root container it opens, or None; the root
    it makes, or None)."""
    kind, value_end, factory = token
    if kind == _PUNCTUATION:
        if c == "{" or c == "[":
            root = (Object if c == "{" else Array)(tpos - offset, tpos - offset + 1, [], False)
            return (root, tpos, _O_KEY if c == "{" else _A_VALUE, None, -1, c), root
        _unexpected(diags, tpos, tpos + 1, tok, "Expected a JSON value here, such as an object `{`.")
        return None, None
    if kind == _JUNK:
        _junk(diags, tpos, value_end, tok)
        return None, None
    return None, _make_leaf(factory, tpos - offset, value_end - offset, tok, tpos, diags, "value")


def _closer_token(frame: tuple, stack: list[tuple], c: str, tpos: int, diags: list) -> tuple | None:
    """A `}` or `]` the fast path did not take (something dangles, or it closes the wrong bracket):
    the frame after it, None when it closed the root."""
    fnode, base, st, member, last_comma, opener = frame
    if _CLOSER_FOR[opener] != c:
        target = None
        for i in range(len(stack) - 1, -1, -1):
            if _CLOSER_FOR.get(stack[i][5]) == c:
                target = i
                break
        if target is None:
            _err(diags, tpos, tpos + 1, "syntax/mismatched-bracket", f"Unexpected closing `{c}`",
                 f"This `{c}` does not match the open `{opener}`; close it with `{_CLOSER_FOR[opener]}`.",
                 [Related(base, base + 1, f"`{opener}` opened here")])
            return frame
        # `c` closes an enclosing container: the inner ones are missing their closers.
        while len(stack) > target:
            _err(diags, tpos, tpos + 1, "syntax/mismatched-bracket", f"Missing `{_CLOSER_FOR[opener]}`",
                 f"Expected `{_CLOSER_FOR[opener]}` to close the `{opener}` opened earlier, before this `{c}`.",
                 [Related(base, base + 1, f"`{opener}` opened here")])
            _end_unclosed(fnode, base, tpos)
            fnode, base, st, member, last_comma, opener = stack.pop()
    _close(fnode, base, opener, st, member, last_comma, tpos, diags)
    return stack.pop() if stack else None


def _open(frame: tuple, stack: list[tuple], c: str, tpos: int, back_to: int, member: Member | None) -> tuple:
    """Open the container `c` at `tpos` as the value of `member` (object) or an element (array):
    `frame` goes on the stack, to return to in state `back_to`; the new container's frame."""
    fnode, base, _, _, _, opener = frame
    node = (Object if c == "{" else Array)(tpos - base, tpos - base + 1, [], False)
    if member is not None:
        member.value = node
    else:
        fnode.items.append(Member(None, -1, node, -1))
    stack.append((fnode, base, back_to, member, -1, opener))
    return node, tpos, (_O_KEY if c == "{" else _A_VALUE), None, -1, c


def _object_token(frame: tuple, stack: list[tuple], text: str, offset: int, tok: str, c: str, tpos: int,
                  token: _Token, diags: list) -> tuple:
    """A token inside an object that the fast paths did not take: the frame after it. A container
    where a key or a colon belongs is reported, then read as the member's value (`done` False)."""
    st = frame[2]
    if st == _O_KEY:
        frame, done = _object_key(frame, tok, c, tpos, token, diags)
    elif st == _O_COLON:
        frame, done = _object_colon(frame, text, offset, tok, c, tpos, token, diags)
    elif st == _O_COMMA:
        return _object_comma(frame, stack, tok, c, tpos, token, diags)
    else:
        done = False
    return frame if done else _object_value(frame, stack, tok, c, tpos, token, diags)


def _object_key(frame: tuple, tok: str, c: str, tpos: int, token: _Token, diags: list) -> tuple[tuple, bool]:
    """A token where a property name belongs: (the frame after it, done)."""
    fnode, base, _, _, _, opener = frame
    kind, value_end, factory = token
    if kind == _VALUE:
        member = Member(_make_leaf(factory, tpos - base, value_end - base, tok, tpos, diags, "key"), -1, None, -1)
        fnode.items.append(member)
        return (fnode, base, _O_COLON, member, -1, opener), True
    if c == ",":
        _err(diags, tpos, tpos + 1, "syntax/extra-comma", "Unexpected comma",
             "Expected a property name here; remove the extra `,`.")
        return frame, True
    if c == ":" or c == "=":
        _err(diags, tpos, tpos + 1, "syntax/missing-key", "Missing property name",
             f"Expected a property name in quotes before this {_q(tok)}.")
        member = Member(None, tpos - base, None, -1)
        fnode.items.append(member)
        return (fnode, base, _O_VALUE, member, -1, opener), True
    if c != "{" and c != "[":
        _junk(diags, tpos, value_end, tok)
        return frame, True
    _err(diags, tpos, tpos + 1, "syntax/missing-key", "Missing property name",
         f"Expected a property name in quotes followed by `:` before this {_q(tok)}.")
    member = Member(None, -1, None, -1)
    fnode.items.append(member)
    return (fnode, base, _O_VALUE, member, -1, opener), False


def _object_colon(frame: tuple, text: str, offset: int, tok: str, c: str, tpos: int, token: _Token,
                  diags: list) -> tuple[tuple, bool]:
    """A token where the `:` after a property name belongs: (the frame after it, done)."""
    fnode, base, _, member, last_comma, opener = frame
    kind, value_end, _ = token
    if c == ":" or c == "=":
        if c == "=":
            _err(diags, tpos, tpos + 1, "syntax/equals-not-colon", "Expected `:`, found `=`",
                 "JSON separates a property name from its value with `:`, not `=`.")
        member.colon = tpos - base
        return (fnode, base, _O_VALUE, member, last_comma, opener), True
    kend = base + member.key.end if member.key is not None else tpos
    if c == ",":
        _err(diags, kend, kend, "syntax/missing-colon", "Missing `:` and value",
             "Expected `:` and a value after this property name.")
        member.comma = tpos - base
        return (fnode, base, _O_KEY, member, tpos, opener), True
    if kind != _VALUE and c != "{" and c != "[":
        _junk(diags, tpos, value_end, tok)
        return frame, True
    _err(diags, kend, _gap_end(text, offset, kend, tpos), "syntax/missing-colon", "Missing `:`",
         "Expected `:` between the property name and its value.")
    return (fnode, base, _O_VALUE, member, last_comma, opener), False


def _object_comma(frame: tuple, stack: list[tuple], tok: str, c: str, tpos: int, token: _Token, diags: list) -> tuple:
    """A token where the `,` after a member (or the `}`) belongs: the frame after it."""
    fnode, base, st, member, last_comma, opener = frame
    kind, value_end, factory = token
    if c == ",":
        member.comma = tpos - base
        return fnode, base, _O_KEY, member, tpos, opener
    if c == ":" or c == "=":
        _unexpected(diags, tpos, tpos + 1, tok, "Expected `,` or `}` after this property's value.")
        return frame
    if kind != _VALUE and c != "{" and c != "[":
        _junk(diags, tpos, value_end, tok)
        return frame
    _err(diags, tpos, value_end if kind == _VALUE else tpos + 1, "syntax/missing-comma", "Missing comma",
         "Expected `,` between the previous property and this one.")
    if kind == _VALUE:
        member = Member(_make_leaf(factory, tpos - base, value_end - base, tok, tpos, diags, "key"), -1, None, -1)
        fnode.items.append(member)
        return fnode, base, _O_COLON, member, last_comma, opener
    _err(diags, tpos, tpos + 1, "syntax/missing-key", "Missing property name",
         f"Expected a property name in quotes followed by `:` before this {_q(tok)}.")
    member = Member(None, -1, None, -1)
    fnode.items.append(member)
    return _open((fnode, base, st, member, last_comma, opener), stack, c, tpos, _O_COMMA, member)


def _object_value(frame: tuple, stack: list[tuple], tok: str, c: str, tpos: int, token: _Token, diags: list) -> tuple:
    """A token where a member's value belongs: the frame after it."""
    fnode, base, _, member, last_comma, opener = frame
    kind, value_end, factory = token
    if kind == _VALUE:
        member.value = _make_leaf(factory, tpos - base, value_end - base, tok, tpos, diags, "value")
        return fnode, base, _O_COMMA, member, last_comma, opener
    if c == "{" or c == "[":
        return _open(frame, stack, c, tpos, _O_COMMA, member)
    if c == ",":
        at = base + (member.colon + 1 if member.colon >= 0 else member.key.end if member.key is not None else tpos - base)
        _err(diags, at, tpos, "syntax/missing-value", "Missing value",
             "Expected a value after `:`, such as a string, number, object or array.")
        member.comma = tpos - base
        return fnode, base, _O_KEY, member, tpos, opener
    if c == ":" or c == "=":
        _unexpected(diags, tpos, tpos + 1, tok, "Expected a value here.")
        return frame
    _junk(diags, tpos, value_end, tok)
    member.value = Error(tpos - base, value_end - base)  # the junk stands for the value
    return fnode, base, _O_COMMA, member, last_comma, opener


def _array_token(frame: tuple, stack: list[tuple], tok: str, c: str, tpos: int, token: _Token, diags: list) -> tuple:
    """A token inside an array that the fast paths did not take: the frame after it."""
    fnode, base, st, member, last_comma, opener = frame
    kind, value_end, factory = token
    if c == ",":
        if st == _A_COMMA:
            fnode.items[-1].comma = tpos - base
            return fnode, base, _A_VALUE, member, tpos, opener
        _err(diags, tpos, tpos + 1, "syntax/extra-comma", "Unexpected comma",
             "Expected a value here; remove the extra `,`.")
        return frame
    if kind == _VALUE or c == "{" or c == "[":
        if st == _A_COMMA:
            _err(diags, tpos, value_end if kind == _VALUE else tpos + 1, "syntax/missing-comma", "Missing comma",
                 "Expected `,` between the previous element and this one.")
        if kind == _VALUE:
            fnode.items.append(Member(None, -1, _make_leaf(factory, tpos - base, value_end - base, tok, tpos, diags, "value"), -1))
            return fnode, base, _A_COMMA, member, -1, opener
        return _open(frame, stack, c, tpos, _A_COMMA, None)
    if c == ":" or c == "=":
        _unexpected(diags, tpos, tpos + 1, tok,
                    "Arrays hold values separated by `,`; to use names and values, write an object `{...}`.")
        # take it as the separator, so the next element is not reported again
        return (fnode, base, _A_VALUE, member, last_comma, opener) if st == _A_COMMA else frame
    _junk(diags, tpos, value_end, tok)
    if st == _A_VALUE:  # the junk stands for the element
        fnode.items.append(Member(None, -1, Error(tpos - base, value_end - base), -1))
        return fnode, base, _A_COMMA, member, -1, opener
    return frame


def _string_errors(body: str, tpos: int, tend: int, has_ctrl: bool, diags: list) -> None:
    """The errors of string token `body` at `tpos` (ending at `tend`) that the fast paths did not take:
    no closing quote, bad escapes, raw control characters (`has_ctrl`: the text has some besides tabs)."""
    # A function of its own at no measurable cost: a 523 KB CDKTF-like document with 2,000 escaped
    # strings, read by this parser from its second byte on, took the same process time as with the
    # code inline (40 alternating runs on a loaded 2-core machine: median 0.98x, best 1.02x).
    escaped = "\\" in body
    terminated = len(body) > 1 and body[-1] == '"' and (not escaped or _closing_quote(body))
    if not terminated:
        _err(diags, tpos, tend, "syntax/unterminated-string", "Unterminated string",
             'This string has no closing `"` on its line; add one (a JSON string cannot span lines).')
    if escaped:
        _escape_errors(body, tpos, diags)
    if "\t" in body or (has_ctrl and _CONTROL.search(body)):
        for m in _CONTROL.finditer(body):
            _err(diags, tpos + m.start(), tpos + m.end(), "syntax/control-character",
                 "Control character in string",
                 f"A JSON string cannot contain a raw control character (U+{ord(m.group()):04X}); write it as an escape such as `\\t` or `\\u{ord(m.group()):04x}`.")


def _close_at_end(eof: int, fnode: Any, base: int, opener: str, stack: list[tuple], diags: list) -> None:
    """The input ends at `eof` with `fnode` (at `base`, opened by `opener`) and the containers on
    `stack` still open: each gets a `syntax/unclosed-bracket` and ends at `eof`, innermost first."""
    while True:
        closer = _CLOSER_FOR[opener]
        _err(diags, eof, eof, "syntax/unclosed-bracket", f"Missing `{closer}`",
             f"The input ends before the `{opener}` opened earlier is closed; add `{closer}`.",
             [Related(base, base + 1, f"`{opener}` opened here")])
        _end_unclosed(fnode, base, eof)
        if not stack:
            break
        fnode, base, _, _, _, opener = stack.pop()


def _gap_end(text: str, offset: int, start: int, end: int) -> int:
    """The end of the gap [start, end) as shown to users: cut at its first line break."""
    if end <= start:
        return start
    for nl in ("\n", "\r"):
        i = text.find(nl, start - offset, end - offset)
        if i >= 0:
            end = i + offset
    return end


def _closing_quote(body: str) -> bool:
    """True when the final `"` of a string lexeme is a real closing quote (not `\\"`)."""
    n = 0
    i = len(body) - 2
    while i > 0 and body[i] == "\\":
        n += 1
        i -= 1
    return n % 2 == 0


def _make_leaf(factory: int, start: int, end: int, tok: str, abs_start: int, diags: list, role: str) -> Node:
    if factory == 1:
        body = tok[: end - start]
        term = len(body) > 1 and body[-1] == '"' and _closing_quote(body)
        return make_string(start, end, '"', term, "\\" in body)
    if factory == 5:
        body = tok[: end - start]
        term = len(body) > 1 and body[-1] == "'" and _closing_quote(body)
        return make_string(start, end, "'", term, "\\" in body)
    if factory == 2:
        if role == "key":
            _err(diags, abs_start, abs_start + end - start, "syntax/unquoted-key", "Property name must be a string",
                 f'Write the property name in double quotes: `"{tok[: end - start]}"`.')
            return Bare(start, end)
        return Number(start, end)
    lex = tok[: end - start]
    if factory == 3:
        if role == "key":
            _err(diags, abs_start, abs_start + len(lex), "syntax/unquoted-key", "Property name must be quoted",
                 f'Write the property name in double quotes: `"{lex}"`.')
            return Bare(start, end)
        return Literal(start, end, _LITERALS[lex])
    if factory == 4:
        if role == "key":
            _err(diags, abs_start, abs_start + len(lex), "syntax/unquoted-key", "Property name must be quoted",
                 f'Write the property name in double quotes: `"{lex}"`.')
        else:
            _invalid_word(diags, abs_start, abs_start + len(lex), lex)
        return Bare(start, end)
    return Error(start, end)


def _invalid_word(diags: list, start: int, end: int, lex: str) -> None:
    word = lex.lstrip("+-")
    if word in ("NaN", "Infinity", "inf"):
        _err(diags, start, end, "syntax/invalid-number", f"`{lex}` is not a JSON number",
             "JSON has no NaN or infinite numbers; use a finite number, or a string.")
        return
    hint = _WORD_HINTS.get(word)
    if hint:
        _err(diags, start, end, "syntax/invalid-literal", f"Unknown word `{lex}`",
             f"JSON literals are lowercase: did you mean `{hint}`?")
        return
    _err(diags, start, end, "syntax/invalid-literal", f"Unknown word `{lex}`",
         f'A value must be a string, number, object, array, `true`, `false` or `null`; if this is text, put it in quotes: `"{lex}"`.')


def _invalid_number(diags: list, start: int, end: int, lex: str) -> None:
    body = lex.lstrip("-+")
    if lex.startswith("+"):
        why = "a JSON number cannot start with `+`; remove it."
    elif body.startswith("."):
        why = f"a JSON number needs a digit before the decimal point: write `0{body}`."
    elif body.endswith("."):
        why = f"a JSON number needs a digit after the decimal point: write `{lex}0` or `{lex[:-1]}`."
    elif len(body) > 1 and body[0] == "0" and body[1].isdigit():
        why = "a JSON number cannot have leading zeros; remove them (or use a string to keep them)."
    elif body[-1:] in ("e", "E", "+", "-"):
        why = "the exponent has no digits."
    else:
        why = "it is not a valid JSON number; use digits, an optional fraction and exponent, or a string."
    _err(diags, start, end, "syntax/invalid-number", f"Invalid number `{lex}`", why[0].upper() + why[1:])


def _escape_errors(body: str, at: int, diags: list) -> None:
    """Report every invalid escape in a string lexeme `body` that starts at absolute offset `at`."""
    for m in _ESCAPE.finditer(body):
        if m.group(1) is not None:
            _bad_escape(diags, at + m.start(), at + m.end(), m.group())


def _bad_escape(diags: list, start: int, end: int, esc: str) -> None:
    if esc.startswith("\\u"):
        detail = "A `\\u` escape needs exactly four hexadecimal digits, as in `\\u00e9`."
    elif esc == "\\":
        detail = "A backslash at the end of a string must itself be escaped as `\\\\`."
    else:
        detail = "JSON allows only the escapes `\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` and `\\uXXXX`; write a literal backslash as `\\\\`."
    _err(diags, start, end, "syntax/invalid-escape", f"Invalid escape `{esc}`", detail)


def _junk(diags: list, start: int, end: int, tok: str) -> None:
    _unexpected(diags, start, max(end, start + 1), tok, "This character cannot appear in JSON here.")


def _close(node: Container, base: int, opener: str, st: int, member: Member | None, last_comma: int, tpos: int, diags: list) -> None:
    """Close `node` (absolute start `base`) at the closer at `tpos`, reporting what was left dangling."""
    if last_comma >= 0 and node.items:
        _err(diags, last_comma, last_comma + 1, "syntax/trailing-comma", "Trailing comma",
             f"JSON does not allow a `,` after the last {'property' if opener == '{' else 'element'}; remove it.")
    elif st == _O_COLON:
        kend = base + member.key.end if member is not None and member.key is not None else tpos
        _err(diags, kend, kend, "syntax/missing-colon", "Missing `:` and value",
             "Expected `:` and a value after this property name.")
    elif st == _O_VALUE:
        at = base + member.colon + 1 if member is not None and member.colon >= 0 else tpos
        _err(diags, at, tpos, "syntax/missing-value", "Missing value",
             "Expected a value after `:`, such as a string, number, object or array.")
    node.end = tpos + 1 - (base - node.start)
    node.closed = True


def _end_unclosed(node: Container, base: int, at: int) -> None:
    """`node` (absolute start `base`) was never closed: it extends to `at` (or its last item)."""
    last = base + 1
    if node.items:
        last = max(last, base + node.items[-1].end)
    node.end = max(last, at) - (base - node.start)
    node.closed = False
