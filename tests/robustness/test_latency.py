"""A request is answered promptly while the server indexes the workspace, through the real process.

`bench/bench_latency.py` measures it against the promise (p95 at most 20 ms); this test is looser, so
that a loaded two-core CI machine passes it: p95 at most `LOOSE_P95_MS` over the hovers answered
while the background scan runs. pygls's reader took 115-150 ms per request there (a line at a time
through an executor, each line waiting for a scan slice).

A wait is counted as the server's CPU time between the request and its answer (`Wire.cpu_seconds`):
the work the server did before answering (the scan slice it finished, then the hover). Unlike the
wall clock, it does not grow while the server waits for a core that another test (pytest-xdist's
other worker) is using; on a quiet machine the two agree (the server is busy throughout the scan).

The first request after the first document's open is not counted: `lsp.first_open` answers that
document before the server is imported, so the first other request waits for the import (0.3 s,
more where bytecode is not cached), and the scan starts only then. That is start-up, which
`bench/peer.py` measures; counted here, it was the p95 itself whenever the scan was over within
about 20 requests (a fast machine)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from .conftest import OPTIONS, VALID, VALID_HOVER
from .wire import SERVER, Wire

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_latency import percentile, write_workspace

LOOSE_P95_MS = 100.0
MODULES = 400  # (a scan long enough for 10 and more requests on a fast, quiet machine)


def test_requests_wait_little_while_the_workspace_is_indexed(env: dict[str, str], home: Path, tmp_path: Path):
    root = tmp_path / "workspace"
    root.mkdir()
    write_workspace(root, MODULES)
    with Wire.start(env=env, cwd=str(home), command=[*SERVER, "--log-level", "info"]) as wire:
        wire.initialize(root=str(root), options=OPTIONS)
        uri = (root / "m00000" / "open.tf.json").as_uri()
        wire.open(uri, VALID)
        params = {"textDocument": {"uri": uri}, "position": {"line": VALID_HOVER[0], "character": VALID_HOVER[1]}}
        wire.request("textDocument/hover", params, timeout=30)  # (start-up: the server imported, the scan started)
        waits: list[float] = []  # CPU ms of the server per request
        walls: list[float] = []  # wall-clock ms, for the failure message
        deadline = time.monotonic() + 120
        while "workspace scanned" not in wire.log() and time.monotonic() < deadline:
            started, started_cpu = time.perf_counter(), wire.cpu_seconds()
            answer = wire.request("textDocument/hover", params, timeout=30)
            took, took_cpu = (time.perf_counter() - started) * 1000, (wire.cpu_seconds() - started_cpu) * 1000
            assert 'variable "region"' in answer["result"]["contents"]["value"], answer
            if "workspace scanned" not in wire.log():
                waits.append(took_cpu)
                walls.append(took)
            time.sleep(0.02)
        assert "workspace scanned" in wire.log()
        assert len(waits) >= 5, f"the scan of {MODULES} modules was over before 5 requests: {waits}"
        p95 = percentile(waits, 0.95)
        assert p95 <= LOOSE_P95_MS, json.dumps({"p95_cpu_ms": p95, "cpu_ms": sorted(waits), "wall_ms": sorted(walls)})
