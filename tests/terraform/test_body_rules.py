"""A rule of a top-level body is written once (`terraform.body_rules.BODY_RULES`, over
`hcljson.view`; a rule against the provider's schema: `provider_rules.SCHEMA_RULES`) and reported alike by the quick open (values, no tree) and by the edit path (the
tree, incrementally), on a real Workspace over a temporary directory (issue 21 §1)."""

from __future__ import annotations

import pytest
from documents import edit
from fixture import parse_fixture
from internals import file_diagnostics

from hcljson_ls.diagnostic import ERROR
from hcljson_ls.hcljson.view import ABSENT, NO_VALUE, Finding, ValueView
from hcljson_ls.jsonsyntax.tree import STRING
from hcljson_ls.terraform.rules import body_rules, provider_rules
from hcljson_ls.terraform.schemas.provider_schema import SchemaBlock
from hcljson_ls.workspace import DocumentState

FORBIDDEN = "test/forbidden-name"


def no_cats(view: ValueView, block_type: str, labels: tuple[str, ...], body: object) -> list[Finding]:
    """A test-only rule: a resource's `input` must not be the string "cat"."""
    if block_type != "resource":
        return []
    v = view.member(body, "input")
    if v is ABSENT or v is NO_VALUE or view.kind(v) != STRING or view.string(v) != "cat":
        return []
    return [Finding(v, ERROR, FORBIDDEN, "No cats", "This test's rule forbids the input \"cat\".")]


@pytest.fixture
def extra_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(body_rules, "BODY_RULES", [*body_rules.BODY_RULES, no_cats])


FIXTURE = """
//- /main.tf.json
{
  "resource": {
    "terraform_data": {
      "a": {$[a_input]"input": ⟨"cat"⟩},
      "b": {"input": $[dog]"dog"},
      "c": {"count": ⟨-1⟩, "input": "z"}
    }
  },
  "output": {"o": {"value": "${terraform_data.b.output}"}}
}
"""


#: Its marks: where the tests edit it.
MARKS = parse_fixture(FIXTURE).files["/main.tf.json"].marks


def opened(tmp_path) -> tuple[DocumentState, list[tuple[int, int]]]:
    ws = parse_fixture(FIXTURE).workspace(tmp_path)
    state = ws.workspace.get(ws.uri("/main.tf.json"))
    assert state is not None
    return state, ws.fixture.files["/main.tf.json"].ranges


def found(state: DocumentState) -> list[tuple[str, int, int]]:
    return [(d.code, d.start, d.end) for d in file_diagnostics(state)]


def test_a_registered_rule_is_reported_by_the_quick_open_and_the_edit_path(tmp_path, extra_rule) -> None:
    state, (cat, count) = opened(tmp_path)
    quick = state.quick()
    assert quick is not None and not state.built  # answered from the values
    assert quick.certified >= 1 and quick.analysed == 2  # b and the output certified; a and c need places
    on_open = found(state)
    assert on_open == [(FORBIDDEN, *cat), ("meta-argument/invalid-count", *count)]

    state.prepare()  # the tree, then an edit through the incremental path
    assert state.built and found(state) == on_open
    at = MARKS["dog"]
    edit(state, at, at + 5, '"cat"')
    assert state.built
    assert found(state) == [(FORBIDDEN, *cat), (FORBIDDEN, at, at + 5), ("meta-argument/invalid-count", *count)]


def test_without_the_rule_neither_path_reports_it(tmp_path) -> None:
    state, (_, count) = opened(tmp_path)
    assert state.quick() is not None
    assert found(state) == [("meta-argument/invalid-count", *count)]
    state.prepare()
    at = MARKS["dog"]
    edit(state, at, at + 5, '"cat"')
    assert found(state) == [("meta-argument/invalid-count", *count)]


def test_a_literal_count_is_judged_on_open_and_on_edit_by_the_one_rule(tmp_path) -> None:
    state, (_, count) = opened(tmp_path)
    assert found(state) == [("meta-argument/invalid-count", *count)]
    state.prepare()
    edit(state, count[0], count[1], "2")
    assert found(state) == []
    at = MARKS["a_input"]  # before the count edited above
    edit(state, at, at, '"for_each": [], ')
    value = at + len('"for_each": ')
    assert found(state) == [("meta-argument/invalid-for-each", value, value + 2)]


def test_a_question_the_values_cannot_answer_sends_the_block_to_the_full_analysis(tmp_path) -> None:
    # A float's text is not in the values (`json.loads` rounded it): `count` 1.5 and 2.0 are judged
    # on the tree, through the small document of their block.
    ws = parse_fixture("""
    //- /main.tf.json
    {"resource": {"terraform_data": {"a": {"count": ⟨1.5⟩}, "b": {"count": 2.0}, "c": {"count": 2}}}}
    """).workspace(tmp_path)
    state = ws.workspace.get(ws.uri("/main.tf.json"))
    assert state is not None
    quick = state.quick()
    assert quick is not None and quick.analysed == 2 and quick.certified == 1
    (at,) = ws.fixture.files["/main.tf.json"].ranges
    assert found(state) == [("meta-argument/invalid-count", *at)]
    state.prepare()
    assert found(state) == [("meta-argument/invalid-count", *at)]


def test_count_with_for_each_is_one_rule_on_open_and_on_edit(tmp_path) -> None:
    ws = parse_fixture("""
    //- /main.tf.json
    {"resource": {"terraform_data": {"a": {⟨"for_each"⟩: {"k": 1}, ⟨"count"⟩: 1}, "b": {$[b_count]"count": 1}}}}
    """).workspace(tmp_path)
    state = ws.workspace.get(ws.uri("/main.tf.json"))
    assert state is not None
    first, second = ws.fixture.files["/main.tf.json"].ranges

    def conflicts() -> list[tuple[int, int, list[tuple[int, int]]]]:
        return [(d.start, d.end, [(r.start, r.end) for r in d.related]) for d in file_diagnostics(state)
                if d.code == "structure/conflicting-arguments"]

    assert state.quick() is not None and not state.built
    assert conflicts() == [(*second, [first])]
    state.prepare()
    at = ws.fixture.mark("b_count")[1]
    edit(state, at, at, '"for_each": {}, ')
    assert state.built
    b_for_each = (at, at + len('"for_each"'))
    b_count = (at + len('"for_each": {}, '), at + len('"for_each": {}, "count"'))
    assert conflicts() == [(*second, [first]), (*b_count, [b_for_each])]


def test_an_outputs_boolean_settings_are_one_rule_on_open_and_on_edit(tmp_path) -> None:
    # `output_rules.boolean_findings`: "true"/"false" strings are booleans to Terraform; a number is
    # not (nor null: test_quick_modes). The good outputs are certified from their values; the bad one is reported with
    # the decoder's message on its value, on open and after edits.
    ws = parse_fixture("""
    //- /main.tf.json
    {"output": {"a": {"value": 1, "sensitive": "true"}, "b": {"value": 2, "sensitive": $[b]"false"},
                "c": {"value": 3, "sensitive": ⟨1⟩}}}
    """).workspace(tmp_path)
    state = ws.workspace.get(ws.uri("/main.tf.json"))
    assert state is not None
    (bad,) = ws.fixture.files["/main.tf.json"].ranges
    quick = state.quick()
    assert quick is not None and quick.certified == 2 and quick.analysed == 1
    assert [(d.code, d.start, d.end, d.summary) for d in file_diagnostics(state)] == [
        ("structure/value-type", *bad, "Expected a boolean")]
    state.prepare()
    assert found(state) == [("structure/value-type", *bad)]
    edit(state, bad[0], bad[1], "false")
    assert found(state) == []
    at = ws.fixture.mark("b")[1]  # before the value edited above
    edit(state, at, at + 7, '["x"]')
    assert found(state) == [("structure/value-type", at, at + 5)]


# ---- a rule against the provider's schema (`provider_rules.SCHEMA_RULES`) ----------------------------------

NO_DOGS = "test/no-dogs"


def no_dogs(view: ValueView, block_type: str, body: object, schema: SchemaBlock, where: str) -> list[Finding]:
    """A test-only schema rule: an argument `input` of the schema must not be the string "dog"."""
    if "input" not in schema.attributes:
        return []
    v = view.member(body, "input")
    if v is ABSENT or v is NO_VALUE or view.kind(v) != STRING or view.string(v) != "dog":
        return []
    return [Finding(v, ERROR, NO_DOGS, "No dogs", f"This test's rule forbids the input \"dog\" in {where}.")]


@pytest.fixture
def extra_schema_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(provider_rules, "SCHEMA_RULES", [*provider_rules.SCHEMA_RULES, no_dogs])


def test_a_registered_schema_rule_is_reported_by_the_quick_open_and_the_edit_path(tmp_path, extra_schema_rule) -> None:
    # `terraform_data`'s schema is the built-in provider's, which every module has.
    state, (cat, count) = opened(tmp_path)
    quick = state.quick()
    assert quick is not None and not state.built
    assert quick.analysed == 2  # the rule found "dog" in b's values: b analysed (c for its count)
    dog = MARKS["dog"]
    on_open = found(state)
    assert on_open == [(NO_DOGS, dog, dog + 5), ("meta-argument/invalid-count", *count)]

    state.prepare()
    assert state.built and found(state) == on_open
    at = cat[0]
    edit(state, at, at + 5, '"dog"')
    assert found(state) == [(NO_DOGS, at, at + 5), (NO_DOGS, dog, dog + 5), ("meta-argument/invalid-count", *count)]
    edit(state, dog, dog + 5, '"emu"')
    assert found(state) == [(NO_DOGS, at, at + 5), ("meta-argument/invalid-count", *count)]


def test_without_the_schema_rule_the_values_certify_the_block(tmp_path) -> None:
    state, (_, count) = opened(tmp_path)
    quick = state.quick()
    assert quick is not None and quick.analysed == 1  # a, b and the output certified on their values
    assert found(state) == [("meta-argument/invalid-count", *count)]


def test_the_schema_rules_run_on_the_values_of_a_certified_block(tmp_path) -> None:
    # The built-in schema's rule of unknown names, on values: a misspelt argument sends b to the full
    # analysis, which places it (with its "Did you mean" fix).
    ws = parse_fixture("""
    //- /main.tf.json
    {"resource": {"terraform_data": {"a": {"input": 1}, "b": {⟨"imput"⟩: 2}}}}
    """).workspace(tmp_path)
    state = ws.workspace.get(ws.uri("/main.tf.json"))
    assert state is not None
    quick = state.quick()
    assert quick is not None and quick.certified == 1 and quick.analysed == 1
    (at,) = ws.fixture.files["/main.tf.json"].ranges
    diags = file_diagnostics(state)
    assert [(d.code, d.start, d.end) for d in diags] == [("schema/unknown-argument", *at)]
    assert [(f.start, f.end, f.new_text) for f in diags[0].fixes] == [(*at, '"input"')]
