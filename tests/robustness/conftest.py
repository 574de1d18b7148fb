"""Fixtures for the robustness tests: the real `hcljson-ls --stdio` in an isolated environment.

`env` points HOME and the XDG directories into a temporary tree (so whatever the server writes can
be found there) and puts `sandbox/` first on PYTHONPATH: its `sitecustomize.py` makes every network
connection and every subprocess fail inside the server and records the attempt in the file named
by `HCLJSON_SANDBOX_LOG`. `wire` is a started `Wire` (not initialized); `still_right(wire)` opens a
small valid document and checks its diagnostics and a hover: the server survived and is still correct.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixture import parse_fixture

from .wire import Wire

SANDBOX = Path(__file__).parent / "sandbox"

def line_character(text: str, offset: int) -> tuple[int, int]:
    """The LSP line and character of `offset` in an ASCII `text` (what a test sends over the wire)."""
    return text.count("\n", 0, offset), offset - (text.rfind("\n", 0, offset) + 1)


#: A small valid document: no diagnostics, and a hover on `var.region` ($0) names the variable.
_VALID = parse_fixture('{\n  "variable": {"region": {}},\n  "output": {"o": {"value": "${var.r$0egion}"}}\n}\n').only
VALID = _VALID.text
VALID_HOVER = line_character(VALID, _VALID.cursor)

#: What the server is told in `initializationOptions`: never run terraform (it would start plugins).
OPTIONS = {"providerSchemas": {"runTerraform": False}}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        TMPDIR=str(home / "tmp"),
        PYTHONPATH=os.pathsep.join([str(SANDBOX), *filter(None, [os.environ.get("PYTHONPATH")])]),
        HCLJSON_SANDBOX_LOG=str(home.parent / "sandbox.log"),
    )
    (home / "tmp").mkdir()
    return env


@pytest.fixture
def wire(env: dict[str, str], home: Path) -> Iterator[Wire]:
    with Wire.start(env=env, cwd=str(home)) as started:
        yield started


_count = iter(range(1, 1 << 30))


def still_right(wire: Wire) -> None:
    """The server is alive, and a fresh valid document gets no diagnostics and the right hover."""
    assert wire.alive(), wire.log()[-3000:]
    uri = f"file:///nonexistent-hcljson-test/check{next(_count)}/main.tf.json"
    wire.open(uri, VALID, version=7)
    assert wire.diagnostics(uri, version=7, timeout=60) == []
    hover = wire.hover(uri, *VALID_HOVER, timeout=60)
    assert 'variable "region"' in hover["result"]["contents"]["value"], hover
