"""Opening a document and editing it: every layer's share, as ratios to the syntax-only parse.

Run: python bench/bench_open.py            (50 KB, 500 KB, 5 MB)
     python bench/bench_open.py --quick    (50 KB and 500 KB only)

On the generated CDKTF-like documents of `cdktf_doc.make(size)` it prints, per size (medians of
process CPU time over several runs, each on a fresh document state):

* parse       JSON syntax parse only (`jsonsyntax.parse`)
* structure   HCL JSON decode + structural and Terraform diagnostics (`terraform.validate.analyze`)
* templates   every string checked by its schema mode (`terraform.templates.check_strings`)
* open        `DocumentState.open` + `features.diagnostics.collect` (all registered providers);
              also with the cyclic GC paused throughout, to show the collections' share
* tokens      semantic tokens of the whole document, not cached (`features.semantic_tokens`)
and the ratios structure/parse and open/parse (targets: issue 3, decode + structural diagnostics
within 2x the syntax parse; issue 4, the whole open -- syntax + structure + templates +
diagnostics -- within 2x the syntax parse).

Content caches (parsed templates by string content) are cleared before each run, so "templates"
and "open" are what a server pays for a document it has not seen; the Lark parsers themselves
are built once per process (the first-use cost is printed separately). Then a one-character edit
in the middle of the document (`apply_changes` + `collect` again, alternately inserting and
deleting a character) and how many top-level blocks the decoder and the template checks walked
again for it. Timings are printed only; nothing is asserted here.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdktf_doc import make  # noqa: E402

from hcljson_ls.features.analysis import DECODE_CACHE_KEY, terraform_analysis  # noqa: E402
from hcljson_ls.features.diagnostics import PROVIDERS, collect  # noqa: E402
from hcljson_ls.features.semantic_tokens import CACHE_KEY as TOKENS_KEY  # noqa: E402
from hcljson_ls.features.semantic_tokens import _string_tokens, semantic_tokens, tokens_for_body  # noqa: E402
from hcljson_ls.features.state import DocumentState  # noqa: E402
from hcljson_ls.jsonsyntax import no_gc, parse  # noqa: E402
from hcljson_ls.terraform import templates  # noqa: E402
from hcljson_ls.terraform.templates import template_diagnostics_provider  # noqa: E402
from hcljson_ls.terraform.validate import analyze  # noqa: E402

SIZES = [("50 KB", 50_000), ("500 KB", 500_000), ("5 MB", 5_000_000)]
URI = "file:///bench/cdk.tf.json"


def clear_content_caches() -> None:
    """Forget parsed strings (by content) in the template layer and here; keep the built parsers."""
    from hcljson_ls.template import parse as tparse
    from hcljson_ls.template import types as ttypes

    for f in (tparse.parse_template_relative, tparse.parse_expression_relative, ttypes.parse_type_relative,
              templates._template_raw, templates._other_raw, templates._reference_relative):
        f.cache_clear()


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


def measure(text: str, repeat: int) -> dict:
    r: dict = {"bytes": len(text)}
    r["parse"] = median(lambda: parse(text), repeat)
    root = parse(text).root
    r["structure"] = median(lambda: analyze(text, root, URI), repeat)
    body, _ = analyze(text, root, URI)
    counts = templates.new_counts()
    templates.check_strings(text, body, None, counts)
    r["strings"] = counts
    r["templates"] = median(lambda: templates.check_strings(text, body), repeat, clear_content_caches)
    r["templates_warm"] = median(lambda: templates.check_strings(text, body), repeat)

    holder: dict = {}

    def open_doc():
        state = DocumentState.open(URI, text, 1, "terraform-json")
        holder["diags"] = collect(state)
        holder["state"] = state

    r["open"] = median(open_doc, repeat, clear_content_caches)

    def open_doc_no_gc():
        with no_gc():
            open_doc()

    r["open_no_gc"] = median(open_doc_no_gc, repeat, clear_content_caches)
    r["diagnostics"] = len(holder["diags"])
    state = holder["state"]
    r["tokens"] = median(lambda: tokens_for_body(text, body), repeat, _string_tokens.cache_clear)
    r["token_count"] = len(semantic_tokens(state))

    # One-character edits in the middle, alternately inserting and deleting "x".
    state = DocumentState.open(URI, text, 1, "terraform-json")
    collect(state)
    semantic_tokens(state)
    decode_cache = state.kept(DECODE_CACHE_KEY, lambda: None)
    tpl_cache = state.kept(templates.RESULTS_KEY, templates.new_cache)
    tok_cache = state.kept(TOKENS_KEY, lambda: None)
    offset = edit_point(text)
    line, char = state.line_index.position(offset)
    flip = [False]
    walked: list[tuple[int, int, int]] = []

    phases: list[tuple[float, float, float]] = []

    def one_edit():
        if flip[0]:
            change = {"range": {"start": {"line": line, "character": char}, "end": {"line": line, "character": char + 1}}, "text": ""}
        else:
            change = {"range": {"start": {"line": line, "character": char}, "end": {"line": line, "character": char}}, "text": "x"}
        flip[0] = not flip[0]
        before = (decode_cache.misses, tpl_cache.misses)
        t0 = time.process_time()
        state.apply_changes([change], version=state.version + 1)
        t1 = time.process_time()
        terraform_analysis(state)  # decode + structural diagnostics (cached for collect)
        t2 = time.process_time()
        template_diagnostics_provider(state, terraform_analysis)  # (cached for collect)
        t3 = time.process_time()
        collect(state)
        phases.append((t1 - t0, t2 - t1, t3 - t2))
        walked.append((decode_cache.misses - before[0], tpl_cache.misses - before[1], len(tpl_cache)))

    r["edit"] = median(one_edit, max(9, repeat * 3))
    r["edit_phases"] = tuple(statistics.median(p[i] for p in phases) for i in range(3))
    r["walked"] = walked[-1]
    r["edit_tokens"] = median(lambda: (state.apply_changes([{"range": {"start": {"line": line, "character": char}, "end": {"line": line, "character": char}}, "text": "x"}], version=state.version + 1), semantic_tokens(state)), 5)
    r["tok_walked"] = tok_cache.misses
    return r


def main(quick: bool = False) -> None:
    print(f"providers: {', '.join(name for name, _ in PROVIDERS)}")
    print(f"first use: building the template and type parsers takes {first_use() * 1000:.0f} ms CPU (once per process)")
    rows = []
    for label, size in SIZES if not quick else SIZES[:2]:
        text = make(size)
        rows.append((label, measure(text, 3 if len(text) > 1_000_000 else 7)))
    ms = lambda s: f"{s * 1000:.1f}ms"  # noqa: E731
    print()
    print(f"{'size':>7} {'bytes':>9} {'parse':>9} {'structure':>10} {'templates':>10} {'open':>9} "
          f"{'struct/parse':>12} {'tpl/parse':>9} {'open/parse':>10}   {'open, no GC':>11} {'ratio':>6}   {'tokens':>9}")
    for label, r in rows:
        p = r["parse"]
        print(f"{label:>7} {r['bytes']:>9} {ms(p):>9} {ms(r['structure']):>10} {ms(r['templates']):>10} "
              f"{ms(r['open']):>9} {r['structure'] / p:>11.2f}x {r['templates'] / p:>8.2f}x {r['open'] / p:>9.2f}x   "
              f"{ms(r['open_no_gc']):>11} {r['open_no_gc'] / p:>5.2f}x   {ms(r['tokens']):>9}")
    print("(open, no GC: the same open with the cyclic garbage collector paused throughout, which shows what the")
    print(" collections triggered between the layers' own no_gc sections cost on a large live tree)")
    print()
    for label, r in rows:
        c = r["strings"]
        print(f"{label:>7}: {c['template']} templates parsed, {c['traversal']} references, {c['native']} native, "
              f"{c['type']} types, {c['plain']} plain strings skipped; templates warm (content cached) "
              f"{ms(r['templates_warm'])}; {r['diagnostics']} diagnostics; {r['token_count']} semantic tokens")
    print()
    print("one-character edit in the middle: apply_changes + all diagnostics again")
    for label, r in rows:
        dec, tpl, blocks = r["walked"]
        apply, structure, tpl_time = r["edit_phases"]
        print(f"{label:>7}: {ms(r['edit'])} (edit/parse {r['edit'] / r['parse']:.2f}x) = apply_changes {ms(apply)} + "
              f"structure {ms(structure)} + templates {ms(tpl_time)} + rest; top-level blocks decoded again: {dec}, "
              f"walked again by the template checks: {tpl} of {blocks}; edit + semantic tokens {ms(r['edit_tokens'])}")
    print()
    print("targets: structure <= 2x parse (issue 3); open (syntax + structure + templates + diagnostics) <= 2x parse (issue 4)")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
