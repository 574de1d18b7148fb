"""No function of the server is longer than 80 lines, but those in `LONG_ON_PURPOSE` (a hot loop
whose split was measured to cost time: the measurement is written in a comment at the top of the
function; issue 21 §4).

A function's length is the lines from its `def` to its last line (`ast`'s `lineno` to
`end_lineno`), nested functions included. To stay fast, the files are first read as text: a
function cannot be longer than the distance from its `def` to the next `def`, `class` or decorator
at its indentation or less (or the end of the file), and only the few files where that bound
exceeds 80 lines are parsed. (A line that looks like a `def` or `class` inside a multi-line string,
indented less than the function around it, would cut the bound short.)
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from source_files import python_sources

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "hcljson_ls"
LIMIT = 80

#: Long on purpose: a hot loop whose split costs measurable time. "path::qualified name" -> why,
#: with the measurement (also written at the top of the function, which the test checks).
LONG_ON_PURPOSE = {
    "jsonsyntax/fastparse.py::_fast_parse_steps":
        "the fast JSON parse: a helper call per string made a 5 MB parse 1.09-1.13x "
        "(bench/bench_split.py fastparse); only once-per-parse and rare work is outside",
    "jsonsyntax/parser.py::_parse_value_tokens":
        "the robust parser's loop, its fast paths inline: the string fast path in a helper made "
        "the loop 1.03-1.04x on 0.5 MB (bench/bench_split.py parser); split from 365 lines before",
}

_HEAD = re.compile(r"^([ \t]*)(@|(?:async[ \t]+)?def[ \t]|class[ \t])", re.M)


def _may_hold_a_long_function(source: str) -> bool:
    """Whether the text-level bound of some function of `source` exceeds `LIMIT` (see the module
    docstring): never False for a file with a long function."""
    heads = []  # (line number, indentation, is a def)
    line, last = 1, 0
    for m in _HEAD.finditer(source):
        line += source.count("\n", last, m.start())
        last = m.start()
        heads.append((line, len(m.group(1)), m.group(2)[0] not in "@c"))
    lines = source.count("\n") + 1
    for k, (start, indent, is_def) in enumerate(heads):
        if not is_def:
            continue
        end = next((at - 1 for at, other, _ in heads[k + 1 :] if other <= indent), lines)
        if end - start + 1 > LIMIT:
            return True
    return False


def _functions(tree: ast.AST, prefix: str = ""):
    """(qualified name, node) of every function, in classes and functions too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node, prefix + node.name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + ".")
        elif isinstance(node, (ast.stmt, ast.excepthandler, ast.match_case)):  # (no def in an expression)
            yield from _functions(node, prefix)


@functools.cache
def long_functions() -> dict[str, tuple[int, str]]:
    """"path::qualified name" -> (lines, source) of each function of the server over `LIMIT` lines."""
    found = {}
    for path, source in python_sources(PACKAGE):
        if not _may_hold_a_long_function(source):
            continue
        for name, node in _functions(ast.parse(source)):
            length = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            if length > LIMIT:
                key = f"{path.relative_to(PACKAGE).as_posix()}::{name}"
                found[key] = (length, ast.get_source_segment(source, node) or "")
    return found


def test_every_long_function_is_long_for_a_measured_reason():
    found = long_functions()
    assert found, "no long function found at all: the search is broken (the parsers are long on purpose)"
    unexplained = sorted(f"{key} ({found[key][0]} lines)" for key in found.keys() - LONG_ON_PURPOSE.keys())
    assert not unexplained, (
        f"functions over {LIMIT} lines: split them into named helpers, or measure what a split costs "
        f"(bench/bench_split.py) and list them in LONG_ON_PURPOSE with the measurement: {unexplained}")
    for key in LONG_ON_PURPOSE.keys() & found.keys():
        top = found[key][1][:3000]
        assert "bench_split.py" in top and "measured" in top.lower(), f"{key}: no measurement at its top"


def test_the_lists_name_only_functions_still_long():
    """An entry whose function was split (or renamed) goes: the lists say what is true now."""
    found = long_functions()
    stale = sorted(LONG_ON_PURPOSE.keys() - found.keys())
    assert not stale, f"no longer over {LIMIT} lines (or renamed): remove from the lists: {stale}"


def test_the_length_bound_finds_a_long_function_and_spares_short_ones():
    def module(body_lines: int) -> str:
        return "import os\ndef f():\n" + "".join(f"    x{i} = {i}\n" for i in range(body_lines)) + "class C:\n    pass\n"

    assert _may_hold_a_long_function(module(LIMIT))  # the def and LIMIT lines
    assert not _may_hold_a_long_function(module(LIMIT - 1))
    assert [node.end_lineno - node.lineno + 1 for _, node in _functions(ast.parse(module(LIMIT)))] == [LIMIT + 1]
    nested = "class C:\n    @staticmethod\n    def g():\n" + "".join(f"        y{i} = {i}\n" for i in range(LIMIT)) + "\n    def h():\n        pass\n"
    assert _may_hold_a_long_function(nested)
    tree = ast.parse(nested)
    assert [(name, node.end_lineno - node.lineno + 1) for name, node in _functions(tree)] == [("C.g", LIMIT + 1), ("C.h", 2)]
