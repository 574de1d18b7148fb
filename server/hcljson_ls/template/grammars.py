"""Loading the Lark grammar files, and where Lark may keep its parser tables.

`grammar_text(name)` returns the text of `name` (e.g. "template.lark"): from the installed package
(`hcljson_ls/grammars/<name>`, where the wheel ships them) when present, otherwise from the
repository's top-level `grammars/` directory (a development checkout).

`set_table_cache(directory)` lets the edge (the language server) say where Lark may cache the LALR
tables it computes from a grammar; `table_cache(name)` is the `cache` argument for `Lark(...)`:
a file there, or False (the default: no file is written). Building the template parser's tables
takes ~110 ms on first use in a process, loading them ~15 ms (measured on the project's machine);
Lark checks a digest of the grammar, its options and its own version stored in the file, and
rebuilds (and rewrites) when it does not match or the file cannot be read.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from pathlib import Path

_table_cache: str | None = None


def set_table_cache(directory: str | None) -> None:
    """Where Lark may keep parser tables (None: nowhere). Call before the first parse."""
    global _table_cache
    _table_cache = directory


def table_cache(name: str) -> str | bool:
    """The `cache` argument of `Lark(...)` for the parser called `name`."""
    if _table_cache is None:
        return False
    try:
        os.makedirs(_table_cache, exist_ok=True)
    except OSError:
        return False
    return os.path.join(_table_cache, f"{name}.lark-tables")


@cache
def grammar_text(name: str) -> str:
    try:
        res = resources.files("hcljson_ls").joinpath("grammars").joinpath(name)
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        pass
    return (Path(__file__).resolve().parents[3] / "grammars" / name).read_text(encoding="utf-8")
