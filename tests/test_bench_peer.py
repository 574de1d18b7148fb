"""`bench/peer.py` runs end to end in its tiny mode, so the side-by-side benchmark cannot rot.

It starts the real server over stdio on a 50 KB document (and the peer, vscode-json-language-server,
only when it is already installed in `bench/.peer/`: the suite never installs it). Timings are printed,
never asserted: this checks that every figure was measured and the table has its rows.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PEER_BIN = REPO / "bench" / ".peer" / "node_modules" / "vscode-langservers-extracted" / "bin" / "vscode-json-language-server"


def test_peer_benchmark_runs_in_quick_mode(tmp_path):
    with_peer = PEER_BIN.exists()
    argv = [sys.executable, str(REPO / "bench" / "peer.py"), "--quick", "--sizes", "50KB"]
    if not with_peer:
        argv.append("--ours-only")
    chart = tmp_path / "peer.png"
    try:
        import matplotlib  # noqa: F401  # lazy: the optional bench extra

        argv += ["--chart", str(chart)]
    except ImportError:  # the optional `bench` extra is not installed: the table alone
        chart = None
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|")[:2]): line
            for line in done.stdout.splitlines() if line.startswith("| 50KB |")}
    for figure in ("open -> diagnostics", "edit -> diagnostics", "completion in a key", "completion in a value",
                   "peak RSS", "cold: this document opened first, no warm-up -> its diagnostics",
                   "cold: then an edit, sent as they arrive -> its diagnostics"):
        line = rows[("50KB", figure)]
        ours = line.split("|")[3].strip()
        assert re.fullmatch(r"[\d.]+ (ms|s|MB)", ours), line
        if with_peer:
            assert re.search(r"\d\.\d\dx", line), line  # the ratio, ours / peer
    overhead = rows[("50KB", "our overhead before our handler (didOpen read, decoded, structured)")]
    assert re.search(r"\| [\d.]+ ms \|", overhead), overhead  # HCLJSON_LS_TIMING reported it
    assert rows[("50KB", "diagnostics found")].split("|")[3].strip() == "0"  # the generated document is valid
    if chart is not None:
        assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
