"""The package's architecture holds: the import-linter contracts of `pyproject.toml` are kept
(layers; pygls/lsprotocol/cattrs only in `lsp`; `gcpolicy` only at the edge), and no import of the
package hides inside a function unless it says why (`# lazy: ...` on the import's own line), so a
dependency cycle cannot hide behind a function-level import again.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from source_files import python_sources

REPO = Path(__file__).resolve().parents[1]
SERVER = REPO / "server"
PACKAGE = SERVER / "hcljson_ls"

_LAZY = re.compile(r"#.*\blazy:\s*\S")

#: Function-level imports in files owned by other work in progress, to be given a `# lazy: why`
#: comment (or moved to the top) by their owners; remove an entry once that is done.
#: (importing file relative to the package, imported module)
_PENDING: set[tuple[str, str]] = set()


def _lint_imports() -> list[str]:
    """The `lint-imports` command of the interpreter running the tests (the venv's bin dir)."""
    exe = Path(sys.executable).parent / ("lint-imports.exe" if os.name == "nt" else "lint-imports")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("lint-imports")
    if found is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    return [found]


def test_import_contracts_are_kept() -> None:
    # The checkout's package comes first on the path, ahead of any other installed copy.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SERVER), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    proc = subprocess.run(
        [*_lint_imports(), "--no-cache", "--no-logo", str(REPO / "pyproject.toml")],
        cwd=REPO,
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout, proc.stdout


def _package_of(path: Path) -> list[str]:
    """The dotted package a module file's relative imports start from, as parts."""
    parts = ["hcljson_ls", *path.relative_to(PACKAGE).with_suffix("").parts]
    return parts[:-1]  # a package's `__init__` and a module both resolve from their directory


def _imported(node: ast.Import | ast.ImportFrom, package: list[str]) -> list[str]:
    """The package modules (`hcljson_ls...`) an import statement names; others are not ours."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name == "hcljson_ls" or a.name.startswith("hcljson_ls.")]
    if node.level:
        base = package[: len(package) - node.level + 1]
        return [".".join([*base, node.module] if node.module else base)]
    module = node.module or ""
    return [module] if module == "hcljson_ls" or module.startswith("hcljson_ls.") else []


def function_level_imports() -> list[tuple[str, int, str, str]]:
    """`(file, line, imported module, source line)` of every import of the package inside a
    function (at any depth) that carries no `# lazy: <why>` comment on its lines."""
    found = []
    for path, source in python_sources(PACKAGE):
        lines = source.splitlines()
        package = _package_of(path)
        rel = path.relative_to(PACKAGE).as_posix()
        for func in ast.walk(ast.parse(source, str(path))):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                text = lines[node.lineno - 1 : node.end_lineno]
                if any(_LAZY.search(line) for line in text):
                    continue
                for module in _imported(node, package):
                    found.append((rel, node.lineno, module, text[0].strip()))
    return sorted(set(found))


def test_function_level_imports_say_why_they_are_lazy() -> None:
    hidden = [f for f in function_level_imports() if (f[0], f[2]) not in _PENDING]
    assert not hidden, (
        "imports of the package inside functions: move them to the top of the module, or, if they"
        " must stay lazy (start-up time, never a cycle: see the import-linter layers), say why with"
        " a `# lazy: ...` comment on the import line:\n"
        + "\n".join(f"  {file}:{line}: {text}" for file, line, _, text in hidden)
    )


def test_the_lazy_import_check_sees_relative_and_absolute_imports(tmp_path, monkeypatch) -> None:
    pkg = tmp_path / "hcljson_ls"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "mod.py").write_text(
        "from . import sibling\n"
        "def f():\n"
        "    from .other import x\n"
        "    from ..text import y  # lazy: start-up time\n"
        "    import json\n"
        "    def g():\n"
        "        import hcljson_ls.jsonsyntax.tree\n"
        "    from hcljson_ls import (\n"
        "        z,\n"
        "    )\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", pkg)
    assert [(f, line, m) for f, line, m, _ in function_level_imports()] == [
        ("sub/mod.py", 3, "hcljson_ls.sub.other"),
        ("sub/mod.py", 7, "hcljson_ls.jsonsyntax.tree"),
        ("sub/mod.py", 8, "hcljson_ls"),
    ]
