"""The quick open (`terraform.quick`) with provider schemas in use: wherever it answers, its
diagnostics and definitions are exactly the full path's, schema checks included; and it does answer
(the bulk of a regular document's resources certified, not analysed).

Each document is written to a module directory on disk and opened in a real `Workspace` with the
real AWS 4.13 schema (`providerSchemas.files`): `state.quick()` there is compared with a second,
fresh `Workspace` whose state is prepared first (`state.prepare()`: the tree and the analysis, so
`internals.file_diagnostics` takes the full path). The documents are real AWS resources,
valid ones and ones mutated to get every `schema/...` code, and a property over random mutations."""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

import pytest
from fixture import lsp_range
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from internals import file_diagnostics
from shared_data import (
    AWS_SCHEMA,
    LOCAL_SCHEMA,
    RANDOM_SCHEMA,
    REAL_CORPUS,
    TOFU_TEST_SCHEMA,
    require,
)

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.terraform.schemas import provider_schema as ps
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import module_key, uri_of_path

require(AWS_SCHEMA, RANDOM_SCHEMA, LOCAL_SCHEMA, TOFU_TEST_SCHEMA, REAL_CORPUS)

SCHEMAS = (AWS_SCHEMA,)
RULE = {"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["10.0.0.0/16"], "description": "https",
        "ipv6_cidr_blocks": [], "prefix_list_ids": [], "security_groups": [], "self": False}


def base() -> dict:
    """A module's main file of real AWS 4.13 resources and data sources (nothing to report)."""
    tags = {"Name": "${local.prefix}-x", "Owner": "team-\u00e9"}
    return copy.deepcopy({
        "//": {"metadata": {"stackName": "quick"}},
        "terraform": {"required_providers": {"aws": {"source": "hashicorp/aws", "version": "4.13.0"}}},
        "provider": {"aws": [{"region": "eu-west-1"}, {"alias": "west", "region": "us-west-2"}]},
        "variable": {"env": {"type": "string", "default": "dev"}, "disks": {"type": "list(number)", "default": []}},
        "locals": {"prefix": "q-${var.env}"},
        "resource": {
            "aws_instance": {
                "web": {
                    "//": {"metadata": {"path": "quick/web"}},
                    "ami": "ami-0c55b159cbfafe1f0", "instance_type": "${var.env == \"prod\" ? \"m5.large\" : \"t3.micro\"}",
                    "count": 2, "subnet_id": "${aws_subnet.a.id}", "vpc_security_group_ids": ["${aws_security_group.sg.id}"],
                    "monitoring": True, "ebs_optimized": "true", "user_data": "#!/bin/sh\necho hi\n", "tags": tags,
                    "root_block_device": {"volume_size": 20, "volume_type": "gp3", "encrypted": True},
                    "ebs_block_device": [{"device_name": "/dev/sdf", "volume_size": "100", "delete_on_termination": True}],
                    "metadata_options": [{"http_tokens": "required", "http_endpoint": "enabled"}],
                    "timeouts": {"create": "10m"},
                    "depends_on": ["aws_security_group.sg"], "lifecycle": {"ignore_changes": ["tags"]},
                },
            },
            "aws_security_group": {
                "sg": {"name": "${local.prefix}-sg", "vpc_id": "${aws_vpc.main.id}", "tags": tags,
                       "ingress": [RULE, {**RULE, "from_port": 22, "to_port": 22}],
                       "egress": [{**RULE, "from_port": 0, "to_port": 0, "protocol": "-1", "cidr_blocks": ["0.0.0.0/0"]}],
                       "lifecycle": {"create_before_destroy": True}},
            },
            "aws_vpc": {"main": {"cidr_block": "10.0.0.0/16", "enable_dns_hostnames": True, "tags": tags}},
            "aws_subnet": {"a": {"vpc_id": "${aws_vpc.main.id}", "cidr_block": "10.0.1.0/24", "map_public_ip_on_launch": False}},
            "aws_iam_role": {
                "r": {"name": "role", "assume_role_policy": json.dumps({"Version": "2012-10-17", "Statement": []}),
                      "max_session_duration": 3600, "managed_policy_arns": ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
                      "inline_policy": [{"name": "p", "policy": "{}"}], "provider": "aws.west"},
            },
            "aws_lb_listener": {
                "l": {"load_balancer_arn": "arn:x", "port": 443, "protocol": "HTTPS",
                      "default_action": {"type": "forward", "target_group_arn": "arn:y"}},
            },
            "aws_autoscaling_group": {
                "g": {"max_size": 3, "min_size": 1, "desired_capacity": "${var.env == \"prod\" ? 3 : 1}",
                      "tag": [{"key": "Name", "value": "g", "propagate_at_launch": True}]},
            },
            "aws_lambda_function": {
                "f": {"function_name": "f", "role": "${aws_iam_role.r.arn}", "runtime": "python3.9", "handler": "h.h",
                      "filename": "f.zip", "environment": {"variables": {"A": "1", "B": "${var.env}"}}, "timeout": 30},
            },
            "null_resource": {"n": {"triggers": {"a": "b", "c": "${var.env}"}, "for_each": "${toset([\"a\"])}"}},
        },
        "data": {
            "aws_ami": {"ubuntu": {"most_recent": True, "owners": ["099720109477"],
                                   "filter": [{"name": "name", "values": ["ubuntu/*"]}, {"name": "virtualization-type", "values": ["hvm"]}]}},
            "aws_caller_identity": {"me": {}},
        },
        "output": {"ip": {"value": "${aws_instance.web[0].public_ip}"}},
    })


def _workspace(folder: Path, schemas) -> Workspace:
    ws = Workspace([str(folder)])
    ws.set_schema_files([str(p) for p in schemas])
    return ws


def compare(folder: Path, doc: dict | str, name: str = "main.tf.json", schemas=SCHEMAS):
    """`doc` written as `name` in module directory `folder` and opened in two fresh workspaces: the
    quick open of the first answers and equals the full path of the second (diagnostics and
    definitions). Returns (quick result, diagnostics)."""
    text = doc if isinstance(doc, str) else json.dumps(doc, indent=2, ensure_ascii=False)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    uri = uri_of_path(str(path))
    ws = _workspace(folder, schemas)
    state = ws.open(uri, text, 1, "terraform-json")
    assert ws.provider_schemas(module_key(uri)) is not None
    quick = state.quick()
    assert quick is not None, "the quick open did not answer"
    other = _workspace(folder, schemas)
    full_state = other.open(uri, text, 1, "terraform-json")
    full_state.prepare()
    assert full_state.quick() is None  # the diagnostics below come from the tree and the analysis
    full = file_diagnostics(full_state)
    assert quick.diagnostics == full, (_show(text, quick.diagnostics), _show(text, full))
    assert file_diagnostics(state) == full  # what the server answers on open: the quick result
    keys, place = quick.definitions()
    full_keys, full_place = full_state.analysis.definitions()
    assert keys == full_keys
    assert [place(i) for i in range(len(keys))] == [full_place(i) for i in range(len(keys))]
    return quick, full


def _show(text: str, diags) -> list[tuple[str, str]]:
    return [(d.code, text[d.start : d.end]) for d in diags]


def schema_codes(text_or_doc, diags) -> list[tuple[str, str]]:
    text = text_or_doc if isinstance(text_or_doc, str) else json.dumps(text_or_doc, indent=2, ensure_ascii=False)
    return [(d.code, text[d.start : d.end]) for d in diags if d.code.startswith("schema/")]


# ---- the quick open answers with schemas --------------------------------------------------------------


def test_a_valid_document_is_certified_with_the_schemas_checked(tmp_path: Path) -> None:
    doc = base()
    quick, full = compare(tmp_path, doc)
    assert full == []
    # Analysed on their own: the blocks that are not resources, data sources or outputs, and the
    # empty body of `aws_caller_identity`; every other one is certified, its schema checked.
    resources = sum(len(v) for v in doc["resource"].values()) + sum(len(v) for v in doc["data"].values())
    assert quick.certified == resources - 1 + len(doc["output"]), (quick.certified, quick.analysed)
    assert quick.certified > quick.analysed


def test_a_large_regular_document_is_certified(tmp_path: Path) -> None:
    doc = base()
    for i in range(60):
        doc["resource"]["aws_instance"][f"w{i}"] = copy.deepcopy(doc["resource"]["aws_instance"]["web"])
        doc["resource"]["aws_security_group"][f"s{i}"] = copy.deepcopy(doc["resource"]["aws_security_group"]["sg"])
    doc["resource"]["aws_instance"]["w7"]["instance_tpye"] = "t3.micro"  # one block to analyse
    quick, full = compare(tmp_path, doc)
    assert schema_codes(doc, full) == [("schema/unknown-argument", '"instance_tpye"')]
    assert quick.certified > 10 * quick.analysed, (quick.certified, quick.analysed)


def test_schemas_arriving_after_the_open_are_checked_by_the_quick_open(tmp_path: Path) -> None:
    doc = base()
    doc["resource"]["aws_vpc"]["main"]["cidr_blok"] = "x"
    text = json.dumps(doc, indent=2)
    path = tmp_path / "main.tf.json"
    path.write_text(text, encoding="utf-8")
    uri = uri_of_path(str(path))
    ws = Workspace([str(tmp_path)])
    state = ws.open(uri, text, 1, "terraform-json")
    assert state.quick() is not None
    assert schema_codes(text, file_diagnostics(state)) == []
    ws.set_schema_files([str(AWS_SCHEMA)])
    quick = state.quick()
    assert quick is not None  # answered again, with the schemas
    _, full = compare(tmp_path, text)
    assert quick.diagnostics == full == file_diagnostics(state)
    assert schema_codes(text, full) == [("schema/unknown-argument", '"cidr_blok"')]


def test_fetched_schemas_reach_a_document_whose_tree_another_request_built(tmp_path: Path) -> None:
    """The order real VS Code gives: the diagnostics of the quick open are pulled, another request
    (symbols, links) builds the tree, then the module's fetched schemas arrive. The diagnostics come
    from the analysis, schemas included, never from the quick result of before the schemas."""
    from hcljson_ls.features import diagnostics

    text = json.dumps({"resource": {"random_string": {"id": {"lenght": 8, "length": 8}}}}, indent=2)
    path = tmp_path / "main.tf.json"
    path.write_text(text, encoding="utf-8")
    uri = uri_of_path(str(path))
    ws = Workspace([str(tmp_path)])
    state = ws.open(uri, text, 1, "terraform-json")
    assert state.quick() is not None and file_diagnostics(state) == []
    _ = state.analysis  # built by another request, not by `prepare`
    ws.set_module_schemas(str(tmp_path), ps.load(RANDOM_SCHEMA))
    assert state.quick() is None
    assert schema_codes(text, file_diagnostics(state)) == [("schema/unknown-argument", '"lenght"')]
    assert diagnostics.prepare(state) is False  # nothing to disagree with


# ---- mutations: every schema code, through the blocks analysed on their own ---------------------------


def _set(path: str, value):
    def mutate(doc: dict) -> None:
        *parents, last = path.split("/")
        node = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        node[last] = value
    return mutate


def _del(path: str):
    def mutate(doc: dict) -> None:
        *parents, last = path.split("/")
        node = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        del node[last]
    return mutate


def _rename(path: str, new: str):
    def mutate(doc: dict) -> None:
        *parents, last = path.split("/")
        node = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        items = [(new if k == last else k, v) for k, v in node.items()]
        node.clear()
        node.update(items)
    return mutate


WEB = "resource/aws_instance/web"
BUCKET = {"bucket": "b", "tags": {"a": "b"}}

MUTATIONS = [
    ("unknown-argument", _set(f"{WEB}/no_such_argument", 1), "schema/unknown-argument"),
    ("misspelling", _rename(f"{WEB}/instance_type", "instance_tpye"), "schema/unknown-argument"),
    ("misspelling-in-nested-block", _set(f"{WEB}/root_block_device/volume_sise", 20), "schema/unknown-argument"),
    ("misspelling-in-object-of-an-attribute", _set("resource/aws_security_group/sg/ingress/0/from_prot", 1), None),
    ("missing-required", _del("resource/aws_subnet/a/vpc_id"), "schema/missing-argument"),
    ("missing-required-of-data", _del("data/aws_ami/ubuntu/owners"), "schema/missing-argument"),
    ("missing-required-in-nested-block", _del("resource/aws_lb_listener/l/default_action/type"), "schema/missing-argument"),
    ("missing-required-in-a-list-of-blocks", _del("resource/aws_autoscaling_group/g/tag/0/key"), "schema/missing-argument"),
    ("meta-argument-name-in-nested-block", _set(f"{WEB}/root_block_device/count", 1), "schema/unknown-argument"),
    ("lifecycle-in-nested-block", _set(f"{WEB}/metadata_options/0/lifecycle", {"prevent_destroy": True}), "schema/unknown-argument"),
    ("computed-only", _set(f"{WEB}/arn", "arn:aws:x"), "schema/computed-only"),
    ("computed-only-null", _set(f"{WEB}/arn", None), None),
    ("computed-only-in-nested-block", _set(f"{WEB}/root_block_device/volume_id", "vol-1"), "schema/computed-only"),
    ("deprecated-attribute", _set("resource/aws_s3_bucket", {"b": {**BUCKET, "acl": "private"}}), "schema/deprecated"),
    ("deprecated-and-computed-only", _set("resource/aws_s3_bucket", {"b": {**BUCKET, "website_domain": "x"}}), "schema/computed-only"),
    ("deprecated-block", _set("resource/aws_s3_bucket", {"b": {**BUCKET, "versioning": {"enabled": True}}}), "schema/deprecated"),
    ("deprecated-empty-block-list", _set("resource/aws_s3_bucket", {"b": {**BUCKET, "versioning": []}}), None),
    ("deprecated-null", _set("resource/aws_s3_bucket", {"b": {**BUCKET, "acl": None}}), None),
    ("wrong-kind-bool", _set(f"{WEB}/monitoring", "yes"), "schema/wrong-kind"),
    ("wrong-kind-number", _set(f"{WEB}/root_block_device/volume_size", "big"), "schema/wrong-kind"),
    ("wrong-kind-number-nan", _set(f"{WEB}/root_block_device/volume_size", "NaN"), "schema/wrong-kind"),
    ("number-as-string", _set(f"{WEB}/root_block_device/volume_size", " 1e3 "), None),
    ("bool-as-number", _set(f"{WEB}/monitoring", 1), "schema/wrong-kind"),
    ("bool-as-string-0", _set(f"{WEB}/monitoring", "0"), None),
    ("number-as-bool", _set(f"{WEB}/root_block_device/volume_size", True), "schema/wrong-kind"),
    ("string-as-object", _set(f"{WEB}/ami", {"id": "x"}), "schema/wrong-kind"),
    ("string-as-number", _set(f"{WEB}/ami", 12), None),
    ("map-as-array", _set(f"{WEB}/tags", ["a"]), "schema/wrong-kind"),
    ("map-element-object", _set(f"{WEB}/tags", {"a": {"b": "c"}}), "schema/wrong-kind"),
    ("set-as-string", _set(f"{WEB}/vpc_security_group_ids", "sg-1"), "schema/wrong-kind"),
    # (a string variable, a string template, where a set is wanted: what validate knows of the value,
    # `argument_sites`; a resource's attribute may be anything)
    ("set-as-template", _set(f"{WEB}/vpc_security_group_ids", "${var.env}"), "schema/wrong-type"),
    ("set-as-template-text", _set(f"{WEB}/vpc_security_group_ids", "sg-${var.env}"), "schema/wrong-type"),
    ("set-as-reference", _set(f"{WEB}/vpc_security_group_ids", "${aws_security_group.sg.id}"), None),
    ("set-element-array", _set(f"{WEB}/vpc_security_group_ids", [["sg-1"]]), "schema/wrong-kind"),
    ("object-field-wrong", _set("resource/aws_security_group/sg/ingress/0/from_port", "https"), "schema/wrong-kind"),
    ("object-field-null", _set("resource/aws_security_group/sg/ingress/0/from_port", None), None),
    ("object-as-string", _set("resource/aws_security_group/sg/ingress", "rules"), "schema/wrong-kind"),
    ("too-many-blocks", _set(f"{WEB}/root_block_device", [{"volume_size": 8}, {"volume_size": 9}]), "schema/too-many-blocks"),
    ("too-many-single-blocks", _set(f"{WEB}/timeouts", [{"create": "1m"}, {"create": "2m"}]), "schema/too-many-blocks"),
    ("too-few-blocks", _del("resource/aws_lb_listener/l/default_action"), "schema/too-few-blocks"),
    ("too-few-blocks-empty-list", _set("resource/aws_lb_listener/l/default_action", []), "schema/too-few-blocks"),
    ("block-as-string", _set(f"{WEB}/root_block_device", "big"), None),
    ("block-null", _set(f"{WEB}/root_block_device", None), None),
    # The string is decoded as a body without `device_name`.
    ("block-list-with-a-string", _set(f"{WEB}/ebs_block_device", [{"device_name": "/dev/sdg"}, "x"]), "schema/missing-argument"),
    ("nested-block-comment", lambda d: d["resource"]["aws_instance"]["web"]["root_block_device"].update({"//": "a note"}), None),
    ("escaped-name", _rename(f"{WEB}/instance_type", "inst\\u0061nce_type"), None),
    ("unknown-resource-type", _rename("resource/aws_instance", "aws_instanse"), "schema/unknown-resource-type"),
    ("unknown-data-source", _rename("data/aws_ami", "aws_amii"), "schema/unknown-resource-type"),
    ("unloaded-provider", _set("resource/google_compute_instance", {"x": {"anything": {"goes": 1}}}), None),
    ("null-provider-typo", _set("resource/null_resource/n/trigers", {}), "schema/unknown-argument"),
    ("dynamic-block", _set(f"{WEB}/dynamic", {"ebs_block_device": {"for_each": "${var.disks}",
                                                                  "content": {"device_name": "/dev/x", "volume_sise": 1}}}),
     "schema/unknown-argument"),
    ("provider-meta-argument-alias", _set(f"{WEB}/provider", "aws.west"), None),
    ("provider-meta-argument-unloaded", _set(f"{WEB}/provider", "google.x"), None),
    ("provider-meta-argument-unloaded-typo", lambda d: (_set(f"{WEB}/provider", "google")(d), _set(f"{WEB}/amii", 1)(d)), None),
    ("provider-meta-argument-unknown-type", lambda d: _set("resource/mycloud_thing", {"x": {"provider": "aws", "a": 1}})(d),
     "schema/unknown-resource-type"),
    ("provider-meta-argument-template", lambda d: (_set(f"{WEB}/provider", "${aws.west}")(d), _set(f"{WEB}/amii", 1)(d)),
     "schema/unknown-argument"),
    ("required-providers-other-source", _set("terraform/required_providers/aws", {"source": "example.com/acme/aws"}), None),
    ("required-providers-other-source-typo", lambda d: (
        _set("terraform/required_providers/aws", {"source": "example.com/acme/aws"})(d), _set(f"{WEB}/amii", 1)(d)), None),
    ("required-providers-local-name", lambda d: (
        _set("terraform/required_providers/mycloud", {"source": "hashicorp/aws"})(d),
        _set("resource/mycloud_instance", {"x": {"ami": "a"}})(d),
        _set("resource/aws_vpc/main/provider", "mycloud")(d)), "schema/unknown-resource-type"),
    ("required-providers-bare-version", _set("terraform/required_providers/aws", "4.13.0"), None),
    ("data-lifecycle-of-a-resource", _set("data/aws_ami/ubuntu/lifecycle", {"create_before_destroy": True}), None),
    ("data-lifecycle-postcondition", _set("data/aws_ami/ubuntu/lifecycle", {"postcondition": {"condition": "${true}", "error_message": "x"}}), None),
    ("count-and-for-each", _set(f"{WEB}/for_each", "${toset([])}"), None),
    ("resource-as-array-of-bodies", _set("resource/aws_vpc/main", [{"cidr_block": "10.0.0.0/16"}, {"cidr_blok": "x"}]),
     "schema/unknown-argument"),
    ("duplicate-argument", lambda d: None, None),  # replaced below by text
    ("repeated-resource", lambda d: None, None),
]


@pytest.mark.parametrize("mutate,code", [pytest.param(m, c, id=i) for i, m, c in MUTATIONS
                                         if i not in ("duplicate-argument", "repeated-resource")])
def test_mutated_documents(tmp_path: Path, mutate, code) -> None:
    doc = base()
    mutate(doc)
    text = json.dumps(doc, indent=2, ensure_ascii=False).replace("inst\\\\u0061nce_type", "inst\\u0061nce_type")
    quick, full = compare(tmp_path, text)
    codes = {c for c, _ in schema_codes(text, full)}
    if code is not None:
        assert code in codes, schema_codes(text, full)
    else:  # nothing to report against the schema (perhaps other diagnostics)
        assert codes == set(), schema_codes(text, full)
    # The rest of the document is still certified.
    assert quick.certified > quick.analysed, (quick.certified, quick.analysed)


def test_argument_values_converted_to_their_schema_types(tmp_path: Path) -> None:
    # `argument_sites`: a value of one interpolation is an error when what validate knows of it (the
    # variable's type, a literal local, a constant) cannot convert to the schema's type. The quick open
    # certifies such blocks and places the site's diagnostics by key, on the whole string.
    doc = base()
    web = doc["resource"]["aws_instance"]["web"]
    web["subnet_id"] = "${var.disks}"  # list(number) to a string
    web["availability_zone"] = "${[1]}"
    web["key_name"] = "${var.env}"  # fine
    doc["resource"]["aws_vpc"]["main"]["cidr_block"] = "${var.disks}"
    doc["resource"]["aws_vpc"]["main"]["enable_dns_hostnames"] = "${var.env}"  # a string may be "true"
    doc["resource"]["aws_autoscaling_group"]["g"]["max_size"] = "${var.disks[0]}"  # fine
    quick, full = compare(tmp_path, doc)
    assert schema_codes(doc, full) == [("schema/wrong-type", '"${var.disks}"'), ("schema/wrong-type", '"${[1]}"'),
                                       ("schema/wrong-type", '"${var.disks}"')]
    assert quick.certified > quick.analysed
    # The same string as two arguments of one block: the block is analysed (a key's diagnostics go
    # to each place its string is written), and the answer is the same.
    web["private_ip"] = "${var.disks}"
    quick, full = compare(tmp_path, doc)
    assert [c for c, _ in schema_codes(doc, full)].count("schema/wrong-type") == 4


def test_references_to_attributes_the_schemas_lack(tmp_path: Path) -> None:
    # Terraform's static check of references (as for the built-in provider's resources): the first
    # name after a resource or data source address must be an argument, block or attribute of its
    # schema, with "Did you mean".
    doc = base()
    doc["output"]["ip"]["value"] = "${aws_instance.web[0].publc_ip}"
    doc["output"]["ami"] = {"value": "${data.aws_ami.ubuntu.idd}"}
    doc["output"]["fine"] = {"value": "${aws_vpc.main.cidr_block} ${aws_instance.web[0].root_block_device}"}
    quick, full = compare(tmp_path, doc)
    found = [(d.code, d.detail) for d in full]
    assert found == [
        ("expression/unsupported-attribute",
         'This object has no argument, nested block, or exported attribute named "publc_ip". Did you mean "public_ip"?'),
        ("expression/unsupported-attribute",
         'This object has no argument, nested block, or exported attribute named "idd". Did you mean "id"?'),
    ]
    assert quick.certified > quick.analysed
    # A resource of the module using another provider whose schema is not loaded (`awsx`, another
    # source) may be the one referred to: nothing is said of aws_* attributes then.
    doc["terraform"]["required_providers"]["awsx"] = {"source": "example.com/a/aws"}
    doc["resource"]["aws_instance"]["other"] = {"provider": "awsx", "ami": "x"}
    _, full = compare(tmp_path, doc)
    assert [d.code for d in full if d.code == "expression/unsupported-attribute"] == []


def test_a_provider_used_in_another_file_unsettles_the_schema(tmp_path: Path) -> None:
    # The same, the other provider's resource written into another open file of the module: the
    # analysed document's references are resolved again (its `PROVIDER_USE` fact reaches them).
    doc = base()
    doc["output"]["ip"]["value"] = "${aws_instance.web[0].publc_ip}"
    doc["terraform"]["required_providers"]["awsx"] = {"source": "example.com/a/aws"}
    text = json.dumps(doc, indent=2)
    (tmp_path / "main.tf.json").write_text(text, encoding="utf-8")
    before = '{"locals": {"x": 1}}'
    (tmp_path / "other.tf.json").write_text(before, encoding="utf-8")
    ws = _workspace(tmp_path, SCHEMAS)
    uri, other = uri_of_path(str(tmp_path / "main.tf.json")), uri_of_path(str(tmp_path / "other.tf.json"))
    ws.open(uri, text, 1, "terraform-json").prepare()  # (the analysis, resolved again incrementally)
    ws.open(other, before, 1, "terraform-json")
    codes = lambda: [d.code for d in collect(ws.snapshot(), uri) if d.code == "expression/unsupported-attribute"]  # noqa: E731
    assert codes() == ["expression/unsupported-attribute"]
    after = json.dumps({"resource": {"aws_instance": {"other": {"provider": "awsx", "ami": "x"}}}})
    ws.change(other, 2, [{"range": lsp_range(before, 0, len(before)), "text": after}], "utf-32")
    assert codes() == []


def test_duplicate_arguments_and_repeated_blocks(tmp_path: Path) -> None:
    text = json.dumps(base(), indent=2)
    text = text.replace('"monitoring": true,', '"monitoring": true, "monitoring": "maybe",', 1)
    text = text.replace('"aws_vpc": {', '"aws_vpc": {"main": {"cidr_blok": 1},', 1)
    _, full = compare(tmp_path, text)
    assert ("schema/unknown-argument", '"cidr_blok"') in schema_codes(text, full)
    # Terraform: "Duplicate argument" on the second (its value is not read further).
    second = text.index('"monitoring": "maybe"')
    assert [(d.start, d.end) for d in full if d.code == "structure/duplicate-argument"] == [(second, second + len('"monitoring"'))]


def test_provider_blocks_are_checked_when_a_resource_uses_their_configuration(tmp_path: Path) -> None:
    """A `provider` block's body against its provider's configuration schema, as `terraform validate`
    reads it: only a configuration some resource or data source of the module uses (tests/conformance:
    Terraform's verdicts), no argument required (`none_required`)."""
    doc = base()
    default, west = doc["provider"]["aws"]
    default["regoin"] = "x"  # used: every aws resource without a `provider`
    west["assume_role"] = {"role_arn": "arn:aws:iam::1:role/r", "session_nmae": "s"}  # used: the IAM role
    doc["provider"]["aws"].append({"alias": "east", "profiel": "p"})  # used by nothing: not read
    del default["region"]  # required by nothing here, as in Terraform's validate
    quick, full = compare(tmp_path, doc)
    assert schema_codes(doc, full) == [("schema/unknown-argument", '"regoin"'), ("schema/unknown-argument", '"session_nmae"')]
    assert quick.certified > quick.analysed
    # Once a resource uses "aws.east", its block is read too.
    doc["resource"]["aws_vpc"]["main"]["provider"] = "aws.east"
    _, full = compare(tmp_path, doc)
    assert ("schema/unknown-argument", '"profiel"') in schema_codes(doc, full)


def test_after_a_syntax_error(tmp_path: Path) -> None:
    doc = base()
    doc["resource"]["aws_vpc"]["main"]["cidr_blok"] = "x"  # reported, in a block before the error
    doc["data"]["aws_ami"]["ubuntu"]["most_recnt"] = True  # and in the rest of the text, after it
    text = json.dumps(doc, indent=2)
    broken = text.replace('"runtime": "python3.9",', '"runtime": "python3.9" "oops",', 1)
    assert broken != text
    quick, full = compare(tmp_path, broken)
    assert any(d.code.startswith("syntax/") for d in full)
    assert ("schema/unknown-argument", '"cidr_blok"') in schema_codes(broken, full)
    assert ("schema/unknown-argument", '"most_recnt"') in schema_codes(broken, full)
    assert quick.certified > 0


def test_required_providers_in_other_files_of_the_module(tmp_path: Path) -> None:
    doc = base()
    del doc["terraform"]
    doc["resource"]["aws_vpc"]["main"]["cidr_blok"] = "x"
    doc["resource"]["mycloud_instance"] = {"m": {"amii": "x"}}
    # JSON: the aws resources belong to a provider whose schema is not loaded (nothing reported).
    other = tmp_path / "json"
    other.mkdir()
    (other / "versions.tf.json").write_text(json.dumps({"terraform": {"required_providers": {
        "aws": {"source": "example.com/acme/aws"}}}}), encoding="utf-8")
    _, full = compare(other, doc)
    assert ("schema/unknown-argument", '"cidr_blok"') not in schema_codes(doc, full)
    # Native: `mycloud` is the AWS provider under another local name.
    native = tmp_path / "native"
    native.mkdir()
    (native / "versions.tf").write_text(
        'terraform {\n  required_providers {\n    mycloud = {\n      source = "hashicorp/aws"\n    }\n  }\n}\n', encoding="utf-8")
    _, full = compare(native, doc)
    codes = schema_codes(doc, full)
    assert ("schema/unknown-argument", '"cidr_blok"') in codes
    assert ("schema/unknown-resource-type", '"mycloud_instance"') in codes


def test_opentofu_module(tmp_path: Path) -> None:
    doc = base()
    doc["resource"]["aws_vpc"]["main"]["cidr_blok"] = "x"
    quick, full = compare(tmp_path, doc, name="main.tofu.json")
    assert ("schema/unknown-argument", '"cidr_blok"') in schema_codes(doc, full)
    assert quick.certified > quick.analysed


def test_nested_attribute_types_of_protocol_6(tmp_path: Path) -> None:
    """OpenTofu's test provider: `nested_type` attributes are left to the full path."""
    schema = ps.load(TOFU_TEST_SCHEMA).resource("registry.opentofu.org/hashicorp/test", "test_instance")
    assert schema is not None
    nested = [n for n, a in schema.attributes.items() if a.nested is not None and not a.computed_only]
    assert nested
    plain = [n for n, a in schema.attributes.items() if a.nested is None and a.optional and a.cty == "string"]
    docs = {
        "nested-ok": {n: ({} if schema.attributes[n].nested.nesting in ("single", "map") else []) for n in nested[:1]},
        "nested-unknown": {nested[0]: [{"no_such": 1}] if schema.attributes[nested[0]].nested.nesting not in ("single", "map") else {"no_such": 1}},
        "plain": {n: "x" for n in plain[:2]},
        "typo": {"no_such_argument": "x"},
    }
    doc = {"terraform": {"required_providers": {"test": {"source": "hashicorp/test"}}},
           "resource": {"test_instance": docs}}
    compare(tmp_path, doc, name="main.tofu.json", schemas=(TOFU_TEST_SCHEMA,))


# ---- shapes the AWS schema lacks: a schema file of our own -------------------------------------------------

_V = {"type": "string", "optional": True}
DEMO_SCHEMA = {"format_version": "1.0", "provider_schemas": {"registry.terraform.io/hashicorp/demo": {
    "provider": {"version": 0, "block": {}},
    "resource_schemas": {
        "demo_thing": {"version": 0, "block": {
            "attributes": {
                "name": {"type": "string", "required": True}, "size": {"type": "number", "optional": True},
                "flag": {"type": "bool", "optional": True}, "pair": {"type": ["tuple", ["string", "number"]], "optional": True},
                "obj": {"type": ["object", {"a": "string", "b": ["list", "number"], "c": ["object", {"d": "bool"}]}], "optional": True},
                "any": {"type": "dynamic", "optional": True}, "maps": {"type": ["set", ["map", "string"]], "optional": True},
                "id": {"type": "string", "computed": True}, "old": {"type": "string", "optional": True, "deprecated": True},
            },
            "block_types": {
                "by_key": {"nesting_mode": "map", "block": {"attributes": {"v": _V}}},
                "grp": {"nesting_mode": "group", "block": {"attributes": {"v": _V}}},
                "one": {"nesting_mode": "single", "block": {"attributes": {"v": {"type": "string", "required": True}}}},
                "many": {"nesting_mode": "list", "min_items": 1, "max_items": 2, "block": {"attributes": {"v": _V}}},
            },
        }},
        # A required attribute with a meta-argument's name: always missing from a resource body.
        "demo_meta": {"version": 0, "block": {"attributes": {"count": {"type": "number", "required": True}}}},
    },
    "data_source_schemas": {},
}}}
_THING = {"name": "n", "many": {"v": "x"}}


# (body of `demo_thing.a`, whether the quick open certifies it rather than analysing it)
DEMO_BODIES = [
    (_THING, True),
    ({**_THING, "size": "12", "flag": "1", "pair": ["a", 1], "obj": {"a": 1, "b": [1, "2"], "c": {"d": True}, "z": 1},
      "any": {"k": [1, {}]}, "maps": [{"a": "b"}], "old": None, "id": None}, True),
    ({**_THING, "pair": ["a", "b"]}, False),
    ({**_THING, "pair": [{}, 1, "extra"]}, False),
    ({**_THING, "obj": {"c": {"d": "maybe"}}}, False),
    ({**_THING, "obj": {"b": "${var.x}"}}, True),
    ({**_THING, "obj": {"b": ["x"]}}, False),
    ({**_THING, "maps": [{"a": []}]}, False),
    ({**_THING, "maps": {"a": "b"}}, False),
    ({**_THING, "by_key": {"k1": {"v": "x"}, "k2": {"w": 1}}}, False),
    ({**_THING, "by_key": {"k1": {"v": "x"}}}, False),  # map-nested: left to the full path
    ({**_THING, "grp": {"v": "x"}}, True),
    ({**_THING, "grp": [{"v": "x"}, {"v": "y"}]}, True),
    ({**_THING, "grp": {"w": "x"}}, False),
    ({**_THING, "one": {"v": "x"}}, True),
    ({**_THING, "one": {}}, False),
    ({**_THING, "one": [{"v": "x"}, {"v": "y"}]}, False),
    ({**_THING, "many": [{"v": "x"}, {"v": "y"}, {"v": "z"}]}, False),
    ({**_THING, "many": []}, False),
    ({"name": "n"}, False),
    ({**_THING, "old": "x"}, False),
    ({**_THING, "id": "x"}, False),
    ({**_THING, "size": "${var.x}", "flag": "%{if true}true%{endif}"}, True),
]


@pytest.mark.parametrize("body,certified", DEMO_BODIES, ids=[json.dumps(b)[:60] for b, _ in DEMO_BODIES])
def test_shapes_of_a_schema_of_our_own(tmp_path: Path, body: dict, certified: bool) -> None:
    schema_file = tmp_path / "demo.schemas.json"
    schema_file.write_text(json.dumps(DEMO_SCHEMA), encoding="utf-8")
    module = tmp_path / "m"
    module.mkdir()
    doc = {"variable": {"x": {}}, "resource": {"demo_thing": {"a": body, "b": _THING}, "demo_meta": {"c": {"count": 1}}}}
    quick, full = compare(module, doc, schemas=(schema_file,))
    assert ("schema/missing-argument", '}') in schema_codes(doc, full)  # `count` is the meta-argument; Terraform's range: the body's `}`
    assert quick.certified == 1 + certified  # `b`, and `a` when it is certified


# ---- the real corpus -----------------------------------------------------------------------------------


def test_every_real_file_with_the_real_schemas(tmp_path: Path) -> None:
    """Each real corpus file alone in a module (a `.tofu.json` one read by OpenTofu) with the AWS,
    random and local schemas: wherever the quick open answers, it is the full path."""
    schemas = (AWS_SCHEMA, RANDOM_SCHEMA, LOCAL_SCHEMA)
    quick_side, full_side = _workspace(tmp_path, schemas), _workspace(tmp_path, schemas)
    answered = reported = certified = 0
    for n, p in enumerate(sorted(p for p in REAL_CORPUS.iterdir() if p.name.endswith(".json"))):
        text = p.read_text(encoding="utf-8", errors="surrogatepass")
        module = tmp_path / f"m{n}"
        module.mkdir()
        path = module / ("main.tofu.json" if ".tofu." in p.name else "main.tf.json")
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        uri = uri_of_path(str(path))
        quick = quick_side.open(uri, text, 1, "terraform-json").quick()
        if quick is None:
            continue
        answered += 1
        state = full_side.open(uri, text, 1, "terraform-json")
        state.prepare()
        full = file_diagnostics(state)
        assert quick.diagnostics == full, p.name
        keys, place = quick.definitions()
        full_keys, full_place = state.analysis.definitions()
        assert keys == full_keys, p.name
        assert [place(i) for i in range(len(keys))] == [full_place(i) for i in range(len(keys))], p.name
        reported += any(d.code.startswith("schema/") for d in full)
        certified += quick.certified
    # Most real files are answered; some have schema diagnostics (tests/terraform/test_provider_schema_corpus.py
    # says which and why: their blocks are analysed, ~100 of them deprecated `aws_s3_bucket_object.bucket`);
    # the rest of the resources are certified with their schemas.
    assert answered >= 75 and reported >= 5 and certified >= 120, (answered, reported, certified)


# ---- a property over mutated documents ------------------------------------------------------------------


# Names to set: real ones of several kinds (configurable, computed only, deprecated, block types),
# misspellings, unknown ones; values of every JSON kind.
NAMES = ["ami", "instance_type", "arn", "monitoring", "tags", "root_block_device", "ebs_block_device", "timeouts",
         "vpc_id", "cidr_block", "acl", "versioning", "name", "ingress", "egress", "default_action", "tag", "owners",
         "filter", "most_recent", "triggers", "environment", "variables", "volume_size", "volume_id", "encrypted",
         "instance_tpye", "vpc_idd", "no_such", "//", "dynamic", "provider", "count", "max_size", "policy", "description"]
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(
        ["x", "20", "true", "0", "nan", " 1.5 ", "${var.env}", "${local.prefix}-a", "aws.west", "google", "%{if true}a%{endif}",
         "${var.disks}", "${var.disks[0]}", "${[1]}"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(NAMES), inner, max_size=3)),
    max_leaves=6,
)


def _bodies(doc: dict) -> list[tuple]:
    """Every resource and data body of `doc` and every object inside one, as (container, key or index)."""
    out: list[tuple] = []
    stack: list = [named for kind in ("resource", "data") for named in doc.get(kind, {}).values()]
    while stack:
        node = stack.pop()
        for k, v in (node.items() if isinstance(node, dict) else enumerate(node)):
            if isinstance(v, dict):
                out.append((node, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return out


@st.composite
def mutated(draw) -> dict:
    doc = base()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["set", "del", "rename", "type", "provider", "wrap"]))
        if op == "type":
            kind = draw(st.sampled_from(["resource", "data"]))
            rtype = draw(st.sampled_from(sorted(doc[kind])))
            new = draw(st.sampled_from(["aws_instanse", "aws_vpc", "mycloud_vpc", "null_resource", "aws_s3_bucket"]))
            if new not in doc[kind]:
                doc[kind][new] = doc[kind].pop(rtype)
            continue
        if op == "provider":
            doc["terraform"]["required_providers"] = draw(st.sampled_from([
                {"aws": {"source": "hashicorp/aws"}}, {"aws": {"source": "example.com/a/aws"}},
                {"mycloud": {"source": "hashicorp/aws"}}, {"aws": "4.13.0"}, {}]))
            continue
        bodies = _bodies(doc)
        parent, key = draw(st.sampled_from(bodies))
        body = parent[key]
        if op == "set":
            body[draw(st.sampled_from(NAMES))] = draw(VALUES)
        elif op == "del" and body:
            del body[draw(st.sampled_from(sorted(body)))]
        elif op == "rename" and body:
            old = draw(st.sampled_from(sorted(body)))
            body[old[:-1] + "_"] = body.pop(old)
        elif op == "wrap":
            parent[key] = [body, copy.deepcopy(body)] if draw(st.booleans()) else [body]
    return doc


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_property_mutated_aws_documents(doc: dict) -> None:
    with tempfile.TemporaryDirectory() as folder:
        text = json.dumps(doc, indent=1, ensure_ascii=False)
        compare(Path(folder), text)
