"""The settings the server reads (`lsp.config.Settings`) and the ones the VS Code extension declares
(`vscode-extension/package.json`) are the same set, with the same defaults; the extension's own
`hcljson.server.*` and `hcljson.trace.server` are the only extra ones (they start the server)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from hcljson_ls.lsp.config import DEFAULT, Settings, _camel

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = json.loads((ROOT / "vscode-extension" / "package.json").read_text(encoding="utf-8"))
EXTENSION_ONLY = {"hcljson.server.command", "hcljson.server.args", "hcljson.server.env", "hcljson.trace.server"}


def _server_settings(cls: type = Settings, value: object = DEFAULT, prefix: str = "hcljson") -> dict[str, object]:
    out: dict[str, object] = {}
    for f in dataclasses.fields(cls):
        key = f"{prefix}.{f.metadata.get('key') or _camel(f.name)}"
        v = getattr(value, f.name)
        if dataclasses.is_dataclass(v):
            out.update(_server_settings(type(v), v, key))
        else:
            out[key] = list(v) if isinstance(v, tuple) else v
    return out


def test_the_extension_declares_exactly_the_server_settings_with_their_defaults() -> None:
    declared = PACKAGE["contributes"]["configuration"]["properties"]
    server = _server_settings()
    assert set(declared) - EXTENSION_ONLY == set(server)
    for key, default in server.items():
        assert declared[key].get("default") == default, key
