"""Driving a real `DocumentState` as the LSP layer does, for tests that edit a document by offsets.

    edit(state, start, end, new)    replace `[start, end)` of the document by `new` through
                                    `DocumentState.apply_changes` (one LSP change, UTF-32 positions:
                                    code points, so offsets into `state.text` convert exactly),
                                    as the next version
"""

from __future__ import annotations

from hcljson_ls.workspace import DocumentState


def edit(state: DocumentState, start: int, end: int, new: str) -> None:
    pos = state.line_index.position
    change = {"range": {"start": dict(zip(("line", "character"), pos(start, "utf-32"))),
                        "end": dict(zip(("line", "character"), pos(end, "utf-32")))},
              "text": new}
    state.apply_changes([change], "utf-32", state.version + 1)
