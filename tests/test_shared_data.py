"""The shared test data is found beside the checkout (or at $HCLJSON_SHARED), and a missing corpus
skips the tests that need it locally but FAILS the run under CI (see shared_data.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import shared_data

REPO = Path(__file__).resolve().parents[1]

# A module that needs the corpus as a whole (module-level `require`), and tests of a module that
# also has corpus-free tests (a `requires` mark, and parameters from `params`).
CORPUS_RUNS = {
    "whole module": ["tests/terraform/test_tf_corpus.py"],
    "single tests": ["tests/jsonsyntax/test_fastparse.py", "-k", "corpus"],
}


def run_pytest(args: list[str], shared: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env[shared_data.ENV_VAR] = str(shared)
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
    )


def test_the_default_place_is_beside_the_repository_root(monkeypatch) -> None:
    monkeypatch.delenv(shared_data.ENV_VAR, raising=False)
    assert shared_data.shared_root() == REPO.parent / "shared"


def test_the_environment_variable_overrides_it(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(shared_data.ENV_VAR, str(tmp_path))
    assert shared_data.shared_root() == tmp_path.resolve()


def test_every_shared_path_lies_under_the_shared_root() -> None:
    for path in (shared_data.CORPUS, shared_data.REAL_CORPUS, shared_data.REAL_SOURCES, shared_data.HCL_JSON_CASES):
        assert path.is_relative_to(shared_data.SHARED)


@pytest.mark.parametrize("name", CORPUS_RUNS)
def test_a_missing_corpus_fails_under_ci(name: str, tmp_path: Path) -> None:
    result = run_pytest(CORPUS_RUNS[name], tmp_path, ci=True)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "CI=true: shared test data not found" in output and shared_data.ENV_VAR in output, output
    assert " passed" not in output, output


@pytest.mark.parametrize("name", CORPUS_RUNS)
def test_a_missing_corpus_skips_locally_with_the_reason(name: str, tmp_path: Path) -> None:
    result = run_pytest(CORPUS_RUNS[name], tmp_path, ci=False)
    output = result.stdout + result.stderr
    # (a module skipped as a whole collects nothing: exit code 5)
    assert result.returncode in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED), output
    assert " skipped" in output and " passed" not in output and "error" not in output.lower(), output
    assert f"shared test data not found: {tmp_path}" in output and shared_data.ENV_VAR in output, output
