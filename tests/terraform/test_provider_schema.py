"""Provider schemas (`terraform.provider_schema`): lazy loading of real `providers schema -json`
files, address normalization, Terraform's provider resolution, and the schema objects."""

from __future__ import annotations

import json

import pytest
import shared_data

from hcljson_ls.terraform.schemas import provider_schema as ps

AWS, RANDOM, LOCAL, TOFU_TEST = shared_data.AWS_SCHEMA, shared_data.RANDOM_SCHEMA, shared_data.LOCAL_SCHEMA, shared_data.TOFU_TEST_SCHEMA

shared_data.require(AWS, RANDOM, LOCAL, TOFU_TEST)


@pytest.fixture(scope="module")
def aws() -> ps.ProviderSchemas:
    return ps.load(AWS)


def test_aws_file_is_indexed_with_every_type(aws: ps.ProviderSchemas) -> None:
    assert aws.format_version == "1.0"
    assert aws.providers() == ("registry.terraform.io/hashicorp/aws", "registry.terraform.io/hashicorp/null")
    assert len(aws.resource_types("registry.terraform.io/hashicorp/aws")) == 980
    assert len(aws.data_source_types("hashicorp/aws")) == 372
    assert aws.resource_types("null") == ("null_resource",)
    assert aws.data_source_types("hashicorp/null") == ("null_data_source",)
    # The same types as the whole file parsed at once, in the same order.
    raw = json.loads(AWS.read_text(encoding="utf-8"))["provider_schemas"]["registry.terraform.io/hashicorp/aws"]
    assert aws.resource_types("aws") == tuple(raw["resource_schemas"])
    assert aws.data_source_types("aws") == tuple(raw["data_source_schemas"])


def test_lookups_build_once_and_cache(aws: ps.ProviderSchemas) -> None:
    first = aws.resource("hashicorp/aws", "aws_instance")
    assert first is aws.resource("registry.terraform.io/hashicorp/aws", "aws_instance")
    assert aws.resource("aws", "aws_no_such_thing") is None
    assert aws.resource("hashicorp/google", "google_compute_instance") is None
    assert aws.data_source("aws", "aws_instance") is not aws.resource("aws", "aws_instance")


def test_aws_instance_attributes_and_blocks(aws: ps.ProviderSchemas) -> None:
    s = aws.resource("aws", "aws_instance")
    assert s is not None and s.version == 1
    ami = s.attributes["ami"]
    assert (ami.type, ami.optional, ami.computed, ami.required, ami.computed_only) == ("string", True, True, False, False)
    assert s.attributes["arn"].computed_only
    assert s.attributes["tags"].type == "map(string)"
    assert s.attributes["vpc_security_group_ids"].type == "set(string)"
    assert s.attributes["vpc_security_group_ids"].cty == ["set", "string"]
    ebs = s.block_types["ebs_block_device"]
    assert (ebs.nesting, ebs.min_items, ebs.max_items) == ("set", None, None)
    assert ebs.block.attributes["device_name"].required
    assert s.block_types["root_block_device"].max_items == 1
    assert "instance_type" in s.names() and "ebs_block_device" in s.names()


def test_flags_sensitive_deprecated_and_nested_block_deprecation(aws: ps.ProviderSchemas) -> None:
    bucket = aws.resource("aws", "aws_s3_bucket")
    assert bucket is not None
    assert bucket.attributes["acl"].deprecated
    assert not bucket.attributes["bucket"].deprecated
    assert bucket.block_types["website"].block.deprecated
    db = aws.resource("aws", "aws_db_instance")
    assert db is not None and db.attributes["password"].sensitive
    ami = aws.data_source("aws", "aws_ami")
    assert ami is not None and ami.attributes["owners"].required and ami.attributes["owners"].type == "list(string)"


def test_random_and_local() -> None:
    schemas = ps.combine(ps.load(RANDOM), ps.load(LOCAL))
    assert set(schemas.providers()) == {"registry.terraform.io/hashicorp/random", "registry.terraform.io/hashicorp/local"}
    pw = schemas.resource("random", "random_password")
    assert pw is not None and pw.version == 3
    assert pw.attributes["length"].required and pw.attributes["length"].type == "number"
    assert pw.attributes["result"].sensitive and pw.attributes["result"].computed_only
    assert pw.attributes["keepers"].type == "map(string)"
    assert pw.attributes["length"].description.startswith("The length of the string desired.")
    assert schemas.data_source_types("local") == ("local_file", "local_sensitive_file")
    assert schemas.resource_types("random") == (
        "random_id", "random_integer", "random_password", "random_pet", "random_shuffle", "random_string", "random_uuid",
    )


def test_opentofu_nested_type_attribute() -> None:
    tofu = ps.load(TOFU_TEST)
    assert tofu.providers() == ("registry.opentofu.org/hashicorp/test",)
    s = tofu.resource("registry.opentofu.org/hashicorp/test", "test_instance")
    assert s is not None
    volumes = s.attributes["volumes"]
    assert volumes.nested is not None and volumes.cty is None
    assert volumes.nested.nesting == "list"
    assert set(volumes.nested.attributes) == {"size", "mount_point"}
    assert volumes.nested.attributes["size"].required
    assert volumes.type == "list(object({size = string, mount_point = string}))"
    # The provider's own configuration block.
    cfg = tofu.provider_config("registry.opentofu.org/hashicorp/test")
    assert cfg is not None and cfg.attributes["region"].optional
    # Terraform's default registry finds the same provider (one of the two default registries).
    assert tofu.resource("hashicorp/test", "test_instance") is s or tofu.resource("hashicorp/test", "test_instance") is not None


@pytest.mark.parametrize(
    ("source", "engine", "expected"),
    [
        ("aws", ps.TERRAFORM, "registry.terraform.io/hashicorp/aws"),
        ("hashicorp/aws", ps.TERRAFORM, "registry.terraform.io/hashicorp/aws"),
        ("registry.terraform.io/hashicorp/aws", ps.TERRAFORM, "registry.terraform.io/hashicorp/aws"),
        ("Registry.Terraform.IO/HashiCorp/AWS", ps.TERRAFORM, "registry.terraform.io/hashicorp/aws"),
        ("hashicorp/aws", ps.OPENTOFU, "registry.opentofu.org/hashicorp/aws"),
        ("registry.opentofu.org/hashicorp/aws", ps.TERRAFORM, "registry.opentofu.org/hashicorp/aws"),
        ("example.com/acme/thing", ps.TERRAFORM, "example.com/acme/thing"),
        ("terraform", ps.TERRAFORM, ps.BUILTIN_TERRAFORM),
    ],
)
def test_normalize_address(source: str, engine: str, expected: str) -> None:
    assert ps.normalize_address(source, engine) == expected


@pytest.mark.parametrize("bad", ["", "a//b", "a/b/c/d", "  "])
def test_normalize_rejects_malformed(bad: str) -> None:
    with pytest.raises(ValueError):
        ps.normalize_address(bad)


def test_provider_for_follows_terraform() -> None:
    rp = {"aws": {"source": "hashicorp/aws", "version": "~> 4.0"}, "mycloud": "acme/mycloud", "google": "hashicorp/google-beta"}
    assert ps.provider_for("aws_instance") == "registry.terraform.io/hashicorp/aws"
    assert ps.provider_for("aws_instance", engine=ps.OPENTOFU) == "registry.opentofu.org/hashicorp/aws"
    assert ps.provider_for("mycloud_server", None, rp) == "registry.terraform.io/acme/mycloud"
    assert ps.provider_for("mycloud_server", None, rp, ps.OPENTOFU) == "registry.opentofu.org/acme/mycloud"
    # The `provider` meta-argument's local name wins over the type's prefix.
    assert ps.provider_for("google_compute_instance", "google.west", rp) == "registry.terraform.io/hashicorp/google-beta"
    assert ps.provider_for("aws_instance", "mycloud", rp) == "registry.terraform.io/acme/mycloud"
    assert ps.provider_for("aws_instance", "${aws.east}", rp) == "registry.terraform.io/hashicorp/aws"
    # Only the part before the first underscore; undeclared local names are implied hashicorp/<name>.
    assert ps.provider_for("azurerm_resource_group") == "registry.terraform.io/hashicorp/azurerm"
    assert ps.provider_for("terraform_data") == ps.BUILTIN_TERRAFORM
    assert ps.provider_for("null_resource", None, {"null": {"version": "3.1.1"}}) == "registry.terraform.io/hashicorp/null"


def test_lookup_across_the_default_registries(aws: ps.ProviderSchemas) -> None:
    assert aws.has_provider("registry.opentofu.org/hashicorp/aws")
    assert aws.resource("registry.opentofu.org/hashicorp/aws", "aws_instance") is not None
    assert not aws.has_provider("example.com/hashicorp/aws")


@pytest.mark.parametrize(
    "text",
    ["", "[]", "{", '{"provider_schemas": {"a": {"resource_schemas": {"x": }}}}', '{"format_version": "1.0"} x'],
)
def test_malformed_files_raise(text: str) -> None:
    with pytest.raises(ps.ProviderSchemaError):
        ps.loads(text)


def test_a_type_of_an_unknown_kind_reads_as_any() -> None:
    text = json.dumps(
        {
            "format_version": "1.0",
            "provider_schemas": {
                "hashicorp/x": {
                    "resource_schemas": {"x_a": {"block": {"attributes": {"t": {"type": ["nonsense"]}}}}},
                    "data_source_schemas": {},
                }
            },
        }
    )
    s = ps.loads(text)
    assert s.providers() == ("registry.terraform.io/hashicorp/x",)
    a = s.resource("x", "x_a")
    assert a is not None and a.attributes["t"].type == "any" and set(a.attributes) == {"t"} and not a.block_types
    assert s.data_source_types("x") == ()


def test_empty_provider_schemas() -> None:
    s = ps.loads('{"format_version": "1.0", "provider_schemas": {}}')
    assert s.providers() == () and s.resource("aws", "aws_instance") is None and s.resource_types("aws") == ()
    assert ps.loads('{"format_version":"1.0"}').providers() == ()
