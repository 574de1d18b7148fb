"""Completion of a resource or data source type where its block is not written yet inserts the whole
block: `"<type>": {"<name>": {<required arguments and required nested blocks>}}`, each value a
placeholder of its type (a tab stop with snippets); `completion.prefillRequired` off, or a colon
already after the label, inserts the type alone. Real files in a real `Workspace` with the real
provider schemas of the shared data (random, AWS 4.13, the built-in `terraform` provider);
`$0` is the cursor, `⟨⟩` the range an item replaces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shared_data
from fixture import parse_fixture

from hcljson_ls.features.completion import CompletionItem, complete
from hcljson_ls.features.diagnostics import collect

SCHEMA_FILES = [str(shared_data.AWS_SCHEMA), str(shared_data.RANDOM_SCHEMA), str(shared_data.TOFU_TEST_SCHEMA)]
shared_data.require(*map(Path, SCHEMA_FILES))


def completed(root: Path, src: str, snippets: bool = True, prefill: bool = True):
    fw = parse_fixture("//- /m/main.tf.json\n" + src).workspace(root)
    fw.workspace.set_schema_files(SCHEMA_FILES)
    uri, offset = fw.cursor
    return fw, complete(fw.snapshot(), uri, offset, snippets, prefill)


def applied(text: str, item: CompletionItem) -> str:
    assert not item.snippet
    return text[: item.start] + item.insert_text + text[item.end :]


def by_label(items: list[CompletionItem]) -> dict[str, CompletionItem]:
    return {i.label: i for i in items}


def test_a_resource_type_inserts_its_block_with_the_required_arguments_as_tab_stops(tmp_path: Path) -> None:
    fw, items = completed(tmp_path, '{"resource": {⟨"random_s$0"⟩}}')
    item = by_label(items)["random_string"]
    assert (item.start, item.end) == fw.fixture.cursor_file.ranges[0]  # the whole key string
    assert item.filter == '"random_string"' and item.snippet
    assert item.insert_text == '"random_string": {"${1:name}": {"length": ${2:0}}}'
    assert by_label(items)["random_shuffle"].insert_text == '"random_shuffle": {"${1:name}": {"input": [$2]}}'


def test_strings_get_empty_tab_stops_in_order(tmp_path: Path) -> None:
    _, items = completed(tmp_path, '{"resource": {"aws_ami_cop$0"}}')
    assert [i.insert_text for i in items] == [
        '"aws_ami_copy": {"${1:name}": {"name": "$2", "source_ami_id": "$3", "source_ami_region": "$4"}}']


def test_required_nested_blocks_are_written_with_their_own_required_arguments(tmp_path: Path) -> None:
    fw, items = completed(tmp_path, '{"resource": {"aws_alb_listener_r$0"}}', snippets=False)
    [item] = items
    doc = json.loads(applied(fw.fixture.cursor_file.text, item))
    assert doc == {"resource": {"aws_alb_listener_rule": {"name": {
        "listener_arn": "", "action": {"type": ""}, "condition": {}}}}}


def test_a_block_required_more_than_once_is_an_array_of_that_many(tmp_path: Path) -> None:
    fw, items = completed(tmp_path, '{"resource": {"aws_codepipelin$0"}}', snippets=False)
    item = by_label(items)["aws_codepipeline"]
    body = json.loads(applied(fw.fixture.cursor_file.text, item))["resource"]["aws_codepipeline"]["name"]
    action = {"category": "", "name": "", "owner": "", "provider": "", "version": ""}
    assert body["stage"] == [{"name": "", "action": action}] * 2  # min_items 2


def test_a_data_source_inserts_a_data_block(tmp_path: Path) -> None:
    fw, items = completed(tmp_path, '{"data": {"aws_ami_i$0"}}', snippets=False)
    assert [json.loads(applied(fw.fixture.cursor_file.text, i)) for i in items] == [
        {"data": {"aws_ami_ids": {"name": {"owners": []}}}}]


def test_the_builtin_provider_and_declared_types_too(tmp_path: Path) -> None:
    src = '{"resource": {"random_id": {"a": {"byte_length": 4}}}, "data": {"terraform_remote_state": {}, "terraform_r$0"}}'
    fw, items = completed(tmp_path, src, snippets=False)
    assert [i.insert_text for i in items] == ['"terraform_remote_state": {"name": {"backend": ""}}']
    fw, items = completed(tmp_path / "declared", '{"resource": {"random_id": {"a": {"byte_length": 4}}, "random_i$0"}}')
    assert by_label(items)["random_id"].insert_text == '"random_id": {"${1:name}": {"byte_length": ${2:0}}}'
    assert by_label(items)["random_integer"].insert_text == '"random_integer": {"${1:name}": {"max": ${2:0}, "min": ${3:0}}}'


@pytest.mark.parametrize(("src", "expected"), [
    ('{"resource": {"random_str$0", "terraform_data": {"x": {}}}}',
     {"random_string": {"name": {"length": 0}}, "terraform_data": {"x": {}}}),
    ('{"resource": {"random_str$0"\n "terraform_data": {"x": {}}}}',  # a member follows: a comma is added
     {"random_string": {"name": {"length": 0}}, "terraform_data": {"x": {}}}),
    ('{"resource": {"random_str$0', None),  # unterminated: the rest is still to be written
], ids=["comma-written", "comma-missing", "unterminated"])
def test_the_inserted_block_is_valid_json_where_it_goes(tmp_path: Path, src: str, expected) -> None:
    fw, items = completed(tmp_path, src, snippets=False)
    [item] = items
    text = applied(fw.fixture.cursor_file.text, item)
    if expected is None:
        assert text == '{"resource": {"random_string": {"name": {"length": 0}}'
    else:
        assert json.loads(text) == {"resource": expected}


@pytest.mark.parametrize(("src", "prefill"), [
    ('{"resource": {⟨"random_str$0⟩": {}}}', True),  # a colon follows: the block is there already
    ('{"resource": {"⟨random_str$0⟩"}}', False),  # completion.prefillRequired off
])
def test_the_type_alone_when_a_block_follows_or_the_setting_is_off(tmp_path: Path, src: str, prefill: bool) -> None:
    fw, items = completed(tmp_path, src, prefill=prefill)
    [item] = items
    start, end = fw.fixture.cursor_file.ranges[0]
    if prefill:
        start += 1  # (the marked range shows the key; the type alone replaces the typed text)
    assert (item.insert_text, item.snippet, item.start, item.end) == ("random_string", False, start, end)


def test_every_loaded_type_skeleton_satisfies_the_full_analysis(tmp_path: Path) -> None:
    """All the resource types of AWS, random and the OpenTofu test provider, each block as the item
    writes it: the document parses and the full analysis misses no required argument or block."""
    for block in ("resource", "data"):
        fw, items = completed(tmp_path / block, f'{{"{block}": {{"$0"}}}}', snippets=False)
        assert len(items) > (900 if block == "resource" else 300)
        inserts = [i.insert_text for i in items]
        root = tmp_path / (block + "-all")
        doc = f'{{"{block}": {{{", ".join(inserts)}}}}}'
        json.loads(doc)
        written = parse_fixture("//- /m/main.tf.json\n" + doc).workspace(root)
        written.workspace.set_schema_files(SCHEMA_FILES)
        codes = [(d.code, d.message) for d in collect(written.snapshot(), written.uri("/m/main.tf.json"))]
        missing = [c for c in codes if c[0] in ("schema/missing-argument", "schema/too-few-blocks")]
        assert not missing, missing[:5]
