"""Argument values of one interpolation converted to the type the argument takes (`argument_sites`):
a module input to the child's variable type, a resource's or data source's argument to its schema
type; through a real `Workspace` on a temporary directory.

Terraform 1.11.4 (`validate -json`, the cases `types/argument-*` of tests/conformance): each error
here is Terraform's, at Terraform's range (the whole JSON string); the valid neighbours are valid
for Terraform too.
"""

from __future__ import annotations

import json
from pathlib import Path

from fixture import lsp_range, parse_fixture
from internals import found_in, quick_and_full

from hcljson_ls.features.diagnostics import collect

INPUT, ARGUMENT = "module/wrong-type", "schema/wrong-type"

CHILD = """
//- /app/child/main.tf.json
{"variable": {"s": {"type": "string"}, "n": {"type": "number", "default": 1}, "ls": {"type": "list(string)", "default": []},
              "o": {"type": "object({a = string, b = optional(number)})", "default": null}}}
"""


def _at_marks(fw, code: str) -> list:
    """The diagnostics of /app/main.tf.json, each of `code` and at a marked range, in order."""
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in (INPUT, ARGUMENT)]
    assert [(d.start, d.end) for d in found] == fw.fixture.files["/app/main.tf.json"].ranges
    assert {d.code for d in found} == {code}
    return found


def test_module_inputs_converted_to_the_child_variable_types(tmp_path: Path) -> None:
    fw = parse_fixture(CHILD + """
//- /app/main.tf.json
{"variable": {"names": {"type": "$[type]list(string)"}, "on": {"type": "bool"}, "count": {"type": "number"}, "any": {}},
 "locals": {"pair": [1, true], "partial": {"b": 1}, "whole": {"a": "x"}},
 "module": {
  "a": {"source": "./child", "s": ⟨"${var.names}"⟩, "n": ⟨"${var.on}"⟩, "ls": ⟨"${var.count}"⟩},
  "b": {"source": "./child", "s": "${var.count}", "n": "${var.any}", "ls": "${local.pair}", "o": "${local.whole}"},
  "c": {"source": "./child", "s": "x-${var.names[0]}", "o": ⟨"${local.partial}"⟩}
 }}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    found = _at_marks(fw, INPUT)
    assert found[0].summary == "Invalid value for input variable"
    assert found[0].detail == ("The given value is not suitable for module.a.var.s (type string): a string is required, "
                               "but this is a list of string.")
    assert found[3].detail.endswith('(type object({a = string, b = optional(number)})): attribute "a" is required.')


def test_a_variable_type_changing_in_another_file(tmp_path: Path) -> None:
    fw = parse_fixture(CHILD + """
//- /app/variables.tf.json
{"variable": {"names": {"type": "$[type]list(string)"}}}
//- /app/main.tf.json
{"module": {"a": {"source": "./child", "s": "${var.names}"}}}
""").workspace(tmp_path, open=["/app/main.tf.json", "/app/variables.tf.json"])
    assert [code for code, _ in found_in(fw, (INPUT, ARGUMENT))] == [INPUT]
    text = fw.fixture.files["/app/variables.tf.json"].text
    at = fw.fixture.mark("type", "/app/variables.tf.json")[1]
    fw.workspace.change(fw.uri("/app/variables.tf.json"), 2, [{"range": lsp_range(text, at, at + 12), "text": "string"}], "utf-32")
    assert found_in(fw, (INPUT, ARGUMENT)) == []


def test_a_data_source_argument_converted_to_its_schema_type(tmp_path: Path) -> None:
    # `terraform_remote_state` of the built-in provider: `backend` and `workspace` are strings.
    fw = parse_fixture("""
//- /app/main.tf.json
{"variable": {"names": {"type": "list(string)"}, "n": {"type": "number"}, "o": {"type": "object({x = string})"}},
 "locals": {"alias": "${var.names}", "one": ["a"]},
 "data": {"terraform_remote_state": {
  "a": {"backend": "local", "workspace": ⟨"${var.names}"⟩},
  "b": {"backend": "local", "workspace": "${var.n}"},
  "c": {"backend": ⟨"${var.o}"⟩, "workspace": "${var.o.x}"},
  "d": {"backend": "local", "workspace": ⟨"${local.alias}"⟩},
  "e": {"backend": "local", "workspace": ⟨"${[1]}"⟩},
  "f": {"backend": "local", "workspace": "${local.one[0]}"},
  "g": {"backend": "local", "workspace": ⟨"\\u0024{var.names}"⟩}
 }}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    found = _at_marks(fw, ARGUMENT)
    assert found[0].summary == "Incorrect attribute value type"
    assert found[0].detail == ('The argument "workspace" cannot take this value: a string is required, '
                               "but this is a list of string.")
    assert "but this is a tuple" in found[3].detail


def test_the_quick_open_equals_the_full_path(tmp_path: Path) -> None:
    # (`terraform_remote_state` is read by the full analysis; module calls too: the quick open
    # answers for the other blocks and analyses these, and both paths agree.)
    (tmp_path / "child").mkdir()
    (tmp_path / "child" / "main.tf.json").write_text(json.dumps({"variable": {"s": {"type": "string"}}}))
    text = json.dumps({
        "variable": {"names": {"type": "list(string)"}},
        "resource": {"terraform_data": {"t": {"input": "${var.names}"}}},
        "data": {"terraform_remote_state": {"s": {"backend": "local", "workspace": "${var.names}"}}},
        "module": {"m": {"source": "./child", "s": "${var.names}"}},
    }, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [d.code for d in full] == [ARGUMENT, INPUT]


def test_check_reports_them(tmp_path: Path, cli) -> None:
    parse_fixture(CHILD + """
//- /app/main.tf.json
{"variable": {"names": {"type": "list(string)"}}, "module": {"a": {"source": "./child", "s": "${var.names}"}}}
""").write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1, result.stdout
    assert "Invalid value for input variable" in result.stdout and f"[{INPUT}]" in result.stdout
