"""What a provider schema says at a place of a resource or data block (`terraform.provider_lookup`):
the block's provider and schema, bodies and names along JSON paths (list, set, map and dynamic
blocks, protocol-6 nested attributes), paths from decoded block chains, placeholders and the
resolution key."""

from __future__ import annotations

import json

import pytest
import shared_data
from internals import materialize

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.schemas import provider_lookup as pl
from hcljson_ls.terraform.schemas import provider_schema as ps
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

AWS, TOFU_TEST = shared_data.AWS_SCHEMA, shared_data.TOFU_TEST_SCHEMA

shared_data.require(AWS, TOFU_TEST)

# A provider with the shapes the real files lack: map-nested blocks and map-nested attributes.
SMALL = json.dumps({
    "format_version": "1.0",
    "provider_schemas": {"registry.terraform.io/acme/demo": {"resource_schemas": {"demo_thing": {"version": 0, "block": {
        "attributes": {
            "name": {"type": "string", "required": True},
            "count_of": {"type": "number", "optional": True},
            "on": {"type": "bool", "optional": True},
            "tags": {"type": ["map", "string"], "optional": True},
            "ids": {"type": ["set", "string"], "computed": True},
            "ports": {"nested_type": {"nesting_mode": "map", "attributes": {
                "port": {"type": "number", "required": True}}}, "optional": True},
            "single": {"nested_type": {"nesting_mode": "single", "attributes": {
                "x": {"type": "string", "optional": True}}}, "optional": True},
        },
        "block_types": {
            "rule": {"nesting_mode": "map", "block": {"attributes": {"action": {"type": "string", "optional": True}}}},
            "setting": {"nesting_mode": "list", "block": {
                "attributes": {"value": {"type": "string", "optional": True}},
                "block_types": {"inner": {"nesting_mode": "set", "block": {"attributes": {"deep": {"type": "bool", "optional": True}}}}},
            }},
        },
    }}}}},
})


@pytest.fixture(scope="module")
def schemas() -> ps.ProviderSchemas:
    return ps.combine(ps.load(AWS), ps.load(TOFU_TEST), ps.loads(SMALL))


@pytest.fixture(scope="module")
def instance(schemas: ps.ProviderSchemas) -> ps.SchemaBlock:
    found = schemas.resource("aws", "aws_instance")
    assert found is not None
    return found


@pytest.fixture(scope="module")
def demo(schemas: ps.ProviderSchemas) -> ps.SchemaBlock:
    found = schemas.resource("acme/demo", "demo_thing")
    assert found is not None
    return found


def top_blocks(config: object):
    text = json.dumps(config)
    return text, materialize(analyze_file(text, parse(text).root, "main.tf.json").body).blocks


# ---- names and bodies along JSON paths ------------------------------------------------------------------


def test_names_of_the_resource_body(instance: ps.SchemaBlock) -> None:
    a = pl.name_at(instance, ("instance_type",))
    assert isinstance(a, ps.SchemaAttribute) and a.type == "string" and a.optional
    bt = pl.name_at(instance, ("ebs_block_device",))
    assert isinstance(bt, ps.SchemaBlockType) and bt.nesting == "set"
    assert pl.name_at(instance, ("instance_typo",)) is None
    assert pl.name_at(instance, ()) is None
    assert pl.name_at(instance, (0,)) is None


def test_a_list_or_set_block_is_one_object_or_an_array_of_objects(instance: ps.SchemaBlock) -> None:
    ebs = instance.block_types["ebs_block_device"].block
    assert pl.body_at(instance, ("ebs_block_device",)) is ebs
    assert pl.body_at(instance, ("ebs_block_device", 0)) is ebs
    assert pl.body_at(instance, ("ebs_block_device", 3)) is ebs
    a = pl.name_at(instance, ("ebs_block_device", 1, "volume_size"))
    assert isinstance(a, ps.SchemaAttribute) and a.type == "number"
    assert pl.name_at(instance, ("ebs_block_device", "volume_size")) is a


def test_nothing_below_a_plain_attribute_or_an_unknown_name(instance: ps.SchemaBlock) -> None:
    assert pl.body_at(instance, ("tags",)) is None
    assert pl.name_at(instance, ("tags", "Name")) is None
    assert pl.body_at(instance, ("nope", 0)) is None
    assert pl.name_at(instance, ("nope", "volume_size")) is None


def test_map_nested_blocks_and_attributes_take_a_key_first(demo: ps.SchemaBlock) -> None:
    rule = demo.block_types["rule"].block
    assert pl.body_at(demo, ("rule",)) is None  # the object of keys
    assert pl.body_at(demo, ("rule", "allow")) is rule
    assert pl.name_at(demo, ("rule", "allow", "action")) is rule.attributes["action"]
    assert pl.name_at(demo, ("rule", "action")) is None  # "action" is a key there, not a name
    port = pl.name_at(demo, ("ports", "http", "port"))
    assert isinstance(port, ps.SchemaAttribute) and port.required
    assert pl.name_at(demo, ("single", "x")) is demo.attributes["single"].nested.attributes["x"]


def test_nested_blocks_at_any_depth(demo: ps.SchemaBlock) -> None:
    deep = pl.name_at(demo, ("setting", 0, "inner", 2, "deep"))
    assert isinstance(deep, ps.SchemaAttribute) and deep.type == "bool"
    inner = pl.name_at(demo, ("setting", "inner"))
    assert isinstance(inner, ps.SchemaBlockType) and inner.nesting == "set"


def test_dynamic_content_is_the_generated_block_type(instance: ps.SchemaBlock) -> None:
    ebs = instance.block_types["ebs_block_device"].block
    assert pl.body_at(instance, ("dynamic", "ebs_block_device", "content")) is ebs
    assert pl.body_at(instance, ("dynamic", 0, "ebs_block_device", "content")) is ebs
    assert pl.name_at(instance, ("dynamic", "ebs_block_device", "content", "volume_size")) is ebs.attributes["volume_size"]
    assert pl.body_at(instance, ("dynamic", "ebs_block_device")) is None
    assert pl.name_at(instance, ("dynamic", "ebs_block_device", "for_each")) is None
    assert pl.body_at(instance, ("dynamic", "no_such_block", "content")) is None
    # Inside a nested block's value too.
    assert pl.body_at(instance, ("dynamic", "ebs_block_device", "content", "dynamic")) is None


def test_nested_type_attribute_of_the_opentofu_test_provider(schemas: ps.ProviderSchemas) -> None:
    test = schemas.resource("registry.opentofu.org/hashicorp/test", "test_instance")
    assert test is not None
    volumes = test.attributes["volumes"]
    body = pl.nested_body(volumes)
    assert body is not None and list(body.attributes) == ["size", "mount_point"]
    assert pl.name_at(test, ("volumes", 0, "size")) is volumes.nested.attributes["size"]
    assert pl.nested_body(test.attributes["ami"]) is None


# ---- blocks and decoded chains ------------------------------------------------------------------------


def test_block_schema_resolves_the_provider(schemas: ps.ProviderSchemas, instance: ps.SchemaBlock) -> None:
    text, blocks = top_blocks({
        "resource": {"aws_instance": {"web": {}}, "test_instance": {"t": {}}, "demo_thing": {"d": {}}},
        "data": {"aws_ami": {"a": {}}},
        "variable": {"v": {}},
    })
    by = {(b.type_name, b.labels[0].value): b for b in blocks}
    assert pl.block_schema(by["resource", "aws_instance"], schemas, text) is instance
    assert pl.block_address(by["resource", "aws_instance"], text) == "registry.terraform.io/hashicorp/aws"
    assert pl.block_schema(by["resource", "test_instance"], schemas, text, engine="opentofu") is not None
    assert pl.block_schema(by["data", "aws_ami"], schemas, text) is schemas.data_source("aws", "aws_ami")
    assert pl.block_schema(by["variable", "v"], schemas, text) is None
    assert pl.block_schema(by["resource", "aws_instance"], None, text) is None
    # demo_thing's provider is acme/demo: found only through required_providers.
    assert pl.block_schema(by["resource", "demo_thing"], schemas, text) is None
    assert pl.block_schema(by["resource", "demo_thing"], schemas, text, {"demo": "acme/demo"}) is not None


def test_the_provider_meta_argument_picks_the_local_name(schemas: ps.ProviderSchemas) -> None:
    text, [block] = top_blocks({"resource": {"thing_x": {"a": {"provider": "demo.west"}}}})
    assert pl.block_address(block, text, {"demo": "acme/demo"}) == "registry.terraform.io/acme/demo"
    text, [block] = top_blocks({"resource": {"aws_instance": {"a": {"provider": "${var.p}"}}}})
    assert pl.block_address(block, text) == "registry.terraform.io/hashicorp/aws"


def test_steps_of_a_decoded_chain() -> None:
    _, [block] = top_blocks({"resource": {"aws_instance": {"web": {
        "dynamic": {"ebs_block_device": {"for_each": [], "content": {"volume_size": 1}}},
        "lifecycle": {"ignore_changes": []},
    }}}})
    [dynamic] = block.body.blocks_of("dynamic")
    [content] = dynamic.body.blocks_of("content")
    [lifecycle] = block.body.blocks_of("lifecycle")
    assert pl.steps_of([block], ("ami",)) == ("ami",)
    assert pl.steps_of([block, dynamic, content], ("volume_size",)) == ("dynamic", "ebs_block_device", "content", "volume_size")
    assert pl.steps_of([block, dynamic], ("for_each",)) is None
    assert pl.steps_of([block, lifecycle], ("ignore_changes",)) is None


# ---- placeholders and the resolution key --------------------------------------------------------------


def test_placeholders_by_type(demo: ps.SchemaBlock) -> None:
    got = {n: pl.placeholder(a) for n, a in demo.attributes.items()}
    assert got == {"name": '""', "count_of": "0", "on": "false", "tags": "{}", "ids": "[]", "ports": "{}", "single": "{}"}


def test_resolution_key_changes_only_when_an_answer_may(schemas: ps.ProviderSchemas) -> None:
    base = pl.resolution_key(schemas, {}, "terraform")
    assert base == pl.resolution_key(schemas, {}, "terraform")
    assert base == pl.resolution_key(schemas, {"aws": "hashicorp/aws"}, "terraform")
    # Half-typed sources of a loaded provider mean "not loaded" (or, not yet an address, the implied
    # provider): two keys for all the keystrokes, not one each.
    typing = {pl.resolution_key(schemas, {"aws": "hashicorp/aw"[:n]}, "terraform") for n in range(1, 12)}
    assert len(typing) == 2 and base in typing
    assert pl.resolution_key(schemas, {"demo": "acme/demo"}, "terraform") != base
    assert pl.resolution_key(schemas, {}, "opentofu") != base
    other = ps.combine(schemas)
    assert pl.resolution_key(other, {}, "terraform") != base
    assert pl.resolution_key(None, {}, "terraform") is None


@pytest.mark.parametrize("text", [
    '{"resource": {"_x": {"a": {}}}}',
    '{"import": {"to": "_x.a", "identity": {"a": "b"}}, "resource": {"_x": {"a": {}}}}',
    '{"data": {"_": {"a": {}}}, "import": [{"to": "_.a", "identity": {"a": "b"}}]}',
])
def test_a_type_that_names_no_provider_is_checked_against_none(tmp_path, caplog, text) -> None:
    # `_x` implies no provider local name (Terraform: "Invalid provider local name"): every lookup of its
    # provider (the schema checks, an import's identity, a feature's schema) finds none, instead of failing
    # the analysis (a ValueError from its address: the quick open and the module's diagnostics failed).
    path = tmp_path / "main.tf.json"
    path.write_text(text, encoding="utf-8")
    workspace = Workspace([str(tmp_path)])
    uri = uri_of_path(str(path))
    state = workspace.open(uri, text, 1, "terraform-json")
    assert workspace.snapshot().provider_schemas(uri) is not None  # (the lookups that ask for the provider)
    quick = collect(workspace.snapshot(), uri)
    state.prepare()
    assert collect(workspace.snapshot(), uri) == quick
    for block in state.analysis.body.blocks:
        if block.type_name in ("resource", "data"):
            assert pl.block_address(block, text) is None and pl.block_schema(block, workspace.snapshot().provider_schemas(uri), text) is None
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
