"""`diagnostic.Runs` (diagnostics kept as runs moved by a delta noted once) and `realigned` (a
version's diagnostics sharing the previous version's runs): always the same diagnostics as the
plain list, whatever the runs, the edit and the diagnostics (hypothesis)."""

from __future__ import annotations

from bisect import bisect_left

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.diagnostic import Deferred, Diagnostic, Fix, Piece, Pieces, Related, Runs, _Base, _reach, is_moved, realigned, start_of


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
    assert all(r.hi > r.lo for r in moved.cut(lo, hi))  # (no empty run: its bounds are asked)


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


def _pieced(found: list[Diagnostic], cuts: list[int], lazy: list[bool], made: list[int]) -> Pieces:
    """`found` cut at `cuts` into parts, those marked in `lazy` as `Piece`s (each counts in `made` when made)."""
    parts: list = []
    at = 0
    for k, cut in enumerate([*cuts, len(found)]):
        part = found[at:cut]
        if lazy[k % len(lazy)] and part:
            codes = {d.code for d in part}
            severities: dict[str, set[str]] = {}
            for d in part:
                severities.setdefault(d.code, set()).add(d.severity)
            low = min(_reach(d)[0] for d in part)
            high = max(_reach(d)[1] for d in part)

            def make(part=part, k=k) -> list[Diagnostic]:
                made.append(k)
                return list(part)

            parts.append(Piece(len(part), next(iter(codes)) if len(codes) == 1 else None, severities, low, high, make))
        else:
            parts.append(part)
        at = cut
    return Pieces(parts)


@settings(max_examples=40, deadline=None)
@given(_DIAGNOSTICS, st.data())
def test_pieces_read_as_the_list_they_stand_for_and_make_only_what_is_read(found, data):
    n = len(found)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=5)))
    lazy = data.draw(st.lists(st.booleans(), min_size=1, max_size=6))
    made: list[int] = []
    items = _pieced(found, cuts, lazy, made)
    base = Runs.new(items).base
    runs = Runs((Runs.new(items),))
    plain = _Base(tuple(found))
    # The index of codes, the severities and the spans are answered without making a piece of one code.
    assert base.codes() == plain.codes()
    for code in ("a", "b", "c"):
        assert base.severities(code) == plain.severities(code)
    lo = data.draw(st.integers(0, n))
    hi = data.draw(st.integers(lo, n))
    if hi > lo:
        low, high = base.span(lo, hi)
        exact = plain.span(lo, hi)
        assert low <= exact[0] and high >= exact[1]  # (a piece not made answers its bounds)
    assert all(len({d.code for d in found[a:b]}) > 1 for a, b in _made_parts(cuts, n, made))  # (several codes)
    # Reading one element makes at most its piece; reading them all makes every piece, once.
    if n:
        i = data.draw(st.integers(0, n - 1))
        before = len(made)
        assert runs[i] == found[i]
        assert len(made) - before <= 1
    assert runs.between(lo, hi) == found[lo:hi] and items[lo:hi] == found[lo:hi]
    assert list(runs) == found and len(runs) == n
    assert sorted(made) == sorted(set(made))
    assert list(runs.steps()) == [] and items.pending == 0  # (all made: nothing left to make)
    if hi > lo:  # made, every part answers its exact bounds
        assert items.span(lo, hi) == plain.span(lo, hi) == base.span(lo, hi)


@settings(max_examples=100, deadline=None)
@given(_DIAGNOSTICS, st.data())
def test_count_before_is_a_binary_search_that_makes_only_the_pieces_around_its_offset(found, data):
    n = len(found)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=6)))
    made: list[int] = []
    items = _pieced(found, cuts, data.draw(st.lists(st.booleans(), min_size=1, max_size=6)), made)
    delta = data.draw(st.integers(-5, 5))
    splits = sorted(data.draw(st.lists(st.integers(0, n), max_size=3)))
    runs = Runs.joined(r for a, b in zip([0, *splits], [*splits, n]) for r in Runs((Runs.new(items),)).cut(a, b, delta))
    moved = [d.shifted(delta) for d in found]
    starts = [d.start for d in moved]
    offset = data.draw(st.sampled_from(starts) if starts and data.draw(st.booleans())
                       else st.sampled_from([-10, 0, 10 ** 6, *(x + e for x in starts for e in (-1, 1))]))
    lo = data.draw(st.integers(0, n))
    hi = data.draw(st.integers(lo, n))
    assert runs.count_before(offset, lo, hi) == bisect_left(moved, offset, lo, hi, key=start_of)
    assert runs.count_before(offset) == bisect_left(moved, offset, key=start_of)
    parts = [found[a:b] for a, b in zip([0, *cuts], [*cuts, n])]
    for k in made:  # (only a piece whose bounds hold the offset is made to know)
        low, high = min(_reach(d)[0] for d in parts[k]), max(_reach(d)[1] for d in parts[k])
        assert low + delta < offset <= high + delta
    assert items.count_before(offset - delta, lo, hi) == bisect_left(found, offset - delta, lo, hi, key=start_of)


def _made_parts(cuts: list[int], n: int, made: list[int]) -> list[tuple[int, int]]:
    """The ranges of the parts made (by their index in `cuts`)."""
    bounds = [0, *cuts, n]
    return [(bounds[k], bounds[k + 1]) for k in made]


def test_pieces_are_made_one_a_step_and_a_wrong_count_is_an_error():
    found = [_diagnostic(10 * i, 1, "a") for i in range(9)]
    made: list[int] = []
    items = _pieced(found, [3, 6], [True], made)
    steps = Runs((Runs.new(items),)).steps()
    next(steps)
    assert made == [0]
    assert list(steps) == [None, None] and made == [0, 1, 2]
    wrong = Pieces([Piece(2, "a", {"a": {"error"}}, 0, 10, lambda: found[:1])])
    with pytest.raises(RuntimeError):
        wrong[0]
