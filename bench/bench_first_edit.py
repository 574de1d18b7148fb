"""The first edit after a quick open, before the tree is built, in-process: CPU time of this thread
for the edit and the document's diagnostics (`features.diagnostics.collect`, as the server answers
a pull), on generated CDKTF-like documents.

Run: python bench/bench_first_edit.py [--sizes 5MB,5MB-undeclared,20MB] [--repeat 3] [--show 1000]

For each document (`cdktf_doc.make`; "-undeclared": `cdktf_doc.with_undeclared`, 24,750
`reference/undeclared` at 5 MB), medians of `--repeat` fresh workspaces: the open's diagnostics (the
quick open), then one character inserted in a string in the middle (`"ami-...`, as `bench/peer.py`
edits: no diagnostic changes) and the diagnostics again, then the same character deleted (the
second edit, which finishes the build as before). `--show` is `diagnostics.maxPerCode` (0: all).
The same script runs against any tree (`PYTHONPATH`), so before and after can alternate in one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cdktf_doc

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.lsp.server import tune_gc
from hcljson_ls.workspace import Workspace

URI = "file:///bench/stack/cdk.tf.json"
SIZES = {"5MB": 5_000_000, "20MB": 20_000_000, "500KB": 500_000}
CACHE = Path("/tmp/hcljson-bench-docs")


def document(size: str) -> str:
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"{size}.json"
    if path.exists():
        return path.read_text(encoding="utf-8")
    text = cdktf_doc.make(SIZES[size.split("-")[0]])
    if size.endswith("-undeclared"):
        text = cdktf_doc.with_undeclared(text)
    path.write_text(text, encoding="utf-8")
    return text


def _cpu(fn) -> float:
    with paused_gc():
        start = time.thread_time()
        fn()
        return time.thread_time() - start


def measure(text: str, show: int) -> dict[str, float]:
    ws = Workspace()
    state = ws.open(URI, text, 1, "terraform-json")
    out = {"open": _cpu(lambda: collect(ws.snapshot(), URI, max_per_code=show))}
    at = text.index('"ami-', len(text) // 2) + 1
    line, character = state.line_index.position(at, "utf-16")
    where = {"line": line, "character": character}

    def edit(version: int, change: dict) -> None:
        state.apply_changes([change], "utf-16", version)
        collect(ws.snapshot(), URI, max_per_code=show)

    out["first edit"] = _cpu(lambda: edit(2, {"range": {"start": where, "end": where}, "text": "x"}))
    out["built after it"] = float(state.built)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="5MB,5MB-undeclared")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--show", type=int, default=1000)
    args = parser.parse_args()
    tune_gc()
    import hcljson_ls

    print(f"tree: {Path(hcljson_ls.__file__).parent}", flush=True)
    for size in args.sizes.split(","):
        text = document(size)
        runs = [measure(text, args.show) for _ in range(args.repeat)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"| {size} | open {med['open'] * 1000:.0f} ms | first edit {med['first edit'] * 1000:.0f} ms "
              f"({med['first edit'] / med['open']:.2f}x the open) | built: {bool(med['built after it'])} |", flush=True)


if __name__ == "__main__":
    main()
