"""Completion latency on CDKTF-like documents: the same completion at 50 KB and 5 MB, and the p95 of
100 completions at random interpolation positions, beside `json.loads` of the document (the
reference measured in the same run).

Run: python bench/bench_completion.py            (50 KB and 5 MB)
     python bench/bench_completion.py --quick    (50 KB and 500 KB)

Each completion is asked right after a one-character edit (the document's version changed, as when a
user types), inside `paused_gc()` as the server runs it. Timings are printed only.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdktf_doc import make

from hcljson_ls.features.completion import complete
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.workspace import Workspace

URI = "file:///bench/cdk.tf.json"


def cpu(fn) -> float:
    t0 = time.process_time()
    with paused_gc():
        fn()
    return time.process_time() - t0


def measure(size: int) -> dict:
    text = make(size)
    r: dict = {"bytes": len(text)}
    r["json.loads"] = statistics.median(cpu(lambda: json.loads(text)) for _ in range(5))
    workspace = Workspace()
    state = workspace.open(URI, text, 1, "terraform-json")
    assert state is not None
    state.analysis  # the open's analysis is not what is measured here
    # One fixed place in the middle: `${var.` typed into a tag value.
    at = text.index("${local.name_prefix}", len(text) // 2) + len("${")
    line, char = state.line_index.position(at, "utf-32")
    version = [1]

    def typed(new: str, old: int = 0):
        version[0] += 1
        r_ = {"start": {"line": line, "character": char}, "end": {"line": line, "character": char + old}}
        workspace.change(URI, version[0], [{"range": r_, "text": new}], "utf-32")

    typed("var.")
    line, char = state.line_index.position(at + 4, "utf-32")  # after `${var.`

    def one():
        typed("x")  # `${var.x|local.name_prefix}`
        complete(workspace.snapshot(), URI, at + 5)
        typed("", 1)

    for _ in range(3):
        one()
    r["fixed"] = statistics.median(cpu(one) for _ in range(21))
    line, char = state.line_index.position(at, "utf-32")
    typed("", 4)
    # 100 random interpolation positions: just after `${` of a random template.
    starts = [i + 2 for i in range(len(text)) if text.startswith("${", i)]
    rng = random.Random(7)
    times = []
    for offset in rng.sample(starts, min(100, len(starts))):
        times.append(cpu(lambda: complete(workspace.snapshot(), URI, offset)))
    times.sort()
    r["p95"] = times[int(len(times) * 0.95) - 1]
    r["items"] = len(complete(workspace.snapshot(), URI, starts[0]))
    return r


def main() -> None:
    sizes = [("50 KB", 50_000), ("500 KB", 500_000)] if "--quick" in sys.argv else [("50 KB", 50_000), ("5 MB", 5_000_000)]
    results = [(label, measure(size)) for label, size in sizes]
    base = results[0][1]["fixed"]
    print("completion after `${var.` (edit + completion) and p95 of 100 completions after a random `${`")
    print(f"{'size':>7} {'json.loads':>11} {'var. completion':>16} {'ratio':>6} {'p95 (100 random)':>17} {'p95 / json.loads':>17} items")
    for label, r in results:
        print(f"{label:>7} {r['json.loads'] * 1000:>9.1f}ms {r['fixed'] * 1000:>14.2f}ms {r['fixed'] / base:>5.1f}x "
              f"{r['p95'] * 1000:>15.2f}ms {r['p95'] / r['json.loads']:>16.2f}x {r['items']}")


if __name__ == "__main__":
    main()
