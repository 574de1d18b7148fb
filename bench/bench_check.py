"""`hcljson-ls check` on a monorepo: 2,000 small modules, `--jobs 1` against `--jobs 2`, in one run.

Run: python bench/bench_check.py                 (2,000 modules, 5 runs of each)
     python bench/bench_check.py --modules 200 --repeat 1    (a quick look)

The monorepo (a real temp directory): `MODULES` directories `stacks/sNNNN/`, each a module of four
files that refer to each other (`variables.tf.json` declares, `locals.tf.json` and `main.tf.json`
refer to variables, locals and resources of the other files, `outputs.tf.json` to the resources);
every 10th module refers to a variable no file declares (`reference/undeclared`) and every 25th
declares a variable twice across files (`structure/duplicate-block`), so there is output to write.

Each run is the real command in a subprocess (`python -m hcljson_ls check ROOT --jobs N`), timed
from start to exit (wall clock: start-up, walking, checking, writing); its CPU time (user + system,
workers included) is printed too: on a machine busy with other work the wall-clock ratio falls,
while the CPU times still show what the pool costs. The `--jobs 1` and `--jobs 2`
runs alternate; per N the median is reported, with files per second, and the speed-up is the median
of the ratios of each pair of runs (so a slower spell of a shared machine hits both sides of a pair);
the ratio of the fastest runs is printed beside it. The outputs of the two must
be identical (the exit status too). Target: `--jobs 2` at least 1.7x faster than `--jobs 1` on two
cores (PASS/FAIL printed; the exit status of this script is 1 on FAIL or on differing outputs).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 1.7
FILES_PER_MODULE = 4


def write_module(directory: Path, i: int) -> None:
    directory.mkdir(parents=True)
    variables = {f"name_{j}": {"type": "string", "default": f"m{i}-{j}", "description": f"Name {j}."} for j in range(4)}
    variables["cidr"] = {"type": "string", "default": "10.0.0.0/16"}
    (directory / "variables.tf.json").write_text(json.dumps({"variable": variables}, indent=2))
    local_values = {f"label_{j}": f"${{var.name_{j}}}-${{var.environment}}" for j in range(4)}
    (directory / "locals.tf.json").write_text(json.dumps({"locals": local_values}, indent=2))
    main: dict = {
        "variable": {"environment": {"type": "string", "default": "dev"}},
        "resource": {
            "aws_vpc": {"this": {"cidr_block": "${var.cidr}", "tags": {"Name": "${local.label_0}"}}},
            "aws_subnet": {
                f"s{j}": {"vpc_id": "${aws_vpc.this.id}", "cidr_block": f"${{cidrsubnet(var.cidr, 8, {j})}}",
                          "tags": {"Name": f"${{local.label_{j}}}"}}
                for j in range(4)
            },
        },
    }
    if i % 10 == 0:
        main["resource"]["aws_vpc"]["this"]["tags"]["Zone"] = "${var.zone}"  # declared nowhere
    if i % 25 == 0:
        main["variable"]["cidr"] = {"type": "string"}  # also in variables.tf.json
    (directory / "main.tf.json").write_text(json.dumps(main, indent=2))
    outputs = {f"subnet_{j}": {"value": f"${{aws_subnet.s{j}.id}}"} for j in range(4)}
    outputs["vpc"] = {"value": "${aws_vpc.this.id}", "description": "The VPC."}
    (directory / "outputs.tf.json").write_text(json.dumps({"output": outputs}, indent=2))


def write_monorepo(root: Path, modules: int) -> None:
    for i in range(modules):
        write_module(root / "stacks" / f"s{i:04d}", i)


def run(root: Path, jobs: int) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall-clock seconds, CPU seconds (user + system, the command and its workers), the result."""
    command = [sys.executable, "-m", "hcljson_ls", "check", str(root), "--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, encoding="utf-8", stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="hcljson-bench-check-"))
    try:
        write_monorepo(root, args.modules)
        files = args.modules * FILES_PER_MODULE
        print(f"{args.modules} modules, {files} files; {len(os.sched_getaffinity(0))} CPUs available; "
              f"{args.repeat} runs of each, alternating")
        times: dict[int, list[float]] = {1: [], 2: []}
        cpu: dict[int, list[float]] = {1: [], 2: []}
        outputs: dict[int, tuple[int, str]] = {}
        for _ in range(args.repeat):
            for jobs in (1, 2):
                elapsed, used, result = run(root, jobs)
                times[jobs].append(elapsed)
                cpu[jobs].append(used)
                if result.returncode not in (0, 1):
                    print(result.stderr, file=sys.stderr)
                    return 2
                outputs[jobs] = (result.returncode, result.stdout)
        same = outputs[1] == outputs[2]
        lines = outputs[1][1].count("\n")
        for jobs in (1, 2):
            median = statistics.median(times[jobs])
            print(f"--jobs {jobs}: {median:6.2f} s median ({', '.join(f'{t:.2f}' for t in times[jobs])}), "
                  f"{files / median:7.0f} files/s, {statistics.median(cpu[jobs]):6.2f} s CPU (all processes)")
        pairs = [one / two for one, two in zip(times[1], times[2])]
        ratio = statistics.median(pairs)
        verdict = "PASS" if ratio >= TARGET else "FAIL"
        print(f"speed-up --jobs 2 / --jobs 1: {ratio:.2f}x median of the pairs ({', '.join(f'{p:.2f}' for p in pairs)}); "
              f"fastest runs: {min(times[1]) / min(times[2]):.2f}x (target >= {TARGET}x): {verdict}")
        print(f"outputs identical: {same} ({lines} lines, exit status {outputs[1][0]})")
        return 0 if same and ratio >= TARGET else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
