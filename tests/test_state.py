"""`workspace.DocumentState` (one open document: text, parse, analysis) and `features.diagnostics`."""

from __future__ import annotations

import logging

import pytest
from fixture import parse_fixture
from internals import materialize

from hcljson_ls.diagnostic import ERROR, WARNING, Diagnostic
from hcljson_ls.features import diagnostics
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.workspace import DocumentState, Workspace
from hcljson_ls.workspace import document as state_module


def summary(result):
    return [(d.start, d.end, d.code) for d in result.diagnostics]


def change(start, end, text):
    """An LSP-shaped change: ((line, character), (line, character)) range and new text."""
    return ((start, end), text)


def test_changes_keep_the_parse_identical_to_a_full_parse():
    s = DocumentState.open("file:///m/a.tf.json", '{\n  "a": [1, 2]\n}\n', version=1, language_id="json")
    assert s.version == 1 and summary(s.syntax) == []
    s.apply_changes([change((1, 12), (1, 12), ",")], version=2)  # trailing comma
    assert s.text == '{\n  "a": [1, 2,]\n}\n'
    assert s.version == 2
    assert summary(s.syntax) == summary(parse(s.text)) and [c for *_, c in summary(s.syntax)] == ["syntax/trailing-comma"]
    # two changes in one notification, the second relative to the first's result
    s.apply_changes([change((1, 12), (1, 13), ""), change((0, 1), (0, 1), " x")], version=3)
    assert s.text == '{ x\n  "a": [1, 2]\n}\n'
    assert summary(s.syntax) == summary(parse(s.text))
    # a full replacement (no range)
    s.apply_changes(["[]"], version=4)
    assert s.text == "[]" and summary(s.syntax) == summary(parse("[]"))


def test_utf16_positions_in_changes():
    s = DocumentState.open("file:///m/a.tf.json", '{"😀": [1]}')
    # after `[1`: 😀 is two UTF-16 units, so `1` ends at character 9 (UTF-16) / 8 (code points)
    s.apply_changes([change((0, 9), (0, 9), ",")], encoding="utf-16")
    assert s.text == '{"😀": [1,]}'
    s.apply_changes([change((0, 8), (0, 9), "")], encoding="utf-32")
    assert s.text == '{"😀": [1]}'


def test_cached_is_dropped_on_change():
    s = DocumentState.open("file:///m/a.tf.json", "{}")
    calls = []
    assert s.cached("layer", lambda st: calls.append(st.text) or len(calls)) == 1
    assert s.cached("layer", lambda st: calls.append(st.text) or len(calls)) == 1
    s.apply_changes([change((0, 1), (0, 1), " ")])
    assert s.cached("layer", lambda st: calls.append(st.text) or len(calls)) == 2
    assert calls == ["{}", "{ }"]


def test_a_failing_reparse_falls_back_to_a_full_parse(monkeypatch, caplog):
    s = DocumentState.open("file:///m/a.tf.json", '{"a": 1}')
    s.syntax  # parsed (an open parses on first need)

    def broken(*args):
        raise RuntimeError("reparse bug")

    monkeypatch.setattr(state_module, "reparse", broken)
    with caplog.at_level(logging.ERROR):
        s.apply_changes([change((0, 7), (0, 7), ",")])
        s.apply_changes([change((0, 0), (0, 0), " ")])  # no parse to update: nothing to fail
    assert "incremental reparse failed" in caplog.text
    assert s.text == ' {"a": 1,}'
    assert summary(s.syntax) == summary(parse(s.text))  # parsed in full when read


@pytest.mark.parametrize(
    "uri, path",
    [
        ("file:///m/override.tf.json", "/m/override.tf.json"),
        ("file:///m/with%20space/a.tf.json", "/m/with space/a.tf.json"),
        ("untitled:Untitled-1", "Untitled-1"),
    ],
)
def test_path(uri, path):
    assert DocumentState.open(uri, "{}").path == path


def test_collect_sorts_and_survives_a_failing_provider(caplog, monkeypatch):
    s = DocumentState.open("file:///m/a.tf.json", '{"a": [1,], "b" 2}')

    def late_warning(state):
        return [Diagnostic(1, 4, WARNING, "test/w", "Early warning")]

    def broken(state):
        raise ValueError("provider bug")

    monkeypatch.setattr(diagnostics, "PROVIDERS", [("syntax", diagnostics.syntax), ("broken", broken), ("warn", late_warning)])
    with caplog.at_level(logging.ERROR):
        got = list(diagnostics.own_diagnostics(s))
    assert "'broken' failed" in caplog.text
    assert [d.code for d in got] == ["test/w", "syntax/trailing-comma", "syntax/missing-colon"]
    assert [d.start for d in got] == sorted(d.start for d in got)
    assert all(d.severity == ERROR for d in got[1:])


def collect(s: DocumentState):
    """`features.diagnostics.collect` for a document open alone in a workspace."""
    workspace = Workspace()
    workspace.open(s.uri, s.text, s.version, "terraform-json")
    return diagnostics.collect(workspace.snapshot(), s.uri)


def test_collect_uses_the_registered_providers():
    s = DocumentState.open("file:///m/a.tf.json", '{"resources": {}, "locals": {"a": [1,]}}')
    assert [d.code for d in collect(s)] == ["structure/unknown-block-type", "syntax/trailing-comma"]
    assert [name for name, _ in diagnostics.PROVIDERS] == ["syntax", "structure", "strings", "references"]


# -------------------------------------------------------------------------------------------- edits reach the analysis


def test_the_analysis_engine_is_told_about_every_edit_in_order(monkeypatch):
    seen = []

    class Recording:
        def __init__(self, engine):
            self.engine = engine

        def note_edit(self, edit):
            seen.append((edit.start, edit.old_end, edit.new_end))
            self.engine.note_edit(edit)

        def update(self, text, root):
            return self.engine.update(text, root)

    real = state_module.file_engine
    monkeypatch.setattr(state_module, "file_engine", lambda path, scope=None: Recording(real(path, scope)))
    s = DocumentState.open("file:///m/a.tf.json", '{"a": 1}')
    s.analysis  # the engine exists once the analysis was asked for
    s.apply_changes([change((0, 7), (0, 7), ", "), change((0, 1), (0, 4), "")])
    s.apply_changes([change((0, 0), (0, 0), "")])  # nothing changed: nothing to tell
    assert s.text == '{: 1, }'
    assert seen == [(7, 7, 9), (1, 4, 1)]


def test_a_failing_analysis_is_made_afresh_for_the_next_version(monkeypatch, caplog):
    class Broken:
        def note_edit(self, edit):
            pass

        def update(self, text, root):
            raise RuntimeError("analysis bug")

    real = state_module.file_engine
    monkeypatch.setattr(state_module, "file_engine", lambda path, scope=None: Broken())
    s = DocumentState.open("file:///m/main.tf.json", '{"resources": {}}')
    with pytest.raises(RuntimeError):
        s.analysis
    monkeypatch.setattr(state_module, "file_engine", real)
    s.apply_changes([change((0, 1), (0, 1), " ")])
    assert [d.code for d in s.analysis.structure] == ["structure/unknown-block-type"]


# -------------------------------------------------------------------------------------------- the Terraform analysis


def _fresh(text, uri="file:///m/main.tf.json"):
    from hcljson_ls.terraform.analysis import analyze_file

    result = analyze_file(text, parse(text).root, DocumentState.open(uri, text).path)
    return materialize(result.body), result.structure


def terraform_analysis(s: DocumentState):
    return s.analysis.body, s.analysis.structure


def _shape(analysis):
    body, diags = analysis
    return [(b.type_name, b.type_start, b.body.start, b.body.end) for b in body.blocks], [
        (d.start, d.end, d.code, d.message) for d in diags
    ]


def test_analysis_is_computed_once_per_version_and_shared_with_diagnostics():
    s = DocumentState.open("file:///m/main.tf.json", '{"resources": {}}')
    first = s.analysis
    assert s.analysis is first
    [d] = diagnostics.own_diagnostics(s)
    assert d.code == "structure/unknown-block-type" and 'Did you mean "resource"?' in d.detail
    assert d in first.structure
    s.apply_changes([change((0, 2), (0, 11), "locals")])
    assert s.analysis is not first
    assert list(diagnostics.own_diagnostics(s)) == []


def test_override_files_are_analysed_as_overrides():
    # Override files repeat names on purpose; import blocks there need neither `id` nor `identity`.
    text = '{"variable": [{"a": {}}, {"a": {}}], "import": {"to": "aws_instance.web"}}'
    plain = [d.code for d in collect(DocumentState.open("file:///m/main.tf.json", text))]
    override = [d.code for d in collect(DocumentState.open("file:///m/main_override.tf.json", text))]
    # (aws_instance.web is declared nowhere: a reference error in the plain file; an override file's
    # names are merged into declarations made elsewhere, so it resolves nothing: no duplicate, no
    # missing argument, only that its variable overrides no declaration of a primary file, once per
    # block, as Terraform says "Missing base variable declaration to override")
    assert plain == ["structure/duplicate-block", "reference/undeclared", "structure/missing-argument"]  # the last at the `}`
    assert override == ["structure/override-without-base", "structure/override-without-base"]


#: Its marks: where test_an_edit_inside_one_block_decodes_only_that_block_again edits it.
SAMPLE_MARKED = """{
  "resource": {
    "aws_instance": {
      "web": {"ami": "ami-1", "count": 1, "tags": {"Név": "é😀"}},
      "db": {"ami": "ami-2", "lifecycle": {"prevent_destroy": true}}
    },
    "aws_s3_bucket": {"logs": {"bucket": "x"}}
  },
  "v$[variable]ariable": {"region": {"type": $[string]"string"}},
  "locals": {"a": 1}
}
"""
SAMPLE = parse_fixture(SAMPLE_MARKED).only.text


@pytest.mark.parametrize(
    "edits",
    [
        [('"resource"', 0, '"resources"')],  # rename a top-level key
        [('"ami-1"', 0, '"ami-1", "count": 2'), ('"region"', 0, '"1region"')],  # a duplicate, then a bad name
        [('"db"', 0, "x"), ('"locals"', 0, '"locals": {"b": 2}, "xlocals"')],  # break a block, add another
        [("{", 1, ""), ("}", -1, "")],  # brackets gone
        [("\n", 0, "\n" * 3), ('"logs"', 0, '"logs", "logs"')],  # shifts, then a broken member
    ],
)
def test_incremental_analysis_equals_a_fresh_one(edits):
    """Edits through `apply_changes` reach the kept decode cache, so reused bodies are current."""
    s = DocumentState.open("file:///m/main.tf.json", SAMPLE)
    assert _shape(terraform_analysis(s)) == _shape(_fresh(s.text))
    for needle, which, replacement in edits:
        text = s.text
        at = [i for i in range(len(text)) if text.startswith(needle, i)][which]
        start, end = s.document.position(at, "utf-16"), s.document.position(at + len(needle), "utf-16")
        s.apply_changes([change(start, end, replacement)])
        assert _shape(terraform_analysis(s)) == _shape(_fresh(s.text)), s.text


def test_an_edit_inside_one_block_decodes_only_that_block_again():
    s = DocumentState.open("file:///m/main.tf.json", SAMPLE)
    terraform_analysis(s)
    engine = s._engine
    assert (engine.hits, engine.misses) == (0, 5)  # three resources, a variable, locals
    marks = parse_fixture(SAMPLE_MARKED).only.marks
    at = marks["string"]
    start, end = s.document.position(at, "utf-16"), s.document.position(at + len('"string"'), "utf-16")
    s.apply_changes([change(start, end, '"number"')])  # inside `variable`
    body, diags = terraform_analysis(s)
    assert (engine.hits, engine.misses, engine.fast) == (0, 6, 1)  # the variable alone, by the fast path
    assert _shape((body, diags)) == _shape(_fresh(s.text))
    at = marks["variable"]  # before the edit above, which kept the length
    start, end = s.document.position(at, "utf-16"), s.document.position(at + 1, "utf-16")
    s.apply_changes([change(start, end, "a")])  # in a top-level key, outside every body
    assert _shape(terraform_analysis(s)) == _shape(_fresh(s.text))
    assert (engine.hits, engine.misses, engine.walks) == (5, 6, 2)  # walked again, every block reused


@pytest.mark.parametrize(("old", "new", "at"), [
    ("{}", "[{}]", "["),  # an array of bodies: at its `[`
    ("{}", "\n  {}", "{"),  # on the next line
    (": {}", " {}", '"local"'),  # no colon (a syntax error): at the key, as nothing says better
])
def test_a_duplicate_placed_after_a_nested_key_follows_an_edit_of_what_is_between(old, new, at):
    """A second backend is reported at its body's `{` (or `[`): an edit inside the `terraform` block
    (the fast path) that changes what follows the backend's key leaves the definitions as they were,
    yet moves that place; the incremental analysis still equals a fresh one."""
    text = '{"terraform": {"backend": {"local": {}}}, "terraform": {"backend": {"local": {}}}}'
    s = DocumentState.open("file:///m/main.tf.json", text)
    assert _shape(terraform_analysis(s)) == _shape(_fresh(s.text))
    engine = s._engine
    where = text.rindex(old)
    s.apply_changes([change(s.document.position(where, "utf-16"), s.document.position(where + len(old), "utf-16"), new)])
    assert _shape(terraform_analysis(s)) == _shape(_fresh(s.text)), s.text
    assert engine.fast == 1  # inside the second `terraform` block
    [dup] = [d for d in terraform_analysis(s)[1] if d.code == "structure/duplicate-block"]
    expected = s.text.index(at, s.text.rindex('"local"'))  # search: the edited text
    assert (dup.start, dup.end) == (expected, expected + len(at))
