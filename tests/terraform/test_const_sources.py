"""`module/non-const-source` (`terraform.const_sources`) in a real `Workspace` on disk: under
Terraform 1.15+, a module call's `source` or `version` may use only const input variables
(hashicorp/terraform v1.15.9 internal/terraform/node_module_install.go:264-272 and 385-391, "Unknown
module source"/"Unknown module version" on the whole expression; node_root_variable.go:129, every
other variable is unknown during init). Variables are module-wide; older Terraform and OpenTofu
say nothing, except that OpenTofu 1.12+ rejects a variable declared `const = false` there; the
quick open agrees with the full analysis."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from internals import file_diagnostics

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features.diagnostics import PROVIDERS, collect
from hcljson_ls.terraform.quick import quick_file
from hcljson_ls.terraform.rules.const_sources import NON_CONST_SOURCE

CODE = NON_CONST_SOURCE

MODULE = """
//- /main.tf.json
{"module": {
  "a": {"source": ⟨"./m/${var.plain}"⟩},
  "b": {"source": "${var.fixed}"},
  "c": {"source": "hashicorp/consul/aws", "version": ⟨"${var.off}"⟩},
  "d": {"source": "${path.module == \\".\\" ? \\"./m/x\\" : var.plain}"},
  "e": {"source": "${[var.plain, \\"./m/x\\"][1]}"},
  "f": {"source": "%{ if false }${var.plain}%{ endif }./m/x"},
  "g": {"source": "${lower(var.plain)}"},
  "h": {"source": "${var.undeclared}"},
  "i": {"source": "${path.module}/m/${var.fixed}"}
}}
//- /variables.tf.json
{"variable": {"plain": {$[plain]"default": "x"}, "off": {"default": "1.0.0", $[off]"const": false}}}
//- /fixed.tf
variable "fixed" {
  default = "./m/x"
  const   = true
}
//- /m/x/main.tf.json
{}
"""


def _diagnostics(ws, path: str):
    uri = ws.uri(path)
    state = ws.workspace.get(uri)
    quick = quick_file(state.text, str(ws.paths[path]), state._scope)
    full = file_diagnostics(state, PROVIDERS)
    if quick is not None:
        assert quick.diagnostics == full
    return [d for d in collect(ws.snapshot(), uri) if d.code == CODE]


def _open(tmp_path, version: str | None, engine: str = "terraform"):
    fixture = parse_fixture(MODULE)
    ws = fixture.workspace(tmp_path, open=["/main.tf.json", "/variables.tf.json"], engine=engine)
    ws.workspace.set_engine_version(version)
    return fixture, ws


@pytest.mark.parametrize("version", ["1.15", "1.16.0-rc2", None])
def test_only_surely_unknown_non_const_variables_are_reported(tmp_path, version) -> None:
    fixture, ws = _open(tmp_path, version)
    found = _diagnostics(ws, "/main.tf.json")
    assert [(d.start, d.end) for d in found] == fixture.files["/main.tf.json"].ranges
    source, version_ = found
    assert source.message.startswith("Unknown module source: ") and '"plain"' in source.message
    assert version_.message.startswith("Unknown module version: ") and '"off"' in version_.message
    assert source.severity == version_.severity == ERROR


@pytest.mark.parametrize(("engine", "version"), [("terraform", "1.14"), ("opentofu", "1.11")])
def test_opentofu_before_const_and_older_terraform_say_nothing(tmp_path, engine, version) -> None:
    _, ws = _open(tmp_path, version, engine)
    assert _diagnostics(ws, "/main.tf.json") == []


def test_opentofu_rejects_only_a_variable_declared_const_false(tmp_path) -> None:
    # OpenTofu v1.12.0 internal/configs/static_scope.go:263-270: "Unable to use variable in static
    # context" on the reference, whatever the expression around it; a variable without `const` is fine.
    _, ws = _open(tmp_path, "1.12", "opentofu")
    [d] = _diagnostics(ws, "/main.tf.json")
    text = ws.workspace.get(ws.uri("/main.tf.json")).text
    assert text[d.start : d.end] == "var.off"
    assert d.message.startswith("Unable to use variable in static context: ")


def test_declaring_the_variable_const_in_another_file_clears_it(tmp_path) -> None:
    _, ws = _open(tmp_path, "1.15")
    main, variables = ws.uri("/main.tf.json"), ws.uri("/variables.tf.json")
    assert len(_diagnostics(ws, "/main.tf.json")) == 2
    text = ws.workspace.get(variables).text
    marks, inserted = ws.fixture.files["/variables.tf.json"].marks, '"const": true, '
    at = marks["plain"]
    ws.workspace.change(variables, 2, [{"range": _range(text, at, at), "text": inserted}], "utf-32")
    collect(ws.snapshot(), variables)
    assert main in ws.workspace.take_stale()
    [left] = _diagnostics(ws, "/main.tf.json")
    assert '"off"' in left.message
    text = ws.workspace.get(variables).text
    at = marks["off"] + len(inserted)  # moved by the insertion before it
    ws.workspace.change(variables, 3, [{"range": _range(text, at + len('"const": '), at + len('"const": false')), "text": "true"}], "utf-32")
    assert _diagnostics(ws, "/main.tf.json") == []


def test_an_override_file_may_make_a_variable_const(tmp_path) -> None:
    # Terraform merges `const` from override files (v1.15.9 internal/configs/module_merge.go:56-58).
    fixture = parse_fixture(MODULE + '//- /variables_override.tf.json\n{"variable": {"plain": {"const": true}, "off": {"const": true}}}\n')
    ws = fixture.workspace(tmp_path, open=["/main.tf.json"], engine="terraform")
    ws.workspace.set_engine_version("1.15")
    assert _diagnostics(ws, "/main.tf.json") == []


def _range(text: str, start: int, end: int) -> dict:
    def position(offset: int) -> dict:
        line = text.count("\n", 0, offset)
        return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}

    return {"start": position(start), "end": position(end)}
