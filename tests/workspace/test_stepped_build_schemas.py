"""Provider schemas that arrive while a quick-opened document is being built in steps
(`DocumentState.build_steps`, driven as the server drives it: `HcljsonServer._prepare`): once the
build is done, the document's diagnostics are those of a fresh document with the schemas (the schema
diagnostic included), and `features.diagnostics.prepare` finds nothing to disagree with, whether a
client pulled the diagnostics between the schemas and the end of the build or not, and when a request
finished the build just before the schemas came.

The real VS Code trust test lost the schema diagnostic with the stepped build in the server: a
request that finished the build left a stale quick result of before the schemas to answer
(fixed in `DocumentState.quick`); these tests put the schemas between every two steps of a build.
The step sizes are made tiny, so a small document is built in many steps."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from internals import file_diagnostics
from shared_data import RANDOM_SCHEMA, require

from hcljson_ls.features import diagnostics
from hcljson_ls.hcljson import incremental
from hcljson_ls.jsonsyntax import fastparse
from hcljson_ls.terraform.schemas import provider_schema as ps
from hcljson_ls.workspace import DocumentState, Workspace
from hcljson_ls.workspace.files import module_key, uri_of_path

require(RANDOM_SCHEMA)

#: Valid `random_string` resources, and one whose misspelt argument only the schema reports.
DOC = json.dumps(
    {"resource": {"random_string": {**{f"s{i}": {"length": 8 + i, "special": False} for i in range(12)},
                                    "bad": {"lenght": 8, "length": 8}}},
     "output": {"o": {"value": "${random_string.s3.result}"}}},
    indent=2,
)
TYPO = "schema/unknown-argument"


@pytest.fixture(autouse=True)
def tiny_steps():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(incremental, "BUILD_STEP", 2)  # blocks per step
        patch.setattr(fastparse, "STEP_OBJECTS", 3)  # objects closed per parse step
        patch.setattr(fastparse, "SPLIT_CHUNK", 97)
        yield


def opened(folder: Path) -> tuple[Workspace, DocumentState]:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "main.tf.json"
    path.write_text(DOC, encoding="utf-8")
    ws = Workspace([str(folder)])
    state = ws.open(uri_of_path(str(path)), DOC, 1, "terraform-json")
    assert state is not None
    return ws, state


def codes(state: DocumentState) -> list[str]:
    return [d.code for d in file_diagnostics(state)]


#: What happens after the step the schemas come after: nothing more, a pull of the diagnostics (the
#: client answering the refresh), or a request that needs the tree before them (symbols, links).
MODES = ("schemas", "schemas+pull", "request+schemas+pull")


def build_with_schemas_after(ws: Workspace, state: DocumentState, at: int, mode: str) -> tuple[int, bool]:
    """The server's stepped build (`HcljsonServer._prepare`, one step a slice here: the quick result
    taken before each slice, kept only by the slice that ends the build) with the module's schemas set
    after `at` steps, as `mode` says. Returns how many steps ran and what `prepare` said (True: a
    disagreement)."""
    ran = 0
    quick = None
    steps = state.build_steps()
    while not state.built:
        quick = state.quick(compute=False)
        if next(steps, "end") == "end":
            break
        ran += 1
        if not state.built:  # the slice ended before the build: messages are handled
            quick = None
        if ran == at:
            if mode.startswith("request"):
                _ = state.analysis  # finishes the build in progress
                assert state.built
            ws.set_module_schemas(module_key(state.uri), ps.load(RANDOM_SCHEMA))
            if mode.endswith("pull"):
                assert TYPO in codes(state)
                assert state.built == mode.startswith("request")  # answered without finishing the build
    return ran, diagnostics.prepare(state, quick)


def test_schemas_set_between_any_two_steps_of_the_build_reach_the_diagnostics(tmp_path: Path, caplog) -> None:
    ws, state = opened(tmp_path / "count")
    assert codes(state) == []  # the open's answer: the quick result, no schemas yet
    total, disagreed = build_with_schemas_after(ws, state, 0, "schemas")
    assert total > 20 and not disagreed  # the build takes many steps

    expected = None
    for at in range(1, total):
        for mode in MODES:
            folder = tmp_path / f"at{at}-{mode}"
            ws, state = opened(folder)
            assert codes(state) == []
            with caplog.at_level(logging.ERROR):
                ran, disagreed = build_with_schemas_after(ws, state, at, mode)
            assert ran == (at if mode.startswith("request") else total) and state.built
            assert not disagreed, f"schemas after step {at} ({mode}): {caplog.text}"
            got = file_diagnostics(state)
            assert [d.code for d in got] == [TYPO], (at, mode)
            assert DOC[got[0].start:got[0].end] == '"lenght"'
            if expected is None:  # a fresh document of the module with the schemas, built in one piece
                fresh_ws, fresh = opened(tmp_path / "fresh")
                fresh_ws.set_module_schemas(module_key(fresh.uri), ps.load(RANDOM_SCHEMA))
                fresh.prepare()
                expected = file_diagnostics(fresh)
            assert got == expected
    assert "disagreed" not in caplog.text


def test_schemas_forgotten_during_the_build_leave_no_schema_diagnostic(tmp_path: Path) -> None:
    """The other way round: schemas known at the open (the quick result checks them), forgotten
    (`runTerraform` turned off) in the middle of the build."""
    ws, state = opened(tmp_path)
    key = module_key(state.uri)
    ws.set_module_schemas(key, ps.load(RANDOM_SCHEMA))
    assert codes(state) == [TYPO]
    steps = state.build_steps()
    for _ in range(10):
        next(steps)
    ws.set_module_schemas(key, None)
    assert codes(state) == [] and not state.built  # a pull: the quick result again, without schemas
    quick = None
    while not state.built:
        quick = state.quick(compute=False)  # taken again before each slice, as the server does
        next(steps, None)
    assert diagnostics.prepare(state, quick) is False
    assert codes(state) == []
