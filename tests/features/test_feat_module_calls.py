"""Module calls checked against the input variables of the child they call (issue 19, section 3):
unknown inputs, missing required inputs, literal values of the wrong type; the child local
(`source: "./x"`, JSON or native files, open or not) or installed (`.terraform/modules/modules.json`).
Through a real `Workspace` over a temporary directory, the quick open compared with the full path,
and the real `hcljson-ls check`.

Each invalid case records what `terraform validate -json` (Terraform 1.11.4, `init -backend=false`)
said for the same module, so the comparison runs without Terraform. (Terraform stops at the first
call whose arguments do not decode, so it shows one of several mistakes at a time; we show all.)

Fixtures (tests/fixture.py): `⟨⟩` marks the range each diagnostic must cover, in order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture import FixtureWorkspace, lsp_range, parse_fixture
from internals import quick_and_full

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CHANGED, CREATED, Workspace
from hcljson_ls.workspace.files import uri_of_path

CHILD = """
//- /app/child/variables.tf.json
{"variable": {"req": $[req_type]{"type": "string"}, "opt": {"type": "number", "default": 1},
              "obj": {"type": "object({a = string, b = optional(number)})", "default": null}}}
"""


def build(tmp_path: Path, src: str, open: list[str] | None = None) -> FixtureWorkspace:
    return parse_fixture(src).workspace(tmp_path, open=open if open is not None else ["/app/main.tf.json"])


def module_diags(fw: FixtureWorkspace, path: str = "/app/main.tf.json"):
    return [d for d in collect(fw.snapshot(), fw.uri(path)) if d.code.startswith("module/")]


def test_unknown_missing_and_wrong_type_inputs(tmp_path: Path) -> None:
    fw = build(tmp_path, CHILD + """
//- /app/main.tf.json
{"module": {
  "a": {"source": "./child", "req": "x", ⟨"optt"⟩: 2},
  "b": {"source": "./child", "opt": 1⟨}⟩,
  "c": {"source": "./child", "req": "x", "opt": ⟨"abc"⟩, "obj": ⟨{"b": 1}⟩},
  "d": {"source": "./child", "req": ⟨{"a": 1}⟩, "count": 2}
}}
""")
    found = module_diags(fw)
    assert [(d.code, d.start, d.end) for d in found] == [
        ("module/unknown-input", *fw.fixture.files["/app/main.tf.json"].ranges[0]),
        ("module/missing-input", *fw.fixture.files["/app/main.tf.json"].ranges[1]),
        ("module/wrong-type", *fw.fixture.files["/app/main.tf.json"].ranges[2]),
        ("module/wrong-type", *fw.fixture.files["/app/main.tf.json"].ranges[3]),
        ("module/wrong-type", *fw.fixture.files["/app/main.tf.json"].ranges[4]),
    ]
    assert all(d.severity == ERROR for d in found)
    unknown, missing, number, obj, string = found
    # terraform: error "Extraneous JSON object property": No argument or block type is named "optt". Did you mean "opt"?
    # (on the key)
    assert unknown.summary == "Extraneous JSON object property"
    assert 'No argument or block type is named "optt". Did you mean "opt"?' in unknown.detail
    assert [(f.start, f.end, f.new_text) for f in unknown.fixes] == [(unknown.start, unknown.end, '"opt"')]
    # terraform: error "Missing required argument": The argument "req" is required, but no definition
    # was found. (on the call body's closing brace)
    assert missing.summary == "Missing required argument"
    assert 'The argument "req" is required, but no definition was found' in missing.detail
    main_text = fw.fixture.files["/app/main.tf.json"].text
    (fix,) = missing.fixes
    fixed = main_text[: fix.start] + fix.new_text + main_text[fix.end :]
    assert json.loads(fixed)["module"]["b"] == {"req": "", "source": "./child", "opt": 1}
    # terraform: error "Invalid value for input variable": The given value is not suitable for
    # module.n.var.opt declared at child/main.tf.json:1,44-45: a number is required. (on the value)
    assert number.summary == "Invalid value for input variable"
    assert "module.c.var.opt" in number.detail and number.detail.endswith("a number is required.")
    assert obj.detail.endswith('attribute "a" is required.')
    # terraform: ... module.k.var.req declared at ...: string required.
    assert "module.d.var.req" in string.detail and string.detail.endswith("string required.")


VALID_CALLS = """
//- /app/main.tf.json
{"variable": {"x": {}},
 "module": {
  "plain": {"source": "./child", "req": "x"},
  "numbers": {"source": "./child", "req": 1, "opt": "12", "obj": {"a": 1, "extra": true}},
  "nulls": {"source": "./child", "req": null, "opt": null, "obj": null},
  "expressions": {"source": "./child", "req": "${var.x}", "opt": "${length(var.x)}", "obj": {"a": "${var.x}", "b": "${1}"}},
  "counted": {"source": "./child", "count": 2, "req": "${count.index}", "depends_on": [], "providers": {}},
  "each": {"source": "./child", "for_each": {"a": 1}, "req": "${each.key}", "//": "a comment"},
  "tofu": {"source": "./child", "req": "x", "lifecycle": {"enabled": false}},
  "elsewhere": {"source": "hashicorp/consul/aws", "anything": 1},
  "not-there": {"source": "./missing", "anything": 1}
}}
"""


def test_valid_calls_have_no_module_diagnostic(tmp_path: Path) -> None:
    # terraform validate (the registry call left out, it needs `init`): valid. The call of a local
    # directory that does not exist has its inputs unchecked; Terraform says "Module not installed"
    # of it, and so do we (test_feat_fidelity_meta.py), nothing else.
    fw = build(tmp_path, CHILD + VALID_CALLS)
    assert [d.code for d in module_diags(fw)] == ["module/missing-directory"]


def test_the_escaping_block_gives_inputs_whatever_their_names(tmp_path: Path) -> None:
    # Terraform 1.11.4 (module_call.go): the arguments of a call's `"_"` block are input variables,
    # merged into the call's. "m": valid (no false error on `_`); "k": "Extraneous JSON object
    # property" at `"nmae"`, inside it; "w": a wrong type there; "t": "Duplicate escaping block" at the
    # `[` the two blocks share (ours: too many `_` blocks, at the same place).
    fw = build(tmp_path, CHILD + """
//- /app/main.tf.json
{"module": {
  "m": {"source": "./child", "_": {"req": "x"}},
  "k": {"source": "./child", "_": {"req": "x", ⟨"nmae"⟩: 1}},
  "w": {"source": "./child", "_": {"req": "x", "opt": ⟨"abc"⟩}},
  "t": {"source": "./child", "_": ⟨[⟩{"req": "x"}, {"opt": 2}]}
}}
""")
    ranges = fw.fixture.files["/app/main.tf.json"].ranges
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.severity == ERROR]
    assert [(d.code, d.start, d.end) for d in found] == [
        ("module/unknown-input", *ranges[0]), ("module/wrong-type", *ranges[1]), ("structure/too-many-blocks", *ranges[2])]


def test_locals_and_provider_blocks_in_a_module_call_are_reserved(tmp_path: Path) -> None:
    # Terraform 1.11.4 and OpenTofu (module_call.go, main of both): "Reserved block type name in module
    # block" at the type key, nothing read inside; `"provider"` takes a type label, so a string there
    # is a label error at the value, as Terraform's ("Incorrect JSON value type").
    src = CHILD + """
//- /app/main.tf.json
{"module": {"m": {"source": "./child", "req": "x", ⟨"locals"⟩: {"a": "${var.nope}"}, ⟨"provider"⟩: {"aws": {}}},
            "n": {"source": "./child", "req": "x", "provider": ⟨"x"⟩}}}
"""
    for engine in (None, "opentofu"):
        fw = build(tmp_path / (engine or "terraform"), src)
        if engine is not None:
            fw.workspace.set_engine(engine)
        ranges = fw.fixture.files["/app/main.tf.json"].ranges
        found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.severity == ERROR]
        assert [(d.code, d.start, d.end) for d in found] == [
            ("structure/reserved-block", *ranges[0]), ("structure/reserved-block", *ranges[1]),
            ("structure/label-type", *ranges[2])], engine
        name = "OpenTofu" if engine else "Terraform"
        assert found[0].detail == f'The block type name "locals" is reserved for use by {name} in a future version.'


def test_elements_of_a_collection_of_any_type_must_unify(tmp_path: Path) -> None:
    # terraform: "Invalid value for input variable": ... module.m.var.a ...: all list elements must have the
    # same type. (b and c are valid: objects unify into a map's element type, [1] and ["a"] into list(string))
    fw = build(tmp_path, """
//- /app/child/variables.tf.json
{"variable": {"a": {"type": "list(any)"}, "b": {"type": "map(any)"}, "c": {"type": "list(any)"}}}
//- /app/main.tf.json
{"module": {"m": {"source": "./child", "a": ⟨[[1], {"a": 1}]⟩, "b": {"x": {"a": 1}, "y": {"b": "2"}}, "c": [[1], ["a"]]}}}
""")
    found = module_diags(fw)
    assert [(d.code, d.start, d.end) for d in found] == [("module/wrong-type", *fw.fixture.files["/app/main.tf.json"].ranges[0])]
    assert found[0].detail.endswith("all list elements must have the same type.")


def test_a_child_with_an_override_file_is_not_checked(tmp_path: Path) -> None:
    # the override gives "req" a default: terraform validate: valid
    fw = build(tmp_path, CHILD + """
//- /app/child/override.tf.json
{"variable": {"req": {"default": "d"}}}
//- /app/main.tf.json
{"module": {"m": {"source": "./child"}}}
""")
    assert module_diags(fw) == []


def test_a_child_declaring_its_variables_in_native_files(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /app/child/variables.tf
variable "n" {
  type = number
}
variable "o" {
  type    = map(object({
    a = string
  }))
  default = {}
}
variable "any" {}
//- /app/main.tf.json
{"module": {"c": {"source": "./child", "n": ⟨"x"⟩, "o": ⟨{"k": {"b": 1}}⟩, "any": [1, {"a": 2}], ⟨"p"⟩: 1}}}
""")
    found = module_diags(fw)
    r = fw.fixture.files["/app/main.tf.json"].ranges
    assert [(d.code, d.start, d.end) for d in found] == [
        ("module/wrong-type", *r[0]), ("module/wrong-type", *r[1]), ("module/unknown-input", *r[2]),
    ]
    # terraform: error "Extraneous JSON object property": No argument or block type is named "p".
    # With "p" removed and "n": 1: error "Invalid value for input variable": ... module.c.var.o declared at
    # child/variables.tf:4,1-13: element "k": attribute "a" is required. (on the whole value of "o")
    assert found[2].detail.startswith('No argument or block type is named "p".') and not found[2].fixes


def test_an_installed_module_from_the_manifest(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /app/.terraform/modules/vpc/variables.tf.json
{"variable": {"cidr": {"type": "string"}}}
//- /app/.terraform/modules/modules.json
{"Modules": [{"Key": "", "Source": "", "Dir": "."},
             {"Key": "vpc", "Source": "registry.terraform.io/acme/vpc/aws", "Version": "1.0.0", "Dir": ".terraform/modules/vpc"}]}
//- /app/main.tf.json
{"module": {"vpc": {"source": "acme/vpc/aws", "version": "1.0.0", ⟨"cdir"⟩: "10.0.0.0/16"⟨}⟩}}
""")
    found = module_diags(fw)
    r = fw.fixture.files["/app/main.tf.json"].ranges
    assert [(d.code, d.start, d.end) for d in found] == [("module/unknown-input", *r[0]), ("module/missing-input", *r[1])]
    assert 'Did you mean "cidr"?' in found[0].detail


def test_a_change_of_the_child_on_disk_updates_the_caller(tmp_path: Path) -> None:
    fw = build(tmp_path, CHILD + '//- /app/main.tf.json\n{"module": {"m": {"source": "./child", "req": "x", "zone": "a"}}}\n')
    assert [d.code for d in module_diags(fw)] == ["module/unknown-input"]
    child = tmp_path / "app" / "child" / "variables.tf.json"
    child.write_text('{"variable": {"req": {}, "zone": {"type": "number"}}}')
    fw.workspace.file_changed(uri_of_path(str(child)), CHANGED)
    assert fw.uri("/app/main.tf.json") in fw.workspace.take_stale()
    after = module_diags(fw)
    assert [d.code for d in after] == ["module/wrong-type"]
    # The same as a fresh workspace over the changed files.
    fresh = Workspace([str(tmp_path)])
    uri = fw.uri("/app/main.tf.json")
    fresh.open(uri, fw.fixture.files["/app/main.tf.json"].text, 1, "terraform-json")
    assert [d for d in collect(fresh.snapshot(), uri) if d.code.startswith("module/")] == after


def test_a_new_file_of_the_child_on_disk_updates_the_caller(tmp_path: Path) -> None:
    fw = build(tmp_path, CHILD + '//- /app/main.tf.json\n{"module": {"m": {"source": "./child", "req": "x"}}}\n')
    assert module_diags(fw) == []
    new = tmp_path / "app" / "child" / "more.tf"
    new.write_text('variable "zone" {\n  type = string\n}\n')
    fw.workspace.file_changed(uri_of_path(str(new)), CREATED)
    assert fw.uri("/app/main.tf.json") in fw.workspace.take_stale()
    assert [d.code for d in module_diags(fw)] == ["module/missing-input"]


def test_an_edit_of_the_open_child_updates_the_open_caller(tmp_path: Path) -> None:
    fw = build(tmp_path, CHILD + '//- /app/main.tf.json\n{"module": {"m": {"source": "./child", "opt": 2}}}\n',
               open=["/app/main.tf.json", "/app/child/variables.tf.json"])
    assert [d.code for d in module_diags(fw)] == ["module/missing-input"]
    child_uri = fw.uri("/app/child/variables.tf.json")
    text = fw.fixture.files["/app/child/variables.tf.json"].text
    at = fw.fixture.mark("req_type")[1]
    new = '{"type": "string", "default": "d"}'
    fw.workspace.change(child_uri, 2, [{"range": lsp_range(text, at, at + len('{"type": "string"}')), "text": new}], "utf-32")
    collect(fw.snapshot(), child_uri)  # its analysis notices the new facts
    assert module_diags(fw) == []


@pytest.mark.parametrize("body", [
    {"source": "./child", "req": "x", "optt": 2},
    {"source": "./child"},
    {"source": "./child", "req": {"a": 1}, "opt": "x", "obj": {"b": [1]}},
    {"source": "./child", "req": "x", "opt": 1, "obj": {"a": "${var.x}"}},
])
def test_the_quick_open_equals_the_full_path(tmp_path: Path, body: dict) -> None:
    (tmp_path / "child").mkdir()
    (tmp_path / "child" / "variables.tf.json").write_text(parse_fixture(CHILD).files["/app/child/variables.tf.json"].text)
    text = json.dumps({"variable": {"x": {}}, "module": {"m": body}, "output": {"o": {"value": "${module.m}"}}}, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert any(d.code.startswith("module/") for d in full) == (body != {"source": "./child", "req": "x", "opt": 1, "obj": {"a": "${var.x}"}})


def test_check_reports_module_calls(tmp_path: Path, cli) -> None:
    parse_fixture(CHILD + '//- /app/main.tf.json\n{"module": {"m": {"source": "./child", "optt": 2}}}\n').write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1
    assert "[module/unknown-input]" in result.stdout and "[module/missing-input]" in result.stdout
    assert 'Did you mean "opt"?' in result.stdout


def test_the_child_variables_as_data_for_other_features(tmp_path: Path) -> None:
    fw = build(tmp_path, """
//- /app/child/variables.tf.json
{"variable": {⟨"req"⟩: {"type": "string"}, ⟨"opt"⟩: {"default": 1}}}
//- /app/child/more.tf
variable ⟨"native"⟩ {
  type = list(number)
}
//- /app/main.tf.json
{"module": {"m": {"source": "./child"}, "far": {"source": "./nowhere"}}}
""")
    snap = fw.snapshot()
    main = fw.uri("/app/main.tf.json")
    child = snap.module_call_child(main, "m")
    assert child == str(tmp_path / "app" / "child") and snap.module_call_child(main, "far") is None
    got = {v.name: (v.type, v.required, site) for v, site in snap.child_variables(child)}
    json_ranges = fw.fixture.files["/app/child/variables.tf.json"].ranges
    native_range = fw.fixture.files["/app/child/more.tf"].ranges[0]
    assert got == {
        "native": ("list(number)", True, (fw.uri("/app/child/more.tf"), *native_range)),
        "opt": ("", False, (fw.uri("/app/child/variables.tf.json"), *json_ranges[1])),
        "req": ("string", True, (fw.uri("/app/child/variables.tf.json"), *json_ranges[0])),
    }
