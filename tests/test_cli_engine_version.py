"""`hcljson-ls check --engine` / `--engine-version`: the real command reads the modules with the engine
and version given, in one process and in a pool of workers alike."""

from __future__ import annotations

import json


def _codes(result) -> list[tuple[str, str]]:
    return [(r["file"].rsplit("/", 2)[-2], r["code"]) for r in json.loads(result.stdout)]


def test_engine_version_decides_what_is_newer(cli, tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.tf.json").write_text('{"action": {"local_command": {"n": {}}}}')
    assert cli("check", tmp_path, "--format", "json").returncode == 0  # the newest Terraform has actions
    for jobs in ("1", "2"):
        result = cli("check", tmp_path, "--format", "json", "--engine-version", "1.11", "--jobs", jobs)
        assert result.returncode == 1
        assert _codes(result) == [("a", "language/newer-version"), ("b", "language/newer-version")]
        assert "Terraform 1.14" in json.loads(result.stdout)[0]["message"]


def test_engine_decides_whose_syntax_it_is(cli, tmp_path):
    (tmp_path / "main.tf.json").write_text('{"resource": {"terraform_data": {"r": {"lifecycle": {"enabled": false}}}}}')
    assert cli("check", tmp_path, "--engine", "opentofu").returncode == 0
    result = cli("check", tmp_path, "--format", "json", "--engine", "terraform")
    assert result.returncode == 1
    assert _codes(result) == [(tmp_path.name, "language/other-engine")]
    assert "OpenTofu" in json.loads(result.stdout)[0]["message"]


def test_an_unsatisfied_required_version_and_a_bad_version(cli, tmp_path):
    (tmp_path / "main.tf.json").write_text('{"terraform": {"required_version": ">= 1.12"}}')
    assert cli("check", tmp_path).returncode == 0  # the newest release satisfies it
    result = cli("check", tmp_path, "--format", "json", "--engine-version", "1.11.4")
    assert _codes(result) == [(tmp_path.name, "language/unsatisfied-version")]
    bad = cli("check", tmp_path, "--engine-version", "one.two")
    assert bad.returncode == 2 and "not a version" in bad.stderr
