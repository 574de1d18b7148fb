"""Completion in `terraform.required_providers` (issue 20 §6, "`required_providers` entries are
offered too"): as an entry's key, the local names the module uses (resource, data and ephemeral
type prefixes, `provider` blocks) and does not require yet, written with a `source` and a `version`
tab stop; inside an entry, `source`, `version` and `configuration_aliases`. Real files in a real
`Workspace`; `$0` is the cursor."""

from __future__ import annotations

import json

import pytest
from fixture import parse_fixture

from hcljson_ls.features.completion import complete

USES = ', "resource": {"aws_instance": {"a": {}}, "github_repository": {"r": {}}}, "data": {"terraform_remote_state": {"s": {}}}, "provider": {"google": {}}}'


def _items(tmp_path, doc: str, snippets: bool = True, schema: dict | None = None):
    fw = parse_fixture("//- /m/main.tf.json\n" + doc).workspace(tmp_path)
    if schema is not None:
        path = tmp_path / "schema.json"
        path.write_text(json.dumps(schema), encoding="utf-8")
        fw.workspace.set_schema_files([str(path)])
    return complete(fw.snapshot(), *fw.cursor, snippets=snippets)


def test_the_providers_the_module_uses_are_offered_with_their_source(tmp_path):
    items = _items(tmp_path, '{"terraform": {"required_providers": {$0}}' + USES)
    assert [(i.label, i.insert_text, i.detail) for i in items] == [
        ("aws", '"aws": {"source": "hashicorp/aws", "version": "$1"}', "provider hashicorp/aws"),
        ("github", '"github": {"source": "hashicorp/github", "version": "$1"}', "provider hashicorp/github"),
        ("google", '"google": {"source": "hashicorp/google", "version": "$1"}', "provider hashicorp/google"),
    ]  # not `terraform`: the built-in provider needs no requirement


def test_a_loaded_provider_gives_its_real_source(tmp_path):
    schema = {"format_version": "1.0", "provider_schemas": {"registry.terraform.io/integrations/github": {
        "provider": {"version": 0, "block": {}},
        "resource_schemas": {"github_repository": {"version": 0, "block": {}}}}}}
    items = _items(tmp_path, '{"terraform": {"required_providers": {"gi$0"}}' + USES, snippets=False, schema=schema)
    assert [(i.label, i.insert_text) for i in items] == [("github", '"github": {"source": "integrations/github", "version": ""}')]


@pytest.mark.parametrize("doc, expected", [
    ('{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}, $0}}' + USES, ["github", "google"]),
    ('{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}, "go$0"}}' + USES, ["google"]),
    ('{"terraform": {"required_providers": {"aws": {$0}}}}', ["source", "version", "configuration_aliases"]),
    ('{"terraform": {"required_providers": {"aws": {"source": "x", "v$0"}}}}', ["version"]),
    ('{"terraform": {"required_providers": {"aws": {"source": "$0"}}}}', []),  # a value: nothing guessed
])
def test_what_is_written_is_not_offered_again(tmp_path, doc, expected):
    assert [i.label for i in _items(tmp_path, doc)] == expected


def test_an_entry_key_inserts_valid_json_without_snippets(tmp_path):
    doc = '{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"} $0}}' + USES
    items = _items(tmp_path, doc, snippets=False)
    marked = parse_fixture(doc).only
    text, at = marked.text, marked.cursor
    google = next(i for i in items if i.label == "google")
    done = json.loads(text[:at] + google.insert_text + text[at:])
    assert done["terraform"]["required_providers"]["google"] == {"source": "hashicorp/google", "version": ""}
