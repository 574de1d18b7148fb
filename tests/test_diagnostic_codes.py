"""Every diagnostic code the server can report is documented in docs/diagnostics.md: the codes are the
string literals of the form `layer/name` in the package's source."""

from __future__ import annotations

import re
from pathlib import Path

from source_files import python_sources

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "server" / "hcljson_ls"
DOCS = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")

_CODE = re.compile(r"""["']((?:syntax|structure|template|type|reference|schema|limit|tfvars|language|test|module|variable|provisioner|meta-argument|remote-state)/[a-z][a-z0-9-]*)["']""")


def _codes() -> set[str]:
    found: set[str] = set()
    for _, source in python_sources(PACKAGE):
        found.update(_CODE.findall(source))
    return found


def test_the_scan_finds_codes_of_every_layer() -> None:
    prefixes = {c.split("/")[0] for c in _codes()}
    assert {"syntax", "structure", "template", "type", "reference", "schema"} <= prefixes


def test_every_code_is_documented() -> None:
    missing = sorted(c for c in _codes() if f"`{c}`" not in DOCS)
    assert missing == []
