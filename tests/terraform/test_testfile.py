"""Test files in JSON (`*.tftest.json`, `*.tofutest.json`): recognised by name, analysed as ours
whatever the editor's language id, and decoded with their own top-level blocks (`run`, `variables`,
`provider`, `mock_provider`, ...) instead of a configuration's, without Terraform's rules: nothing
valid is reported (a real test file from the shared corpus included), an unknown top-level key is."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from shared_data import REAL_CORPUS, require

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.workspace import is_ours
from hcljson_ls.terraform.testfile import TEST_SCHEMA, is_test_file

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


@pytest.mark.parametrize("name, expected", [
    ("main.tftest.json", True), ("x.TOFUTEST.JSON", True), ("file:///a/b/unit.tftest.json", True),
    ("main.tf.json", False), ("main.tftest.hcl", False), ("terraform.tfvars.json", False), (None, False),
])
def test_test_files_are_known_by_name(name, expected):
    assert is_test_file(name) is expected


def test_a_test_file_is_ours_whatever_the_language_id():
    assert is_ours(URI, "json") and is_ours(URI, None)
    assert not is_ours("file:///x/package.json", "json")


def test_a_test_file_reports_only_what_is_not_a_test_file_block():
    fixture = parse_fixture(TEST_FILE).only
    workspace = Workspace()
    assert workspace.open(URI, fixture.text, 1, "json") is not None
    found = [(d.start, d.end, d.code) for d in collect(workspace.snapshot(), URI)]
    [(start, end)] = fixture.ranges
    assert found == [(start, end, "structure/unknown-block-type")]
    assert {"run", "variables", "provider", "mock_provider", "override_resource", "override_data",
            "override_module", "test", "variable"} == set(TEST_SCHEMA.names())


def test_a_test_file_from_the_corpus_has_no_diagnostics():
    require(REAL_CORPUS)
    files = sorted(REAL_CORPUS.glob("*.tftest.json"))
    assert files, "the corpus has .tftest.json files"
    workspace = Workspace()
    for path in files:
        uri = "file:///nonexistent-hcljson-test/module/" + path.name
        workspace.open(uri, path.read_text(encoding="utf-8"), 1, "json")
        assert [(d.code, d.message) for d in collect(workspace.snapshot(), uri)] == [], path.name
