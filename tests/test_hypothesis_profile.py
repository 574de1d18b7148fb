"""Under CI=true the Hypothesis profile "ci" is in force (tests/conftest.py): derandomized, no example
database, so a local `.hypothesis/` directory cannot poison a run; outside CI the defaults stay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

PROBE = '''
from hypothesis import given, settings, strategies as st

@settings(max_examples=5)
@given(st.integers())
def test_probe(n):
    s = settings()
    print("PROFILE", s.derandomize, s.database is None)
    assert True
'''


def _run(tmp_path: Path, ci: bool) -> str:
    probe = REPO / "tests" / f"test_zz_probe_{os.getpid()}_{int(ci)}.py"
    probe.write_text(PROBE, encoding="utf-8")
    try:
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
        if ci:
            env["CI"] = "true"
        result = subprocess.run(
            # -n0: in this process, so that `-s` shows the probe's output (pyproject's addopts start
            # pytest-xdist workers, whose output pytest does not show).
            [sys.executable, "-m", "pytest", "-q", "-s", "-n0", "-p", "no:cacheprovider", str(probe)],
            cwd=tmp_path, env=env, capture_output=True, encoding="utf-8", timeout=120,
        )
    finally:
        probe.unlink()
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("ci", [True, False])
def test_the_ci_profile_is_derandomized_and_has_no_database(tmp_path: Path, ci: bool) -> None:
    output = _run(tmp_path, ci)
    assert ("PROFILE True True" in output) is ci, output
    assert ("PROFILE False False" in output) is not ci, output
