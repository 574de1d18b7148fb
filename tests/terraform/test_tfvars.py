"""The checks of a variable definitions file (`terraform.tfvars`): which names are declared, and
whether each value converts to its variable's type by go-cty's rules as Terraform applies them
(a table of value/type pairs, accepted and rejected), null against `nullable`, placeholders.

The file is decoded as the server decodes it (`analysis.analyze_file` with a tfvars path); the
expected range of a problem is marked `⟨⟩` in the value (tests/fixture.py's markers)."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.diagnostic import ERROR, WARNING
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.filekinds import tfvars
from hcljson_ls.terraform.filekinds.tfvars import (
    UNDECLARED_VARIABLE,
    WRONG_TYPE,
    Variable,
    check,
    is_tfvars,
    placeholder,
)

PATH = "/m/terraform.tfvars.json"


def diagnose(text: str, variables: dict[str, Variable]):
    result = analyze_file(text, parse(text).root, PATH)
    assert result.structure == [] and result.strings == [], "a valid tfvars file decodes without problems"
    return check(text, result.body.attributes, variables)


def one_value(type_text: str, value: str, nullable: bool = True):
    """The diagnostics of `{"v": VALUE}` (`⟨⟩` markers taken out) for `variable "v"` of `type_text`."""
    marked = parse_fixture('{"v": ' + value + "}").only
    return marked, diagnose(marked.text, {"v": Variable("v", type_text, nullable)})


# ---- file names ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, expected", [
    ("terraform.tfvars.json", True),
    ("prod.auto.tfvars.json", True),
    ("staging.tfvars.json", True),
    ("file:///w/env/Terraform.TFVARS.JSON", True),
    ("C:\\w\\x.auto.tfvars.json", True),
    ("terraform.tfvars", False),  # native: not ours
    ("main.tf.json", False),
    ("tfvars.json", False),
    ("", False),
    (None, False),
])
def test_is_tfvars_by_name(name, expected) -> None:
    assert is_tfvars(name) is expected


def test_a_tfvars_file_decodes_as_attributes_and_declares_nothing() -> None:
    text = '{"//": "comment", "region": "${not.a.template", "tags": {"a": "b"}}'
    result = analyze_file(text, parse(text).root, PATH)
    assert [a.name for a in result.body.attributes] == ["region", "tags"]
    assert result.body.blocks == ()
    assert result.structure == result.strings == result.resolved == []  # strings are literal: no template errors
    assert result.definitions()[0] == []


def test_a_name_given_twice_is_the_decoders_duplicate() -> None:
    text = '{"a": 1, "a": 2}'
    result = analyze_file(text, parse(text).root, PATH)
    assert [d.code for d in result.structure] == ["structure/duplicate-argument"]


# ---- undeclared names ------------------------------------------------------------------------------


def test_undeclared_name_is_a_warning_with_did_you_mean_and_a_quick_fix() -> None:
    f = parse_fixture('{⟨"regoin"⟩: "eu-west-1", "size": 2}').only
    [d] = diagnose(f.text, {"region": Variable("region", "string"), "size": Variable("size")})
    assert (d.code, d.severity, (d.start, d.end)) == (UNDECLARED_VARIABLE, WARNING, f.ranges[0])
    assert d.plain_message == (
        'Value for undeclared variable "regoin": The module declares no variable "regoin"; '
        'Terraform ignores this value with a warning. Did you mean "region"?'
    )
    [fix] = d.fixes
    assert (fix.start, fix.end, fix.new_text, fix.title) == (*f.ranges[0], '"region"', 'Change to "region"')
    fixed = f.text[: fix.start] + fix.new_text + f.text[fix.end :]
    assert diagnose(fixed, {"region": Variable("region", "string"), "size": Variable("size")}) == []


def test_undeclared_name_without_a_close_one_has_no_fix() -> None:
    [d] = diagnose('{"zzz": 1}', {"region": Variable("region")})
    assert d.fixes == () and "Did you mean" not in d.message


def test_undeclared_name_with_escapes_gets_a_json_escaped_fix() -> None:
    text = '{"caf\\u00e9": 1}'
    [d] = diagnose(text, {"cafés": Variable("cafés"), "region": Variable("region")})
    assert (d.code, text[d.start : d.end]) == (UNDECLARED_VARIABLE, '"caf\\u00e9"')
    assert d.plain_message.startswith('Value for undeclared variable "café"') and d.message.endswith('Did you mean "cafés"?')
    assert d.fixes[0].new_text == '"cafés"'


def test_every_declared_name_is_quiet() -> None:
    assert diagnose('{"a": 1, "b": [1], "c": {"x": null}}', {n: Variable(n) for n in "abc"}) == []


# ---- conversions -----------------------------------------------------------------------------------

ACCEPTED = [
    # primitives: number and bool convert to string, strings to number and bool when they say so
    ("string", '"x"'), ("string", "42"), ("string", "1.5e3"), ("string", "true"), ("string", "false"),
    ("string", '"${var.x}"'),  # literal text, fine for a string
    ("number", "42"), ("number", "-0.5"), ("number", '"1"'), ("number", '"-1.25e-3"'), ("number", '"+7"'),
    ("number", '"Inf"'),
    ("bool", "true"), ("bool", "false"), ("bool", '"true"'), ("bool", '"false"'), ("bool", '"1"'), ("bool", '"0"'),
    # null fits every type (the variable is nullable by default), also inside collections and objects
    ("string", "null"), ("list(number)", "null"), ("object({a = string})", "null"),
    ("list(string)", '["a", null]'), ("object({a = string})", '{"a": null}'),
    # any
    ("any", "1"), ("any", '{"a": [1, {"b": true}]}'), ("", '"no type at all"'),
    # lists, sets, tuples from arrays
    ("list(string)", "[]"), ("list(string)", '["a", 1, true]'), ("set(number)", '[1, "2", 1]'),
    ("list(list(number))", '[[1, 2], ["3"]]'), ("tuple([string, number, bool])", '["a", "1", "true"]'),
    ("tuple([])", "[]"), ("list", '["bare list is list(any)"]'),
    # maps and objects from objects
    ("map(string)", '{"a": "x", "b": 2}'), ("map(number)", "{}"), ("map", '{"a": "b"}'),
    ("map(list(string))", '{"a": ["x"], "b": []}'),
    ("object({a = string, b = number})", '{"a": "x", "b": "2"}'),
    ("object({a = string})", '{"a": "x", "extra": [1, 2, 3]}'),  # extra attributes are dropped silently
    ("object({a = string, b = optional(number)})", '{"a": "x"}'),
    ("object({a = string, b = optional(number, 5)})", '{"a": "x"}'),
    ("object({a = optional(object({b = string}))})", "{}"),
    ("object({a = object({b = optional(list(string), [])})})", '{"a": {}}'),
    ("list(object({name = string, port = optional(number, 80)}))", '[{"name": "a"}, {"name": "b", "port": "8080"}]'),
    ("map(object({size = number}))", '{"x": {"size": 1}, "y": {"size": "2"}}'),
    # collections of any: elements that unify
    ("list(any)", '[1, "a", true]'), ("list(any)", '[[1], [2, 3]]'), ("map(any)", '{"a": {"x": 1}, "b": {"y": 2}}'),
    ("set(any)", '[null, 1, 2]'),
    # a type that does not parse is not checked
    ("strin", '{"a": 1}'), ("list(", "1"),
]


@pytest.mark.parametrize("type_text, value", ACCEPTED)
def test_values_terraform_accepts(type_text: str, value: str) -> None:
    _, found = one_value(type_text, value)
    assert found == []


REJECTED = [
    # (type, value with the expected range marked, message after "The type of var.v is TYPE: ")
    ("number", '⟨"x"⟩', "a number is required"),
    ("number", '⟨""⟩', "a number is required"),
    ("number", '⟨"0x10"⟩', "a number is required"),
    ("number", "⟨true⟩", "number required"),
    ("number", "⟨[⟩1]", "number required"),
    ("bool", '⟨"yes"⟩', "a bool is required"),
    ("bool", "⟨1⟩", "bool required"),
    ("string", "⟨[⟩]", "string required"),
    ("string", '⟨{⟩"a": 1}', "string required"),
    ("list(string)", '⟨"a"⟩', "list of string required"),
    ("list(string)", '⟨{⟩}', "list of string required"),
    ("set(number)", '[1, ⟨"two"⟩]', "element 1: a number is required"),
    ("list(list(number))", '[[1], [2, ⟨false⟩]]', "element 1: element 1: number required"),
    ("map(string)", '⟨[⟩]', "map of string required"),
    ("map(number)", '{"a": 1, "b": ⟨"x"⟩}', 'element "b": a number is required'),
    ("tuple([string, number])", '⟨[⟩"a"]', "a tuple of 2 elements is required, not 1"),
    ("tuple([string, number])", '["a", ⟨"b"⟩]', "element 1: a number is required"),
    ("tuple([string])", '⟨{⟩}', "tuple required"),
    ("object({a = string})", '⟨[⟩]', "object required"),
    ("object({a = string, b = number})", '⟨{⟩"a": "x"}', 'attribute "b" is required'),
    ("object({a = string, b = number})", '{"a": "x", "b": ⟨"many"⟩}', 'attribute "b": a number is required'),
    ("object({a = optional(object({b = string}))})", '{"a": ⟨{⟩}}', 'attribute "a": attribute "b" is required'),
    ("object({a = optional(number)})", '{"a": ⟨"x"⟩}', 'attribute "a": a number is required'),
    ("list(object({name = string, port = optional(number, 80)}))", '[{"name": "a"}, {"name": "b", "port": ⟨"http"⟩}]',
     'element 1: attribute "port": a number is required'),
    ("map(object({size = number}))", '{"x": {"size": 1}, "y": ⟨{⟩}}', 'element "y": attribute "size" is required'),
    ("list(any)", '⟨[⟩1, true]', "all list elements must have the same type"),
    ("list(any)", '⟨[⟩1, [2]]', "all list elements must have the same type"),
    ("map(any)", '⟨{⟩"a": "x", "b": {"c": 1}}', "all map elements must have the same type"),
]


@pytest.mark.parametrize("type_text, value, message", REJECTED)
def test_values_terraform_rejects(type_text: str, value: str, message: str) -> None:
    marked, found = one_value(type_text, value)
    assert [(d.code, d.severity, d.start, d.end) for d in found] == [(WRONG_TYPE, ERROR, *marked.ranges[0])]
    assert found[0].plain_message == f"Unsuitable value for var.v: The type of var.v is {type_text}: {message}."


def test_null_for_a_variable_that_is_not_nullable() -> None:
    marked, found = one_value("string", "⟨null⟩", nullable=False)
    assert [(d.code, d.start, d.end) for d in found] == [(WRONG_TYPE, *marked.ranges[0])]
    assert found[0].plain_message == (
        "Unsuitable value for var.v: var.v is declared with nullable = false, so it cannot be set to null."
    )
    # Only the variable itself: null inside its value is fine.
    assert one_value("list(string)", '["a", null]', nullable=False)[1] == []


def test_every_value_is_checked_and_broken_values_are_left_to_the_syntax_layer() -> None:
    text = '{"a": "x", "b": "y", "c": }'
    found = check(text, analyze_file(text, parse(text).root, PATH).body.attributes,
                  {"a": Variable("a", "number"), "b": Variable("b", "number"), "c": Variable("c", "number")})
    assert [text[d.start : d.end] for d in found] == ['"x"', '"y"']


# ---- placeholders ----------------------------------------------------------------------------------


@pytest.mark.parametrize("type_text, expected", [
    ("string", '""'), ("number", "0"), ("bool", "false"), ("any", '""'), ("", '""'), ("strin", '""'),
    ("list(string)", "[]"), ("set(number)", "[]"), ("tuple([string])", "[]"), ("list", "[]"),
    ("map(string)", "{}"), ("object({a = string})", "{}"), ("map", "{}"),
])
def test_placeholder_by_type(type_text: str, expected: str) -> None:
    assert placeholder(type_text) == expected


def test_type_of_is_none_for_any_value() -> None:
    assert tfvars.type_of("") is None and tfvars.type_of("  ") is None and tfvars.type_of("list(") is None
    assert tfvars.type_of("list(string)") is not None
