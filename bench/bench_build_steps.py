"""The tree and analysis built after a quick open, in steps (`DocumentState.build_steps`), against the
same build in one piece (`DocumentState.prepare`), in-process, CPU time of this thread.

Run: python bench/bench_build_steps.py [--sizes 5MB,20MB] [--repeat 3]

For each generated CDKTF-like document (`cdktf_doc.make`), medians of `--repeat` fresh documents:
* quick open      `DocumentState.open` + its diagnostics (`terraform.quick`): what the open answers with
* build, 1 piece  `prepare()` after the quick open: what the first edit or request waited for before
* build, steps    the same build run step by step to its end (the total), the number of steps, and the
                  longest step: the longest the server's event loop is held by the build (its slices
                  end after the first step past 20 ms, or at once when a message waits)
* first edit      one character inserted in a string in the middle right after the quick open, then
                  the document's diagnostics: answered by the quick path on the new text while the
                  build has not finished (what `bench/peer.py`'s "first edit" measures through the server)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cdktf_doc

from hcljson_ls.features.diagnostics import own_diagnostics
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.lsp.server import tune_gc
from hcljson_ls.workspace import Workspace

URI = "file:///bench/cdk.tf.json"
SIZES = {"500KB": 500_000, "5MB": 5_000_000, "20MB": 20_000_000}


def _cpu(fn) -> float:
    with paused_gc():
        start = time.thread_time()
        fn()
        return time.thread_time() - start


def measure(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    ws = Workspace()
    state = ws.open(URI, text, 1, "terraform-json")
    out["quick open"] = _cpu(lambda: own_diagnostics(state))
    out["build, 1 piece"] = _cpu(state.prepare)

    ws = Workspace()
    state = ws.open(URI, text, 1, "terraform-json")
    own_diagnostics(state)
    steps: list[float] = []
    with paused_gc():
        last = time.thread_time()
        for _ in state.build_steps():
            now = time.thread_time()
            steps.append(now - last)
            last = now
        steps.append(time.thread_time() - last)
        state.line_index.line_count  # what `prepare` adds (the server's last slice)
    out["build, steps"] = sum(steps)
    out["steps"] = len(steps)
    out["longest step"] = max(steps)

    ws = Workspace()
    state = ws.open(URI, text, 1, "terraform-json")
    own_diagnostics(state)
    at = text.index('"ami-', len(text) // 2) + 1
    position = state.line_index.position(at, "utf-16")
    change = {"range": {"start": dict(zip(("line", "character"), position)),
                        "end": dict(zip(("line", "character"), position))}, "text": "x"}

    def first_edit() -> None:
        state.apply_changes([change], "utf-16", 2)
        own_diagnostics(state)

    out["first edit"] = _cpu(first_edit)
    assert not state.built
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="5MB,20MB")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tune_gc()
    measure(cdktf_doc.make(50_000))  # warm-up: template parsers, caches
    print("| size | quick open | build, 1 piece | build, steps (overhead) | steps | longest step | first edit (/ 1 piece) |")
    print("|---|---|---|---|---|---|---|")
    for name in args.sizes.split(","):
        text = cdktf_doc.make(SIZES[name])
        runs = [measure(text) for _ in range(args.repeat)]
        m = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"| {name} | {m['quick open'] * 1000:.0f} ms | {m['build, 1 piece'] * 1000:.0f} ms | "
              f"{m['build, steps'] * 1000:.0f} ms ({m['build, steps'] / m['build, 1 piece']:.2f}x) | {m['steps']:.0f} | "
              f"{m['longest step'] * 1000:.1f} ms | {m['first edit'] * 1000:.0f} ms "
              f"({m['first edit'] / m['build, 1 piece']:.2f}x) |", flush=True)


if __name__ == "__main__":
    main()
