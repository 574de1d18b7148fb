"""What looking for unused declarations costs a recompute (issue 20 §3, `reference/unused`).

Run: python bench/bench_unused.py [SIZE_MB ...]     (default 1.5 and 5)

A module of two open files in a temporary directory:

* `main.tf.json`   a CDKTF-like document (`cdktf_doc.make`) with 300 variables, 300 local values and
                   60 `terraform_remote_state` data sources more; every resource refers to one of
                   them in turn, the rest (a third) are referred to by nothing or by `other.tf.json`
* `other.tf.json`  a small file referring to a few of them

For each size it prints the process CPU time (medians of 5, the cyclic GC paused as the server
pauses it) of `features.lens.unused_declarations` on `main.tf.json`, as a ratio to the
`json.loads` of the same text measured in the same run:

* first      right after the build (`DocumentState.prepare`): what the first publish pays
* again      the same version asked again (a re-publish)
* neutral    after a one-character edit inside a string of a resource (no reference or declaration
             changes): the analysis update is not counted, only the search
* ref        after an edit of `other.tf.json` that adds a reference to an unused variable of
             `main.tf.json` (what the module's other document triggers)
* declared   after an edit of a declared name in `main.tf.json` (local `l0` renamed `l0x` and back):
             the module's declarations changed, so the indexes of where things are declared are
             built again (what typing a new name pays)

Target: at 5 MB each row <= 50 ms (the event loop held at most that long), and `neutral` about
nothing.

Then, in-process through the real server (`lsp.server.create_server`, JSON-RPC messages in), the
main document alone: `textDocument/diagnostic` (a pull: one handler, one loop turn, so its CPU
time is how long it holds the event loop) after a one-character edit, with the setting
`diagnostics.unusedDeclarations` on and off, medians of 5 and the longest. Nothing is asserted:
figures are printed.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdktf_doc import make

from hcljson_ls.features.lens import unused_declarations
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.workspace import Workspace

VARIABLES = 300
LOCALS = 300
DATA = 60


def document(size: int) -> str:
    doc = json.loads(make(size))
    doc["variable"].update({f"v{i}": {"type": "string", "default": "x"} for i in range(VARIABLES)})
    doc["locals"].update({f"l{i}": f"x{i}" for i in range(LOCALS)})
    doc["data"] = {"terraform_remote_state": {f"d{i}": {"backend": "local"} for i in range(DATA)}}
    n = 0
    for objects in doc["resource"].values():
        for body in objects.values():
            k = n % 3
            if k == 0:
                body["tags"]["V"] = f"${{var.v{n % (VARIABLES * 2 // 3)}}}"
            elif k == 1:
                body["tags"]["L"] = f"${{local.l{n % (LOCALS * 2 // 3)}}}"
            else:
                body["tags"]["D"] = f"${{data.terraform_remote_state.d{n % (DATA * 2 // 3)}.outputs}}"
            n += 1
    return json.dumps(doc, indent=2, ensure_ascii=False)


OTHER = '{"output": {"o": {"value": "${var.v299}"}}}'


def cpu(fn) -> float:
    with paused_gc():
        t0 = time.process_time()
        fn()
        return time.process_time() - t0


def change(workspace: Workspace, uri: str, version: int, start: int, end: int, text: str) -> None:
    state = workspace.get(uri)
    assert state is not None
    index = state.line_index
    a, b = index.position(start, "utf-32"), index.position(end, "utf-32")
    rng = {"start": {"line": a[0], "character": a[1]}, "end": {"line": b[0], "character": b[1]}}
    workspace.change(uri, version, [{"range": rng, "text": text}], "utf-32")
    with paused_gc():
        _ = workspace.get(uri).analysis
        workspace.declarations.sync(uri)


def run(size: int) -> None:
    text = document(size)
    loads = statistics.median(cpu(lambda: json.loads(text)) for _ in range(5))
    with tempfile.TemporaryDirectory() as tmp:
        main = Path(tmp, "main.tf.json")
        other = Path(tmp, "other.tf.json")
        main.write_text(text)
        other.write_text(OTHER)
        workspace = Workspace([tmp])
        main_uri, other_uri = main.as_uri(), other.as_uri()
        state = workspace.open(main_uri, text, 1, "terraform-json")
        workspace.open(other_uri, OTHER, 1, "terraform-json")
        with paused_gc():
            state.prepare()
            workspace.get(other_uri).prepare()
        rows: dict[str, list[float]] = {"first": [], "again": [], "neutral": [], "ref": [], "declared": []}
        found: list = []
        rows["first"].append(cpu(lambda: found.append(unused_declarations(workspace.snapshot(), main_uri))))
        hints = len(found[-1])
        for _ in range(5):
            rows["again"].append(cpu(lambda: unused_declarations(workspace.snapshot(), main_uri)))
        versions = iter(range(2, 10**6))

        def toggle(row: str, uri: str, at: int, insert: str) -> None:
            """Insert `insert` at `at` of `uri`, then take it out again, five edits in all, each
            followed by the hint search (timed into `rows[row]`)."""
            for i in range(5):
                if i % 2 == 0:
                    change(workspace, uri, next(versions), at, at, insert)
                else:
                    change(workspace, uri, next(versions), at, at + len(insert), "")
                rows[row].append(cpu(lambda: unused_declarations(workspace.snapshot(), main_uri)))

        toggle("neutral", main_uri, text.index('"ami-0c55b159cbfafe1f0"', len(text) // 2) + 5, "x")
        toggle("ref", other_uri, OTHER.index("}}}") + 1, ', "p": {"value": "${var.v298}"}')  # after output "o"
        toggle("declared", main_uri, text.index('"l0"') + 3, "x")  # the name of local l0: l0x, then l0 again
    print(f"{len(text) / 1e6:.1f} MB: json.loads {loads * 1000:.1f} ms, {hints} hints")
    for name, values in rows.items():
        m = statistics.median(values)
        print(f"  {name:8} {m * 1000:9.2f} ms  {m / loads:7.3f}x json.loads  (max {max(values) * 1000:.2f} ms)")


class _Wire:
    def __init__(self) -> None:
        self.writes = 0

    def write(self, data: bytes) -> None:
        self.writes += 1

    def close(self) -> None:
        pass


def server_pull(text: str, unused: bool) -> list[float]:
    """CPU seconds of a diagnostics pull after each of 5 one-character edits, through the server."""
    import asyncio

    from hcljson_ls.lsp.server import create_server

    server = create_server()
    wire = _Wire()
    server.protocol.set_writer(wire)
    loop = asyncio.new_event_loop()
    ids = iter(range(1, 1_000_000))
    uri = "file:///bench/unused/main.tf.json"

    async def answered(writes: int) -> None:
        while wire.writes == writes:
            await asyncio.sleep(0)

    def send(method: str, params: dict, request: bool = False) -> float:
        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            message["id"] = next(ids)
        structured = json.loads(json.dumps(message), object_hook=server.protocol.structure_message)
        writes = wire.writes
        asyncio.set_event_loop(loop)
        with paused_gc():
            t0 = time.process_time()
            server.protocol.handle_message(structured)
            if request:
                loop.run_until_complete(answered(writes))
            return time.process_time() - t0

    caps = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}
    send("initialize", {"capabilities": caps, "initializationOptions": {"diagnostics": {"unusedDeclarations": unused}}},
         request=True)
    send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "terraform-json", "version": 1, "text": text}})
    with paused_gc():
        server.store.get(uri).prepare()
    send("textDocument/diagnostic", {"textDocument": {"uri": uri}}, request=True)
    at = text.index('"ami-0c55b159cbfafe1f0"', len(text) // 2) + 5
    index = server.store.get(uri).line_index
    line, character = index.position(at)
    times = []
    for i in range(5):
        start = {"line": line, "character": character}
        end = {"line": line, "character": character + (i % 2)}
        send("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 2},
                                         "contentChanges": [{"range": {"start": start, "end": end}, "text": "" if i % 2 else "x"}]})
        times.append(send("textDocument/diagnostic", {"textDocument": {"uri": uri}}, request=True))
    server.publisher.cancel_all()
    asyncio.set_event_loop(None)
    loop.close()
    return times


def main() -> int:
    sizes = [float(a) for a in sys.argv[1:]] or [1.5, 5.0]
    gc.collect()
    for mb in sizes:
        run(int(mb * 1_000_000))
    for mb in sizes:
        text = document(int(mb * 1_000_000))
        on, off = server_pull(text, True), server_pull(text, False)
        print(f"{len(text) / 1e6:.1f} MB through the server, diagnostics pull after an edit: "
              f"hints on {statistics.median(on) * 1000:.1f} ms (longest {max(on) * 1000:.1f}), "
              f"off {statistics.median(off) * 1000:.1f} ms (longest {max(off) * 1000:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
