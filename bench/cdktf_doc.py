"""Deterministic CDKTF-like `cdk.tf.json` documents of a requested size, for benchmarks.

`make(size_bytes)` returns JSON text (indent 2, as `cdktf synth` writes it) with `"//"` metadata,
providers, variables, locals, many resources with nested blocks, `${...}` references, depends_on,
and outputs.
"""

from __future__ import annotations

import json


def make(size: int) -> str:
    doc: dict = {
        "//": {"metadata": {"backend": "local", "stackName": "bench", "version": "0.20.0"},
               "outputs": {}},
        "terraform": {"required_providers": {"aws": {"source": "aws", "version": "5.31.0"}},
                      "backend": {"local": {"path": "terraform.tfstate"}}},
        "provider": {"aws": [{"region": "eu-west-1"}, {"alias": "use1", "region": "us-east-1"}]},
        "variable": {"environment": {"type": "string", "default": "dev", "description": "Deployment environment"}},
        "locals": {"name_prefix": "bench-${var.environment}"},
        "resource": {},
        "output": {},
    }
    resources = doc["resource"]
    i = 0
    while True:
        for _ in range(50):
            rtype = f"aws_instance_{i % 23}" if i % 3 else "aws_security_group"
            name = f"r{i}"
            body = {
                "//": {"metadata": {"path": f"bench/{name}", "uniqueId": f"{name}_{i:08X}"}},
                "ami": "ami-0c55b159cbfafe1f0",
                "instance_type": "${var.environment == \"prod\" ? \"m5.large\" : \"t3.micro\"}",
                "count": 2,
                "tags": {"Name": f"${{local.name_prefix}}-{name}", "Index": str(i), "Owner": "team-\u00e9"},
                "depends_on": [f"aws_security_group.r{max(0, i - 3) // 3 * 3}"],  # a declared group (every third)
                "ingress": [{"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["10.0.0.0/16"]}],
                "lifecycle": {"create_before_destroy": True, "ignore_changes": ["tags"]},
            }
            resources.setdefault(rtype, {})[name] = body
            if i % 10 == 0:
                doc["output"][f"id_{name}"] = {"value": f"${{{rtype}.{name}[0].id}}"}
            i += 1
        text = json.dumps(doc, indent=2, ensure_ascii=False)
        if len(text) >= size:
            return text


def with_undeclared(text: str, per_resource: int = 5) -> str:
    """`text` (a `make` document) with one more tag in every resource, a template of `per_resource`
    misspelt references (`${var.environmnt<i>_<k>}`: undeclared variables), so each resource has that
    many `reference/undeclared` diagnostics, each with a "Did you mean ...?" to find."""
    doc = json.loads(text)
    n = 0
    for objects in doc["resource"].values():
        for body in objects.values():
            body["tags"]["Refs"] = "-".join(f"${{var.environmnt{n}_{k}}}" for k in range(per_resource))
            n += 1
    return json.dumps(doc, indent=2, ensure_ascii=False)
