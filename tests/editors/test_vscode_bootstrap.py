"""The VS Code extension on a machine without the server, in real VS Code (code-server) driven in
headless Chromium (the tools and fixtures of test_vscode.py).

No `hcljson-ls` is on the PATH code-server inherits, none is configured, and the Python extension is not
installed. Opening a `.tf.json` file, the user gets one notification offering to install the server;
"Install" shows a progress notification, installs the wheel the VSIX bundles into a private virtual
environment in the extension's global storage (with a Python found on PATH; the server's dependencies
come from the package index), and starts it: the error squiggle appears. A second window (a new
code-server on the same profile) starts that install at once, with no offer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_vscode import TOOLS, code_server, extension_log, run_driver, tools, vsix  # noqa: F401 - fixtures

#: The real editors run one test at a time, on one pytest-xdist worker (`--dist loadgroup`): each is a
#: heavy process tree, and the VS Code tests share one packaged extension.
pytestmark = pytest.mark.xdist_group("editors")

OFFER = "Install it for this extension"
PROGRESS = "installing the language server"


def _driver_config(tools: dict, code_server: dict, install: bool) -> Path:
    workspace: Path = code_server["workspace"]
    config = workspace.parent / f"driver-{int(install)}.json"
    config.write_text(json.dumps({
        "toolsDir": str(TOOLS), "chromium": tools["chromium"], "url": code_server["url"], "file": "main.tf.json",
        "hoverWord": None, "hovers": [], "screenshot": str(workspace.parent / "bootstrap.png"), "timeoutMs": 60000,
        "outline": False, "completion": False, "typeCompletion": None, "scenarios": [],
        "install": {"notification": OFFER, "click": "Install", "progress": PROGRESS, "timeoutMs": 200000} if install else None,
    }))
    return config


@pytest.mark.parametrize("code_server", ["no server"], indirect=True)
def test_the_extension_installs_the_server_when_none_is_found(code_server: dict, tools: dict):
    seen, context = run_driver(tools, _driver_config(tools, code_server, install=True), code_server["user"])
    assert OFFER in seen["install"]["offer"] and "Install" in seen["install"]["offer"], context
    assert seen["install"]["progress"], "no progress notification while installing" + context
    assert seen["squiggles"] >= 1, context
    assert "syntax/" in " | ".join(seen["problemRows"]), context
    log = extension_log(code_server["user"])
    assert "Installed the language server:" in log, context
    installed = [line for line in log.splitlines() if "Starting " in line and "the extension's own install" in line]
    assert installed, "the server did not start from the private install" + context
    # The install is under the extension's global storage in this profile, and marked finished.
    markers = list((code_server["user"] / "User" / "globalStorage").rglob("hcljson-ls-install.json"))
    assert len(markers) == 1 and markers[0].parent.name == "server-venv", markers

    # The next start (the browser window reloaded) uses that install, with no offer.
    seen, context = run_driver(tools, _driver_config(tools, code_server, install=False), code_server["user"])
    assert seen["squiggles"] >= 1, context
    log = extension_log(code_server["user"])
    starts = [line for line in log.splitlines() if "Starting " in line and "the extension's own install" in line]
    assert len(starts) >= 2 and log.count("Installed the language server:") == 1, context
