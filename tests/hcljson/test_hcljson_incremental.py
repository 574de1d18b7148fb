"""`hcljson.incremental`: a file kept up to date across edits equals a fresh analysis of the same
text (diagnostics in order, the decoded body, views, per-block memos), and after an edit inside one
top-level block only that block is computed again."""

from __future__ import annotations

from dataclasses import dataclass

from fixture import parse_fixture
from hcljson_fixtures import SCHEMAS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from internals import materialize

from hcljson_ls.diagnostic import ERROR, Diagnostic, Related
from hcljson_ls.hcljson import incremental
from hcljson_ls.hcljson.decode import decode_file
from hcljson_ls.hcljson.incremental import FileChecks, IncrementalFile, analyze
from hcljson_ls.hcljson.model import Block
from hcljson_ls.hcljson.values import definition_range
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.jsonsyntax.tree import STRING, walk
from hcljson_ls.text.document import Edit

ROOT = SCHEMAS["root"]
REQUIRED = SCHEMAS["required"]


def _diag(start: int, end: int, code: str, related: tuple[Related, ...] = ()) -> Diagnostic:
    return Diagnostic(start, end, ERROR, code, code.upper(), f"{code} here.", related)


@dataclass(frozen=True)
class Ref:
    """A test layer's reference: a string holding "!" refers to ("ref", its argument's name)."""

    name: str
    start: int
    end: int

    def shifted(self, delta: int) -> Ref:
        return Ref(self.name, self.start + delta, self.end + delta)


class Checks(FileChecks):
    """A later layer for the tests: a rule in the body, a rule on a label, string findings,
    duplicate names across blocks, and references (`Ref`)."""

    def block(self, text: str, block: Block):
        structure, strings, refs = [], [], []
        for i, lab in enumerate(block.labels):
            if lab.value.startswith("x"):
                structure.append(_diag(lab.start, lab.end, f"test/label-{i}"))  # on a header key
        stack = [block.body]
        while stack:
            b = stack.pop()
            for a in b.attributes:
                if a.name == "count":
                    structure.append(_diag(a.name_start, a.name_end, "test/count"))
                if a.expr is not None:
                    for n, s, e in walk(a.expr.node, a.expr.start - a.expr.node.start):
                        if n.kind == STRING and "!" in text[s:e]:
                            strings.append(_diag(s, e, "test/bang"))
                            refs.append(Ref(a.name, s, e))
            stack.extend(x.body for x in b.blocks)
        defs = [((block.type_name, *block.label_values), *block.header_range)]
        if block.type_name == "vars":
            defs = [(("var", a.name), a.name_start, a.name_end) for a in block.body.attributes]
        return structure, strings, defs, refs

    def names(self, refs):
        return [("ref", r.name) for r in refs]

    def root(self, text, attributes):
        return [], [_diag(a.name_start, a.name_end, "test/root-bang") for a in attributes
                    if a.expr is not None and "!" in text[a.expr.start : a.expr.end]]

    def cross(self, keys, place, text):
        # Like Terraform's duplicates: placed by the text after the definition (the `{` or `[` of a
        # block's body, `values.definition_range`), which an edit inside a block can change.
        seen, out = {}, []
        for i, key in enumerate(keys):
            if key in seen:
                at = place(i)
                out.append(_diag(*(definition_range(text, at[1]) or at), "test/duplicate", (Related(*place(seen[key]), "first"),)))
            else:
                seen[key] = i
        return out


#: Its marks: where the tests below edit it (`Doc.mark` follows them through the edits made).
MARKED_DOC = """{
  "name": "n!",
  "thing": {
    "kind": {
      "a": {$[size1]"size": 1, $[count2]"count": 2, "doc": "d$[d]!", "part": {"p": {"weight": "w$[w]!"}}},
      "$[xb]xb": [{"size": 2}, {"count": 3}],
      "a": {$[size3_key]"size": $[size3]3}
    },
    "other": {"c": {"size": "${z}!", "tags": {"k": "v", "k": "w"}}}
  },
  "vars": {"v1": 1, "v2": "!"},
  "vars": [{"v$[v1]1": 2}, null, {"v3": 3}],
  "settings": {"level": 1},
  "settings": {"level": $[level2]2},
  "suite": {"s": {"title": "t"}},
  "free": {"f": {"anything": {"goes": "!"}}},
  "version": "1"
}"""
DOC = parse_fixture(MARKED_DOC).only.text

def fresh(text: str, schema=ROOT):
    return analyze(text, parse(text).root, schema, Checks())


def assert_same(result, text: str, schema=ROOT) -> None:
    expected = fresh(text, schema)
    assert result.structure == expected.structure
    assert result.strings == expected.strings
    assert result.named() == expected.named()
    tree_root = result.body.node
    body = materialize(result.body)
    decoded, decode_diags = decode_file(text, tree_root, schema)
    assert body == decoded
    assert set(decode_diags) <= set(result.structure)
    # The two candidates `blocks_at` gives are exactly the blocks a scan of all of them finds.
    for offset in range(0, len(text) + 1, 7):
        near = result.body.blocks_at(offset)
        assert [b for b in body.blocks if b in near] == list(near)
        hits = [b for b in body.blocks if b.body.start < offset < b.body.end
                or any(s <= offset < e for s, e in [b.type_range, *(lab.range for lab in b.labels)])]
        assert all(b in near for b in hits[:1])


class Doc:
    """A document kept like `features.state.DocumentState` does: text, reparsed tree, engine."""

    def __init__(self, text: str, schema=ROOT) -> None:
        marked = parse_fixture(text).only
        self.text = marked.text
        self.tree = parse(self.text)
        self.engine = IncrementalFile(schema, Checks())
        self.schema = schema
        self.marks = dict(marked.marks)

    def mark(self, name: str) -> int:
        """Where the mark `$[name]` of the text the document was opened with is now, after the edits."""
        return self.marks[name]

    def edit(self, start: int, end: int, new: str, note: bool = True) -> None:
        text = self.text[:start] + new + self.text[end:]
        # a mark at or after the end of the replaced text moves with it (one at an insertion point too)
        self.marks = {k: at + len(new) - (end - start) if at >= end else at for k, at in self.marks.items()}
        if text == self.text:
            return  # nothing changed: no reparse (an unnoted re-parse of the same text would go unseen)
        e = Edit(start, end, start + len(new))
        self.tree = reparse(self.tree, text, e)
        if note:
            self.engine.note_edit(e)
        self.text = text

    def update(self):
        return self.engine.update(self.text, self.tree.root)


def test_a_fresh_update_is_the_analysis() -> None:
    doc = Doc(MARKED_DOC)
    result = doc.update()
    assert_same(result, DOC)
    codes = [d.code for d in result.structure]
    assert codes.count("test/duplicate") == 4  # thing kind "a", vars v1, "xb" twice under one key
    assert "structure/duplicate-key" in codes and "structure/too-many-blocks" in codes
    assert [d.code for d in result.strings].count("test/bang") == 5
    assert doc.engine.misses == len(result.body.blocks) == 13  # vars: 1 + 3 (a null body is a block)


def test_named_keys_follow_the_refs_and_keep_their_identity_while_none_comes_or_goes() -> None:
    doc = Doc(MARKED_DOC)
    first = doc.update().named()
    assert first == {("ref", n) for n in ("doc", "weight", "size", "anything", "v2")}  # not the root's "name"
    at = doc.mark("size3")
    doc.edit(at, at + 1, "33")  # no reference changes
    assert doc.update().named() is first
    at = doc.mark("d")
    doc.edit(at, at, " again!")  # one more reference to a key referred to already
    assert doc.update().named() is first
    at = doc.mark("w")
    doc.edit(at, at + 1, "?")  # the only reference to "weight" goes
    result = doc.update()
    assert doc.engine.fast == 3
    assert result.named() == first - {("ref", "weight")}
    assert_same(result, doc.text)
    doc.edit(0, 0, " ")  # afresh: a walk counts every block
    assert doc.update().named() == first - {("ref", "weight")}


def test_an_edit_inside_one_block_computes_that_block_alone() -> None:
    doc = Doc(MARKED_DOC)
    doc.update()
    at = doc.mark("w")
    doc.edit(at, at + 1, "?? and more")  # inside thing.kind.a: the string loses its "!"
    result = doc.update()
    assert (doc.engine.misses, doc.engine.fast, doc.engine.walks) == (14, 1, 1)
    assert_same(result, doc.text)
    assert [d.code for d in result.strings].count("test/bang") == 4


def test_an_edit_inside_one_block_keeps_the_other_blocks_diagnostics_as_runs(monkeypatch) -> None:
    """The diagnostics before the edited block are the previous result's runs, those after it the
    same runs with the edit's delta noted: none of them is moved one by one (`_moved`)."""
    doc = Doc(MARKED_DOC)
    before = doc.update()
    moved: list[Diagnostic] = []
    real = incremental._moved
    monkeypatch.setattr(incremental, "_moved", lambda d, *args: moved.append(d) or real(d, *args))
    at = doc.mark("level2")  # in the second "settings" block: diagnostics before it and after it
    doc.edit(at, at + 1, "222")
    result = doc.update()
    assert doc.engine.fast == 1
    assert_same(result, doc.text)
    block = doc.text.rindex('"settings"', 0, at)  # search: the edited text, back from the mark
    for new, old in ((result.structure, before.structure), (result.strings, before.strings)):
        first, last = new.runs[0], new.runs[-1]
        assert first.base is old.runs[0].base and first.delta == 0 and new[first.hi - 1].start < at
        assert last.base is old.runs[-1].base and last.delta == 2 and new[-1].start > at
    assert all(block <= d.start <= at for d in moved)


def test_the_root_attributes_and_later_diagnostics_move_with_the_edit() -> None:
    doc = Doc(MARKED_DOC.replace('"version": "1"', '"version": "1!"'))
    doc.update()
    at = doc.mark("count2")
    doc.edit(at, at, '"weight": 1, ')
    result = doc.update()
    assert doc.engine.fast == 1
    assert_same(result, doc.text)
    [version] = [a for a in result.body.attributes if a.name == "version"]
    assert doc.text[version.expr.start : version.expr.end] == '"1!"'


def test_definitions_changed_by_an_edit_redo_the_cross_rules() -> None:
    doc = Doc(MARKED_DOC)
    doc.update()
    at = doc.mark("v1")
    doc.edit(at, at + 1, "9")  # vars v1 -> v9: no longer a duplicate
    result = doc.update()
    assert doc.engine.fast == 1
    assert_same(result, doc.text)
    assert [d.code for d in result.structure].count("test/duplicate") == 3


def test_edits_outside_bodies_walk_the_root_and_reuse_untouched_blocks() -> None:
    doc = Doc(MARKED_DOC)
    doc.update()
    at = doc.mark("xb")
    doc.edit(at, at + 1, "y")  # a label key: the walk finds new labels, those blocks are computed again
    result = doc.update()
    assert (doc.engine.walks, doc.engine.hits, doc.engine.misses) == (2, 11, 15)
    assert_same(result, doc.text)
    doc.edit(0, 0, " ")  # before the root: a full parse, nothing can be reused
    result = doc.update()
    assert (doc.engine.walks, doc.engine.hits, doc.engine.misses) == (3, 11, 28)
    assert_same(result, doc.text)


def test_edits_between_updates_count_as_one_and_unnoted_edits_start_afresh() -> None:
    doc = Doc(MARKED_DOC)
    doc.update()
    a = doc.mark("size3_key")
    doc.edit(a, a, '"count": 1, ')
    b = doc.mark("size3")
    doc.edit(b, b + 1, "33")
    result = doc.update()
    assert doc.engine.fast == 1  # both edits inside the same block
    assert_same(result, doc.text)
    c = doc.mark("level2")
    doc.edit(c, c + 1, "[2]", note=False)
    hits = doc.engine.hits
    result = doc.update()
    assert (doc.engine.fast, doc.engine.walks, doc.engine.hits) == (1, 2, hits)  # nothing to trust: afresh
    assert_same(result, doc.text)


def test_memo_results_move_with_their_block_and_are_computed_once() -> None:
    doc = Doc(MARKED_DOC)
    calls = []

    def compute(block):
        calls.append(block.labels)
        return [(a.name_start, a.name_end) for a in block.body.attributes]

    def shift(item, delta):
        return (item[0] + delta, item[1] + delta)

    def memo(result):
        return [items for _, items in result.body.memo("k", compute, shift)]

    def expected(result):
        return [compute(b) for b in materialize(result.body).blocks]

    result = doc.update()
    assert memo(result) == expected(result)
    calls.clear()
    at = doc.mark("size1")
    doc.edit(at, at, '"new": 0, ')
    result = doc.update()
    got = memo(result)
    assert len(calls) == 1  # the edited block; the others were moved
    assert got == expected(result)
    # A range: every block meeting it, in order (and no block after it).
    lo, hi = at, at + 5
    tops = [top for top, _ in result.body.memo("k", compute, shift, lo, hi)]
    meeting = [b.body.start for b in result.body.blocks if b.body.end >= lo and min(b.type_start, b.body.start) <= hi]
    assert set(meeting) <= {t.body_start for t in tops}
    assert all(min(t.type_start, t.body_start) <= hi for t in tops)


_PIECES = st.sampled_from(['"', "{", "}", "[", "]", ",", ":", " ", "x", "!", "1", "null", '"size": 1, ',
                           '"count": 2, ', '"a": {}', '"v1": 1, ', "\\u0041", "é"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 4), st.lists(_PIECES, max_size=3).map("".join),
                          st.booleans()), min_size=1, max_size=6),
       st.sampled_from(["root", "required"]), st.booleans())
def test_random_edits_match_a_fresh_analysis(edits, schema_name, noted) -> None:
    """Edits noted (one or several between updates), or none noted (each update then starts afresh)."""
    schema = SCHEMAS[schema_name]
    doc = Doc(DOC, schema)
    doc.update()
    for where, length, new, update in edits:
        start = int(where * len(doc.text))
        doc.edit(start, min(len(doc.text), start + length), new, note=noted)
        if update:
            assert_same(doc.update(), doc.text, schema)
    assert_same(doc.update(), doc.text, schema)
