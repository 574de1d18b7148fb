"""Decoding speed on a CDKTF-like document, relative to the JSON parse of the same text.

Run: python tests/hcljson/hcljson_bench.py [size_in_bytes]   (default 5 MB)
Prints the best-of-3 parse time, the decode time (decode + structural diagnostics with the
Terraform schema), their ratio (target: at most 2), and the median time of an incremental
decode after a one-character edit in the middle of the document (`hcljson.incremental`).
`make_cdktf` and `best_of` are also used by tests/hcljson/test_hcljson_speed.py. Every timed call
runs inside `gcpolicy.paused_gc()`, as the server runs its work (the core layers never touch the
garbage collector; pausing it is the edge's policy).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time


def make_cdktf(size: int, seed: int = 1) -> str:
    """A `cdk.tf.json`-shaped document of about `size` characters (indent 2, like `cdktf synth`)."""
    rnd = random.Random(seed)
    resources: dict = {}
    total = 0
    i = 0
    types = ["aws_instance", "aws_s3_bucket", "aws_iam_role", "aws_security_group", "aws_lambda_function"]
    while total < size:
        t = types[i % len(types)]
        name = f"res_{i}_{rnd.randrange(10**6):06d}"
        body = {
            "//": {"metadata": {"path": f"stack/{t}/{name}", "uniqueId": name}},
            "ami": f"ami-{i:08x}",
            "instance_type": "t3.micro",
            "tags": {"Name": f"${{var.prefix}}-{i}", "Env": "prod", "Index": str(i)},
            "depends_on": [f"aws_iam_role.res_{max(0, i - 5)}"],
            "ingress": [{"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["0.0.0.0/0"]}] * 2,
            "lifecycle": {"ignore_changes": ["tags"], "create_before_destroy": True},
            "policy": json.dumps({"Version": "2012-10-17", "Statement": [
                {"Effect": "Allow", "Action": ["s3:GetObject"], "Resource": f"arn:aws:s3:::b{i}/*"}]}),
            "count": "${var.enabled ? 1 : 0}",
        }
        resources.setdefault(t, {})[name] = body
        total += len(json.dumps(body, indent=2)) + 4 * len(body) + len(name) + 12
        i += 1
    doc = {
        "//": {"metadata": {"version": "0.20.0", "stackName": "bench"}},
        "terraform": {"required_providers": {"aws": {"source": "hashicorp/aws", "version": "~> 5.0"}}},
        "provider": {"aws": [{"region": "us-east-1"}]},
        "variable": {"prefix": {"type": "string", "default": "x"}, "enabled": {"type": "bool", "default": True}},
        "resource": resources,
        "output": {"n": {"value": "${length(aws_instance.res_0)}"}},
    }
    return json.dumps(doc, indent=2)


def best_of(fn, repeat: int = 3):
    """The best time of `repeat` calls of `fn`, each inside `paused_gc()`, and the last result."""
    from hcljson_ls.gcpolicy import paused_gc

    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        with paused_gc():
            result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main(size: int) -> None:
    from hcljson_ls.gcpolicy import paused_gc
    from hcljson_ls.hcljson.decode import decode_file
    from hcljson_ls.hcljson.incremental import IncrementalFile
    from hcljson_ls.jsonsyntax import parse
    from hcljson_ls.jsonsyntax.reparse import reparse
    from hcljson_ls.terraform.definition.schema import CONFIG_SCHEMA
    from hcljson_ls.text.document import Edit

    text = make_cdktf(size)
    t_parse, tree = best_of(lambda: parse(text))
    t_decode, (body, diags) = best_of(lambda: decode_file(text, tree.root, CONFIG_SCHEMA))
    print(f"{len(text) / 1e6:.1f} MB, {len(body.blocks)} top-level blocks, {len(diags)} diagnostics")
    print(f"parse {t_parse:.3f} s, decode {t_decode:.3f} s, decode/parse {t_decode / t_parse:.2f} (target <= 2)")
    engine = IncrementalFile(CONFIG_SCHEMA)
    engine.update(text, tree.root)
    engine.hits = engine.misses = 0
    times = []
    for k in range(9):
        at = text.index('"t3.micro"', len(text) // 2 + 997 * k) + 2
        new = text[:at] + "x" + text[at:]
        edit = Edit(at, at, at + 1)
        with paused_gc():
            tree = reparse(tree, new, edit)
        engine.note_edit(edit)
        text = new
        t0 = time.perf_counter()
        with paused_gc():
            engine.update(text, tree.root)
        times.append(time.perf_counter() - t0)
    print(f"after a one-character edit: update {statistics.median(times) * 1000:.2f} ms (median), "
          f"{engine.misses / len(times):.0f} block(s) decoded again, {engine.fast} of {len(times)} by the fast path")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5_000_000)
