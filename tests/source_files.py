"""The Python files under a folder, each with its text as it was read.

The guards that read the repository's own source (the architecture, the code's shape, the codes,
the test modules' ways of marking positions) judge the files that are there when they read them.
A file listed and then gone before it is read (a probe test another process writes and removes
while the suite runs, an editor's temporary file) is left out instead of failing the guard."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def read_if_there(path: Path) -> str | None:
    """The text of `path`, or None when it no longer exists."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def python_sources(root: Path, keep: Callable[[Path], bool] = lambda _: True) -> list[tuple[Path, str]]:
    """`(path, text)` of each `*.py` under `root` that `keep` accepts and that is still there when
    read, sorted by path."""
    found = ((path, read_if_there(path)) for path in sorted(root.rglob("*.py")) if keep(path))
    return [(path, text) for path, text in found if text is not None]
