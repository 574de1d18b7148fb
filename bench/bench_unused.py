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
nothing. Nothing is asserted: figures are printed.
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
        workspace.sync_declarations(uri)


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
        at = text.index('"ami-0c55b159cbfafe1f0"', len(text) // 2) + 5
        version = 2
        for i in range(5):
            if i % 2 == 0:
                change(workspace, main_uri, version, at, at, "x")
            else:
                change(workspace, main_uri, version, at, at + 1, "")
            version += 1
            rows["neutral"].append(cpu(lambda: unused_declarations(workspace.snapshot(), main_uri)))
        insert = ', "p": {"value": "${var.v298}"}'
        at2 = OTHER.index("}}}") + 1  # after the object of output "o"
        for i in range(5):
            if i % 2 == 0:
                change(workspace, other_uri, version, at2, at2, insert)
            else:
                change(workspace, other_uri, version, at2, at2 + len(insert), "")
            version += 1
            rows["ref"].append(cpu(lambda: unused_declarations(workspace.snapshot(), main_uri)))
        at3 = text.index('"l0"') + 3  # the name of local l0: typing makes it l0x, then l0 again
        for i in range(5):
            if i % 2 == 0:
                change(workspace, main_uri, version, at3, at3, "x")
            else:
                change(workspace, main_uri, version, at3, at3 + 1, "")
            version += 1
            rows["declared"].append(cpu(lambda: unused_declarations(workspace.snapshot(), main_uri)))
    print(f"{len(text) / 1e6:.1f} MB: json.loads {loads * 1000:.1f} ms, {hints} hints")
    for name, values in rows.items():
        m = statistics.median(values)
        print(f"  {name:8} {m * 1000:9.2f} ms  {m / loads:7.3f}x json.loads  (max {max(values) * 1000:.2f} ms)")


def main() -> int:
    sizes = [float(a) for a in sys.argv[1:]] or [1.5, 5.0]
    gc.collect()
    for mb in sizes:
        run(int(mb * 1_000_000))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
