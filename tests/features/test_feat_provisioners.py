"""The built-in provisioners (`local-exec`, `remote-exec`, `file`) and `connection` blocks are
checked against Terraform's schemas (issue 19, section 3), through a real `Workspace` over a
temporary directory and the real `hcljson-ls check`.

Each invalid case records what `terraform validate -json` (Terraform 1.11.4) said for the same
module. Fixtures (tests/fixture.py): `⟨⟩` marks the range of each diagnostic, in order.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features.diagnostics import collect


def found(tmp_path: Path, src: str):
    fw = parse_fixture(src).workspace(tmp_path)
    return fw, collect(fw.snapshot(), fw.uri("/main.tf.json"))


R = '{"resource": {"terraform_data": {"y": %s}}}'

INVALID = [
    pytest.param(
        R % '{"provisioner": {"local-exec": {⟨"comand"⟩: "x"⟨}⟩}}',
        [("schema/unknown-argument", 'Did you mean "command"?'), ("schema/missing-argument", '"command"')],
        # terraform: "Extraneous JSON object property": No argument or block type is named "comand". Did you mean
        # "command"? (on the key); "Missing required argument": The argument "command" is required (closing brace)
        id="local-exec-typo",
    ),
    pytest.param(
        R % '{"provisioner": {"local-exec": {"command": "a", "interpreter": ⟨"x"⟩, "quiet": ⟨"maybe"⟩, "environment": ⟨[1]⟩}}}',
        [("schema/wrong-kind", '"interpreter"'), ("schema/wrong-kind", '"quiet"'), ("schema/wrong-kind", '"environment"')],
        # terraform: "Incorrect attribute value type": Inappropriate value for attribute "interpreter": list of string
        # required. / "quiet": a bool is required. / "environment": map of string required. (on each value)
        id="local-exec-types",
    ),
    pytest.param(
        R % '{"provisioner": [{⟨"file"⟩: {"destination": "/x"}}]}',
        [("provisioner/invalid-config", "Must provide one of 'source' or 'content'")],
        # terraform: error "Must provide one of 'source' or 'content'" (no range)
        id="file-neither",
    ),
    pytest.param(
        R % '{"provisioner": {⟨"file"⟩: {"source": "a", "content": "b", "destination": "c"}}}',
        [("provisioner/invalid-config", "Cannot set both 'source' and 'content'")],
        # terraform: error "Cannot set both 'source' and 'content'" (no range)
        id="file-both",
    ),
    pytest.param(
        R % '{"provisioner": [{⟨"remote-exec"⟩: {"inline": ["a"], "script": "b"}}]}',
        [("provisioner/invalid-config", 'Only one of "inline", "script", or "scripts" must be set')],
        # terraform: "Invalid remote-exec provisioner configuration": Only one of "inline", "script", or "scripts" must be set
        id="remote-exec-two",
    ),
    pytest.param(
        R % '{"provisioner": [{"remote-exec": {"inline": ⟨"a"⟩, "connection": {"type": "ssh", "host": "x", "port": ⟨"abc"⟩, ⟨"foo"⟩: 1}}}]}',
        [("schema/wrong-kind", '"inline"'), ("schema/wrong-kind", '"port"'), ("schema/unknown-argument", '"foo"')],
        # terraform: "Incorrect attribute value type" for "inline" (list of string required) and "port" (a number
        # is required); "Extraneous JSON object property": No argument or block type is named "foo".
        id="connection-in-a-provisioner",
    ),
    pytest.param(
        R % '{"connection": {"type": "ssh"⟨}⟩, "provisioner": {"remote-exec": {"inline": ["x"]}}}',
        [("schema/missing-argument", '"host"')],
        # terraform: "Missing required argument": The argument "host" is required, but no definition was found.
        # (at the connection's closing brace)
        id="connection-without-host",
    ),
    pytest.param(
        R % '{"connection": {"host": "h", ⟨"hots"⟩: "x"}, "provisioner": {"local-exec": {"command": "x"}}}',
        [("schema/unknown-argument", 'Did you mean "host"?')],
        # terraform: "Extraneous JSON object property": No argument or block type is named "hots". Did you mean "https"?
        id="connection-typo",
    ),
]


@pytest.mark.parametrize(("src", "expected"), INVALID)
def test_provisioners_and_connections_are_checked(tmp_path: Path, src: str, expected: list[tuple[str, str]]) -> None:
    fw, diags = found(tmp_path, src)
    assert [(d.start, d.end) for d in diags] == fw.fixture.only.ranges
    assert [d.code for d in diags] == [code for code, _ in expected]
    for d, (_, words) in zip(diags, expected):
        assert d.severity == ERROR and words in d.summary + " " + d.detail
        assert "provider" not in d.detail  # these schemas are Terraform's own


VALID = [
    # terraform validate: valid, each of them
    R % '{"connection": {"type": "ssh", "foo": 1}}',  # no provisioner uses it: not checked
    R % '{"provisioner": {"local-exec": {"command": "${self.id}", "when": "destroy", "on_failure": "continue"}}}',
    R % '{"provisioner": {"remote-exec": {"inline": "${[1]}"}}, "connection": {"host": "${self.id}", "port": "${1}"}}',
    R % '{"provisioner": {"remote-exec": {"scripts": ["a"], "connection": {"host": "h", "hots": 1}}}, "connection": {"host": "b", "foo": 1}}',
    R % '{"provisioner": {"remote-exec": {"script": "a", "connection": {"port": 22}}}, "connection": {"host": "h"}}',
    R % '{"provisioner": {"file": {"content": "x", "destination": "y", "source": null}}}',
    R % '{"provisioner": [{"local-exec": {"command": "x", "interpreter": ["bash", "-c"], "environment": {"A": 1}, "quiet": true}}]}',
]


def test_a_merged_connection_still_needs_a_host_in_the_resource_connection(tmp_path: Path) -> None:
    # terraform: "Missing required argument": The argument "host" is required, but no definition was found.
    # (at the closing brace of the resource's connection: Terraform reads it with the whole schema)
    fw, diags = found(tmp_path, R % '{"provisioner": {"remote-exec": {"scripts": ["a"], "connection": {"host": "h"}}},'
                                    ' "connection": {"type": "winrm"⟨}⟩}')
    assert [(d.code, d.start, d.end) for d in diags] == [("schema/missing-argument", *fw.fixture.only.ranges[0])]


def test_a_provisioner_of_another_type_is_left_alone(tmp_path: Path) -> None:
    # terraform: "Missing required provisioner plugin" (no range) unless the plugin was installed by hand:
    # not known from the configuration, so nothing is said.
    _, diags = found(tmp_path, R % '{"provisioner": {"my-plugin": {"any": 1, "connection": {"x": 1}}}}')
    assert diags == []


@pytest.mark.parametrize("src", VALID)
def test_valid_provisioners(tmp_path: Path, src: str) -> None:
    _, diags = found(tmp_path, src)
    assert diags == []


def test_check_reports_a_provisioner(tmp_path: Path, cli) -> None:
    (tmp_path / "main.tf.json").write_text(R % '{"provisioner": {"local-exec": {"comand": "x"}}}')
    result = cli("check", str(tmp_path))
    assert result.returncode == 1
    assert 'main.tf.json:1:71: error: Unsupported argument "comand"' in result.stdout
    assert "[schema/missing-argument]" in result.stdout
