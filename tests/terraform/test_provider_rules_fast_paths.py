"""The shortcuts of `terraform.provider_rules` (values that need no check, nested blocks with nothing to
report read from the JSON alone) never change what is reported: over seeded random resource bodies,
with wrong kinds, unknown and missing names, comments, templates, nulls and nested blocks of every
shape, the diagnostics are the same with the shortcuts as through the full checks."""

from __future__ import annotations

import json
import random

import pytest
import shared_data
from internals import materialize, validate_block

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file
from hcljson_ls.terraform.rules import provider_rules as pr
from hcljson_ls.terraform.schemas import provider_schema as ps

AWS = shared_data.AWS_SCHEMA
shared_data.require(AWS)

SCHEMAS = ps.load(AWS)

VALUES = [None, 0, 20, "gp3", "", "7", "${var.x}", True, [], {}, ["a", 1, None], [{}], {"a": "b"}, [None], [[1]], {"k": {}}]
NESTED = {  # nested block types of the resources below, with names their bodies have and a typo
    "root_block_device": ["volume_size", "volume_type", "encrypted", "delete_on_termination", "iops", "tags", "volume_sizx"],
    "ebs_block_device": ["device_name", "volume_size", "snapshot_id", "encrypted", "throughput", "device_nam"],
    "metadata_options": ["http_tokens", "http_endpoint", "http_put_response_hop_limit", "instance_metadata_tags"],
    "credit_specification": ["cpu_credits"],
    "ephemeral_block_device": ["device_name", "virtual_name", "no_device"],
    "versioning": ["enabled", "mfa_delete"],
    "lifecycle_rule": ["id", "prefix", "enabled", "tags", "expiration", "transition"],
    "inline_policy": ["name", "policy"],
}
TOP = {
    "aws_instance": ["ami", "instance_type", "tags", "vpc_security_group_ids", "monitoring", "cpu_core_count",
                     "root_block_device", "ebs_block_device", "metadata_options", "credit_specification",
                     "ephemeral_block_device", "arn", "instance_typo"],
    "aws_s3_bucket": ["bucket", "force_destroy", "tags", "acl", "versioning", "lifecycle_rule", "arn"],
    "aws_security_group": ["name", "ingress", "egress", "tags", "vpc_id", "timeouts"],
    "aws_iam_role": ["name", "assume_role_policy", "managed_policy_arns", "inline_policy", "max_session_duration"],
}
RULE = {"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["10.0.0.0/16"], "description": "x",
        "ipv6_cidr_blocks": [], "prefix_list_ids": [], "security_groups": [], "self": False}


def random_body(rng: random.Random, names: list[str], depth: int) -> dict:
    body: dict = {}
    for name in rng.sample(names, rng.randint(0, len(names))):
        r = rng.random()
        if name in NESTED and depth < 2:
            if r < 0.4:
                body[name] = random_body(rng, NESTED[name], depth + 1)
            elif r < 0.8:
                body[name] = [random_body(rng, NESTED[name], depth + 1) for _ in range(rng.randint(0, 3))]
            else:
                body[name] = rng.choice(VALUES)
        elif name in ("ingress", "egress"):
            body[name] = [dict(RULE, **({rng.choice(list(RULE)): rng.choice(VALUES)} if r < 0.5 else {})) for _ in range(2)]
        else:
            body[name] = rng.choice(VALUES)
    if rng.random() < 0.2:
        body["//"] = "a comment"
    if rng.random() < 0.1:
        body["dynamic"] = {"ebs_block_device": {"for_each": "${var.d}", "content": {"device_name": "x"}}}
    return body


def diagnostics(text: str) -> list:
    result = analyze_file(text, parse(text).root, "main.tf.json")
    return [d for b in materialize(result.body).blocks for d in validate_block(b, SCHEMAS, text)]


@pytest.mark.parametrize("seed", range(8))
def test_the_shortcuts_report_what_the_full_checks_report(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    config = {"resource": {t: {f"r{i}": random_body(rng, names, 0) for i in range(12)} for t, names in TOP.items()}}
    text = json.dumps(config, indent=2)
    fast = diagnostics(text)
    assert fast, "the random bodies have problems to report"
    full_plan = pr._plan
    monkeypatch.setattr(pr, "_plan", lambda schema: (*full_plan(schema)[:3], {}, {}))
    monkeypatch.setattr(pr, "_plain_blocks", lambda *_: None)
    monkeypatch.setattr(pr, "_plainly_ok", lambda *_: False)
    monkeypatch.setattr(pr, "_ALWAYS_OK", {})
    assert diagnostics(text) == fast
