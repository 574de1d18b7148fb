"""How long a request waits while the server indexes the workspace: the real process over stdio.

Run: python bench/bench_latency.py                    (2,000 modules; hovers every 25 ms while indexing)
     python bench/bench_latency.py --modules 500 --json

A workspace of generated modules (each a `main.tf.json` and a `variables.tf`, a few dozen declarations)
is written to a temporary directory; the server (`python -m hcljson_ls --stdio --log-level info`) is
initialized on it as an editor does, and one small document is opened. From `initialized` until the
server logs that its background scan is done ("workspace scanned"), the client sends a hover on that
document every `--interval` seconds and times each answer, wall clock from the client's side (write ->
answer read). The same is then measured idle. Printed: count, median, p95 and max of each.

The promise (docs/performance.md, issue 23): p95 at most 20 ms during indexing. pygls's own reader took
115-150 ms (it read stdin a line at a time through an executor, each line waiting for a 20 ms scan
slice); `lsp.transport` reads whole messages on a thread and the scan yields as soon as one waits.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peer import Connection  # noqa: E402

TARGET_P95_MS = 20.0

VALID = '{\n  "variable": {"region": {}},\n  "output": {"o": {"value": "${var.region}"}}\n}\n'
HOVER_AT = {"line": 2, "character": VALID.splitlines()[2].index("var.region") + 5}


def write_workspace(root: Path, modules: int) -> None:
    for m in range(modules):
        d = root / f"m{m:05d}"
        d.mkdir()
        variables = {f"v{i}": {"type": "string", "default": f"x{i}"} for i in range(15)}
        body = {
            "variable": variables,
            "locals": {f"l{i}": f"${{var.v{i}}}-{m}" for i in range(15)},
            "resource": {"terraform_data": {f"r{i}": {"input": f"${{local.l{i}}}"} for i in range(10)}},
            "output": {f"o{i}": {"value": f"${{terraform_data.r{i}.output}}"} for i in range(5)},
        }
        (d / "main.tf.json").write_text(json.dumps(body, indent=2))
        (d / "variables.tf").write_text("".join(f'variable "n{i}" {{\n  type = string\n}}\n' for i in range(10)))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict:
    if not values:
        return {"count": 0}
    return {"count": len(values), "median_ms": statistics.median(values), "p95_ms": percentile(values, 0.95),
            "max_ms": max(values)}


def measure(modules: int, interval: float, idle_requests: int = 40, limit: float = 120.0) -> dict:
    with tempfile.TemporaryDirectory(prefix="hcljson-latency-") as tmp:
        root = Path(tmp)
        write_workspace(root, modules)
        env = dict(os.environ)
        conn = Connection([sys.executable, "-m", "hcljson_ls", "--stdio", "--log-level", "info"], env=env)
        try:
            conn.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {},
                                        "initializationOptions": {"providerSchemas": {"runTerraform": False}}})
            conn.notify("initialized", {})
            uri = (root / "m00000" / "open.tf.json").as_uri()
            conn.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "terraform-json",
                                                                  "version": 1, "text": VALID}})
            params = {"textDocument": {"uri": uri}, "position": HOVER_AT}

            def hover() -> float:
                started = time.perf_counter()
                answer = conn.request("textDocument/hover", params)
                assert answer.get("result"), answer
                return (time.perf_counter() - started) * 1000

            def scanned() -> bool:
                return any("workspace scanned" in line for line in conn.stderr_lines)

            indexing: list[float] = []
            deadline = time.monotonic() + limit
            while not scanned() and time.monotonic() < deadline:
                took = hover()
                if not scanned():  # answered while the scan ran
                    indexing.append(took)
                time.sleep(interval)
            idle = []
            for _ in range(idle_requests):
                idle.append(hover())
                time.sleep(interval)
            scan_line = next((line for line in conn.stderr_lines if "workspace scanned" in line), "")
        finally:
            conn.close()
    return {"modules": modules, "interval_ms": interval * 1000, "indexing": summary(indexing), "idle": summary(idle),
            "scan": scan_line.split(": ", 1)[-1]}


def table(result: dict) -> str:
    rows = ["| while | requests | median | p95 | max |", "|---|---|---|---|---|"]
    for name in ("indexing", "idle"):
        s = result[name]
        if s["count"]:
            rows.append(f"| {name} | {s['count']} | {s['median_ms']:.1f} ms | {s['p95_ms']:.1f} ms | {s['max_ms']:.1f} ms |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--interval", type=float, default=0.025, help="seconds between hovers")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = measure(args.modules, args.interval)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.modules} modules, a hover every {args.interval * 1000:.0f} ms; {result['scan']}")
        print(table(result))
        p95 = result["indexing"].get("p95_ms")
        if p95 is not None:
            print(f"p95 while indexing: {p95:.1f} ms (target {TARGET_P95_MS:.0f} ms): {'met' if p95 <= TARGET_P95_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
