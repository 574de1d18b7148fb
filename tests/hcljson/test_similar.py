"""`similar.close_match` answers exactly what `difflib.get_close_matches(word, names, n=1, cutoff)` answers."""

from __future__ import annotations

import difflib
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.hcljson import similar
from hcljson_ls.hcljson.similar import close_match

# Few letters, so that names are often alike (ties and near-ties of the ratio are where a bound can slip).
_NAMES = st.text(alphabet="ab_c1-é", max_size=12)


@settings(max_examples=500, deadline=None)
@given(word=_NAMES, names=st.lists(_NAMES, max_size=15), cutoff=st.sampled_from([0.0, 0.5, 0.6, 0.7, 0.75, 1.0]))
def test_close_match_is_difflibs_answer(word: str, names: list[str], cutoff: float) -> None:
    got = difflib.get_close_matches(word, names, n=1, cutoff=cutoff)
    assert close_match(word, names, cutoff) == (got[0] if got else None)


def test_among_many_similar_generated_names() -> None:
    names = [f"resource_name_{i}" for i in range(300)]
    for word in ("resourse_nme_17", "resource_name_170x", "Resource_Name_3", "zzz"):
        got = difflib.get_close_matches(word, names, n=1, cutoff=0.7)
        assert close_match(word, names, 0.7) == (got[0] if got else None)


def test_no_names() -> None:
    assert close_match("x", [], 0.6) is None


@settings(max_examples=200, deadline=None)
@given(word=_NAMES, names=st.lists(_NAMES, max_size=15), cutoff=st.sampled_from([0.0, 0.6, 0.75, 1.0]))
def test_while_another_thread_imports_the_c_helpers_few_names_are_difflibs_without_waiting(
        word: str, names: list[str], cutoff: float) -> None:
    """`prepare` started on another thread, not done: the same answers, without `_bounds` (which
    would wait for that import)."""
    answer = close_match(word, names, cutoff)
    preparing, ready, bounds = similar._PREPARING, similar._READY, similar._bounds
    try:
        similar._PREPARING, similar._READY = threading.Event(), threading.Event()
        similar._PREPARING.set()
        similar._bounds = _not_asked  # type: ignore[assignment]
        assert close_match(word, names, cutoff) == answer
    finally:
        similar._PREPARING, similar._READY, similar._bounds = preparing, ready, bounds


def _not_asked():
    raise AssertionError("the C helpers were asked for while another thread imports them")


def test_while_another_thread_imports_the_c_helpers_many_names_wait_for_them() -> None:
    names = [f"resource_name_{i}" for i in range(similar._FALLBACK_NAMES + 1)]
    preparing, ready = similar._PREPARING, similar._READY
    try:
        similar._PREPARING, similar._READY = threading.Event(), threading.Event()
        similar._PREPARING.set()
        assert close_match("resourse_nme_17", names, 0.7) == "resource_name_17"
    finally:
        similar._PREPARING, similar._READY = preparing, ready
