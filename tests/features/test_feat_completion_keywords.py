"""Completion of `action_trigger.events` (the events the module's Terraform version takes:
`language.ACTION_TRIGGER_EVENTS`, from internal/configs/action.go of each release) and of a
`provisioner` block's type label (the built-in provisioners, written with their required arguments
unless `prefill_required` is off). Real files in a real `Workspace`; `$0` is the cursor, `⟨⟩` the
range items replace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls.features.completion import CompletionItem, complete

TRIGGER = '{"resource": {"terraform_data": {"a": {"lifecycle": {"action_trigger": {"events": [%s], "actions": []}}}}}}'


def completed(root: Path, src: str, version: str | None = None, engine: str = "auto", prefill: bool = True):
    fw = parse_fixture("//- /m/main.tf.json\n" + src).workspace(root, engine=engine)
    fw.workspace.set_engine_version(version)
    items = complete(fw.snapshot(), *fw.cursor, prefill_required=prefill)
    return fw.fixture.cursor_file, items


def labels(items: list[CompletionItem]) -> list[str]:
    return [i.label for i in items]


@pytest.mark.parametrize(("version", "expected"), [
    ("1.14", ["before_create", "after_create", "before_update", "after_update"]),
    ("1.15", ["before_create", "after_create", "before_update", "after_update"]),
    ("1.16.0-rc2", ["before_create", "after_create", "before_update", "after_update", "before_destroy", "after_destroy"]),
])
def test_the_events_of_the_version(tmp_path: Path, version: str, expected: list[str]) -> None:
    file, items = completed(tmp_path, TRIGGER % '"⟨$0⟩"', version)
    assert labels(items) == expected
    assert {(i.start, i.end, i.kind) for i in items} == {(*file.ranges[0], "EnumMember")}


def test_events_by_prefix_without_those_listed_replacing_the_whole_string(tmp_path: Path) -> None:
    file, items = completed(tmp_path, TRIGGER % '"after_create", "⟨af$0ter_c⟩"', "1.16.0-rc2")
    assert labels(items) == ["after_update", "after_destroy"]
    assert all((i.start, i.end) == file.ranges[0] for i in items)


def test_no_events_where_actions_do_not_exist(tmp_path: Path) -> None:
    _, items = completed(tmp_path, TRIGGER % '"$0"', "1.11")
    assert items == []
    _, items = completed(tmp_path / "tofu", TRIGGER % '"$0"', engine="opentofu")
    assert items == []


@pytest.mark.parametrize("src", [
    '{"resource": {"terraform_data": {"a": {"provisioner": {⟨"$0"⟩}}}}}',
    '{"resource": {"terraform_data": {"a": {"provisioner": [{"local-exec": {"command": "x"}}, {⟨"$0"⟩}]}}}}',
    '{"removed": {"from": "terraform_data.a", "provisioner": {⟨"$0"⟩}}}',
])
def test_a_provisioner_type_is_a_builtin_one_written_with_its_required_arguments(tmp_path: Path, src: str) -> None:
    file, items = completed(tmp_path, src)
    assert labels(items) == ["file", "local-exec", "remote-exec"]
    assert all((i.start, i.end) == file.ranges[0] for i in items)
    by = {i.label: i for i in items}
    assert by["local-exec"].insert_text == '"local-exec": {"command": "$1"}' and by["local-exec"].snippet
    assert by["remote-exec"].insert_text == '"remote-exec": {}' and not by["remote-exec"].snippet
    text = file.text
    for item in items:  # the document stays valid JSON
        written = item.insert_text.replace("$1", "")
        json.loads(text[: item.start] + written + text[item.end :])


def test_a_provisioner_type_alone_when_its_body_follows_or_prefill_is_off(tmp_path: Path) -> None:
    file, items = completed(tmp_path, '{"resource": {"terraform_data": {"a": {"provisioner": {"⟨lo$0⟩": {}}}}}}')
    assert [(i.label, i.insert_text, (i.start, i.end)) for i in items] == [("local-exec", "local-exec", file.ranges[0])]
    file, items = completed(tmp_path / "off", '{"resource": {"terraform_data": {"a": {"provisioner": {"⟨$0⟩"}}}}}', prefill=False)
    assert [i.insert_text for i in items] == ["file", "local-exec", "remote-exec"]
