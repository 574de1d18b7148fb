#!/usr/bin/env python3
"""Write the corpus's generated stand-ins into `real/` (run from anywhere; deterministic).

Some files of the original corpus could not be copied into this repository: their repositories
carry no license, a GPL or custom license, or (Terraform's newest test fixtures) BUSL-1.1. The tests
needed their *shapes*, not their bytes, so this script writes files of the same shapes, with names
and values of our own:

* CDK for Terraform synth output (`cdk.tf.json` of a stack): construct metadata on every resource,
  data source and module call, with Node stack traces recorded on a POSIX and on a Windows machine
  (frames in `node_modules`, `.gen` and Node itself before the user's `main.js`), and one large stack
  of about 100 KB;
* Terraform configuration-loader fixtures: an `import` block with `for_each` (valid, and invalid with
  `to` given as a JSON array), `lifecycle.replace_triggered_by` with an object element (invalid), and an
  `action` block with `lifecycle.action_trigger` (Terraform 1.14).

Every stand-in's row in `real/SOURCES.tsv` names this script as its origin (license: this project's,
MPL-2.0). Change the script, run it, and commit its output together.
"""

from __future__ import annotations

import json
from pathlib import Path

REAL = Path(__file__).resolve().parent / "real"
PREFIX = "generated__"

NODE_TAIL_POSIX = [
    "Module._compile (node:internal/modules/cjs/loader:1256:14)",
    "Module._extensions..js (node:internal/modules/cjs/loader:1310:10)",
    "Module.load (node:internal/modules/cjs/loader:1119:32)",
    "Module._load (node:internal/modules/cjs/loader:960:12)",
    "Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:86:12)",
    "node:internal/main/run_main_module:23:47",
]
NODE_TAIL_WINDOWS = [
    "Module._compile (internal/modules/cjs/loader.js:1063:30)",
    "Object.Module._extensions..js (internal/modules/cjs/loader.js:1092:10)",
    "Module.load (internal/modules/cjs/loader.js:928:32)",
    "Function.Module._load (internal/modules/cjs/loader.js:769:14)",
    "internal/main/run_main_module.js:17:47",
]


def _trace(root: str, sep: str, construct: str, generated: str, line: int, tail: list[str]) -> list[str]:
    def at(*parts: str) -> str:
        return root + sep + sep.join(parts)

    return [
        f"new TerraformElement ({at('node_modules', 'cdktf', 'lib', 'terraform-element.js')}:20:28)",
        f"new TerraformResource ({at('node_modules', 'cdktf', 'lib', 'terraform-resource.js')}:16:9)",
        f"new {construct} ({at('.gen', 'providers', 'aws', generated)}:14:9)",
        f"new ShopStack ({at('main.js')}:{line}:22)",
        f"Object.<anonymous> ({at('main.js')}:120:1)",
        *tail,
    ]


def _meta(stack: str, path: str, unique: str, trace: list[str] | None = None) -> dict:
    metadata: dict = {"path": f"{stack}/{path}", "uniqueId": unique}
    if trace is not None:
        metadata["stackTrace"] = trace
    return {"//": {"metadata": metadata}}


def _header(stack: str, version: str, backend: str) -> dict:
    return {"//": {"metadata": {"backend": backend, "stackName": stack, "version": version}, "outputs": {}}}


def traced_stack(stack: str, root: str, sep: str, tail: list[str]) -> dict:
    """A small stack whose every resource recorded where it was constructed."""
    doc = _header(stack, "0.20.8", "local")
    doc["provider"] = {"aws": [{"region": "eu-west-1"}]}
    resources: dict = {}
    for i, name in enumerate(("orders", "invoices", "audit")):
        unique = f"Queue_{name}_{i:02d}A1B2"
        resources.setdefault("aws_sqs_queue", {})[unique] = {
            **_meta(stack, f"Queue-{name}/Resource", unique,
                    _trace(root, sep, "SqsQueue", "sqs-queue.js", 20 + i, tail)),
            "name": f"{stack}-{name}",
            "message_retention_seconds": 86400,
            "tags": {"stack": stack},
        }
        role = f"Role_{name}_{i:02d}C3D4"
        resources.setdefault("aws_iam_role", {})[role] = {
            **_meta(stack, f"Role-{name}/Resource", role,
                    _trace(root, sep, "IamRole", "iam-role.js", 40 + i, tail)),
            "name": f"{stack}-{name}-reader",
            "assume_role_policy": '${data.aws_iam_policy_document.assume.json}',
        }
    doc["data"] = {"aws_iam_policy_document": {"assume": {
        **_meta(stack, "assume", "assume", _trace(root, sep, "DataAwsIamPolicyDocument", "data-aws-iam-policy-document.js", 12, tail)),
        "statement": [{"actions": ["sts:AssumeRole"], "principals": [{"type": "Service", "identifiers": ["lambda.amazonaws.com"]}]}],
    }}}
    doc["resource"] = resources
    doc["terraform"] = {
        "backend": {"local": {"path": f"terraform.{stack}.tfstate"}},
        "required_providers": {"aws": {"source": "aws", "version": "4.13.0"}},
    }
    return doc


def website_stack(stack: str, objects: int) -> dict:
    """A large stack: one bucket of `objects` files behind CloudFront, with an S3 backend and a module,
    written for AWS provider 6 (so against the AWS 4.13 schema of the test data it uses arguments and a
    resource type that version lacks: `region` on S3 resources, an origin access control)."""
    doc = _header(stack, "0.21.0", "s3")
    doc["provider"] = {"aws": [{"region": "us-east-1"}]}
    bucket = "WebsiteBucket_5F2A9C01"
    files = {}
    for i in range(objects):
        key = f"assets/chunk-{i:03d}.js" if i % 3 else f"pages/page-{i:03d}.html"
        unique = f"WebsiteFile_{i:03d}_{(i * 2654435761) % 0xFFFFFFFF:08X}"
        files[unique] = {
            **_meta(stack, f"WebsiteFile-{i:03d}", unique),
            "bucket": f"${{aws_s3_bucket.{bucket}.id}}",
            "key": key,
            "source": f"${{path.module}}/../../../dist/{key}",
            "etag": f'${{filemd5("${{path.module}}/../../../dist/{key}")}}',
            "content_type": "text/html" if key.endswith(".html") else "application/javascript",
            **({"region": "us-east-1"} if i % 10 == 0 else {}),
        }
    doc["resource"] = {
        "aws_s3_bucket": {bucket: {**_meta(stack, "WebsiteBucket", bucket), "bucket": f"{stack}-site", "region": "us-east-1"}},
        "aws_s3_bucket_object": files,
        "aws_s3_bucket_policy": {"Policy_3C": {**_meta(stack, "Policy", "Policy_3C"), "region": "us-east-1",
                                               "bucket": f"${{aws_s3_bucket.{bucket}.id}}", "policy": '{"Version": "2012-10-17", "Statement": []}'}},
        "aws_s3_bucket_public_access_block": {"Block_4D": {**_meta(stack, "Block", "Block_4D"), "region": "us-east-1",
                                                           "bucket": f"${{aws_s3_bucket.{bucket}.id}}", "block_public_acls": True}},
        "aws_s3_bucket_ownership_controls": {"Owner_5E": {**_meta(stack, "Owner", "Owner_5E"), "region": "us-east-1",
                                                          "bucket": f"${{aws_s3_bucket.{bucket}.id}}",
                                                          "rule": {"object_ownership": "BucketOwnerEnforced"}}},
        "aws_cloudfront_origin_access_control": {"Oac_7D1E": {
            **_meta(stack, "Oac", "Oac_7D1E"), "name": stack, "origin_access_control_origin_type": "s3",
            "signing_behavior": "always", "signing_protocol": "sigv4"}},
        "aws_cloudfront_distribution": {"Cdn_11AA": {
            **_meta(stack, "Cdn", "Cdn_11AA"),
            "enabled": True,
            "default_root_object": "pages/page-000.html",
            "origin": [{"domain_name": f"${{aws_s3_bucket.{bucket}.bucket_regional_domain_name}}", "origin_id": "site",
                        "origin_access_control_id": "${aws_cloudfront_origin_access_control.Oac_7D1E.id}"}],
            "default_cache_behavior": {"allowed_methods": ["GET", "HEAD"], "cached_methods": ["GET", "HEAD"],
                                       "target_origin_id": "site", "viewer_protocol_policy": "redirect-to-https",
                                       "forwarded_values": {"query_string": False, "cookies": {"forward": "none"}}},
            "restrictions": {"geo_restriction": {"restriction_type": "none"}},
            "viewer_certificate": {"cloudfront_default_certificate": True},
        }},
    }
    doc["module"] = {"dns": {**_meta(stack, "dns", "dns"), "source": "./modules/dns", "zone": f"{stack}.example"}}
    doc["output"] = {"cdn_domain": {"value": "${aws_cloudfront_distribution.Cdn_11AA.domain_name}"}}
    doc["terraform"] = {
        "backend": {"s3": {"bucket": "shop-terraform-state", "key": f"{stack}.tfstate", "region": "us-east-1"}},
        "required_providers": {"aws": {"source": "aws", "version": "6.0.0"}},
    }
    return doc


IMPORT_VALID = {
    "import": {"for_each": '["blue", "green"]', "to": "aws_s3_bucket.pool[each.value]", "id": "pool-${each.value}"},
    "resource": {"aws_s3_bucket": {"pool": {"for_each": {"blue": "blue", "green": "green"}}}},
}
IMPORT_TO_ARRAY = {
    "import": {"for_each": '["blue", "green"]', "to": ["aws_s3_bucket.pool[oops]"], "id": "pool-${each.value}"},
    "resource": {"aws_s3_bucket": {"pool": {"for_each": {"blue": "blue", "green": "green"}}}},
}
REPLACE_TRIGGERED_BY_OBJECT = {"resource": {"terraform_data": {
    "source": {"count": 1, "input": "v1"},
    "copy": {"count": 1, "lifecycle": {"replace_triggered_by": [{"terraform_data.source[count.index].input": "no"}]}},
}}}
ACTIONS = {
    "action": {"local_command": {"notify": {}}},
    "resource": {"terraform_data": {
        "source": {"count": 1, "input": "v1"},
        "copy": {"count": 1, "lifecycle": {
            "replace_triggered_by": ["terraform_data.source[count.index].input"],
            "action_trigger": {"events": ["after_create"], "actions": ["action.local_command.notify"]},
        }},
    }},
}

#: file name (without PREFIX) -> (document, indent, SOURCES notes)
STAND_INS = {
    "cdktf.out__stacks__shop-dev__cdk.tf.json": (
        traced_stack("shop-dev", "/home/dev/shop", "/", NODE_TAIL_POSIX), 2,
        "generated stand-in: CDKTF synth output, stack traces recorded on POSIX"),
    "cdktf.out__stacks__shop-win__cdk.tf.json": (
        traced_stack("shop-win", "C:\\Users\\dev\\shop", "\\", NODE_TAIL_WINDOWS), 2,
        "generated stand-in: CDKTF synth output, stack traces recorded on Windows"),
    "cdktf.out__stacks__website__cdk.tf.json": (
        website_stack("website", 110), 2,
        "generated stand-in: LARGE CDKTF synth output (~60KB) for AWS provider 6: 110 aws_s3_bucket_object, cloudfront, s3 backend, module"),
    "configs__valid-files__import-for-each.tf.json": (
        IMPORT_VALID, 2, "generated stand-in, terraform loader fixture shape: valid import block with for_each and a to address string"),
    "configs__invalid-files__import-to-array.tf.json": (
        IMPORT_TO_ARRAY, 2, "generated stand-in, terraform loader fixture shape, expected to error: import.to is a JSON array instead of an address string"),
    "configs__invalid-files__replace-triggered-by-object.tf.json": (
        REPLACE_TRIGGERED_BY_OBJECT, 2, "generated stand-in, terraform loader fixture shape, expected to error: lifecycle.replace_triggered_by element is a JSON object instead of a reference string"),
    "configs__valid-files__actions.tf.json": (
        ACTIONS, 4, "generated stand-in, terraform loader fixture shape: action block + lifecycle.action_trigger + replace_triggered_by (TF 1.14 actions)"),
}


def render(document: dict, indent: int) -> str:
    return json.dumps(document, indent=indent, ensure_ascii=False) + "\n"


def main() -> None:
    for name, (document, indent, _notes) in STAND_INS.items():
        (REAL / (PREFIX + name)).write_text(render(document, indent), encoding="utf-8")


if __name__ == "__main__":
    main()
