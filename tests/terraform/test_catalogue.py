"""The Terraform/OpenTofu catalogue: file-name rules (kinds, overrides, OpenTofu's `.tofu` twins),
meta-arguments per block kind, reference namespaces, and agreement with the decoding schema."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from hcljson_ls.terraform.definition import catalogue as C
from hcljson_ls.terraform.definition import schema as T

# ---- file names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind", "stem"),
    [
        ("main.tf.json", C.CONFIG_JSON, "main"),
        ("cdk.tf.json", C.CONFIG_JSON, "cdk"),
        ("main.tofu.json", C.CONFIG_JSON, "main"),
        ("stacks/dev/main.tofu.json", C.CONFIG_JSON, "main"),
        ("C:\\work\\net.tf.json", C.CONFIG_JSON, "net"),
        ("file:///c%20d/x_override.tf.json", C.CONFIG_JSON, "x_override"),
        ("main.tf", C.CONFIG_NATIVE, "main"),
        ("main.tofu", C.CONFIG_NATIVE, "main"),
        ("terraform.tfvars.json", C.TFVARS_JSON, "terraform"),
        ("prod.auto.tfvars.json", C.TFVARS_JSON, "prod.auto"),
        ("any.tfvars.json", C.TFVARS_JSON, "any"),
        ("plan.tftest.json", C.TEST_JSON, "plan"),
        ("plan.tofutest.json", C.TEST_JSON, "plan"),
        ("plan.tftest.hcl", None, "plan"),
        ("prod.tfvars", None, "prod"),
        ("package.json", None, "package.json"),
        ("terragrunt.hcl.json", None, "terragrunt.hcl.json"),
        ("main.tf.json.bak", None, "main.tf.json.bak"),
        ("MAIN.TF.JSON", None, "MAIN.TF.JSON"),  # Terraform matches suffixes case-sensitively
        ("", None, ""),
    ],
)
def test_file_kind_and_stem(name: str, kind: str | None, stem: str) -> None:
    assert C.file_kind(name) == kind
    assert C.stem(name) == stem


def test_ignore_case_is_for_editors() -> None:
    assert C.file_kind("Main.TF.JSON", ignore_case=True) == C.CONFIG_JSON
    assert C.file_kind("X.TOFU", ignore_case=True) == C.CONFIG_NATIVE
    assert C.file_kind("Main.TF.JSON") is None


@pytest.mark.parametrize(
    ("name", "override"),
    [
        ("override.tf.json", True),
        ("override.tofu.json", True),
        ("override.tf", True),
        ("db_override.tofu", True),
        ("/a/b/variables_override.tf.json", True),
        ("myoverride.tf.json", False),
        ("override_x.tf.json", False),
        ("main.tf.json", False),
        ("override.tfvars.json", False),  # not a configuration file
        ("override.tftest.json", False),
        ("override.json", False),
    ],
)
def test_override_files(name: str, override: bool) -> None:
    assert C.is_override_file(name) is override


def test_schema_override_rule_is_the_json_part_of_the_catalogue_rule() -> None:
    for name in ("override.tf.json", "a_override.tofu.json", "override.tf", "x.tf.json", "x.tf"):
        assert T.is_json_override_file(name) is (C.is_override_file(name) and C.file_kind(name) == C.CONFIG_JSON)
        assert T.is_config_file(name) is (C.file_kind(name) == C.CONFIG_JSON)


@pytest.mark.parametrize(
    ("name", "tofu"),
    [("a.tofu", True), ("a.tofu.json", True), ("a.tofutest.json", True), ("a.tofutest.hcl", True),
     ("a.tf", False), ("a.tf.json", False), ("a.tftest.json", False), ("tofu.tf.json", False), ("a.json", False)],
)
def test_opentofu_files(name: str, tofu: bool) -> None:
    assert C.is_opentofu_file(name) is tofu


def test_tofu_twins_hide_tf_files_extension_by_extension() -> None:
    names = [
        "main.tf", "main.tofu",  # hidden
        "net.tf.json", "net.tofu.json",  # hidden
        "vars.tf.json", "vars.tofu",  # a .tofu file does not hide a .tf.json one
        "db.tf", "db.tofu.json",  # nor a .tofu.json file a .tf one
        "override.tf.json", "override.tofu.json",  # overrides too
        "plan.tftest.json", "plan.tofutest.json",  # tests too
        "solo.tf.json", "only.tofu.json",
    ]
    assert C.hidden_by_opentofu(names) == {"main.tf", "net.tf.json", "override.tf.json", "plan.tftest.json"}
    assert C.hidden_by_opentofu(set(names)) == C.hidden_by_opentofu(names)
    assert C.hidden_by_opentofu(["a/main.tf.json", "a/main.tofu.json", "b/x.tf.json", "c/x.tofu.json"]) == {"a/main.tf.json"}
    assert C.opentofu_twin("a/b.tf.json") == "a/b.tofu.json"
    assert C.opentofu_twin("b.tftest.hcl") == "b.tofutest.hcl"
    assert C.opentofu_twin("b.tofu.json") is None and C.opentofu_twin("b.tfvars.json") is None


def test_module_files() -> None:
    names = ["main.tf.json", "main.tofu.json", "net.tf", "override.tf.json", ".hidden.tf.json", "x.tf.json~",
             "#x.tf.json#", "terraform.tfvars.json", "t.tftest.json", "README.md"]
    assert C.module_files(names) == ["main.tofu.json", "net.tf", "override.tf.json"]
    assert C.module_files(names, opentofu=False) == ["main.tf.json", "net.tf", "override.tf.json"]


def test_ignored_and_auto_loaded_names() -> None:
    assert C.is_ignored_file(".main.tf.json") and C.is_ignored_file("a.tf~") and C.is_ignored_file("#a.tf#")
    assert not C.is_ignored_file("main.tf.json") and not C.is_ignored_file("#a.tf")
    assert C.is_auto_tfvars("terraform.tfvars.json") and C.is_auto_tfvars("dir/prod.auto.tfvars.json")
    assert C.is_auto_tfvars("terraform.tfvars") and C.is_auto_tfvars("x.auto.tfvars")
    assert not C.is_auto_tfvars("prod.tfvars.json") and not C.is_auto_tfvars("terraform.tfvars.json.bak")


# ---- meta-arguments --------------------------------------------------------------------------------

RESOURCE_META = {"count", "for_each", "provider", "depends_on", "lifecycle"}


@pytest.mark.parametrize(
    ("type_name", "parent", "expected"),
    [
        ("resource", None, RESOURCE_META),
        ("data", None, RESOURCE_META),
        ("ephemeral", None, RESOURCE_META),
        ("data", "check", RESOURCE_META),  # a check's scoped data source
        ("module", None, {"source", "version", "providers", "count", "for_each", "depends_on"}),
        ("action", None, {"count", "for_each", "provider"}),
        ("provider", None, set()),
        ("variable", None, set()),
        ("locals", None, set()),
        ("output", None, set()),
        ("import", None, set()),
        ("lifecycle", "resource", set()),
        ("module", "resource", set()),  # a provider-defined nested block that happens to be named so
        ("dynamic", "resource", set()),
        (None, None, set()),
        ("nonsense", None, set()),
    ],
)
def test_meta_arguments_per_block_kind(type_name: str | None, parent: str | None, expected: set[str]) -> None:
    assert C.meta_arguments(type_name, parent) == expected


def test_schema_has_the_meta_arguments_it_is_said_to_have() -> None:
    """Every meta-argument of a kind is an argument (or block) of that kind's schema."""
    for t, b in C.BLOCKS.items():
        body = T.CONFIG_SCHEMA.blocks[t].body
        for name in b.meta_arguments:
            assert name in body.attributes or name in body.blocks, (t, name)
    check_data = T.CONFIG_SCHEMA.blocks["check"].body.blocks["data"].body
    for name in C.meta_arguments("data", "check"):
        assert name in check_data.attributes or name in check_data.blocks, name


def test_reserved_variable_names_cover_the_module_meta_arguments() -> None:
    assert C.MODULE_META_ARGUMENTS < C.RESERVED_VARIABLE_NAMES
    assert C.RESERVED_VARIABLE_NAMES == {"source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals"}


def test_multi_instance_and_named_blocks() -> None:
    assert C.MULTI_INSTANCE_BLOCKS == {"resource", "data", "ephemeral", "module", "action"}
    assert C.NAMED_BLOCKS == {"resource", "data", "ephemeral", "action", "variable", "output", "module", "check"}


def test_keyword_arguments_are_schema_arguments() -> None:
    owners = {"provisioner": ("resource", "provisioner"), "terraform": ("terraform",),
              "action_trigger": ("resource", "lifecycle", "action_trigger"), "language": ("language",)}
    for (owner, arg), keywords in C.KEYWORD_ARGUMENTS.items():
        body = T.CONFIG_SCHEMA
        for step in owners[owner]:
            body = body.blocks[step].body
        assert arg in body.attributes, (owner, arg)
        assert keywords is None or all(isinstance(k, str) and k for k in keywords)
    assert C.KEYWORD_ARGUMENTS[("provisioner", "when")] == ("create", "destroy")
    assert C.KEYWORD_ARGUMENTS[("provisioner", "on_failure")] == ("continue", "fail")


def test_literal_settings_blocks() -> None:
    assert C.literal_settings_block("backend", "terraform") and C.literal_settings_block("cloud", "terraform")
    assert C.literal_settings_block("workspaces", "cloud")
    assert not C.literal_settings_block("workspaces", "terraform") and not C.literal_settings_block("backend", None)


# ---- agreement with the decoding schema ----------------------------------------------------------------


def test_catalogue_block_types_are_the_schema_top_level_blocks() -> None:
    assert list(C.BLOCKS) == list(T.CONFIG_SCHEMA.blocks)
    for t, b in C.BLOCKS.items():
        assert b.name == t
        assert tuple(lab.name for lab in b.labels) == T.CONFIG_SCHEMA.blocks[t].labels, t


def _labelled_nested_blocks() -> dict[str, set[tuple[str, ...]]]:
    """Type name -> the label tuples of every labelled block nested somewhere in the schema."""
    out: dict[str, set[tuple[str, ...]]] = {}
    seen: set[int] = set()
    stack = [b.body for b in T.CONFIG_SCHEMA.blocks.values() if b.body is not None]
    while stack:
        body = stack.pop()
        if id(body) in seen:
            continue
        seen.add(id(body))
        for name, bs in body.blocks.items():
            if bs.labels:
                out.setdefault(name, set()).add(bs.labels)
            if bs.body is not None:
                stack.append(bs.body)
    return out


def test_nested_labels_are_the_schema_labelled_nested_blocks() -> None:
    nested = _labelled_nested_blocks()
    assert set(nested) == set(C.NESTED_LABELS)
    for t, labels in nested.items():
        assert labels == {tuple(lab.name for lab in C.NESTED_LABELS[t])}, t


def test_every_label_has_a_role_a_phrase_and_a_description() -> None:
    roles = {C.LABEL_TYPE, C.LABEL_NAME, C.LABEL_PROVIDER, C.LABEL_BLOCK_TYPE}
    labels = [lab for b in C.BLOCKS.values() for lab in b.labels] + [lab for ls in C.NESTED_LABELS.values() for lab in ls]
    for lab in labels:
        assert lab.role in roles and lab.what and lab.description.endswith("."), lab
    for t, b in C.BLOCKS.items():
        for i, lab in enumerate(b.labels):
            assert C.LABEL_DESCRIPTIONS[(t, i)] == lab.description


def test_symbol_kinds_are_lsp_symbol_kinds() -> None:
    lsp = pytest.importorskip("lsprotocol.types")
    for b in C.BLOCKS.values():
        assert b.symbol_kind in lsp.SymbolKind.__members__, b


def test_declarations_and_namespaces_agree() -> None:
    for t, b in C.BLOCKS.items():
        if b.namespace is None:
            assert not b.address and not b.referenceable, t
            continue
        assert b.address.startswith(f"{b.namespace}." if b.namespace else "<"), t
        if b.referenceable:
            ns = C.NAMESPACES.get(b.namespace)
            if b.namespace:
                assert ns is not None and ns.kind == C.DECLARED and ns.declared_by == t, t
            else:
                assert t == "resource"  # managed resources: `<type>.<name>`, no namespace
    declared = {n: ns.declared_by for n, ns in C.NAMESPACES.items() if ns.kind == C.DECLARED}
    assert declared == {"var": "variable", "local": "locals", "module": "module", "data": "data",
                        "ephemeral": "ephemeral", "action": "action"}
    for n, ns in C.NAMESPACES.items():
        assert (ns.kind == C.DECLARED) is (ns.declared_by is not None), n
        assert (ns.kind == C.CONTEXT) is bool(ns.valid_in), n
        assert ns.description, n
        if ns.kind == C.DECLARED:
            # the step after the namespace is what the declaring block's first label names
            first = C.BLOCKS[ns.declared_by].labels[:1]
            assert ns.step == (C.STEP_TYPE if first and first[0].role == C.LABEL_TYPE else C.STEP_NAME), n


def test_namespaces() -> None:
    assert C.CONTEXT_OBJECTS == {"count", "each", "self"}
    assert C.NAMESPACES["path"].attributes == {"module", "root", "cwd"}
    assert C.NAMESPACES["terraform"].attributes == {"workspace", "applying"}
    assert C.NAMESPACES["count"].attributes == {"index"}
    assert C.NAMESPACES["each"].attributes == {"key", "value"}
    assert C.NAMESPACES["count"].valid_in == C.MULTI_INSTANCE_BLOCKS
    assert C.NAMESPACES["each"].valid_in >= C.MULTI_INSTANCE_BLOCKS | {"import"}
    assert C.NAMESPACES["self"].valid_in == {"provisioner", "connection", "postcondition"}


def test_catalogue_is_frozen() -> None:
    for value in (C.BLOCKS, C.NESTED_LABELS, C.LABEL_DESCRIPTIONS, C.KEYWORD_ARGUMENTS, C.NAMESPACES,
                  C.LITERAL_SETTINGS_BLOCKS):
        assert isinstance(value, MappingProxyType)
    for value in (C.NAMED_BLOCKS, C.MULTI_INSTANCE_BLOCKS, C.RESERVED_VARIABLE_NAMES, C.CONTEXT_OBJECTS,
                  C.PROVIDER_REFERENCE_ARGUMENTS, C.RESOURCE_META_ARGUMENTS):
        assert isinstance(value, frozenset)
    with pytest.raises(dataclasses.FrozenInstanceError):
        C.BLOCKS["resource"].namespace = "x"  # type: ignore[misc]
