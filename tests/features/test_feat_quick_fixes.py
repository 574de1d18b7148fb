"""`features.quick_fixes.fixable`: the quick fixes of the diagnostics a document shows, worked out
when a code action asks (issue 21 §3, session 12): those whose range meets the asked range (ends
included) or that the client names, never one `diagnostics.maxPerCode` hides, whose suggestion is then not looked for either.

A real `Workspace` on a temporary directory (the fixture dialect); suggestions are counted at
`resolve._near` (a counting wrapper around the real function), as in test_feat_deferred_suggestions."""

from __future__ import annotations

import pytest
from fixture import parse_fixture

from hcljson_ls.diagnostic import Fix
from hcljson_ls.features import diagnostics
from hcljson_ls.features.quick_fixes import fixable
from hcljson_ls.terraform.resolution import resolve

FIXTURE = parse_fixture(
    "//- /m/main.tf.json\n"
    '{"locals": {\n'
    '  "a": "${var.⟨environmnt⟩}",\n'
    '  "b": "${var.⟨enviromnent⟩} $[between]and ${local.⟨nope⟩}",\n'
    '  "c": "${var.⟨envronment⟩}"\n'
    "}}\n"
    "//- /m/variables.tf.json\n"
    '{"variable": {"environment": {}}}\n'
)
MAIN = FIXTURE.files["/m/main.tf.json"]
A, B, NOPE, C = MAIN.ranges  # the fixes' ranges: the names after `var.` (`local.nope` has no fix)


def _fix(span: tuple[int, int]) -> tuple[Fix, ...]:
    return (Fix(*span, "environment", 'Change to "var.environment"'),)


@pytest.fixture
def searches(monkeypatch) -> list[str]:
    asked: list[str] = []
    real = resolve._near
    monkeypatch.setattr(resolve, "_near", lambda name, candidates: asked.append(name) or real(name, candidates))
    monkeypatch.setattr(resolve, "_CANDIDATES", {})
    monkeypatch.setattr(resolve, "_CANDIDATES_BY_CONTENT", {})
    return asked


def test_the_fixes_of_the_shown_diagnostics_that_meet_the_range(tmp_path):
    ws = FIXTURE.workspace(tmp_path, open=["/m/main.tf.json"])
    uri = ws.uri("/m/main.tf.json")
    snapshot = ws.snapshot()
    shown = diagnostics.collect(snapshot, uri)
    starts = {d.fixes[0].start: d for d in shown if d.fixes}

    def fixes(start: int, end: int) -> list[tuple[Fix, ...]]:
        found = fixable(snapshot, uri, start, end)
        assert all(d in shown for d in found)  # the shown diagnostics themselves
        return [d.fixes for d in found]

    a_start, a_end = starts[A[0]].start, starts[A[0]].end  # `var.environmnt`
    assert fixes(a_start, a_end) == [_fix(A)]
    assert fixes(a_start, a_start) == fixes(a_end, a_end) == [_fix(A)]  # a cursor at either end
    assert fixes(a_start - 1, a_start - 1) == fixes(a_end + 1, a_end + 1) == []
    # A range over several: each with fixes, in order (`local.nope` has none); reversed ends alike.
    assert fixes(a_start, C[1]) == fixes(C[1], a_start) == [_fix(A), _fix(B), _fix(C)]
    between = MAIN.marks["between"]
    assert fixes(between, between + 4) == []
    # Named by the client (its range and code): also away from the range; another code names nothing.
    c = starts[C[0]]
    assert [d.fixes for d in fixable(snapshot, uri, between, between, sent=[(c.start, c.end, c.code)])] == [_fix(C)]
    assert fixable(snapshot, uri, between, between, sent=[(c.start, c.end, "other/code"), (0, 1, c.code)]) == []
    assert fixable(snapshot, "file:///not/open.tf.json", 0, 10) == []


def test_a_hidden_diagnostic_has_no_fix_and_is_not_looked_for(tmp_path, searches):
    ws = FIXTURE.workspace(tmp_path, open=["/m/main.tf.json"])
    uri = ws.uri("/m/main.tf.json")
    snapshot = ws.snapshot()
    shown = diagnostics.collect(snapshot, uri, max_per_code=1)
    assert [d.code for d in shown] == [resolve.UNDECLARED, diagnostics.TOO_MANY]
    assert searches == ["enviromnent"]  # the first hidden one (the summary quotes it); the shown one is not read yet
    assert [d.fixes for d in fixable(snapshot, uri, 0, len(MAIN.text), max_per_code=1)] == [_fix(A)]
    assert searches == ["enviromnent", "environmnt"]  # the shown one's fix, worked out now
    assert [d.fixes for d in fixable(snapshot, uri, C[0], C[1], max_per_code=1)] == []  # hidden: none
    assert "envronment" not in searches
    assert [d.fixes for d in fixable(snapshot, uri, C[0], C[1])] == [_fix(C)]  # all shown: its fix
    assert "envronment" in searches
