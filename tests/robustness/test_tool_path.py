"""A workspace binary never runs (issue 22 §5): the automatic `providers schema -json` looks
`terraform`/`tofu` up only in absolute PATH entries outside the module and every workspace folder.
`.`, an empty entry or any relative one is skipped (as Go's `exec.LookPath` refuses them), and so is
a PATH entry inside a workspace folder or a link that leads into one. The binary that runs is logged.

The server runs in the robustness sandbox (`sandbox/sitecustomize.py`): every subprocess is refused
and recorded, so the record says which binary the server tried to start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hcljson_ls.workspace.schema_fetch import find_tool

from .conftest import VALID, still_right
from .wire import SERVER, Wire

if os.name != "posix":
    pytest.skip("executable scripts with a shebang: POSIX", allow_module_level=True)


def _executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('#!/bin/sh\ntouch "$0.ran"\n', encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    workspace = tmp_path / "workspace"
    module = workspace / "stack"
    (module / ".terraform").mkdir(parents=True)
    (module / ".terraform.lock.hcl").write_text('provider "registry.terraform.io/hashicorp/aws" {}\n', encoding="utf-8")
    (module / "main.tf.json").write_text(VALID, encoding="utf-8")
    _executable(module / "terraform")
    _executable(workspace / "terraform")
    _executable(workspace / "tools" / "tofu")
    trusted = _executable(tmp_path / "bin" / "terraform")
    linked = tmp_path / "linkbin"
    linked.mkdir()
    (linked / "tofu").symlink_to(workspace / "tools" / "tofu")
    return {"workspace": workspace, "module": module, "trusted": trusted, "linked": linked}


def test_relative_and_workspace_entries_are_never_searched(layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch):
    workspace, module = layout["workspace"], layout["module"]
    monkeypatch.chdir(module)  # `.` and "" would find the module's own terraform here
    hostile = os.pathsep.join([".", "", "stack", str(workspace), str(workspace / "tools"), str(layout["linked"])])
    assert find_tool(["terraform", "tofu"], [str(workspace)], path=hostile) is None
    # The module itself is untrusted even outside every folder (no folder at all).
    assert find_tool(["terraform"], [str(module)], path=os.pathsep.join([".", str(module)])) is None
    # An absolute entry outside them is searched, in order, after the refused ones.
    trusted = str(layout["trusted"])
    assert find_tool(["terraform", "tofu"], [str(workspace)], path=hostile + os.pathsep + os.path.dirname(trusted)) == trusted


def _session(env: dict[str, str], layout: dict[str, Path], path: str) -> tuple[str, str]:
    """The server started in the module with PATH `path` and `runTerraform` on: (its log, the sandbox record)."""
    workspace, module = layout["workspace"], layout["module"]
    env = dict(env, PATH=path)
    with Wire.start(env=env, cwd=str(module), command=[*SERVER, "--log-level", "info"]) as wire:
        wire.initialize(root=str(workspace), options={"providerSchemas": {"runTerraform": True}})
        uri = (module / "main.tf.json").as_uri()
        wire.open(uri, VALID)
        assert wire.diagnostics(uri, version=1, timeout=60) == []
        wire.wait(lambda m: m.get("method") == "window/showMessage", 60, "the fetch's warning")
        still_right(wire)
        log = wire.log()
    record = Path(env["HCLJSON_SANDBOX_LOG"])
    return log, record.read_text(encoding="utf-8") if record.exists() else ""


def test_the_server_runs_no_binary_of_the_workspace(env: dict[str, str], layout: dict[str, Path]):
    workspace = layout["workspace"]
    log, record = _session(env, layout, os.pathsep.join([".", "", str(workspace), str(layout["linked"])]))
    assert record == "", record  # nothing was started
    assert "Neither terraform nor tofu is on PATH (outside the workspace folders)" in log
    assert not list(workspace.rglob("*.ran"))


def test_the_server_runs_a_trusted_binary_and_logs_which(env: dict[str, str], layout: dict[str, Path]):
    trusted = layout["trusted"]
    log, record = _session(env, layout, os.pathsep.join([".", "", str(layout["workspace"]), str(trusted.parent)]))
    assert f"running {trusted} providers schema -json in {layout['module']}" in log
    assert record.startswith(f"subprocess.Popen Popen, [{str(trusted)!r}, 'providers', 'schema', '-json']"), record
    assert str(layout["workspace"]) + "/terraform'" not in record and "stack/terraform'" not in record
