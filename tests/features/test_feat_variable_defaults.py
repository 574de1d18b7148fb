"""A variable's `default` must convert to its `type` (issue 19, section 3), through a real
`Workspace` over a temporary directory and the real `hcljson-ls check`.

Each invalid case records what `terraform validate -json` (Terraform 1.11.4) said for the same
module: all are errors with the summary "Invalid default value for variable", on the whole default
value. Fixtures (tests/fixture.py): `⟨⟩` marks the range each diagnostic must cover.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features.diagnostics import collect

INVALID = [
    # terraform: This default value is not compatible with the variable's type constraint: a number is required.
    ('{"variable": {"v": {"type": "number", "default": ⟨"x"⟩}}}', "a number is required."),
    # terraform: ...: attribute "a" is required.
    ('{"variable": {"w": {"type": "object({a=string,b=optional(number)})", "default": ⟨{"b": 1}⟩}}}',
     'attribute "a" is required.'),
    # terraform: ...: list of string required.
    ('{"variable": {"l": {"type": "list(string)", "default": ⟨{"a": "b"}⟩}}}', "list of string required."),
    # terraform: ...: ["a"]: a number is required.
    ('{"variable": {"f": {"type": "map(number)", "default": ⟨{"a": "x"}⟩}}}', 'element "a": a number is required.'),
    # terraform: ...: a bool is required. (the default is taken literally)
    ('{"variable": {"i": {"type": "bool", "default": ⟨"${true}"⟩}}}', "a bool is required."),
    # terraform: A null default value is not valid when nullable=false.
    ('{"variable": {"a": {"type": "string", "default": ⟨null⟩, "nullable": false}}}',
     "A null default value is not valid when nullable=false."),
]


@pytest.mark.parametrize(("src", "detail"), INVALID)
def test_a_default_that_does_not_fit_the_type(tmp_path: Path, src: str, detail: str) -> None:
    fw = parse_fixture(src).workspace(tmp_path)
    found = [d for d in collect(fw.snapshot(), fw.uri("/main.tf.json")) if d.code == "variable/invalid-default"]
    assert [(d.start, d.end) for d in found] == fw.fixture.only.ranges
    (d,) = found
    assert d.severity == ERROR and d.summary == "Invalid default value for variable"
    assert d.detail.endswith(detail)


VALID = [
    # terraform validate: valid, each of them
    '{"variable": {"a": {"type": "string", "default": null}}}',
    '{"variable": {"b": {"type": "any", "default": {"x": [1, "a"]}}}}',
    '{"variable": {"c": {"type": "list(any)", "default": [1, "a"]}}}',
    '{"variable": {"d": {"type": "object({a=string,b=optional(number)})", "default": {"a": 1, "z": 2}}}}',
    '{"variable": {"e": {"type": "number", "default": "12"}}}',
    '{"variable": {"h": {"default": {"a": 1}}}}',
    '{"variable": {"s": {"type": "string", "default": true}}}',
    '{"variable": {"t": {"type": "tuple([string, number])", "default": ["a", "1"]}}}',
    '{"variable": {"o": {"type": "map(object({a = optional(string, \\"x\\")}))", "default": {"k": {}}}}}',
]


@pytest.mark.parametrize("src", VALID)
def test_defaults_that_fit(tmp_path: Path, src: str) -> None:
    fw = parse_fixture(src).workspace(tmp_path)
    assert collect(fw.snapshot(), fw.uri("/main.tf.json")) == []


def test_check_reports_an_invalid_default(tmp_path: Path, cli) -> None:
    (tmp_path / "main.tf.json").write_text('{"variable": {"v": {"type": "number", "default": "x"}}}')
    result = cli("check", str(tmp_path))
    assert result.returncode == 1
    assert "main.tf.json:1:50: error: Invalid default value for variable" in result.stdout
    assert "[variable/invalid-default]" in result.stdout
