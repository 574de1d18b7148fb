"""Loading the Lark grammar files.

`grammar_text(name)` returns the text of `name` (e.g. "template.lark"): from the installed package
(`hcljson_ls/grammars/<name>`, where the wheel ships them) when present, otherwise from the
repository's top-level `grammars/` directory (a development checkout).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path


@cache
def grammar_text(name: str) -> str:
    try:
        res = resources.files("hcljson_ls").joinpath("grammars", name)
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        pass
    return (Path(__file__).resolve().parents[3] / "grammars" / name).read_text(encoding="utf-8")
