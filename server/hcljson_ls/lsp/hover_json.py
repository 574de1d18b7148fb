"""The answer to `textDocument/hover` in its JSON shape, without lsprotocol.

    hover_json(store, uri, line, character, encoding) -> dict | None

Contract
--------
The server answers hovers with it (`lsp.server.hover`, wrapped in `convert.Json`), and
`lsp.first_open` answers with it the hovers of its document before pygls and lsprotocol are
imported: one answer either way. It is lsprotocol's `Hover` as it is written: ``contents`` a
markdown `MarkupContent`, ``range`` the hovered part's (`diagnostic_json.range_json`); None when
`uri` is not an open document of ours or there is nothing to say. The position is clamped into the
text (`LineIndex.offset`), in the session's position encoding. Before the document's tree is built,
the answer comes from the top-level blocks around the offset (`features.around`): the same answer.
"""

from __future__ import annotations

from ..features import around
from ..features import hover as hover_feature
from ..workspace import Workspace
from .diagnostic_json import range_json

__all__ = ["hover_json"]


def hover_json(store: Workspace, uri: str, line: int, character: int, encoding: str) -> dict | None:
    state = store.get(uri)
    if state is None:
        return None
    index = state.line_index
    found = around.answer(hover_feature.hover, store.snapshot(), uri, index.offset((line, character), encoding))
    if found is None:
        return None
    return {"contents": {"kind": "markdown", "value": found.markdown},
            "range": range_json(index, found.start, found.end, encoding)}
