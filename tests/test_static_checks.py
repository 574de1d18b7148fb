"""The static checks run as tests: the type checker (mypy, configured in `pyproject.toml`) over
`server/`, and the linter (ruff, its rule set in `pyproject.toml`) over the code and the tests.
Both are test dependencies, so a plain `pip install '.[test]'` runs them."""

from __future__ import annotations

import json
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
    result = _run("ruff", "check", "--no-cache", "--output-format", "json", "server", "tests", "tools", "bench")
    assert result.returncode in (0, 1), result.stdout + result.stderr
    found = [d for d in json.loads(result.stdout) if not _gone_while_read(d)]
    assert found == [], "\n".join(f"{d['filename']}:{d['location']['row']}: {d['code']} {d['message']}" for d in found)


def _gone_while_read(diagnostic: dict) -> bool:
    """A file ruff listed and could not read because it is gone (another process's probe test,
    written and removed while the suite runs) is not a file of the repository."""
    return diagnostic["code"] == "E902" and not Path(diagnostic["filename"]).exists()


def test_a_file_gone_while_the_linter_reads_is_the_only_one_forgiven(tmp_path):
    (tmp_path / "bad.py").write_text("import os\n", encoding="utf-8")
    result = _run("ruff", "check", "--no-cache", "--output-format", "json", str(tmp_path / "bad.py"), str(tmp_path / "gone.py"))
    kept = [d["code"] for d in json.loads(result.stdout) if not _gone_while_read(d)]
    assert kept == ["F401"]
