"""An import block's `to` checked against its target's `count` / `for_each`, as `terraform validate`
checks it (internal/terraform `validateImportTargetExpansion`; Terraform 1.11.4's verdicts of the same
cases: tests/conformance, `instance-keys/import-*`): one fixture each, object and array form, and the
target declared in another file of a real `Workspace`, its repetition changing on disk.

The range is the address inside the quotes, where the text is (Terraform's starts at the quote:
docs/conformance.md, "same range")."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.workspace import CHANGED
from hcljson_ls.workspace.files import uri_of_path

KEY = "reference/import-instance-key"


def found(tmp_path, src: str) -> tuple[list[tuple[str, int, int]], list[tuple[int, int]]]:
    fw = parse_fixture("//- /app/main.tf.json\n" + src).workspace(tmp_path, open=["/app/main.tf.json"])
    uri = fw.uri("/app/main.tf.json")
    got = [(d.code, d.start, d.end) for d in collect(fw.snapshot(), uri)]
    return got, fw.fixture.files["/app/main.tf.json"].ranges


@pytest.mark.parametrize(("to", "target", "wrong"), [
    ('terraform_data.r[\\"a\\"]', '{"count": 1}', True),
    ('terraform_data.r[\\"a\\"]', "{}", True),
    ('terraform_data.r[\\"a\\"]', '{"for_each": {"a": 1}}', False),
    ("terraform_data.r[0]", '{"for_each": {"a": 1}}', True),
    ("terraform_data.r[0]", "{}", True),
    ("terraform_data.r[0]", '{"count": 1}', False),
    ("terraform_data.r", '{"count": 1}', True),
    ("terraform_data.r", '{"for_each": {"a": 1}}', True),
    ("terraform_data.r", "{}", False),
])
def test_the_instance_key_must_fit_the_targets_repetition(tmp_path, to, target, wrong):
    marked = f"⟨{to}⟩" if wrong else to
    for form in (f'{{"import": {{"to": "{marked}", "id": "x"}}, "resource": {{"terraform_data": {{"r": {target}}}}}}}',
                 f'{{"import": [{{"to": "{marked}", "id": "x"}}], "resource": {{"terraform_data": {{"r": [{target}]}}}}}}'):
        got, ranges = found(tmp_path / str(len(form)), form)
        assert got == [(KEY, *r) for r in ranges], form


def test_an_import_with_its_own_for_each_or_a_module_address_is_not_judged_here(tmp_path):
    got, _ = found(tmp_path / "a", '{"import": {"for_each": {"a": "x"}, "to": "terraform_data.r[each.key]", "id": "${each.value}"},'
                                   ' "resource": {"terraform_data": {"r": {"count": 1}}}}')
    assert [c for c in got if c[0] == KEY] == []
    got, _ = found(tmp_path / "b", '{"import": {"to": "module.m[\\"a\\"].terraform_data.r", "id": "x"},'
                                   ' "module": {"m": {"source": "./c"}}}')
    assert [c for c in got if c[0] == KEY] == []


def test_the_target_in_another_file_changing_its_repetition(tmp_path):
    fw = parse_fixture("""
//- /app/imports.tf.json
{"import": {"to": "⟨terraform_data.r[0]⟩", "id": "x"}}
//- /app/main.tf.json
{"resource": {"terraform_data": {"r": {"count": 2}}}}
""").workspace(tmp_path, open=["/app/imports.tf.json"])
    uri = fw.uri("/app/imports.tf.json")
    [marked] = fw.fixture.files["/app/imports.tf.json"].ranges
    main = tmp_path / "app" / "main.tf.json"
    for text, expected in [
        ('{"resource": {"terraform_data": {"r": {"count": 2}}}}', []),
        ('{"resource": {"terraform_data": {"r": {}}}}', [(KEY, *marked)]),
        ('{"resource": {"terraform_data": {"r": {"for_each": {"a": 1}}}}}', [(KEY, *marked)]),
        ('{"resource": {"terraform_data": {"r": {"count": 1}}}}', []),
    ]:
        main.write_text(text)
        fw.workspace.file_changed(uri_of_path(str(main)), CHANGED)
        assert [(d.code, d.start, d.end) for d in collect(fw.snapshot(), uri)] == expected, text
