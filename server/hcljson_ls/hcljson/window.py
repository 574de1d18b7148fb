"""A decoded file seen only around one offset: what a request sent before the document's tree is
built reads instead of the whole `FileView` (`workspace.document.DocumentState.around`).

    PartialView(around, offset) -> a `FileView` that answers only near `offset`
    PartialResult(view)              a `FileResult` whose `body` is that view (and nothing else)
    NeedsTree                        raised by anything it cannot answer exactly

Contract
--------
* `around(o)` gives the `FileView` of a window of the document (the top-level blocks around `o`,
  decoded from a tree of that window alone: `jsonsyntax.window`) whose `blocks_at(o)`,
  `refs_at(o)` and `locate(text, view, o)` are exactly those of the whole document's view, or
  None when no window is known to be exact at `o`.
* A `PartialView` is made for the request's `offset`: `node`, `start`, `end`, `schema` and
  `attributes` are its window's (the root's own attributes in the window only: a reader that looks
  for the one at `offset`, as `locate` and hover do, finds what the whole view has there).
  `blocks_at(o)` and `refs_at(o)` answer at any `o` for which `around(o)` has a window (the block
  declaring a name elsewhere in the same file). What needs every block (`blocks`, `refs`, `memo`,
  `attribute`, `blocks_of`) raises `NeedsTree`, as does an offset without a window. The caller
  then answers from the whole tree (`features.around`): a partial answer is never returned.
* `locate` at another offset than the view's own would walk the wrong window: `locate` checks
  `holds(offset)` first and raises `NeedsTree` too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any, NoReturn

from .incremental import FileView
from .model import Block

__all__ = ["NeedsTree", "PartialResult", "PartialView"]


class NeedsTree(Exception):
    """The request needs more of the document than the windows around its offsets."""


class PartialView(FileView):
    """A `FileView` that answers only around the offsets it has windows for (see the module doc)."""

    __slots__ = ("_around", "offset")

    def __init__(self, around: Callable[[int], FileView | None], offset: int) -> None:
        primary = around(offset)
        if primary is None:
            raise NeedsTree(offset)
        # (no `FileView.__init__`: every field it would set is the primary window's)
        self.node = primary.node
        self.start = primary.start
        self.end = primary.end
        self.schema = primary.schema
        self.attributes = primary.attributes
        self.text = primary.text
        self._around = around
        self.offset = offset

    def holds(self, offset: int) -> bool:
        """Whether `locate` may walk this view at `offset` (only at the offset it was made for)."""
        return offset == self.offset

    def _window(self, offset: int) -> FileView:
        found = self._around(offset)
        if found is None:
            raise NeedsTree(offset)
        return found

    def blocks_at(self, offset: int) -> tuple[Block, ...]:
        return self._window(offset).blocks_at(offset)

    def refs_at(self, offset: int) -> list[Any]:
        return self._window(offset).refs_at(offset)

    @property
    def blocks(self) -> tuple[Block, ...]:
        raise NeedsTree("blocks")

    def attribute(self, name: str) -> NoReturn:
        raise NeedsTree("attribute")

    def blocks_of(self, type_name: str) -> NoReturn:
        raise NeedsTree("blocks_of")

    def refs(self, uses: Hashable | None = None) -> Iterator[Any]:
        raise NeedsTree("refs")

    def memo(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise NeedsTree("memo")


class PartialResult:
    """Stands for a `FileResult` whose `body` is a `PartialView`: its diagnostics and definitions
    (the whole file's) raise `NeedsTree`."""

    __slots__ = ("body",)

    def __init__(self, body: PartialView) -> None:
        self.body = body

    def __getattr__(self, name: str) -> NoReturn:  # structure, strings, resolved, definitions, ...
        raise NeedsTree(name)
