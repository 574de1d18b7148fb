"""Undeclared references cost about what resolvable ones do (issue: hostile input, "undeclared references are
quadratic").

Run: python bench/bench_undeclared.py [SIZE_MB]     (default 16)

Two CDKTF-like documents of the same size (`cdktf_doc.make`) that differ in one reference per resource:

* resolvable  every resource refers to a declared resource (`${aws_instance_3.r12.id}`), a declared
              variable or a declared local, in turn;
* undeclared  the same references misspelt (`r12x`, `environmnt`, `name_prefx`): one undeclared reference
              per resource (18,500 at 16 MB), each with a "Did you mean ...?" suggestion to find among
              thousands of declared names.

For each it prints the process CPU time of what the server does (medians of 3, fresh workspace, content
caches cleared, the cyclic GC paused as the server pauses it):

* open      `Workspace.open` + `features.diagnostics.collect`: the diagnostics the open publishes, all
            of them (no `diagnostics.maxPerCode` collapse), each message and quick fix read (the
            "Did you mean ...?" is worked out when a diagnostic is read: `diagnostic.Deferred`)
* prepare   `DocumentState.prepare`: the tree and the analysis built next, which the next request waits for
* total     both

and the ratio undeclared / resolvable per row. Target: total <= 1.5x.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_open import clear_content_caches
from cdktf_doc import make

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.workspace import Workspace

URI = "file:///bench/undeclared/cdk.tf.json"
TARGET = 1.5


def documents(size: int) -> tuple[str, str, int]:
    """(resolvable text, undeclared text, undeclared references) of about `size` bytes."""
    doc = json.loads(make(size))
    good: list[tuple[dict, str, str]] = []
    for rtype, objects in doc["resource"].items():
        for name, body in objects.items():
            n = len(good)
            if n % 3 == 0:
                right, wrong = f"${{{rtype}.{name}[0].id}}", f"${{{rtype}.{name}x[0].id}}"  # count = 2: an instance
            elif n % 3 == 1:
                right, wrong = "${var.environment}", f"${{var.environmnt{n}}}"
            else:
                right, wrong = "${local.name_prefix}", f"${{local.name_prefx{n}}}"
            good.append((body, right, wrong))
    for body, right, _ in good:
        body["tags"]["Ref"] = right
    resolvable = json.dumps(doc, indent=2)
    for body, _, wrong in good:
        body["tags"]["Ref"] = wrong
    undeclared = json.dumps(doc, indent=2)
    return resolvable, undeclared, len(good)


def measure(text: str) -> dict[str, float]:
    opens, prepares, counts = [], [], []
    for _ in range(3):
        clear_content_caches()
        gc.collect()
        workspace = Workspace()
        with paused_gc():
            t0 = time.process_time()
            state = workspace.open(URI, text, 1, "terraform-json")
            assert state is not None
            found = collect(workspace.snapshot(), URI)
            for d in found:  # what publishing reads: the suggestions are worked out on first read
                _ = d.message, d.fixes
            t1 = time.process_time()
            state.prepare()
            t2 = time.process_time()
        opens.append(t1 - t0)
        prepares.append(t2 - t1)
        counts.append(len(found))
        del workspace, state, found
    o, p = statistics.median(opens), statistics.median(prepares)
    return {"open": o, "prepare": p, "total": o + p, "diagnostics": counts[0]}


def main() -> int:
    size = int(float(sys.argv[1]) * 1_000_000) if len(sys.argv) > 1 else 16_000_000
    resolvable, undeclared, refs = documents(size)
    print(f"{len(undeclared) / 1e6:.1f} MB, {refs} resources, one reference each")
    good = measure(resolvable)
    bad = measure(undeclared)
    assert good["diagnostics"] == 0, good
    assert bad["diagnostics"] == refs, bad
    print(f"{'':10} {'resolvable':>11} {'undeclared':>11} {'ratio':>7}")
    verdict = True
    for row in ("open", "prepare", "total"):
        ratio = bad[row] / good[row]
        print(f"{row:10} {good[row]:10.2f}s {bad[row]:10.2f}s {ratio:6.2f}x")
    ratio = bad["total"] / good["total"]
    verdict = ratio <= TARGET
    print(f"target: total <= {TARGET}x: {'PASS' if verdict else 'FAIL'} ({ratio:.2f}x, {bad['diagnostics']} diagnostics)")
    return 0 if verdict else 1


if __name__ == "__main__":
    raise SystemExit(main())
