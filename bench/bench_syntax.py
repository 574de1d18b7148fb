"""JSON syntax layer benchmark: ratios measured in one run, on generated CDKTF-like documents.

Run: python bench/bench_syntax.py   (python bench/bench_syntax.py --quick for a smoke run)

For 50 KB, 500 KB and 5 MB documents it prints:
  * json.loads time, our full parse time, and their ratio (target: <= 10x);
  * a one-character edit (Document.apply_changes + incremental reparse) at the start, middle and end,
    and its ratio to the same edit on the 50 KB document (target at 5 MB: <= 2x); and edits that
    alternate between the start and the last member of the widest container there (the worst case
    of the lazy sibling shifts, which then move every member of that container);
  * tree memory per source byte (target: <= 20), measured with tracemalloc.
Times are medians of several runs (process CPU time, so other load on the machine matters less);
json.loads and our parse run alternately, so that both see the same machine. Our parse and reparse
run inside `gcpolicy.paused_gc()`, as the server runs them (the syntax layer itself never touches
the garbage collector; the pause is the edge's policy).
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdktf_doc import make

from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.jsonsyntax.reparse import reparse
from hcljson_ls.jsonsyntax.tree import Container, member_at
from hcljson_ls.text import Document

SIZES = [("50 KB", 50_000), ("500 KB", 500_000), ("5 MB", 5_000_000)]


def median(fn, repeat, collect=True):
    """Median CPU time of `fn`. `collect` runs a full GC before each run (for parses: each starts
    from the same heap); edits are timed without it, as a server sees them (a full collection walks
    every live object and leaves the CPU caches cold for the edit that follows)."""
    times = []
    for _ in range(repeat):
        if collect:
            gc.collect()
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def paired_medians(reference, fn, repeat):
    """Median CPU times of `reference` and `fn`, run alternately (each after a full GC), so that a
    change in the machine's load during the measurement weighs on both alike."""
    ref_times, times = [], []
    for _ in range(repeat):
        ref_times.append(median(reference, 1))
        times.append(median(fn, 1))
    return statistics.median(ref_times), statistics.median(times)


def edit_point(text: str, where: str) -> int:
    """An offset inside a string value near the start, middle or end of the document."""
    target = {"start": len(text) // 50, "middle": len(text) // 2, "end": len(text) - len(text) // 50}[where]
    i = text.find('"ami-0c55', target)
    if i < 0:
        i = text.rfind('"ami-0c55')
    return i + 5


def far_point(text: str, offset: int) -> int:
    """A place like `edit_point`'s in the last member of the widest container around `offset`:
    edits alternating between the two cross every member of that container."""
    node, base, widest = parse(text).root, 0, None
    while isinstance(node, Container):
        cabs = base + node.start
        i = member_at(node, offset - cabs)
        if i < 0:
            break
        if widest is None or len(node.items) > len(widest[0].items):
            widest = (node, cabs)
        node, base = node.items[i].value, cabs
    container, cabs = widest
    last = container.items[-1].value
    i = text.find('"ami-0c55', cabs + last.start, cabs + last.end)
    return i + 5 if i >= 0 else offset


def edit_time(text: str, where: str, repeat: int) -> float:
    """Median time of one edit at `where` (start, middle, end: insert then delete one character,
    in a row), or alternating between the start and `far_point` ("jump": the worst case of the lazy
    sibling shifts, which then move every member between the two places on each edit)."""
    doc = Document("file:///bench.tf.json", text, 1)
    offsets = [edit_point(text, "start" if where == "jump" else where)]
    if where == "jump":
        offsets.append(far_point(text, offsets[0]))
    places = [doc.position(o) for o in offsets]
    state = {"result": parse(text), "n": 0}

    update_times: list[float] = []

    def one_edit():
        n = state["n"]
        state["n"] = n + 1
        line, char = places[n % len(places)]
        if (n // len(places)) % 2:
            change = {"range": {"start": {"line": line, "character": char}, "end": {"line": line, "character": char + 1}}, "text": ""}
        else:
            change = {"range": {"start": {"line": line, "character": char}, "end": {"line": line, "character": char}}, "text": "x"}
        t0 = time.process_time()
        (edit,) = doc.apply_changes([change])
        update_times.append(time.process_time() - t0)
        with paused_gc():
            state["result"] = reparse(state["result"], doc.buffer, edit)

    total = median(one_edit, repeat, collect=False)
    return total, statistics.median(update_times)


def parse_paused(text: str):
    with paused_gc():
        return parse(text)


def tree_bytes_per_source_byte(text: str) -> float:
    gc.collect()
    tracemalloc.start()
    result = parse(text)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del result
    return size / len(text)


def main(quick: bool = False) -> None:
    rows = []
    edit_base = {}
    for label, size in SIZES if not quick else SIZES[:2]:
        text = make(size)
        repeat = 3 if len(text) > 1_000_000 else 7
        loads, full = paired_medians(lambda: json.loads(text), lambda: parse_paused(text), repeat)
        timed = {w: edit_time(text, w, 41) for w in ("start", "middle", "end")}
        edits = {w: t[0] for w, t in timed.items()}
        reparses = {w: t[0] - t[1] for w, t in timed.items()}
        jump = edit_time(text, "jump", 41)[0]
        if not edit_base:
            edit_base = (edits, reparses, jump)
        mem = tree_bytes_per_source_byte(text)
        rows.append((label, len(text), loads, full, edits, reparses, jump, mem))
    print(f"{'size':>7} {'bytes':>9} {'json.loads':>11} {'parse':>8} {'ratio':>6}   "
          f"{'edit start':>10} {'middle':>8} {'end':>8} {'vs 50 KB':>9}   {'reparse only':>12} {'vs 50 KB':>9}   "
          f"{'start<->far':>10} {'vs 50 KB':>9}   {'tree B/B':>8}")
    for label, n, loads, full, edits, reparses, jump, mem in rows:
        worst = max(edits[w] / edit_base[0][w] for w in edits)
        worst_reparse = max(reparses[w] / edit_base[1][w] for w in reparses)
        print(f"{label:>7} {n:>9} {loads * 1000:>9.1f}ms {full * 1000:>6.0f}ms {full / loads:>5.1f}x   "
              f"{edits['start'] * 1000:>8.2f}ms {edits['middle'] * 1000:>6.2f}ms {edits['end'] * 1000:>6.2f}ms "
              f"{worst:>8.2f}x   {max(reparses.values()) * 1000:>10.3f}ms {worst_reparse:>8.2f}x   "
              f"{jump * 1000:>8.2f}ms {jump / edit_base[2]:>8.2f}x   {mem:>8.1f}")
    print("edit = Document.apply_changes (text splice + line index) + incremental reparse; 'reparse only' is the")
    print("reparse part (worst of start/middle/end). The text is a chunked TextBuffer; the reparse reads slices of it.")
    print("start<->far = edits alternating between the start and the last member of the widest container there:")
    print("the worst case of the lazy sibling shifts (each edit moves every member between the two places).")
    print("targets: parse <= 10x json.loads; edit at 5 MB <= 2x the 50 KB edit; tree <= 20 B per source byte")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
