"""The static checks run as tests: the type checker (mypy, configured in `pyproject.toml`) over
`server/`, and the linter (ruff, its rule set in `pyproject.toml`) over the code and the tests.
Both are test dependencies, so a plain `pip install '.[test]'` runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_the_server_type_checks():
    """mypy with the project's configuration: no error, and no `# type: ignore` left unused."""
    result = _run("mypy", "--no-incremental")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_and_the_tests_pass_the_linter():
    result = _run("ruff", "check", "--no-cache", "server", "tests", "tools", "bench")
    assert result.returncode == 0, result.stdout + result.stderr
