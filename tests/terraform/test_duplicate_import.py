"""Two `import` blocks for one resource instance: `structure/duplicate-import`, as Terraform 1.11's
configs/module.go reports them ("Duplicate import configuration for ...", at the later block's
`to`), in one file and across the files of a module, through a real `Workspace` on a directory; the
quick open and an edit agree with the full analysis (Terraform's own verdicts: tests/conformance,
`structure/dup-import-*`)."""

from __future__ import annotations

from fixture import parse_fixture

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.jsonsyntax.parser import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.quick import quick_file

CODE = "structure/duplicate-import"

#: Ranges: the first `to`, then each later one Terraform reports (a number key written twice, a
#: second root key). Not duplicates: another key, a string key "0", no key, a key with a reference.
ONE_FILE = """
//- /main.tf.json
{"import": [
  {"to": ⟨"terraform_data.a[0]"⟩, "id": "x"},
  {"to": "terraform_data.a[1]", "id": "y"},
  {"to": "terraform_data.a[\\"0\\"]", "id": "y"},
  {"to": "terraform_data.b", "id": "y"},
  {"to": "module.m.terraform_data.a[0]", "id": "y"},
  {"for_each": {"k": 1}, "to": "terraform_data.c[each.key]", "id": "y"},
  {"for_each": {"k": 1}, "to": "terraform_data.c[each.key]", "id": "z"},
  {"to": ⟨"terraform_data.a[ 00 ]"⟩, "id": "z"}],
 "import": {"to": ⟨"terraform_data.a[0]"⟩, "id": "w"}}
"""


def _only(ws, uri):
    return [d for d in collect(ws.snapshot(), uri) if d.code == CODE]


def test_a_second_import_of_one_instance_is_reported_at_its_to(tmp_path):
    ws = parse_fixture(ONE_FILE).workspace(tmp_path)
    main = ws.uri("/main.tf.json")
    first, *later = ws.fixture.files["/main.tf.json"].ranges
    found = _only(ws, main)
    assert [(d.start, d.end) for d in found] == later
    for d in found:
        assert d.message.startswith('Duplicate import configuration for "terraform_data.a"')
        assert [(r.start, r.end) for r in d.related] == [first]


def test_the_quick_open_reports_what_the_full_analysis_reports():
    text = parse_fixture(ONE_FILE).files["/main.tf.json"].text
    full = analyze_file(text, parse(text).root, "main.tf.json").structure
    quick = quick_file(text, "main.tf.json")
    assert quick is not None
    assert [d for d in quick.diagnostics if d.code == CODE] == [d for d in full if d.code == CODE]
    assert len([d for d in full if d.code == CODE]) == 2


#: Terraform reads the module's files in name order and reports the later one's `to`.
ACROSS = """
//- /app/a.tf.json
{"import": {"to": ⟨"module.m[\\"k\\"].terraform_data.a"⟩, "id": "x"}}
//- /app/b.tf.json
{"import": [{"to": ⟨"module.m[\\"k\\"].terraform_data.a"⟩, "id": "y"}]}
"""


def test_across_files_the_file_terraform_reads_second_reports_it(tmp_path):
    ws = parse_fixture(ACROSS).workspace(tmp_path, open=["/app/b.tf.json"])
    a, b = ws.uri("/app/a.tf.json"), ws.uri("/app/b.tf.json")
    [d] = _only(ws, b)
    assert [(d.start, d.end)] == ws.fixture.files["/app/b.tf.json"].ranges
    assert "already declared in a.tf.json" in d.message
    assert [(r.uri, r.start, r.end) for r in d.related] == [(a, *ws.fixture.files["/app/a.tf.json"].ranges[0])]
    ws.workspace.open(a, ws.fixture.files["/app/a.tf.json"].text, 1, "terraform-json")
    assert _only(ws, a) == []  # the first one: Terraform says nothing there


def test_an_edit_of_a_to_adds_and_removes_the_duplicate(tmp_path):
    fixture = parse_fixture('{"import": [{"to": "terraform_data.a", "id": "x"}, {"to": ⟨"terraform_data.b"⟩, "id": "y"}]}')
    ws = fixture.workspace(tmp_path)
    main = ws.uri("/main.tf.json")
    start, end = fixture.only.ranges[0]
    assert _only(ws, main) == []
    for version, (to, expected) in enumerate((('"terraform_data.a"', 1), ('"terraform_data.a[0]"', 0), ('"terraform_data.a"', 1)), 2):
        text = ws.workspace.get(main).text
        ws.workspace.change(main, version, [{"range": _range(text, start, end), "text": to}], "utf-32")
        end = start + len(to)
        got = _only(ws, main)
        assert [(d.start, d.end) for d in got] == [(start, end)] * expected
        text = ws.workspace.get(main).text
        fresh = analyze_file(text, parse(text).root, "main.tf.json").structure
        assert got == [d for d in fresh if d.code == CODE]  # the incremental result is the full one


def _range(text: str, start: int, end: int) -> dict:
    def position(offset: int) -> dict:
        return {"line": text.count("\n", 0, offset), "character": offset - (text.rfind("\n", 0, offset) + 1)}

    return {"start": position(start), "end": position(end)}


def test_an_import_in_a_native_file_read_first_counts(tmp_path):
    fixture = parse_fixture("""
    //- /app/imports.tf
    import {
      to = ⟨terraform_data.a["k"]⟩
      id = "y"
    }
    //- /app/main.tf.json
    {"import": {"to": ⟨"terraform_data.a[\\"k\\"]"⟩, "id": "x"}}
    """)
    ws = fixture.workspace(tmp_path)
    [d] = _only(ws, ws.uri("/app/main.tf.json"))
    assert [(d.start, d.end)] == fixture.files["/app/main.tf.json"].ranges
    assert [(r.uri, r.start, r.end) for r in d.related] == [(ws.uri("/app/imports.tf"), *fixture.files["/app/imports.tf"].ranges[0])]
