"""Instructions one in-process open costs, the working tree against a git revision: a comparison that
the machine's noise does not move (valgrind's callgrind counts instructions, not time).

Run: python bench/bench_instructions.py [--before REV] [--sizes 5MB,5MB-undeclared]     (REV: HEAD)
     python bench/bench_instructions.py --sizes 5MB-aws     (AWS resources, the AWS schema loaded)

Why: on the project's shared 2-core machines the same open's CPU time moves by up to 30% from one
process to the next (session 17: 145-195 ms for one commit's 5 MB open, in-process), so a change
worth 2-5% cannot be told from noise by timing, however many runs. An instruction count is the same
in every run (PYTHONHASHSEED fixed: within 0.1%), so a change's effect on the work the open does
shows at once. It is not a time: memory effects (a smaller object, fewer cache misses) do not show,
and `peer.py` stays the measure of the targets.

What is counted: `Workspace.open` of the document, then the diagnostics in their LSP forms with the
default settings (`diagnostic_forms.document_forms`, what the server's pull answer computes), after
a warm-up open of a tiny document (imports, caches). Only that call is counted: it runs inside
`functools.reduce`, and callgrind collects only under that C function (`--toggle-collect`).

Each side runs in its own process under valgrind (~1 minute for 5 MB; the two sides run side by
side): the working tree's `server/`, and REV's checked out into a temporary worktree. Prints the
counts and the ratio after / before. Documents: `peer.py`'s ("5MB", "5MB-undeclared", ...), and
"5MB-aws": `bench_schemas.make_aws`'s document of real AWS resources, opened in workspaces that loaded
the AWS 4.13 schema of the test data before the count (the quick open's schema checks are counted).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parents[1]
URI = "file:///bench/stack/cdk.tf.json"

#: The program each side runs under callgrind: argv[1] the document's path, argv[2] (optional) a provider
#: schema file every workspace loads before it opens a document.
_PROGRAM = f"""
import functools, gc, sys
from hcljson_ls.lsp import diagnostic_forms
from hcljson_ls.lsp.config import DiagnosticsSettings
from hcljson_ls.workspace import Workspace
from hcljson_ls.workspace.files import module_key
gc.disable()
def workspace():
    ws = Workspace()
    if len(sys.argv) > 2:
        ws.set_schema_files([sys.argv[2]])
        ws.provider_schemas(module_key({URI!r}))
    return ws
def once(ws, text):
    ws.open({URI!r}, text, 1, "terraform-json")
    return diagnostic_forms.document_forms(ws, {URI!r}, DiagnosticsSettings(), diagnostic_forms.Forms(), "utf-16")
once(workspace(), '{{"resource": {{"aws_instance": {{"a": {{"ami": "${{var.x}}"}}}}}}, "variable": {{"x": {{}}}}}}')
text = open(sys.argv[1], encoding="utf-8").read()
ws = workspace()
functools.reduce(lambda a, b: once(ws, text), [0, 1])
"""


def count(server: Path, document: Path, out: Path, schema: Path | None = None) -> subprocess.Popen:
    """Start callgrind on one open of `document` with the package of `server` (and `schema` loaded)."""
    env = {**os.environ, "PYTHONPATH": str(server), "PYTHONHASHSEED": "0"}
    return subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
         f"--callgrind-out-file={out}", sys.executable, "-c", _PROGRAM, str(document), *([str(schema)] if schema else [])],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def collected(process: subprocess.Popen) -> int:
    """The instruction count callgrind reports on its way out."""
    _, err = process.communicate()
    for line in err.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1])
    raise SystemExit(f"callgrind reported no count:\n{err[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="HEAD", help="the git revision to compare with (default HEAD)")
    parser.add_argument("--sizes", default="5MB,5MB-undeclared", help="documents of peer.py, comma-separated")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: this benchmark counts instructions with its callgrind")
    import peer  # (its documents; imported here: it is a script with heavier imports)

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.before],
                       check=True, capture_output=True)
        try:
            print(f"| document | {args.before} | working tree | after / before |")
            print("|---|---|---|---|")
            for size in args.sizes.split(","):
                document = Path(tmp) / f"{size}.json"
                schema = None
                if size == "5MB-aws":
                    import bench_schemas
                    document.write_text(bench_schemas.make_aws(5_000_000), encoding="utf-8")
                    schema = bench_schemas.default_schema_file()
                else:
                    document.write_text(peer.document(size), encoding="utf-8")
                before = count(base / "server", document, Path(tmp) / f"{size}.before.out", schema)
                after = count(ROOT / "server", document, Path(tmp) / f"{size}.after.out", schema)
                b, a = collected(before), collected(after)
                print(f"| {size} | {b:,} | {a:,} | {a / b:.3f}x |", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)


if __name__ == "__main__":
    main()
