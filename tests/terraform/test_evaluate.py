"""Static evaluation of template expressions (`terraform.evaluate`): the errors Terraform's
`validate` reports from constants and operation types, and none for type-correct expressions.

The expected errors were each checked against Terraform 1.11.4 (`validate -json`, the expression as
a `locals` value); the property generates only expressions Terraform evaluates without an error.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.template.parse import parse_template_relative
from hcljson_ls.terraform.expressions.evaluate import DYNAMIC, Val, constant_problems, get_attr, get_index, type_value


def problems(template: str) -> list[tuple[str, str, str]]:
    tree, diags = parse_template_relative(template)
    assert diags == ()
    return [(d.code, template[d.start:d.end], d.detail) for d in constant_problems(tree)]


@pytest.mark.parametrize("template, expected", [
    ('${upper(["a"])}', [("expression/invalid-function-argument", "[", 'Invalid value for "str" parameter: string required.')]),
    ('${abs("a")}', [("expression/invalid-function-argument", "a", 'Invalid value for "num" parameter: a number is required.')]),
    ('${abs(true)}', [("expression/invalid-function-argument", "true", 'Invalid value for "num" parameter: number required.')]),
    ('${abs(" 1")}', [("expression/invalid-function-argument", " 1", 'Invalid value for "num" parameter: a number is required.')]),
    ('${1 + "a" + [1]}', [("expression/invalid-operand", '"a"', "Unsuitable value for right operand: a number is required."),
                          ("expression/invalid-operand", "[1]", "Unsuitable value for right operand: number required.")]),
    ('${true + 1}', [("expression/invalid-operand", "true", "Unsuitable value for left operand: number required.")]),
    ('${-"a"}', [("expression/invalid-operand", '"a"', "Unsuitable value for unary operand: a number is required.")]),
    ('${1 && true}', [("expression/invalid-operand", "1", "Unsuitable value for left operand: bool required.")]),
    ('${[1, 2][-1]}', [("expression/invalid-index", "[-1]", "The given key does not identify an element in this "
                                                            "collection value: a negative number is not a valid index for a sequence.")]),
    ('${{a = 1}["b"]}', [("expression/invalid-index", '["b"]', "The given key does not identify an element in this collection value.")]),
    ('${"abc"[0]}', [("expression/invalid-index", "[0]", "This value does not have any indices.")]),
    ('${[1, 2]["a"]}', [("expression/invalid-index", '["a"]', "The given key does not identify an element in this "
                                                              "collection value: a number is required.")]),
    ('${upper(1)[0]}', [("expression/invalid-index", "[0]", "This value does not have any indices.")]),
    ('${[[1, 2]][0][5]}', [("expression/invalid-index", "[5]", "The given key does not identify an element in this collection value.")]),
    ('${[for x in [1] : x][0] + upper([1])}', [("expression/invalid-function-argument", "[", 'Invalid value for "str" parameter: string required.')]),
    ('%{ if true }${[1][1]}%{ endif }', [("expression/invalid-index", "[1]", "The given key does not identify an element in this collection value.")]),
    # a `for` body over a known non-empty collection, without a condition (terraform: once per element)
    ('${{for k, v in {a = 1} : k => [1][3]}}', [("expression/invalid-index", "[3]", "The given key does not identify an element in this collection value.")]),
    ('${{for k, v in {a = 1} : upper([k]) => 1}}', [("expression/invalid-function-argument", "[", 'Invalid value for "str" parameter: string required.')]),
    ('%{ for x in [1, 2] }${[1][3]}%{ endfor }', [("expression/invalid-index", "[3]", "The given key does not identify an element in this collection value.")]),
    ('${coalesce([1][3])}', [("expression/invalid-index", "[3]", "The given key does not identify an element in this collection value.")]),
    # an argument with an error of its own: the call is not checked (one mistake, one error)
    ('${upper([1][3])}', [("expression/invalid-index", "[3]", "The given key does not identify an element in this collection value.")]),
    # a conditional's results of no one type, whatever its condition (on both results, as HCL)
    ('${var.b ? 1 : true}', [("expression/inconsistent-conditional", "1 : true", "The true and false results must have one "
                              "type, but the true result is a number and the false result is a bool.")]),
    ('${true ? [] : {}}', [("expression/inconsistent-conditional", "[] : {}", "The true and false results must have one "
                            "type, but the true result is tuple([]) and the false result is object({})."), ]),
    # a value interpolated among other parts: converted to a string (Terraform 1.11.4, types/interpolation-*)
    ('x-${[1]}', [("expression/invalid-interpolation", "[1]", "Cannot include the given value in a string template: "
                   "a string is required, but this is tuple([number]).")]),
    ('%{if true}${{a = 1}}%{endif}', [("expression/invalid-interpolation", "{a = 1}", "Cannot include the given value "
                                       "in a string template: a string is required, but this is object({a = number}).")]),
    ('x-${null}-${upper("a")}', [("expression/invalid-interpolation", "null", "The expression result is null. Cannot "
                                  "include a null value in a string template.")]),
    ('${upper(var.b ? [1] : [2])}', [("expression/invalid-function-argument", "var.b", 'Invalid value for "str" parameter: '
                                      "string required.")]),  # (HCL's start range of a conditional: its condition's)
    # a parameter of a collection type (types/typed-join-*, -sort-*, -alltrue-*, ...; in our words)
    ('${join(",", "abc")}', [("expression/invalid-function-argument", "abc", 'Invalid value for "lists" parameter: '
                              "a list of string is required, but this is a string.")]),
    ('${join(",", [["a"]])}', [("expression/invalid-function-argument", "[", 'Invalid value for "lists" parameter: '
                                "element 0: a string is required, but this is a tuple.")]),
    ('${distinct({a = 1})}', [("expression/invalid-function-argument", "{", 'Invalid value for "list" parameter: '
                               "a list of any value is required, but this is an object.")]),
    ('${alltrue([1])}', [("expression/invalid-function-argument", "[", 'Invalid value for "list" parameter: '
                          "element 0: a bool is required, but this is a number.")]),
    ('${[][0]}', [("expression/invalid-index", "[0]", "The given key does not identify an element in this collection value: "
                   "the collection has no elements.")]),
    ('${null.a}', [("expression/unsupported-attribute", ".a", "This value is null, so it does not have any attributes.")]),
    # a function's own checks of its arguments' types (types/typed-merge-*, -keys-*, -length-*, ...)
    ('${merge({a = 1}, ["a"])}', [("expression/invalid-function-argument", "merge(", 'Call to function "merge" failed: '
                                   'arguments must be maps or objects, got "tuple".')]),
    ('${keys("a")}', [("expression/invalid-function-argument", "a", 'Invalid value for "inputMap" parameter: must have map '
                       "or object type.")]),
    ('${length(5)}', [("expression/invalid-function-argument", "length(", 'Call to function "length" failed: argument must '
                       "be a string, a collection type, or a structural type.")]),
    ('${element([], 0)}', [("expression/invalid-function-argument", "element(", 'Call to function "element" failed: '
                            "cannot use element function with an empty list.")]),
    ('${one(["a", "b"])}', [("expression/invalid-function-argument", "[", 'Invalid value for "list" parameter: must be a '
                             "list, set, or tuple value with either zero or one elements.")]),
    ('${zipmap(["a"], 1)}', [("expression/invalid-function-argument", "zipmap(", 'Call to function "zipmap" failed: '
                              "values argument must be a list or tuple value.")]),
    # ... and on known values only (types/typed-contains-*, -flatten-*, -coalescelist-*)
    ('${contains("abc", "a")}', [("expression/invalid-function-argument", "contains(", 'Call to function "contains" '
                                  "failed: argument must be list, tuple, or set.")]),
    ('${coalescelist([], "a")}', [("expression/invalid-function-argument", "coalescelist(", 'Call to function '
                                   '"coalescelist" failed: coalescelist arguments must be lists or tuples.')]),
])
def test_errors_terraform_reports(template: str, expected: list) -> None:
    assert problems(template) == expected


@pytest.mark.parametrize("template", [
    # each accepted by `terraform validate` 1.11.4 (in a `locals` value, `var.*` declared)
    '${upper(1)}', '${upper(true)}', '${abs("1")}', '${abs("1e3")}', '${1 + "1"}', '${!"1"}', '${"1" && true}',
    '${[1, 2]["1"]}', '${[1, 2][*]}', '${false ? [1, 2][5] : 1}', '${var.x == "" ? [1, 2][5] : 1}',
    '${try([1, 2][5], 1)}', '${can(upper(["a"]))}', '${[for x in var.l : x + "a"]}', '${[for x in [] : upper([x])]}',
    '%{ if var.x == "" }${[1][1]}%{ endif }', '%{ for x in var.l }${[1][1]}%{ endfor }', '${var.x.y[3].z}',
    # conditionals whose results unify (`conversion.unify`), and a known condition's result alone
    '${var.b ? 1 : "x"}', '${var.b ? null : [1]}', '${var.b ? [1] : ["a", 2]}', '${var.b ? {a = 1} : {b = 2}}',
    '${var.b ? [] : var.l}', '${var.b ? var.l : {}}', '${upper(true ? "a" : "b")}', '${[true ? 1 : 2][0]}',
    # one interpolation alone is its value; an unknown value is not checked; strings, numbers, bools
    '${[1]}', 'x-${var.l}', 'x-${1}-${true}', '%{if false}${[1]}%{endif}', '${"a-${[1][0]}"}',
    # arguments that convert to a parameter's collection type
    '${join(",", ["a", 1, true])}', '${distinct(["a", 1])}', '${alltrue(["true", false])}', '${setunion([1], ["a"])}',
    '${transpose({a = ["x"]})}', '${compact(["a", null, ""])}', '${join(",", var.l)}', '${sort(toset(["b"]))}',
    '${merge(null, {a = 1})}', '${merge(var.x, [1])}', '${length("abc")}', '${keys({a = 1})}', '${lookup({a = 1}, "a", 2)}',
    '${element(["a"], 5)}', '${element([], var.i)}', '${one([])}', '${reverse(toset([1]))}', '${slice([1, 2], 0, 1)}',
])
def test_what_terraform_accepts(template: str) -> None:
    assert problems(template) == []


@pytest.mark.parametrize("template", [
    # Terraform reports these, but not as this module's rules: another rule's (argument counts,
    # unknown functions), or a deliberate miss (nulls, splat bodies, fractional indexes, a
    # function's own checks beyond its parameter types, conditions inside `for` bodies): never a guess
    '${[[1, 2]][*][5]}', '${[1, 2][1.5]}', '${1 + null}', '${upper(null)}', '${tostring([1])}', '${sum("x")}', '${contains(var.s, "a")}', '${flatten({a = var.x})}',
    '${upper("a", ["b"])}', '${nope(["a"])}', '${upper(["a"]...)}', '${provider::p::f(["a"])}',
    '${[for x in [1] : [1][3] if x > 0]}', '${{a = 1, a = 2}.b}',
])
def test_what_is_left_to_other_rules(template: str) -> None:
    assert problems(template) == []


def test_type_values_and_steps() -> None:
    obj = type_value("object({a = string, b = optional(list(number))})")
    # (cty's JSON of an object type with optional attributes: their names, third)
    assert obj == Val(["object", {"a": "string", "b": ["list", "number"]}, ["b"]])
    assert get_attr(obj, "b") == (Val(["list", "number"]), None)
    assert get_attr(obj, "c")[1] == ("Unsupported attribute", 'This object does not have an attribute named "c".')
    assert get_index(type_value("list(number)"), Val("number", 3)) == (Val("number"), None)
    assert get_index(type_value("tuple([string])"), Val("string", "1"))[1] is not None
    assert get_attr(type_value("map(string)"), "k") == (Val("string"), None)
    # A sequence's key must be a number ("1" converts); a set has no index; a map's key converts.
    assert get_index(type_value("list(string)"), Val("string", "1")) == (Val("string"), None)
    assert get_index(type_value("list(string)"), Val("string", "a"))[1] == (
        "Invalid index", "The given key does not identify an element in this collection value: a number is required.")
    assert get_index(type_value("list(string)"), Val("bool", True))[1][1].endswith(": number required.")
    assert get_index(type_value("set(string)"), Val("number", 0))[1][1].startswith("Elements of a set")
    assert get_index(type_value("set(string)"), DYNAMIC) == (DYNAMIC, None)
    assert get_index(type_value("map(string)"), Val("number", 0)) == (Val("string"), None)
    for unsure in ("", "any", "strin", "list(any)"):
        value = type_value(unsure)
        assert get_attr(get_index(value, Val("number", 0))[0], "x")[1] is None
    assert type_value("not a type") == DYNAMIC


# ---- property: type-correct expressions have no error ----------------------------------------

_SAFE_TEXT = st.text(alphabet="abcxyz _-", max_size=6)
_NUMBERS = st.one_of(st.integers(-1000, 1000).map(str), st.sampled_from(["1.5", "0", "2e3"]))


def _numbers(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*"]), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        children.map(lambda e: f"-({e})"),
        children.map(lambda e: f"abs({e})"),
        st.tuples(children, children).map(lambda t: f"max({t[0]}, {t[1]})"),
        st.lists(children, min_size=1, max_size=3).flatmap(
            lambda items: st.integers(0, len(items) - 1).map(lambda i: f"[{', '.join(items)}][{i}]")),
        st.tuples(children, children).map(lambda t: f"{{a = {t[0]}, b = {t[1]}}}.b"),
        st.tuples(st.sampled_from(["true", "false", "var.c"]), children, children).map(lambda t: f"({t[0]} ? {t[1]} : {t[2]})"),
        children.map(lambda e: f"length([{e}])"),
    )


_NUMBER_EXPRESSIONS = st.recursive(
    st.one_of(_NUMBERS, _NUMBERS.map(lambda n: f'"{n}"'), st.just("var.n"), st.just("local.x.y[2]")),
    _numbers, max_leaves=8)
_STRING_EXPRESSIONS = st.one_of(
    _SAFE_TEXT.map(lambda s: f'"{s}"'),
    _NUMBER_EXPRESSIONS.map(lambda e: f"upper({e})"),
    st.tuples(_SAFE_TEXT, _NUMBER_EXPRESSIONS).map(lambda t: f'"{t[0]}${{{t[1]}}}"'),
    st.tuples(_NUMBER_EXPRESSIONS, _NUMBER_EXPRESSIONS).map(lambda t: f"substr(\"abc\", {t[0]}, {t[1]})"),
)
_BOOL_EXPRESSIONS = st.one_of(
    st.sampled_from(["true", "false", '"true"', '"0"']),
    st.tuples(_NUMBER_EXPRESSIONS, st.sampled_from(["<", ">=", "=="]), _NUMBER_EXPRESSIONS).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
    st.tuples(_STRING_EXPRESSIONS, _STRING_EXPRESSIONS).map(lambda t: f"!({t[0]} != {t[1]}) && true"),
)
_ANYTHING = st.one_of(_NUMBER_EXPRESSIONS, _STRING_EXPRESSIONS, _BOOL_EXPRESSIONS,
                      # anything at all inside try(): Terraform reports none of its errors
                      st.text(alphabet='[]1"a+', max_size=6).map(lambda s: f"try(upper([1][2]), {s!r}[0], 1)".replace("'", '"')))


@settings(max_examples=150, deadline=None)
@given(_ANYTHING)
def test_type_correct_expressions_have_no_error(expression: str) -> None:
    tree, diags = parse_template_relative("${" + expression + "}")
    if diags:  # a generated `try` argument that does not parse: not an expression at all
        assert expression.startswith("try(")
        return
    assert constant_problems(tree) == ()
