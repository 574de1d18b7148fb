"""What the types of values say (issue 19, "say what Terraform says"): the errors `terraform
validate` finds by evaluating each expression with unknown values of known types -- function
arguments, operands, indexes and attributes of constants (`terraform.evaluate`), the steps after an
input variable (its type constraint) and after a built-in resource (its schema, `resolve`).

Through a real `Workspace` over a temporary directory (the quick open compared with the full path)
and the real `hcljson-ls check`. Each case records what Terraform 1.11.4 (`init -backend=false`,
`validate -json`) said of the same expression in a `locals` value, so the comparison runs without
Terraform; every silent case is one Terraform accepts too.

Fixtures (tests/fixture.py): `⟨⟩` marks the range each diagnostic must cover, in order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture import parse_fixture
from internals import quick_and_full

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CHANGED
from hcljson_ls.workspace.files import uri_of_path

VARIABLES = """
//- /app/variables.tf.json
{"variable": {"s": {"type": "string"}, "n": {"type": "number"}, "l": {"type": "list(string)"},
              "m": {"type": "map(string)"}, "any": {}, "obj": {"type": "object({a = string, o = optional(number)})"}}}
"""


def found(tmp_path: Path, main: str) -> tuple[list, list[tuple[int, int]]]:
    fw = parse_fixture(VARIABLES + "//- /app/main.tf.json\n" + main).workspace(tmp_path, open=["/app/main.tf.json"])
    diags = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code.startswith("expression/")]
    return diags, fw.fixture.files["/app/main.tf.json"].ranges


def test_constant_errors_with_terraforms_summaries_and_ranges(tmp_path: Path) -> None:
    diags, ranges = found(tmp_path, r"""{"locals": {
  "a": "${upper(⟨[⟩\"a\"])}",
  "b": "${1 + ⟨\"a\"⟩}",
  "c": "${[1, 2]⟨[5]⟩}",
  "d": "${{a = 1}⟨.b⟩}",
  "e": "${\"abc\"⟨.x⟩}",
  "f": "${!⟨1⟩}",
  "g": "${max(1, \"⟨x⟩\")}",
  "h": "${true ? [1]⟨[3]⟩ : 0}"
}}
""")
    assert [(d.start, d.end) for d in diags] == ranges
    assert all(d.severity == ERROR for d in diags)
    # terraform: Invalid function argument: Invalid value for "str" parameter: string required. (at the `[`)
    # terraform: Invalid operand: Unsuitable value for right operand: a number is required.
    # terraform: Invalid index: The given key does not identify an element in this collection value.
    # terraform: Unsupported attribute: This object does not have an attribute named "b".
    # terraform: Unsupported attribute: Can't access attributes on a primitive-typed value (string).
    # terraform: Invalid operand: Unsuitable value for unary operand: bool required.
    # terraform: Invalid function argument: Invalid value for "numbers" parameter: a number is required.
    # terraform: Invalid index (the branch a known condition takes)
    assert [(d.code, d.summary, d.detail) for d in diags] == [
        ("expression/invalid-function-argument", "Invalid function argument", 'Invalid value for "str" parameter: string required.'),
        ("expression/invalid-operand", "Invalid operand", "Unsuitable value for right operand: a number is required."),
        ("expression/invalid-index", "Invalid index", "The given key does not identify an element in this collection value."),
        ("expression/unsupported-attribute", "Unsupported attribute", 'This object does not have an attribute named "b".'),
        ("expression/unsupported-attribute", "Unsupported attribute", "Can't access attributes on a primitive-typed value (string)."),
        ("expression/invalid-operand", "Invalid operand", "Unsuitable value for unary operand: bool required."),
        ("expression/invalid-function-argument", "Invalid function argument", 'Invalid value for "numbers" parameter: a number is required.'),
        ("expression/invalid-index", "Invalid index", "The given key does not identify an element in this collection value."),
    ]


def test_typed_references_with_terraforms_ranges(tmp_path: Path) -> None:
    diags, ranges = found(tmp_path, r"""{"locals": {
  "a": "${var.s⟨.attr⟩}",
  "b": "${var.obj⟨.b⟩}",
  "c": "${var.obj.a⟨.x⟩}",
  "d": "${var.l⟨.x⟩}",
  "e": "${var.s⟨[0]⟩}",
  "f": "${terraform_data.r⟨.nope⟩}",
  "g": "${terraform_data.r⟨.Id⟩}",
  "h": "${try(terraform_data.r⟨.nope⟩, 1)}",
  "i": "${terraform_data.r.id⟨.x⟩}",
  "j": "${data.terraform_remote_state.s⟨.output⟩}"
},
"resource": {"terraform_data": {"r": {}}},
"data": {"terraform_remote_state": {"s": {"backend": "local"}}}}
""")
    assert [(d.start, d.end) for d in diags] == ranges
    details = [d.detail for d in diags]
    # terraform (each): Unsupported attribute / Invalid index, at the step with its dot or brackets
    assert details[:5] == [
        "Can't access attributes on a primitive-typed value (string).",
        'This object does not have an attribute named "b".',
        "Can't access attributes on a primitive-typed value (string).",
        "This value does not have any attributes.",
        "This value does not have any indices.",
    ]
    assert details[5] == 'This object has no argument, nested block, or exported attribute named "nope".'
    assert details[6] == 'This object has no argument, nested block, or exported attribute named "Id". Did you mean "id"?'
    # a resource's schema is checked statically: even inside try() (terraform: the same error)
    assert details[7] == details[5]
    assert details[9].startswith('This object has no argument, nested block, or exported attribute named "output".')


@pytest.mark.parametrize("expression", [
    # each accepted by `terraform validate` (1.11.4) in a `locals` value
    '${upper(1)}', '${upper(true)}', '${abs("1")}', '${abs("1e3")}', '${1 + "1"}', '${!"true"}', '${"1" && true}',
    '${[1, 2]["1"]}', '${[1, 2][*]}', '${false ? [1, 2][5] : 1}', '${var.s == "" ? [1, 2][5] : 1}',
    '${try([1, 2][5], 1)}', '${can(upper(["a"]))}', '${[for x in var.l : x + "a"]}', '${[for x in var.l : [1][3]]}',
    '${abs(var.s)}', '${var.s + 1}', '${var.obj.a}', '${var.obj.o}', '${var.any.x}', '${var.m.x}', '${var.l[5]}',
    '${var.obj["b"]}', '${try(var.obj.b, 1)}', '${var.s == "" ? var.obj.b : 1}', '${lookup(var.obj, "b", 1)}',
    '${var.obj != null ? var.obj.b : null}', '%{ if var.s == "" }${var.obj.b}%{ endif }',
    '%{ for x in var.l }${var.obj.b}%{ endfor }', '${[for x in var.l : var.obj.b]}', '${{for k, v in var.m : k => var.obj.b}}',
    '${terraform_data.r.output.x}', '${terraform_data.r.input}', '${terraform_data.r.triggers_replace.x}',
    '${length(var.obj)}', '${format("%s", 1)}', '${coalesce(var.s, 1)}',
])
def test_what_terraform_accepts_is_silent(tmp_path: Path, expression: str) -> None:
    main = json.dumps({"locals": {"x": expression}, "resource": {"terraform_data": {"r": {}}}})
    diags, _ = found(tmp_path, main)
    assert diags == []


def test_typed_collections(tmp_path: Path) -> None:
    # terraform 1.11.4, for the same variables: the same errors at the same steps
    diags, ranges = found(tmp_path, r"""{"variable": {"lo": {"type": "list(object({a = string}))"}, "st": {"type": "set(string)"},
              "tu": {"type": "tuple([string, number])"}, "mo": {"type": "map(object({a = string}))"}},
"locals": {
  "a": "${var.lo[0]⟨.b⟩}", "b": "${var.lo[0].a}", "c": "${var.st⟨.x⟩}", "d": "${var.tu⟨[2]⟩}", "e": "${var.tu[1]}",
  "f": "${var.tu[1]⟨.x⟩}", "g": "${var.tu.0}", "h": "${var.mo.k⟨.b⟩}", "i": "${var.tu[\"1\"]}", "j": "${var.lo.0⟨.b⟩}"
}}
""")
    assert [(d.start, d.end) for d in diags] == ranges
    assert diags[2].detail == ("The given key does not identify an element in this collection value: the given index is "
                               "greater than or equal to the length of the collection.")


def test_places_validate_does_not_evaluate_are_silent(tmp_path: Path) -> None:
    bad = '${upper(["a"])}'
    typed = "${var.obj.b == 1}"
    main = json.dumps({
        # terraform validate: a check's assertions are evaluated at plan time (OK for both)
        "check": {"c": {"assert": [{"condition": typed, "error_message": bad}]}},
        "variable": {"v": {"type": "string", "validation": [{"condition": "${var.v == upper([\"a\"])}",
                                                           "error_message": "x"}]}},
        "resource": {"terraform_data": {"r": {"dynamic": {"x": {"for_each": "${var.l}", "content": {"y": bad}}}},
                                        # terraform: a connection beside no provisioner is not evaluated (OK)
                                        "c": {"connection": {"host": bad, "user": "${var.s.x}"}}}},
        "removed": {"from": "terraform_data.old", "lifecycle": {"destroy": False},
                    "provisioner": [{"local-exec": {"command": bad, "when": "destroy"}}]},
    })
    diags, _ = found(tmp_path, main)
    assert diags == []


def test_a_connection_beside_a_provisioner_is_evaluated(tmp_path: Path) -> None:
    # terraform: Invalid function argument (even with only a destroy-time provisioner)
    diags, ranges = found(tmp_path, r"""{"resource": {"terraform_data": {"r": {"connection": {"type": "ssh", "host": "${upper(⟨[⟩1])}"},
  "provisioner": [{"local-exec": {"command": "x", "when": "destroy"}}]}}}}
""")
    assert [(d.code, d.start, d.end) for d in diags] == [("expression/invalid-function-argument", *ranges[0])]


@pytest.mark.parametrize("value", [
    '${var.s.attr}', '${var.obj.b}', '${terraform_data.r.nope}', '${upper(["a"])}', '${[1][2]}', '${1 + "a"}',
    '${try(var.s.attr, 1)}', '${merge(var.l)}', '${join(",", var.s)}', '${length(var.n)}',
])
def test_the_quick_open_equals_the_full_path(tmp_path: Path, value: str) -> None:
    (tmp_path / "variables.tf.json").write_text(VARIABLES.split("\n", 2)[2])
    text = json.dumps({
        "resource": {"terraform_data": {"r": {}, "t": {"input": value}, "u": {"count": 2, "input": value}}},
        "output": {"o": {"value": value}, "p": {"value": "${var.s}"}},
    }, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert len([d for d in full if d.code.startswith("expression/")]) == (0 if value.startswith("${try") else 3)


def test_a_variable_type_change_reaches_the_references(tmp_path: Path) -> None:
    fw = parse_fixture(VARIABLES + '//- /app/main.tf.json\n{"locals": {"x": "${var.s.attr}"}}\n').workspace(
        tmp_path, open=["/app/main.tf.json"])
    main = fw.uri("/app/main.tf.json")
    assert [d.code for d in collect(fw.snapshot(), main)] == ["expression/unsupported-attribute"]
    variables = tmp_path / "app" / "variables.tf.json"
    variables.write_text(json.dumps({"variable": {"s": {"type": "object({attr = string})"}}}))
    fw.workspace.file_changed(uri_of_path(str(variables)), CHANGED)
    assert main in fw.workspace.take_stale()
    assert [d.code for d in collect(fw.snapshot(), main)] == []


LOCALS = """
//- /app/locals.tf.json
{"locals": {"o": {"a": "x", "b": [1], "c": {"d": 1}}, "names": ["a", "b"], "nothing": null, "none": [], "alias": "${local.o}",
            "cfg": {"region": "${var.k}", "ids": ["${var.k}"]}}}
"""


def test_the_steps_after_a_local_value_terraform_knows(tmp_path: Path) -> None:
    # Terraform 1.11.4 (types/local-steps-*, -shape-*): a literal local (or the one local it names)
    # is a known value, its templates unknown values (`cfg`), and the steps after its name apply to
    # it, on the step (a null's own words); in `try`,
    # after a splat or a computed index, and where validate does not evaluate, nothing.
    fw = parse_fixture(LOCALS + """
//- /app/main.tf.json
{"variable": {"k": {}},
 "locals": {"a": "${local.o⟨.missing⟩}", "b": "${local.o.c⟨.e⟩}", "c": "${local.alias⟨.zz⟩}", "d": "${local.names⟨[5]⟩}",
            "e": "${upper(local.none⟨[0]⟩)}", "f": "${local.nothing⟨.x⟩}", "g": "x-${local.names⟨.x⟩}",
            "h": "${local.cfg⟨.regoin⟩}", "i": "${local.cfg.ids⟨[1]⟩}",
            "ok": "${local.o.b[0]}-${local.names[1]}-${local.o.c.d}-${local.cfg.region}-${local.cfg.ids[0]}",
            "try": "${try(local.o.missing, 1)}",
            "splat": "${local.names[*]}", "computed": "${local.o[var.k]}"},
 "check": {"c": {"assert": {"condition": "${local.o.missing == 1}", "error_message": "x"}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    diags = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code.startswith("expression/")]
    assert [(d.start, d.end) for d in diags] == fw.fixture.files["/app/main.tf.json"].ranges
    assert [d.summary for d in diags] == ["Unsupported attribute"] * 3 + ["Invalid index"] * 2 + [
        "Attempt to get attribute from null value", "Unsupported attribute", "Unsupported attribute", "Invalid index"]
    assert diags[0].detail == 'This object does not have an attribute named "missing".'
    assert diags[4].detail == ("The given key does not identify an element in this collection value: the collection "
                               "has no elements.")
    # a misspelt attribute of a known object: "Did you mean ...?", with the quick fix on the name
    assert diags[7].detail == 'This object does not have an attribute named "regoin". Did you mean "region"?'
    (fix,) = diags[7].fixes
    assert (fix.start, fix.end, fix.new_text) == (diags[7].start + 1, diags[7].end, "region")


def test_local_steps_the_quick_open_equals_the_full_path(tmp_path: Path) -> None:
    (tmp_path / "locals.tf.json").write_text(LOCALS.split("\n", 2)[2])
    text = json.dumps({
        "resource": {"terraform_data": {"t": {"input": "${local.o.missing}"}, "u": {"count": 2, "input": "id-${local.names[5]}"},
                                        "v": {"input": "${local.o.c.d}"}}},
        "output": {"o": {"value": "${local.nothing[0]}"}},
    }, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [d.code for d in full] == ["expression/unsupported-attribute", "expression/invalid-index", "expression/invalid-index"]


def test_a_local_value_change_reaches_the_references(tmp_path: Path) -> None:
    fw = parse_fixture(LOCALS + '//- /app/main.tf.json\n{"output": {"x": {"value": "${local.o.e}"}}}\n').workspace(
        tmp_path, open=["/app/main.tf.json"])
    main = fw.uri("/app/main.tf.json")
    assert [d.code for d in collect(fw.snapshot(), main)] == ["expression/unsupported-attribute"]
    locals_file = tmp_path / "app" / "locals.tf.json"
    locals_file.write_text(json.dumps({"locals": {"o": {"e": 1}}}))
    fw.workspace.file_changed(uri_of_path(str(locals_file)), CHANGED)
    assert main in fw.workspace.take_stale()
    assert [d.code for d in collect(fw.snapshot(), main)] == []


def test_check_reports_them(tmp_path: Path, cli) -> None:
    parse_fixture(VARIABLES + '//- /app/main.tf.json\n{"output": {"o": {"value": "${var.obj.b}"}}}\n').write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1
    assert 'Unsupported attribute: This object does not have an attribute named "b". [expression/unsupported-attribute]' in result.stdout
