"""A document of tiny blocks is built in short steps (issues 23 "Waiting" and 21 §2): every pass
over its blocks pauses, so no step of the background build holds the event loop longer on a
document of many tiny blocks than on one of few large ones.

Before session 11, a document of 775,000 tiny outputs under one `output` key (39 MB, under the
default size limit) had steps over every block at once: the label level's members made in one
list, the definitions collected, the duplicate check, the set of keys, the walk's leftovers freed,
the parse's pieces freed and the line starts found in one piece each (up to 0.3 s each at 300,000
outputs, 15 MB). The step sizes are made tiny here, so a document of a few thousand outputs shows a pass
over every block as a step far longer than the others; the time measured is the CPU time of the
thread (the suite runs on two workers of a loaded machine: the wall clock counts waiting too)."""

from __future__ import annotations

import json
import time

import pytest
from internals import file_diagnostics

from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.hcljson import incremental
from hcljson_ls.jsonsyntax import fastparse
from hcljson_ls.text import line_index
from hcljson_ls.workspace import DocumentState

#: bench/bench_memory.py's tiny-block document, 4,000 outputs (~0.3 MB).
TINY = json.dumps({"output": {f"out_{i:07d}": {"value": i} for i in range(4_000)}}, indent=2)
#: A step may cost at most this share of the whole build. A pass over every block costs ~1/60 to
#: 1/90 of it (a block's decode and checks cost 60-90 times its share of one pass); before
#: session 11, the longest step was 1/88 of the build of these 4,000 outputs (the step from the
#: last block decoded to the first resolved: the definitions, the duplicate check, the set of keys);
#: now, with the tiny step sizes below, ~1/400.
SHARE = 1 / 150


@pytest.fixture
def tiny_steps():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(incremental, "BUILD_STEP", 4)  # blocks per step
        patch.setattr(incremental, "_PASS_STEP", 4, raising=False)  # x BUILD_STEP blocks per step of a light pass
        patch.setattr(fastparse, "STEP_OBJECTS", 8)  # objects closed per parse step
        patch.setattr(fastparse, "SPLIT_CHUNK", 4096)  # characters split at a time
        patch.setattr(line_index, "_STEP_SLICE", 4096, raising=False)  # characters per line-start step
        yield


def _steps(name: str, steps) -> list[tuple[float, str]]:
    """The CPU time of each step of `steps`, run to their end as the server runs them (the cyclic
    GC paused: `HcljsonServer._run_slice`), and where the step began."""
    times = []
    where = name
    while True:
        started = time.thread_time()
        try:
            with paused_gc():
                next(steps)
        except StopIteration:
            times.append((time.thread_time() - started, where))
            return times
        times.append((time.thread_time() - started, where))
        where, inner = name, steps
        while getattr(inner, "gi_frame", None) is not None:  # the innermost generator's paused line
            where, inner = f"{inner.gi_code.co_name}:{inner.gi_frame.f_lineno}", inner.gi_yieldfrom


def test_no_step_of_the_build_of_tiny_blocks_passes_over_every_block(tiny_steps) -> None:
    # The same document built at once first: what a first build loads once (lazy tables, caches that
    # an earlier test of the same xdist worker may have cleared) is not a pass over the blocks; in a
    # full run the step that ends the parse once took 3.4 ms of a 237 ms build that way (1/70).
    fresh = DocumentState.open("file:///m/main.tf.json", TINY, 1, "terraform-json")
    fresh.prepare()
    state = DocumentState.open("file:///m/main.tf.json", TINY, 1, "terraform-json")
    assert state.quick() is not None and state.quick().diagnostics == []  # quick-opened: built in the background
    lines = state.line_index
    steps = _steps("line starts", lines.build_steps()) + _steps("build", state.build_steps())
    assert state.built
    total = sum(t for t, _ in steps)
    longest = sorted(steps)[-5:]
    print(f"{len(steps)} steps, {total * 1000:.0f} ms; the longest, after: " + ", ".join(f"{w} {t * 1000:.1f} ms" for t, w in longest))
    assert longest[-1][0] <= SHARE * total, longest
    assert file_diagnostics(state) == file_diagnostics(fresh) == []
    assert lines.line_count == fresh.line_index.line_count == TINY.count("\n") + 1
