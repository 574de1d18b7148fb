"""`provider_rules.kind_checker`: `schema/wrong-kind` compiled once per type. The compiled check is
reused for the same type object, judges an equal type the same, and its shortcut for a field that is
a list/set/map of a primitive type (elements all of kinds the type takes) passes over only what has
nothing to find (the rule's findings on both views: tests/hcljson/test_view.py)."""

from __future__ import annotations

import copy
import json

from hcljson_ls.hcljson.skim import Pairs
from hcljson_ls.hcljson.view import VALUES, TreeValue, TreeView, diagnostics_of
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.rules.provider_rules import WRONG_KIND, kind_checker, wrong_kinds

#: The AWS 4.13 `aws_security_group.ingress` type, as its schema gives it (a set of objects).
INGRESS = ["set", ["object", {"cidr_blocks": ["list", "string"], "description": "string", "from_port": "number",
                              "tags": ["map", "string"], "self": "bool"}]]


def findings(text: str, cty: object) -> list[tuple[str, str, str]]:
    """The diagnostics the rule places on the tree of `text` (code, message, the text at its range),
    after checking that the values view finds the same."""
    root = parse(text).root
    assert root is not None
    tree = TreeView(text)
    on_tree: list = []
    wrong_kinds(tree, TreeValue(root, root.start), cty, "ingress", on_tree)
    on_values: list = []
    wrong_kinds(VALUES, json.loads(text, object_pairs_hook=Pairs), cty, "ingress", on_values)
    assert [(f.summary, f.detail) for f in on_values] == [(f.summary, f.detail) for f in on_tree]
    return [(d.code, d.message, text[d.start:d.end]) for d in diagnostics_of(tree, on_tree)]


def test_the_check_is_compiled_once_per_type_and_an_equal_type_judges_alike() -> None:
    assert kind_checker(INGRESS) is kind_checker(INGRESS)
    text = '[{"from_port": true, "cidr_blocks": [{}]}]'
    assert findings(text, INGRESS) == findings(text, copy.deepcopy(INGRESS))


def test_plain_collection_fields_pass_and_a_wrong_element_is_found_at_its_range() -> None:
    fine = '[{"cidr_blocks": ["10.0.0.0/16", 1, true, null], "tags": {"a": "b", "n": 2}, "from_port": "443"}]'
    assert findings(fine, INGRESS) == []
    wrong = '[{"cidr_blocks": ["10.0.0.0/16", {"x": 1}], "tags": {"a": [1]}, "self": "yes", "from_port": "${var.p}"}]'
    found = findings(wrong, INGRESS)
    assert [(code, text) for code, _, text in found] == [(WRONG_KIND, '{"x": 1}'), (WRONG_KIND, "[1]"), (WRONG_KIND, '"yes"')]
    messages = [message for _, message, _ in found]
    assert 'ingress.cidr_blocks' in messages[0] and "needs a string, but this is a JSON object" in messages[0]
    assert 'ingress.tags' in messages[1] and "needs a string, but this is a JSON array" in messages[1]
    assert 'ingress.self' in messages[2] and "needs a bool, but this is a string" in messages[2]
