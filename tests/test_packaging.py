"""A plain (non-editable) build ships the grammars inside the package, and the installed package works.

Builds a wheel from a clean copy of the project (as `pip install .` would), checks its contents, then
installs it with `pip install --target` and runs the installed copy (it comes first on PYTHONPATH, ahead
of any editable install of the checkout).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from hcljson_ls.rule_docs import RULES

REPO = Path(__file__).resolve().parents[1]
PROJECT_FILES = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"]
PROJECT_DIRS = ["server", "grammars", "docs"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in PROJECT_FILES:
        if (REPO / name).exists():
            shutil.copy2(REPO / name, src / name)
    for name in PROJECT_DIRS:
        shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--verbose", "-w", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = out.glob("hcljson_ls-*.whl")
    (out / "build.log").write_text(result.stdout + result.stderr, encoding="utf-8")  # the backend's output
    return built


def test_the_wheel_builds_without_deprecation_warnings(wheel: Path):
    """setuptools warns of what stops working (the TOML-table `license` until February 2027)."""
    log = (wheel.parent / "build.log").read_text(encoding="utf-8")
    assert "running bdist_wheel" in log or "Building wheel" in log, log  # the log is the build's
    assert "Deprecat" not in log and "deprecat" not in log, [line for line in log.splitlines() if "eprecat" in line]


def test_the_license_is_an_spdx_expression(wheel: Path):
    archive = zipfile.ZipFile(wheel)
    [name] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = archive.read(name).decode("utf-8")
    assert "License-Expression: MPL-2.0" in metadata.splitlines()


def test_the_wheel_ships_the_license_text(wheel: Path):
    """The MPL-2.0 text itself travels with every copy (its section 3.1), named in the metadata."""
    archive = zipfile.ZipFile(wheel)
    [name] = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    text = archive.read(name).decode("utf-8")
    assert text.startswith("Mozilla Public License Version 2.0")
    assert text == (REPO / "LICENSE").read_text(encoding="utf-8")
    [meta] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    assert "License-File: LICENSE" in archive.read(meta).decode("utf-8").splitlines()


def test_wheel_contains_every_grammar(wheel: Path):
    grammars = sorted(p.name for p in (REPO / "grammars").glob("*.lark"))
    assert grammars, "no grammars/*.lark in the repository"
    names = zipfile.ZipFile(wheel).namelist()
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("hcljson_ls/grammars/")) == grammars
    for name in grammars:
        shipped = zipfile.ZipFile(wheel).read(f"hcljson_ls/grammars/{name}")
        assert shipped == (REPO / "grammars" / name).read_bytes()
    assert "hcljson_ls/cli.py" in names and "hcljson_ls/lsp/server.py" in names
    assert not [n for n in names if n.startswith(("tests/", "examples/"))]


def test_wheel_ships_the_function_signatures(wheel: Path):
    """`terraform/data/functions.json` (package data, read by `terraform.functions`) is in the wheel, unchanged."""
    source = REPO / "server" / "hcljson_ls" / "terraform" / "data" / "functions.json"
    assert zipfile.ZipFile(wheel).read("hcljson_ls/terraform/data/functions.json") == source.read_bytes()


def test_wheel_ships_the_early_initialize_answer_and_starts_with_it(wheel: Path):
    """`lsp/capabilities.json` (read by `lsp.early` to answer `initialize` before the server is imported)
    is in the wheel, unchanged, and the console script starts at `hcljson_ls.entry`."""
    archive = zipfile.ZipFile(wheel)
    source = REPO / "server" / "hcljson_ls" / "lsp" / "capabilities.json"
    assert archive.read("hcljson_ls/lsp/capabilities.json") == source.read_bytes()
    [entry_points] = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "hcljson-ls = hcljson_ls.entry:main" in archive.read(entry_points).decode()


def test_wheel_ships_the_diagnostics_reference(wheel: Path):
    """`hcljson_ls/docs/diagnostics.md` (setup.py's build step): what an installed `check --format
    sarif` links its rules to."""
    assert zipfile.ZipFile(wheel).read("hcljson_ls/docs/diagnostics.md") == (REPO / "docs" / "diagnostics.md").read_bytes()


def test_installed_package_finds_grammars_and_checks_files(wheel: Path, tmp_path: Path):
    target = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    env = dict(os.environ, PYTHONPATH=str(target))
    probe = (
        "import hcljson_ls, importlib.resources as r, pathlib;"
        "print(pathlib.Path(hcljson_ls.__file__).resolve());"
        "print(sorted(p.name for p in r.files('hcljson_ls').joinpath('grammars').iterdir()))"
    )
    shown = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    location, listing = shown.stdout.splitlines()
    assert Path(location).is_relative_to(target.resolve())
    assert listing == repr(sorted(p.name for p in (REPO / "grammars").glob("*.lark")))

    check = subprocess.run(
        [sys.executable, "-m", "hcljson_ls", "check", str(REPO / "examples" / "module")],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert check.returncode == 1, check.stderr
    assert "broken.tf.json:5:7: error:" in check.stdout

    sarif = subprocess.run(
        [sys.executable, "-m", "hcljson_ls", "check", str(REPO / "examples" / "module"), "--format", "sarif"],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    rule = json.loads(sarif.stdout)["runs"][0]["tool"]["driver"]["rules"][0]
    page, _, section = rule["helpUri"].partition("#")
    assert page == (Path(location).parent / "docs" / "diagnostics.md").as_uri()  # the installed copy
    assert section == RULES[rule["id"]][0]  # the section that documents the code
