"""Variable definitions files (`terraform.tfvars.json`, `*.auto.tfvars.json`) through a real `Workspace`
on a real directory: diagnostics against the variables the module declares in its JSON and native
files (open or on disk), hover, definition, completion, symbols and semantic tokens, and a tfvars
document taking no part in the module's configuration.

Fixtures: `//- /path` starts a file, `$0` is the cursor, `⟨⟩` mark expected ranges (tests/fixture.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture import FixtureWorkspace, lsp_range, parse_fixture

from hcljson_ls.features import diagnostics, navigation, semantic_tokens, symbols
from hcljson_ls.features.completion import complete
from hcljson_ls.features.hover import hover
from hcljson_ls.features.signature_help import signature_help

MODULE = r"""
//- /env/variables.tf.json
{"variable": {
  ⟨"region"⟩: {"type": "string", "default": "eu-west-1", "description": "Where it runs — région"},
  ⟨"port"⟩: {"type": $[port.type]"number"},
  ⟨"tags"⟩: {"type": "map(string)", "default": {"team": "core"}},
  ⟨"server"⟩: {"type": "object({name = string, size = optional(number, 1)})"}
}}
//- /env/sizes.tf
variable ⟨"zones"⟩ {
  type        = list(string)
  description = "Availability zones — zonas de disponibilité"
  nullable    = false
}
variable ⟨"debug"⟩ {
  default = false
}
//- /env/main.tf.json
{"output": {"where": {"value": "${var.region}"}}}
"""

VARS = "/env/variables.tf.json"
NATIVE = "/env/sizes.tf"
TFVARS = "/env/terraform.tfvars.json"


def build(tmp_path: Path, tfvars: str, extra: str = "", open: list[str] | None = None) -> FixtureWorkspace:
    return parse_fixture(MODULE + extra + f"//- {TFVARS}\n" + tfvars).workspace(tmp_path, open=open or [TFVARS])


def declared_at(fw: FixtureWorkspace, path: str, name: str) -> tuple[str, int, int]:
    """(uri, start, end) of the `⟨⟩`-marked name key `"name"` in fixture file `path`."""
    f = fw.fixture.files[path]
    [(s, e)] = [(s, e) for s, e in f.ranges if f.text[s:e] == f'"{name}"']
    return fw.uri(path), s, e


def found(fw: FixtureWorkspace, path: str = TFVARS):
    t = fw.fixture.files[path].text
    return [(d.code, t[d.start : d.end]) for d in diagnostics.collect(fw.snapshot(), fw.uri(path))]


# ---- diagnostics ---------------------------------------------------------------------------------


def test_values_are_checked_against_json_and_native_declarations(tmp_path) -> None:
    fw = build(tmp_path, '{"regoin": "x", "port": "80", "zones": ["a", 1], "debug": "yes", '
                         '"server": {"name": "a", "size": "big"}, "tags": {"a": ["b"]}, "zones2": null}')
    assert found(fw) == [
        ("tfvars/undeclared-variable", '"regoin"'),
        ("tfvars/wrong-type", '"big"'),
        ("tfvars/wrong-type", "["),
        ("tfvars/undeclared-variable", '"zones2"'),
    ]


def test_undeclared_variable_message_and_quick_fix(tmp_path) -> None:
    fw = build(tmp_path, '{"zone": ["a"]}')
    [d] = diagnostics.collect(fw.snapshot(), fw.uri(TFVARS))
    assert d.severity == "warning"
    assert d.plain_message == ('Value for undeclared variable "zone": The module declares no variable "zone"; '
                               'Terraform ignores this value with a warning. Did you mean "zones"?')
    assert [(f.start, f.end, f.new_text, f.title) for f in d.fixes] == [(1, 7, '"zones"', 'Change to "zones"')]


def test_wrong_type_message_names_the_path_and_the_declared_type(tmp_path) -> None:
    fw = build(tmp_path, '{"server": {"name": "web", "size": "big"}, "zones": null}')
    assert [d.plain_message for d in diagnostics.collect(fw.snapshot(), fw.uri(TFVARS))] == [
        ('Unsuitable value for var.server: The type of var.server is object({name = string, size = optional(number, 1)}): '
         'attribute "size": a number is required.'),
        "Unsuitable value for var.zones: var.zones is declared with nullable = false, so it cannot be set to null.",
    ]


def test_a_valid_file_has_no_diagnostics_and_configuration_rules_do_not_apply(tmp_path) -> None:
    # Before tfvars files were told apart, every name here was an unknown block type.
    fw = build(tmp_path, '{"//": "dev", "region": "${not a template", "port": "8080", "zones": [], '
                         '"server": {"name": "a", "extra": 1}, "debug": "true", "tags": {"x": 1}}')
    assert found(fw) == []


def test_a_name_set_twice_is_a_duplicate_argument(tmp_path) -> None:
    fw = build(tmp_path, '{"port": 1, "port": 2}')
    assert found(fw) == [("structure/duplicate-argument", '"port"')]


def test_a_tfvars_file_opened_as_json_is_ours_by_its_name(tmp_path) -> None:
    fw = parse_fixture(MODULE).workspace(tmp_path, open=[])
    uri = fw.uri(VARS).replace("variables.tf.json", "prod.auto.tfvars.json")
    assert fw.workspace.open(uri, '{"prot": 1}', 1, "json") is not None
    assert [d.code for d in diagnostics.collect(fw.snapshot(), uri)] == ["tfvars/undeclared-variable"]
    assert fw.workspace.open(uri.replace(".tfvars.json", ".json"), "{}", 1, "json") is None  # plain JSON is not


def test_the_tfvars_file_is_not_part_of_the_module(tmp_path) -> None:
    fw = build(tmp_path, '{"region": "x"}', open=[TFVARS, "/env/main.tf.json"])
    snapshot = fw.snapshot()
    assert snapshot.module_files(fw.uri(TFVARS)) == ["main.tf.json", "sizes.tf", "variables.tf.json"]
    assert found(fw, "/env/main.tf.json") == []
    assert snapshot.declared(fw.uri("/env/main.tf.json"), "variable") == {
        ("variable", n) for n in ("region", "port", "tags", "server", "zones", "debug")}


def test_a_module_without_variables_reports_every_name(tmp_path) -> None:
    fw = parse_fixture('//- /other/terraform.tfvars.json\n{"a": 1, "b": 2}').workspace(tmp_path, open=["/other/terraform.tfvars.json"])
    assert [d.code for d in diagnostics.collect(fw.snapshot(), fw.uri("/other/terraform.tfvars.json"))] == [
        "tfvars/undeclared-variable"] * 2


def test_editing_a_declaration_in_another_open_file_makes_the_tfvars_document_stale(tmp_path) -> None:
    fw = build(tmp_path, '{"port": "80"}', open=[TFVARS, VARS])
    ws = fw.workspace
    tfvars_uri, vars_uri = fw.uri(TFVARS), fw.uri(VARS)
    assert found(fw) == []
    ws.take_stale()
    before = ws.documents.revision(tfvars_uri)
    # The type of `port` changes from number to bool: no declaration key changes.
    text = fw.fixture.files[VARS].text
    _, at = fw.mark("port.type")
    ws.change(vars_uri, 2, [{"range": lsp_range(text, at, at + len('"number"')), "text": '"bool"'}], "utf-32")
    assert tfvars_uri in ws.take_stale()
    assert ws.documents.revision(tfvars_uri) != before  # what it reports may differ: not cached
    assert [d.plain_message for d in diagnostics.collect(fw.snapshot(), tfvars_uri)] == [
        'Unsuitable value for var.port: The type of var.port is bool: a bool is required.']


def test_a_declaration_changed_on_disk_makes_the_tfvars_document_stale(tmp_path) -> None:
    fw = build(tmp_path, '{"zones": "a"}')
    ws = fw.workspace
    assert [c for c, _ in found(fw)] == ["tfvars/wrong-type"]
    ws.take_stale()
    fw.paths[NATIVE].write_text('variable "zones" {\n  type = string\n}\n', encoding="utf-8")
    ws.file_changed(fw.uri(NATIVE), 2)
    assert fw.uri(TFVARS) in ws.take_stale()
    assert found(fw) == []  # "a" is a string now


# ---- hover and definition ------------------------------------------------------------------------


def test_hover_on_a_name_declared_in_json(tmp_path) -> None:
    fw = build(tmp_path, '{"reg$0ion": "x"}')
    uri, offset = fw.cursor
    h = hover(fw.snapshot(), uri, offset)
    assert (h.start, h.end) == (1, 9)
    assert h.markdown == ('```hcl\nvariable "region"\n```\n\ntype: `string`\n\ndefault: `"eu-west-1"`\n\n'
                          "Where it runs — région\n\nDeclared in `env/variables.tf.json`.")


def test_hover_on_a_name_declared_in_a_native_file(tmp_path) -> None:
    fw = build(tmp_path, '{"zones": [], "$0debug": true}')
    h = hover(fw.snapshot(), *fw.cursor)
    assert h.markdown == '```hcl\nvariable "debug"\n```\n\ndefault: `false`\n\nDeclared in `env/sizes.tf`.'
    zones = hover(fw.snapshot(), fw.uri(TFVARS), 3)
    assert "type: `list(string)`" in zones.markdown and "nullable: `false`" in zones.markdown
    assert "Availability zones" in zones.markdown


def test_no_hover_on_values_or_undeclared_names(tmp_path) -> None:
    fw = build(tmp_path, '{"nope": 1, "port": 8$080}')
    snapshot = fw.snapshot()
    assert hover(snapshot, *fw.cursor) is None
    assert hover(snapshot, fw.uri(TFVARS), 2) is None


@pytest.mark.parametrize("name, path", [("region", VARS), ("tags", VARS), ("zones", NATIVE), ("debug", NATIVE)])
def test_definition_jumps_to_the_declaration(tmp_path, name: str, path: str) -> None:
    fw = build(tmp_path, '{"r$[region]egion": 1, "t$[tags]ags": {}, "z$[zones]ones": [], "d$[debug]ebug": true}')
    locations = navigation.definition(fw.snapshot(), *fw.mark(name))
    assert [(loc.uri, loc.start, loc.end) for loc in locations] == [declared_at(fw, path, name)]


def test_definition_elsewhere_and_for_undeclared_names_is_empty(tmp_path) -> None:
    fw = build(tmp_path, '{"nope": 1, "port": 8$080}')
    assert navigation.definition(fw.snapshot(), *fw.cursor) == []
    assert navigation.definition(fw.snapshot(), fw.uri(TFVARS), 2) == []


# ---- completion ----------------------------------------------------------------------------------


def labels(fw: FixtureWorkspace, snippets: bool = True):
    return [(i.label, i.detail, i.insert_text) for i in complete(fw.snapshot(), *fw.cursor, snippets=snippets)]


def test_completion_offers_the_names_not_yet_set_with_type_and_placeholder(tmp_path) -> None:
    fw = build(tmp_path, '{\n  "region": "x",\n  $0\n}')
    assert labels(fw) == [
        ("debug", "any", '"debug": "$1"'),
        ("port", "number", '"port": ${1:0}'),
        ("server", "object({name = string, size = optional(number, 1)})", '"server": {$1}'),
        ("tags", "map(string)", '"tags": {$1}'),
        ("zones", "list(string)", '"zones": [$1]'),
    ]
    item = complete(fw.snapshot(), *fw.cursor)[4]
    assert (item.kind, item.documentation, item.snippet, item.sort) == ("Variable", "Availability zones — zonas de disponibilité", True, "0")


def test_completion_of_a_key_being_typed(tmp_path) -> None:
    fw = build(tmp_path, '{"po$0", "region": "x"}')
    items = complete(fw.snapshot(), *fw.cursor, snippets=False)
    assert [(i.label, i.start, i.end, i.insert_text, i.filter) for i in items] == [("port", 1, 5, '"port": 0', '"port"')]


@pytest.mark.parametrize("tfvars, insert", [
    ('{"region": "x" $0}', ', "port": 0'),  # after a member without a comma
    ('{$0 "region": "x"}', '"port": 0,'),  # before another member
    ('{"region": "x", $0 "tags": {}}', '"port": 0,'),
])
def test_completion_writes_the_commas_the_place_needs(tmp_path, tfvars: str, insert: str) -> None:
    fw = build(tmp_path, tfvars)
    assert [i.insert_text for i in complete(fw.snapshot(), *fw.cursor, snippets=False) if i.label == "port"] == [insert]


def test_completion_of_a_key_with_its_value_already_there(tmp_path) -> None:
    fw = build(tmp_path, '{"zo$0": ["a"]}')
    assert labels(fw) == [("zones", "list(string)", '"zones"')]


def test_completion_in_an_empty_document_writes_the_whole_object(tmp_path) -> None:
    fw = build(tmp_path, "$0")
    assert ("port", "number", '{"port": ${1:0}}') in labels(fw)
    assert ("port", "number", '{"port": 0}') in labels(fw, snippets=False)


def test_no_completion_inside_values(tmp_path) -> None:
    fw = build(tmp_path, '{"server": {"na$0"}}')
    assert labels(fw) == []


# ---- symbols and semantic tokens -----------------------------------------------------------------


def test_one_symbol_per_variable_set(tmp_path) -> None:
    fw = build(tmp_path, '{"//": "c", "region": "x", "tags": {"a": "b"}}')
    found_symbols = symbols.document_symbols(fw.snapshot(), fw.uri(TFVARS))
    text = fw.fixture.files[TFVARS].text
    assert [(s.name, s.kind, text[s.start : s.end], text[s.selection_start : s.selection_end]) for s in found_symbols] == [
        ("region", "Variable", '"region": "x"', '"region"'),
        ("tags", "Variable", '"tags": {"a": "b"}', '"tags"'),
    ]


def test_semantic_tokens_are_the_names_only(tmp_path) -> None:
    fw = build(tmp_path, '{"region": "${var.x}", "tags": {"a": "%{ if x }"}}')
    text = fw.fixture.files[TFVARS].text
    tokens = semantic_tokens.semantic_tokens(fw.snapshot(), fw.uri(TFVARS))
    assert [(text[s:e], kind) for s, e, kind, _ in tokens] == [("region", "variable"), ("tags", "variable")]
    assert semantic_tokens.semantic_tokens(fw.snapshot(), fw.uri(TFVARS), 20, 40) == tokens[1:]


def test_strings_are_literal_for_signature_help_and_nothing_is_renameable(tmp_path) -> None:
    fw = build(tmp_path, '{"region": "${upper($0x)}"}')
    snapshot = fw.snapshot()
    assert signature_help(snapshot, *fw.cursor) is None
    assert navigation.references(snapshot, fw.uri(TFVARS), 3) == []
    assert navigation.prepare_rename(snapshot, fw.uri(TFVARS), 3) is None
