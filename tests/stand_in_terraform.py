"""A stand-in `terraform` (or `tofu`) for the tests of the automatic provider-schema route: a POSIX
shell script that appends one line per run to a counter file (``<cwd> <args> TF_IN_AUTOMATION=<value>``),
then does what the test asked: print a schema file, fail, hang, or print garbage.

    StandIn(bin_dir).install(name="terraform", prints=path | None, body=None) -> Path
    StandIn.runs() -> list[str]         the counter file's lines (one per run, of any installed tool)
    StandIn.path_first() -> str         a PATH with `bin_dir` first (the real tools stay reachable after it)

The tests must never reach the real `terraform` (there may be one on this machine): the stand-in is
always first on PATH, and a test that wants "no tool at all" uses a PATH without it.
"""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path


class StandIn:
    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.counter = bin_dir / "runs.log"
        bin_dir.mkdir(parents=True, exist_ok=True)

    def install(self, name: str = "terraform", prints: Path | None = None, body: str | None = None) -> Path:
        """Write `bin_dir/name`: it logs its run, then runs `body` (shell) or prints the file `prints`."""
        action = body if body is not None else f"cat {shlex.quote(str(prints))}"
        script = self.bin_dir / name
        script.write_text(
            "#!/bin/sh\n"
            "PATH=/usr/bin:/bin; export PATH\n"
            f'echo "$(pwd) $* TF_IN_AUTOMATION=$TF_IN_AUTOMATION" >> {shlex.quote(str(self.counter))}\n'
            f"{action}\n",
            encoding="utf-8",
        )
        script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return script

    def runs(self) -> list[str]:
        return self.counter.read_text(encoding="utf-8").splitlines() if self.counter.exists() else []

    def path_first(self) -> str:
        return os.pathsep.join([str(self.bin_dir), os.environ.get("PATH", "")])
