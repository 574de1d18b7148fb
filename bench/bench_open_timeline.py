"""Where the open of a large document goes, client and server side, through the real server over stdio.

Run: python bench/bench_open_timeline.py                  (5 MB, 5 opens)
     python bench/bench_open_timeline.py --size 20MB --opens 3

`bench/peer.py` measures the open as a client sees it: from just before the client serialises its
`didOpen` to the diagnostic answer read. That span holds work of the client's own (serialising a
5 MB message and writing it into the pipe), which the peer's figure holds too. This benchmark
splits it. The server is started as `peer.py` starts it (`-m hcljson_ls --stdio`, the same
bytecode cache), with a few of its functions wrapped to write `time.perf_counter()` stamps to
stderr: on Linux that clock is CLOCK_MONOTONIC, one clock for both processes. Each open (its own
URI, after the previous one's background build has ended and it is closed) prints, in ms from the
client's start:

    serialised   the client has its message as bytes (`json.dumps`, then UTF-8)
    written      the client's write into the pipe has returned (the server reads meanwhile)
    body read    the server's reader thread has the whole body (`framing.FrameReader.feed`)
    decoded      our `didOpen` handler starts (the body decoded: `json.loads`, cattrs)
    analysis     `textDocument/diagnostic` handled (the quick open and the LSP forms), its start and end
    answered     the client has read the answer

Nothing is asserted; the medians are printed last.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import peer  # noqa: E402
from cdktf_doc import make  # noqa: E402

#: The server, with stamps: run by `python -c` so that nothing of it is a file of its own.
BOOTSTRAP = r"""
import sys, time
def stamp(label):
    sys.stderr.write("STAMP %.6f %s\n" % (time.perf_counter(), label)); sys.stderr.flush()
from hcljson_ls.lsp import framing
feed = framing.FrameReader.feed
def stamped_feed(self, data):
    events = feed(self, data)
    if any(isinstance(e, framing.Body) and len(e.data) > 1 << 20 for e in events):
        stamp("body read")
    return events
framing.FrameReader.feed = stamped_feed
from hcljson_ls.workspace import Workspace
opened = Workspace.open
def stamped_open(self, uri, text, *args):
    if len(text) > 1 << 20:
        stamp("decoded")
    return opened(self, uri, text, *args)
Workspace.open = stamped_open
from hcljson_ls.compiled_methods import kept_in_user_cache
with kept_in_user_cache("lsp-server", "attr._make", "dataclasses"):
    from hcljson_ls.lsp import server
report = server.HcljsonServer.diagnostic_report
def stamped_report(self, uri, previous):
    big = (state := self.store.get(uri)) is not None and len(state.text) > 1 << 20
    if big:
        stamp("analysis start")
    try:
        return report(self, uri, previous)
    finally:
        if big:
            stamp("analysis end")
server.HcljsonServer.diagnostic_report = stamped_report
from hcljson_ls import entry
sys.argv = ["hcljson-ls", "--stdio"]
sys.exit(entry.main())
"""

PHASES = ("serialised", "written", "body read", "decoded", "analysis start", "analysis end", "answered")


def one_open(conn: peer.Connection, text: str, uri: str) -> dict[str, float]:
    before = len(conn.stderr_lines)
    t0 = time.perf_counter()
    message = {"jsonrpc": "2.0", "method": "textDocument/didOpen",
               "params": {"textDocument": {"uri": uri, "languageId": "terraform-json", "version": 1, "text": text}}}
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    at = {"serialised": time.perf_counter()}
    with conn._write_lock:
        conn.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        conn.proc.stdin.flush()
    at["written"] = time.perf_counter()
    conn.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    at["answered"] = time.perf_counter()
    time.sleep(0.2)  # (the stderr reader catches up)
    for line in conn.stderr_lines[before:]:
        if line.startswith("STAMP "):
            _, when, label = line.split(" ", 2)
            at.setdefault(label, float(when))
    return {label: (at[label] - t0) * 1000 for label in PHASES if label in at}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5MB", help="a peer.py document: 5MB, 20MB, 5MB-undeclared...")
    parser.add_argument("--opens", type=int, default=5)
    args = parser.parse_args(argv)
    text = peer.document(args.size)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(peer.PYCACHE)}
    conn = peer.Connection([sys.executable, "-c", BOOTSTRAP], env=env)
    rows = []
    try:
        conn.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": peer.CAPABILITIES})
        conn.notify("initialized", {})
        warm = "file:///bench/warm/cdk.tf.json"
        conn.notify("textDocument/didOpen", {"textDocument": {"uri": warm, "languageId": "terraform-json",
                                                               "version": 1, "text": make(2_000)}})
        conn.request("textDocument/diagnostic", {"textDocument": {"uri": warm}})
        conn.request("textDocument/codeLens", {"textDocument": {"uri": warm}})  # the full server (only it answers)
        for i in range(args.opens):
            uri = f"file:///bench/stack{i}/cdk.tf.json"
            row = one_open(conn, text, uri)
            rows.append(row)
            print(f"open {i}: " + "  ".join(f"{label} {ms:.1f}" for label, ms in row.items()))
            time.sleep(3 if len(text) < 10_000_000 else 10)  # its background build ends
            conn.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    finally:
        conn.close()
    print(f"\nmedians of {len(rows)} opens of {args.size} (ms from the client's start):")
    previous = 0.0
    for label in PHASES:
        values = [r[label] for r in rows if label in r]
        if values:
            median = statistics.median(values)
            print(f"  {label:<15} {median:8.1f}   (+{median - previous:.1f})")
            previous = median
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
