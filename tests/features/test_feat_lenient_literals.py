"""What Terraform (and OpenTofu) read leniently (issue 19, "both engines"): a variable validation's
`error_message` whose template does not parse is a warning, and a number or bool where a literal
string such as a description is expected converts to a string. Through a real `Workspace` over a
temporary directory and the real `hcljson-ls check`.

Terraform 1.11.4's verdicts (`terraform validate -json`) for the same modules are recorded below.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls.diagnostic import WARNING
from hcljson_ls.features.diagnostics import collect


def diagnostics(tmp_path: Path, src: str):
    fw = parse_fixture(src).workspace(tmp_path)
    return fw, collect(fw.snapshot(), fw.uri("/main.tf.json"))


def test_an_error_message_that_does_not_parse_is_a_warning_on_the_whole_value(tmp_path: Path) -> None:
    # terraform: warning "Validation error message expression is invalid": The error message provided could not be
    # evaluated as an expression, so Terraform is interpreting it as a string literal. ... (on the whole value)
    fw, found = diagnostics(tmp_path, '{"variable": {"v": {"validation": {"condition": "${var.v != 1}", '
                                      '"error_message": ⟨"bad ${"⟩}}}}')
    assert [(d.code, d.severity, d.start, d.end) for d in found] == [
        ("template/invalid-error-message", WARNING, *fw.fixture.only.ranges[0])]
    (d,) = found
    assert d.summary == "Validation error message expression is invalid"
    assert "interpreting it as a string literal" in d.detail and "Missing expression" in d.detail


def test_an_error_message_template_elsewhere_stays_an_error(tmp_path: Path) -> None:
    # a postcondition's error_message is no variable validation: Terraform evaluates it, and fails
    _, found = diagnostics(tmp_path, '{"resource": {"terraform_data": {"x": {"lifecycle": {"postcondition": '
                                     '{"condition": "${self.output != null}", "error_message": "bad ${"}}}}}}')
    assert [d.code for d in found] == ["template/missing-expression"]
    # and a valid template in a validation is checked as before (its references resolve)
    _, ok = diagnostics(tmp_path / "ok", '{"variable": {"v": {"validation": {"condition": "${var.v != 1}", '
                                         '"error_message": "v is ${var.v}"}}}}')
    assert ok == []


@pytest.mark.parametrize("src", [
    # terraform validate: valid (the values convert to strings)
    '{"variable": {"v": {"description": 12}}}',
    '{"output": {"o": {"value": 1, "description": true}}}',
    '{"variable": {"v": {"description": false, "type": "string"}}}',
])
def test_a_number_or_bool_description_converts_to_a_string(tmp_path: Path, src: str) -> None:
    _, found = diagnostics(tmp_path, src)
    assert found == []


def test_an_object_description_is_still_an_error(tmp_path: Path) -> None:
    # terraform: error (an object does not convert to a string)
    _, found = diagnostics(tmp_path, '{"variable": {"v": {"description": {"a": 1}}}}')
    assert [d.code for d in found] == ["structure/value-type"]


def test_check_prints_the_warning(tmp_path: Path, cli) -> None:
    (tmp_path / "main.tf.json").write_text('{"variable": {"v": {"description": 1, "validation": '
                                           '{"condition": "${var.v != 1}", "error_message": "bad ${"}}}}')
    result = cli("check", str(tmp_path))
    assert result.returncode == 0
    assert "warning: Validation error message expression is invalid" in result.stdout
