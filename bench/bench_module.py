"""A module of many files: what a user's edits and navigation cost when one file is large.

Run: python bench/bench_module.py            (a 50 KB and a 5 MB main file)
     python bench/bench_module.py --quick    (50 KB and 500 KB)
     python bench/bench_module.py --index    (indexing 1,000 files of 100 KB; --quick: 100 files)

The module (a real directory): 200 generated files (`variables_N.tf.json`, `locals_N.tf.json`,
`res_N.tf.json`, declaring and referring to each other) plus one CDKTF-like main file
(`cdktf_doc.make(size)`), opened in a `Workspace` with two of the small files, as an editor would.
Per size (medians of process CPU time, each piece of work inside `paused_gc()` as the server runs it):

* open module  scan of the directory + opening the three documents + their diagnostics
* edit         a one-character edit in the main file + all its diagnostics (module-wide included);
               target: the 5 MB case within 2x the 50 KB case
* rename decl  renaming a variable's declaration key in an open small file, until every open
               document of the module has its diagnostics again (the references to the old name
               become undeclared: re-resolved, only they); target: within 2x the 50 KB case
* references / highlight / rename request  on a reference inside the main file, to a variable
               declared in a small file; target: 5 MB within 2x the 50 KB case

Timings are printed only; nothing is asserted here.
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdktf_doc import make

from hcljson_ls.features import navigation
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import uri_of_path

FILES = 200


def cpu(fn) -> float:
    t0 = time.process_time()
    with paused_gc():
        fn()
    return time.process_time() - t0


def write_module(root: Path, main_size: int) -> None:
    for i in range(FILES // 3):
        (root / f"variables_{i}.tf.json").write_text(json.dumps(
            {"variable": {f"v{i}_{j}": {"type": "string", "default": f"d{j}", "description": f"Variable {j}."} for j in range(10)}},
            indent=2))
        (root / f"locals_{i}.tf.json").write_text(json.dumps(
            {"locals": {f"l{i}_{j}": f"${{var.v{i}_{j}}}-${{var.environment}}" for j in range(10)}}, indent=2))
        (root / f"res_{i}.tf.json").write_text(json.dumps(
            {"resource": {"aws_s3_bucket": {f"b{i}_{j}": {"bucket": f"${{local.l{i}_{j}}}", "tags": {"v": "${var.renamed}"}}
                                             for j in range(5)}}}, indent=2))
    (root / "renamed.tf.json").write_text(json.dumps({"variable": {"renamed": {"type": "string"}}}, indent=2))
    main = json.loads(make(main_size))
    main.pop("variable", None)  # declared in the small files instead
    main["variable"] = {"environment": {"type": "string"}}
    main.setdefault("output", {})["from_small"] = {"value": "${var.v0_0}"}
    (root / "main.tf.json").write_text(json.dumps(main, indent=2, ensure_ascii=False))


def change(workspace: Workspace, uri: str, version: int, line: int, char: int, old: int, new: str) -> None:
    r = {"start": {"line": line, "character": char}, "end": {"line": line, "character": char + old}}
    workspace.change(uri, version, [{"range": r, "text": new}], "utf-32")


def measure(main_size: int, repeat: int) -> dict:
    root = Path(tempfile.mkdtemp(prefix="hcljson-bench-module-"))
    try:
        write_module(root, main_size)
        r: dict = {}
        workspace = Workspace([str(root)])
        uris = {n: uri_of_path(str(root / n)) for n in ("main.tf.json", "renamed.tf.json", "res_0.tf.json")}

        def open_module():
            list(workspace.scan())
            for name, uri in uris.items():
                workspace.open(uri, (root / name).read_text(), 1, "terraform-json")
            for uri in uris.values():
                collect(workspace.snapshot(), uri)

        r["open"] = cpu(open_module)
        for uri in uris.values():  # as the server does once the open's diagnostics are answered
            workspace.get(uri).prepare()
        main = uris["main.tf.json"]
        text = workspace.get(main).text
        at = text.index('"ami-0c55', len(text) // 2) + 5
        line, char = workspace.get(main).line_index.position(at, "utf-32")
        version = [1]

        def edit():
            version[0] += 1
            inserting = version[0] % 2 == 0
            change(workspace, main, version[0], line, char, 0 if inserting else 1, "x" if inserting else "")
            collect(workspace.snapshot(), main)

        for _ in range(5):
            edit()
        r["edit"] = statistics.median(cpu(edit) for _ in range(repeat * 10))

        renamed = uris["renamed.tf.json"]
        rtext = workspace.get(renamed).text
        rat = rtext.index('"renamed"') + 1
        rline, rchar = workspace.get(renamed).line_index.position(rat, "utf-32")
        names = ["renamed", "renamex"]

        def rename_decl():
            version[0] += 1
            old, new = names[version[0] % 2], names[(version[0] + 1) % 2]
            change(workspace, renamed, version[0], rline, rchar, len(old), new)
            collect(workspace.snapshot(), renamed)
            for uri in workspace.take_stale() | {main}:
                collect(workspace.snapshot(), uri)

        rename_decl()
        r["rename_decl"] = statistics.median(cpu(rename_decl) for _ in range(repeat * 2))
        if names[version[0] % 2] != "renamed":
            rename_decl()  # back to the declared name

        text = workspace.get(main).text
        ref_at = text.index("${var.v0_0}") + 7
        snap = workspace.snapshot()
        r["references"] = statistics.median(cpu(lambda: navigation.references(snap, main, ref_at, True)) for _ in range(repeat))
        r["highlight"] = statistics.median(cpu(lambda: navigation.highlights(snap, main, ref_at)) for _ in range(repeat))
        r["rename"] = statistics.median(cpu(lambda: navigation.rename(snap, main, ref_at, "v0_zero")) for _ in range(repeat))
        r["sites"] = len(navigation.references(snap, main, ref_at, True))
        return r
    finally:
        shutil.rmtree(root, ignore_errors=True)


def index_workspace(files: int, size: int) -> dict:
    """Scan a workspace of `files` generated files of ~`size` bytes, as the
    server does in the background (10 files a module): total CPU time, peak RSS, and the latency a hover would see,
    arriving at a random moment: the rest of the scan slice it waits behind (the server yields every
    `lsp.server.SCAN_SLICE` seconds, or after a step longer than that) plus the hover itself."""
    import random
    import resource

    from hcljson_ls.features.hover import hover
    from hcljson_ls.lsp.server import SCAN_SLICE

    root = Path(tempfile.mkdtemp(prefix="hcljson-bench-index-"))
    try:
        text = make(size)
        for i in range(files):
            d = root / f"m{i // 10}"
            d.mkdir(exist_ok=True)
            (d / f"f{i}.tf.json").write_text(text.replace('"bench/', f'"bench{i}/'))
        workspace = Workspace([str(root)])
        uri = uri_of_path(str(root / "m0" / "f0.tf.json"))
        workspace.open(uri, (root / "m0" / "f0.tf.json").read_text(), 1, "terraform-json")
        at = text.index("${var.environment}") + 8
        hover(workspace.snapshot(), uri, at)  # the first use builds the template parsers (once per process)
        hovers = [cpu(lambda: hover(workspace.snapshot(), uri, at)) for _ in range(20)]
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        steps: list[float] = []
        t0 = time.process_time()
        with paused_gc():
            it = workspace.scan()
            while True:
                s0 = time.process_time()
                try:
                    next(it)
                except StopIteration:
                    break
                steps.append(time.process_time() - s0)
        total = time.process_time() - t0
        # A hover arriving during a slice waits for the slice to end: at most SCAN_SLICE, or the one
        # step that overran it.
        rng = random.Random(1)
        waits = []
        for _ in range(2000):
            step = rng.choice(steps)
            waits.append(min(max(SCAN_SLICE, step), SCAN_SLICE + step) * rng.random() + rng.choice(hovers))
        waits.sort()
        return {
            "files": files, "bytes": files * len(text), "scan": total,
            "rss_growth_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024,
            "hover_p95_ms": waits[int(len(waits) * 0.95)] * 1000, "longest_step_ms": max(steps) * 1000,
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    quick = "--quick" in sys.argv
    if "--index" in sys.argv:
        files = 100 if quick else 1000
        r = index_workspace(files, 100_000)
        print(f"indexing {r['files']} files ({r['bytes'] / 1e6:.0f} MB) in the background: {r['scan']:.1f} s CPU, "
              f"peak RSS +{r['rss_growth_mb']:.0f} MB, longest step {r['longest_step_ms']:.0f} ms, "
              f"hover p95 while it runs {r['hover_p95_ms']:.0f} ms (target 50 ms)")
        return
    sizes = [("50 KB", 50_000), ("500 KB", 500_000)] if quick else [("50 KB", 50_000), ("5 MB", 5_000_000)]
    repeat = 5
    results = [(label, measure(size, repeat)) for label, size in sizes]
    base = results[0][1]
    print(f"module: {FILES} small files + one main file (cdktf_doc.make) of the given size")
    print(f"{'main':>6} {'open module':>12} {'edit':>9} {'ratio':>6} {'rename decl':>12} {'ratio':>6} "
          f"{'references':>11} {'ratio':>6} {'highlight':>10} {'ratio':>6} {'rename':>9} {'ratio':>6} sites")
    for label, r in results:
        def ratio(k):
            return f"{r[k] / base[k]:.1f}x" if base[k] else "-"

        print(f"{label:>6} {r['open'] * 1000:>10.0f}ms {r['edit'] * 1000:>7.2f}ms {ratio('edit'):>6} "
              f"{r['rename_decl'] * 1000:>10.2f}ms {ratio('rename_decl'):>6} {r['references'] * 1000:>9.2f}ms "
              f"{ratio('references'):>6} {r['highlight'] * 1000:>8.2f}ms {ratio('highlight'):>6} "
              f"{r['rename'] * 1000:>7.2f}ms {ratio('rename'):>6} {r['sites']}")


if __name__ == "__main__":
    main()
