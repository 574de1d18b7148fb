"""The test data is part of the repository (`tests/data/`, see its README.md): every file the tests
name exists, every corpus file has a SOURCES row with a license that allows the copy, the generated
stand-ins are what their script writes, compressed files read as plain ones, and data missing from a
checkout fails the tests that need it instead of skipping them."""

from __future__ import annotations

import csv
import gzip
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import shared_data

REPO = Path(__file__).resolve().parents[1]
COPYABLE = {"MIT", "Apache-2.0", "BSD", "MPL-2.0"}


def _rows() -> list[dict[str, str]]:
    with open(shared_data.REAL_SOURCES, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _stand_ins():
    spec = importlib.util.spec_from_file_location("generate_stand_ins", shared_data.CORPUS / "generate_stand_ins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_named_data_file_is_in_the_repository() -> None:
    for path in (shared_data.REAL_SOURCES, shared_data.HCL_JSON_CASES, shared_data.FUNCTION_SIGNATURES / "SOURCES.md",
                 shared_data.PROVIDER_SCHEMAS / "SOURCES.md"):
        assert path.is_file() and path.is_relative_to(REPO / "tests" / "data"), path
    for path in (shared_data.AWS_SCHEMA, shared_data.RANDOM_SCHEMA, shared_data.LOCAL_SCHEMA, shared_data.TOFU_TEST_SCHEMA):
        assert path.is_file(), path
        assert "provider_schemas" in json.loads(path.read_text(encoding="utf-8")), path


def test_every_corpus_file_has_a_row_with_a_license_that_allows_the_copy() -> None:
    rows = _rows()
    on_disk = {p.name for p in shared_data.REAL_CORPUS.iterdir()} - {"SOURCES.tsv"}
    assert {r["file"] for r in rows} == on_disk
    for row in rows:
        assert row["license"] in COPYABLE, row["file"]
        assert int(row["bytes"]) == (shared_data.REAL_CORPUS / row["file"]).stat().st_size, row["file"]
        assert row["repo"] and row["path"] and row["commit"], row["file"]


def test_the_generated_stand_ins_are_what_the_script_writes() -> None:
    script = _stand_ins()
    generated = {r["file"] for r in _rows() if r["file"].startswith(script.PREFIX)}
    assert generated == {script.PREFIX + name for name in script.STAND_INS}
    for name, (document, indent, _notes) in script.STAND_INS.items():
        path = shared_data.REAL_CORPUS / (script.PREFIX + name)
        assert path.read_text(encoding="utf-8") == script.render(document, indent), name
    rows = {r["file"]: r for r in _rows()}
    assert all(rows[f]["path"] == "tests/data/corpus/generate_stand_ins.py" for f in generated)


def test_a_compressed_schema_reads_as_the_plain_file() -> None:
    packed = shared_data.PROVIDER_SCHEMAS / (shared_data.AWS_SCHEMA.name + ".gz")
    assert packed.is_file() and not (shared_data.PROVIDER_SCHEMAS / shared_data.AWS_SCHEMA.name).exists()
    assert shared_data.AWS_SCHEMA.read_bytes() == gzip.decompress(packed.read_bytes())
    assert shared_data.schema_file(shared_data.AWS_SCHEMA.name) == shared_data.AWS_SCHEMA  # written once
    assert shared_data.AWS_SCHEMA in shared_data.schema_files()
    assert len(shared_data.schema_files()) == len(list(shared_data.PROVIDER_SCHEMAS.glob("*.json*")))


def test_missing_data_fails_instead_of_skipping(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(pytest.fail.Exception, match="test data missing from the checkout"):
        shared_data.require(missing)
    with pytest.raises(pytest.fail.Exception):
        shared_data.params(lambda: [1], missing)
    assert shared_data.params(lambda: [1, 2], shared_data.REAL_SOURCES) == [1, 2]


def test_the_corpus_tests_run_without_anything_beside_the_checkout(tmp_path: Path) -> None:
    """No environment variable or directory outside the repository is read: with HCLJSON_SHARED
    pointing at an empty directory and CI=true, a corpus test module runs and passes."""
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    env.update(HCLJSON_SHARED=str(tmp_path), CI="true")
    result = subprocess.run(
        # -n0: one process (the run is a part of this test; pyproject's addopts would start workers).
        [sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider", "tests/terraform/test_tf_corpus.py"],
        cwd=REPO, env=env, capture_output=True, encoding="utf-8", timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert " passed" in output and "skipped" not in output, output
