"""Validating resource and data source bodies against real provider schemas
(`terraform.provider_rules`), over configuration decoded by the real analysis."""

from __future__ import annotations

import json

import pytest
import shared_data
from internals import materialize, validate_block

from hcljson_ls.diagnostic import Diagnostic
from hcljson_ls.hcljson.model import Block
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.rules import provider_rules as pr
from hcljson_ls.terraform.schemas import provider_schema as ps

AWS, RANDOM, LOCAL, TOFU_TEST = shared_data.AWS_SCHEMA, shared_data.RANDOM_SCHEMA, shared_data.LOCAL_SCHEMA, shared_data.TOFU_TEST_SCHEMA

shared_data.require(AWS, RANDOM, LOCAL, TOFU_TEST)

SCHEMAS = ps.combine(ps.load(AWS), ps.load(RANDOM), ps.load(LOCAL), ps.load(TOFU_TEST))


def blocks(text: str) -> tuple[Block, ...]:
    result = analyze_file(text, parse(text).root, "main.tf.json")
    return materialize(result.body).blocks


def check(config: object, **kw) -> tuple[str, list[Diagnostic]]:
    text = json.dumps(config, indent=2)
    diags: list[Diagnostic] = []
    for b in blocks(text):
        diags.extend(validate_block(b, SCHEMAS, text, **kw))
    return text, diags


def found(config: object, **kw) -> list[tuple[str, str]]:
    """(code, text of the range) of every diagnostic."""
    text, diags = check(config, **kw)
    return [(d.code, text[d.start : d.end]) for d in diags]


def resource(type_name: str, body: object, name: str = "x") -> dict:
    return {"resource": {type_name: {name: body}}}


def test_a_valid_aws_instance_reports_nothing() -> None:
    body = {
        "ami": "ami-123",
        "instance_type": "t3.micro",
        "count": 2,
        "provider": "aws.west",
        "depends_on": ["aws_vpc.main"],
        "//": "a comment",
        "tags": {"Name": "web", "Env": "${var.env}"},
        "vpc_security_group_ids": ["sg-1", "${aws_security_group.a.id}"],
        "ebs_block_device": [{"device_name": "/dev/sdb", "volume_size": 10}, {"device_name": "/dev/sdc", "volume_size": "20"}],
        "root_block_device": {"volume_size": 8, "encrypted": "true"},
        "credit_specification": None,
        "user_data": "${file(\"init.sh\")}",
        "cpu_core_count": "${var.cores}",
        "monitoring": True,
        "lifecycle": {"create_before_destroy": True, "ignore_changes": ["tags"]},
        "provisioner": {"local-exec": {"command": "echo hi"}},
        "connection": {"type": "ssh", "host": "${self.public_ip}"},
        "timeouts": {"create": "10m"},
    }
    assert found(resource("aws_instance", body)) == []


def test_unknown_argument_with_did_you_mean_and_fix() -> None:
    text, diags = check(resource("aws_instance", {"ami": "a", "instance_typo": "t3.micro"}))
    [d] = diags
    assert d.code == pr.UNKNOWN_ARGUMENT and d.severity == "error"
    assert text[d.start : d.end] == '"instance_typo"'
    assert d.summary == 'Unsupported argument "instance_typo"'
    assert 'Did you mean "instance_type"?' in d.detail
    [fix] = d.fixes
    assert (fix.start, fix.end, fix.new_text) == (d.start, d.end, '"instance_type"')
    fixed = text[: fix.start] + fix.new_text + text[fix.end :]
    assert [b for b in blocks(fixed) for _ in validate_block(b, SCHEMAS, fixed)] == []
    assert "`" not in d.message


def test_unknown_argument_without_suggestion_has_no_fix() -> None:
    _, [d] = check(resource("aws_instance", {"zzzzzz": 1}))
    assert d.code == pr.UNKNOWN_ARGUMENT and d.fixes == () and "Did you mean" not in d.detail


def test_unknown_argument_in_nested_blocks_and_dynamic_content() -> None:
    body = {
        "ebs_block_device": [{"device_name": "a", "volume_sise": 1}],
        "dynamic": {
            "network_interface": {
                "for_each": "${var.nics}",
                "content": {"device_index": 0, "network_interface_id": "eni-1", "bogus": 1},
            },
            "not_a_block": {"for_each": [], "content": {}},
        },
    }
    assert sorted(found(resource("aws_instance", body))) == [
        ("schema/unknown-argument", '"bogus"'),
        ("schema/unknown-argument", '"not_a_block"'),
        ("schema/unknown-argument", '"volume_sise"'),
    ]


def test_missing_required_argument_with_fix() -> None:
    text, diags = check({"data": {"aws_ami": {"latest": {"most_recent": True}}}})
    [d] = diags
    assert d.code == pr.MISSING_ARGUMENT and text[d.start : d.end] == "}"  # Terraform's range: the body's closing brace
    assert d.summary == 'Missing required argument "owners"'
    [fix] = d.fixes
    assert fix.new_text == '"owners": [], '
    fixed = text[: fix.start] + fix.new_text + text[fix.end :]
    json.loads(fixed)
    assert [x for b in blocks(fixed) for x in validate_block(b, SCHEMAS, fixed)] == []


def test_missing_argument_in_nested_block_and_empty_body() -> None:
    # device_name is required in ebs_block_device; the body is empty, so no comma in the fix.
    text, diags = check(resource("aws_instance", {"ebs_block_device": {}}))
    [d] = diags
    assert d.code == pr.MISSING_ARGUMENT and text[d.start : d.end] == "}"
    assert d.fixes[0].new_text == '"device_name": ""'
    assert found(resource("random_password", {})) == [("schema/missing-argument", "}")]


def test_block_counts() -> None:
    two = [{"volume_size": 8}, {"volume_size": 9}]
    assert found(resource("aws_instance", {"root_block_device": two})) == [("schema/too-many-blocks", '"root_block_device"')]
    _, [d] = check(resource("aws_instance", {"root_block_device": two}))
    assert "No more than 1" in d.detail and "there are 2" in d.detail
    # A required block (min_items 1): aws_autoscaling_policy's step adjustment isn't; use aws_lb_listener's default_action.
    listener = {"load_balancer_arn": "arn", "port": 80}
    assert found(resource("aws_lb_listener", listener)) == [("schema/too-few-blocks", "}")]  # the body's closing brace
    ok = {**listener, "default_action": {"type": "forward", "target_group_arn": "arn"}}
    assert found(resource("aws_lb_listener", ok)) == []
    # Blocks generated by dynamic are not counted.
    dyn = {**listener, "dynamic": {"default_action": {"for_each": "${var.a}", "content": {"type": "forward"}}}}
    assert found(resource("aws_lb_listener", dyn)) == []
    # null means no block.
    assert found(resource("aws_lb_listener", {**listener, "default_action": None})) == [("schema/too-few-blocks", "}")]


def test_computed_only() -> None:
    text, diags = check(resource("aws_instance", {"arn": "arn:aws:...", "private_dns": None, "id": "i-1"}))
    [d] = diags
    assert d.code == pr.COMPUTED_ONLY and text[d.start : d.end] == '"arn"'


def test_deprecated_is_a_warning() -> None:
    body = {"bucket": "b", "acl": "private", "website": {"index_document": "index.html"}}
    text, diags = check(resource("aws_s3_bucket", body))
    assert [(d.code, d.severity, text[d.start : d.end]) for d in diags] == [
        ("schema/deprecated", "warning", '"acl"'),
        ("schema/deprecated", "warning", '"website"'),
    ]
    assert found(resource("aws_s3_bucket", {"acl": None})) == []


@pytest.mark.parametrize(
    ("argument", "value", "bad"),
    [
        ("user_data", {"a": 1}, True),  # string
        ("user_data", ["a"], True),
        ("user_data", 12, False),  # a number converts to a string
        ("user_data", True, False),
        ("cpu_core_count", "abc", True),  # number
        ("cpu_core_count", "4", False),
        ("cpu_core_count", True, True),
        ("cpu_core_count", [1], True),
        ("monitoring", "yes", True),  # bool
        ("monitoring", "true", False),
        ("monitoring", 1, True),
        ("vpc_security_group_ids", "sg-1", True),  # set(string)
        ("vpc_security_group_ids", {"a": "b"}, True),
        ("vpc_security_group_ids", [{"a": "b"}], True),  # element of the set
        ("vpc_security_group_ids", ["sg-1", 2], False),
        ("tags", ["x"], True),  # map(string)
        ("tags", "x", True),
        ("tags", {"a": {"b": 1}}, True),
        ("tags", {"a": 1}, False),
        ("tags", "${var.tags}", False),  # templates are never checked
        ("tags", "%{ if true }x%{ endif }", False),
        ("vpc_security_group_ids", "${var.sgs}", False),
        ("cpu_core_count", None, False),
        ("user_data", None, False),
    ],
)
def test_wrong_kind(argument: str, value: object, bad: bool) -> None:
    got = found(resource("aws_instance", {"ami": "a", argument: value}))
    assert [c for c, _ in got] == (["schema/wrong-kind"] if bad else []), got


def test_wrong_kind_range_and_message() -> None:
    text, [d] = check(resource("aws_instance", {"tags": ["x"]}))
    assert d.code == pr.WRONG_KIND and json.loads(text[d.start : d.end]) == ["x"]
    assert d.detail == 'The argument "tags" needs a map or object (JSON object), but this is a JSON array.'


def test_unknown_resource_type_and_data_source() -> None:
    text, diags = check({"resource": {"aws_instancee": {"a": {"bogus": 1}}}, "data": {"aws_amii": {"b": {}}}})
    assert [(d.code, text[d.start : d.end]) for d in diags] == [
        ("schema/unknown-resource-type", '"aws_instancee"'),
        ("schema/unknown-resource-type", '"aws_amii"'),
    ]
    assert diags[0].fixes[0].new_text == '"aws_instance"' and 'Did you mean "aws_instance"?' in diags[0].detail
    assert diags[1].summary == 'Invalid data source "aws_amii"' and diags[1].fixes[0].new_text == '"aws_ami"'
    # aws_instance is a data source too, aws_iam_policy_document only a data source.
    assert found({"data": {"aws_iam_policy_document": {"p": {}}}}) == []
    assert [c for c, _ in found(resource("aws_iam_policy_document", {}))] == ["schema/unknown-resource-type"]


def test_no_schema_no_diagnostics() -> None:
    assert found(resource("google_compute_instance", {"bogus": 1, "name": {"a": 1}})) == []
    assert found(resource("mycloud_thing", {"bogus": 1})) == []
    # Resolution through required_providers: aws_* resources of another provider are not checked.
    assert found(resource("aws_instance", {"bogus": 1}), required_providers={"aws": "example.com/acme/aws"}) == []
    # and through the provider meta-argument's local name.
    assert found(resource("aws_instance", {"bogus": 1, "provider": "other.a"})) == []
    assert found(resource("myaws_thing", {"instance_typo": 1, "ami": "a", "provider": "aws"}), required_providers={"aws": "hashicorp/aws"}) == [
        ("schema/unknown-resource-type", '"myaws_thing"')
    ]
    # validate_resource without a schema.
    b = blocks(json.dumps(resource("aws_instance", {"bogus": 1})))[0]
    assert pr.validate_resource(b.body, None, "") == []


def test_random_provider() -> None:
    assert found(resource("random_password", {"length": 16, "special": True, "keepers": {"a": "${var.x}"}})) == []
    assert found(resource("random_password", {"length": "${var.n}", "override_special": "!@"})) == []
    assert sorted(found(resource("random_password", {"length": "sixteen", "specal": False, "result": "x"}))) == [
        ("schema/computed-only", '"result"'),
        ("schema/unknown-argument", '"specal"'),
        ("schema/wrong-kind", '"sixteen"'),
    ]
    # random_pet has no required argument.
    assert found(resource("random_pet", {"length": 2, "separator": "-"})) == []


def test_opentofu_nested_type_attributes() -> None:
    rp = {"test": {"source": "hashicorp/test"}}
    ok = {"ami": "a", "volumes": [{"size": "1G", "mount_point": "/a"}, "${var.v}", None]}
    assert found(resource("test_instance", ok), required_providers=rp, engine=ps.OPENTOFU) == []
    assert found(resource("test_instance", {"volumes": "${var.volumes}"}), engine=ps.OPENTOFU) == []
    bad = {"volumes": [{"size": "1G", "mount_pont": "/a", "//": "c"}]}
    text, diags = check(resource("test_instance", bad), engine=ps.OPENTOFU)
    assert sorted((d.code, text[d.start : d.end]) for d in diags) == [
        ("schema/missing-argument", "{"),
        ("schema/unknown-argument", '"mount_pont"'),
    ]
    unknown = next(d for d in diags if d.code == pr.UNKNOWN_ARGUMENT)
    assert unknown.fixes[0].new_text == '"mount_point"'
    missing = next(d for d in diags if d.code == pr.MISSING_ARGUMENT)
    fixed = text[: missing.fixes[0].start] + missing.fixes[0].new_text + text[missing.fixes[0].end :]
    assert json.loads(fixed)["resource"]["test_instance"]["x"]["volumes"][0]["mount_point"] == ""
    # list nesting: an object instead of an array, and an array element that is not an object.
    assert found(resource("test_instance", {"volumes": {"size": "1", "mount_point": "a"}})) == [
        ("schema/wrong-kind", '{\n          "size": "1",\n          "mount_point": "a"\n        }')
    ]
    assert [c for c, _ in found(resource("test_instance", {"volumes": [1]}))] == ["schema/wrong-kind"]
    # kinds inside the objects.
    assert [c for c, _ in found(resource("test_instance", {"volumes": [{"size": [1], "mount_point": "a"}]}))] == ["schema/wrong-kind"]


def test_validate_resource_directly_with_missing_at() -> None:
    text = json.dumps(resource("random_password", {"special": True}))
    b = blocks(text)[0]
    schema = SCHEMAS.resource("hashicorp/random", "random_password")
    [d] = pr.validate_resource(b.body, schema, text, missing_at=b.type_range)
    assert d.code == pr.MISSING_ARGUMENT and text[d.start : d.end] == '"resource"'
    assert d.detail == 'The argument "length" (type number) is required in this block, but it is not set.'


def test_array_form_bodies() -> None:
    """HCL JSON allows a block body as an array of objects; the checks see the same members."""
    text = '{"resource": {"aws_instance": {"x": [{"ami": "a"}, {"instance_typo": "t"}]}}}'
    diags = [d for b in blocks(text) for d in validate_block(b, SCHEMAS, text)]
    assert [(d.code, text[d.start : d.end]) for d in diags] == [("schema/unknown-argument", '"instance_typo"')]


def test_synthetic_map_and_group_blocks_and_nested_map_attributes() -> None:
    """Nesting modes the real files lack: map blocks (one label), group blocks (never counted),
    a map-nested attribute type, and bounds on a list block."""
    doc = {
        "format_version": "1.0",
        "provider_schemas": {
            "registry.terraform.io/acme/x": {
                "resource_schemas": {
                    "x_thing": {
                        "version": 0,
                        "block": {
                            "attributes": {
                                "name": {"type": "string", "required": True},
                                "ports": {
                                    "nested_type": {
                                        "nesting_mode": "map",
                                        "attributes": {"number": {"type": "number", "required": True}},
                                    },
                                    "optional": True,
                                },
                            },
                            "block_types": {
                                "rule": {
                                    "nesting_mode": "map",
                                    "block": {"attributes": {"action": {"type": "string", "required": True}}},
                                },
                                "settings": {"nesting_mode": "group", "block": {"attributes": {"a": {"type": "bool", "optional": True}}}},
                                "step": {
                                    "nesting_mode": "list",
                                    "min_items": 1,
                                    "max_items": 2,
                                    "block": {"attributes": {"n": {"type": "number", "optional": True}}},
                                },
                            },
                        },
                    }
                },
            }
        },
    }
    schemas = ps.loads(json.dumps(doc))
    rp = {"x": "acme/x"}

    def got(body: object) -> list[tuple[str, str]]:
        text = json.dumps(resource("x_thing", body), indent=1)
        return sorted((d.code, text[d.start : d.end]) for b in blocks(text) for d in validate_block(b, schemas, text, rp))

    ok = {
        "name": "n",
        "ports": {"http": {"number": 80}, "https": {"number": "${var.p}"}},
        "rule": {"allow": {"action": "ACCEPT"}, "deny": {"action": "DROP"}},
        "settings": {"a": True},
        "step": [{"n": 1}],
    }
    assert got(ok) == []
    assert got({**ok, "rule": {"allow": {"acton": "ACCEPT"}}}) == [
        ("schema/missing-argument", "}"),
        ("schema/unknown-argument", '"acton"'),
    ]
    assert got({**ok, "ports": {"http": {"numbr": 80}}}) == [
        ("schema/missing-argument", "{"),  # a nested attribute's object: not a block body
        ("schema/unknown-argument", '"numbr"'),
    ]
    assert got({**ok, "ports": [{"number": 1}]})[0][0] == "schema/wrong-kind"
    assert got({**ok, "step": [{}, {}, {}]}) == [("schema/too-many-blocks", '"step"')]
    no_step = {k: v for k, v in ok.items() if k != "step"}
    assert got(no_step) == [("schema/too-few-blocks", "}")]
    assert got({**ok, "settings": {"b": 1}}) == [("schema/unknown-argument", '"b"')]


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ("tags", []),
        ("tagz", [("schema/unknown-ignored-attribute", "tagz")]),
        # A name of Unicode letters is an identifier to Terraform, which reports it like any other
        # ("Unsupported attribute", checked with Terraform 1.11.4 on terraform_data).
        ("étiquettes", [("schema/unknown-ignored-attribute", "étiquettes")]),
        ("x²", []),  # no identifier: Terraform's traversal parser rejects it, not this rule
    ],
)
def test_ignore_changes_names_are_identifiers_of_the_catalogue(element: str, expected: list) -> None:
    config = resource("aws_instance", {"ami": "a", "instance_type": "t3.micro", "lifecycle": {"ignore_changes": [element]}})
    text = json.dumps(config, ensure_ascii=False)  # the letters themselves, not `\u` escapes
    diags = [d for b in blocks(text) for d in validate_block(b, SCHEMAS, text)]
    assert [(d.code, text[d.start : d.end]) for d in diags if d.code == "schema/unknown-ignored-attribute"] == expected
