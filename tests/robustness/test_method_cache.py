"""The real server keeps lsprotocol's compiled attrs methods in its cache directory
(`lsp.compiled_methods`): the first server writes them, the next reads them and writes nothing, and
one whose cache was damaged answers right and mends it."""

from __future__ import annotations

from pathlib import Path

from .conftest import OPTIONS, still_right
from .wire import Wire


def _serve(env: dict[str, str], home: Path) -> None:
    with Wire.start(env=env, cwd=str(home)) as wire:
        wire.initialize(options=OPTIONS)
        still_right(wire)  # (a hover: answered by the full server, after its import)


def _cache(home: Path) -> Path:
    found = list((home / ".cache" / "hcljson-ls" / "attrs-methods").glob("attrs-methods.*.marshal"))
    assert len(found) == 1, found
    return found[0]


def test_the_first_server_writes_the_cache_and_the_next_reads_it(env: dict[str, str], home: Path):
    _serve(env, home)
    path = _cache(home)
    first = path.stat()
    assert first.st_size > 100_000
    _serve(env, home)
    assert (_cache(home).stat().st_mtime_ns, path.stat().st_ino) == (first.st_mtime_ns, first.st_ino)

    path.write_bytes(b"\x00damaged")
    _serve(env, home)
    assert path.stat().st_size == first.st_size
