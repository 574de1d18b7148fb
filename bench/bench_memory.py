"""Memory, the first request and shutdown with a large document open: the real server process over stdio.

Run: python bench/bench_memory.py                 (a 50 MB CDKTF-like document, a 39 MB one of tiny blocks)
     python bench/bench_memory.py --sizes 20      (only the CDKTF-like one, 20 MB)

For each document the server (`python -m hcljson_ls --stdio`, `maxFileSizeMB` raised above the size) is
initialized, the document opened, and timed: open -> its diagnostics; then a hover in its middle (answered
from the blocks around it since session 9: it no longer waits for the tree); then a selection range there,
which needs the JSON tree, so it waits for the tree and the analysis built after the open ("built"; a
small answer, unlike the folding ranges of every block); then
`shutdown` + `exit` -> the process gone. Peak RSS is the process's `VmHWM`, read once the tree is built,
before `exit`, printed with its ratio to the document's size. (Before session 10 it was read after the
hover, which since session 9 came before the build: the build's peak was missed.)

Targets (issues 22 and 23): peak RSS at most 15x the file for the 50 MB CDKTF-like document and at most
40x for any document under the default limit (the tiny-block one); shutdown at most 1 s whatever is open.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cdktf_doc import make  # noqa: E402
from peer import Connection  # noqa: E402

TARGETS = {"cdktf": 15.0, "tiny": 40.0}


def cdktf(size: int) -> str:
    """A CDKTF-like document of about `size` bytes (`cdktf_doc.make`'s resources, repeated under new names)."""
    base = json.loads(make(2_000_000))
    doc = copy.deepcopy(base)
    k = 0
    while True:
        k += 1
        for t, objects in base["resource"].items():
            for n, body in objects.items():
                doc["resource"][t][f"{n}_{k}"] = body
        text = json.dumps(doc, indent=2)
        if len(text) >= size:
            return text


def tiny(size: int) -> str:
    """A document of about `size` bytes made of the smallest blocks: an output each (~80 bytes)."""
    n = size // 80
    return json.dumps({"output": {f"out_{i:07d}": {"value": i} for i in range(n)}}, indent=2)


def measure(kind: str, text: str) -> dict:
    size_mb = len(text.encode("utf-8")) / 1e6
    server = Connection([sys.executable, "-m", "hcljson_ls", "--stdio"])
    uri = "file:///bench/memory/main.tf.json"
    server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                  "initializationOptions": {"maxFileSizeMB": int(size_mb) + 10,
                                                            "providerSchemas": {"runTerraform": False}}})
    server.notify("initialized", {})
    t0 = time.perf_counter()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "terraform-json", "version": 1, "text": text}})
    server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    opened = time.perf_counter() - t0
    line = text.count("\n", 0, len(text) // 2)
    t0 = time.perf_counter()
    server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 6}})
    hovered = time.perf_counter() - t0
    t0 = time.perf_counter()
    server.request("textDocument/selectionRange", {"textDocument": {"uri": uri},
                                                   "positions": [{"line": line, "character": 6}]})
    built = time.perf_counter() - t0
    peak = server.peak_rss_mb()
    t0 = time.perf_counter()
    server.request("shutdown", None)
    server.notify("exit", {})
    server.proc.wait(timeout=120)
    ended = time.perf_counter() - t0
    return {"kind": kind, "size_mb": size_mb, "open_s": opened, "first_request_s": hovered, "built_s": built, "peak_rss_mb": peak,
            "ratio": peak / size_mb, "shutdown_s": ended}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="*", default=[50.0], help="CDKTF-like sizes, MB")
    parser.add_argument("--tiny", type=float, default=39.0, help="the tiny-block document's size, MB (0: none)")
    args = parser.parse_args()
    docs = [("cdktf", cdktf(int(s * 1e6))) for s in args.sizes]
    if args.tiny:
        docs.append(("tiny", tiny(int(args.tiny * 1e6))))
    ok = True
    print(f"{'document':>16} {'open':>8} {'1st req':>8} {'built':>8} {'peak RSS':>10} {'ratio':>7} {'target':>7} {'shutdown':>9}")
    for kind, text in docs:
        r = measure(kind, text)
        verdict = r["ratio"] <= TARGETS[kind] and r["shutdown_s"] <= 1.0
        ok &= verdict
        print(f"{kind + ' ' + format(r['size_mb'], '.0f') + ' MB':>16} {r['open_s']:7.2f}s {r['first_request_s']:7.2f}s {r['built_s']:7.2f}s"
              f" {r['peak_rss_mb']:8.0f}MB {r['ratio']:6.1f}x {TARGETS[kind]:6.0f}x {r['shutdown_s']:8.2f}s"
              f"  {'PASS' if verdict else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
