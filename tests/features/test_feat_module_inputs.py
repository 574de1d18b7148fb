"""A module call's inputs, read from the module it calls: completion of what the call lacks
(required first, with type and description), hover on an input (type, default, description and
file), definition (the child's `variable`). Real files in a real `Workspace`; `$0` is the cursor,
`⟨...⟩` the expected place."""

from __future__ import annotations

from fixture import parse_fixture

from hcljson_ls.features import navigation
from hcljson_ls.features.completion import complete
from hcljson_ls.features.hover import hover

CHILD = """\
//- /net/variables.tf.json
{"variable": {
  ⟨"cidr"⟩: {"type": "string", "description": "The network's range."},
  "zone": {"type": "list(string)", "default": ["a", "b"]},
  "tags": {"type": "map(string)", "default": {}, "description": "Extra tags."}
}}
//- /net/more.tf
variable "count_of" {
  type        = number
  description = "How many (native)."
}
"""


def _workspace(tmp_path, src: str):
    fixture = parse_fixture(CHILD + src)
    return fixture, fixture.workspace(tmp_path)


def test_completion_offers_the_inputs_the_call_lacks_required_first(tmp_path):
    _, fw = _workspace(tmp_path, """\
//- /live/main.tf.json
{"module": {"net": {"source": "../net", "zone": ["c"], $0}}}
""")
    items = complete(fw.snapshot(), *fw.cursor)
    inputs = [i for i in items if i.detail.startswith(("string", "number", "list", "map", "any"))]
    assert [(i.label, i.detail) for i in inputs] == [
        ("cidr", "string, required"), ("count_of", "number, required"), ("tags", "map(string)")]
    cidr = inputs[0]
    assert cidr.documentation == "The network's range." and cidr.sort < inputs[2].sort
    assert cidr.insert_text.startswith('"cidr": ') and "zone" not in {i.label for i in items}
    assert {"version", "providers", "depends_on"} <= {i.label for i in items}  # the meta-arguments still


def test_completion_of_a_key_being_typed_filters_the_inputs(tmp_path):
    _, fw = _workspace(tmp_path, """\
//- /live/main.tf.json
{"module": {"net": {"source": "../net", "ci$0"}}}
""")
    labels = [i.label for i in complete(fw.snapshot(), *fw.cursor)]
    assert labels == ["cidr"]


def test_no_inputs_where_the_child_is_unknown_or_outside_a_call(tmp_path):
    _, fw = _workspace(tmp_path, """\
//- /live/main.tf.json
{"module": {"net": {"source": "../nowhere", $0}}}
""")
    assert not [i for i in complete(fw.snapshot(), *fw.cursor) if i.label == "cidr"]
    _, fw = _workspace(tmp_path / "b", """\
//- /live/main.tf.json
{"module": {"net": {"source": "../net", "tags": {$0}}}}
""")
    assert not [i for i in complete(fw.snapshot(), *fw.cursor) if i.label == "cidr"]


def test_hover_and_definition_on_an_input(tmp_path):
    fixture, fw = _workspace(tmp_path, """\
//- /live/main.tf.json
{"module": {"net": {"s$[source]ource": "../net", "ci$0dr": "10.0.0.0/8", "z$[zone]one": [], "c$[count_of]ount_of": 2}}}
""")
    uri, offset = fw.cursor
    got = hover(fw.snapshot(), uri, offset)
    text = fixture.files["/live/main.tf.json"].text
    assert text[got.start : got.end] == '"cidr"'
    assert got.markdown == ('```hcl\nvariable "cidr"\n```\n\ntype: `string`\n\nrequired: the call must set it\n\n'
                            "The network's range.\n\nDeclared in `net/variables.tf.json` of the called module.")
    zone = hover(fw.snapshot(), *fw.mark("zone"))
    assert 'default: `["a", "b"]`' in zone.markdown and "type: `list(string)`" in zone.markdown
    native = hover(fw.snapshot(), *fw.mark("count_of"))
    assert "How many (native)." in native.markdown and "`net/more.tf`" in native.markdown
    [loc] = navigation.definition(fw.snapshot(), uri, offset)
    declared = fixture.files["/net/variables.tf.json"]
    assert loc.uri == fw.uri("/net/variables.tf.json") and (loc.start, loc.end) == declared.ranges[0]
    assert hover(fw.snapshot(), *fw.mark("source")).markdown.startswith("**source**")  # a meta-argument


def test_the_escaping_block_offers_hovers_and_goes_to_inputs(tmp_path):
    """`"_"` of a module call: its arguments are inputs whatever their names (Terraform merges it into
    the call), so completion offers the child's variables there and hover and definition know them."""
    fixture, fw = _workspace(tmp_path, """\
//- /live/main.tf.json
{"module": {"net": {"source": "../net", "_": {"c$[cidr]idr": "10.0.0.0/8", $0}}}}
""")
    labels = [i.label for i in complete(fw.snapshot(), *fw.cursor)]
    assert "count_of" in labels and "zone" in labels and "cidr" not in labels
    got = hover(fw.snapshot(), *fw.mark("cidr"))
    assert got is not None and 'variable "cidr"' in got.markdown
    [loc] = navigation.definition(fw.snapshot(), *fw.mark("cidr"))
    assert (loc.uri, loc.start, loc.end) == (fw.uri("/net/variables.tf.json"), *fixture.files["/net/variables.tf.json"].ranges[0])


def test_definition_on_a_source_opens_the_called_module(tmp_path):
    """A local path: the first configuration file of that directory (by name); a module `terraform
    init` installed (`.terraform/modules/modules.json`): its installed directory; no directory: nothing."""
    fixture, fw = _workspace(tmp_path, """\
//- /live/.terraform/modules/vpc/main.tf.json
{"variable": {"cidr": {"type": "string"}}}
//- /live/.terraform/modules/modules.json
{"Modules": [{"Key": "", "Source": "", "Dir": "."},
             {"Key": "vpc", "Source": "registry.terraform.io/acme/vpc/aws", "Version": "1.0.0", "Dir": ".terraform/modules/vpc"}]}
//- /live/main.tf.json
{"module": {"net": {"source": "../n$0et"}, "vpc": {"source": "ac$[vpc]me/vpc/aws", "version": "1.0.0"},
            "gone": {"source": "./$[gone]nowhere"}}}
""")
    uri, offset = fw.cursor
    [loc] = navigation.definition(fw.snapshot(), uri, offset)
    assert (loc.uri, loc.start, loc.end) == (fw.uri("/net/more.tf"), 0, 0)  # "more.tf" sorts first
    [loc] = navigation.definition(fw.snapshot(), *fw.mark("vpc"))
    assert loc.uri == fw.uri("/live/.terraform/modules/vpc/main.tf.json")
    assert navigation.definition(fw.snapshot(), *fw.mark("gone")) == []


def _sources(tmp_path, typed: str):
    fixture, fw = _workspace(tmp_path, """\
//- /live/main.tf.json
{"module": {"x": {"source": "$[value]%s$0"}}}
//- /live/modules/vpc/main.tf
variable "a" {}
//- /live/modules/docs/README.md
not a module
//- /live/.terraform/modules/modules.json
{"Modules": []}
//- /other/main.tf.json
{}
""" % typed)
    return fw.mark("value")[1], complete(fw.snapshot(), *fw.cursor)


def test_source_completion_offers_local_directories(tmp_path):
    value, items = _sources(tmp_path / "a", "")
    assert [(i.label, i.detail) for i in sorted(items, key=lambda i: (i.sort, i.label))] == [
        ("../net", "module"), ("../other", "module"), ("./modules", "directory")]  # not ../live itself, nor .terraform
    assert (items[0].start, items[0].end) == (value, value)
    first, items = _sources(tmp_path / "b", "./modules/")
    assert [(i.label, i.detail, i.insert_text) for i in sorted(items, key=lambda i: (i.sort, i.label))] == [
        ("./modules/vpc", "module", "./modules/vpc"), ("./modules/docs", "directory", "./modules/docs")]
    assert (items[0].start, items[0].end) == (first, first + len("./modules/"))  # the whole value
    _, items = _sources(tmp_path / "c", "../o")
    assert [i.label for i in items] == ["../other"]
    _, items = _sources(tmp_path / "d", "hashicorp/")
    assert items == []
