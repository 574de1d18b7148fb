"""End to end: the VS Code extension in real VS Code (code-server), driven in headless Chromium.

The test packages vscode-extension/ into a .vsix, installs it into a throw-away code-server profile,
opens a workspace with a `.tf.json` file that has a JSON syntax error, and checks from the DOM what a
person would see: the file opens as "Terraform JSON" and is coloured, the error squiggle and the Problems
count appear, hovering the squiggle shows our server's message with its code, and (once the server
advertises hoverProvider) hovering a block type shows the server's hover, and hovering the `region` of a
reference `"${var.region}"` shows that variable's description from variables.tf.json, a file of the
module the editor never opened; and typing `${var.` in a string value suggests that variable, which
Enter writes into the document. The screenshots go to test-artifacts/vscode.png (the error hover) and
test-artifacts/vscode-reference-hover.png.

A second workspace (FEATURE_FILES) has code lenses and inlay hints on, which the first keeps off (they move
and widen lines): the reference-count lens above a variable, clicked, opens the references peek; the inlay
hints beside its references show its default; and a new key in a module call suggests the inputs of the
local child module, the required one first with type and description (test-artifacts/vscode-features.png).

Tools come from `.ci/install-editors.sh` (code-server and playwright-core in $HCLJSON_EDITORS_CACHE,
default ~/.cache/hcljson-ls-ci; Debian's chromium; `npm ci` in vscode-extension/). A missing tool skips
locally, but fails under CI=true so that CI can never pass by skipping.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

#: The real editors run one test at a time, on one pytest-xdist worker (`--dist loadgroup`): each is a
#: heavy process tree, and the VS Code tests share one packaged extension.
pytestmark = pytest.mark.xdist_group("editors")

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "vscode-extension"
DRIVER = Path(__file__).with_name("vscode_driver.cjs")
ARTIFACTS = ROOT / "test-artifacts"
CACHE = Path(os.environ.get("HCLJSON_EDITORS_CACHE", Path.home() / ".cache" / "hcljson-ls-ci"))
TOOLS = CACHE / "vscode"
IN_CI = os.environ.get("CI", "").lower() == "true"
INSTALL_HINT = "run `bash .ci/install-editors.sh`"

# A JSON syntax error (missing comma after "t3.micro") and a top-level key repeated, which HCL JSON allows
# but VS Code's JSON service would flag as "Duplicate object key" if it ran on the file.
MAIN_TF_JSON = """\
{
  "terraform": {
    "required_version": ">= 1.6"
  },
  "resource": {
    "aws_instance": {
      "web": {
        "ami": "ami-0123456789abcdef0",
        "instance_type": "t3.micro"
        "tags": { "Name": "web" }
      }
    }
  },
  "resource": {
    "aws_s3_bucket": {
      "logs": { "bucket": "logs-${var.region}" }
    }
  }
}
"""

# Declares what main.tf.json refers to; the editor never opens it (the server reads it from disk).
VARIABLES_TF_JSON = """\
{
  "variable": {
    "region": {
      "type": "string",
      "default": "eu-west-1",
      "description": "The AWS region the log buckets live in."
    }
  }
}
"""
REGION_DESCRIPTION = json.loads(VARIABLES_TF_JSON)["variable"]["region"]["description"]

# Valid but messy files that format on save rewrites (the driver first types a space at the end of their
# first line, which the formatter removes): a configuration file and a variable definitions file.
FORMAT_FILES = {
    "outputs.tf.json": '{"output": {"zones": {"value": ["a","b"],\n"description": "Zones — é"}}}\n',
    "terraform.tfvars.json": '{\n    "region":"eu-west-1"   }\n',
}
FORMATTED = {
    "outputs.tf.json": '{\n  "output": {\n    "zones": {\n      "value": ["a", "b"],\n      "description": "Zones — é"\n'
                       '    }\n  }\n}\n',
    # VS Code detects the file's 4-space indentation (`editor.detectIndentation`) and sends tabSize 4.
    "terraform.tfvars.json": '{\n    "region": "eu-west-1"\n}\n',
}

# The workspace of the features test (lenses and inlay hints on): a variable referred to twice, and a call
# of a local child module whose inputs are one optional (`az`, first by name) and one required (`cidr`).
FEATURE_FILES = {
    "main.tf.json": """\
{
  "variable": {
    "region": {
      "type": "string",
      "default": "eu-west-1"
    }
  },
  "module": {
    "net": {
      "source": "./net"
    }
  },
  "output": {
    "where": {
      "value": "${var.region}"
    },
    "again": {
      "value": "in ${var.region}"
    }
  }
}
""",
    "net/variables.tf.json": json.dumps({"variable": {
        "az": {"type": "string", "default": "a", "description": "The availability zone."},
        "cidr": {"type": "string", "description": "The network's range."},
    }}, indent=2) + "\n",
}


def require(ok: object, reason: str) -> None:
    """Skips (locally) or fails (under CI=true) when a tool the test needs is missing."""
    if not ok:
        if IN_CI:
            pytest.fail(f"VS Code e2e test cannot run: {reason}", pytrace=False)
        pytest.skip(reason)


def server_executable_dir() -> Path | None:
    """A directory holding `hcljson-ls`: $HCLJSON_LS_BIN_DIR, else next to this Python, else on PATH."""
    if os.environ.get("HCLJSON_LS_BIN_DIR"):
        return Path(os.environ["HCLJSON_LS_BIN_DIR"])
    here = Path(sys.executable).parent / "hcljson-ls"
    if here.exists():
        return here.parent
    found = shutil.which("hcljson-ls")
    return Path(found).parent if found else None


def server_capabilities(bin_dir: Path) -> dict:
    """The `capabilities` our server answers to `initialize` (to know which editor checks apply)."""
    proc = subprocess.Popen(
        [str(bin_dir / "hcljson-ls"), "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        body = json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": None, "capabilities": {}}}
        ).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()
        while True:
            headers = {}
            while (line := proc.stdout.readline().strip()) != b"":
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            if not headers:
                raise RuntimeError("hcljson-ls closed its output before answering initialize")
            message = json.loads(proc.stdout.read(int(headers["content-length"])))
            if message.get("id") == 1:
                return message["result"]["capabilities"]
    finally:
        proc.kill()
        proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def tools() -> dict:
    node = shutil.which("node")
    require(node, "node is not installed")
    chromium = os.environ.get("HCLJSON_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    require(chromium, f"chromium is not installed ({INSTALL_HINT})")
    code_server = TOOLS / "node_modules" / ".bin" / "code-server"
    require(code_server.exists(), f"code-server is not installed in {TOOLS} ({INSTALL_HINT})")
    require((TOOLS / "node_modules" / "playwright-core").is_dir(), f"playwright-core is not in {TOOLS} ({INSTALL_HINT})")
    require((EXTENSION / "node_modules" / ".bin" / "vsce").exists(), f"vscode-extension has no node_modules ({INSTALL_HINT})")
    bin_dir = server_executable_dir()
    require(bin_dir, "hcljson-ls is not installed (pip install .)")
    return {"node": node, "chromium": chromium, "code_server": str(code_server), "server_bin": bin_dir}


@pytest.fixture(scope="module")
def vsix(tools: dict, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vsix") / "hcljson-ls.vsix"
    proc = subprocess.run(
        ["npm", "run", "package", "--", "--out", str(out)],
        cwd=EXTENSION, capture_output=True, text=True, timeout=180,
    )
    assert proc.returncode == 0, f"npm run package failed:\n{proc.stdout}\n{proc.stderr}"
    return out


@pytest.fixture
def code_server(tools: dict, vsix: Path, tmp_path: Path, request: pytest.FixtureRequest):
    """A running code-server with the extension installed, a workspace, and `hcljson-ls` on its PATH.
    Parametrized indirectly with False, the workspace opens untrusted (Restricted Mode); with "no server",
    it is trusted but no `hcljson-ls` is on its PATH or in its settings (the extension must install it)."""
    param = getattr(request, "param", True)
    no_server = param == "no server"
    features = param == "features"  # FEATURE_FILES, with code lenses and inlay hints on
    trusted = True if no_server or features else param
    user, ext, workspace = tmp_path / "user", tmp_path / "ext", tmp_path / "workspace"
    (user / "User").mkdir(parents=True)
    workspace.mkdir()
    files = FEATURE_FILES if features else {"main.tf.json": MAIN_TF_JSON, "variables.tf.json": VARIABLES_TF_JSON, **FORMAT_FILES}
    for name, text in files.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text, encoding="utf-8")
    settings = {
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.enableExperiments": False,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "chat.commandCenter.enabled": False,
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "security.workspace.trust.enabled": not trusted,
        "security.workspace.trust.startupPrompt": "never",
        "editor.hover.delay": 300,
        "editor.minimap.enabled": False,
        # Inlay hints render inside the line (`${var.region = "eu-west-1"}`): the driver finds words by the
        # text of rendered lines, so they are off here (tests/editors/test_neovim.py checks them).
        "editor.inlayHints.enabled": "on" if features else "off",
        # Reference-count lenses arrive after the first layout (resolved lazily) and move the lines below
        # them, so a squiggle's measured box no longer holds it: off here too (the features test has both).
        "editor.codeLens": features,
        "window.commandCenter": False,
        "workbench.colorTheme": "Default Dark Modern",
        # Format on save is off by default in VS Code; the formatter is the extension's default one.
        "[terraform-json]": {"editor.formatOnSave": True},
        # The absolute path, so the test runs the server it means to: VS Code's extension host takes PATH
        # from the user's login shell, which may put another hcljson-ls (e.g. a pyenv shim) first.
        **({} if no_server else {"hcljson.server.command": str(tools["server_bin"] / "hcljson-ls")}),
    }
    (user / "User" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")

    env = dict(os.environ)
    if no_server:  # a machine without the server: PATH without every directory that has an hcljson-ls
        env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "hcljson-ls").exists())
        env["VSCODE_CLI"] = "1"  # else the extension host takes PATH from a login shell (see test_vscode_trust.py)
        env.pop("VIRTUAL_ENV", None)
        env.pop("PYTHONPATH", None)  # (a developer's PYTHONPATH may hold the checkout's server/ package)
    else:
        env["PATH"] = os.pathsep.join([str(tools["server_bin"]), env.get("PATH", "")])
    common = ["--user-data-dir", str(user), "--extensions-dir", str(ext), "--config", str(tmp_path / "code-server.yaml")]
    install = subprocess.run(
        [tools["code_server"], *common, "--install-extension", str(vsix)],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert install.returncode == 0, f"installing the vsix failed:\n{install.stdout}\n{install.stderr}"

    port = free_port()
    log = (tmp_path / "code-server.log").open("w")
    proc = subprocess.Popen(
        [tools["code_server"], *common, "--bind-addr", f"127.0.0.1:{port}", "--auth", "none",
         "--disable-telemetry", "--disable-update-check", *(["--disable-workspace-trust"] if trusted else []),
         "--disable-getting-started-override", str(workspace)],
        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("code-server did not start:\n" + (tmp_path / "code-server.log").read_text()) from None
                time.sleep(0.2)
        yield {"url": f"http://127.0.0.1:{port}/?folder={workspace}", "workspace": workspace,
               "log": tmp_path / "code-server.log", "user": user}
    finally:
        # code-server leaves children (extension host, file watcher, our server): end the whole group.
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        log.close()


def extension_log(user: Path) -> str:
    """The extension's "HCL JSON" output channel, as code-server wrote it to its logs folder."""
    texts = [p.read_text(errors="replace") for p in sorted((user / "logs").rglob("*HCL JSON*.log"))]
    return "\n".join(texts) or "(no HCL JSON output channel log found)"


def run_driver(tools: dict, config: Path, user: Path, screenshot: Path | None = None) -> tuple[dict, str]:
    """Run vscode_driver.cjs on `config`: what it saw, and the context for failure messages (it must succeed)."""
    proc = subprocess.run([tools["node"], str(DRIVER), str(config)], capture_output=True, text=True, timeout=240)
    lines = proc.stdout.strip().splitlines()
    seen = json.loads(lines[-1]) if lines else {}
    context = (
        f"\ndriver stderr:\n{proc.stderr[-3000:]}\nseen: {json.dumps(seen, indent=1)}\n"
        f"extension output:\n{extension_log(user)[-3000:]}" + (f"\nscreenshot: {screenshot}" if screenshot else "")
    )
    print(json.dumps(seen, indent=1))  # shown with `pytest -s`, and in the report of a failure
    assert proc.returncode == 0 and "error" not in seen, "the driver failed" + context
    return seen, context


def test_vscode_extension_end_to_end(tools: dict, code_server: dict) -> None:
    capabilities = server_capabilities(tools["server_bin"])
    hover_word = "resource" if capabilities.get("hoverProvider") else None
    screenshot = ARTIFACTS / "vscode.png"
    config = code_server["workspace"].parent / "driver.json"
    workspace_settings = code_server["workspace"] / ".vscode" / "settings.json"
    config.write_text(json.dumps({
        "toolsDir": str(TOOLS), "chromium": tools["chromium"], "url": code_server["url"],
        "outline": bool(capabilities.get("documentSymbolProvider")),
        "completion": bool(capabilities.get("completionProvider")),
        # Then type `-${var.` after `web` in the string "web" and accept the suggestion with Enter.
        "typeCompletion": {"line": '"Name": "web"', "word": "web", "type": "-${var.", "pick": "region",
                           "anchor": '"Name"'} if capabilities.get("completionProvider") else None,
        "file": "main.tf.json", "hoverWord": hover_word, "screenshot": str(screenshot), "timeoutMs": 60000,
        # The name part of a reference inside a JSON string: the server's hover for what it refers to.
        "hovers": [{"name": "reference", "line": "${var.region}", "word": "region",
                    "screenshot": str(ARTIFACTS / "vscode-reference-hover.png")}] if hover_word else [],
        # Then change settings in the workspace: break the server command twice (the user must get ONE
        # notification saying what to do), restore it (the server comes back), and turn diagnostics off
        # (the setting reaches the server while it runs).
        "formatOnSave": [{"file": name, "path": str(code_server["workspace"] / name)} for name in FORMAT_FILES]
        if capabilities.get("documentFormattingProvider") else None,
        "scenarios": [
            {"name": "server crashes", "settingsPath": str(workspace_settings),
             "settings": {"hcljson.server.command": [sys.executable, "-c", "import sys; sys.exit(3)"]},
             "notification": "failed to start"},
            {"name": "server missing", "settingsPath": str(workspace_settings),
             "settings": {"hcljson.server.command": "/nonexistent/hcljson-ls"},
             "notification": "pipx install <a checkout of hcljson-ls>"},
            {"name": "server restored", "settingsPath": str(workspace_settings), "settings": {}, "squiggles": True},
            {"name": "diagnostics off", "settingsPath": str(workspace_settings),
             "settings": {"hcljson.diagnostics.enable": False}, "squiggles": False},
        ],
    }))
    seen, context = run_driver(tools, config, code_server["user"], screenshot)

    # The extension's language: our id, and the JSON grammar colours it.
    assert seen["languageMode"] == "Terraform JSON", context
    assert len(seen["tokenClasses"]) >= 3, "the file is not coloured" + context

    # Our server's diagnostic reaches the editor, the status bar and the Problems panel.
    assert seen["squiggles"] >= 1, context
    errors = re.search(r"(\d+)", seen["problemsAriaLabel"] or seen["problemsStatus"])
    assert errors and int(errors.group(1)) >= 1, context
    rows = " | ".join(seen["problemRows"])
    code = re.search(r"\b(syntax/[a-z0-9-]+)", rows)
    assert code, "no syntax/... diagnostic code in the Problems panel" + context
    # VS Code's JSON service does not run on the file (HCL JSON allows repeated keys).
    assert "Duplicate object key" not in rows, context

    # Hovering the squiggle shows the server's diagnostic with its code.
    assert seen["errorHover"] and code.group(1) in seen["errorHover"], context

    scenarios = {scenario["name"]: scenario for scenario in seen["scenarios"]}
    # A server that cannot start, or cannot be found, gives exactly one notification each.
    for name, expected in [("server crashes", "failed to start"), ("server missing", "pipx install <a checkout of hcljson-ls>")]:
        notifications = scenarios[name]["notifications"]
        assert len(notifications) == 1 and expected in notifications[0], f"{name}: {notifications}" + context
    # Restoring the command brings the server back; a server setting changed at run time takes effect.
    assert scenarios["server restored"]["squiggles"] >= 1 and not scenarios["server restored"]["notifications"], context
    assert scenarios["diagnostics off"]["squiggles"] == 0, context

    # Features that light up as the server advertises them.
    if capabilities.get("documentSymbolProvider"):
        assert any("web" in row for row in seen["outline"]), "the Outline misses resource aws_instance.web" + context
    if capabilities.get("completionProvider"):
        labels = " | ".join(seen["completions"])
        assert "variable" in labels, "no top-level block types offered in a new key" + context
        # Typing `${var.` in a string value opens the suggest widget (`.` is a trigger character) with the
        # variable declared in variables.tf.json, a file the editor never opened; Enter writes its name.
        typed = seen["typedCompletion"]
        assert any("region" in row for row in typed["rows"]), "region not suggested after ${var." + context
        assert typed["focused"] and "region" in typed["focused"], context
        assert typed["line"] and '"Name": "web-${var.region' in typed["line"], context

    if capabilities.get("documentFormattingProvider"):
        # Saving formats, with the extension as the default formatter of terraform-json; .tfvars.json too.
        for name, expected in FORMATTED.items():
            saved = seen["formatOnSave"][name]
            assert saved["languageMode"] == "Terraform JSON", f"{name}: {saved}" + context
            assert saved["text"] == expected, f"{name} was not formatted on save: {saved['text']!r}" + context

    if hover_word:
        assert seen["wordHover"] and "resource" in seen["wordHover"].lower(), context
        assert code.group(1) not in seen["wordHover"], "the block-type hover shows the diagnostic instead" + context
        # Hovering `region` in "logs-${var.region}" shows the variable declared in variables.tf.json (never
        # opened in the editor): its name and its description, not the syntax error elsewhere in the file.
        reference = seen["hovers"]["reference"]
        assert reference and REGION_DESCRIPTION in reference, "no variable description in the hover" + context
        assert 'variable "region"' in reference and code.group(1) not in reference, context


@pytest.mark.parametrize("code_server", ["features"], indirect=True)
def test_vscode_code_lens_inlay_hints_and_module_inputs(tools: dict, code_server: dict) -> None:
    """With lenses and inlay hints on: the lens above `region` counts its two references and clicking it
    opens VS Code's references peek on them; each `${var.region}` shows its default beside it; typing a
    new key in the module call suggests the child module's inputs, the required one first, with its type
    and description."""
    screenshot = ARTIFACTS / "vscode-features.png"
    config = code_server["workspace"].parent / "driver.json"
    config.write_text(json.dumps({
        "toolsDir": str(TOOLS), "chromium": tools["chromium"], "url": code_server["url"], "file": "main.tf.json",
        "screenshot": str(screenshot), "timeoutMs": 60000,
        "features": {"lensTitle": "2 references", "hintLine": "${var.region", "hint": '= "eu-west-1"',
                     "complete": {"line": '"source": "./net"', "word": '"./net"', "pick": "cidr"}},
    }))
    seen, context = run_driver(tools, config, code_server["user"], screenshot)
    got = seen["features"]

    # One lens a declaration: the variable (2 references), the module call and the two outputs (none).
    assert sorted(got["lenses"]) == ["0 references", "0 references", "0 references", "2 references"], context
    # Clicking it runs the extension's editor.action.showReferences with VS Code's own types: the peek lists
    # both uses (the lines with `${var.region}`).
    assert "main.tf.json" in got["peekHead"] and "(2)" in got["peekHead"], context
    uses = [row for row in got["peekRows"] if "var.region" in row]
    assert len(uses) == 2 and any("in ${var.region" in row for row in uses), context

    # Inlay hints: both references show the default, right after the name (after a hair space, the padding).
    assert len(got["hintLines"]) == 2, context
    assert all('${var.region= "eu-west-1"}' in line.replace("\u200a", "") for line in got["hintLines"]), context

    # Module inputs: the required `cidr` first (though `az` comes first by name), focused, with its type.
    labels = [row["text"] for row in got["completionRows"]]
    first_input = next(i for i, row in enumerate(labels) if row.startswith(("az", "cidr")))
    assert labels[first_input].startswith("cidr") and "string, required" in labels[first_input], context
    assert any(row.startswith("az") for row in labels[first_input + 1:]), context
    assert not any(row.startswith("source") for row in labels), "`source` is written already" + context
    assert got["focused"] and got["focused"].startswith("cidr"), context
    assert got["details"] and "The network's range." in got["details"], context
