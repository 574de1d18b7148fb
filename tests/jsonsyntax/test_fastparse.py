"""The fast path for well-formed JSON (`fastparse.fast_parse`) against the robust parser.

Contract under test: `fast_parse(text)` is either None (bail out) or exactly the tree that
`parser._parse_value_tokens` builds for `text`, and it returns a tree only when that parse reports
no diagnostic. Trees are compared node by node: type, every slot (so a node the fast path filled
slot by slot cannot miss one) and, through `snapshot`, absolute positions.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest
import shared_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.jsonsyntax import fastparse, parse
from hcljson_ls.jsonsyntax.fastparse import fast_parse
from hcljson_ls.jsonsyntax.parser import _parse_value_tokens, parse_container_at
from hcljson_ls.jsonsyntax.scanner import scan
from hcljson_ls.jsonsyntax.tree import Container, Member, Node, snapshot, walk

REPO = Path(__file__).resolve().parents[2]
REAL = shared_data.REAL_CORPUS


def real_files() -> list[Path]:
    """The real corpus files (not its SOURCES.tsv)."""
    return sorted(p for p in REAL.glob("*") if p.name != "SOURCES.tsv")


def robust(text: str):
    diags: list = []
    root = _parse_value_tokens(text, scan(text), 0, diags, top_level=True)
    return root, diags


def _slots(obj) -> list[str]:
    return [s for cls in type(obj).__mro__ for s in getattr(cls, "__slots__", ())]


def assert_same_tree(a: Node | None, b: Node | None) -> None:
    """Same types and same slot values everywhere (iterative: deep documents are fine)."""
    stack = [(a, b, 0)]
    deepest = 0
    while stack:
        x, y, depth = stack.pop()
        deepest = max(deepest, depth)
        assert type(x) is type(y), (x, y)
        if x is None:
            continue
        for name in _slots(x):
            vx, vy = getattr(x, name), getattr(y, name)  # AttributeError if a slot was never set
            if isinstance(vx, (Node, Member, list)):  # compared below, node by node
                continue
            assert vx == vy and type(vx) is type(vy), (x, name, vx, vy)
        if isinstance(x, Member):
            stack.append((x.key, y.key, depth))
            stack.append((x.value, y.value, depth))
        elif isinstance(x, Container):
            assert len(x.items) == len(y.items), x
            stack.extend((mx, my, depth + 1) for mx, my in zip(x.items, y.items))
    if deepest < 200:  # comparing nested tuples recurses
        assert snapshot(a) == snapshot(b)


def check(text: str, must_accept: bool = False) -> Node | None:
    """The contract, for one text; returns the fast tree."""
    fast = fast_parse(text)
    root, diags = robust(text)
    if fast is not None:
        assert diags == [], [d.code for d in diags]
        assert_same_tree(fast, root)
    elif must_accept:
        raise AssertionError(f"fast path bailed out on clean JSON: {text[:200]!r}")
    return fast


def check_parse(text: str) -> None:
    """`parse` (the fast path, and the robust parser going on from where it stopped: `Resume`) gives
    exactly what the robust parser alone gives from the first byte: the tree and the diagnostics."""
    result = parse(text, require_body=False)
    root, diags = robust(text)
    if root is None and not diags:  # parse() says why there is no tree
        assert [d.code for d in result.diagnostics] == ["syntax/empty-document"]
        return
    assert result.diagnostics == sorted(diags, key=lambda d: (d.start, d.end, d.code))
    assert_same_tree(result.root, root)


def test_the_fast_path_is_enabled():
    # It fills String and Member slots itself; if `tree` changes their slots it switches off (then
    # every parse takes the robust path): update `fastparse` when this fails.
    assert fastparse.ENABLED


# ---- real files and generated documents ------------------------------------------------------


@pytest.mark.parametrize("path", shared_data.params(real_files, REAL), ids=lambda p: p.name[:70])
def test_corpus_file(path):
    text = path.read_text(encoding="utf-8")
    root, diags = robust(text)
    fast = check(text)
    if not diags and root is not None:
        assert fast is not None, "a clean corpus file must take the fast path"
        result = parse(text, require_body=False)  # parse() goes through it and returns that tree
        assert result.diagnostics == []
        assert_same_tree(result.root, root)


def _cdktf_make():
    spec = importlib.util.spec_from_file_location("cdktf_doc", REPO / "bench" / "cdktf_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make


@pytest.mark.parametrize("size", [2_000, 30_000, 120_000])
def test_benchmark_documents(size):
    text = _cdktf_make()(size)
    assert check(text, must_accept=True) is not None


@pytest.mark.parametrize(
    "text",
    [
        "{}", "[]", " {}\n", "\r\n[ ]\t", '"x"', '""', "0", "-0", "-0.5e+10", "1E-2", "12345678901234567890",
        "true", "false", "null", "[true,false,null]", '{"a":[],"b":{},"c":[{}]}', '{"": ""}',
        '{"a": 1, "a": 2}', '["\\u00e9", "\\ud800", "\\\\", "\\"", "\\/\\b\\f\\n\\r\\t", "a\\\\"]',
        '["\\"\\"\\"", "x\\\\\\"y", "\\\\\\\\"]', '{"k\\"": "v\\\\"}', '["é😀\u2028\x7f\ufeff"]',
        '[1,[2,[3,[4]]],{"x":{"y":[5.5,-6e7]}}]', "[" * 3000 + "]" * 3000,
    ],
    ids=lambda t: repr(t)[:40],
)
def test_well_formed_texts_take_the_fast_path(text):
    assert check(text, must_accept=True) is not None


@pytest.mark.parametrize(
    "text",
    [
        "", "   ", "{", "}", "[", "[}", "{]", '{"a"}', '{"a":}', '{"a":1,}', "[1,]", "[,1]", "[1 2]",
        '{"a" 1}', '{"a":1 "b":2}', '{"a"="b"}', "{a: 1}", "{'a': 1}", '{"a": 1} x', "{} {}", '"a" "b"',
        "01", ".5", "1.", "+1", "1e", "NaN", "-Infinity", "True", "nul", "[1true]", '["a\tb"]', '["a\nb"]',
        '["a\rb"]', '["a\x01b"]', '["\\x"]', '["\\u12"]', '["\\u12\\\\34"]', '["\\', '["abc', '["a\\"]',
        '"abc\\"', '{"a": 1 // c\n}', '{"a": /* c */ 1}', "\ufeff{}", "{}\x00", "[1,\xa02]", "[\\]",
        '{"a":1}}', '[[]', '[]]', '{"a":{"b":1}', '{"a"::1}', '{,"a":1}', '{"a":1,,"b":2}', "\x0c{}",
    ],
    ids=repr,
)
def test_anything_the_robust_parser_reports_is_left_to_it(text):
    assert fast_parse(text) is None
    root, diags = robust(text)
    assert diags or root is None
    check_parse(text)


@pytest.mark.parametrize("damage_", [("\": ", "\" "), ("\",\n", "\"\n"), ("}", ""), ("\"ami", "ami"), ("\"count\": 2", "\"count\": 2,")],
                         ids=repr)
def test_one_error_near_the_end_is_read_once(damage_):
    # The fast path reads up to the error and the robust parser goes on from there (`Resume`) instead
    # of parsing the whole text again; the result is what a parse from the first byte gives.
    text = _cdktf_make()(30_000)
    old, new = damage_
    i = text.rfind(old, 0, len(text) - 300)
    broken = text[:i] + new + text[i + len(old):]
    got = fastparse.fast_parse_or_resume(broken)
    assert isinstance(got, fastparse.Resume) and got.pos > len(text) * 0.9, got
    check_parse(broken)


# ---- generated JSON: any value, any json.dumps layout ---------------------------------------

SPECIAL = ['"', "\\", "/", "\t", "\n", "\r", "\x00", "\x1f", "\x7f", "\u2028", "\ud800", "\udfff", "😀", "é", " ", "\xa0"]
chars = st.one_of(st.characters(), st.sampled_from(SPECIAL))
texts = st.text(chars, max_size=10)


class Pairs(list):
    """An object with its members in order, duplicates allowed."""


scalars = (
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False) | texts
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.lists(st.tuples(texts, inner), max_size=4).map(Pairs),
    max_leaves=30,
)
layouts = st.tuples(
    st.sampled_from([None, 0, 2, "\t", " \r\n"]),  # indent
    st.sampled_from([(",", ":"), (", ", ": "), (",", " : "), (" ,\t", ":\n")]),  # separators
    st.booleans(),  # ensure_ascii
    st.sampled_from(["", " ", "\n", "\r\n", "\t "]),  # around the document
)


def dumps(value, indent, separators, ensure_ascii, level=0) -> str:
    """json.dumps' layout, with `Pairs` written as objects (json.dumps cannot repeat a key)."""
    item_sep, key_sep = separators
    if isinstance(value, (list, Pairs)):
        opener, closer = ("{", "}") if isinstance(value, Pairs) else ("[", "]")
        if not value:
            return opener + closer
        if indent is None:
            inner, outer = "", ""
        else:
            unit = " " * indent if isinstance(indent, int) else indent
            inner, outer = "\n" + unit * (level + 1), "\n" + unit * level
            item_sep = item_sep.rstrip(" ")
        if isinstance(value, Pairs):
            parts = [json.dumps(k, ensure_ascii=ensure_ascii) + key_sep + dumps(v, indent, separators, ensure_ascii, level + 1)
                     for k, v in value]
        else:
            parts = [dumps(v, indent, separators, ensure_ascii, level + 1) for v in value]
        return opener + inner + (item_sep + inner).join(parts) + outer + closer
    return json.dumps(value, ensure_ascii=ensure_ascii)


def plain(value):
    """`value` with objects as dicts (last duplicate wins), for a check against json.dumps itself."""
    if isinstance(value, Pairs):
        return {k: plain(v) for k, v in value}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, layouts)
def test_any_dumped_value_parses_fast_to_the_robust_tree(value, layout):
    indent, separators, ensure_ascii, around = layout
    text = around + dumps(value, indent, separators, ensure_ascii) + around
    assert json.loads(text) == json.loads(json.dumps(plain(value), ensure_ascii=ensure_ascii))  # the writer is right
    assert check(text, must_accept=True) is not None
    real = json.dumps(plain(value), indent=indent, separators=separators, ensure_ascii=ensure_ascii)
    assert check(real, must_accept=True) is not None


# ---- the safety net: damaged documents --------------------------------------------------------

DAMAGE = list("\"\\{}[]:,0aeE.-+ \t\n/'x\x01")
edits = st.lists(
    st.tuples(st.floats(0, 1), st.sampled_from(["insert", "delete", "replace"]), st.sampled_from(DAMAGE)),
    min_size=1, max_size=3,
)


def damage(text: str, steps) -> str:
    for frac, op, ch in steps:
        i = min(int(frac * len(text)), max(len(text) - 1, 0))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + ch + text[i + 1:]
    return text


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, layouts, edits)
def test_damaged_json_is_never_accepted_wrongly(value, layout, steps):
    indent, separators, ensure_ascii, around = layout
    damaged = damage(around + dumps(value, indent, separators, ensure_ascii), steps)
    check(damaged)
    check_parse(damaged)


@shared_data.requires(REAL)
def test_damaged_corpus_files_are_never_accepted_wrongly():
    rnd = random.Random(20240611)
    texts_ = [p.read_text(encoding="utf-8") for p in real_files()[::3]]
    texts_ = [t for t in texts_ if len(t) < 20_000]
    accepted = 0
    for _ in range(600):
        text = rnd.choice(texts_)
        steps = [(rnd.random(), rnd.choice(["insert", "delete", "replace"]), rnd.choice(DAMAGE)) for _ in range(rnd.randint(1, 2))]
        damaged = damage(text, steps)
        accepted += check(damaged) is not None
        check_parse(damaged)
    assert accepted > 0  # some damage is harmless (inside a string, whitespace): those still match


# ---- the hooks in parse() and parse_container_at() ---------------------------------------------


def old_parse_container_at(text, start, end):
    """parse_container_at as it was before the fast path (the robust parser alone)."""
    diags: list = []
    sub = text[start:end]
    node = _parse_value_tokens(sub, scan(sub), start, diags, top_level=False)
    if not isinstance(node, Container) or not node.closed or node.end != end - start:
        return None, diags, False
    for d in diags:
        if d.code in ("syntax/unclosed-bracket", "syntax/mismatched-bracket", "syntax/extra-data"):
            return None, diags, False
    return node, diags, True


def test_parse_container_at_matches_the_robust_sub_parse():
    text = _cdktf_make()(6_000)
    root = parse(text).root
    containers = [(s, e) for n, s, e in walk(root) if isinstance(n, Container)]
    assert len(containers) > 50
    for s, e in containers[::3]:
        for start, end in [(s, e), (s, e + 1), (s, e - 1), (s + 1, e), (s, len(text))]:
            node, diags, clean = parse_container_at(text, start, end)
            old_node, old_diags, old_clean = old_parse_container_at(text, start, end)
            assert (clean, diags) == (old_clean, old_diags), (start, end)
            assert_same_tree(node, old_node)


def test_parse_still_reports_errors_through_the_robust_path():
    result = parse('{"a": 1,}')
    assert [d.code for d in result.diagnostics] == ["syntax/trailing-comma"]
    result = parse('["x"]')  # clean JSON, but not a configuration body: parse() still says so
    assert [d.code for d in result.diagnostics] == ["syntax/root-not-body"]
    assert parse("  ").diagnostics[0].code == "syntax/empty-document"


def test_segment_cache_limits(monkeypatch):
    monkeypatch.setattr(fastparse, "_SEGMENTS", {})
    monkeypatch.setattr(fastparse, "_SEGMENTS_MAX", 3)
    text = json.dumps({"a": list(range(300)), "b": [{"c": i, "d": [i, -i]} for i in range(40)]}, indent=1)
    assert check(text, must_accept=True) is not None
    assert len(fastparse._SEGMENTS) <= 3
    long_segment = "[" + ", ".join(str(i) for i in range(500)) + "]"  # one piece, never cached
    assert check(long_segment, must_accept=True) is not None
    assert long_segment not in fastparse._SEGMENTS


# ---- in steps (`parser.parse_steps`: the build after a quick open) ---------------------------------


@pytest.mark.parametrize("damage_", [None, ("\": ", "\" "), ("}", ""), ("\"ami", "ami")], ids=repr)
@pytest.mark.parametrize("objects,chunk", [(1, 7), (5, 64), (512, 1 << 18)])
def test_a_parse_in_steps_is_the_parse(damage_, objects, chunk, monkeypatch):
    from hcljson_ls.jsonsyntax.parser import parse_steps

    monkeypatch.setattr(fastparse, "STEP_OBJECTS", objects)
    monkeypatch.setattr(fastparse, "SPLIT_CHUNK", chunk)  # pieces joined across the parts split
    text = _cdktf_make()(30_000)
    if damage_ is not None:
        old, new = damage_
        i = text.rfind(old, 0, len(text) // 2)
        text = text[:i] + new + text[i + len(old):]
    steps = parse_steps(text)
    paused = 0
    while True:
        try:
            next(steps)
            paused += 1
        except StopIteration as done:
            result = done.value
            break
    whole = parse(text)
    assert result.diagnostics == whole.diagnostics
    assert_same_tree(result.root, whole.root)
    if objects < 512:  # (the default step is larger than this document)
        assert paused > 10


# ---- memory (session 11: the 50 MB document's peak) -------------------------------------------------


def _alike_blocks(n: int) -> str:
    """A generated document of `n` alike resources of ~2 KB each (positions over 256 inside each)."""
    rule = {"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["10.0.0.0/16"]}
    blocks = {f"r{i}": {"ami": "ami-0c55b159", "count": 2, "tags": {"Name": f"web-{i}", "Index": str(i)},
                        "depends_on": [f"aws_instance.r{i - 1}"], "ingress": [rule] * 10} for i in range(n)}
    return json.dumps({"resource": {"aws_instance": blocks}}, indent=2)


def test_alike_blocks_share_their_position_ints():
    """Positions are relative to their container, so alike blocks store equal values: the tree holds
    one int object per value (below `SHARED_INTS`), not one per position (32 B each, ~0.7x the
    size of a CDKTF-like text: session 11)."""
    text = _alike_blocks(12)
    tree = fast_parse(text)
    assert tree is not None
    objects: dict[int, object] = {}
    values: set[int] = set()
    count = 0
    for node, _, _ in walk(tree):
        ints = [node.start, node.end]
        if isinstance(node, Container):
            ints += [x for m in node.items for x in (m.colon, m.comma)]
        for v in ints:
            if 256 <= v < fastparse.SHARED_INTS:  # (smaller ints are Python's own shared ones)
                objects[id(v)] = v
                values.add(v)
                count += 1
    assert count >= 5 * len(values)  # the point: the same values, over and over
    assert len(objects) == len(values)


def test_a_parse_holds_a_part_of_the_pieces_at_a_time(monkeypatch):
    """The text is split into pieces a part at a time (`fastparse._pieces`): all the pieces at once
    (a `str` each) were alive beside the growing tree until its end, the parse's peak ~1.75x the
    tree it made here (session 11: 68.8 MB for a 35.7 MB tree of a 6 MB CDKTF-like text); now
    ~1.03x. Parts are made small here, as a 50 MB text's are small beside it (tracemalloc)."""
    import gc
    import tracemalloc

    monkeypatch.setattr(fastparse, "SPLIT_CHUNK", 512)
    text = _alike_blocks(12)
    assert fast_parse(text) is not None  # (compiles the segments: not counted below)
    gc.collect()
    tracemalloc.start()
    try:
        tree = fast_parse(text)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert tree is not None
    assert peak < 1.3 * kept, f"the parse's peak is {peak / kept:.2f}x its tree"
