"""`diagnostic.Runs` (diagnostics kept as runs moved by a delta noted once) and `realigned` (a
version's diagnostics sharing the previous version's runs): always the same diagnostics as the
plain list, whatever the runs, the edit and the diagnostics (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.diagnostic import Deferred, Diagnostic, Fix, Related, Runs, is_moved, realigned


def _later(base: int) -> tuple[str, tuple[Fix, ...]]:
    return " Did you mean x?", (Fix(base, base + 1, "x", "use x"),)


def _diagnostic(start: int, kind: int, code: str) -> Diagnostic:
    if kind == 0:
        return Diagnostic(start, start + 2, "error", code, f"at {start % 7}")
    if kind == 1:
        return Deferred(start, start + 3, "error", code, "undeclared", "", later=_later)
    return Diagnostic(start, start + 1, "warning", code, "twice", "", (Related(start + 1, start + 2, "here"),),
                      (Fix(start, start + 1, "y", "fix"),))


_DIAGNOSTICS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.sampled_from(["a", "b"])),
                        max_size=30).map(lambda xs: [_diagnostic(10 * i + gap, kind, code)
                                                     for i, (gap, kind, code) in enumerate(xs)])


@settings(max_examples=30, deadline=None)
@given(_DIAGNOSTICS, st.data())
def test_runs_read_as_the_list_they_stand_for(found, data):
    runs = Runs.of(found)
    n = len(found)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=3)))
    delta = data.draw(st.integers(-5, 5))
    parts, at = [], 0
    for cut in [*cuts, n]:
        parts.extend(runs.cut(at, cut, delta))
        at = cut
    moved = Runs.joined(parts)
    expected = [d.shifted(delta) for d in found]
    assert list(moved) == expected and moved == expected and len(moved) == n
    assert [moved[i] for i in range(n)] == expected
    if n:
        assert moved[-1] == expected[-1]
    for offset in (-1, 0, *(d.start for d in expected), *(d.start + 1 for d in expected), 10 ** 6):
        assert moved.count_before(offset) == sum(1 for d in expected if d.start < offset)
    lo = data.draw(st.integers(0, n))
    hi = data.draw(st.integers(lo, n))
    assert moved.between(lo, hi) == expected[lo:hi]


def test_joined_runs_make_one_of_what_follows_on_and_keep_their_tags_when_flattened():
    found = [_diagnostic(10 * i, i % 3, "a") for i in range(100)]
    run = Runs.new(found, tags=[("tag", i) for i in range(100)])
    parts = Runs.of(found)
    split = Runs.joined([run._replace(hi=40), run._replace(lo=40)])
    assert len(split.runs) == 1 and split.runs[0] == run  # (the same diagnostics, one after the other)
    assert len(Runs.joined([*parts.cut(0, 40), *parts.cut(40, 100, 3)]).runs) == 2  # (not the same delta)
    many = Runs.joined([run._replace(lo=i, hi=i + 1, delta=i % 2) for i in range(Runs.MAX_RUNS + 2)])
    assert len(many.runs) == 1 and list(many) == [d.shifted(i % 2) for i, d in enumerate(found[:Runs.MAX_RUNS + 2])]
    assert list(many.runs[0].tags()) == [("tag", i) for i in range(Runs.MAX_RUNS + 2)]


@settings(max_examples=30, deadline=None)
@given(_DIAGNOSTICS, st.data())
def test_realigned_is_the_new_list_sharing_what_it_can(before, data):
    """An "edit" replaces [start, old_end) (between diagnostics) by new_end - start characters: the
    diagnostics before it stay, those after move, some in it change."""
    n = len(before)
    i = data.draw(st.integers(0, n))
    j = data.draw(st.integers(i, n))
    start = before[i - 1].start + 4 if i else 0  # past every place the ones before hold (at most start + 3)
    old_end = before[j].start if j < n else (before[-1].end + 1 if n else 0)
    old_end = max(start, old_end)
    grow = data.draw(st.integers(-(old_end - start), 6))
    delta = grow
    middle = [_diagnostic(start + k, k % 3, "c") for k in range(data.draw(st.integers(0, 2)))
              if start + k + 3 <= old_end + delta]
    found = [*before[:i], *middle, *(d.shifted(delta) for d in before[j:])]
    runs = Runs.of(before)
    again = realigned(found, runs, before, (start, old_end, old_end + delta))
    assert list(again) == found and again.flat() is found
    assert Runs(again.runs) == found  # (read from the runs, not from the list)
    if i:  # the diagnostics before the edit: the same run (the same objects)
        assert again.runs[0].base is runs.runs[0].base and again.runs[0].delta == 0
    if j < n and not middle:  # those after it: the old run, the delta noted
        assert again.runs[-1].base is runs.runs[0].base and again.runs[-1].delta == delta
    assert all(is_moved(d.shifted(delta), d, delta) for d in before)
    assert not any(is_moved(d.shifted(delta + 1), d, delta) for d in before)
