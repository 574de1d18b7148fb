"""The first edit after a quick open, before the tree is built (or after it, `--after-tree`),
in-process: CPU time of this thread for the edit and the document's diagnostics
(`features.diagnostics.collect`, or with `--forms` what the server does for a pull: the LSP forms
and the result id), on generated CDKTF-like documents.

Run: python bench/bench_first_edit.py [--sizes 5MB,5MB-undeclared,20MB] [--repeat 3] [--show 1000]
                                      [--after-tree] [--forms]

For each document (`cdktf_doc.make`; "-undeclared": `cdktf_doc.with_undeclared`, 28,750
`reference/undeclared` in this 5 MB document), medians of `--repeat` fresh workspaces: the open's
diagnostics (the quick open), then one character inserted in a string in the middle (`"ami-...`, as
`bench/peer.py` edits: no diagnostic changes; through `Workspace.change`, as the server's `didChange`)
and the diagnostics again, then the same character
deleted and the diagnostics again (the second edit: before the tree it finishes the build, as
before), then `--more` pairs of the same two edits ("later edits": the median of those). `--show`
is `diagnostics.maxPerCode` (0: all).

`--after-tree`: the tree and the analysis are built first, as the server's background build does
(`DocumentState.build_steps`, then `features.diagnostics.prepare`), and the diagnostics asked for
once more; then the two edits,
answered by the tree's path (`hcljson.incremental`). `--forms`: each time, the LSP forms
(`lsp.diagnostic_forms.document_forms`, one `Forms` kept across the document's versions) and
`ResultIds.of` instead of `collect`, with the GC paused as the server pauses it.

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

from hcljson_ls.features import diagnostics as diagnostics_feature
from hcljson_ls.features.diagnostics import collect
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.lsp import diagnostic_forms
from hcljson_ls.lsp.config import DiagnosticsSettings
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


def measure(text: str, show: int, after_tree: bool = False, forms: bool = False, more: int = 5) -> dict[str, float]:
    ws = Workspace()
    state = ws.open(URI, text, 1, "terraform-json")
    if forms:
        settings = DiagnosticsSettings(max_per_code=show)
        kept, ids = diagnostic_forms.Forms(), diagnostic_forms.ResultIds()

        def pull() -> None:
            items = diagnostic_forms.document_forms(ws, URI, settings, kept, "utf-16")
            ids.of(URI, items)
    else:
        def pull() -> None:
            collect(ws.snapshot(), URI, max_per_code=show)

    out = {"open": _cpu(pull)}
    if after_tree:  # as the server's background build does (`HcljsonServer._prepare`)
        quick = state.quick(compute=False)
        for _ in state.build_steps():
            pass
        diagnostics_feature.prepare(state, quick)
        pull()
    at = text.index('"ami-', len(text) // 2) + 1
    line, character = state.line_index.position(at, "utf-16")
    where = {"line": line, "character": character}
    after = {"line": line, "character": character + 1}

    def edit(version: int, change: dict) -> None:
        ws.change(URI, version, [change], "utf-16")  # as the server's `didChange` (the workspace's revision moves)
        pull()

    insert, delete = {"range": {"start": where, "end": where}, "text": "x"}, {"range": {"start": where, "end": after}, "text": ""}
    out["first edit"] = _cpu(lambda: edit(2, insert))
    out["built after it"] = float(state.built)
    out["second edit"] = _cpu(lambda: edit(3, delete))
    # The same two edits `more` times more: the edits of someone typing there, once the first are done.
    out["later edits"] = statistics.median(_cpu(lambda: edit(version, (insert, delete)[version % 2]))
                                           for version in range(4, 4 + 2 * more))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="5MB,5MB-undeclared")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--show", type=int, default=1000)
    parser.add_argument("--after-tree", action="store_true", help="edit after the tree is built (see the doc)")
    parser.add_argument("--forms", action="store_true", help="the server's pull: LSP forms and result id")
    parser.add_argument("--more", type=int, default=5, help="insert/delete pairs after the first two edits")
    args = parser.parse_args()
    tune_gc()
    import hcljson_ls

    print(f"tree: {Path(hcljson_ls.__file__).parent}", flush=True)
    for size in args.sizes.split(","):
        text = document(size)
        runs = [measure(text, args.show, args.after_tree, args.forms, args.more) for _ in range(args.repeat)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"| {size} | show {args.show} | {'after' if args.after_tree else 'before'} the tree | "
              f"open {med['open'] * 1000:.0f} ms | first edit {med['first edit'] * 1000:.1f} ms "
              f"({med['first edit'] / med['open']:.3f}x the open) | second edit {med['second edit'] * 1000:.1f} ms "
              f"| later edits {med['later edits'] * 1000:.2f} ms | built after the first: {bool(med['built after it'])} |",
              flush=True)


if __name__ == "__main__":
    main()
