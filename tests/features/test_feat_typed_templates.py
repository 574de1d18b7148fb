"""Templates that read input variables, evaluated again with each variable an unknown value of its
type (`typed_sites`), through a real `Workspace` on a temporary directory.

Terraform 1.11.4 (`validate -json`, the cases `types/typed-*` of tests/conformance): each diagnostic
here is Terraform's error at Terraform's range; the valid neighbours are valid for Terraform too.
"""

from __future__ import annotations

import json
from pathlib import Path

from fixture import lsp_range, parse_fixture
from internals import found_in, quick_and_full

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CREATED
from hcljson_ls.workspace.files import uri_of_path

CODES = ("expression/invalid-function-argument", "expression/invalid-operand")

VARIABLES = """
//- /app/variables.tf.json
{"variable": {"names": {"type": "$[type]list(string)"}, "on": {"type": "bool"}, "n": {"type": "number"},
              "o": {"type": "object({id = string})"}, "any": {}}}
"""



def test_the_types_of_variables_declared_in_another_file(tmp_path: Path) -> None:
    fw = parse_fixture(VARIABLES + """
//- /app/main.tf.json
{"locals": {
  "a": "${upper(⟨var.names⟩)}",
  "b": "${⟨var.names⟩ + 1}",
  "c": "x-${!⟨var.n⟩}",
  "d": "${upper(var.names[0])}",
  "e": "${upper(var.o.id)}",
  "f": "${upper(var.any)}",
  "g": "${try(upper(var.names), \\"\\")}",
  "h": "${var.on ? upper(var.names) : \\"\\"}",
  "i": "${[for s in var.names : upper(s)]}"
 },
 "resource": {"terraform_data": {"t": {"input": "${upper(⟨var.o⟩)}"}}},
 "output": {"o": {"value": "${var.on && ⟨var.n⟩}"}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in CODES]
    assert [(d.start, d.end) for d in found] == main.ranges
    assert [d.summary for d in found] == ["Invalid function argument", "Invalid operand", "Invalid operand",
                                          "Invalid function argument", "Invalid operand"]
    assert found[0].detail == 'Invalid value for "str" parameter: string required.'
    assert "right operand: bool required" in found[4].detail  # (`var.on && var.n`: Terraform's words)


def test_local_values_written_as_literals(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /app/locals.tf.json
{"locals": {"names": ["a"], "n": 1, "o": {"a": 1}, "computed": "${var.x}"}}
//- /app/main.tf.json
{"variable": {"x": {}},
 "locals": {"a": "${upper(⟨local.names⟩)}", "b": "${local.n + 1}", "c": "${⟨local.o⟩ + 1}", "d": "${upper(local.computed)}"}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in CODES]
    assert [(d.start, d.end) for d in found] == main.ranges
    assert [d.code for d in found] == list(CODES)


def test_an_override_file_leaves_types_and_values_unknown(tmp_path: Path) -> None:
    # Terraform 1.11.4 judges the merged declarations: with `l` overridden to a string and `x` to a
    # map, `upper(var.l)` and `for_each = local.x` are valid. An override file states no facts, so
    # any module with one leaves variable types and local values unknown (a miss, never a false error).
    fw = parse_fixture("""
//- /m/main.tf.json
{"variable": {"l": {"type": "list(string)"}}, "locals": {"x": ["a"], "a": "${upper(var.l)}"},
 "resource": {"terraform_data": {"r": {"for_each": "${local.x}"}}}}
""").workspace(tmp_path, open=["/m/main.tf.json"])
    uri = fw.uri("/m/main.tf.json")
    assert sorted(d.code for d in collect(fw.snapshot(), uri) if d.code.startswith(("expression/", "meta-argument/"))) == [
        "expression/invalid-function-argument", "meta-argument/invalid-for-each"]
    override = tmp_path / "m" / "main_override.tf.json"
    override.write_text('{"variable": {"l": {"type": "string"}}, "locals": {"x": {"k": "v"}}}')
    fw.workspace.file_changed(uri_of_path(str(override)), CREATED)
    assert [d.code for d in collect(fw.snapshot(), uri) if d.code.startswith(("expression/", "meta-argument/"))] == []


def test_renaming_another_variable_resolves_no_typed_template_again(tmp_path: Path, monkeypatch) -> None:
    # What a typed template reads of a variable's type is that variable's own (`VARIABLE_TYPE_USED`):
    # renaming another variable of the module re-checks none of them (every variable's change once
    # did: 7.7 s at 5 MB in bench_module.py). Its own type changing does: the test below.
    from hcljson_ls.terraform.resolution import resolve as resolve_module

    asked: list[str] = []
    real = resolve_module._known
    monkeypatch.setattr(resolve_module, "_known", lambda root, name, *rest: asked.append(name) or real(root, name, *rest))
    fw = parse_fixture("""
//- /app/variables.tf.json
{"variable": {"env": {"type": "string"}, $[other]"other": {}}}
//- /app/main.tf.json
{"resource": {"terraform_data": {"a": {"input": "${var.env == 1 ? 1 : 2}"}, "b": {"input": "${upper(var.env)}"}}}}
""").workspace(tmp_path, open=["/app/main.tf.json", "/app/variables.tf.json"])
    main = fw.uri("/app/main.tf.json")
    fw.workspace.get(main).prepare()  # (the tree, as the server builds it after the open)
    assert collect(fw.snapshot(), main) == [] and asked.count("env") >= 2
    asked.clear()
    text = fw.fixture.files["/app/variables.tf.json"].text
    at = fw.fixture.mark("other", "/app/variables.tf.json")[1]
    fw.workspace.change(fw.uri("/app/variables.tf.json"), 2, [{"range": lsp_range(text, at, at + 7), "text": '"thing"'}], "utf-32")
    assert collect(fw.snapshot(), main) == [] and asked == []


def test_a_type_changing_in_another_open_file(tmp_path: Path) -> None:
    fw = parse_fixture(VARIABLES + '//- /app/main.tf.json\n{"locals": {"a": "${upper(var.names)}"}}\n'
                       ).workspace(tmp_path, open=["/app/main.tf.json", "/app/variables.tf.json"])
    assert found_in(fw, CODES) == [(CODES[0], "var.names")]
    text = fw.fixture.files["/app/variables.tf.json"].text
    at = fw.fixture.mark("type", "/app/variables.tf.json")[1]
    variables = fw.uri("/app/variables.tf.json")
    fw.workspace.change(variables, 2, [{"range": lsp_range(text, at, at + 12), "text": "string"}], "utf-32")
    assert found_in(fw, CODES) == []
    fw.workspace.change(variables, 3, [{"range": lsp_range(text, at, at + 6), "text": "list(string)"}], "utf-32")
    assert found_in(fw, CODES) == [(CODES[0], "var.names")]


def test_where_terraform_does_not_evaluate_with_the_types(tmp_path: Path) -> None:
    # A `check` block's assertions and a variable validation's error message: never reported.
    # A variable validation's condition is (Terraform 1.11.4: "Invalid function argument" there).
    fw = parse_fixture("""
//- /app/main.tf.json
{"variable": {"names": {"type": "list(string)", "validation": {
   "condition": "${upper(⟨var.names⟩) != \\"\\"}", "error_message": "Bad: ${upper(var.names)}."}}},
 "check": {"c": {"assert": {"condition": "${upper(var.names) != \\"\\"}", "error_message": "x"}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in CODES]
    assert [(d.start, d.end) for d in found] == main.ranges


def test_the_quick_open_equals_the_full_path(tmp_path: Path) -> None:
    (tmp_path / "variables.tf.json").write_text(json.dumps({"variable": {"names": {"type": "list(string)"}, "n": {"type": "number"}}}))
    text = json.dumps({"resource": {"terraform_data": {
        "a": {"input": "${upper(var.names)}"}, "b": {"input": "${var.n + 1}", "triggers_replace": ["x-${!var.names}"]},
        "c": {"count": 2, "input": "${upper(var.names[count.index])}"},
    }}, "output": {"o": {"value": "${var.names + 1}"}}}, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [d.code for d in full] == [CODES[0], CODES[1], CODES[1]]


def test_check_reports_them(tmp_path: Path, cli) -> None:
    parse_fixture(VARIABLES + '//- /app/main.tf.json\n{"locals": {"a": "${upper(var.names)}"}}\n').write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1, result.stdout
    assert "Invalid function argument" in result.stdout and f"[{CODES[0]}]" in result.stdout


LOCALS = """
//- /app/locals.tf.json
{"locals": {"names": $[names]["a", "b"], "obj": {"a": "x", "b": [1]}, "nothing": null, "word": "w",
            "alias": "${local.names}"}}
"""
INTERPOLATION = "expression/invalid-interpolation"


def test_a_local_value_interpolated_among_text(tmp_path: Path) -> None:
    # Terraform 1.11.4 (types/interpolation-local-*): a local value it knows, converted to a string
    # among a template's other parts, on the interpolated traversal. One interpolation alone is the
    # local's value; a string, an element, an unknown value convert; a conditional's branches and a
    # `check` block are not evaluated.
    fw = parse_fixture(LOCALS + """
//- /app/main.tf.json
{"variable": {"s": {"type": "string"}, "on": {"type": "bool"}},
 "locals": {"a": "x-${⟨local.names⟩}", "b": "${⟨local.nothing⟩}-y", "c": "x-${⟨local.obj.b⟩}", "d": "${⟨local.alias⟩}/z",
            "e": "x-${upper(var.s)}-${⟨local.obj⟩}",
            "f": "${local.names}", "g": "x-${local.names[0]}-${local.obj.a}", "h": "${local.word}${local.word}",
            "i": "${var.on ? \\"x-${local.names}\\" : \\"\\"}", "j": "x-${local.names.missing}"},
 "resource": {"terraform_data": {"t": {"input": "arn:${⟨local.names⟩}"}}},
 "check": {"c": {"assert": {"condition": "${\\"x-${local.names}\\" != \\"\\"}", "error_message": "x-${local.names}"}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code == INTERPOLATION]
    assert [(d.start, d.end) for d in found] == main.ranges
    assert found[0].summary == "Invalid template interpolation value"
    assert found[0].detail == ("Cannot include the given value in a string template: a string is required, but this "
                               "is tuple([string, string]).")
    assert found[1].detail == "The expression result is null. Cannot include a null value in a string template."


def test_a_local_value_changing_in_another_open_file(tmp_path: Path) -> None:
    fw = parse_fixture(LOCALS + '//- /app/main.tf.json\n{"output": {"o": {"value": "x-${local.names}"}}}\n'
                       ).workspace(tmp_path, open=["/app/main.tf.json", "/app/locals.tf.json"])
    assert found_in(fw, [INTERPOLATION]) == [(INTERPOLATION, "local.names")]
    text = fw.fixture.files["/app/locals.tf.json"].text
    at = fw.fixture.mark("names", "/app/locals.tf.json")[1]
    fw.workspace.change(fw.uri("/app/locals.tf.json"), 2, [{"range": lsp_range(text, at, at + 10), "text": '"a"'}], "utf-32")
    assert found_in(fw, [INTERPOLATION]) == []


def test_interpolated_locals_the_quick_open_equals_the_full_path(tmp_path: Path) -> None:
    (tmp_path / "locals.tf.json").write_text(json.dumps({"locals": {"names": ["a"], "nothing": None, "word": "w"}}))
    text = json.dumps({"resource": {"terraform_data": {
        "a": {"input": "x-${local.names}", "triggers_replace": ["${local.names}", "${local.word}-${local.nothing}"]},
        "b": {"input": "${local.names}"}, "c": {"input": "id-${local.names[0]}"},
    }}, "output": {"o": {"value": "${local.names}/${local.word}"}}}, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [d.code for d in full] == [INTERPOLATION] * 3
