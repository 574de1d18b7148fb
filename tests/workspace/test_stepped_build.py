"""The tree and analysis built in steps after a quick open (`DocumentState.build_steps`): whatever
edits and declaration changes come between the steps, the document then answers exactly like a fresh
one of the same text, and no edit is lost. The step sizes are made tiny here, so that a small
document is built in many steps and edits fall between all of them."""

from __future__ import annotations

import json

import pytest
from documents import edit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from internals import file_diagnostics

from hcljson_ls.features.diagnostics import collect
from hcljson_ls.hcljson import incremental
from hcljson_ls.jsonsyntax import fastparse
from hcljson_ls.workspace import DocumentState, Workspace

URI = "file:///m/main.tf.json"

DOC = json.dumps(
    {
        "variable": {"env": {"type": "string"}, "unused": {}},
        "locals": {"prefix": "app-${var.env}", "n": 2},
        "resource": {
            "aws_instance": {
                **{f"r{i}": {"ami": f"ami-{i}", "count": 2, "tags": {"Name": "${local.prefix}-" + str(i)},
                             "depends_on": [f"aws_instance.r{max(0, i - 1)}"]} for i in range(12)},
                "bad": {"ami": "${var.nope}", "for_each": {}, "count": 1},
            },
        },
        "output": {"ip": {"value": "${aws_instance.r3[0].id}"}, "oops": {"value": "${aws_instance.missing.id}"}},
    },
    indent=2,
)


@pytest.fixture(autouse=True)
def tiny_steps():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(incremental, "BUILD_STEP", 2)  # blocks per step
        patch.setattr(fastparse, "STEP_OBJECTS", 3)  # objects closed per parse step
        patch.setattr(fastparse, "SPLIT_CHUNK", 97)  # characters split at a time: pieces joined across parts
        yield


def opened(text: str) -> DocumentState:
    """`text` opened alone in a workspace of its own (its references resolved against the module)."""
    state = Workspace().open(URI, text, 1, "terraform-json")
    assert state is not None
    return state


def fresh(text: str) -> list:
    state = opened(text)
    state.prepare()
    return file_diagnostics(state)


def steps(state: DocumentState, n: int) -> int:
    """Run up to `n` steps of the build; how many ran."""
    ran = 0
    for _ in state.build_steps():
        ran += 1
        if ran == n:
            break
    return ran


def test_the_build_takes_many_steps_and_equals_the_full_analysis() -> None:
    state = opened(DOC)
    quick = file_diagnostics(state)
    assert state.quick() is not None and not state.built
    assert steps(state, 10_000) > 30
    assert state.built
    assert file_diagnostics(state) == quick == fresh(DOC)
    assert {d.code for d in quick} >= {"reference/undeclared", "structure/conflicting-arguments"}


def test_an_edit_during_the_build_is_answered_without_the_tree_and_kept() -> None:
    state = opened(DOC)
    file_diagnostics(state)
    steps(state, 5)
    at = state.text.index("${var.nope}") + 6  # search: DOC is json.dumps output
    edit(state, at, at + 4, "env")  # the undeclared variable fixed
    assert not state.built  # the edit did not build anything: it is answered by the cheap path
    during = file_diagnostics(state)
    assert not state.built
    assert during == fresh(state.text)
    assert "var.nope" not in str(during)
    steps(state, 10_000)
    assert state.built and state.version == 2
    assert file_diagnostics(state) == during
    # the built tree went on from the text the build read, with the edit applied to it
    assert state.syntax.root.end == len(state.text)
    at = state.text.index('"ami-5"') + 1  # search: DOC is json.dumps output
    edit(state, at, at + 3, "xyz")  # after the build: the incremental fast path
    assert file_diagnostics(state) == fresh(state.text)
    assert state._engine.walks == 1 and state._engine.fast >= 1


def test_a_request_during_the_build_finishes_it_once() -> None:
    state = opened(DOC)
    file_diagnostics(state)
    build = state.build_steps()
    steps(state, 7)
    at = state.text.index('"ami-2"') + 1  # search: DOC is json.dumps output
    edit(state, at, at, "q")
    state.analysis  # a request needs the analysis: the build in progress is finished, not started again
    assert state.built and state._engine.walks == 1
    assert list(build) == []  # the server's driver finds it done
    assert file_diagnostics(state) == fresh(state.text)


_PIECES = st.sampled_from(['"', "{", "}", "[", "]", ",", ":", " ", "\n", "x", "r1", "${", "var.env", "é😀",
                           '"a": 1, ', '"count": 1, ', '"for_each": {}, ', '"r99": {}, ', "null"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(
    st.tuples(st.just("steps"), st.integers(1, 12)),
    st.tuples(st.just("edit"), st.floats(0, 1), st.integers(0, 6), st.lists(_PIECES, max_size=3).map("".join)),
    st.tuples(st.just("diagnostics")),
), min_size=1, max_size=10))
def test_random_edits_between_build_steps_give_what_a_fresh_document_gives(operations) -> None:
    state = opened(DOC)
    file_diagnostics(state)  # the open's answer (quick)
    version = 1
    for op in operations:
        if op[0] == "steps":
            steps(state, op[1])
        elif op[0] == "edit":
            _, where, length, new = op
            start = int(where * len(state.text))
            edit(state, start, min(len(state.text), start + length), new)
            version += 1
        else:
            assert file_diagnostics(state) == fresh(state.text)
    steps(state, 100_000)
    assert state.version == version
    assert file_diagnostics(state) == fresh(state.text)
    keys, _ = state.definitions()
    assert keys == opened(state.text).analysis.definitions()[0]


def test_declarations_changed_elsewhere_during_the_build_reach_it(tmp_path) -> None:
    """Another open document of the module declares what the building one refers to, between two
    steps: once built, the building document's references are resolved against it."""
    (tmp_path / "main.tf.json").write_text(DOC)
    (tmp_path / "vars.tf.json").write_text("{}")
    main, other = (tmp_path / "main.tf.json").as_uri(), (tmp_path / "vars.tf.json").as_uri()
    workspace = Workspace()
    workspace.set_folders([str(tmp_path)])
    workspace.open(other, "{}", 1, "terraform-json")
    state = workspace.open(main, DOC, 1, "terraform-json")
    before = collect(workspace.snapshot(), main)
    assert any("var.nope" in d.summary + d.detail for d in before)
    steps(state, 40)  # references of the first blocks resolved against the module as it was
    assert not state.built
    change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 2}},
              "text": '{"variable": {"nope": {}}}'}
    workspace.change(other, 2, [change], "utf-16")
    collect(workspace.snapshot(), other)  # its new declaration reaches the module
    steps(state, 100_000)
    after = collect(workspace.snapshot(), main)
    assert not any("var.nope" in d.summary + d.detail for d in after)

    again = Workspace()
    again.set_folders([str(tmp_path)])
    again.open(other, '{"variable": {"nope": {}}}', 1, "terraform-json")
    fresh_state = again.open(main, DOC, 1, "terraform-json")
    fresh_state.prepare()
    assert after == collect(again.snapshot(), main)


def test_an_engine_change_abandons_the_build() -> None:
    state = opened(DOC)
    file_diagnostics(state)
    build = state.build_steps()
    steps(state, 6)
    state.restart_analysis()
    for _ in build:  # the server's driver runs the abandoned build out: it adopts nothing
        pass
    assert not state.built
    assert file_diagnostics(state) == fresh(DOC)
    assert steps(state, 100_000) > 30  # a new build, from the start
    assert state.built and file_diagnostics(state) == fresh(DOC)
