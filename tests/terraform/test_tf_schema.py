"""The Terraform configuration schema: modes from the JSON syntax page, descriptions everywhere,
override files, file names."""

from __future__ import annotations

import pytest

from hcljson_ls.hcljson import schema as S
from hcljson_ls.terraform.definition import catalogue as C
from hcljson_ls.terraform.definition import schema as T


def walk(body: S.BodySchema):
    """Every (path, block schema or attribute schema) reachable from `body` (cycle-safe)."""
    seen: set[int] = set()
    stack = [((), body)]
    while stack:
        path, b = stack.pop()
        if id(b) in seen:
            continue
        seen.add(id(b))
        for name, a in b.attributes.items():
            yield (*path, name), a
        for name, bs in b.blocks.items():
            yield (*path, name), bs
            if bs.body is not None:
                stack.append(((*path, name), bs.body))


def find(root: S.BodySchema, *path: str):
    body = root
    for name in path[:-1]:
        body = body.blocks[name].body
    last = path[-1]
    return body.attributes.get(last) or body.blocks[last]


def test_top_level_blocks_and_labels() -> None:
    labels = {name: b.labels for name, b in T.CONFIG_SCHEMA.blocks.items()}
    assert labels == {
        "terraform": (), "provider": ("name",), "variable": ("name",), "locals": (), "output": ("name",),
        "module": ("name",), "resource": ("type", "name"), "data": ("type", "name"),
        "ephemeral": ("type", "name"), "action": ("type", "name"), "moved": (), "import": (), "removed": (),
        "check": ("name",), "language": (),
    }
    assert T.CONFIG_SCHEMA.blocks["locals"].body.dynamic_attributes
    assert not T.CONFIG_SCHEMA.open_attributes and not T.CONFIG_SCHEMA.open_blocks


@pytest.mark.parametrize(
    ("path", "mode"),
    [
        (("terraform", "required_version"), S.LITERAL_STRING),
        (("terraform", "required_providers"), S.LITERAL),
        (("terraform", "experiments"), S.TRAVERSAL_LIST),
        (("provider", "alias"), S.LITERAL_STRING),
        (("provider", "version"), S.LITERAL_STRING),
        (("variable", "type"), S.TYPE),
        (("variable", "default"), S.LITERAL),
        (("variable", "description"), S.LITERAL_STRING),
        (("variable", "sensitive"), S.LITERAL),
        (("variable", "validation", "condition"), S.EXPRESSION),
        (("output", "value"), S.EXPRESSION),
        (("output", "description"), S.LITERAL_STRING),
        (("output", "sensitive"), S.LITERAL),
        (("output", "depends_on"), S.TRAVERSAL_LIST),
        # Variables and locals are allowed there: Terraform 1.15 (CHANGELOG), OpenTofu 1.8 (early
        # evaluation); older versions get language/newer-version (tests/terraform/test_language_versions.py).
        (("module", "source"), S.EXPRESSION),
        (("module", "version"), S.EXPRESSION),
        (("module", "providers"), S.TRAVERSAL_MAP),
        (("module", "count"), S.EXPRESSION),
        (("resource", "provider"), S.NATIVE),
        (("resource", "depends_on"), S.TRAVERSAL_LIST),
        (("resource", "for_each"), S.EXPRESSION),
        (("resource", "lifecycle", "ignore_changes"), S.KEYWORD_OR_TRAVERSAL_LIST),
        (("resource", "lifecycle", "replace_triggered_by"), S.NATIVE_LIST),
        (("resource", "lifecycle", "create_before_destroy"), S.LITERAL),
        (("resource", "connection", "type"), S.LITERAL_STRING),
        (("resource", "provisioner", "connection", "type"), S.LITERAL_STRING),
        (("resource", "provisioner", "when"), S.TRAVERSAL),
        (("resource", "dynamic", "iterator"), S.TRAVERSAL),
        (("data", "depends_on"), S.TRAVERSAL_LIST),
        (("moved", "from"), S.TRAVERSAL),
        (("moved", "to"), S.TRAVERSAL),
        (("import", "to"), S.NATIVE),
        (("import", "id"), S.EXPRESSION),
        (("removed", "from"), S.TRAVERSAL),
        (("check", "assert", "condition"), S.EXPRESSION),
    ],
)
def test_modes_follow_the_terraform_json_syntax(path: tuple[str, ...], mode: str) -> None:
    assert find(T.CONFIG_SCHEMA, *path).mode == mode


@pytest.mark.parametrize(
    "path",
    [("module", "source"), ("moved", "from"), ("moved", "to"), ("output", "value"), ("import", "to"),
     ("removed", "from"), ("variable", "validation", "condition"), ("variable", "validation", "error_message"),
     ("check", "assert", "error_message"), ("resource", "dynamic", "for_each"), ("resource", "lifecycle", "precondition", "condition")],
)
def test_required_arguments(path: tuple[str, ...]) -> None:
    assert find(T.CONFIG_SCHEMA, *path).required
    assert not find(T.OVERRIDE_SCHEMA, *path).required


def test_provider_defined_bodies_are_open() -> None:
    for name in ("resource", "data", "ephemeral", "provider"):
        body = T.CONFIG_SCHEMA.blocks[name].body
        assert body.open_attributes and body.open_blocks, name
    assert T.CONFIG_SCHEMA.blocks["module"].body.open_attributes
    assert T.CONFIG_SCHEMA.blocks["terraform"].body.blocks["backend"].body is None  # OPEN_BODY
    assert not T.CONFIG_SCHEMA.blocks["variable"].body.open_attributes


def test_dynamic_content_allows_nested_dynamic_blocks() -> None:
    dynamic = T.CONFIG_SCHEMA.blocks["resource"].body.blocks["dynamic"]
    content = dynamic.body.blocks["content"]
    assert content.body.blocks["dynamic"] is dynamic
    assert content.min_items == 1 and content.max_items == 1


def test_every_block_and_argument_has_a_one_line_description() -> None:
    items = list(walk(T.CONFIG_SCHEMA))
    assert len(items) > 100
    for path, item in items:
        assert item.description, path
        assert "\n" not in item.description and len(item.description) < 160, path
        assert item.description[0].isupper() and item.description.endswith("."), path


def test_the_override_schema_has_the_same_shape_and_requires_nothing() -> None:
    config = {p: (type(i), getattr(i, "mode", None), getattr(i, "labels", None)) for p, i in walk(T.CONFIG_SCHEMA)}
    override = {p: (type(i), getattr(i, "mode", None), getattr(i, "labels", None)) for p, i in walk(T.OVERRIDE_SCHEMA)}
    assert config == override
    for path, item in walk(T.OVERRIDE_SCHEMA):
        assert not getattr(item, "required", False) and not getattr(item, "min_items", None), path
    dynamic = T.OVERRIDE_SCHEMA.blocks["resource"].body.blocks["dynamic"]
    assert dynamic.body.blocks["content"].body.blocks["dynamic"].body is dynamic.body  # the cycle survives


@pytest.mark.parametrize(
    ("path", "config", "override"),
    [
        ("main.tf.json", True, False),
        ("cdk.tf.json", True, False),
        ("stacks/dev/cdk.tf.json", True, False),
        ("main.tofu.json", True, False),
        ("override.tf.json", True, True),
        ("/a/b/override.tofu.json", True, True),
        ("variables_override.tf.json", True, True),
        ("file:///c%20d/x_override.tf.json", True, True),
        ("C:\\work\\override.tf.json", True, True),
        ("myoverride.tf.json", True, False),
        ("override.tf", False, False),
        ("override.json", False, False),
        ("main.tftest.json", False, False),
        ("terragrunt.hcl.json", False, False),
    ],
)
def test_file_names(path: str, config: bool, override: bool) -> None:
    assert T.is_config_file(path) is config
    assert T.is_json_override_file(path) is override
    assert T.schema_for_path(path) is (T.OVERRIDE_SCHEMA if override else T.CONFIG_SCHEMA)


def test_label_descriptions_cover_every_labelled_block() -> None:
    for path, item in walk(T.CONFIG_SCHEMA):
        if isinstance(item, S.BlockSchema):
            for i in range(len(item.labels)):
                assert (item.type_name, i) in C.LABEL_DESCRIPTIONS, (path, i)
