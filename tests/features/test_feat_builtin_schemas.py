"""The built-in `terraform` provider (`terraform_data`, `terraform_remote_state`) is checked, hovered
and completed with no provider schema configured (issue 19, section 3), through a real `Workspace`
over a temporary directory.

Each invalid case records what `terraform validate -json` (Terraform 1.11.4, `init -backend=false`,
offline) said for the same module, so the comparison runs without Terraform.

Fixtures (tests/fixture.py): `$0` is the cursor, `⟨⟩` the range a diagnostic must cover.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features import completion
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.features.hover import hover


def diagnostics_of(root: Path, src: str):
    fw = parse_fixture(src).workspace(root)
    uri = fw.uri("/main.tf.json")
    return fw, collect(fw.snapshot(), uri)


INVALID = [
    pytest.param(
        '{"resource": {"terraform_data": {"x": {⟨"inpt"⟩: 1}}}}',
        "schema/unknown-argument", 'Did you mean "input"?',
        # terraform: error "Extraneous JSON object property": No argument or block type is named "inpt". Did you mean "input"?
        id="terraform_data-unknown-argument",
    ),
    pytest.param(
        '{"data": {"terraform_remote_state": {"s": {"workspace": "a"⟨}⟩}}}',
        "schema/missing-argument", 'The argument "backend"',
        # terraform: error "Missing required argument": The argument "backend" is required, but no definition was found.
        # (at the body's closing brace, as the schema rules report it)
        id="terraform_remote_state-missing-backend",
    ),
    pytest.param(
        '{"resource": {"terraform_data": {"y": {⟨"output"⟩: "x"}}}}',
        "schema/computed-only", '"output"',
        # terraform: error ""output" attribute is read-only" (no range)
        id="terraform_data-output-read-only",
    ),
    pytest.param(
        '{"resource": {"terraform_data": {"y": {⟨"id"⟩: "x"}}}}',
        "schema/computed-only", '"id"',
        # terraform: error ""id" attribute is read-only" (no range)
        id="terraform_data-id-read-only",
    ),
    pytest.param(
        '{"resource": {⟨"terraform_foo"⟩: {"y": {}}}}',
        "schema/unknown-resource-type", "terraform_foo",
        # terraform: error "Invalid resource type": The provider terraform.io/builtin/terraform does not support resource type "terraform_foo".
        id="unknown-built-in-resource-type",
    ),
    pytest.param(
        '{"resource": {"terraform_data": {"x": {"input": 1, ⟨"input"⟩: 2}}}}',
        "structure/duplicate-argument", 'The argument "input"',
        # terraform: error "Duplicate argument": The argument "input" was already set at main.tf.json:1,40-47.
        id="terraform_data-argument-twice",
    ),
    pytest.param(
        '{"ephemeral": {⟨"terraform_data"⟩: {"e": {}}}}',
        "schema/unknown-resource-type", "ephemeral resource type",
        # terraform: error "Invalid ephemeral resource": The provider terraform.io/builtin/terraform does not
        # support ephemeral resource "terraform_data".
        id="no-built-in-ephemeral-resource",
    ),
]


@pytest.mark.parametrize(("src", "code", "detail"), INVALID)
def test_the_builtin_provider_is_checked_without_any_schema_configured(tmp_path: Path, src: str, code: str, detail: str) -> None:
    fw, found = diagnostics_of(tmp_path, src)
    assert [d.code for d in found] == [code]
    (d,) = found
    assert d.start < d.end
    assert d.severity == ERROR and detail in (d.summary + " " + d.detail)
    expected = fw.fixture.files["/main.tf.json"].ranges[0]
    assert (d.start, d.end) == expected  # Terraform's subject range


VALID = [
    # terraform validate: valid for each of these
    '{"resource": {"terraform_data": {"x": {"input": {"a": [1, "b"]}, "triggers_replace": ["${timestamp()}"]}}}}',
    '{"resource": {"terraform_data": {"x": {}}}}',
    '{"resource": {"terraform_data": {"x": {"id": null, "input": null}}}}',
    '{"data": {"terraform_remote_state": {"s": {"backend": "local", "config": {"path": "x"}, "defaults": {"a": 1},'
    ' "workspace": "w"}}}}',
    # the computed-only `outputs` of terraform_remote_state set anyway: the provider does not refuse it
    # (unlike terraform_data's read-only `id` and `output` above); conformance case remote-state-computed-outputs
    '{"data": {"terraform_remote_state": {"s": {"backend": "local", "outputs": {"a": 1}}}}}',
    # the `terraform` provider in `required_providers` is an error of its own in Terraform, not a schema matter
    '{"resource": {"terraform_data": {"x": {"count": 2, "lifecycle": {"create_before_destroy": true}}}}}',
]


@pytest.mark.parametrize("src", VALID)
def test_valid_builtin_blocks_have_no_diagnostic(tmp_path: Path, src: str) -> None:
    _, found = diagnostics_of(tmp_path, src)
    assert found == []


def test_attributes_after_a_terraform_data_address_complete(tmp_path: Path) -> None:
    src = '{"resource": {"terraform_data": {"x": {}}}, "output": {"o": {"value": "${terraform_data.x.$0}"}}}'
    fw = parse_fixture(src).workspace(tmp_path)
    uri, offset = fw.cursor
    labels = {i.label for i in completion._complete(fw.snapshot(), uri, offset, True)}
    assert {"id", "input", "output", "triggers_replace"} <= labels


def test_arguments_of_terraform_remote_state_complete_and_hover(tmp_path: Path) -> None:
    fw = parse_fixture('{"data": {"terraform_remote_state": {"s": {"$0"}}}}').workspace(tmp_path)
    uri, offset = fw.cursor
    labels = [i.label for i in completion._complete(fw.snapshot(), uri, offset, True)]
    assert labels[0] == "backend"  # required first
    assert {"config", "defaults", "workspace"} <= set(labels) and "outputs" not in labels  # computed only
    fw2 = parse_fixture('{"data": {"terraform_remote_state": {"s": {"back$0end": "local"}}}}').workspace(tmp_path / "h")
    uri, offset = fw2.cursor
    found = hover(fw2.snapshot(), uri, offset)
    assert found is not None and "The remote backend to use" in found.markdown and "`string`" in found.markdown
