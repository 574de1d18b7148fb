"""Strings are read by the mode the Terraform schema gives them: templates, static references,
native expressions, type constraints, or literally. Ranges are exact document ranges, through
JSON escapes and non-ASCII text."""

from __future__ import annotations

import pytest
from fixture import parse_fixture
from tf_tpl_support import check, template_diags

from hcljson_ls.terraform.expressions.templates import IGNORE_CHANGES_WILDCARD, INTERPOLATION, NOT_STATIC

# ---- templates (full-expression strings) ----------------------------------------------------------

TEMPLATE_CASES = {
    "error after escapes and non-ASCII": (
        r'{"resource": {"aws_instance": {"web": {"tags": {"N\u00e4me": "caf\u00e9 \"${var.⟨}⟩\""}}}}}',
        ["template/invalid-attribute-name"],
    ),
    "the opener written as a unicode escape": (
        r'{"locals": {"k": "\u0024{lookup(var.m, \"k\"⟨}⟩"}}',
        ["template/unterminated-call"],
    ),
    "astral characters before the error": (
        '{"locals": {"a": "😀😀 ${1 +⟨}⟩", "b": "${\\"ü\\" ? ⟨}⟩"}}',
        ["template/invalid-expression", "template/invalid-expression"],
    ),
    "unpaired directive": (
        '{"locals": {"c": "⟨%{if x}⟩y"}}',
        ["template/unterminated-directive"],
    ),
    "unclosed interpolation, and a second error in another string": (
        '{"locals": {"a": "⟨${⟩a.b", "b": "${f(1 ⟨2⟩)}"}}',
        ["template/unclosed-interpolation", "template/missing-argument-separator"],
    ),
    "several errors in one string": (
        '{"locals": {"a": "${var.⟨}⟩ and ${1 +⟨}⟩"}}',
        ["template/invalid-attribute-name", "template/invalid-expression"],
    ),
    "object keys and nested values of an expression": (
        '{"output": {"o": {"value": {"${var.⟨}⟩": ["${1 +⟨}⟩", {"${2 +⟨}⟩": "x"}]}}}}',
        ["template/invalid-attribute-name", "template/invalid-expression", "template/invalid-expression"],
    ),
    "provider-defined arguments and nested blocks of a resource": (
        '{"resource": {"aws_instance": {"web": {"ingress": [{"cidr_blocks": ["${var.⟨}⟩"]}]}}}}',
        ["template/invalid-attribute-name"],
    ),
    "a resource written in the array forms": (
        '{"resource": [{"aws_instance": [{"web": [{"ami": "${var.⟨}⟩"}]}]}]}',
        ["template/invalid-attribute-name"],
    ),
    "provider configuration, module inputs, conditions": (
        '{"provider": {"aws": [{"region": "${var.⟨}⟩"}]},'
        ' "module": {"m": {"source": "./m", "x": "${1 +⟨}⟩"}},'
        ' "variable": {"v": {"validation": {"condition": "${f(⟨}⟩", "error_message": "fine"}}}}',
        ["template/invalid-attribute-name", "template/invalid-expression", "template/invalid-expression"],
    ),
}


@pytest.mark.parametrize("name", TEMPLATE_CASES)
def test_template_errors_land_exactly(name: str) -> None:
    src, codes = TEMPLATE_CASES[name]
    check(src, codes)


def test_escape_sequences_map_to_their_source_text() -> None:
    # `\u0073trin` decodes to "strin"; the error covers the escape as written.
    diags = check(r'{"variable": {"v": {"type": "list(⟨\u0073trin⟩)"}}}', ["type/invalid-type"])
    assert 'Did you mean "string"?' in diags[0].detail


def test_valid_templates_report_nothing() -> None:
    text = (
        '{"locals": {"a": "${var.x}", "b": "$${not a template}", "c": "%{ for k, v in var.m }${k}=${v}%{ endfor }",'
        ' "d": "${provider::aws::arn_parse(var.arn).region}", "e": {"${var.k}": ["x-${local.y}"]}}}'
    )
    assert template_diags(text) == []


# ---- literal-only strings are not parsed ----------------------------------------------------------

LITERAL_CASES = [
    '{"variable": {"v": {"default": "${", "description": "${x"}}}',
    '{"variable": {"v": {"default": {"k": ["${var.}"]}}}}',
    '{"output": {"o": {"value": 1, "description": "${var."}}}',
    '{"terraform": {"required_version": "${", "backend": {"s3": {"key": "${x", "nested": {"a": "${"}}}}}',
    '{"terraform": {"cloud": {"organization": "${", "workspaces": {"name": "${", "other": "${"}}}}',
    '{"terraform": {"required_providers": {"aws": {"source": "${", "version": "${"}}}}',
    '{"provider": {"aws": {"alias": "${x"}}}',
]


def test_an_error_message_that_does_not_parse_is_one_warning_on_the_whole_value() -> None:
    # Terraform reads it as a string literal and warns (both engines): "Validation error message expression is invalid".
    text = '{"variable": {"v": {"validation": {"condition": "${var.v}", "error_message": "bad ${var.}"}}}}'
    diags = template_diags(text)
    assert [(d.code, d.severity, text[d.start : d.end]) for d in diags] == [
        ("template/invalid-error-message", "warning", '"bad ${var.}"')]


def test_module_source_and_version_are_templates_since_terraform_1_15() -> None:
    # Terraform 1.15 evaluates variables and locals in a module's source and version: a broken template there
    # is an error of the template, no longer a literal path.
    text = '{"module": {"m": {"source": "./${x", "version": "${"}}}'
    assert {d.code for d in template_diags(text)} == {"template/unclosed-interpolation", "template/missing-expression"}


@pytest.mark.parametrize("src", LITERAL_CASES)
def test_literal_only_strings_are_not_parsed(src: str) -> None:
    assert template_diags(src) == []


def test_the_same_string_is_parsed_where_it_is_an_expression() -> None:
    # Control for the literal cases: the broken `${` is reported once it sits in an expression.
    check('{"output": {"o": {"value": "⟨${⟩x"}}}', ["template/unclosed-interpolation"])


# ---- static references ---------------------------------------------------------------------------


def test_depends_on_entries_are_static_references() -> None:
    src = (
        '{"resource": {"null_resource": {"a": {"depends_on": ['
        '"aws_instance.web", "module.net", "aws_instance.x[0]", "module.m[\\"k\\"].aws_s3_bucket.b",'
        ' "⟨${aws_instance.b}⟩", "aws_instance⟨.0⟩", "⟨f(x)⟩", "a⟨[each.key]⟩", "a⟨.*⟩.b", "aws.⟨⟩"]}}}}'
    )
    diags = check(src, [INTERPOLATION, NOT_STATIC, NOT_STATIC, NOT_STATIC, NOT_STATIC,
                        "template/invalid-attribute-name"])
    assert 'Did you mean "aws_instance.b"?' in diags[0].detail
    assert '"[0]"' in diags[1].detail


def test_interpolation_hint_only_when_the_inside_is_a_reference() -> None:
    (d,) = check('{"output": {"o": {"value": 1, "depends_on": ["⟨${f(1)}⟩"]}}}', [INTERPOLATION])
    assert "Did you mean" not in d.detail


def test_reference_ranges_through_escapes() -> None:
    check(r'{"moved": {"from": "aws_instance.a", "to": "aws_instance.\u00e9\u00e9⟨.0⟩"}}', [NOT_STATIC])
    check(r'{"removed": {"from": "⟨\u0024{aws_instance.a}⟩"}}', [INTERPOLATION])


def test_addresses_and_provider_references() -> None:
    src = (
        '{"moved": {"from": "module.a[\\"x\\"].aws_instance.b[0]", "to": "⟨${x.y}⟩"},'
        ' "import": {"to": "aws_instance.a[each.key]", "id": "i-1", "provider": "aws⟨[var.x]⟩"},'
        ' "module": {"m": {"source": "./m", "providers": {"aws": "aws.west", "aws.b": "⟨${aws.c}⟩"}}},'
        ' "resource": {"aws_instance": {"w": {"provider": "⟨${aws.west}⟩",'
        ' "lifecycle": {"ignore_changes": ["tags[\\"Name\\"]", "⟨*⟩"], "replace_triggered_by": ["null_resource.a.id", "a +⟨⟩"]}}}}}'
    )
    check(src, [INTERPOLATION, NOT_STATIC, INTERPOLATION, INTERPOLATION, IGNORE_CHANGES_WILDCARD,
                "template/missing-expression"])


def test_native_expressions_may_index_with_expressions() -> None:
    # OpenTofu: `provider = aws.by_region[each.key]`; `import.to` with `each.key`.
    text = ('{"resource": {"aws_instance": {"w": {"for_each": "${var.m}", "provider": "aws.by_region[each.key]"}}},'
            ' "import": {"for_each": "${var.m}", "to": "aws_instance.w[each.key]", "id": "${each.value}"}}')
    assert template_diags(text) == []


def test_keywords_are_not_references() -> None:
    text = ('{"resource": {"aws_instance": {"w": {"lifecycle": {"ignore_changes": "all"},'
            ' "provisioner": {"local-exec": {"command": "echo", "when": "destroy", "on_failure": "continue"}}}}}}')
    assert template_diags(text) == []


# ---- type constraints ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, codes",
    [
        ('{"variable": {"v": {"type": "list(⟨strin⟩)"}}}', ["type/invalid-type"]),
        ('{"variable": {"v": {"type": "object({a = ⟨strng⟩})"}}}', ["type/invalid-type"]),
        ('{"variable": {"v": {"type": "map(string)⟨)⟩"}}}', ["type/extra-characters"]),
        ('{"variable": {"v": {"type": "⟨⟩"}}}', ["type/missing-type"]),
        ('{"variable": {"v": {"type": "object({a = optional(number, 1 +⟨)⟩})"}}}', ["template/invalid-expression"]),
    ],
)
def test_variable_type_errors(src: str, codes: list[str]) -> None:
    check(src, codes)


def test_valid_types() -> None:
    for t in ("string", "list", "map", "any", "list(object({a = string, b = optional(number, 1)}))", "tuple([bool, set(any)])"):
        assert template_diags('{"variable": {"v": {"type": "%s"}}}' % t) == [], t


# ---- what is left alone ----------------------------------------------------------------------------


def test_broken_json_strings_are_left_to_the_syntax_layer() -> None:
    text = '{"locals": {"a": "${var.\n}}'  # unterminated string
    assert template_diags(text) == []


def test_override_files_use_the_same_modes() -> None:
    src = '{"variable": {"v": {"type": ⟨"strin"⟩, "description": "${"}}, "locals": {"a": "${var.⟨}⟩"}}'
    check(src, ["type/invalid-type", "template/invalid-attribute-name"], name="main_override.tf.json")


def test_check_helper_pairs_each_marked_range_with_its_code() -> None:
    f = parse_fixture("a⟨bc⟩d⟨⟩").only
    assert (f.text, f.ranges) == ("abcd", [(1, 3), (4, 4)])
    # `check` fails on a missing, extra or misplaced range, so a passing fixture means what it says.
    check('{"locals": {"a": "${var.⟨}⟩"}}', ["template/invalid-attribute-name"])
    for wrong in ('{"locals": {"a": "${var.}"}}', '{"locals": {"a": "${⟨var.⟩}"}}', '{"locals": {"a": "⟨${var.⟩}"}}'):
        with pytest.raises(AssertionError):
            check(wrong, ["template/invalid-attribute-name"])
