"""`lsp.early`'s answer to `initialize` is the full server's (`capabilities.json` is not stale), and
`entry` starts it only for a stdio server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.entry import is_stdio_server
from hcljson_ls.lsp.early import answer, computed_answer

#: The capabilities real clients send, as pytest-lsp ships them (VS Code, Neovim 0.6-0.11, Emacs).
CLIENTS = sorted((Path(pytest_lsp.__file__).parent / "clients").glob("*.json"))


def _capabilities(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("capabilities", data)


def test_the_real_clients_capabilities_are_there():
    assert len(CLIENTS) >= 5, CLIENTS


@pytest.mark.parametrize("client", CLIENTS, ids=lambda p: p.stem)
def test_the_early_answer_is_the_full_servers_for_a_real_client(client: Path):
    params = {"processId": 1, "rootUri": None, "capabilities": _capabilities(client)}
    assert answer(params) == computed_answer(params)


ENCODINGS = st.lists(st.sampled_from(["utf-8", "utf-16", "utf-32", "UTF-8", "latin-1", "bogus"]), max_size=3)


@settings(max_examples=25, deadline=None)
@given(encodings=st.none() | ENCODINGS, prepare=st.none() | st.booleans(),
       file_operations=st.dictionaries(st.sampled_from(["didCreate", "willCreate", "didRename", "willRename",
                                                        "didDelete", "willDelete"]), st.booleans()),
       notebooks=st.booleans(), will_save=st.none() | st.booleans())
def test_the_early_answer_is_the_full_servers_for_any_capabilities(encodings, prepare, file_operations, notebooks, will_save):
    capabilities: dict = {"workspace": {"fileOperations": file_operations},
                          "textDocument": {"synchronization": {"willSave": will_save, "willSaveWaitUntil": will_save}}}
    if encodings is not None:
        capabilities["general"] = {"positionEncodings": encodings}
    if prepare is not None:
        capabilities["textDocument"]["rename"] = {"prepareSupport": prepare}
    if notebooks:
        capabilities["notebookDocument"] = {"synchronization": {}}
    params = {"processId": None, "capabilities": capabilities}
    assert answer(params) == computed_answer(params)


@pytest.mark.parametrize("argv, expected", [
    ([], True), (["--stdio"], True), (["--stdio", "--log-file", "/tmp/x.log"], True),
    (["--log-level=debug", "--stdio"], True), (["--log-level", "info"], True),
    (["--log-file"], False), (["--tcp"], False), (["check", "."], False), (["convert", "a.tf"], False),
    (["--version"], False), (["-h"], False), (["--stdio", "check"], False),
])
def test_only_a_stdio_server_answers_early(argv, expected):
    assert is_stdio_server(argv) is expected


def test_the_early_path_imports_neither_the_server_nor_its_libraries():
    # What `entry` imports before answering is all the early answer waits for: a heavy import added
    # there (pygls, lsprotocol, cattrs, `cli` and its layers) would bring the slow start-up back.
    probe = ("import sys, hcljson_ls.entry, hcljson_ls.lsp.early as e; e.answer({'capabilities': {}});"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs', 'attrs')"
             " or m in ('hcljson_ls.cli', 'hcljson_ls.lsp.server', 'hcljson_ls.workspace', 'hcljson_ls.terraform')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


def test_the_first_documents_path_imports_neither_pygls_nor_lsprotocol():
    # `lsp.first_open` answers the first diagnostics before the server is imported: its imports (the
    # analysis, `lsp.diagnostic_forms`, `lsp.config`) must not bring pygls, lsprotocol or cattrs back
    # (two thirds of the start-up), nor `cli` or `lsp.server`, which import them.
    probe = ("import sys, hcljson_ls.entry, hcljson_ls.lsp.first_open;"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs', 'attrs')"
             " or m in ('hcljson_ls.cli', 'hcljson_ls.lsp.server', 'hcljson_ls.lsp.protocol', 'hcljson_ls.lsp.convert')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout
