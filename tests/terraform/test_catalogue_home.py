"""The catalogue is the one home of the names of Terraform's block types: no module of the server
outside it (and the versioned language data) writes out a collection of block-type names such as
`("resource", "data")` or `frozenset({"moved", "import", "removed"})`; each such set is a named
constant of the catalogue, read where it is needed.

The check walks every module of `server/hcljson_ls` with `ast` and reports each tuple, list or set
literal (a `frozenset({...})` or an `x in (...)` comparison included) that holds two or more
distinct block-type names of the catalogue (`BLOCKS` and `NESTED_LABELS`), except where the literal
is a key of a dict (`("import", "provider")`: a block type and an argument name, not a set of
block types).
"""

from __future__ import annotations

import ast
from pathlib import Path

from source_files import python_sources

from hcljson_ls.terraform.definition import catalogue

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "hcljson_ls"

#: Where block-type sets belong: the catalogue, and the language's versioned data.
ALLOWED = frozenset({catalogue.__name__, catalogue.__name__.rsplit(".", 1)[0] + ".language"})

BLOCK_TYPE_NAMES = frozenset(catalogue.BLOCKS) | frozenset(catalogue.NESTED_LABELS)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def block_type_literals(source: str) -> list[tuple[int, list[str]]]:
    """(line, string elements) of each collection literal in `source` naming two or more distinct
    block types, dict keys left out."""
    tree = ast.parse(source)
    dict_keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys if k is not None}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Tuple, ast.List, ast.Set)) or id(node) in dict_keys:
            continue
        strings = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(BLOCK_TYPE_NAMES.intersection(strings)) >= 2:
            found.append((node.lineno, strings))
    return found


def test_the_scan_finds_block_type_sets_and_leaves_other_literals():
    source = (
        'A = ("resource", "data")\n'
        'B = frozenset({"moved", "import", "removed"})\n'
        'def f(t):\n    return t in ["module", "variable"]\n'
        'C = {("import", "provider"): 1}\n'  # a (block, argument) key
        'D = ("count", "for_each", "provider")\n'  # one block-type name among arguments
        'E = ("variable", x, "variable")\n'  # one distinct name
    )
    assert [line for line, _ in block_type_literals(source)] == [1, 2, 4]


def test_no_block_type_set_is_written_outside_the_catalogue():
    offenders = []
    for path, source in python_sources(PACKAGE):
        if _module_name(path) in ALLOWED:
            continue
        for line, strings in block_type_literals(source):
            offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {strings}")
    assert not offenders, "block-type sets to take from terraform.catalogue:\n" + "\n".join(offenders)
