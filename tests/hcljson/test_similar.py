"""`similar.close_match` answers exactly what `difflib.get_close_matches(word, names, n=1, cutoff)` answers."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

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
