"""Opening a document, editing it, and the whole-document requests, on CDKTF-like documents.

Run: python bench/bench_open.py            (50 KB, 500 KB, 5 MB)
     python bench/bench_open.py --quick    (50 KB and 500 KB only)

On the generated documents of `cdktf_doc.make(size)` it prints, per size (medians of process CPU
time over several runs):

* parse        JSON syntax parse only (`jsonsyntax.parse`)
* open         `Workspace.open` + `features.diagnostics.collect` (syntax, structure, strings, module),
               content caches cleared first, so it is what a server pays for a document it has not
               seen (the Lark parsers themselves are built once per process; printed separately);
               target: open <= 2x parse; also with the cyclic GC left running, for comparison.
               Since the quick open (`terraform.quick`) this is the diagnostics without the tree;
* prepare      what the server does next, once the answer is sent: `DocumentState.prepare` (the JSON
               tree and the incremental analysis, built for edits and requests)
* full open    the open without the quick open (diagnostics from the tree and analysis: open +
               prepare before, the figure every earlier table in docs/performance.md calls "open")
* edit         a one-character edit in the middle of the document (alternately inserting and
               deleting a character inside a string, edits in a row): `apply_changes` + `collect`, split into
               `apply` (text splice, line index, JSON reparse) and `analysis` (everything after);
               target: edit at 5 MB within ~2x the edit at 50 KB (the ratio column)
* engine       how the analysis engine took the edits (`hcljson.incremental`: fast path / walks of
               the root, top-level blocks computed again per edit, of how many)
* +hover / +tokens   the same edit followed by a hover in the edited block / by semantic tokens

and, in-process through the real server (`lsp.server.create_server`, JSON-RPC messages in, response
bytes out: handler, conversion to LSP types and pygls's serialization), documentSymbol,
semanticTokens/full and foldingRange on the largest document, each asked on a fresh version (the
first request after an edit) and again (served from the version's caches where there are some).
Timings are printed only; nothing is asserted here.

The core layers never touch the garbage collector; the server pauses it around each piece of work
(`hcljson_ls.gcpolicy.paused_gc`, at the edge), so every direct call timed here runs inside
`paused_gc()` too (each phase of an edit in its own, as the server handles them separately).
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdktf_doc import make

from hcljson_ls.features.diagnostics import PROVIDERS
from hcljson_ls.features.diagnostics import collect as collect_uri
from hcljson_ls.features.hover import hover
from hcljson_ls.features.semantic_tokens import semantic_tokens
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.expressions import templates
from hcljson_ls.workspace import DocumentState, Workspace

SIZES = [("50 KB", 50_000), ("500 KB", 500_000), ("5 MB", 5_000_000)]
URI = "file:///bench/cdk.tf.json"


def open_document(text: str) -> tuple[Workspace, DocumentState]:
    """`text` open in a fresh workspace, as the server holds it."""
    workspace = Workspace()
    state = workspace.open(URI, text, 1, "terraform-json")
    assert state is not None
    return workspace, state


def collect(state: DocumentState, workspace: Workspace) -> list:
    """All diagnostics of the open document, as the server computes them."""
    return collect_uri(workspace.snapshot(), state.uri)


def clear_content_caches() -> None:
    """Forget parsed strings (by content) in the template layer; keep the built parsers."""
    from hcljson_ls.template import parse as tparse
    from hcljson_ls.template import types as ttypes

    for f in (tparse.parse_template_relative, tparse.parse_expression_relative, ttypes.parse_type_relative,
              templates._template_raw, templates._other_raw, templates._reference_relative):
        f.cache_clear()
    from hcljson_ls.terraform.resolution import resolve

    resolve._CANDIDATES.clear()  # suggestions remembered by content: each run finds its own
    resolve._CANDIDATES_BY_CONTENT.clear()


def cpu(fn) -> float:
    gc.collect()
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def median(fn, repeat: int, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        times.append(cpu(fn))
    return statistics.median(times)


def first_use() -> float:
    """CPU time to build the template and type parsers (once per process)."""
    from hcljson_ls.template.parse import _template_parser
    from hcljson_ls.template.types import _type_parser

    return cpu(lambda: (_template_parser(), _type_parser()))


def edit_point(text: str) -> int:
    i = text.find('"ami-0c55', len(text) // 2)
    return (i if i >= 0 else text.rfind('"ami-0c55')) + 5


class Editor:
    """Alternately inserts and deletes one character at a fixed place of an open document."""

    def __init__(self, state: DocumentState, offset: int) -> None:
        self.state = state
        self.line, self.char = state.line_index.position(offset)
        self.inserted = False

    def __call__(self) -> None:
        r = {"line": self.line, "character": self.char}
        if self.inserted:
            end = {"line": self.line, "character": self.char + 1}
            change = {"range": {"start": r, "end": end}, "text": ""}
        else:
            change = {"range": {"start": r, "end": r}, "text": "x"}
        self.inserted = not self.inserted
        self.state.apply_changes([change], version=self.state.version + 1)


def paused(fn):
    """`fn` run inside `paused_gc()`, as the server runs each piece of work (see the module doc)."""

    def run():
        with paused_gc():
            return fn()

    return run


def measure(text: str, repeat: int) -> dict:
    r: dict = {"bytes": len(text)}
    r["parse"] = median(paused(lambda: parse(text)), repeat)

    holder: dict = {}

    def open_doc():
        workspace, state = open_document(text)
        holder["diags"] = collect(state, workspace)

    r["open"] = median(paused(open_doc), repeat, clear_content_caches)
    r["diagnostics"] = len(holder["diags"])
    r["open_gc_on"] = median(open_doc, repeat, clear_content_caches)

    def opened():
        clear_content_caches()
        workspace, state = open_document(text)
        collect(state, workspace)
        holder["state"] = state

    r["prepare"] = median(paused(lambda: holder["state"].prepare()), repeat, opened)

    def full_open():
        workspace, state = open_document(text)
        state.prepare()  # no quick open: the diagnostics below come from the tree and analysis
        holder["full"] = collect(state, workspace)

    r["full_open"] = median(paused(full_open), repeat, clear_content_caches)
    assert holder["full"] == holder["diags"], "the quick open and the analysis disagree"

    # One-character edits in the middle, alternately inserting and deleting "x".
    workspace, state = open_document(text)
    collect(state, workspace)
    state.prepare()  # as the server does once the open's diagnostics are answered
    engine = state._engine
    offset = edit_point(text)
    editor = Editor(state, offset)
    phases: list[tuple[float, float]] = []

    def one_edit():
        t0 = time.process_time()
        with paused_gc():
            editor()
        t1 = time.process_time()
        with paused_gc():
            collect(state, workspace)
        phases.append((t1 - t0, time.process_time() - t1))

    runs = max(21, repeat * 5)
    before = (engine.misses, engine.fast, engine.walks)
    r["edit"] = in_a_row(one_edit, runs)
    r["apply"] = statistics.median(p[0] for p in phases[:runs])
    r["analysis"] = statistics.median(p[1] for p in phases[:runs])
    r["engine"] = (engine.fast - before[1], engine.walks - before[2], (engine.misses - before[0]) / runs,
                   sum(1 for _ in state.analysis.body.each_block()))  # (after the timings: it decodes)
    r["edit_hover"] = in_a_row(lambda: (one_edit(), paused(lambda: hover(workspace.snapshot(), URI, offset))()), runs)
    semantic_tokens(workspace.snapshot(), URI)
    r["edit_tokens"] = in_a_row(lambda: (one_edit(), paused(lambda: semantic_tokens(workspace.snapshot(), URI))()), 7)
    return r


def in_a_row(fn, repeat: int) -> float:
    """Median CPU time of `fn` called `repeat` times in a row, as keystrokes come (no full
    collection before each call, unlike `median`: that would evict the caches a keystroke finds warm)."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


# ---- in-process LSP requests ---------------------------------------------------------------------


class _Wire:
    def __init__(self) -> None:
        self.bytes = 0
        self.writes = 0
        self.last = b""

    def write(self, data: bytes) -> None:
        self.bytes += len(data)
        self.writes += 1
        self.last = data

    def close(self) -> None:
        pass


def lsp_requests(text: str) -> dict[str, tuple[float, float, int]]:
    """documentSymbol, semanticTokens/full, foldingRange end to end: (first after an edit, again,
    response bytes); CPU seconds, medians of 3."""
    from hcljson_ls.lsp.server import create_server

    server = create_server()
    wire = _Wire()
    server.protocol.set_writer(wire)
    ids = iter(range(1, 1_000_000))

    loop = asyncio.new_event_loop()  # long requests are coroutines (cancellable): they run on it

    async def answered(writes: int) -> None:
        while wire.writes == writes:
            await asyncio.sleep(0)  # a cancellation point's pause is not CPU time: it is not counted

    def send(method: str, params: dict, request: bool = False) -> None:
        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            message["id"] = next(ids)
        structured = json.loads(json.dumps(message), object_hook=server.protocol.structure_message)
        writes = wire.writes
        asyncio.set_event_loop(loop)
        server.protocol.handle_message(structured)
        if request:
            loop.run_until_complete(answered(writes))

    caps = {"textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                             "foldingRange": {"lineFoldingOnly": True},
                             "diagnostic": {"dynamicRegistration": False}}}
    send("initialize", {"capabilities": caps}, request=True)
    send("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "terraform-json", "version": 1, "text": text}})
    state = server.store.get(URI)
    editor = Editor(state, edit_point(text))
    out = {}
    for name, method in (("documentSymbol", "textDocument/documentSymbol"),
                         ("semanticTokens/full", "textDocument/semanticTokens/full"),
                         ("foldingRange", "textDocument/foldingRange")):
        def ask(method=method):
            send(method, {"textDocument": {"uri": URI}}, request=True)

        first = median(ask, 3, editor)
        again = median(ask, 3)
        out[name] = (first, again, len(wire.last))
    server.publisher.cancel_all()
    asyncio.set_event_loop(None)
    loop.close()
    return out


def main(quick: bool = False) -> None:
    from hcljson_ls.lsp.server import tune_gc

    # Measure under the server's own collector settings (`lsp.server.create_server` raises the
    # thresholds: with a million live tree objects the defaults trigger full rescans constantly).
    print(f"cyclic GC thresholds: {tune_gc()} (as the server sets them)")
    print(f"providers: {', '.join(name for name, _ in PROVIDERS)}")
    print(f"first use: building the template and type parsers takes {first_use() * 1000:.0f} ms CPU (once per process)")
    rows = []
    for label, size in SIZES if not quick else SIZES[:2]:
        text = make(size)
        rows.append((label, text, measure(text, 3 if len(text) > 1_000_000 else 7)))
    ms = lambda s: f"{s * 1000:.1f}ms"  # noqa: E731
    base = rows[0][2]
    print()
    print("open (syntax + structure + templates + all diagnostics) vs the syntax-only parse; target open <= 2x parse")
    print(f"{'size':>7} {'bytes':>9} {'parse':>9} {'open':>9} {'open/parse':>10}   {'open, GC on':>15} {'ratio':>6} {'diagnostics':>11}")
    for label, _, r in rows:
        print(f"{label:>7} {r['bytes']:>9} {ms(r['parse']):>9} {ms(r['open']):>9} {r['open'] / r['parse']:>9.2f}x   "
              f"{ms(r['open_gc_on']):>15} {r['open_gc_on'] / r['parse']:>5.2f}x {r['diagnostics']:>11}")
    print("(parse and open each in one `gcpolicy.paused_gc`, as the server runs them; `GC on`: the same open")
    print(" with the collector running, i.e. what the edge policy saves)")
    print()
    print("the quick open against the full open (diagnostics from the tree and analysis), and what is built after the answer")
    print(f"{'size':>7} {'open':>9} {'full open':>10} {'open/full':>9} {'prepare':>9}")
    for label, _, r in rows:
        print(f"{label:>7} {ms(r['open']):>9} {ms(r['full_open']):>10} {r['open'] / r['full_open']:>8.2f}x {ms(r['prepare']):>9}")
    print()
    print(f"one-character edit in the middle, then all diagnostics; target: edit within ~2x the edit at {rows[0][0]}")
    print(f"{'size':>7} {'edit':>8} {'ratio':>6} {'= apply':>9} {'+ analysis':>10} {'ratio':>6}   {'engine: fast/walks, blocks per edit':<36}"
          f" {'+hover':>8} {'+tokens':>9}")
    ms2 = lambda s: f"{s * 1000:.2f}ms"  # noqa: E731
    for label, _, r in rows:
        fast, walks, per_edit, blocks = r["engine"]
        engine = f"{fast}/{walks}, {per_edit:.0f} of {blocks}"
        print(f"{label:>7} {ms2(r['edit']):>8} {r['edit'] / base['edit']:>5.1f}x {ms2(r['apply']):>9} {ms2(r['analysis']):>10} "
              f"{r['analysis'] / base['analysis']:>5.1f}x   {engine:<36} {ms2(r['edit_hover']):>8} {ms(r['edit_tokens']):>9}")
    print("(apply = the text splice (one chunk of the TextBuffer), line index and JSON reparse: `text/` and `jsonsyntax/`;")
    print(" analysis = everything after it, reading slices of the buffer: the per-edit cost of the later layers;")
    print(" +hover joins the text once per version (hover takes a str), +tokens recomputes the edited block's tokens)")
    label, text, _ = rows[-1]
    print()
    print(f"in-process LSP requests on {label} (handler + conversion + pygls serialization, CPU)")
    print(f"{'request':>20} {'after an edit':>14} {'again':>9} {'response':>10}")
    for name, (first, again, size) in lsp_requests(text).items():
        print(f"{name:>20} {ms(first):>14} {ms(again):>9} {size / 1e6:>8.1f}MB")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
