"""The members of a resource, data source or output are read by the quick open as the decoder reads
them (`quick._certify`: names and modes from the decoder's schema) and judged by the full path's own
rules, written once: the literal-string mode (`values.has_template_sequence`,
`LITERAL_STRING_KINDS`), the boolean settings (`boolean_settings`), keywords (`validate.keywords_of`)
and static references (`templates.STATIC_REFERENCE`). Each case is certified or sent to the full
analysis as said, and reported alike on open (values) and after an edit (the tree), on a real
Workspace over a temporary directory (issue 21 §1)."""

from __future__ import annotations

import pytest
from documents import edit
from fixture import parse_fixture
from internals import file_diagnostics

from hcljson_ls.terraform.rules import validate
from hcljson_ls.workspace import DocumentState


def marked(tmp_path, text: str) -> tuple[DocumentState, list[tuple[int, int]], dict[str, int]]:
    """The document opened, its marked ranges and its named marks."""
    ws = parse_fixture("//- /main.tf.json\n" + text).workspace(tmp_path)
    state = ws.workspace.get(ws.uri("/main.tf.json"))
    assert state is not None
    f = ws.fixture.files["/main.tf.json"]
    return state, f.ranges, f.marks


def opened(tmp_path, text: str) -> tuple[DocumentState, list[tuple[int, int]]]:
    state, ranges, _ = marked(tmp_path, text)
    return state, ranges


def found(state: DocumentState) -> list[tuple[str, int, int]]:
    return [(d.code, d.start, d.end) for d in file_diagnostics(state)]


def on_open_and_on_edit(state: DocumentState, certified: int, analysed: int) -> list[tuple[str, int, int]]:
    """The diagnostics on open (asserting what the quick open certified), equal to the tree's."""
    quick = state.quick()
    assert quick is not None and not state.built
    assert (quick.certified, quick.analysed) == (certified, analysed)
    on_open = found(state)
    state.prepare()
    assert state.built and found(state) == on_open
    return on_open


def test_a_literal_string_is_judged_by_the_decoders_rule_on_values_and_on_the_tree(tmp_path) -> None:
    # A number converts to a string (certified); a template sequence is warned on its `${`, or on
    # the whole string when it is written with an escape (both analysed).
    state, (seq, escaped), marks = marked(tmp_path, r"""
    {"output": {"a": {"value": 1, "description": $[twelve]12}, "b": {"value": 2, "description": null},
                "c": {"value": 3, "description": "x ⟨${⟩y}"}, "d": {"value": 4, "description": ⟨"\u0024{y}"⟩}}}
    """)
    assert on_open_and_on_edit(state, 2, 2) == [
        ("structure/template-in-literal", *seq), ("structure/template-in-literal", *escaped)]
    at = marks["twelve"]
    edit(state, at, at + 2, '"%{ if }"')
    assert found(state)[0] == ("structure/template-in-literal", at + 1, at + 3)


def test_a_lifecycles_boolean_settings_are_one_rule_on_open_and_on_edit(tmp_path) -> None:
    state, (bad,), marks = marked(tmp_path, """
    {"resource": {"terraform_data": {
      "a": {"lifecycle": {"create_before_destroy": $[true]"true", "prevent_destroy": false, "ignore_changes": "all"}},
      "b": {"lifecycle": {"create_before_destroy": ⟨[true]⟩}}}}}
    """)
    assert on_open_and_on_edit(state, 1, 1) == [("structure/value-type", *bad)]
    at = marks["true"]
    edit(state, at, at + 6, "2")
    assert found(state) == [("structure/value-type", at, at + 1), ("structure/value-type", bad[0] - 5, bad[1] - 5)]


def test_null_in_a_boolean_setting_is_reported_as_terraform_does_on_open_and_on_edit(tmp_path) -> None:
    # Terraform 1.11.4 `validate`: "Unsuitable value type" / "null value is not allowed" on the value,
    # for every one of these arguments (checked on each; the places below are its line and column).
    state, ranges, marks = marked(tmp_path, """
    {"output": {"a": {"value": 1, "sensitive": ⟨null⟩, "ephemeral": ⟨null⟩}},
     "variable": {"v": {"sensitive": ⟨null⟩, "nullable": ⟨null⟩, "ephemeral": ⟨null⟩}},
     "resource": {"terraform_data": {"x": {"lifecycle": {"create_before_destroy": ⟨null⟩, "prevent_destroy": $[keep]true}}}},
     "removed": {"from": "terraform_data.gone", "lifecycle": {"destroy": ⟨null⟩}}}
    """)
    on_open = found(state)
    assert on_open == [("structure/value-type", *r) for r in ranges]
    assert all(d.summary == "Unsuitable value type" and "cannot be null" in d.detail for d in file_diagnostics(state))
    state.prepare()
    assert found(state) == on_open
    at = marks["keep"]
    edit(state, at, at + 4, "null")
    assert ("structure/value-type", at, at + 4) in found(state)


def test_an_expression_in_prevent_destroy_is_left_to_the_full_analysis(tmp_path) -> None:
    # No finding of the boolean rule, but `view.tree_only`: its references and its language site
    # are read on the tree.
    state, _ = opened(tmp_path, """
    {"variable": {"keep": {"default": true}},
     "resource": {"terraform_data": {"a": {"lifecycle": {"prevent_destroy": "${var.keep}"}},
                                     "b": {"lifecycle": {"prevent_destroy": "${var.nope}"}}}}}
    """)
    got = on_open_and_on_edit(state, 0, 3)
    assert "reference/undeclared" in {code for code, _, _ in got}


def test_references_and_keywords_of_the_other_modes_are_the_full_paths(tmp_path) -> None:
    state, (kw, wildcard, undeclared) = opened(tmp_path, """
    {"resource": {"terraform_data": {
      "a": {"count": 2, "provider": "terraform", "depends_on": ["terraform_data.b"]},
      "b": {"depends_on": ["terraform_data.a[0]"], "lifecycle": {"ignore_changes": ["input", "input.x[0]"]}},
      "c": {"lifecycle": {"ignore_changes": ⟨"alll"⟩}},
      "d": {"lifecycle": {"ignore_changes": ["⟨*⟩"]}},
      "e": {"depends_on": ["terraform_data.a[0]", "⟨var.nope⟩"]}}}}
    """)
    got = on_open_and_on_edit(state, 2, 3)
    assert got == [("structure/invalid-keyword", *kw), ("reference/ignore-changes-wildcard", *wildcard),
                   ("reference/undeclared", *undeclared)]


def test_a_keyword_added_to_the_rule_is_accepted_by_both_paths(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(validate._KEYWORDS, ("lifecycle", "ignore_changes"), ("all", "none"))
    state, _ = opened(tmp_path, """
    {"resource": {"terraform_data": {"a": {"lifecycle": {"ignore_changes": "none"}}}}}
    """)
    assert on_open_and_on_edit(state, 1, 0) == []


def test_an_empty_array_as_a_resources_provider_is_left_to_the_full_analysis(tmp_path) -> None:
    # `provider` is read as an expression when it is not a string: `[]` is one, which Terraform
    # 1.11.4 rejects ("Invalid provider configuration reference", at the value). The quick open
    # certified it (no element to judge) and showed nothing until the build; found by the quick
    # property test in session 11.
    state, (value,) = opened(tmp_path, """
    {"resource": {"terraform_data": {"a": {"provider": ⟨[]⟩}, "b": {"input": 1}}}}
    """)
    assert on_open_and_on_edit(state, 1, 1) == [("structure/value-type", *value)]
