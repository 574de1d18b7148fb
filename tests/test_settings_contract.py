"""The settings the server reads (`lsp.config.Settings`) and the ones the VS Code extension declares
(`vscode-extension/package.json`) are the same set, with the same defaults; the extension's own
`hcljson.server.*` and `hcljson.trace.server` are the only extra ones (they start the server)."""

from __future__ import annotations

import dataclasses
import json
import re
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


def _documented(markdown: str, prefix: str = "") -> dict[str, object]:
    """The settings of the markdown tables whose rows read "| `key` | `default` | meaning |": key -> default
    ("none"/"unset" is null)."""
    rows: dict[str, object] = {}
    for match in re.finditer(r"^\| `([A-Za-z.]+)` \| (`[^`]*`|none|unset) \|", markdown, re.MULTILINE):
        key, default = match.groups()
        rows[prefix + key] = None if default in ("none", "unset") else json.loads(default.strip("`"))
    return rows


def test_the_readme_documents_every_server_setting_with_its_default() -> None:
    documented = _documented((ROOT / "README.md").read_text(encoding="utf-8"), prefix="hcljson.")
    assert documented == _server_settings()


def test_the_extension_readme_documents_every_setting_of_the_extension_with_its_default() -> None:
    declared = PACKAGE["contributes"]["configuration"]["properties"]
    documented = _documented((ROOT / "vscode-extension" / "README.md").read_text(encoding="utf-8"))
    assert set(documented) == set(declared)
    for key, spec in declared.items():
        assert documented[key] == spec.get("default"), key


def test_every_setting_of_the_extension_has_a_type_a_description_and_the_scope_the_server_reads_it_in() -> None:
    # The server asks for the whole `hcljson` section once, for no folder (`workspace/configuration` without a
    # scopeUri): a folder's own value of a `resource` setting would be silently ignored in a multi-root workspace.
    for key, spec in PACKAGE["contributes"]["configuration"]["properties"].items():
        assert spec.get("type") and (spec.get("markdownDescription") or spec.get("description")), key
        wanted = "machine-overridable" if key.startswith("hcljson.server.") else "window"
        assert spec.get("scope") == wanted, key


def test_unused_declaration_hints_are_on_by_default_everywhere() -> None:
    # Issue 20 §3: a declaration nothing refers to is faded unless the user turns the hints off.
    assert DEFAULT.diagnostics.unused_declarations is True
    assert PACKAGE["contributes"]["configuration"]["properties"]["hcljson.diagnostics.unusedDeclarations"]["default"] is True
    assert _documented((ROOT / "README.md").read_text(encoding="utf-8"))["diagnostics.unusedDeclarations"] is True
