"""`count` and `for_each` judged on their values as `terraform validate` evaluates them: a template of
one interpolation (its expression's value) and an input variable of a known type (an unknown value
of that type, `repetition_sites`), through a real `Workspace` on a temporary directory.

Terraform 1.11.4 (`validate -json`, the cases `meta-arguments/value-*` of tests/conformance): every
diagnostic here is Terraform's error at Terraform's range (the whole JSON string value); the valid
neighbours are valid for Terraform too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture import lsp_range, parse_fixture
from internals import found_in, quick_and_full

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.features.quick_fixes import fixable

COUNT, FOR_EACH = "meta-argument/invalid-count", "meta-argument/invalid-for-each"
BOTH = (COUNT, FOR_EACH)

VARIABLES = """
//- /app/variables.tf.json
{"variable": {"names": {"type": "$[type]list(string)"}, "on": {"type": "bool"}, "n": {"type": "number"},
              "o": {"type": "object({ids = list(string), tags = map(string)})"}, "any": {}}}
"""



def test_a_variable_of_the_wrong_type_declared_in_another_file(tmp_path: Path) -> None:
    fw = parse_fixture(VARIABLES + """
//- /app/main.tf.json
{"resource": {"terraform_data": {
  "a": {"for_each": ⟨"${var.names}"⟩},
  "b": {"count": ⟨"${var.on}"⟩},
  "c": {"for_each": ⟨"${ var.o.ids }"⟩},
  "d": {"count": "${var.n}"},
  "e": {"for_each": "${var.o.tags}"},
  "f": {"for_each": "${var.any}"},
  "g": {"for_each": "${toset(var.names)}"},
  "h": {"count": "${var.on ? 1 : 0}"}
}},
 "module": {"m": {"source": "./child", "for_each": ⟨"${var.names}"⟩}}}
//- /app/child/main.tf.json
{}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in (COUNT, FOR_EACH)]
    assert [(d.start, d.end) for d in found] == main.ranges
    assert [d.code for d in found] == [FOR_EACH, COUNT, FOR_EACH, FOR_EACH]
    assert found[0].summary == "Invalid for_each argument" and "a list of string" in found[0].detail
    assert "toset()" in found[0].detail
    assert found[1].summary == "Incorrect value type" and "a bool" in found[1].detail


def test_the_variable_s_type_changing_in_another_open_file(tmp_path: Path) -> None:
    fw = parse_fixture(VARIABLES + '//- /app/main.tf.json\n{"resource": {"terraform_data": {"a": {"for_each": "${var.names}"}}}}\n'
                       ).workspace(tmp_path, open=["/app/main.tf.json", "/app/variables.tf.json"])
    assert found_in(fw, BOTH) == [(FOR_EACH, '"${var.names}"')]
    text = fw.fixture.files["/app/variables.tf.json"].text
    at = fw.fixture.mark("type", "/app/variables.tf.json")[1]
    variables = fw.uri("/app/variables.tf.json")
    fw.workspace.change(variables, 2, [{"range": lsp_range(text, at, at + 4), "text": "set"}], "utf-32")
    assert found_in(fw, BOTH) == []
    fw.workspace.change(variables, 3, [{"range": lsp_range(text, at, at + 3), "text": "list"}], "utf-32")
    assert found_in(fw, BOTH) == [(FOR_EACH, '"${var.names}"')]


@pytest.mark.parametrize("argument, value, fixed", [
    ("for_each", "${var.names}", "${toset(var.names)}"),  # a list of strings made a set
    ("count", "${var.on}", "${var.on ? 1 : 0}"),  # a bool counting one instance when true
    # (an expression's value: a conditional's, its type unified)
    ("for_each", "${var.on ? var.names : []}", "${toset(var.on ? var.names : [])}"),
    ("count", "${var.on || var.on}", "${(var.on || var.on) ? 1 : 0}"),
])
def test_the_quick_fix(tmp_path: Path, argument: str, value: str, fixed: str) -> None:
    body = json.dumps({"resource": {"terraform_data": {"a": {argument: value}}}})
    fw = parse_fixture(VARIABLES + f"//- /app/main.tf.json\n{body}\n").workspace(tmp_path, open=["/app/main.tf.json"])
    uri = fw.uri("/app/main.tf.json")
    text = fw.fixture.files["/app/main.tf.json"].text
    (shown,) = fixable(fw.snapshot(), uri, 0, len(text))
    (fix,) = shown.fixes
    after = text[:fix.start] + fix.new_text + text[fix.end:]
    assert json.loads(after)["resource"]["terraform_data"]["a"][argument] == fixed
    fw.workspace.change(uri, 2, [{"range": lsp_range(text, fix.start, fix.end), "text": fix.new_text}], "utf-32")
    assert found_in(fw, BOTH) == []


def test_a_list_of_objects_gets_no_toset_fix(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /app/main.tf.json
{"variable": {"l": {"type": "list(object({a = string}))"}},
 "resource": {"terraform_data": {"a": {"for_each": "${var.l}"}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    (found,) = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code == FOR_EACH]
    assert found.fixes == () and "a list of object" in found.detail and "toset" not in found.detail


def test_constant_templates(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /app/main.tf.json
{"resource": {"terraform_data": {
  "a": {"count": ⟨"${-1}"⟩},
  "b": {"count": ⟨"${1.5}"⟩},
  "c": {"count": ⟨"${null}"⟩},
  "d": {"for_each": ⟨"${[\\"a\\"]}"⟩},
  "e": {"for_each": ⟨"x-${1}"⟩},
  "f": {"count": "${\\"3\\"}"},
  "g": {"count": "x-${1}"},
  "h": {"for_each": "${{a = 1}}"},
  "i": {"count": "${1 + 1}"}
}},
 "data": {"terraform_remote_state": {"s": {"backend": "local", "count": ⟨"${-2}"⟩}}}}
""").workspace(tmp_path, open=["/app/main.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in (COUNT, FOR_EACH)]
    assert [(d.start, d.end) for d in found] == main.ranges
    assert [d.summary for d in found] == ["Invalid count argument"] * 3 + ["Invalid for_each argument"] * 2 + [
        "Invalid count argument"]
    assert "0 or more, but this is -1" in found[0].detail and "whole number, but this is 1.5" in found[1].detail


def test_the_quick_open_equals_the_full_path(tmp_path: Path) -> None:
    (tmp_path / "variables.tf.json").write_text(json.dumps(
        {"variable": {"names": {"type": "list(string)"}, "on": {"type": "bool"}, "n": {"type": "number"}}}))
    text = json.dumps({"resource": {"terraform_data": {
        "a": {"for_each": "${var.names}"}, "b": {"count": "${var.on}"}, "c": {"count": "${var.n}"},
        "d": {"count": "${-1}"}, "e": {"for_each": "x${1}"}, "f": {"count": 2}, "g": {"for_each": "${toset(var.names)}"},
        "h": {"for_each": "${var.on ? var.names : []}"}, "i": {"count": "${var.on ? 1 : 0}"},
    }}}, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [d.code for d in full] == [FOR_EACH, COUNT, COUNT, FOR_EACH, FOR_EACH]


def test_a_known_set_must_be_of_strings(tmp_path: Path) -> None:
    # Terraform 1.11.4 (types/for-each-toset-*): a wholly known set of objects or numbers is an
    # error, a literal local's words included (known to Terraform, though the fact blanks them);
    # a set of a variable's objects is unknown, and not judged.
    (tmp_path / "locals.tf.json").write_text(json.dumps(
        {"locals": {"users": [{"name": "a"}], "names": ["a"]}, "variable": {"objs": {"type": "list(object({a = string}))"}}}))
    text = json.dumps({"resource": {"terraform_data": {
        "a": {"for_each": "${toset(local.users)}"}, "b": {"for_each": "${toset([1, 2])}"},
        "c": {"for_each": "${toset(local.names)}"}, "d": {"for_each": "${toset(var.objs)}"},
        "e": {"for_each": "${toset([\"a\", 1])}"},
    }}}, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [(d.code, d.summary) for d in full] == [(FOR_EACH, "Invalid for_each set argument")] * 2
    assert "elements are of type object" in full[0].detail and "of type number" in full[1].detail


def test_one_string_as_one_block_s_count_and_another_s_for_each(tmp_path: Path) -> None:
    # The same `"${var.names}"` is a `count` in one block and a `for_each` in another: each block
    # gets its own argument's diagnostic, once (the quick open places each block's own).
    (tmp_path / "variables.tf.json").write_text(json.dumps({"variable": {"names": {"type": "list(string)"}}}))
    text = json.dumps({"resource": {"terraform_data": {
        "a": {"count": "${var.names}"}, "b": {"for_each": "${var.names}"}, "c": {"for_each": "${var.names}"},
    }}}, indent=2)
    quick, full = quick_and_full(tmp_path, text)
    assert quick.diagnostics == full
    assert [d.code for d in full] == [COUNT, FOR_EACH, FOR_EACH]


def test_local_values_written_as_literals(tmp_path: Path) -> None:
    fw = parse_fixture("""
//- /app/locals.tf.json
{"locals": {"names": ["a", "b"], "byname": {"a": 1}, "minus": -1, "n": 2, "computed": "${var.x}",
            "tags": $[value]{"k": "v"}}}
//- /app/main.tf.json
{"variable": {"x": {}},
 "resource": {"terraform_data": {
  "a": {"for_each": ⟨"${local.names}"⟩},
  "b": {"count": ⟨"${local.minus}"⟩},
  "c": {"for_each": "${local.byname}"},
  "d": {"count": "${local.n}"},
  "e": {"for_each": "${local.computed}"},
  "f": {"for_each": "${local.tags}"}
}}}
""").workspace(tmp_path, open=["/app/main.tf.json", "/app/locals.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in (COUNT, FOR_EACH)]
    assert [(d.start, d.end) for d in found] == main.ranges
    assert "a tuple" in found[0].detail and found[0].fixes[0].new_text == "${toset(local.names)}"
    assert "0 or more, but this is -1" in found[1].detail
    # `tags` becomes a list in the other open file: `f` is reported, without any edit of main.tf.json.
    text = fw.fixture.files["/app/locals.tf.json"].text
    at = fw.fixture.mark("value", "/app/locals.tf.json")[1]
    fw.workspace.change(fw.uri("/app/locals.tf.json"), 2, [{"range": lsp_range(text, at, at + 10), "text": '["k"]'}], "utf-32")
    assert [code for code, _ in found_in(fw, BOTH)] == [FOR_EACH, COUNT, FOR_EACH]


def test_a_local_naming_a_variable_or_another_local(tmp_path: Path) -> None:
    # `validate` gives such a local what it names: a list variable's type through two locals.
    fw = parse_fixture(VARIABLES + """
//- /app/locals.tf.json
{"locals": {"all": "${var.names}", "again": "$[alias]${local.all}", "ids": "${var.o.ids}"}}
//- /app/main.tf.json
{"resource": {"terraform_data": {
  "a": {"for_each": ⟨"${local.again}"⟩},
  "b": {"for_each": ⟨"${local.ids}"⟩},
  "c": {"count": "${length(local.all)}"}
}}}
""").workspace(tmp_path, open=["/app/main.tf.json", "/app/locals.tf.json"])
    main = fw.fixture.files["/app/main.tf.json"]
    found = [d for d in collect(fw.snapshot(), fw.uri("/app/main.tf.json")) if d.code in (COUNT, FOR_EACH)]
    assert [(d.start, d.end) for d in found] == main.ranges
    assert "a list of string" in found[0].detail
    # `again` becomes a map literal in the other open file: `a`'s diagnostic goes, `b`'s stays.
    text = fw.fixture.files["/app/locals.tf.json"].text
    at = fw.fixture.mark("alias", "/app/locals.tf.json")[1]
    fw.workspace.change(fw.uri("/app/locals.tf.json"), 2, [{"range": lsp_range(text, at - 1, at + 13), "text": '{"k": "v"}'}],
                        "utf-32")
    assert found_in(fw, BOTH) == [(FOR_EACH, '"${local.ids}"')]


def test_check_reports_them(tmp_path: Path, cli) -> None:
    parse_fixture(VARIABLES + '//- /app/main.tf.json\n{"resource": {"terraform_data": {"a": {"for_each": "${var.names}"}}}}\n'
                  ).write(tmp_path)
    result = cli("check", str(tmp_path / "app"))
    assert result.returncode == 1, result.stdout
    # Line 1, column 52: the value's opening quote, where Terraform's range starts.
    assert "main.tf.json:1:52: error: Invalid for_each argument" in result.stdout and f"[{FOR_EACH}]" in result.stdout
