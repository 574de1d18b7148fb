"""Completion inside a managed resource's `lifecycle.ignore_changes` and `lifecycle.replace_triggered_by`:
the resource's own arguments (its provider schema's, computed-only ones left out; else those its body
writes) and `"all"` where it is the whole value; managed resources and their attributes for
`replace_triggered_by`. What Terraform 1.11.4 accepts was checked with `terraform validate` (noted at
each case). Real files in a real `Workspace`; `$0` is the cursor, `⟨⟩` the range items replace."""

from __future__ import annotations

from pathlib import Path

import pytest
import shared_data
from fixture import parse_fixture

from hcljson_ls.features.completion import complete

RANDOM = str(shared_data.RANDOM_SCHEMA)
shared_data.require(Path(RANDOM))


def completed(root: Path, src: str, schemas: bool = True):
    fw = parse_fixture("//- /m/main.tf.json\n" + src).workspace(root)
    if schemas:
        fw.workspace.set_schema_files([RANDOM])
    items = complete(fw.snapshot(), *fw.cursor)
    ranges = fw.fixture.cursor_file.ranges
    assert all((i.start, i.end) == ranges[0] for i in items)
    return [i.label for i in items]


def test_ignore_changes_offers_the_arguments_of_the_provider_schema(tmp_path: Path) -> None:
    src = '{"resource": {"random_string": {"r": {"length": 8, "lifecycle": {"ignore_changes": ["length", "⟨$0⟩"]}}}}}'
    labels = completed(tmp_path, src)
    assert "length" not in labels  # listed already
    assert {"special", "upper", "keepers", "override_special"} <= set(labels)
    assert "result" not in labels and "id" not in labels  # computed only: "redundant" for Terraform
    assert completed(tmp_path / "p", src.replace("⟨$0⟩", "⟨up$0⟩")) == ["upper"]


def test_ignore_changes_of_terraform_data_uses_its_builtin_schema(tmp_path: Path) -> None:
    # terraform validate: ["input", "triggers_replace"] valid; ["all"] "Unsupported attribute".
    src = '{"resource": {"terraform_data": {"t": {"lifecycle": {"ignore_changes": ["⟨$0⟩"]}}}}}'
    assert sorted(completed(tmp_path, src, schemas=False)) == ["input", "triggers_replace"]


def test_without_a_schema_the_arguments_the_body_writes(tmp_path: Path) -> None:
    src = ('{"resource": {"acme_server": {"s": {"size": 1, "count": 2, "dynamic": {"disk": {"content": {}}},'
           ' "lifecycle": {"ignore_changes": ["⟨$0⟩"]}}}}}')
    assert completed(tmp_path, src, schemas=False) == ["size", "disk"]  # not the meta-argument count


def test_all_is_the_keyword_of_the_whole_value(tmp_path: Path) -> None:
    # terraform validate: "ignore_changes": "all" valid.
    src = '{"resource": {"random_string": {"r": {"length": 8, "lifecycle": {"ignore_changes": "⟨$0⟩"}}}}}'
    assert completed(tmp_path, src) == ["all"]
    assert completed(tmp_path / "a", src.replace("⟨$0⟩", "⟨a$0⟩")) == ["all"]


REPLACE = ('{"resource": {"terraform_data": {"t": {"input": 1}, "u": {}}, "random_string": {"r": {"length": 8, '
           '"lifecycle": {"replace_triggered_by": ["%s"]}}}}, "data": {"terraform_remote_state": {"s": {"backend": "local"}}}}')


@pytest.mark.parametrize(("typed", "expected"), [
    # terraform validate: ["terraform_data.t.output", "terraform_data.t"] valid.
    ("⟨$0⟩", ["random_string", "terraform_data"]),  # managed resources only: no data., module.
    ("terraform_data.⟨$0⟩", ["t", "u"]),
    ("random_string.⟨$0⟩", []),  # not the resource itself
    ("terraform_data.t.⟨out$0⟩", ["output"]),
])
def test_replace_triggered_by_offers_managed_resources_and_their_attributes(tmp_path: Path, typed: str, expected) -> None:
    assert sorted(completed(tmp_path, REPLACE % typed)) == expected


def test_a_data_resource_lifecycle_gets_nothing_of_this(tmp_path: Path) -> None:
    src = '{"data": {"terraform_remote_state": {"s": {"lifecycle": {"ignore_changes": ["⟨$0⟩"]}}}}}'
    assert completed(tmp_path, src) == []
