"""Test files in JSON (`*.tftest.json`, `*.tofutest.json`): recognised by name, analysed as ours whatever
the editor's language id, decoded with their own schema (Terraform's `internal/configs/test_file.go`)
and rules, and their references resolved against the module under test (the directory above
`tests/`, else their own) in a real `Workspace` on a temporary directory.

The messages quoted in the comments are what Terraform 1.11.4 says for the same file (`terraform test`
over a module with one `terraform_data` resource, run offline for these tests; see each test)."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from shared_data import REAL_CORPUS, require

from hcljson_ls.features.completion import complete
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.features.hover import hover
from hcljson_ls.terraform.filekinds.testfile import TEST_SCHEMA, is_test_file
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.workspace import is_ours

URI = "file:///nonexistent-hcljson-test/module/tests/main.tftest.json"

TEST_FILE = """\
{
  "variables": {"region": "eu-west-1", "tags": {"a": "b"}},
  "provider": {"aws": {"region": "${var.region}"}},
  "mock_provider": {"aws": {"alias": "fake", "mock_resource": {"aws_s3_bucket": {"defaults": {"arn": "x"}}}}},
  "override_resource": [{"target": "aws_s3_bucket.b", "values": {"id": "i"}}],
  "run": {
    "setup": {"command": "apply", "module": {"source": "./setup"}},
    "check": {
      "command": "plan",
      "variables": {"name": "${run.setup.name}"},
      "assert": [{"condition": "${aws_s3_bucket.b.bucket == run.setup.name}", "error_message": "wrong name"}],
      "expect_failures": ["var.name"]
    }
  },
  ⟨"resource"⟩: {}
}
"""

#: The module under test of the tests below: one `terraform_data` resource, as Terraform ran it.
MODULE = """\
//- /mod/main.tf.json
{
  "variable": {"name": {"type": "string", "default": "a"}},
  "resource": {"terraform_data": {"web": {"input": "${var.name}"}}},
  "output": {"out": {"value": "${terraform_data.web.output}"}},
  "check": {"healthy": {"assert": [{"condition": "${var.name != \\"\\"}", "error_message": "empty"}]}}
}
"""


def _found(fixture_text: str, tmp_path, path: str, open_also=()) -> tuple[list[tuple[int, int, str, str, str]], object]:
    fixture = parse_fixture(fixture_text)
    ws = fixture.workspace(tmp_path, open=[path, *open_also])
    uri = ws.uri(path)
    found = [(d.start, d.end, d.code, d.severity, d.message) for d in collect(ws.snapshot(), uri)]
    return found, fixture.files[path]


@pytest.mark.parametrize("name, expected", [
    ("main.tftest.json", True), ("x.TOFUTEST.JSON", True), ("file:///a/b/unit.tftest.json", True),
    ("main.tf.json", False), ("main.tftest.hcl", False), ("terraform.tfvars.json", False), (None, False),
    ("aws.tfmock.json", False), ("find.tfquery.json", False),
])
def test_test_files_are_known_by_name(name, expected):
    assert is_test_file(name) is expected


def test_a_test_file_is_ours_whatever_the_language_id():
    assert is_ours(URI, "json") and is_ours(URI, None)
    assert is_ours("file:///x/aws.tfmock.json", "json") and is_ours("file:///x/find.tfquery.json", None)
    assert not is_ours("file:///x/package.json", "json")


def test_a_test_file_alone_reports_only_what_is_not_a_test_file_block():
    # No module under test on disk: nothing can be undeclared (a file alone is not a module).
    fixture = parse_fixture(TEST_FILE).only
    workspace = Workspace()
    assert workspace.open(URI, fixture.text, 1, "json") is not None
    found = [(d.start, d.end, d.code) for d in collect(workspace.snapshot(), URI)]
    [(start, end)] = fixture.ranges
    assert found == [(start, end, "structure/unknown-block-type")]
    assert {"run", "variables", "variable", "provider", "mock_provider", "override_resource", "override_data",
            "override_module", "test"} == set(TEST_SCHEMA.names())


def test_a_test_file_from_the_corpus_has_no_diagnostics():
    require(REAL_CORPUS)
    files = sorted(REAL_CORPUS.glob("*.tftest.json"))
    assert files, "the corpus has .tftest.json files"
    workspace = Workspace()
    for path in files:
        uri = "file:///nonexistent-hcljson-test/module/" + path.name
        workspace.open(uri, path.read_text(encoding="utf-8"), 1, "json")
        assert [(d.code, d.message) for d in collect(workspace.snapshot(), uri)] == [], path.name


VALID = MODULE + """\
//- /mod/mocks/aws.tfmock.json
{"mock_resource": {"aws_s3_bucket": {"defaults": {"arn": "arn:y"}}}}
//- /mod/tests/valid.tftest.json
{
  "test": {"parallel": true},
  "variable": {"extra": {"type": "string", "default": "e"}},
  "variables": {"name": "n", "other": "${var.from_the_command_line}"},
  "provider": {"aws": {"alias": "real", "region": "eu-west-1"}},
  "mock_provider": {"aws": {"alias": "fake", "override_during": "plan", "source": "./mocks",
                            "mock_resource": {"aws_s3_bucket": {"defaults": {"arn": "arn:x"}, "override_during": "apply"}},
                            "mock_data": {"aws_ami": {"defaults": {"id": "ami-1"}}},
                            "override_resource": {"target": "terraform_data.web", "values": {}}}},
  "override_resource": {"target": "terraform_data.web", "values": {"output": "o"}, "override_during": "plan"},
  "run": {
    "first": {"command": "apply", "state_key": "one", "parallel": false,
              "plan_options": {"mode": "normal", "refresh": true, "replace": ["terraform_data.web"], "target": ["terraform_data.web"]},
              "assert": [{"condition": "${output.out == var.name && var.extra == \\"e\\" && var.other != \\"\\"}",
                          "error_message": "${format(\\"got %s\\", terraform_data.web.output)}"}]},
    "second": {"command": "plan", "providers": {"aws": "aws.fake"},
               "variables": {"name": "${run.first.out}", "more": "${upper(var.extra)}"},
               "expect_failures": ["var.name", "output.out", "check.healthy", "terraform_data.web"],
               "assert": {"condition": "${run.first.out != \\"\\" && var.more != \\"\\"}", "error_message": "x"}},
    "elsewhere": {"module": {"source": "./setup"}, "assert": [{"condition": "${aws_instance.only_there.id != \\"\\"}",
                                                              "error_message": "x"}]}
  }
}
"""


def test_a_valid_test_file_has_no_diagnostics(tmp_path):
    # Every block and argument of the schema, with references to the module under test (one up).
    found, _ = _found(VALID, tmp_path, "/mod/tests/valid.tftest.json")
    assert found == []


MISTAKES = MODULE + """\
//- /mod/tests/mistakes.tftest.json
{
  "variables": {"name": "x", "bad": "${⟨run.first.out⟩}"},
  "provider": {"aws": {"alias": "fake"}},
  "override_resource": {"target": "⟨terraform_data.wbe⟩"},
  "run": {
    "first": {"command": ⟨"aply"⟩, ⟨"bogus"⟩: 1,
              "providers": {"aws": "⟨aws.fak⟩"},
              "assert": [{"condition": "${⟨var.nam⟩ == \\"x\\" && ⟨output.outt⟩ == \\"\\"}", "error_message": "bad"}]},
    "second": {"variables": {"name": "${⟨run.third⟩.out}", "local": "${⟨local.a⟩}"},
               "expect_failures": ["var.name", "⟨local.x⟩", "⟨terraform_data.nope⟩"],
               "plan_options": {"mode": ⟨"refresh"⟩},
               "assert": [{"condition": "${⟨terraform_data.webb⟩.output == run.⟨firstt⟩.out && ⟨check.healthy⟩}",
                           "error_message": "bad"}]},
    "third": {"assert": {"condition": "${run.first.⟨outt⟩ == run.first.out}", "error_message": "x"}}
  }
}
"""


def test_mistakes_in_a_test_file_are_reported_as_terraform_reports_them(tmp_path):
    found, f = _found(MISTAKES, tmp_path, "/mod/tests/mistakes.tftest.json")
    expected = [
        # Invalid reference: You can not reference run blocks from within the file variables block.
        ("test/invalid-reference", "error", "You can not reference run blocks"),
        # Warning: Invalid override target: The override target terraform_data.wbe does not exist ...
        ("test/unknown-override-target", "warning", "does not exist within the configuration under test"),
        # Invalid "command" keyword ... apply or plan.
        ("structure/invalid-keyword", "error", 'Did you mean "apply"?'),
        # Extraneous JSON object property: No argument or block type is named "bogus".
        ("structure/unknown-argument", "error", '"bogus"'),
        # Missing provider definition for aws.fak
        ("test/unknown-provider", "error", 'Did you mean "aws.fake"?'),
        # Reference to undeclared input variable ... Did you mean "name"?
        ("reference/undeclared", "error", 'Did you mean "var.name"?'),
        # This object does not have an attribute named "outt" (when the run applies).
        ("reference/undeclared", "error", 'Did you mean "output.out"?'),
        # Reference to unavailable run block: The run block "third" has not executed yet.
        ("test/unavailable-run", "error", "has not executed yet"),
        # Invalid reference: You can only reference earlier run blocks, file level, and global variables ...
        ("test/invalid-reference", "error", "earlier run blocks"),
        # Invalid `expect_failures` reference: You cannot expect failures from local.x.
        ("test/invalid-expect-failures", "error", "checkable objects"),
        # Missing expected failure: ... terraform_data.nope, was expected to report an error but did not.
        ("test/unknown-checkable", "warning", "Missing expected failure"),
        # Invalid "mode" keyword ... normal or refresh-only
        ("structure/invalid-keyword", "error", 'Did you mean "refresh-only"?'),
        # Reference to undeclared resource: A managed resource "terraform_data" "webb" has not been declared.
        ("reference/undeclared", "error", 'Did you mean "terraform_data.web"?'),
        # Reference to undeclared run block: There is no run "firstt" ... Did you mean "first"?
        ("test/undeclared-run", "error", 'Did you mean "first"?'),
        # Reference to "check" in invalid context
        ("test/invalid-reference", "error", 'The "check" object can only be referenced from an "expect_failures"'),
        # Unsupported attribute: This object does not have an attribute named "outt".
        ("test/unknown-run-output", "error", 'Did you mean "out"?'),
    ]
    assert [(s, e) for s, e, *_ in found] == f.ranges
    assert len(found) == len(expected)
    for (_, _, code, severity, message), (want_code, want_severity, words) in zip(found, expected):
        assert (code, severity) == (want_code, want_severity) and words in message, (code, message)


def test_a_test_file_beside_the_module_tests_its_own_directory(tmp_path):
    found, f = _found(MODULE + """\
//- /mod/unit.tftest.json
{"run": {"one": {"assert": {"condition": "${⟨terraform_data.nope⟩.id == \\"\\"}", "error_message": "x"}}}}
""", tmp_path, "/mod/unit.tftest.json")
    assert [(s, e, code) for s, e, code, *_ in found] == [(*f.ranges[0], "reference/undeclared")]


def test_missing_required_arguments_are_reported():
    text = '{"run": {"a": {"assert": [{"condition": "${true}"}], "module": {}}}, "override_data": {"values": {}}}'
    workspace = Workspace()
    workspace.open(URI, text, 1, "json")
    codes = [(d.code, d.message) for d in collect(workspace.snapshot(), URI)]
    # and the condition that refers to nothing (Terraform: "Invalid assert expression")
    assert [c for c, _ in codes] == ["reference/constant-condition"] + ["structure/missing-argument"] * 3
    assert all(any(n in m for n in ('"error_message"', '"source"', '"target"')) for _, m in codes[1:])


def test_a_run_module_without_source_is_reported_at_its_definition():
    # Terraform 1.11.4 and OpenTofu (test_file.go: 'Missing "source" attribute for module block', at
    # the block's DeclRange): the `{` of the run's module block, not its closing brace.
    f = parse_fixture('{"run": {"a": {"module": ⟨{⟩"version": "1.0.0"}}}}').only
    workspace = Workspace()
    workspace.open(URI, f.text, 1, "json")
    found = [(d.start, d.end) for d in collect(workspace.snapshot(), URI) if d.code == "structure/missing-argument"]
    assert found == f.ranges


def test_a_change_of_the_module_under_test_reaches_the_open_test_file(tmp_path):
    fixture = parse_fixture(MODULE + """\
//- /mod/tests/a.tftest.json
{"run": {"one": {"assert": {"condition": "${terraform_data.db.id != \\"\\"}", "error_message": "x"}}}}
""")
    ws = fixture.workspace(tmp_path, open=["/mod/tests/a.tftest.json", "/mod/main.tf.json"])
    test_uri, main_uri = ws.uri("/mod/tests/a.tftest.json"), ws.uri("/mod/main.tf.json")
    workspace = ws.workspace
    assert [d.code for d in collect(workspace.snapshot(), test_uri)] == ["reference/undeclared"]
    workspace.take_stale()
    text = fixture.files["/mod/main.tf.json"].text.replace('"web"', '"db"')
    workspace.change(main_uri, 2, [{"text": text}], "utf-16")
    collect(workspace.snapshot(), main_uri)  # its new declarations are noticed
    assert test_uri in workspace.take_stale()
    assert collect(workspace.snapshot(), test_uri) == []


def test_an_open_test_file_declares_nothing_for_the_module(tmp_path):
    # A run named like a resource, a file-level variable: none of them reaches main.tf.json.
    found, f = _found("""\
//- /mod/main.tf.json
{"output": {"o": {"value": "${⟨var.extra⟩}"}}}
//- /mod/unit.tftest.json
{"variable": {"extra": {}}, "run": {"one": {}}}
""", tmp_path, "/mod/main.tf.json", open_also=["/mod/unit.tftest.json"])
    assert [(s, e, code) for s, e, code, *_ in found] == [(*f.ranges[0], "reference/undeclared")]


def test_hover_and_completion_come_from_the_test_file_schema():
    f = parse_fixture('{"run": {"one": {"c$[key]ommand": "plan", "$[empty]": 1}}}').only
    workspace = Workspace()
    workspace.open(URI, f.text, 1, "json")
    snapshot = workspace.snapshot()
    found = hover(snapshot, URI, f.marks["key"])
    assert found is not None and '"plan"' in found.markdown and "run" in found.markdown
    labels = {item.label for item in complete(snapshot, URI, f.marks["empty"])}
    assert {"assert", "expect_failures", "plan_options", "variables", "module", "state_key"} <= labels
    assert "command" not in labels  # already set


def test_definition_goes_to_the_module_under_test_and_to_earlier_runs(tmp_path):
    from hcljson_ls.features.navigation import definition

    fixture = parse_fixture("""\
//- /mod/main.tf.json
{"variable": {⟨"name"⟩: {}}, "output": {⟨"out"⟩: {"value": 1}}, "resource": {"terraform_data": {⟨"web"⟩: {}}}}
//- /mod/tests/a.tftest.json
{"run": {⟨"first"⟩: {},
         "second": {"assert": {"condition": "${output.o$0ut == var.n$[var]ame && terraform_data.w$[resource]eb.id == run.f$[run]irst.out}",
                               "e$[key]rror_message": "x"}}}}
""")
    ws = fixture.workspace(tmp_path)
    uri, offset = ws.cursor
    main, test = fixture.files["/mod/main.tf.json"], fixture.files["/mod/tests/a.tftest.json"]
    main_uri = ws.uri("/mod/main.tf.json")
    snapshot = ws.snapshot()

    def found(offset: int) -> list[tuple[str, int, int]]:
        return [(loc.uri, loc.start, loc.end) for loc in definition(snapshot, uri, offset)]

    variable, output, resource = main.ranges
    assert found(offset) == [(main_uri, *output)]
    assert found(test.marks["var"]) == [(main_uri, *variable)]
    assert found(test.marks["resource"]) == [(main_uri, *resource)]
    assert found(test.marks["run"]) == [(uri, *test.ranges[0])]
    assert found(test.marks["key"]) == []


def test_a_mock_provider_source_must_be_a_directory_of_the_module_under_test(tmp_path):
    # Terraform 1.11.4: Error: Failed to read mock data directory -- Mock data directory ./nope does
    # not exist or cannot be read. (The path is relative to where `terraform test` runs.)
    found, f = _found(MODULE + """\
//- /mod/mocks/aws.tfmock.json
{"mock_resource": {"aws_s3_bucket": {"defaults": {}}}}
//- /mod/tests/m.tftest.json
{"mock_provider": {"aws": {"source": "./mocks"}, "google": {"source": ⟨"./nope"⟩}}, "run": {"a": {}}}
""", tmp_path, "/mod/tests/m.tftest.json")
    assert [(s, e, code, severity) for s, e, code, severity, _ in found] == [(*f.ranges[0], "test/missing-mock-source", "error")]
    assert "./nope does not exist" in found[0][4]


def test_two_runs_of_one_name_are_duplicates():
    # Terraform 1.11.4: Error: Duplicate "run" block names -- This test file already has a run named a
    # block defined at tests/a.tftest.json:1,16-17 (both at their body's `{`: the block's DefRange).
    fixture = parse_fixture('{"run": [{"a": {"command": "apply"}}, {"a": ⟨{⟩"command": "apply"}}]}').only
    workspace = Workspace()
    workspace.open(URI, fixture.text, 1, "json")
    found = [(d.start, d.end, d.code, d.message) for d in collect(workspace.snapshot(), URI)]
    assert [(s, e, c) for s, e, c, _ in found] == [(*fixture.ranges[0], "structure/duplicate-block")]
    assert found[0][3].startswith('Duplicate run "a"')


def test_hover_on_a_reference_names_its_declaration_in_the_module_under_test(tmp_path):
    fixture = parse_fixture(MODULE + """\
//- /mod/tests/a.tftest.json
{"run": {"first": {},
         "second": {"assert": {"c$[key]ondition": "${⟨terraform_data.web⟩.output == ⟨run.first⟩.out && ⟨var.name⟩ != \\"\\"}",
                               "error_message": "${⟨output.out⟩}"}}}}
""")
    ws = fixture.workspace(tmp_path, open=["/mod/tests/a.tftest.json"])
    uri = ws.uri("/mod/tests/a.tftest.json")
    f = fixture.files["/mod/tests/a.tftest.json"]
    found = [hover(ws.snapshot(), uri, start + 1) for start, _ in f.ranges]
    assert [(h.start, h.end) for h in found] == f.ranges
    titles = [h.markdown.split("\n")[1] for h in found]
    assert titles == ['resource "terraform_data" "web"', 'run "first"', 'variable "name"', 'output "out"']
    assert "`mod/main.tf.json` of the module under test" in found[0].markdown and "this test file" in found[1].markdown
    assert hover(ws.snapshot(), uri, f.marks["key"]) is not None  # the schema's, as before


@pytest.mark.parametrize("name, codes", [
    # Terraform 1.11.4: Invalid reference -- You can not reference run blocks from within the file variables block.
    ("a.tftest.json", ["test/invalid-reference", "test/invalid-reference"]),
    # OpenTofu evaluates the file's variables for each run with the states of the runs before it
    # (`getEvalContextForTest` in internal/command/test.go): a run of the file is fine, another is not.
    ("a.tofutest.json", ["test/undeclared-run"]),
])
def test_file_variables_may_refer_to_runs_in_opentofu_only(tmp_path, name, codes):
    found, _ = _found(MODULE + f"""\
//- /mod/tests/{name}
{{"variables": {{"name": "${{run.first.out}}", "other": "${{run.nope.out}}"}}, "run": {{"first": {{}}}}}}
""", tmp_path, f"/mod/tests/{name}")
    assert [code for _, _, code, *_ in found] == codes


def test_completion_of_references_offers_the_module_under_test_and_the_file_variables(tmp_path):
    fixture = parse_fixture(MODULE + """\
//- /mod/tests/a.tftest.json
{"variable": {"extra": {}}, "run": {"a": {"assert": {"condition": "${var.$0}", "error_message": "${terraform_data.$[data]}"}}}}
""")
    ws = fixture.workspace(tmp_path)
    uri, offset = ws.cursor
    assert {item.label for item in complete(ws.snapshot(), uri, offset)} == {"extra", "name"}
    assert [item.label for item in complete(ws.snapshot(), *ws.mark("data"))] == ["web"]


def test_a_run_of_a_local_module_resolves_against_that_module(tmp_path):
    # Terraform 1.11.4 on the same files: Reference to undeclared resource (terraform_data.only_ther),
    # then, once fixed, Unsupported attribute -- run.setup is object with 1 attribute "id".
    found, f = _found(MODULE + """\
//- /mod/setup/main.tf.json
{"resource": {"terraform_data": {"only_there": {}}}, "output": {"id": {"value": "${terraform_data.only_there.id}"}}}
//- /mod/tests/s.tftest.json
{"run": {"setup": {"module": {"source": "./setup"},
                   "assert": {"condition": "${⟨terraform_data.only_ther⟩.id != \\"\\" && terraform_data.only_there.id != \\"\\"}",
                              "error_message": "x"}},
         "after": {"assert": {"condition": "${run.setup.⟨idd⟩ != \\"\\" && terraform_data.web.id != \\"\\"}", "error_message": "x"}}}}
""", tmp_path, "/mod/tests/s.tftest.json")
    assert [(s, e, code) for s, e, code, *_ in found] == [(*f.ranges[0], "reference/undeclared"), (*f.ranges[1], "test/unknown-run-output")]
    assert 'Did you mean "terraform_data.only_there"?' in found[0][4] and 'Did you mean "id"?' in found[1][4]


def test_skip_cleanup_and_a_backend_in_a_plan_run_are_errors():
    # terraform/internal/configs/test_file.go: "The skip_cleanup attribute is only available in
    # experimental builds of Terraform." and "A backend block can only be used in the first apply run
    # block ... It cannot be included in a block to run a plan command."
    fixture = parse_fixture('{"test": {⟨"skip_cleanup"⟩: true}, "run": {"a": {⟨"skip_cleanup"⟩: true},'
                            ' "b": {"command": "plan", ⟨"backend"⟩: {"local": {}}}, "c": {"backend": {"local": {}}}}}').only
    workspace = Workspace()
    workspace.open(URI, fixture.text, 1, "json")
    found = [(d.start, d.end, d.code) for d in collect(workspace.snapshot(), URI)]
    assert found == [(*fixture.ranges[0], "test/experimental-only"), (*fixture.ranges[1], "test/experimental-only"),
                     (*fixture.ranges[2], "test/backend-in-plan")]


NEWER_SYNTAX = """\
//- /mod/main.tf.json
{"terraform": {"required_version": "~> 1.11.0"}, "variable": {"name": {"default": "a"}}}
//- /mod/tests/new.tftest.json
{
  ⟨"test"⟩: {"parallel": true},
  ⟨"variable"⟩: {"extra": {"default": 1}},
  "run": {"a": {"command": "plan", "state_key": "k", ⟨"parallel"⟩: true}}
}
"""


def test_test_file_syntax_newer_than_the_module_under_tests_version_is_an_error(tmp_path):
    # terraform test 1.11.4 on these files: Extraneous JSON object property -- No argument or block
    # type is named "test" / "variable" / "parallel" (test blocks and run.parallel came in 1.12,
    # file-level variable blocks in 1.13; state_key is 1.11's). The module's required_version
    # chooses 1.11 for the test file as for the module.
    found, f = _found(NEWER_SYNTAX, tmp_path, "/mod/tests/new.tftest.json")
    assert [(s, e, code) for s, e, code, *_ in found] == [(s, e, "language/newer-version") for s, e in f.ranges]
    assert "introduced in Terraform 1.12" in found[0][4] and "introduced in Terraform 1.13" in found[1][4]
    # With a version that has them all: nothing to say.
    found, _ = _found(NEWER_SYNTAX.replace("~> 1.11.0", ">= 1.13"), tmp_path / "newer", "/mod/tests/new.tftest.json")
    assert found == []


def test_an_opentofu_test_file_has_none_of_terraforms_newer_test_syntax(tmp_path):
    # OpenTofu's internal/configs/test_file.go (v1.12) decodes no test block, file-level variable
    # block, state_key or parallel.
    found, f = _found(NEWER_SYNTAX.replace("~> 1.11.0", ">= 1.0").replace("new.tftest.json", "new.tofutest.json")
                      .replace('"state_key": "k"', '⟨"state_key"⟩: "k"'), tmp_path, "/mod/tests/new.tofutest.json")
    assert [(s, e, code) for s, e, code, *_ in found] == [(s, e, "language/other-engine") for s, e in f.ranges]


def test_a_run_assert_that_refers_to_nothing_is_reported_as_terraform_reports_it(tmp_path):
    # terraform test (1.11.4): Invalid assert expression: The condition expression must refer to at least one
    # object from elsewhere in the configuration (tests/conformance: test-files/assert-no-message).
    found, f = _found(MODULE + """\
//- /mod/tests/constant.tftest.json
{
  "run": {
    "first": {"assert": [{"condition": ⟨"${true}"⟩, "error_message": "always"},
                         {"condition": "${terraform_data.web.input == \\"a\\"}", "error_message": "ok"}]}
  }
}
""", tmp_path, "/mod/tests/constant.tftest.json")
    assert [(s, e, code, message.partition(":")[0]) for s, e, code, _, message in found] == [
        (*f.ranges[0], "reference/constant-condition", "Invalid assert expression")]
