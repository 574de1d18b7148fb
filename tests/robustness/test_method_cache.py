"""The real server keeps the methods attrs and dataclasses generate, compiled, in its cache directory
(`compiled_methods`): the first server writes them, the next reads them and writes nothing, and one
whose cache was damaged answers right and mends it."""

from __future__ import annotations

from pathlib import Path

from .conftest import OPTIONS, still_right
from .wire import Wire


def _serve(env: dict[str, str], home: Path) -> None:
    with Wire.start(env=env, cwd=str(home)) as wire:
        wire.initialize(options=OPTIONS)
        still_right(wire)  # (a hover: answered by the full server, after its import)


def _caches(home: Path) -> dict[str, tuple[int, int, int]]:
    found = (home / ".cache" / "hcljson-ls" / "compiled-methods").glob("*.methods")
    return {p.name.split(".")[0]: (p.stat().st_size, p.stat().st_mtime_ns, p.stat().st_ino) for p in found}


def test_the_first_server_writes_the_caches_and_the_next_reads_them(env: dict[str, str], home: Path):
    _serve(env, home)
    first = _caches(home)
    # lsprotocol's attrs methods (and pygls's dataclasses), and the analysis layers' dataclasses
    # imported before the first document is answered (`lsp.first_open`)
    assert {"lsp-server", "first-open"} <= set(first), first
    assert first["first-open"][0] > 200_000 and first["lsp-server"][0] > 500_000, first
    _serve(env, home)
    assert _caches(home) == first

    damaged = next((home / ".cache" / "hcljson-ls" / "compiled-methods").glob("lsp-server.*.methods"))
    damaged.write_bytes(b"\x00damaged")
    _serve(env, home)
    assert _caches(home)["lsp-server"][0] == first["lsp-server"][0]
