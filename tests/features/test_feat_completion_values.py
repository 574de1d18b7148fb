"""Completion of values a core argument takes from a fixed set: the keywords of a keyword argument
inside its string (`when`, `on_failure`), and `true`/`false` for a bool argument, where the value
goes or in place of the one written. Real files in a real `Workspace`; `$0` is the cursor."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.features.completion import complete

PROVISIONER = '{"resource": {"terraform_data": {"a": {"provisioner": {"local-exec": {"command": "x", %s}}}}}}'


@pytest.mark.parametrize(("body", "expected"), [
    ('"when": "⟨$0⟩"', ["create", "destroy"]),
    ('"when": "⟨de$0⟩"', ["destroy"]),
    ('"on_failure": "⟨$0⟩"', ["continue", "fail"]),
])
def test_keywords_inside_the_string_of_a_keyword_argument(tmp_path, body, expected):
    fw = parse_fixture("//- /m/main.tf.json\n" + PROVISIONER % body).workspace(tmp_path)
    uri, offset = fw.cursor
    items = complete(fw.snapshot(), uri, offset)
    assert [i.label for i in items] == expected
    [content] = fw.fixture.files["/m/main.tf.json"].ranges  # the string's content
    assert all((i.start, i.end) == content for i in items)


@pytest.mark.parametrize("doc", [
    '{"resource": {"terraform_data": {"a": {"lifecycle": {"create_before_destroy": $0}}}}}',
    '{"variable": {"v": {"sensitive": $0}}}',
    '{"output": {"o": {"value": 1, "ephemeral": $0}}}',
])
def test_true_and_false_where_a_bool_argument_goes(tmp_path, doc):
    fw = parse_fixture("//- /m/main.tf.json\n" + doc).workspace(tmp_path)
    uri, offset = fw.cursor
    assert [(i.label, i.start, i.end) for i in complete(fw.snapshot(), uri, offset)] == [
        ("true", offset, offset), ("false", offset, offset)]


def test_a_written_bool_is_replaced_whole_and_strings_of_bools_get_nothing(tmp_path):
    fw = parse_fixture('//- /m/main.tf.json\n{"variable": {"v": {"nullable": ⟨fa$0lse⟩}}}').workspace(tmp_path)
    uri, offset = fw.cursor
    [written] = fw.fixture.files["/m/main.tf.json"].ranges
    assert [(i.label, i.start, i.end) for i in complete(fw.snapshot(), uri, offset)] == [
        ("true", *written), ("false", *written)]
    fw = parse_fixture('//- /m/main.tf.json\n{"variable": {"v": {"nullable": "$0"}}}').workspace(tmp_path / "b")
    assert [i.label for i in complete(fw.snapshot(), *fw.cursor)] == []


def test_a_bool_argument_key_completes_with_its_default_as_placeholder(tmp_path):
    fw = parse_fixture('//- /m/main.tf.json\n{"variable": {"v": {$0}}}').workspace(tmp_path)
    by_label = {i.label: i for i in complete(fw.snapshot(), *fw.cursor)}
    assert by_label["sensitive"].insert_text == '"sensitive": ${1:false}'
    assert by_label["nullable"].insert_text == '"nullable": ${1:true}'
