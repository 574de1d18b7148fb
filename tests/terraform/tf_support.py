"""Checking helpers for the Terraform structure tests.

A fixture is JSON text in which `⟨` ... `⟩` mark the expected diagnostic ranges (tests/fixture.py).
`check(fixture, codes)` asserts that the file produces exactly those diagnostics (every layer:
syntax, HCL structure, Terraform), and then that the same holds for the *array form* of the
fixture (`arrayify`): every block body and every label level written as an array of objects,
which HCL JSON defines to mean the same thing. A diagnostic reported where HCL says a block is
defined (`AT_DEFINITION`: the `{` of its body) is at the `[` of the array form, as hcl's json
package gives every block of an array of bodies the array's `[` as its `DefRange`.
"""

from __future__ import annotations

from fixture import parse_fixture
from internals import file_diagnostics, materialize

from hcljson_ls.hcljson.model import Body
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.tree import OBJECT, Container
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.workspace import Workspace


def diagnostics(text: str, path: str | None = None):
    """All diagnostics of `text`: syntax, then HCL structure and Terraform, sorted."""
    result = parse(text)
    analysis = analyze_file(text, result.root, path)
    body, diags = materialize(analysis.body), analysis.structure
    return body, sorted([*result.diagnostics, *diags], key=lambda d: (d.start, d.end, d.code))


#: Codes reported at a block's definition (`hcl.Block.DefRange`: `validate.reported_range`).
AT_DEFINITION = frozenset({"structure/duplicate-block", "structure/too-many-blocks", "structure/invalid-implied-provider"})


def assert_both_paths_report(src: str, code: str) -> None:
    """`src`'s one marked range is where `code` is reported, by the open's path (the quick open, from
    the values) and by the tree's, each through a real `Workspace`."""
    fixture = parse_fixture(src).only
    text, [expected] = fixture.text, fixture.ranges
    uri = "file:///m/main.tf.json"
    quick = Workspace().open(uri, text, 1, "terraform-json").quick()
    assert quick is not None
    full_state = Workspace().open(uri, text, 1, "terraform-json")
    full_state.prepare()
    for found_there in (quick.diagnostics, file_diagnostics(full_state)):
        got = [(d.start, d.end) for d in found_there if d.code == code]
        assert got == [expected], [text[s:e] for s, e in got]


def found(text: str, path: str | None = None) -> list[tuple[int, int, str]]:
    return [(d.start, d.end, d.code) for d in diagnostics(text, path)[1]]


def _containers_to_wrap(text: str, body: Body) -> set[tuple[int, int]]:
    """Absolute (start, end) of every object block body and every label-level object."""
    wrap: set[tuple[int, int]] = set()
    label_keys: set[int] = set()
    stack = list(body.blocks)
    while stack:
        b = stack.pop()
        node = b.body.node
        if node is not None and node.kind == OBJECT and b.body.start < b.body.end:
            wrap.add((b.body.start, b.body.end))
        label_keys.update(lab.start for lab in b.labels)
        stack.extend(b.body.blocks)
    # Label levels: objects that directly hold a label key. Objects that already are array
    # elements stay as they are (an array of arrays means something else).
    in_arrays: set[tuple[int, int]] = set()
    root = parse(text).root
    if root is not None and isinstance(root, Container):
        todo: list[tuple[Container, int]] = [(root, 0)]
        while todo:
            c, base = todo.pop()
            inner = base + c.start
            for m in c.items:
                if m.key is not None and inner + m.key.start in label_keys and c.kind == OBJECT and c is not root:
                    wrap.add((inner, base + c.end))
                if isinstance(m.value, Container):
                    if c.kind != OBJECT:
                        in_arrays.add((inner + m.value.start, inner + m.value.end))
                    todo.append((m.value, inner))
    return wrap - in_arrays


def arrayify(text: str, spans: list[tuple[int, int]], path: str | None = None,
             defined: frozenset[int] = frozenset()) -> tuple[str, list[tuple[int, int]]]:
    """The array form of `text` and the expected `spans` moved along with it; the spans of index
    in `defined` are at a block's definition: on a wrapped body's `{`, they go to its new `[`."""
    body, _ = diagnostics(text, path)
    wrap = _containers_to_wrap(text, body)
    inserts: list[tuple[int, str]] = sorted([(s, "[") for s, _ in wrap] + [(e, "]") for _, e in wrap])
    out: list[str] = []
    pos = 0
    for at, ch in inserts:
        out.append(text[pos:at])
        out.append(ch)
        pos = at
    out.append(text[pos:])
    opens = sorted(s for s, _ in wrap)
    closes = sorted(e for _, e in wrap)

    def move_start(p: int) -> int:
        return p + sum(1 for s in opens if s <= p) + sum(1 for e in closes if e <= p)

    def move_end(p: int) -> int:
        return p + sum(1 for s in opens if s < p) + sum(1 for e in closes if e < p)

    def move(i: int, s: int, e: int) -> tuple[int, int]:
        if i in defined and e == s + 1 and s in opens:
            return (move_start(s) - 1, move_start(s))  # the `[` inserted right before the `{`
        return (move_start(s), move_end(e))

    return "".join(out), [move(i, s, e) for i, (s, e) in enumerate(spans)]


def check(src: str, codes=(), path: str | None = None, arrays: bool = True) -> str:
    """Assert `src` yields exactly `codes` at its marked ranges, in object and array form.
    Returns the array form (for tests that want to look at it)."""
    fixture = parse_fixture(src).only
    text, spans = fixture.text, fixture.ranges
    assert len(spans) == len(codes), f"{len(spans)} marked ranges for {len(codes)} codes"
    expected = _expected(spans, codes)
    got = found(text, path)
    assert got == expected, _explain(text, got, expected)
    if not arrays:
        return text
    defined = frozenset(i for i, c in enumerate(codes) if c in AT_DEFINITION)
    atext, aspans = arrayify(text, spans, path, defined)
    assert atext != text or not _has_blocks(text, path), "array form differs from the object form"
    aexpected = _expected(aspans, codes)
    agot = found(atext, path)
    assert agot == aexpected, "array form:\n" + _explain(atext, agot, aexpected)
    return atext


def _expected(spans, codes) -> list[tuple[int, int, str]]:
    """One (start, end, code) per code; a tuple of codes puts several diagnostics on one span."""
    out = []
    for (s, e), c in zip(spans, codes):
        out.extend((s, e, x) for x in ((c,) if isinstance(c, str) else c))
    return sorted(out)


def _has_blocks(text: str, path: str | None) -> bool:
    body, _ = diagnostics(text, path)
    return bool(body.blocks)


def _explain(text: str, got, expected) -> str:
    def show(items):
        return "\n".join(f"  {c} {s}:{e} {text[s:e]!r}" for s, e, c in items) or "  (none)"

    return f"text: {text}\nexpected:\n{show(expected)}\ngot:\n{show(got)}"
