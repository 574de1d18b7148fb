"""Formatting benchmark: `features.formatting.document_edits` against `json.dumps(json.loads(text), indent=2)`.

Run: python bench/bench_format.py   (python bench/bench_format.py --quick for a smoke run)

For a 5 MB (and a 500 KB) CDKTF-like document (`cdktf_doc.make`, indented as `cdktf synth` writes
it) it prints, each as a median of process CPU time measured alternately with the reference
`json.dumps(json.loads(text), indent=2)` (so both see the same machine), and the ratio (target at
5 MB: <= 2x):
  * the document as `cdktf synth` writes it (its short arrays of scalars are joined on one line);
  * the same document once formatted (no edit: what format on save costs on a tidy file);
  * the document minified (`separators=(",", ":")`: every gap between two tokens gets an edit);
and, apart, the cost of turning the minified document's edits into LSP `TextEdit` JSON
(`lsp.convert.to_text_edits`, positions in bulk), which the server adds to a request.
The formatter reads only the text: the request's syntax check uses the parse the server already has.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "features"))  # feat_support

from cdktf_doc import make
from feat_support import apply_edits

from hcljson_ls.features.formatting import Layout, document_edits
from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.lsp.convert import to_text_edits
from hcljson_ls.text.line_index import LineIndex

SIZES = [("500 KB", 500_000), ("5 MB", 5_000_000)]
TARGET = 2.0


def cpu(fn) -> float:
    gc.collect()
    t0 = time.process_time()
    with paused_gc():  # as the server runs a request
        fn()
    return time.process_time() - t0


def paired(reference, fn, repeat: int) -> tuple[float, float]:
    ref, times = [], []
    for _ in range(repeat):
        ref.append(cpu(reference))
        times.append(cpu(fn))
    return statistics.median(ref), statistics.median(times)


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = 1 if quick else 5
    layout = Layout()
    for label, size in SIZES[:1] if quick else SIZES:
        text = make(size)
        formatted = apply_edits(text, document_edits(text, layout))
        minified = json.dumps(json.loads(text), separators=(",", ":"))
        print(f"{label} ({len(text):,} characters):")
        for name, doc in [("as cdktf synth writes it", text), ("already formatted", formatted), ("minified", minified)]:
            edits = document_edits(doc, layout)
            ref, took = paired(lambda doc=doc: json.dumps(json.loads(doc), indent=2),
                               lambda doc=doc: document_edits(doc, layout), repeat)
            ratio = took / ref
            verdict = "PASS" if ratio <= TARGET else "FAIL"
            print(f"  {name:26} {len(edits):>8,} edits  {took * 1000:7.0f} ms  reference {ref * 1000:6.0f} ms"
                  f"  {ratio:4.2f}x (target <= {TARGET:.0f}x: {verdict})")
        edits = document_edits(minified, layout)
        index = LineIndex(minified)
        took = statistics.median(cpu(lambda: to_text_edits(edits, index, "utf-16")) for _ in range(repeat))
        print(f"  minified: its {len(edits):,} edits as LSP TextEdit JSON: {took * 1000:.0f} ms more")


if __name__ == "__main__":
    main()
