"""Provider schemas: what loading the AWS schema and validating against it cost (issue 12, "Speed and memory").

Run: python bench/bench_schemas.py            (documents of 50 KB and 5 MB)
     python bench/bench_schemas.py --quick    (50 KB and 500 KB, fewer repetitions)
     python bench/bench_schemas.py --schema PATH   (another schema file; default: the AWS 4.13 one of
                                                    the test data, tests/data/provider-schemas, unpacked)

Every figure is a ratio to a reference measured in the same run; the script prints the figure, the
reference, the target and PASS/FAIL, and exits with status 1 when a target is missed.

1. load   `provider_schema.load(path)` + the first lookup (`aws_instance`), each in a fresh
          `ProviderSchemas`, vs `json.loads` of the same file's text (medians); and the first open
          of a small `.tf.json` using `aws_instance` through a fresh `Workspace` with
          `set_schema_files` (this includes the load) vs the same open without schemas.
          Target: first open with schemas <= 3x `json.loads` of the schema file.
2. memory RSS growth of a fresh interpreter across load + first lookup (`/proc/self/statm`
          resident pages, after the imports), vs the file's size.
          Target: < 2.5x the file's size.
3. open   open -> all diagnostics of a generated document of real AWS resources (`make_aws`:
          `aws_instance`, `aws_s3_bucket`, `aws_security_group` with `ingress`/`egress`,
          `aws_iam_role`, `aws_subnet`, arguments and nested blocks that exist in AWS 4.13) with the
          schemas vs without, both through the quick open (`terraform.quick`: what the server
          answers an open with; the script checks that it did answer, with the schemas too). The
          full open with the schemas (`state.prepare()` first: the tree and the analysis, as
          `bench_open.py`'s "full open") is printed for reference, and its diagnostics must be the
          quick open's. The schema file is loaded before the clock starts (that is figure 1); the
          resource types' schemas are parsed inside it (a fresh `ProviderSchemas` per open).
          Target at the largest size: quick open with / without schemas <= 1.2x.
4. edit   a one-character edit inside a resource body (alternately inserting and deleting a
          character in an `aws_instance`'s `ami`, edits in a row, as `bench_open.py` measures its
          edit figure) + all diagnostics, on the largest document with schemas vs the same edit
          on the 50 KB document (without schemas: the stricter reference; the ratio to the 50 KB
          edit with schemas is printed too). Target: <= 2x.

The generated documents are checked to be validated for real: every resource block's type is in the
schema and the diagnostics with the schemas are the same as without (no schema diagnostic at all).
Each timed piece of work runs inside `gcpolicy.paused_gc()`, as the server runs it, under the server's
GC thresholds; opens start with the template layer's content caches cleared (`bench_open.py`'s rule);
times are medians of process CPU time.
"""

from __future__ import annotations

import gzip
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_open
from bench_open import (
    Editor,
    clear_content_caches,
    edit_point,
    first_use,
    in_a_row,
    paused,
)

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.terraform.schemas import provider_schema
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import module_key

REPO = Path(__file__).resolve().parents[1]
SCHEMA_NAME = "aws-4.13.0_null-3.1.1.terraform-1.2.schemas.json"
AWS = "registry.terraform.io/hashicorp/aws"
URI = "file:///bench/main.tf.json"
SMALL_URI = "file:///bench/small.tf.json"
#: The first open's document (figure 1): one instance, as a user's first file might be.
SMALL = json.dumps({"resource": {"aws_instance": {"web": {
    "ami": "ami-0c55b159cbfafe1f0", "instance_type": "t3.micro", "tags": {"Name": "web"}}}}}, indent=2)

LOAD_TARGET = 3.0
RSS_TARGET = 2.5
OPEN_TARGET = 1.2
EDIT_TARGET = 2.0


def default_schema_file() -> Path:
    """The test data's AWS schema, stored gzip-compressed: unpacked into the temporary directory."""
    packed = REPO / "tests" / "data" / "provider-schemas" / (SCHEMA_NAME + ".gz")
    target = Path(tempfile.gettempdir()) / f"hcljson-ls-bench-{SCHEMA_NAME}"
    if packed.is_file() and not target.is_file():
        target.write_bytes(gzip.decompress(packed.read_bytes()))
    return target


# ---- the generated document ---------------------------------------------------------------------------


def _resource(kind: int, i: int) -> tuple[str, dict]:
    """The `kind`-th of five resource shapes, number `i`; references point at declared resources."""
    name = f"r{i}"
    meta = {"metadata": {"path": f"bench/{name}", "uniqueId": f"{name}_{i:08X}"}}
    tags = {"Name": f"${{local.name_prefix}}-{name}", "Index": str(i), "Owner": "team-\u00e9"}
    group = f"r{i - kind + 1}"  # the security group of this round of five (kind 1)
    if kind == 0:
        return "aws_subnet", {
            "//": meta, "vpc_id": "${var.vpc_id}", "cidr_block": f"10.{i // 250 % 250}.{i % 250}.0/24",
            "availability_zone": "eu-west-1a", "map_public_ip_on_launch": False, "tags": tags,
        }
    if kind == 1:
        rule = {"from_port": 443, "to_port": 443, "protocol": "tcp", "cidr_blocks": ["10.0.0.0/16"],
                "description": "https", "ipv6_cidr_blocks": [], "prefix_list_ids": [], "security_groups": [],
                "self": False}
        return "aws_security_group", {
            "//": meta, "name": f"${{local.name_prefix}}-{name}", "description": "Managed by CDKTF",
            "vpc_id": "${var.vpc_id}", "ingress": [rule, {**rule, "from_port": 22, "to_port": 22, "description": "ssh"}],
            "egress": [{**rule, "from_port": 0, "to_port": 0, "protocol": "-1", "cidr_blocks": ["0.0.0.0/0"],
                        "description": "all"}],
            "tags": tags, "lifecycle": {"create_before_destroy": True},
        }
    if kind == 2:
        return "aws_instance", {
            "//": meta, "ami": "ami-0c55b159cbfafe1f0",
            "instance_type": "${var.environment == \"prod\" ? \"m5.large\" : \"t3.micro\"}",
            "count": 2, "subnet_id": f"${{aws_subnet.r{i - 2}.id}}",
            "vpc_security_group_ids": [f"${{aws_security_group.{group}.id}}"], "monitoring": True,
            "ebs_optimized": True, "user_data": "#!/bin/sh\necho hello\n", "tags": tags,
            "root_block_device": {"volume_size": 20, "volume_type": "gp3", "encrypted": True},
            "ebs_block_device": [{"device_name": "/dev/sdf", "volume_size": 100, "delete_on_termination": True}],
            "metadata_options": {"http_tokens": "required", "http_endpoint": "enabled"},
            "depends_on": [f"aws_security_group.{group}"],
            "lifecycle": {"ignore_changes": ["tags"]},
        }
    if kind == 3:
        return "aws_s3_bucket", {
            "//": meta, "bucket": f"${{local.name_prefix}}-{name}", "force_destroy": False, "tags": tags,
        }
    policy = {"Version": "2012-10-17", "Statement": [{"Action": "sts:AssumeRole", "Effect": "Allow",
                                                     "Principal": {"Service": "ec2.amazonaws.com"}}]}
    return "aws_iam_role", {
        "//": meta, "name": f"${{local.name_prefix}}-{name}", "path": "/",
        "assume_role_policy": json.dumps(policy), "max_session_duration": 3600,
        "managed_policy_arns": ["arn:aws:iam::aws:policy/ReadOnlyAccess"], "tags": tags,
    }


def make_aws(size: int) -> str:
    """A CDKTF-like `cdk.tf.json` of at least `size` bytes whose resources are real AWS 4.13 types
    with arguments and nested blocks the schema has (indent 2, as `cdktf synth` writes it)."""
    doc: dict = {
        "//": {"metadata": {"backend": "local", "stackName": "bench", "version": "0.20.0"}, "outputs": {}},
        "terraform": {"required_providers": {"aws": {"source": "aws", "version": "4.13.0"}},
                      "backend": {"local": {"path": "terraform.tfstate"}}},
        "provider": {"aws": [{"region": "eu-west-1"}, {"alias": "use1", "region": "us-east-1"}]},
        "variable": {"environment": {"type": "string", "default": "dev", "description": "Deployment environment"},
                     "vpc_id": {"type": "string", "description": "The VPC"}},
        "locals": {"name_prefix": "bench-${var.environment}"},
        "resource": {},
        "output": {},
    }
    count = 0
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    empty = len(text)
    while len(text) < size:
        # Whole rounds of five resources, as many as the bytes per resource so far say are missing.
        per_resource = (len(text) - empty) / count if count else 1_000
        more = max(5, -(-int((size - len(text)) / per_resource) // 5) * 5)
        for i in range(count, count + more):
            rtype, body = _resource(i % 5, i)
            doc["resource"].setdefault(rtype, {})[f"r{i}"] = body
            if i % 10 == 2:
                doc["output"][f"id_r{i}"] = {"value": f"${{{rtype}.r{i}[0].id}}"}
        count += more
        text = json.dumps(doc, indent=2, ensure_ascii=False)
    return text


# ---- measuring ---------------------------------------------------------------------------------------


def cpu(fn, before=None) -> float:
    """CPU time of `fn` inside `paused_gc()`, after `before()` and a full collection (outside the clock)."""
    if before is not None:
        before()
    return bench_open.cpu(paused(fn))


def workspace(schema_file: Path | None) -> Workspace:
    """A fresh workspace, with `schema_file` as `providerSchemas.files` if given (not loaded yet)."""
    ws = Workspace()
    if schema_file is not None:
        ws.set_schema_files([str(schema_file)])
    return ws


def open_collect(ws: Workspace, uri: str, text: str, full: bool = False) -> list:
    """Open `text` and collect its diagnostics; `full`: through the tree and the analysis (no quick open)."""
    state = ws.open(uri, text, 1, "terraform-json")
    assert state is not None
    if full:
        state.prepare()
    return collect(ws.snapshot(), uri)


def timed_open(schema_file: Path | None, uri: str, text: str, preload: bool = False, full: bool = False) -> tuple[float, list]:
    """CPU time of open -> all diagnostics of `text` in a fresh workspace (the template layer's content
    caches cleared first), and the diagnostics; `preload`: the schema file is loaded before the clock;
    `full`: the full open (`open_collect`)."""
    ws = workspace(schema_file)
    if preload:
        assert ws.provider_schemas(module_key(uri)) is not None
    diags: list = []
    return cpu(lambda: diags.extend(open_collect(ws, uri, text, full)), clear_content_caches), diags


def quick_answer(schema_file: Path, uri: str, text: str) -> tuple[int, int]:
    """(certified, analysed) blocks of the quick open of `text` with the schemas (it must answer)."""
    ws = workspace(schema_file)
    state = ws.open(uri, text, 1, "terraform-json")
    assert state is not None and ws.provider_schemas(module_key(uri)) is not None
    quick = state.quick()
    assert quick is not None, "the quick open did not answer with the schemas"
    return quick.certified, quick.analysed


def edit_time(text: str, schema_file: Path | None, edits: int) -> float:
    """Median CPU time of a one-character edit + all diagnostics, `edits` in a row (`bench_open.py`'s method)."""
    ws = workspace(schema_file)
    open_collect(ws, URI, text)
    editor = Editor(ws.get(URI), edit_point(text))

    def one_edit():
        with paused_gc():
            editor()
        with paused_gc():
            collect(ws.snapshot(), URI)

    for _ in range(4):
        one_edit()
    return in_a_row(one_edit, edits)


def measure_load(schema_file: Path, repeat: int) -> dict:
    """Figure 1: load + first lookup vs json.loads; the first open with the schema file vs without."""
    text = schema_file.read_text(encoding="utf-8")
    r: dict = {"bytes": schema_file.stat().st_size}
    loads, first = [], []
    for _ in range(repeat):  # alternately, so that both see the same machine
        loads.append(cpu(lambda: json.loads(text)))
        first.append(cpu(lambda: provider_schema.load(schema_file).resource(AWS, "aws_instance")))
    r["json.loads"], r["load"] = statistics.median(loads), statistics.median(first)
    first_use()  # the template and type parsers are built once per process
    runs = [(timed_open(schema_file, SMALL_URI, SMALL), timed_open(None, SMALL_URI, SMALL)) for _ in range(repeat)]
    r["open_with"] = statistics.median(w[0] for w, _ in runs)
    r["open_without"] = statistics.median(wo[0] for _, wo in runs)
    probe = workspace(schema_file)
    wrong = SMALL.replace('"instance_type"', '"instance_typo"')
    r["validated"] = any(d.code == "schema/unknown-argument" for d in open_collect(probe, SMALL_URI, wrong))
    r["same_diagnostics"] = runs[0][0][1] == runs[0][1][1]
    return r


_RSS_CHILD = """
import json, os, sys
from hcljson_ls.terraform.schemas import provider_schema  # noqa: E402
def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
before = resident()
schemas = provider_schema.load(sys.argv[1])
assert schemas.resource("registry.terraform.io/hashicorp/aws", "aws_instance") is not None
print(json.dumps({"growth": resident() - before}))
"""


def measure_rss(schema_file: Path, repeat: int) -> dict:
    """Figure 2: RSS growth across load + first lookup, each in a fresh interpreter (median)."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _RSS_CHILD, str(schema_file)],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out))
    return {"bytes": schema_file.stat().st_size,
            "growth": statistics.median(r["growth"] for r in runs)}


def measure_document(text: str, schema_file: Path, repeat: int, edits: int) -> dict:
    """Figures 3 and 4 for one document: open -> diagnostics and the edit, with and without schemas."""
    # Alternately, so that both see the same machine. The schema file's load is figure 1: it is
    # loaded before the clock; the resource types' schemas are parsed inside it.
    runs = [(timed_open(None, URI, text), timed_open(schema_file, URI, text, preload=True),
             timed_open(schema_file, URI, text, preload=True, full=True)) for _ in range(repeat)]
    (_, without), (_, with_schemas), (_, full) = runs[0]
    certified, analysed = quick_answer(schema_file, URI, text)
    return {
        "bytes": len(text),
        "open_without": statistics.median(wo[0] for wo, _, _ in runs),
        "open_with": statistics.median(w[0] for _, w, _ in runs),
        "full_with": statistics.median(f[0] for _, _, f in runs),
        "certified": certified,
        "analysed": analysed,
        "diagnostics": len(with_schemas),
        "same_diagnostics": with_schemas == without == full,
        "edit_without": edit_time(text, None, edits),
        "edit_with": edit_time(text, schema_file, edits),
    }


def resource_types(text: str) -> set[str]:
    return set(json.loads(text)["resource"])


# ---- the report --------------------------------------------------------------------------------------


def verdict(value: float, target: float, results: list[bool]) -> str:
    results.append(value <= target)
    return "PASS" if value <= target else "FAIL"


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    schema_file = Path(argv[argv.index("--schema") + 1]) if "--schema" in argv else default_schema_file()
    if not schema_file.is_file():
        print(f"no schema file at {schema_file} (pass --schema PATH)")
        return 2
    from hcljson_ls.lsp.server import (
        tune_gc,  # lazy: the server's GC settings, as bench_open.py measures
    )

    tune_gc()
    ok: list[bool] = []
    def ms(s: float) -> str:
        return f"{s * 1000:.1f} ms"

    def mb(b: float) -> str:
        return f"{b / 1e6:.1f} MB"

    repeat = 5 if quick else 9
    r = measure_load(schema_file, repeat)
    print(f"schema file: {schema_file.name} ({mb(r['bytes'])})")
    print()
    print("1. loading (medians; each load in a fresh ProviderSchemas / Workspace)")
    print(f"   json.loads of the file (reference)         {ms(r['json.loads']):>10}")
    ratio = r["load"] / r["json.loads"]
    print(f"   load + first lookup (aws_instance)         {ms(r['load']):>10}  {ratio:5.2f}x json.loads")
    print(f"   first open of a small file, no schemas     {ms(r['open_without']):>10}")
    ratio = r["open_with"] / r["json.loads"]
    print(f"   first open of a small file, with schemas   {ms(r['open_with']):>10}  {ratio:5.2f}x json.loads"
          f"   target <= {LOAD_TARGET}x  {verdict(ratio, LOAD_TARGET, ok)}")
    print(f"   (the schemas are applied: a typo gets schema/unknown-argument: {r['validated']}; the correct "
          f"file's diagnostics are the same as without schemas: {r['same_diagnostics']})")
    ok.append(r["validated"] and r["same_diagnostics"])

    m = measure_rss(schema_file, 3)
    print()
    print("2. memory (fresh interpreter, load + first lookup; median of 3)")
    ratio = m["growth"] / m["bytes"]
    print(f"   RSS growth {mb(m['growth'])} = {ratio:.2f}x the file's {mb(m['bytes'])}   target < {RSS_TARGET}x  "
          f"{verdict(ratio, RSS_TARGET - 1e-9, ok)}")

    sizes = [("50 KB", 50_000), ("500 KB", 500_000)] if quick else [("50 KB", 50_000), ("5 MB", 5_000_000)]
    schemas = provider_schema.load(schema_file)
    rows = []
    for label, size in sizes:
        text = make_aws(size)
        missing = [t for t in resource_types(text) if schemas.resource(AWS, t) is None]
        assert not missing, f"not in the schema: {missing}"
        big = len(text) > 1_000_000
        rows.append((label, measure_document(text, schema_file, 3 if big or quick else 7, 21 if big or quick else 41)))
    print()
    print(f"3. open -> all diagnostics of a generated document of AWS resources ({', '.join(sorted(resource_types(text)))})")
    print("   quick open (what the server answers an open with) without and with the schemas; the full open")
    print("   with the schemas (tree and analysis first) for reference")
    print(f"   {'size':>7} {'bytes':>9} {'no schemas':>11} {'with schemas':>13} {'ratio':>6} {'full, with':>11} "
          f"{'full/quick':>10} {'certified/analysed':>18} {'diagnostics':>11}  same")
    for label, d in rows:
        print(f"   {label:>7} {d['bytes']:>9} {ms(d['open_without']):>11} {ms(d['open_with']):>13} "
              f"{d['open_with'] / d['open_without']:>5.2f}x {ms(d['full_with']):>11} {d['full_with'] / d['open_with']:>9.2f}x "
              f"{d['certified']:>9}/{d['analysed']:<8} {d['diagnostics']:>11}  {d['same_diagnostics']}")
        ok.append(d["same_diagnostics"])
    label, last = rows[-1]
    ratio = last["open_with"] / last["open_without"]
    print(f"   {label}: quick open with / without schemas {ratio:.2f}x   target <= {OPEN_TARGET}x  "
          f"{verdict(ratio, OPEN_TARGET, ok)}")

    base = rows[0][1]
    print()
    print("4. one-character edit inside an aws_instance body + all diagnostics (median of edits in a row)")
    print(f"   {'size':>7} {'no schemas':>11} {'with schemas':>13}")
    for label, d in rows:
        print(f"   {label:>7} {d['edit_without'] * 1000:>8.2f} ms {d['edit_with'] * 1000:>10.2f} ms")
    ratio = last["edit_with"] / base["edit_without"]
    print(f"   {label} with schemas / {rows[0][0]} without: {ratio:.2f}x   target <= {EDIT_TARGET}x  "
          f"{verdict(ratio, EDIT_TARGET, ok)}   (/ {rows[0][0]} with schemas: "
          f"{last['edit_with'] / base['edit_with']:.2f}x)")
    print()
    print("all targets met" if all(ok) else "TARGET MISSED")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
