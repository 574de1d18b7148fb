"""Mock data files (`*.tfmock.json`) and query files (`*.tfquery.json`, Terraform 1.14): known by name,
decoded with their own schema (Terraform's `mock_provider.go` and `query_file.go`), checked by their
own rules, and kept out of the module's configuration (a query file's variables and locals serve its
own references only), in a real `Workspace` on a temporary directory and through the `check` command."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.features.hover import hover
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.definition import catalogue
from hcljson_ls.terraform.filekinds.mockfile import MOCK_SCHEMA, is_mock_file
from hcljson_ls.terraform.filekinds.queryfile import QUERY_SCHEMA, is_query_file
from hcljson_ls.terraform.filekinds.testfile_references import check_references
from hcljson_ls.workspace import DocumentState, Workspace


def _found(text: str, tmp_path, path: str, open_also=()):
    fixture = parse_fixture(text)
    ws = fixture.workspace(tmp_path, open=[path, *open_also])
    found = [(d.start, d.end, d.code, d.message) for d in collect(ws.snapshot(), ws.uri(path))]
    return found, fixture.files[path]


@pytest.mark.parametrize("name, kind", [
    ("aws.tfmock.json", catalogue.MOCK_JSON), ("find.tfquery.json", catalogue.QUERY_JSON),
    ("aws.tfmock.hcl", None), ("find.tfquery.hcl", None),
])
def test_mock_and_query_files_are_kinds_of_their_own(name, kind):
    assert catalogue.file_kind(name) == kind
    assert catalogue.extension(name) != ""  # a Terraform extension: never mistaken for a stem
    assert catalogue.module_files([name, "main.tf.json"]) == ["main.tf.json"]


def test_the_predicates_ignore_case():
    assert is_mock_file("file:///m/AWS.TFMOCK.JSON") and not is_mock_file("aws.tftest.json")
    assert is_query_file("x/Find.TFQuery.json") and not is_query_file("find.tf.json")


def test_a_mock_file_is_checked_by_its_schema(tmp_path):
    found, f = _found("""\
//- /mod/tests/mocks/aws.tfmock.json
{
  "mock_resource": {"aws_s3_bucket": {"defaults": {"arn": "arn:aws:s3:::b"}, "override_during": "plan"}},
  "mock_data": {"aws_ami": {"defaults": {"id": "ami-1"}, ⟨"default"⟩: {}}},
  "override_resource": {"target": "aws_s3_bucket.any_target_is_fine_here", "values": {"id": "b"}, "override_during": ⟨"plna"⟩},
  "override_data": {"values": {}},
  ⟨"mock_resources"⟩: {}
}
""", tmp_path, "/mod/tests/mocks/aws.tfmock.json")
    codes = [(s, e, code) for s, e, code, _ in found]
    unknown_arg, keyword, unknown_block = f.ranges
    assert (*unknown_arg, "structure/unknown-argument") in codes
    assert (*keyword, "structure/invalid-keyword") in codes
    assert (*unknown_block, "structure/unknown-block-type") in codes
    assert [c for _, _, c in codes].count("structure/missing-argument") == 1  # override_data without target
    assert [m for *_, c, m in found if c == "structure/unknown-block-type"][0].endswith('Did you mean "mock_resource"?')
    assert {"mock_resource", "mock_data", "override_resource", "override_data"} == set(MOCK_SCHEMA.names())
    assert len(found) == 4


QUERY = """\
//- /mod/main.tf.json
{"variable": {"region": {}}, "output": {"o": {"value": "${⟨var.limit⟩}"}}}
//- /mod/find.tfquery.json
{
  "variable": {"limit": {"type": "number", "default": 10}},
  "locals": {"tag": "x"},
  "provider": {"aws": {"region": "${var.region}"}},
  "list": {
    "aws_instance": {
      "all": {"provider": "aws", "limit": "${var.limit}", "include_resource": true,
              "config": {"filter": "${local.tag}", "anything": "the provider's"}},
      "some": {"provider": "aws", "count": 2, ⟨"for_each"⟩: {},
               "config": {"after": "${list.aws_instance.⟨al⟩} ${local.⟨tga⟩} ${var.region}"}},
      ⟨"bad name"⟩: {"provider": "aws"}
    },
    "aws_vpc": {"none": ⟨{⟩}}
  },
  ⟨"resource"⟩: {}
}
"""


def test_a_query_file_is_checked_by_its_schema_and_references(tmp_path):
    found, f = _found(QUERY, tmp_path, "/mod/find.tfquery.json")
    conflict, undeclared_list, undeclared_local, name, missing_provider, unknown = f.ranges
    codes = sorted((s, e, code) for s, e, code, _ in found)
    assert codes == sorted([
        (*conflict, "structure/conflicting-arguments"),  # Invalid combination of "count" and "for_each"
        (undeclared_list[0] - len("aws_instance."), undeclared_list[1], "reference/undeclared"),
        (undeclared_local[0] - len("local."), undeclared_local[1], "reference/undeclared"),  # Terraform's range: the traversal
        (*name, "structure/invalid-name"),  # Invalid list block name
        (*missing_provider, "structure/missing-argument"),  # Missing "provider" attribute (at the body's `{`)
        (*unknown, "structure/unknown-block-type"),
    ])
    messages = {code: m for *_, code, m in found}
    assert 'Did you mean "list.aws_instance.all"?' in [m for *_, c, m in found if "list block" in m][0]
    assert {"list", "provider", "locals", "variable"} == set(QUERY_SCHEMA.names())
    assert "count" in messages["structure/conflicting-arguments"]


def test_a_query_file_declares_nothing_for_the_configuration(tmp_path):
    # `var.limit` is declared by the open query file only: main.tf.json does not see it.
    found, f = _found(QUERY, tmp_path, "/mod/main.tf.json", open_also=["/mod/find.tfquery.json"])
    [marked] = f.ranges
    assert [(s, e, code) for s, e, code, _ in found] == [(*marked, "reference/undeclared")]


def test_hover_on_a_list_block():
    f = parse_fixture('{"l$[list]ist": {"aws_instance": {"all": {"p$[provider]rovider": "aws", "config": {}}}}}').only
    text = f.text
    workspace = Workspace()
    uri = "file:///nonexistent-hcljson-test/m/find.tfquery.json"
    workspace.open(uri, text, 1, "json")
    snapshot = workspace.snapshot()
    assert "terraform query" in hover(snapshot, uri, f.marks["list"]).markdown
    assert "provider configuration" in hover(snapshot, uri, f.marks["provider"]).markdown
    assert collect(snapshot, uri) == []


def test_check_reads_mock_and_query_files_and_tests_against_the_module_above(cli, tmp_path):
    parse_fixture("""\
//- /main.tf.json
{"resource": {"terraform_data": {"web": {}}}}
//- /tests/unit.tftest.json
{"run": {"one": {"assert": {"condition": "${terraform_data.webb.id != \\"\\"}", "error_message": "x"}}}}
//- /tests/mocks/aws.tfmock.json
{"mock_resorce": {}}
//- /find.tfquery.json
{"list": {"aws_instance": {"all": {"config": {}}}}}
""").write(tmp_path)
    result = cli("check", tmp_path)
    assert result.returncode == 1, result.stderr
    lines = sorted(line.split(": ", 1)[0].rsplit("/", 1)[-1] + " " + line.rsplit("[", 1)[-1] for line in result.stdout.splitlines())
    assert lines == [
        "aws.tfmock.json:1:2 structure/unknown-block-type]",
        "find.tfquery.json:1:35 structure/missing-argument]",  # the body's `{`, Terraform's range
        "unit.tftest.json:1:45 reference/undeclared]",
    ]
    assert 'Did you mean "terraform_data.web"?' in result.stdout
    assert "in 4 files" in result.stderr


@pytest.mark.parametrize("name", ["unit.tftest.json", "aws.tfmock.json", "find.tfquery.json", "terraform.tfvars.json"])
def test_only_configuration_files_offer_the_native_preview(name):
    from hcljson_ls.features.native_preview import applies_to

    assert not applies_to(f"file:///m/{name}")
    assert applies_to("file:///m/main.tf.json")


# ---- incremental analysis of the new kinds equals a fresh one ----------------------------------------

_SAMPLES = {
    "file:///m/tests/a.tftest.json": '{"run": {"a": {"command": "plan", "assert": [{"condition": "${run.b.x}", "error_message": "m"}]},'
                                     ' "b": {"variables": {"v": "${var.q}"}}}, "variables": {"q": 1},'
                                     ' "mock_provider": {"aws": {"mock_resource": {"t": {"defaults": {}}}}}}',
    "file:///m/aws.tfmock.json": '{"mock_resource": {"t": {"defaults": {"a": 1}}}, "override_data": {"target": "data.x.y"}}',
    "file:///m/find.tfquery.json": '{"list": {"t": {"n": {"provider": "aws", "config": {"a": "${local.l}"}}}}, "locals": {"l": 1},'
                                   ' "variable": {"v": {"type": "string"}}}',
}
#: Pieces an edit inserts: JSON punctuation, keys of the schemas, references.
_PIECES = st.sampled_from(['"', "{", "}", "[", "]", ",", ":", " ", '"run"', '"list"', '"command"', '"assert"',
                           '"mock_data"', '"target"', '"${run.a.x}"', '"${var.v}"', '"apply"', "1", "null", '"x"'])
_EDITS = st.lists(st.tuples(st.floats(0, 1), st.integers(0, 6), st.lists(_PIECES, max_size=3).map("".join)),
                  min_size=1, max_size=5)


def _shape(analysis):
    return ([(b.type_name, b.type_start, b.body.start, b.body.end) for b in analysis.body.blocks],
            [(d.start, d.end, d.code, d.message) for d in analysis.structure],
            [(d.start, d.end, d.code, d.message) for d in analysis.strings],
            [(d.start, d.end, d.code, d.message) for d in analysis.resolved])


@pytest.mark.parametrize("uri", sorted(_SAMPLES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=_EDITS)
def test_incremental_analysis_of_test_mock_and_query_files_equals_a_fresh_one(uri, edits):
    state = DocumentState.open(uri, _SAMPLES[uri])
    for where, length, inserted in edits:
        text = state.text
        start = int(where * len(text))
        end = min(len(text), start + length)
        state.apply_changes([((state.document.position(start, "utf-16"), state.document.position(end, "utf-16")), inserted)])
        fresh = analyze_file(state.text, parse(state.text).root, state.path)
        assert _shape(state.analysis) == _shape(fresh), state.text
        check_references(state.text, state.analysis.body.blocks, None)  # never raises on what the edits made
