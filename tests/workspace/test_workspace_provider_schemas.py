"""Provider schemas through the workspace: a real `Workspace` over a real directory, schemas from
`providerSchemas.files` (`Workspace.set_schema_files`), diagnostics from `features.diagnostics`.

What is shown here (the rules themselves: tests/terraform/test_provider_schema_rules.py):
* the provider of a resource is found as Terraform finds it, across the module's files (JSON and
  native `required_providers`, the `provider` meta-argument, the implied `hashicorp/<prefix>`);
* schemas arriving, changing or going, and `required_providers` edited in another file, re-check
  exactly the blocks they concern (the documents become stale and their diagnostics change);
* an open document edited any way answers like a fresh one with schemas loaded;
* (the whole corpus through the workspace: tests/terraform/test_provider_schema_corpus.py);
* without a schema for a provider, nothing about its resources is reported.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import shared_data
from fixture import FixtureWorkspace, parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features import diagnostics
from hcljson_ls.terraform.schemas import provider_schema as ps
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import module_key, uri_of_path

AWS, RANDOM, LOCAL, TOFU_TEST = shared_data.AWS_SCHEMA, shared_data.RANDOM_SCHEMA, shared_data.LOCAL_SCHEMA, shared_data.TOFU_TEST_SCHEMA
shared_data.require(AWS, RANDOM, LOCAL, TOFU_TEST)


def build(tmp_path: Path, src: str, schemas=(RANDOM,), open: list[str] | None = None) -> FixtureWorkspace:
    fw = parse_fixture(src).workspace(tmp_path, open=open)
    fw.workspace.set_schema_files([str(p) for p in schemas])
    return fw


def schema_diags(fw: FixtureWorkspace, path: str) -> list[tuple[str, str]]:
    """(code, text of the range) of the `schema/` diagnostics of open file `path`."""
    text = fw.fixture.files[path].text if path in fw.fixture.files else None
    state = fw.snapshot().document(fw.uri(path))
    text = state.text if state is not None else text
    return [(d.code, text[d.start : d.end]) for d in diagnostics.collect(fw.snapshot(), fw.uri(path))
            if d.code.startswith("schema/")]


def test_typo_missing_argument_and_unknown_type_with_ranges(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /main.tf.json
{"resource": {
  "random_string": {"x": {"lenght": 4}},
  "random_nope": {"y": {}}
}}
""")
    got = diagnostics.collect(fw.snapshot(), fw.uri("/main.tf.json"))
    text = fw.fixture.files["/main.tf.json"].text
    assert [(d.code, text[d.start : d.end]) for d in got] == [
        ("schema/unknown-argument", '"lenght"'),
        ("schema/missing-argument", "}"),  # Terraform's range: the body's closing brace
        ("schema/unknown-resource-type", '"random_nope"'),
    ]
    typo = got[0]
    assert typo.plain_message.endswith('Did you mean "length"?')
    assert [(f.new_text, text[f.start : f.end]) for f in typo.fixes] == [('"length"', '"lenght"')]


def test_no_schema_for_the_provider_no_report(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /main.tf.json
{"resource": {"aws_instance": {"web": {"no_such_argument": 1}}, "mycloud_thing": {"a": {"b": 2}}}}
""")
    assert schema_diags(fw, "/main.tf.json") == []


def test_provider_found_through_required_providers_of_another_native_file(tmp_path: Path) -> None:
    # `rnd` is a local name for hashicorp/random declared in versions.tf: the resource's `provider`
    # meta-argument names it, so random's schema applies (and `length` is missing).
    fw = build(tmp_path, """
//- /versions.tf
terraform {
  required_providers {
    rnd = { source = "hashicorp/random" }
  }
}
//- /main.tf.json
{"resource": {"random_string": {"x": {"provider": "rnd.second", "special": "maybe"}}}}
""", open=["/main.tf.json"])
    assert schema_diags(fw, "/main.tf.json") == [
        ("schema/wrong-kind", '"maybe"'),
        ("schema/missing-argument", "}"),
    ]


def test_a_local_name_with_an_unknown_source_is_not_checked(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /versions.tf.json
{"terraform": {"required_providers": {"random": {"source": "example.com/acme/random"}}}}
//- /main.tf.json
{"resource": {"random_string": {"x": {"lenght": 4}}}}
""", open=["/main.tf.json"])
    assert schema_diags(fw, "/main.tf.json") == []


def test_editing_required_providers_in_another_open_file_rechecks(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /versions.tf.json
{"terraform": {"required_providers": {"random": {"source": "⟨example.com/acme/random⟩"}}}}
//- /main.tf.json
{"resource": {"random_string": {"x": {"lenght": 4}}}}
""", open=["/versions.tf.json", "/main.tf.json"])
    ws = fw.workspace
    main, versions = fw.uri("/main.tf.json"), fw.uri("/versions.tf.json")
    assert schema_diags(fw, "/main.tf.json") == []
    ws.take_stale()
    text = fw.fixture.files["/versions.tf.json"].text
    [source] = fw.fixture.files["/versions.tf.json"].ranges
    ws.change(versions, 2, [_change(text, *source, "hashicorp/random")], "utf-16")
    diagnostics.collect(fw.snapshot(), versions)  # the edited file's analysis notices the change
    assert main in ws.take_stale()
    assert [c for c, _ in schema_diags(fw, "/main.tf.json")] == ["schema/unknown-argument", "schema/missing-argument"]


def test_schemas_arriving_and_going_make_documents_stale(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /main.tf.json
{"resource": {"random_string": {"x": {"length": 4, "lenght": 4}}}}
""", schemas=())
    ws, uri = fw.workspace, fw.uri("/main.tf.json")
    assert schema_diags(fw, "/main.tf.json") == []
    ws.take_stale()
    ws.set_schema_files([str(RANDOM)])
    assert ws.take_stale() == {uri}
    assert schema_diags(fw, "/main.tf.json") == [("schema/unknown-argument", '"lenght"')]
    ws.set_module_schemas(module_key(uri), ps.load(LOCAL))  # another provider first: random still from the file
    assert ws.take_stale() == {uri}
    assert schema_diags(fw, "/main.tf.json") == [("schema/unknown-argument", '"lenght"')]
    ws.set_schema_files([])
    ws.set_module_schemas(module_key(uri), None)
    assert ws.take_stale() == {uri}
    assert schema_diags(fw, "/main.tf.json") == []


def test_a_file_that_is_not_a_schema_is_reported_once_and_ignored(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"nope": true}')
    fw = build(tmp_path, """
//- /main.tf.json
{"resource": {"random_string": {"x": {"lenght": 4}}}}
""", schemas=(bad, tmp_path / "missing.json", RANDOM))
    assert [c for c, _ in schema_diags(fw, "/main.tf.json")] == ["schema/unknown-argument", "schema/missing-argument"]
    problems = fw.workspace.schema_problems()
    assert len(problems) == 2 and "bad.json" in problems[0] and "missing.json" in problems[1]
    assert fw.workspace.schema_problems() == []


def test_relative_schema_paths_are_found_in_the_workspace_folder(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /main.tf.json
{"resource": {"random_string": {"x": {"length": 1, "lenght": 4}}}}
""").workspace(tmp_path)
    (tmp_path / "schemas").mkdir()
    shutil.copy(RANDOM, tmp_path / "schemas" / "random.json")
    fw.workspace.set_schema_files(["schemas/random.json"])
    assert schema_diags(fw, "/main.tf.json") == [("schema/unknown-argument", '"lenght"')]


def test_override_files_are_not_checked_alone(tmp_path: Path) -> None:
    # An override file's resource is merged into the one declared elsewhere: its partial body
    # must not be reported as missing `length`.
    fw = build(tmp_path, """
//- /main.tf.json
{"resource": {"random_string": {"x": {"length": 4}}}}
//- /main_override.tf.json
{"resource": {"random_string": {"x": {"special": false}}}}
""", open=["/main_override.tf.json"])
    assert schema_diags(fw, "/main_override.tf.json") == []


def test_opentofu_module_uses_the_opentofu_registry_schema(tmp_path: Path) -> None:
    schema = json.loads(TOFU_TEST.read_text())
    address = next(iter(schema["provider_schemas"]))
    resource = next(iter(schema["provider_schemas"][address]["resource_schemas"]))
    local = address.rsplit("/", 1)[1]
    src = ("//- /main.tofu.json\n" + json.dumps({
        "terraform": {"required_providers": {local: {"source": address}}},
        "resource": {resource: {"r": {"no_such_argument_here": 1}}},
    }) + "\n")
    fw = build(tmp_path, src, schemas=(TOFU_TEST,))
    assert ("schema/unknown-argument", '"no_such_argument_here"') in schema_diags(fw, "/main.tofu.json")


# ---- incremental equals fresh ----------------------------------------------------------------------

DOC = json.dumps({
    "terraform": {"required_providers": {"random": {"source": "hashicorp/random"}}},
    "resource": {
        "random_string": {"a": {"length": 4, "special": True}, "b": {"lenght": 1}},
        "random_pet": {"p": {"prefix": "x", "keepers": {"k": "v"}}},
        "random_password": {"pw": {"length": "${var.n}", "override_special": 3}},
    },
    "data": {"random_nope": {"d": {}}},
}, indent=1)


def _fresh(ws: Workspace, uri: str, text: str):
    other = Workspace(ws.folders)
    other.set_schema_files([str(RANDOM)])
    other.open(uri.replace("main.tf.json", "fresh.tf.json"), text, 1, "terraform-json")
    return other, uri.replace("main.tf.json", "fresh.tf.json")


edit_strategy = st.lists(
    st.tuples(st.integers(0, len(DOC)), st.integers(0, 8),
              st.sampled_from(["", "x", '"', "{", "}", ",", '"length": 2', '"special": "no"', "random_", "1"])),
    min_size=1, max_size=6,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=edit_strategy)
def test_edited_document_with_schemas_answers_like_a_fresh_one(tmp_path: Path, edits) -> None:
    folder = tmp_path / "m"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    ws = Workspace([str(folder)])
    ws.set_schema_files([str(RANDOM)])
    uri = uri_of_path(str(folder / "main.tf.json"))
    state = ws.open(uri, DOC, 1, "terraform-json")
    assert state is not None
    first = {d.code for d in diagnostics.collect(ws.snapshot(), uri)}
    assert {"schema/unknown-argument", "schema/unknown-resource-type"} <= first
    text = DOC
    version = 1
    for start, length, new in edits:
        start = min(start, len(text))
        end = min(len(text), start + length)
        version += 1
        ws.change(uri, version, [_change(text, start, end, new)], "utf-16")
        text = text[:start] + new + text[end:]
        got = [(d.code, d.start, d.end, d.summary) for d in diagnostics.collect(ws.snapshot(), uri)]
    other, fresh = _fresh(ws, uri, text)
    want = [(d.code, d.start, d.end, d.summary) for d in diagnostics.collect(other.snapshot(), fresh)]
    assert got == want


def _change(text: str, start: int, end: int, new: str) -> dict:
    """The LSP content change replacing `text[start:end]` with `new`."""
    return {"range": {"start": _pos(text, start), "end": _pos(text, end)}, "text": new}


def _pos(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset)
    col = offset - (text.rfind("\n", 0, offset) + 1)
    return {"line": line, "character": len(text[offset - col : offset].encode("utf-16-le")) // 2}
