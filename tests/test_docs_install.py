"""What the user docs say about getting hcljson-ls onto a machine, checked against the repository:
the README's snippets equal the shipped files, nothing claims a PyPI release, the install works under
PEP 668 (a venv or pipx first), `.ci/run` runs the README's test command, every editor doc says how
to turn off running code for untrusted repositories, the snippets for other editors cover every file
kind, and the VS Code extension restricts (in untrusted workspaces) every setting that names files or
commands, and bundles the server wheel it installs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
EDITOR_DOCS = [REPO / "docs" / "editors" / n for n in ("vscode.md", "neovim.md", "other-editors.md")]
USER_DOCS = [REPO / "README.md", REPO / "vscode-extension" / "README.md", *EDITOR_DOCS]
EXTENSION = json.loads((REPO / "vscode-extension" / "package.json").read_text(encoding="utf-8"))
TEST_COMMAND = "pip install '.[test]' && python -m pytest"


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^ *```{language}\n(.*?)^ *```$", text, flags=re.S | re.M)


def section(text: str, heading: str) -> str:
    match = re.search(rf"^(#+) {re.escape(heading)}\n(.*?)(?=^#{{1,2}} |\Z)", text, flags=re.S | re.M)
    assert match, f"no section {heading!r}"
    return match.group(2)


def test_the_readme_neovim_snippet_is_the_shipped_one() -> None:
    shipped = (REPO / "editors" / "neovim" / "init-snippet.lua").read_text(encoding="utf-8")
    assert shipped in blocks(README, "lua")
    assert "syntax = 'json'" in shipped  # colours without a json tree-sitter parser


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_doc_installs_from_pypi(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert not re.search(r"pip(x)? install (--upgrade |-U )?hcljson-ls\b", text), doc
    for line in text.splitlines():
        if "PyPI" in line:
            assert "not on PyPI" in line or "not published on PyPI" in line, line


def test_the_readme_installs_into_a_venv_or_with_pipx_first() -> None:
    install = section(README, "Install")
    first = blocks(install, "sh")[0]
    assert first.index("python3 -m venv") < first.index("pip install .")
    assert "pipx install" in install
    assert "python3 -m venv" in section(README, "Try it on a fresh machine")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    assert TEST_COMMAND in blocks(section(README, "Try it on a fresh machine"), "sh")[1]
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert run[-1] == TEST_COMMAND


@pytest.mark.parametrize("doc", [REPO / "README.md", REPO / "vscode-extension" / "README.md", *EDITOR_DOCS],
                         ids=lambda p: str(p.relative_to(REPO)))
def test_every_user_doc_says_how_to_keep_untrusted_code_from_running(doc: Path) -> None:
    text = section(doc.read_text(encoding="utf-8"), "Untrusted code")
    assert ".terraform/" in text and "runTerraform" in text and "false" in text
    assert "terraform-ls" in text or doc.parent.name == "vscode-extension"


def test_the_other_editor_snippets_cover_tfvars_files() -> None:
    text = (REPO / "docs" / "editors" / "other-editors.md").read_text(encoding="utf-8")
    for name in ("Helix", "Emacs (eglot)", "Sublime Text (LSP package)"):
        assert "tfvars" in section(text, name), name
    assert ("Zed" in README) <= ("## Zed" in text)  # the README names no editor without a section


def test_the_readme_features_are_one_short_line_each() -> None:
    features = section(README, "Features")
    items = [line for line in features.splitlines() if line.startswith("- ")]
    assert len(items) >= 10
    assert all(len(item) <= 130 for item in items), [i for i in items if len(i) > 130]
    assert not [line for line in features.splitlines() if line.startswith("  ")]  # no continuation lines
    assert (REPO / "docs" / "features.md").is_file() and "docs/features.md" in features


def test_untrusted_workspaces_restrict_every_setting_that_names_files_or_commands() -> None:
    restricted = set(EXTENSION["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"])
    settings = EXTENSION["contributes"]["configuration"]["properties"]
    risky = {k for k in settings if k.startswith("hcljson.server.")
             or k.endswith((".files", ".file", ".runTerraform", ".path", ".command", "validateOnSave", ".initIfNeeded"))}
    assert {"hcljson.providerSchemas.files", "hcljson.validateOnSave", "hcljson.validate.initIfNeeded"} <= risky
    assert risky <= restricted, risky - restricted
    assert restricted <= set(settings)


def test_the_vsix_bundles_the_server_wheel() -> None:
    assert EXTENSION["scripts"]["package"].startswith("node scripts/bundle-wheel.mjs && vsce package")
    ignore = (REPO / "vscode-extension" / ".vscodeignore").read_text(encoding="utf-8").splitlines()
    assert "!server/*.whl" in ignore


def test_the_vsix_wheel_is_built_from_the_files_a_wheel_is_made_of() -> None:
    """`bundle-wheel.mjs` builds from a copy of these files, not in the repository (two in-tree builds at once
    fail on each other's `build/`): the same files `tests/test_packaging.py` builds its wheel from."""
    from test_packaging import PROJECT_DIRS, PROJECT_FILES

    script = (REPO / "vscode-extension" / "scripts" / "bundle-wheel.mjs").read_text(encoding="utf-8")

    def listed(name: str) -> list[str]:
        match = re.search(rf"^const {name} = \[(.*?)\];$", script, flags=re.M)
        assert match, f"bundle-wheel.mjs has no {name}"
        return re.findall(r"'([^']+)'", match.group(1))

    assert listed("PROJECT_FILES") == PROJECT_FILES
    assert listed("PROJECT_DIRS") == PROJECT_DIRS
    assert "mkdtempSync" in script and ", source]" in script  # pip builds the copy, not `repository`
