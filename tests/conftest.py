"""Shared test settings: where things are, and running the real `hcljson-ls` command (`cli` fixture)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]

#: Under CI (`CI=true`), every Hypothesis test runs the same examples on every run (derandomized)
#: and reads or saves no example database: a failure once saved in a local `.hypothesis/` can never
#: make a CI run fail, and a CI failure reproduces by running again. Elsewhere Hypothesis's defaults.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
    settings.load_profile("ci")

#: The server/CLI exactly as users start it, from the interpreter running the tests.
HCLJSON_LS = [sys.executable, "-m", "hcljson_ls"]


def _run_cli(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `hcljson-ls ARGS...` in a subprocess; output decoded as UTF-8."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [*HCLJSON_LS, *map(str, args)],
        cwd=cwd or REPO,
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """`cli("check", "examples")` runs the real command in a subprocess (cwd: the repository)."""
    return _run_cli


@pytest.fixture
def repo() -> Path:
    return REPO
