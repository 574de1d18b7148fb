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
