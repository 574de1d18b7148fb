"""`HcljsonProtocol.warm_steps` and `HcljsonServer.warm_messages_soon`: after `initialized`, the
server makes the converter's structure hook of every message it handles in the background, so the
first edit, hover or completion of a session does not wait for cattrs to write one (5 ms for the
first `didChange`). Which types a message made hooks for is seen through the converter's dispatch
cache: the same `lru_cache` around `dispatch_without_caching` as cattrs's own, noting each miss."""

from __future__ import annotations

import asyncio
import functools
import os
import subprocess
import sys

import pytest

from hcljson_ls.lsp.server import create_server

POSITION = {"line": 1, "character": 2}
DOCUMENT = {"uri": "file:///stack/main.tf.json"}
#: What an editor sends as a person opens, types and reads.
MESSAGES = [
    {"method": "textDocument/didOpen",
     "params": {"textDocument": {**DOCUMENT, "languageId": "terraform-json", "version": 1, "text": "{}"}}},
    {"method": "textDocument/didChange",
     "params": {"textDocument": {**DOCUMENT, "version": 2},
                "contentChanges": [{"range": {"start": POSITION, "end": POSITION}, "text": "x"}]}},
    {"id": 1, "method": "textDocument/diagnostic", "params": {"textDocument": DOCUMENT, "previousResultId": "a.1"}},
    {"id": 2, "method": "textDocument/hover", "params": {"textDocument": DOCUMENT, "position": POSITION}},
    {"id": 3, "method": "textDocument/completion", "params": {"textDocument": DOCUMENT, "position": POSITION}},
    {"id": 4, "method": "textDocument/codeAction",
     "params": {"textDocument": DOCUMENT, "range": {"start": POSITION, "end": POSITION}, "context": {"diagnostics": []}}},
    {"method": "$/cancelRequest", "params": {"id": 3}},
]


def _server():
    """A server whose converter notes each type it dispatches a structure hook for afresh."""
    server = create_server()
    dispatcher = server._hcljson_protocol._converter._structure_func
    made = server.hooks_made = []
    fresh = dispatcher.dispatch_without_caching

    def noting(typ):
        made.append(typ)
        return fresh(typ)

    dispatcher.dispatch = functools.lru_cache(maxsize=None)(noting)
    return server


def _hooks_made(server, message: dict) -> list:
    """The types whose hooks structuring `message` dispatched afresh, but plain Python types (whose
    hook is looked up, not written)."""
    server.hooks_made.clear()
    server._hcljson_protocol.structure_message({"jsonrpc": "2.0", **message})
    return [t for t in server.hooks_made if t not in (str, int, float, bool, type(None))]


@pytest.mark.parametrize("message", MESSAGES, ids=[m["method"] for m in MESSAGES])
def test_after_warming_a_message_makes_no_hook(message):
    server = _server()

    async def warm() -> None:
        server.warm_messages_soon()
        await server._warming

    asyncio.run(warm())
    assert _hooks_made(server, message) == []


@pytest.mark.parametrize("message", MESSAGES, ids=[m["method"] for m in MESSAGES])
def test_without_warming_the_first_message_of_a_kind_makes_its_hook(message):
    """The control: what the warming spares."""
    assert _hooks_made(_server(), message) != []


def test_without_a_running_loop_nothing_is_warmed():
    server = create_server()
    server.warm_messages_soon()
    assert server._warming is None


def test_the_warming_also_imports_what_the_first_misspelt_name_asks():
    """`similar.prepare` (rapidfuzz, cydifflib: ~20-40 ms the first misspelt reference of a session
    waited for) is one of the warming's steps. In a fresh interpreter: this one has them imported."""
    probe = ("import asyncio, sys\nfrom hcljson_ls.lsp.server import create_server\nserver = create_server()\n"
             "before = 'rapidfuzz' in sys.modules\n"
             "async def warm():\n    server.warm_messages_soon()\n    await server._warming\n"
             "asyncio.run(warm())\nprint(before, 'rapidfuzz' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert found.stdout.split() == ["False", "True"], found.stderr
