"""The server never writes files outside its cache directory, never opens a network connection and
never executes anything, through a whole session over a workspace folder with a `.terraform`
directory and a lock file (where `providerSchemas.runTerraform`, false here, would run terraform).

HOME and the XDG directories point into a temporary tree (`conftest.env`); `sandbox/sitecustomize.py`
makes every connection, DNS lookup, subprocess and exec fail inside the server and records it."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from .conftest import OPTIONS, VALID, VALID_HOVER, still_right
from .wire import SERVER, Wire


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    found = {}
    for directory, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = os.path.join(directory, name)
            st = os.lstat(path)
            found[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns) if not stat.S_ISDIR(st.st_mode) else (0, 0)
    return found


def test_the_sandbox_catches_what_it_should(env: dict[str, str], tmp_path: Path):
    # The check below could not fail if the sandbox were not loaded: prove that it is.
    probe = tmp_path / "probe.py"
    probe.write_text("import socket, subprocess\n"
                     "for f in (lambda: socket.create_connection(('127.0.0.1', 9)), lambda: subprocess.run(['true'])):\n"
                     "    try: f()\n"
                     "    except PermissionError: pass\n", encoding="utf-8")
    with Wire.start(env=env, command=[SERVER[0], str(probe)]) as wire:
        wire.process.wait(timeout=60)
    log = Path(env["HCLJSON_SANDBOX_LOG"]).read_text(encoding="utf-8")
    assert "socket.create_connection" in log and "subprocess.Popen" in log


def test_no_writes_outside_the_cache_no_network_no_execution(env: dict[str, str], tmp_path: Path):
    folder = tmp_path / "workspace"
    (folder / ".terraform" / "providers").mkdir(parents=True)
    (folder / ".terraform.lock.hcl").write_text('provider "registry.terraform.io/hashicorp/aws" {}\n', encoding="utf-8")
    (folder / "main.tf.json").write_text(VALID, encoding="utf-8")
    (folder / "network.tf.json").write_text(
        '{"module": {"m": {"source": "git::https://example.com/x.git"}},'
        ' "data": {"http": {"x": {"url": "https://example.com"}}},'
        ' "resource": {"null_resource": {"n": {"provisioner": {"local-exec": {"command": "touch /tmp/owned"}}}}}}',
        encoding="utf-8",
    )
    terraform = folder / "terraform"  # an executable in the workspace: never run
    terraform.write_text("#!/bin/sh\ntouch \"$0.ran\"\n", encoding="utf-8")
    terraform.chmod(0o755)
    env = dict(env, PATH=f"{folder}{os.pathsep}{env.get('PATH', '')}")
    before = _tree(tmp_path)
    with Wire.start(env=env, cwd=str(folder)) as wire:
        wire.initialize(root=str(folder), options=OPTIONS)
        uri = (folder / "main.tf.json").as_uri()
        wire.open(uri, VALID)
        assert wire.diagnostics(uri, version=1, timeout=60) == []
        doc = {"textDocument": {"uri": uri}}
        at = {**doc, "position": {"line": VALID_HOVER[0], "character": VALID_HOVER[1]}}
        for method, params in [
            ("textDocument/hover", at), ("textDocument/completion", at), ("textDocument/definition", at),
            ("textDocument/references", {**at, "context": {"includeDeclaration": True}}),
            ("textDocument/rename", {**at, "newName": "zone"}), ("textDocument/documentSymbol", doc),
            ("textDocument/semanticTokens/full", doc), ("workspace/symbol", {"query": ""}),
            ("textDocument/codeAction", {**doc, "range": {"start": at["position"], "end": at["position"]},
                                         "context": {"diagnostics": []}}),
        ]:
            assert "error" not in wire.request(method, params, timeout=60), method
        wire.notify("textDocument/didSave", doc)
        wire.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (folder / "network.tf.json").as_uri(), "type": 2}]})
        wire.notify("workspace/didChangeConfiguration", {"settings": {"hcljson": {"engine": "opentofu"}}})
        network = (folder / "network.tf.json").as_uri()
        wire.open(network, (folder / "network.tf.json").read_text(encoding="utf-8"))
        wire.diagnostics(network, version=1, timeout=60)
        wire.notify("textDocument/didClose", doc)
        still_right(wire)
        time.sleep(0.5)  # anything started in the background has had its chance
    after = _tree(tmp_path)
    cache = os.path.relpath(env["XDG_CACHE_HOME"], tmp_path) + os.sep + "hcljson-ls"
    made_for_the_cache = {p for p in after if cache.startswith(p + os.sep) and after[p] == (0, 0)}  # (directories)
    written = sorted(p for p in after if after[p] != before.get(p) and not p.startswith(cache) and p not in made_for_the_cache)
    assert written == [], written
    sandbox_log = Path(env["HCLJSON_SANDBOX_LOG"])
    assert not sandbox_log.exists(), sandbox_log.read_text(encoding="utf-8")
    assert not (folder / "terraform.ran").exists()
