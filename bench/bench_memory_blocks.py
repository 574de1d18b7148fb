"""Memory per top-level block, in-process: tracemalloc of the Python heap in the server's order of work.

Run: python bench/bench_memory_blocks.py [N]     (N tiny outputs, `{"value": i}`; default 30,000)
     python bench/bench_memory_blocks.py N --top 30   (and the allocation sites that keep the most)

Order of work, as the server does it for a quick-opened document: `Workspace.open`, its diagnostics
(`features.diagnostics.collect`: the quick open), the line starts, the stepped build
(`DocumentState.build_steps`), `features.diagnostics.prepare`, the diagnostics again. After each phase it
prints the bytes a block alive now and the highest reached during the phase (tracemalloc's peak, reset
between phases), and the ratios to the text's size at the end. The text itself is made before tracing
starts (not counted). Stable under load (bytes, not times); tracing makes it slow (~1 min for 30,000).
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import tracemalloc
from pathlib import Path

from hcljson_ls.features import diagnostics
from hcljson_ls.workspace.workspace import Workspace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=30_000, help="how many tiny outputs")
    parser.add_argument("--top", type=int, default=0, help="print the allocation sites that keep the most")
    args = parser.parse_args()
    n = args.n
    text = json.dumps({"output": {f"out_{i:07d}": {"value": i} for i in range(n)}}, indent=2)
    folder = tempfile.mkdtemp(prefix="bench-blocks-")
    uri = Path(folder, "main.tf.json").as_uri()
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    before = tracemalloc.take_snapshot() if args.top else None
    highest = 0

    def phase(name: str) -> None:
        nonlocal highest
        gc.collect()
        now, peak = tracemalloc.get_traced_memory()
        highest = max(highest, peak - base)
        print(f"{name:>12}: {(now - base) / n:6.0f} B a block alive, {(peak - base) / n:6.0f} B at the phase's peak")
        tracemalloc.reset_peak()

    ws = Workspace([folder])
    state = ws.open(uri, text, 1, "terraform-json")
    diagnostics.collect(ws.snapshot(), uri)
    phase("open")
    _ = state.line_index.line_count
    phase("line starts")
    quick = state.quick(compute=False)
    for _ in state.build_steps():
        pass
    phase("build")
    diagnostics.prepare(state, quick)
    del quick
    phase("prepare")
    diagnostics.collect(ws.snapshot(), uri)
    phase("diagnostics")
    size = len(text.encode()) / 1e6
    kept = (tracemalloc.get_traced_memory()[0] - base) / 1e6
    print(f"{n:,} tiny outputs, {size:.2f} MB: retained {kept:.1f} MB ({kept / size:.1f}x), "
          f"peak {highest / 1e6:.1f} MB ({highest / 1e6 / size:.1f}x)")
    if before is not None:
        for stat in tracemalloc.take_snapshot().compare_to(before, "lineno")[: args.top]:
            print(f"{stat.size_diff / n:8.1f} B {stat.count_diff / n:5.2f} objects a block  {stat.traceback.format()[-1].strip()[:110]}")


if __name__ == "__main__":
    main()
