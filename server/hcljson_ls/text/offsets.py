"""Offsets into a text, kept in an array and moved by edits without rewriting the array.

    Offsets(values)                  an immutable sequence of ints (`array("q")` or any iterable)
    offsets.moved(at, delta)         each element >= `at` (an offset of the text as it is), + `delta`
    offsets.replaced(lo, values)     elements `[lo, lo + len(values))` set to `values`
    offsets[i], len(offsets), iter(offsets), offsets == other sequence

Contract
--------
* An `Offsets` never changes: `moved` and `replaced` return new ones that share the array. Every
  element reads as if each move and replacement had been applied to the elements in turn: a move
  adds `delta` to every element whose value, as the edits before it left it, is at least `at`
  (what an edit of `delta` characters does to the offsets after it).
* The moves of the array's elements are kept as one function of their value (`_points`,
  `_shifts`: what to add to a value between two points), so a read is a binary search, however
  many moves were made. An element set by `replaced` keeps its value and the moves made after it.
* After `MAX_MOVES` moves (or more points than four times that), the next one writes every element
  into a new array (one pass, a binary search each): what every edit used to cost, a few times over.
* `==` compares the elements with those of any sequence of ints (an `array`, a list, an `Offsets`).

Why: an edit inside one top-level block of a document read by `terraform.quick` (its tree not
built yet) moved every position after it, a list comprehension over each array: the blocks' ranges
and header keys (`terraform.around.Spans`) and the definitions' places (`terraform.quick`'s
`Places`), ~2.3 ms of an edit's ~3.3 at 5 MB and ~8 of ~10 at 20 MB (in-process, bench/peer.py's
document, session 21). A move is now noted once.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

__all__ = ["MAX_MOVES", "Offsets"]

#: Moves noted before the next one writes every element into a new array.
MAX_MOVES = 64


class Offsets(Sequence[int]):
    """See the module doc."""

    __slots__ = ("_base", "_points", "_shifts", "_moves", "_set")

    def __init__(self, values: Iterable[int] = ()) -> None:
        self._base = values if type(values) is array else array("q", values)
        # What to add to an element of `_base` of value v: `_shifts[bisect_right(_points, v)]`.
        self._points: list[int] = []
        self._shifts = [0]
        self._moves: tuple[tuple[int, int], ...] = ()  # (at, delta), in the order they were made
        self._set: dict[int, tuple[int, int]] = {}  # index -> (value, how many moves came before it)

    def _with(self, points: list[int], shifts: list[int], moves: tuple[tuple[int, int], ...],
              replaced: dict[int, tuple[int, int]]) -> Offsets:
        made = Offsets(self._base)
        made._points, made._shifts, made._moves, made._set = points, shifts, moves, replaced
        return made

    def __len__(self) -> int:
        return len(self._base)

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self._base)))]
        if not self._moves:
            return self._base[i]
        if i < 0:
            i += len(self._base)
        got = self._set.get(i) if self._set else None
        if got is None:
            value = self._base[i]
            return value + self._shifts[bisect_right(self._points, value)]
        value, first = got
        for at, delta in self._moves[first:]:
            if value >= at:
                value += delta
        return value

    def __iter__(self) -> Iterator[int]:
        return iter(self._written() if self._moves else self._base)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Sequence, array)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Offsets({list(self)!r})"

    def moved(self, at: int, delta: int) -> Offsets:
        """Each element whose value is at least `at` moved by `delta`."""
        if not delta:
            return self
        if len(self._moves) >= MAX_MOVES or len(self._points) > 4 * MAX_MOVES:
            return Offsets(self._written()).moved(at, delta)
        # Each run of values between two points, [low, high) with one shift, moves where its values
        # as moved so far reach `at`: all of it, none of it, or from `at - shift` on (a new point).
        points: list[int] = []
        shifts: list[int] = []
        old = self._points
        for k, shift in enumerate(self._shifts):
            low = old[k - 1] if k else None
            high = old[k] if k < len(old) else None
            cut = at - shift
            if low is not None:
                points.append(low)
            if low is not None and cut <= low:
                shifts.append(shift + delta)
            elif high is not None and cut >= high:
                shifts.append(shift)
            else:  # (the run holds `cut`)
                shifts.append(shift)
                points.append(cut)
                shifts.append(shift + delta)
        return self._with(points, shifts, (*self._moves, (at, delta)), self._set)

    def replaced(self, lo: int, values: Sequence[int]) -> Offsets:
        """Elements `[lo, lo + len(values))` set to `values` (the others as they are)."""
        if not self._moves:
            base = array("q", self._base)
            base[lo : lo + len(values)] = array("q", values)
            return Offsets(base)
        done = len(self._moves)
        changed = dict(self._set)
        for k, value in enumerate(values, lo):
            changed[k] = (value, done)
        return self._with(self._points, self._shifts, self._moves, changed)

    def _written(self) -> array:
        """Every element, as read, in a new array."""
        points, shifts = self._points, self._shifts
        out = array("q", [v + shifts[bisect_right(points, v)] for v in self._base])
        for i in self._set:
            out[i] = self[i]
        return out
