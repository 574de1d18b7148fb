"""Requests answered from the blocks around their offset, before a quick-opened document's tree
is built (issue 21 §2): a hover, a completion, a definition or a signature help sent right after
an open costs what the block costs, not the whole document's tree.

    answer(feature, snapshot, uri, offset, *args)     feature(snapshot, uri, offset, *args), early

Contract
--------
* `feature` is a plain feature function `(Snapshot, uri, offset, ...)`. It runs first on
  `snapshot.around(uri, offset)` (`workspace.Snapshot.around`: the document seen around `offset`
  alone, when its tree is not built); when that is None, or the feature needs more of the
  document than those blocks (`hcljson.window.NeedsTree`: every block, a place without a window,
  the syntax tree, the file's diagnostics), it runs on `snapshot`, which builds the tree (what is
  left of a build in progress); so does any other exception of the early path (a bug: logged).
  The answer is the same either way: a window answers exactly what
  the whole document answers at the offsets it serves, or refuses (tests/features/test_around.py).
* For requests whose answer depends only on the place and the module's declarations (hover,
  completion, definition, signature help); references, rename, highlights and whole-document
  requests read every block and take the full path.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from ..hcljson.window import NeedsTree
from ..workspace import Snapshot

log = logging.getLogger(__name__)

T = TypeVar("T")


def answer(feature: Callable[..., T], snapshot: Snapshot, uri: str, offset: int, *args: Any) -> T:
    """See the module doc."""
    try:
        local = snapshot.around(uri, offset)
        if local is not None:
            return feature(local, uri, offset, *args)
    except NeedsTree:
        pass
    except Exception:  # a bug of the early path: logged, and the whole tree answers
        log.exception("answering %s around %d of %s failed; answering from the whole tree", feature.__name__, offset, uri)
    return feature(snapshot, uri, offset, *args)
