"""Test files against what Terraform itself says: each case of `data/terraform_test_cases.json` (a test
file, and the "Error:"/"Warning:" summaries of `terraform init` + `terraform test` on it, recorded from
Terraform 1.11.4 by `tools/record_test_file_cases.py` over a module of one `terraform_data` resource)
is checked in a real `Workspace` on a temporary directory: we report the diagnostic codes that stand
for Terraform's summaries, no others, with Terraform's severity, and nothing for the valid file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

RECORDED = json.loads((Path(__file__).parent / "data" / "terraform_test_cases.json").read_text(encoding="utf-8"))

#: Terraform's summary -> our code for the same problem.
CODES = {
    'Invalid "command" keyword': "structure/invalid-keyword",
    'Invalid "mode" keyword': "structure/invalid-keyword",
    "Extraneous JSON object property": "structure/unknown-argument",
    "Missing required argument": "structure/missing-argument",
    'Duplicate "run" block names': "structure/duplicate-block",
    "Invalid run block name": "structure/invalid-name",
    "Reference to undeclared input variable": "reference/undeclared",
    "Reference to undeclared resource": "reference/undeclared",
    "Reference to undeclared local value": "reference/undeclared",
    "Reference to undeclared output value": "reference/undeclared",
    "Reference to undeclared run block": "test/undeclared-run",
    "Reference to unavailable run block": "test/unavailable-run",
    "Unsupported attribute": "test/unknown-run-output",
    "Invalid reference": "test/invalid-reference",
    'Reference to "check" in invalid context': "test/invalid-reference",
    "Invalid `expect_failures` reference": "test/invalid-expect-failures",
    "Missing expected failure": "test/unknown-checkable",
    "Invalid override target": "test/unknown-override-target",
    "Missing provider definition for terraform.fak": "test/unknown-provider",
    "Failed to read mock data directory": "test/missing-mock-source",
    "Invalid assert expression": "reference/constant-condition",  # a condition that refers to nothing
}
#: Summaries that only follow from another one (init's wrapper).
CONSEQUENCES = {"Terraform encountered problems during initialisation, including problems"}
#: Reported by Terraform only when the run fails, so a warning here (docs/diagnostics.md says why).
RUNTIME = {"test/unknown-checkable"}


def test_the_recording_is_of_the_version_the_docs_name():
    assert RECORDED["terraform_version"] == "1.11.4"
    assert len(RECORDED["cases"]) >= 20


@pytest.mark.parametrize("name", sorted(RECORDED["cases"]))
def test_we_say_what_terraform_says(tmp_path, name):
    case = RECORDED["cases"][name]
    (tmp_path / "tests").mkdir()
    (tmp_path / "main.tf.json").write_text(json.dumps(RECORDED["module"], indent=1), encoding="utf-8")
    path = tmp_path / "tests" / "case.tftest.json"
    text = json.dumps(case["file"], indent=1)
    path.write_text(text, encoding="utf-8")
    workspace = Workspace([str(tmp_path)])
    uri = uri_of_path(str(path))
    workspace.open(uri, text, 1, "json")
    ours = {(d.code, d.severity) for d in collect(workspace.snapshot(), uri)}
    theirs = {(CODES[summary], "warning" if CODES[summary] in RUNTIME else severity)
              for severity, summary in case["terraform"] if summary not in CONSEQUENCES}
    assert ours == theirs, case["terraform"]
