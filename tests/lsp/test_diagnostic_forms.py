"""`lsp.diagnostic_forms.Forms`: the LSP forms it reuses across edits are exactly a fresh conversion
(`convert.to_diagnostic`, unstructured as pygls sends it), whatever the edits; and `collapse`."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from internals import file_diagnostics
from lsprotocol import types
from pygls.protocol import default_converter

from hcljson_ls.diagnostic import Diagnostic, Runs
from hcljson_ls.features.diagnostics import TOO_MANY, collapse, collapse_runs, collect, gathered
from hcljson_ls.lsp import convert
from hcljson_ls.lsp.diagnostic_forms import Forms, publish_json, report_json
from hcljson_ls.workspace import Workspace

URI = "file:///forms/main.tf.json"
CONVERTER = default_converter()

# Misspelt references (errors with a quick fix), a duplicate key (a related location), non-ASCII and
# astral characters before and between them, a CRLF line, a multi-line block.
BASE = (
    '{\n  "variable": {"environment": {"default": "d\u00e9v \U0001F600"}},\r\n'
    '  "locals": {\n    "a": "${var.enviroment} \U0001F600 ${var.environmen}",\n'
    '    "b": "%s ${locl.x}",\n    "a": 1\n  },\n'
    '  "output": {"o": {"value": "${var.environmnt}"}}\n}\n'
)

_PIECES = st.sampled_from(["", "x", "\n", "\r\n", " ", "\u00e9", "\U0001F600", '"', "%", "${var.enviro}", "}"])


def fresh(found: list[Diagnostic], workspace: Workspace, encoding: str, docs_url: str | None) -> list[dict]:
    index = workspace.get(URI).line_index
    return [CONVERTER.unstructure(convert.to_diagnostic(d, index, encoding, URI, docs_url, workspace.documents.line_index))
            for d in found]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.integers(0, 4), _PIECES), min_size=1, max_size=8),
    st.sampled_from(["utf-16", "utf-8", "utf-32"]),
    st.sampled_from([None, "https://example.org/d.md"]),
)
def test_reused_forms_are_a_fresh_conversion_after_random_edits(edits, encoding, docs_url):
    workspace = Workspace()
    state = workspace.open(URI, BASE, 1, "terraform-json")
    forms = Forms()
    found = collect(workspace.snapshot(), URI)
    assert any(d.fixes for d in found) and any(d.related for d in found)  # the forms under test
    for version, (where, length, text) in enumerate(edits, start=2):
        # What the server encodes (`Runs` after an edit: the runs shared with the last version reused).
        shown = gathered(workspace.snapshot(), URI)
        assert list(shown) == found
        encoded = forms.encode(shown, state.line_index, encoding, URI, docs_url, workspace.documents.line_index)
        assert encoded == [json.dumps(x) for x in fresh(found, workspace, encoding, docs_url)]  # the very text
        assert all(x.isascii() for x in encoded)
        current = state.text
        start = int(where * len(current))
        end = min(len(current), start + length)
        index = state.line_index
        (sl, sc), (el, ec) = index.position(start, encoding), index.position(end, encoding)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)), text=text)
        workspace.change(URI, version, [change], encoding)
        found = collect(workspace.snapshot(), URI)
    encoded = forms.encode(gathered(workspace.snapshot(), URI), state.line_index, encoding, URI, docs_url,
                           workspace.documents.line_index)
    assert [json.loads(x) for x in encoded] == fresh(found, workspace, encoding, docs_url)


def test_a_moved_diagnostic_is_not_converted_again(monkeypatch):
    workspace = Workspace()
    state = workspace.open(URI, BASE, 1, "terraform-json")
    forms = Forms()
    first = forms.encode(collect(workspace.snapshot(), URI), state.line_index, "utf-16", URI)
    converted = []
    real = convert.to_diagnostic
    monkeypatch.setattr(convert, "to_diagnostic", lambda d, *a, **k: converted.append(d) or real(d, *a, **k))
    top = types.Position(line=0, character=1)
    workspace.change(URI, 2, [types.TextDocumentContentChangePartial(range=types.Range(start=top, end=top), text="\n\n")], "utf-16")
    found = collect(workspace.snapshot(), URI)
    moved = forms.encode(found, state.line_index, "utf-16", URI)
    assert converted == []  # every diagnostic moved two lines down: all reused
    assert [json.loads(x) for x in moved] == fresh(found, workspace, "utf-16", None)
    assert [json.loads(x)["range"]["start"]["line"] for x in moved] == [
        json.loads(x)["range"]["start"]["line"] + 2 for x in first]


def test_raw_reports_are_the_lsprotocol_reports():
    diagnostic = types.Diagnostic(
        range=types.Range(start=types.Position(line=1, character=2), end=types.Position(line=1, character=5)),
        message='50% "done"')
    items = [json.dumps(CONVERTER.unstructure(diagnostic))]
    assert json.loads(report_json(items, "7").text) == CONVERTER.unstructure(
        types.RelatedFullDocumentDiagnosticReport(items=[diagnostic], result_id="7"))
    assert json.loads(publish_json(URI, 3, items).text) == {"uri": URI, "version": 3, "diagnostics": [json.loads(items[0])]}
    assert json.loads(publish_json(URI, None, []).text) == {"uri": URI, "diagnostics": []}


def _d(start: int, code: str, severity: str = "error") -> Diagnostic:
    return Diagnostic(start, start + 1, severity, code, f"problem {start}")


def test_collapse_keeps_the_first_of_each_code_and_sums_up_the_rest_at_the_first_hidden():
    found = [_d(0, "a/x"), _d(1, "b/y"), _d(2, "a/x", "warning"), _d(3, "a/x", "warning"), _d(4, "a/x"), _d(5, "b/y")]
    out = collapse(found, 2)
    assert [(d.start, d.code) for d in out] == [(0, "a/x"), (1, "b/y"), (2, "a/x"), (3, TOO_MANY), (5, "b/y")]
    summary = out[3]
    assert summary.severity == "error"  # the most severe of the hidden (3: warning, 4: error)
    assert summary.summary == "2 more `a/x` diagnostics not shown" and "problem 3" in summary.detail
    assert collapse(found, 0) is found and collapse(found, 4) is found


# The diagnostics of an edit inside one block are `diagnostic.Runs` (the other blocks' moved by
# noting the delta once per run), whose forms are reused run by run.
_BLOCKS = json.dumps({
    "variable": {"environment": {"default": "d\u00e9v"}},
    "resource": {"aws_instance": {f"r{i}": {"ami": f"${{var.enviroment}}-{i}", "tags": {"n": "${var.environmnt}"}}
                                  for i in range(6)}},
    "output": {"o": {"value": "${var.environmen}"}},
}, indent=1, ensure_ascii=False)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from([("-", "x"), ("-", "\u00e9"), ('"tags"', "\n"),
                                                              ('"tags"', " \n\n ")])), min_size=1, max_size=5),
       st.sampled_from(["utf-16", "utf-32"]), st.sampled_from([0, 3]), st.booleans())
def test_runs_of_edits_give_a_fresh_conversion(edits, encoding, max_per_code, built):
    """Before the tree (`terraform.quick_edit`) and after it (`diagnostic.realigned`)."""
    workspace = Workspace()
    state = workspace.open(URI, _BLOCKS, 1, "terraform-json")
    if built:
        state.prepare()
    forms = Forms()
    runs_seen = False
    for version, (block, (mark, piece)) in enumerate(edits, start=2):
        shown = gathered(workspace.snapshot(), URI, max_per_code=max_per_code)
        found = collect(workspace.snapshot(), URI, max_per_code=max_per_code)
        assert list(shown) == found == collapse(file_diagnostics(state), max_per_code)
        assert forms.encode(shown, state.line_index, encoding, URI) == [json.dumps(x) for x in fresh(found, workspace, encoding, None)]
        runs_seen = runs_seen or isinstance(shown, Runs) and len(shown.runs) > 1 or max_per_code
        text = state.text
        # In block r<block>: inside its ami's string (after the "-"), or whitespace before "tags".
        at = text.index(mark, text.index('"ami"', text.index(f'"r{block}"'))) + (mark == "-")  # search: the text after the random edits
        (line, character) = state.line_index.position(at, encoding)
        where = types.Position(line=line, character=character)
        change = types.TextDocumentContentChangePartial(range=types.Range(start=where, end=where), text=piece)
        workspace.change(URI, version, [change], encoding)
        assert state.built == built  # before the tree: answered by the quick path (`terraform.quick_edit`)
    shown = gathered(workspace.snapshot(), URI, max_per_code=max_per_code)
    assert forms.encode(shown, state.line_index, encoding, URI) == [json.dumps(x) for x in fresh(collect(workspace.snapshot(), URI, max_per_code=max_per_code), workspace, encoding, None)]
    assert runs_seen or isinstance(shown, Runs) and len(shown.runs) > 1  # (the other blocks' runs shared)


def test_a_few_diagnostics_are_placed_without_every_line_start():
    """A document just opened has no line starts: its few diagnostics are placed by counting lines
    in the text (`line_index.line_bounds_at`), the same forms as from the index, which stays unbuilt.
    Lines end in "\\n", "\\r\\n" and a lone "\\r"; the misspelt references on lines 305 and 306."""
    ends = ("\n", "\r\n", "\r")
    filler = "".join(f'    "v{i}": {{}},' + ends[i % 3] for i in range(300))
    text = ('{\r\n  "variable": {\n' + filler + '    "env": {}\r\n  },\r'
            '  "output": {\n    "o": {"value": "${var.enviroment}"},\r\n    "p": {"value": "${var.en}"}\r  }\n}\n')
    for encoding in ("utf-16", "utf-8", "utf-32"):
        workspace = Workspace()
        state = workspace.open(URI, text, 1, "terraform-json")
        shown = gathered(workspace.snapshot(), URI)
        assert len(shown) == 2 and not state.line_index.has_line_starts
        encoded = Forms().encode(shown, state.line_index, encoding, URI)
        assert not state.line_index.has_line_starts
        assert [json.loads(x)["range"]["start"]["line"] for x in encoded] == [305, 306]
        assert encoded == [json.dumps(x) for x in fresh(list(shown), workspace, encoding, None)]  # (builds the index)


def test_collapse_of_runs_is_the_collapse_of_the_list():
    items = [_d(i, ("a/x", "b/y", "c/z")[i % 3], ("error", "warning")[i % 2]) for i in range(40)]
    runs = Runs.joined([*Runs.of(items[:25]).cut(0, 10), *Runs.of(items[:25]).cut(10, 25), *Runs.of(
        [d.shifted(-100) for d in items[25:]]).cut(0, 15, 100)])
    assert list(runs) == items
    for n in (0, 1, 4, 9, 13, 14, 40):
        assert list(collapse_runs(runs, n)) == collapse(list(items), n)
