"""`expressions.conversion`: whether a value `terraform validate` knows converts to a type.

Every "fails" row here is an error of Terraform 1.11.4 in the conformance cases `types/argument-*`
(module inputs and a built-in data source's `string` arguments), every "converts" row a module it
accepts; the rows add the messages and the neighbouring types.
"""

from __future__ import annotations

import pytest

from hcljson_ls.terraform.expressions.conversion import conversion_problem, unify
from hcljson_ls.terraform.expressions.evaluate import DYNAMIC, Val, type_value

OBJECT_AB = ["object", {"a": "string", "b": "number"}, ["b"]]  # object({a = string, b = optional(number)})
TUPLE_1_TRUE = Val(["tuple", ["number", "bool"]], (Val("number", 1), Val("bool", True)))


@pytest.mark.parametrize(("val", "want", "problem"), [
    # primitives
    (type_value("list(string)"), "string", "a string is required, but this is a list of string"),
    (type_value("map(string)"), "string", "a string is required, but this is a map of string"),
    (type_value("bool"), "number", "a number is required, but this is a bool"),
    (type_value("number"), "bool", "a bool is required, but this is a number"),
    (type_value("string"), ["list", "string"], "a list of string is required, but this is a string"),
    (Val("string", "abc"), "number", 'a number is required, but "abc" is not one'),
    (Val("string", "yes"), "bool", 'a bool is required, but "yes" is not one'),
    # collections and structures
    (type_value("list(list(string))"), ["list", "string"], "its elements: a string is required, but this is a list of string"),
    (type_value("list(string)"), ["map", "string"], "a map of string is required, but this is a list of string"),
    (TUPLE_1_TRUE, ["list", "number"], "element 1: a number is required, but this is a bool"),
    (Val(["object", {"b": "number"}], {"b": Val("number", 1)}), OBJECT_AB, 'attribute "a" is required'),
    (type_value("object({c = string})"), OBJECT_AB, 'attribute "a" is required'),
    (type_value("object({a = list(string)})"), OBJECT_AB, 'attribute "a": a string is required, but this is a list of string'),
    (type_value("map(list(string))"), OBJECT_AB, "an object is required, but this is a map of list of string"),
    (type_value("list(string)"), ["tuple", ["string", "number"]], "a tuple is required, but this is a list of string"),
    (Val(["tuple", ["string", "number", "number"]]), ["tuple", ["string", "number"]],
     "a tuple of 2 elements is required, but this has 3"),
    (Val(["tuple", ["string", ["tuple", ["string"]]]]), ["list", "dynamic"], "all its elements must have one type"),
    (TUPLE_1_TRUE, ["list", "dynamic"], "all its elements must have one type"),
])
def test_what_fails(val: Val, want: object, problem: str) -> None:
    assert conversion_problem(val, want) == problem


@pytest.mark.parametrize(("val", "want"), [
    (type_value("number"), "string"),
    (type_value("bool"), "string"),
    (type_value("string"), "number"),  # an unknown string may be "1"
    (type_value("string"), "bool"),
    (Val("string", "12"), "number"),
    (Val("string", "1"), "bool"),
    (type_value("set(string)"), ["list", "string"]),
    (type_value("list(string)"), ["list", "number"]),  # each element may read as a number
    (type_value("list(string)"), ["set", "string"]),
    (TUPLE_1_TRUE, ["list", "string"]),
    (TUPLE_1_TRUE, ["set", "string"]),
    (Val(["object", {"a": "string"}], {"a": Val("string", "x")}), OBJECT_AB),
    (type_value("object({a = string, z = number})"), OBJECT_AB),  # extra attributes are dropped
    (Val(["object", {"a": "string"}]), ["map", "string"]),
    (Val(["tuple", ["string", "number", "bool"]]), ["list", "dynamic"]),  # all convert to string
    (DYNAMIC, "string"),
    (type_value("list(string)"), "dynamic"),
    (Val("dynamic", None), "number"),  # null: other rules
])
def test_what_converts_or_may(val: Val, want: object) -> None:
    assert conversion_problem(val, want) is None


@pytest.mark.parametrize(("a", "b", "unified"), [
    # each a conditional's results in the conformance cases `types/conditional-*` (Terraform 1.11.4)
    (["list", "string"], "string", None),
    (["list", "string"], ["map", "string"], None),
    ("number", "bool", None),
    (["object", {"a": "string"}], ["object", {"b": ["list", "string"]}], None),
    (["object", {"a": "number"}], ["object", {"a": "string", "b": ["tuple", ["number"]]}], None),
    (["tuple", ["number"]], ["tuple", ["string", ["tuple", ["number"]]]], None),
    (["tuple", []], ["object", {}], None),
    (["list", "string"], ["tuple", []], ["list", "string"]),
    ("number", "string", "string"),
    (["map", "string"], ["object", {}], ["map", "string"]),
    (["object", {"a": "string"}], ["object", {"b": "string"}], ["map", "string"]),
    (["tuple", ["number"]], ["tuple", ["string", "number"]], ["list", "string"]),
    (["list", "string"], ["list", "number"], ["list", "string"]),
    (["tuple", ["string", "number"]], ["list", "string"], ["list", "string"]),
    (["object", {"a": "number"}], ["object", {"b": "number"}], ["map", "number"]),
    ("dynamic", ["list", "string"], "dynamic"),
])
def test_unify(a: object, b: object, unified: object) -> None:
    assert unify(a, b) == unified
    assert unify(b, a) == unified or unified is None
