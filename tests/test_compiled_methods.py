"""`compiled_methods`: the methods attrs (lsprotocol's) and dataclasses (ours) generate are read from
the cache the first import wrote, they are the very code `compile` gives, and a bad or unwritable
cache only costs the compile.

Each import runs in a fresh interpreter: this one has imported lsprotocol already."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

from hcljson_ls.compiled_methods import BATCH, HEADER, STALE, cache_file, read_cache

#: Imports lsprotocol inside `kept(directory)`, uses its classes and cattrs's converter, and prints
#: the counts and what the classes did.
IMPORT = """
import json, sys
from hcljson_ls.compiled_methods import kept
assert "lsprotocol.types" not in sys.modules
with kept(sys.argv[1] if sys.argv[1] != "-" else None, "lsp", "attr._make") as counts:
    from lsprotocol import types
from pygls.protocol import default_converter
a, b = types.Position(line=1, character=2), types.Position(line=1, character=2)
params = default_converter().structure(
    {"textDocument": {"uri": "file:///a.tf.json"}, "position": {"line": 3, "character": 4}}, types.HoverParams)
print(json.dumps({"read": counts.read, "compiled": counts.compiled, "equal": a == b, "repr": repr(types.TextDocumentIdentifier(uri="x")),
                  "structured": params.position.character, "patched": hasattr(__import__("attr._make").
                  _make, "compile")}))
"""


def _import(directory: Path | None) -> dict:
    done = subprocess.run([sys.executable, "-c", IMPORT, str(directory) if directory else "-"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert (got["equal"], got["repr"], got["structured"], got["patched"]) == (True, "TextDocumentIdentifier(uri='x')", 4, False)
    return got


def test_the_second_import_reads_what_the_first_compiled(tmp_path: Path):
    first = _import(tmp_path)
    path = Path(cache_file(str(tmp_path), "lsp"))
    assert first["read"] == 0 and first["compiled"] > 500, first
    written = path.stat()
    second = _import(tmp_path)
    assert second["read"] >= first["compiled"] - STALE and second["compiled"] <= STALE, (first, second)
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == (written.st_mtime_ns, written.st_ino)  # not written again


def test_a_cache_in_the_format_before_the_batches_is_replaced(tmp_path: Path):
    path = Path(cache_file(str(tmp_path), "lsp"))
    before = path.with_suffix(".marshal")  # (one marshalled dict: read in one call)
    before.write_bytes(marshal.dumps({}))
    assert _import(tmp_path)["compiled"] > 500  # (not read)
    assert path.exists() and not before.exists()


def test_the_cache_is_read_a_batch_at_a_time(tmp_path: Path):
    """Written in batches of at most `BATCH` methods, each marshalled on its own (one `marshal.load`
    of the whole held the interpreter 15-30 ms while the server answered its first document)."""
    _import(tmp_path)
    data = Path(cache_file(str(tmp_path), "lsp")).read_bytes()
    assert data.startswith(HEADER)
    sizes, at = [], len(HEADER)
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "little")
        sizes.append(len(marshal.loads(data[at + 4:at + 4 + size])))
        at += 4 + size
    assert at == len(data) and len(sizes) > 10 and max(sizes) <= BATCH
    assert sum(sizes) == len(read_cache(cache_file(str(tmp_path), "lsp"))) > 500


def test_what_is_kept_is_the_code_compile_gives(tmp_path: Path):
    _import(tmp_path)
    check = """
import __future__, sys
from hcljson_ls.compiled_methods import read_cache
kept = read_cache(sys.argv[1])
flags = __future__.annotations.compiler_flag  # (attrs's module compiles under it)
same = sum(code == compile(*key, flags=flags, dont_inherit=True) for key, code in kept.items())
print(same, len(kept))
"""
    done = subprocess.run([sys.executable, "-c", check, cache_file(str(tmp_path), "lsp")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    same, total = map(int, done.stdout.split())
    assert total > 500 and same == total, done.stdout


def test_a_damaged_cache_is_compiled_afresh_and_written_again(tmp_path: Path):
    path = Path(cache_file(str(tmp_path), "lsp"))
    whole = HEADER + len(batch := marshal.dumps({("x = 1", "<string>", "exec"): compile("x = 1", "<s>", "exec")})).to_bytes(4, "little") + batch
    # Empty, garbage, a marshalled int, a marshalled dict (the format before the batches), a batch cut short.
    for damage in (b"", b"\x00not marshal", b"\xe9\x01\x00\x00\x00", marshal.dumps({}), whole[:-3]):
        path.write_bytes(damage)
        got = _import(tmp_path)
        assert got["read"] == 0 and got["compiled"] > 500, (damage, got)
        assert path.stat().st_size > 100_000, damage
    assert _import(tmp_path)["read"] > 500


def test_an_unwritable_cache_or_none_costs_only_the_compile(tmp_path: Path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory", encoding="utf-8")
    got = _import(blocked / "cache")  # (its parent is a file: nothing can be written there)
    assert got["read"] == 0 and got["compiled"] > 500
    assert _import(None) == {**got, "compiled": 0}
    assert not any(name.startswith(".methods") for name in os.listdir(tmp_path))


#: Imports the analysis layers inside `kept(directory, "layers", "dataclasses")`, uses dataclasses of
#: them (frozen, slotted, ordered) and prints the counts and what the classes did.
LAYERS = """
import dataclasses, json, sys
from hcljson_ls.compiled_methods import kept
assert "hcljson_ls.workspace" not in sys.modules
with kept(sys.argv[1], "layers", "dataclasses") as counts:
    from hcljson_ls.diagnostic import Diagnostic, Fix
    from hcljson_ls.workspace import Workspace
a = Diagnostic(1, 2, "error", "x/y", "m", "d", fixes=(Fix(1, 2, "z", "t"),))
b = dataclasses.replace(a)
ws = Workspace()
ws.open("file:///m/main.tf.json", '{"output": {"o": {"value": "${var.nope}"}}}', 1, "json")
from hcljson_ls.features.diagnostics import collect
codes = [d.code for d in collect(ws.snapshot(), "file:///m/main.tf.json")]
print(json.dumps({"read": counts.read, "compiled": counts.compiled, "equal": a == b, "hash": hash(a) == hash(b),
                  "repr": repr(a.fixes[0]), "codes": codes, "patched": hasattr(dataclasses, "exec")}))
"""


def test_the_layers_dataclasses_are_read_from_the_cache_the_first_import_wrote(tmp_path: Path):
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", LAYERS, str(tmp_path)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    first, second = runs
    assert first["compiled"] > 300 and first["read"] == 0, first
    assert second["read"] == first["compiled"] and second["compiled"] == 0, second
    for got in runs:
        assert (got["equal"], got["hash"], got["codes"], got["patched"]) == (True, True, ["reference/undeclared"], False)
        assert got["repr"].startswith("Fix(start=1, end=2")
