"""The VS Code extension and workspace trust, in real VS Code (code-server) driven in headless Chromium
(the tools and fixtures of test_vscode.py).

The workspace is a module that was `init`ed (`.terraform/`, a lock file) and a stand-in `terraform` is
first on PATH (it prints the random provider's schema and counts its runs). Trusted, the server runs it
and the Problems panel shows the schema diagnostic. Untrusted (Restricted Mode), the extension still
starts the server and shows its diagnostics, but the stand-in never runs, and the workspace's own
settings cannot choose the server command (a broken `hcljson.server.command` there is ignored) nor the
schema files the server reads (`hcljson.providerSchemas.files` there, naming the random provider's schema,
is ignored: no schema diagnostic).

In both, the command palette's "Terraform JSON: Validate with terraform" runs: trusted, the stand-in
answers `validate -json` with Terraform's finding for the misspelt argument and the Problems panel lists
it with source `terraform validate` at its place in the JSON file; restricted, nothing runs.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
import shared_data
from fixture import parse_fixture
from stand_in_terraform import StandIn
from test_vscode import TOOLS, code_server, run_driver, tools, vsix  # noqa: F401 - fixtures

#: The real editors run one test at a time, on one pytest-xdist worker (`--dist loadgroup`): each is a
#: heavy process tree, and the VS Code tests share one packaged extension.
pytestmark = pytest.mark.xdist_group("editors")

SCHEMA = shared_data.RANDOM_SCHEMA
shared_data.require(SCHEMA)

# A type error that is reported with or without schemas (the driver waits for a squiggle), and an
# argument misspelt for `random_string`, reported only once the provider's schema is known.
_MAIN = parse_fixture("""\
{
  "resource": {
    "random_string": {
      "id": { $[lenght]"lenght": 8, "length": 8 }
    }
  },
  "variable": { "region": { "type": "strin" } }
}
""").only
MAIN_TF_JSON = _MAIN.text

LENGHT = _MAIN.marks["lenght"]
LENGHT_LINE = MAIN_TF_JSON.count("\n", 0, LENGHT) + 1
LENGHT_COLUMN = LENGHT - MAIN_TF_JSON.rfind("\n", 0, LENGHT)  # 1-based, as VS Code shows it
#: What `terraform validate -json` says of the misspelt argument (byte offsets: the text is ASCII).
VALIDATE_OUTPUT = {
    "format_version": "1.0", "valid": False, "error_count": 1, "warning_count": 0,
    "diagnostics": [{
        "severity": "error", "summary": "Unsupported argument", "detail": 'An argument named "lenght" is not expected here.',
        "range": {"filename": "main.tf.json",
                  "start": {"line": LENGHT_LINE, "column": LENGHT_COLUMN, "byte": LENGHT},
                  "end": {"line": LENGHT_LINE, "column": LENGHT_COLUMN + 8, "byte": LENGHT + len('"lenght"')}}}],
}
VALIDATE_ROW = f'Unsupported argument: An argument named "lenght" is not expected here. terraform validate [Ln {LENGHT_LINE}, Col {LENGHT_COLUMN}]'


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StandIn:
    """The stand-in first on the PATH code-server (and so the server) inherits; a cache of the test's own."""
    tool = StandIn(tmp_path / "bin")
    tool.install("terraform", prints=SCHEMA)
    monkeypatch.setenv("PATH", tool.path_first())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # Else code-server's extension host takes its environment (PATH) from a login shell, where the real
    # terraform of the machine may come first; VS Code skips that for a window started from its CLI.
    monkeypatch.setenv("VSCODE_CLI", "1")
    return tool


@pytest.mark.parametrize("code_server", [True, False], ids=["trusted", "restricted"], indirect=True)
def test_provider_schemas_are_fetched_only_in_a_trusted_workspace(stand_in: StandIn, code_server: dict, tools: dict, request):
    trusted = request.node.callspec.params["code_server"]
    workspace: Path = code_server["workspace"]
    (workspace / "main.tf.json").write_text(MAIN_TF_JSON, encoding="utf-8")
    (workspace / "variables.tf.json").unlink()
    (workspace / ".terraform").mkdir()
    (workspace / ".terraform.lock.hcl").write_text('provider "registry.terraform.io/hashicorp/random" {}\n', encoding="utf-8")
    if trusted:  # the messages exchanged go to the "HCL JSON" output, which a failure shows
        (workspace / ".vscode").mkdir()
        (workspace / ".vscode" / "settings.json").write_text(json.dumps({"hcljson.trace.server": "messages"}), encoding="utf-8")
    else:  # restricted settings: ignored in Restricted Mode, else the server would not start
        (workspace / ".vscode").mkdir()
        (workspace / ".vscode" / "settings.json").write_text(json.dumps({
            "hcljson.server.command": "/nonexistent/hcljson-ls", "hcljson.providerSchemas.runTerraform": True,
            "hcljson.providerSchemas.files": [str(SCHEMA)],
        }), encoding="utf-8")

    # The stand-in answers `validate -json` with VALIDATE_OUTPUT, anything else with the schema.
    validate_output = workspace.parent / "validate.json"
    validate_output.write_text(json.dumps(VALIDATE_OUTPUT), encoding="utf-8")
    stand_in.install("terraform", body=f'case "$1" in validate) cat {shlex.quote(str(validate_output))};; *) cat {shlex.quote(str(SCHEMA))};; esac')

    config = workspace.parent / "driver.json"
    config.write_text(json.dumps({
        "toolsDir": str(TOOLS), "chromium": tools["chromium"], "url": code_server["url"], "file": "main.tf.json",
        "hoverWord": None, "hovers": [], "screenshot": str(workspace.parent / "trust.png"), "timeoutMs": 60000,
        "outline": False, "completion": False, "typeCompletion": None, "scenarios": [],
        # The schema diagnostic comes once the fetch ends, which on a loaded machine can be after the
        # first squiggle by seconds: wait for it (its absence, restricted, is shown by the stand-in's runs).
        "problemsInclude": ["schema/unknown-argument", "terraform validate"] if trusted else [],
        "command": {"title": "Terraform JSON: Validate with terraform"},
    }))
    seen, context = run_driver(tools, config, code_server["user"])

    rows = " | ".join(seen["problemRows"])
    assert "type/invalid-type" in rows, context  # the server runs in both
    assert seen["command"].startswith("Terraform JSON: Validate with terraform"), context
    if trusted:
        assert stand_in.runs() == [f"{workspace} providers schema -json TF_IN_AUTOMATION=1",
                                   f"{workspace} validate -json TF_IN_AUTOMATION=1"], context
        assert "schema/unknown-argument" in rows and 'Did you mean "length"?' in rows, context
        assert [row for row in seen["problemRows"] if "terraform validate" in row] == [VALIDATE_ROW], context
    else:
        assert stand_in.runs() == [], context
        assert "schema/unknown-argument" not in rows, context
