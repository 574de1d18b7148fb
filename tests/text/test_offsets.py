"""`text.offsets.Offsets`: moves and replacements noted, read as if each had been written."""

from __future__ import annotations

from array import array

from hypothesis import given, settings
from hypothesis import strategies as st

from hcljson_ls.text.offsets import MAX_MOVES, Offsets

_INTS = st.integers(-100, 1000)


@st.composite
def _histories(draw):
    """Some offsets and a history of edits of them: ("move", at, delta) and ("set", lo, values),
    more of them than `MAX_MOVES` at times (the noted moves are then written into a new array).
    Small values, so that moves reach and cross them, deletions (a negative delta) included."""
    values = draw(st.lists(_INTS, min_size=1, max_size=40))
    n = len(values)
    steps = []
    for _ in range(draw(st.integers(0, 3 * MAX_MOVES))):
        if draw(st.booleans()):
            steps.append(("move", draw(_INTS), draw(st.integers(-60, 60))))
        else:
            lo = draw(st.integers(0, n))
            steps.append(("set", lo, draw(st.lists(_INTS, max_size=n - lo))))
    return values, steps


@settings(max_examples=300)
@given(_histories())
def test_offsets_read_as_the_edits_written_one_by_one(history) -> None:
    values, steps = history
    model = list(values)
    offsets = Offsets(array("q", values))
    seen = [(offsets, list(model))]
    for kind, at, what in steps:
        if kind == "move":
            model = [x + what if x >= at else x for x in model]
            offsets = offsets.moved(at, what)
        else:
            model = model[:at] + list(what) + model[at + len(what):]
            offsets = offsets.replaced(at, what)
        assert len(offsets) == len(model)
        assert [offsets[k] for k in range(len(model))] == model
        assert offsets[-1] == model[-1]
        assert list(offsets) == model and offsets[1:-1] == model[1:-1]
        assert offsets == model and offsets == array("q", model) and offsets == Offsets(model)
        seen.append((offsets, list(model)))
    for earlier, then in seen:  # never changed by what was made from it
        assert list(earlier) == then


def test_moves_are_noted_up_to_a_limit_then_written() -> None:
    offsets = Offsets(range(10))
    for n in range(MAX_MOVES):
        offsets = offsets.moved(5 + n, 1)  # (every element from 5 on, as moved so far)
        assert len(offsets._moves) == n + 1 and list(offsets._base) == list(range(10))  # noted
    offsets = offsets.moved(5 + MAX_MOVES, 1)
    assert len(offsets._moves) == 1  # the ones before written into the array
    assert list(offsets._base) == [0, 1, 2, 3, 4, *range(5 + MAX_MOVES, 10 + MAX_MOVES)]
    assert list(offsets) == [0, 1, 2, 3, 4, *range(6 + MAX_MOVES, 11 + MAX_MOVES)]


def test_a_move_of_nothing_is_the_same_offsets() -> None:
    offsets = Offsets([1, 2, 3])
    assert offsets.moved(1, 0) is offsets
    assert offsets != [1, 2] and offsets != [1, 2, 4] and offsets != "abc"
