"""Deterministic CDKTF-like `cdk.tf.json` documents of a requested size, for benchmarks.

`make(size_bytes)` returns JSON text (indent 2, as `cdktf synth` writes it) with `"//"` metadata,
providers, variables, locals, many resources with nested blocks, `${...}` references, depends_on,
and outputs.
"""

from __future__ import annotations

import json


def make(size: int) -> str:
    """The first document of the series (50 more resources at a time) at least `size` characters
    long. Its length grows almost linearly with the batches, so the count is found by secant steps
    (a handful of serialisations) instead of serialising after every batch (minutes at 20 MB)."""
    lengths: dict[int, int] = {}

    def length(n: int) -> int:
        if n not in lengths:
            lengths[n] = len(_document(n))
        return lengths[n]

    a, b = 1, 2
    if length(a) >= size:
        return _document(a)
    while not (length(b) >= size and b == a + 1):  # always length(a) < size
        la, lb = length(a), length(b)
        step = -(-(size - la) * (b - a) // max(1, lb - la))  # where the line through a and b reaches `size`
        if lb < size:  # beyond b
            a, b = b, max(b + 1, a + step)
        else:  # between a and b
            middle = min(b - 1, max(a + 1, a + step))
            a, b = (a, middle) if length(middle) >= size else (middle, b)
    return _document(b)


def _document(batches: int) -> str:
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
    for i in range(50 * batches):
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
    return json.dumps(doc, indent=2, ensure_ascii=False)


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
