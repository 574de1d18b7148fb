"""The facts a `locals` attribute states of its value (`resolution.local_values`): what
`terraform validate` knows of a local, read back by `local_value` (the verdicts of the cases
`types/local-steps-*` and `types/local-shape-*` in tests/conformance)."""

from __future__ import annotations

import json

import pytest

from hcljson_ls.hcljson.decode import decode_file
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.definition.schema import schema_for_path
from hcljson_ls.terraform.expressions.values import DYNAMIC, LITERAL_WORD, Val
from hcljson_ls.terraform.resolution.local_values import LOCAL_REFERENCE, LOCAL_VALUE, literal_val, local_value_fact


def fact(value: object) -> tuple | None:
    text = json.dumps({"locals": {"x": value}})
    body, _ = decode_file(text, parse(text).root, schema_for_path("main.tf.json"))
    (attribute,) = body.blocks[0].body.attributes
    return local_value_fact(attribute, text)


def test_a_literal_states_its_shape_with_words_blanked() -> None:
    assert fact({"a": "word", "n": "1.5", "l": [1, True, None]}) == (
        LOCAL_VALUE, "x", '{"a":"\\u0000","n":"1.5","l":[1,true,null]}')
    assert literal_val(json.loads(fact(["word"])[2])).value == (LITERAL_WORD,)  # type: ignore[index]


def test_a_structure_holding_templates_states_its_shape_with_each_template_unknown() -> None:
    got = fact({"region": "${var.region}", "name": "x", "list": ["a-${var.a}", 1]})
    assert got is not None and got[0] == LOCAL_VALUE
    val = literal_val(json.loads(got[2]))
    assert val.value["region"] is DYNAMIC and val.value["name"] is LITERAL_WORD  # type: ignore[index]
    assert val.value["list"].value == (DYNAMIC, Val("number", 1))  # type: ignore[index]
    # typing inside a template states the same fact (no declaration changes)
    assert fact({"region": "${var.regio}", "name": "y", "list": ["b-${var.b}", 1]}) == got


@pytest.mark.parametrize("value", [{"${var.k}": 1}, [{"a": {"${var.k}": 1}}], "x-${var.a}", "${upper(var.a)}"])
def test_no_fact_where_the_names_or_the_value_are_not_known(value: object) -> None:
    # (an object key holding a template: attribute names unknown; a template string: its value)
    assert fact(value) is None


def test_one_reference_states_what_it_names() -> None:
    assert fact("${var.names}") == (LOCAL_REFERENCE, "x", "var", ("names",))
