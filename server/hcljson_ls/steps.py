"""Work done in steps: a generator that yields between steps (where a caller may let the event loop
answer requests) and returns its result.

    run_out(steps) -> result      the whole work at once: the generator run to its end

Contract
--------
* `steps` is a generator whose yields carry nothing and whose `return` value is the work's result;
  `run_out` gives that value, as if the work had been written as one function.
* The bottom layer of the package: it imports nothing of it, so every layer runs its own stepped
  work at once the same way (the line index, the parse, the decode, the duplicates, the comparison
  of the quick result with the analysis).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

__all__ = ["run_out"]

T = TypeVar("T")


def run_out(steps: Generator[object, None, T]) -> T:
    """The value `steps` returns, all its steps taken now."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
