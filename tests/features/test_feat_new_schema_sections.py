"""The provider schema sections Terraform added after 1.8 (issue 20, part 4), through a real
`Workspace` with the hand-written schema `tests/data/provider-schemas/new-sections.handwritten.schemas.json`
(provider `hashicorp/example`; SOURCES.md says where its shape comes from): an `ephemeral` body checked
like a data source's, an `action`'s `config` body, an `import` block's `identity` against the
resource's identity schema; completion and hover of them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture import parse_fixture

from hcljson_ls.features.completion import complete
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.features.hover import hover

SCHEMA = str(Path(__file__).resolve().parents[1] / "data" / "provider-schemas" / "new-sections.handwritten.schemas.json")
MAIN = "/m/main.tf.json"


def _fw(tmp_path, doc: str):
    fw = parse_fixture(f"//- {MAIN}\n" + doc).workspace(tmp_path)
    fw.workspace.set_schema_files([SCHEMA])
    return fw


def _problems(tmp_path, doc: str) -> list[tuple[str, str, str]]:
    fw = _fw(tmp_path, doc)
    text = fw.fixture.files[MAIN].text
    return [(d.code, d.message, text[d.start:d.end]) for d in collect(fw.snapshot(), fw.uri(MAIN)) if d.code.startswith("schema/")]


def test_an_ephemeral_body_is_checked_against_its_schema(tmp_path):
    got = _problems(tmp_path, '{"ephemeral": {"example_token": {"t": {"audiense": "x", "value": "y"}}}}')
    codes = sorted(c for c, _, _ in got)
    assert codes == ["schema/computed-only", "schema/missing-argument", "schema/unknown-argument"], got
    unknown = next(g for g in got if g[0] == "schema/unknown-argument")
    assert unknown[2] == '"audiense"' and 'Did you mean "audience"?' in unknown[1]


def test_a_valid_ephemeral_body_has_no_schema_problem(tmp_path):
    assert _problems(tmp_path, '{"ephemeral": {"example_token": {"t": {"audience": "x", "ttl": 60, "scope": [{"name": "a"}]}}}}') == []


def test_an_unknown_ephemeral_type_is_still_reported(tmp_path):
    got = _problems(tmp_path, '{"ephemeral": {"example_tokn": {"t": {}}}}')
    assert [(c, t) for c, _, t in got] == [("schema/unknown-resource-type", '"example_tokn"')]


def test_an_action_config_is_checked(tmp_path):
    got = _problems(tmp_path, '{"action": {"example_restart": {"r": {"config": {"server_id": "a", "forse": true}}}}}')
    assert [(c, t) for c, _, t in got] == [("schema/unknown-argument", '"forse"')]
    got = _problems(tmp_path / "b", '{"action": {"example_restart": {"r": {"config": {"force": "yes"}}}}}')
    assert sorted(c for c, _, _ in got) == ["schema/missing-argument", "schema/wrong-kind"]


def test_an_action_without_config_names_the_required_argument(tmp_path):
    got = _problems(tmp_path, '{"action": {"example_restart": {"r": {}}}}')
    assert [(c, t) for c, _, t in got] == [("schema/missing-argument", '"example_restart"')]
    assert '"server_id"' in got[0][1]


def test_an_unknown_action_type(tmp_path):
    got = _problems(tmp_path, '{"action": {"example_restrt": {"r": {}}}}')
    assert [(c, t) for c, _, t in got] == [("schema/unknown-resource-type", '"example_restrt"')]
    assert 'Did you mean "example_restart"?' in got[0][1]


def test_an_import_identity_is_checked_against_the_identity_schema(tmp_path):
    base = '{"resource": {"example_server": {"s": {"name": "a"}}}, "import": [{"to": "example_server.s", "identity": %s}]}'
    assert _problems(tmp_path, base % '{"id": "i-1", "region": "eu"}') == []
    got = _problems(tmp_path / "b", base % '{"regoin": "eu"}')
    assert sorted((c, t) for c, _, t in got) == [("schema/missing-argument", "{"), ("schema/unknown-argument", '"regoin"')]


@pytest.mark.parametrize("doc, expected", [
    ('{"ephemeral": {"example_token": {"t": {$0}}}}', ["audience", "ttl", "scope"]),
    ('{"action": {"example_restart": {"r": {"config": {$0}}}}}', ["server_id", "force"]),
])
def test_completion_of_the_new_bodies(tmp_path, doc, expected):
    fw = _fw(tmp_path, doc)
    labels = [i.label for i in complete(fw.snapshot(), *fw.cursor)]
    assert labels[: len(expected)] == expected, labels


@pytest.mark.parametrize("doc, expected", [
    ('{"ephemeral": {"exa": {}}}', ("ephemeral", "example_token")),
    ('{"action": {"exa": {}}}', ("action", "example_restart")),
])
def test_ephemeral_and_action_type_labels_are_completed(tmp_path, doc, expected):
    text = doc.replace('"exa"', '"exa$0"')
    fw = _fw(tmp_path, text)
    got = [(i.label, i.detail) for i in complete(fw.snapshot(), *fw.cursor)]
    assert got == [(expected[1], "registry.terraform.io/hashicorp/example")]


@pytest.mark.parametrize("doc, inserted", [
    ('{"ephemeral": {"example_to$0"}}', '"example_token": {"name": {"audience": ""}}'),
    ('{"action": {"example_re$0"}}', '"example_restart": {"name": {"config": {"server_id": ""}}}'),
])
def test_ephemeral_and_action_types_complete_to_their_whole_block(tmp_path, doc, inserted):
    fw = _fw(tmp_path, doc)
    (item,) = complete(fw.snapshot(), *fw.cursor, snippets=False)
    assert item.insert_text == inserted


def test_hover_on_an_ephemeral_argument(tmp_path):
    fw = _fw(tmp_path, '{"ephemeral": {"example_token": {"t": {"aud$0ience": "x"}}}}')
    found = hover(fw.snapshot(), *fw.cursor)
    assert found is not None and "Who the token is for." in found.markdown


@pytest.mark.parametrize("doc, what", [
    ('{"ephemeral": {"example_t$0oken": {"t": {}}}}', "An ephemeral resource type of the provider"),
    ('{"action": {"example_re$0start": {"r": {}}}}', "An action type of the provider"),
])
def test_hover_on_the_type_label(tmp_path, doc, what):
    fw = _fw(tmp_path, doc)
    found = hover(fw.snapshot(), *fw.cursor)
    assert found is not None and what in found.markdown, found


def test_the_action_body_offers_config_once(tmp_path):
    fw = _fw(tmp_path, '{"action": {"example_restart": {"r": {$0}}}}')
    labels = [i.label for i in complete(fw.snapshot(), *fw.cursor)]
    assert labels.count("config") == 1, labels


def test_ephemeral_reference_attributes_are_completed_from_the_schema(tmp_path):
    fw = _fw(tmp_path, '{"ephemeral": {"example_token": {"t": {"audience": "x"}}}, '
                       '"provider": {"example": {"token": "${ephemeral.example_token.t.$0}"}}}')
    items = complete(fw.snapshot(), *fw.cursor)
    assert {i.label: i.detail for i in items} == {"audience": "string", "ttl": "number", "value": "string", "scope": "nested block (list)"}


@pytest.mark.parametrize("typed, expected", [("action.", ["example_restart"]), ("action.example_restart.", ["r"])])
def test_action_references_in_action_trigger_are_completed(tmp_path, typed, expected):
    doc = ('{"action": {"example_restart": {"r": {"config": {"server_id": "a"}}}}, "resource": {"example_server": {"s": '
           '{"name": "a", "lifecycle": {"action_trigger": {"events": ["after_create"], "actions": ["%s$0"]}}}}}}' % typed)
    fw = _fw(tmp_path, doc)
    assert [i.label for i in complete(fw.snapshot(), *fw.cursor)] == expected


def _query_problems(tmp_path, doc: str) -> list[tuple[str, str]]:
    fw = parse_fixture("//- /m/main.tf.json\n{}\n//- /m/find.tfquery.json\n" + doc).workspace(tmp_path, open=["/m/find.tfquery.json"])
    fw.workspace.set_schema_files([SCHEMA])
    text = fw.fixture.files["/m/find.tfquery.json"].text
    return [(d.code, text[d.start:d.end]) for d in collect(fw.snapshot(), fw.uri("/m/find.tfquery.json")) if d.code.startswith("schema/")]


def test_a_query_list_config_is_checked_against_the_list_resource_schema(tmp_path):
    ok = '{"list": {"example_server": {"all": {"provider": "example", "config": {"name_prefix": "web"}}}}}'
    assert _query_problems(tmp_path, ok) == []
    bad = '{"list": {"example_server": {"all": {"provider": "example", "config": {"name_prefx": "web"}}}}}'
    assert _query_problems(tmp_path / "b", bad) == [("schema/unknown-argument", '"name_prefx"')]
    unknown = '{"list": {"example_servr": {"all": {"provider": "example"}}}}'
    assert _query_problems(tmp_path / "c", unknown) == [("schema/unknown-resource-type", '"example_servr"')]


@pytest.mark.parametrize("doc, said", [
    ('{"ephemeral": {"example_token": {"t": {"audience": "x"}}}, '
     '"provider": {"example": {"token": "${ephemeral.example_token.t.va$0lue}"}}}', "The token."),
    ('{"resource": {"example_server": {"s": {"name": "a"}}}, "output": {"o": {"value": "${example_server.s.na$0me}"}}}',
     "The server's name."),
])
def test_hover_on_the_attribute_step_of_a_reference(tmp_path, doc, said):
    fw = _fw(tmp_path, doc)
    found = hover(fw.snapshot(), *fw.cursor)
    assert found is not None and said in found.markdown, found
    text = fw.fixture.files[MAIN].text
    assert text[found.start:found.end] in ("value", "name")


# ---- completion and hover of an import's identity and a query file's list block ----------------

IMPORT = '{"resource": {"example_server": {"s": {"name": "a"}}}, "import": [{"to": "%s", "identity": %s}]}'


def _items(fw) -> list[tuple[str, str]]:
    return [(i.label, i.detail) for i in complete(fw.snapshot(), *fw.cursor)]


@pytest.mark.parametrize("to, identity, expected", [
    ("example_server.s", "{$0}", [("id", "string, required"), ("region", "string")]),
    ("example_server.s", '{"id": "i-1", $0}', [("region", "string")]),
    ("example_server.s", '{"re$0"}', [("region", "string")]),
    ('module.m.example_server.s[\\"k\\"]', "{$0}", [("id", "string, required"), ("region", "string")]),
    ("example_servr.s", "{$0}", []),  # no such type: nothing rather than a guess
])
def test_completion_inside_an_import_identity(tmp_path, to, identity, expected):
    assert _items(_fw(tmp_path, IMPORT % (to, identity))) == expected


def test_an_identity_attribute_completes_as_a_json_member(tmp_path):
    fw = _fw(tmp_path, IMPORT % ("example_server.s", '{"id": "i-1" $0}'))
    (item,) = complete(fw.snapshot(), *fw.cursor)
    assert (item.label, item.insert_text, item.snippet) == ("region", ', "region": "$1"', True)


def test_hover_on_an_identity_attribute(tmp_path):
    fw = _fw(tmp_path, IMPORT % ("example_server.s", '{"i$0d": "i-1"}'))
    found = hover(fw.snapshot(), *fw.cursor)
    assert found is not None and "The server's id." in found.markdown and "required" in found.markdown, found
    assert fw.fixture.files[MAIN].text[found.start:found.end] == '"id"'
    other = _fw(tmp_path / "b", IMPORT % ("example_server.s", '{"x$0x": "i-1"}'))
    assert hover(other.snapshot(), *other.cursor) is None


QUERY = "/m/find.tfquery.json"


def _query_fw(tmp_path, doc: str):
    fw = parse_fixture(f"//- /m/main.tf.json\n{{}}\n//- {QUERY}\n" + doc).workspace(tmp_path, open=[QUERY])
    fw.workspace.set_schema_files([SCHEMA])
    return fw


@pytest.mark.parametrize("doc, expected", [
    ('{"list": {"ex$0": {}}}', [("example_server", "registry.terraform.io/hashicorp/example"),
                                ("example_volume", "registry.terraform.io/hashicorp/example")]),
    ('{"list": {"zz$0": {}}}', []),
    ('{"list": {"example_server": {"all": {"provider": "example", "config": {$0}}}}}', [("name_prefix", "string")]),
    ('{"list": {"example_server": {"all": {"provider": "example", "config": {"na$0"}}}}}', [("name_prefix", "string")]),
])
def test_completion_in_a_query_list_block(tmp_path, doc, expected):
    got = _items(_query_fw(tmp_path, doc))
    assert [g for g in got if g[0] != "dynamic"] == expected, got


@pytest.mark.parametrize("doc, snippets, inserted", [
    ('{"list": {⟨"example_vo$0"⟩}}', True,
     '"example_volume": {"${1:name}": {"provider": "${2:example}", "config": {"zone": "$3"}}}'),
    ('{"list": {⟨"example_vo$0"⟩}}', False, '"example_volume": {"name": {"provider": "example", "config": {"zone": ""}}}'),
    ('{"list": {⟨"example_se$0"⟩}}', True, '"example_server": {"${1:name}": {"provider": "${2:example}"}}'),  # nothing required in config
    ('{"list": {⟨"example_vo$0"⟩\n "example_server": {}}}', False,
     '"example_volume": {"name": {"provider": "example", "config": {"zone": ""}}},'),
])
def test_a_list_type_completes_to_its_whole_block(tmp_path, doc, snippets, inserted):
    fw = _query_fw(tmp_path, doc)
    uri, offset = fw.cursor
    items = complete(fw.snapshot(), uri, offset, snippets=snippets)
    (item,) = items
    assert (item.insert_text, item.snippet, (item.start, item.end)) == (inserted, snippets, fw.fixture.files[QUERY].ranges[0])  # the key replaced


def test_a_list_type_skeleton_names_the_provider_by_its_local_name(tmp_path):
    doc = ('//- /m/main.tf.json\n{"terraform": {"required_providers": {"ex": {"source": "hashicorp/example"}}}}\n'
           f'//- {QUERY}\n' + '{"list": {"example_vo$0"}}')
    fw = parse_fixture(doc).workspace(tmp_path, open=[QUERY])
    fw.workspace.set_schema_files([SCHEMA])
    (item,) = complete(fw.snapshot(), *fw.cursor, snippets=False)
    assert item.insert_text == '"example_volume": {"name": {"provider": "ex", "config": {"zone": ""}}}'


def test_without_prefill_a_list_type_is_the_name_alone(tmp_path):
    fw = _query_fw(tmp_path, '{"list": {"example_vo$0"}}')
    (item,) = complete(fw.snapshot(), *fw.cursor, snippets=False, prefill_required=False)
    assert item.insert_text == "example_volume"


@pytest.mark.parametrize("doc, said", [
    ('{"list": {"example_se$0rver": {"all": {"provider": "example"}}}}', "A list resource type of the provider"),
    ('{"list": {"example_server": {"all": {"provider": "example", "config": {"name_pr$0efix": "w"}}}}}', "optional argument of `config`"),
])
def test_hover_in_a_query_list_block(tmp_path, doc, said):
    fw = _query_fw(tmp_path, doc)
    found = hover(fw.snapshot(), *fw.cursor)
    assert found is not None and said in found.markdown, found
