"""CDK for Terraform output, navigable: the construct behind a block of `cdk.tf.json` for hover, go to
definition, document symbols and workspace symbols (the entry points in `hover`, `navigation` and
`symbols` call these).

    construct_at(snapshot, uri, offset) -> (Block, ConstructMetadata) | None
    construct_hover(snapshot, uri, offset, below) -> (markdown, start, end) | None
    construct_definition(snapshot, uri, offset) -> (uri, start, end) | None
    group_by_construct(body, symbols) -> symbols
    construct_paths(snapshot) -> (uri -> {declaration key: construct path})

Contract
--------
* A construct is found on the name key of a top-level block (its last label: the resource's,
  data source's or module call's name, which CDKTF sets to the unique id) whose body carries
  CDKTF's metadata (`terraform.cdktf.metadata_of`); `start <= offset < end`, quotes included.
* Hover: the construct path and unique id, above `below` (what hover shows for that key without
  them), separated by a rule.
* Definition: the construct's source (`workspace.cdktf.construct_source`: the first user frame of
  the stack trace, found under the folder holding `cdktf.json`, mapped back to TypeScript through
  the script's source map); the range is `new X` (or the name) at that position, empty when
  there is none. None when any step finds nothing (the caller then answers as for any name).
* Grouping (setting `symbols.groupByConstructPath`): the top-level symbols of blocks with metadata
  are nested under one `Namespace` symbol per construct between the stack and the block's own id
  (`dev/Logs/Bucket` goes under `Logs`), groups in order of first appearance, each block's symbol
  with its construct path as `detail`. Blocks without metadata, and constructs directly under the
  stack, stay at the top. A group's range spans its members (so groups of interleaved blocks
  overlap); its selection range is its first member's.
* Workspace symbols: `construct_paths` gives the construct path of each declaration of files named
  `cdk.tf.json` (other files are not decoded for it), read once per file and request.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from ..hcljson.incremental import FileView
from ..hcljson.model import Block, Body
from ..terraform.filekinds.cdktf import ConstructMetadata, metadata_of
from ..terraform.rules.validate import definitions
from ..text import LineIndex
from ..workspace import Snapshot
from ..workspace.cdktf import construct_source
from ..workspace.files import file_name, path_of_uri, uri_of_path

#: The file name CDKTF gives its output.
OUTPUT_FILE = "cdk.tf.json"
GROUP_KIND = "Namespace"


def construct_at(snapshot: Snapshot, uri: str, offset: int) -> tuple[Block, ConstructMetadata] | None:
    """The top-level block whose name key holds `offset`, with its construct metadata, or None."""
    state = snapshot.document(uri)
    if state is None:
        return None
    for block in state.analysis.body.blocks_at(offset):
        start, end = block.header_range
        if block.labels and start <= offset < end:
            found = metadata_of(state.text, block.body)
            if found is not None:
                return block, found
    return None


def construct_hover(snapshot: Snapshot, uri: str, offset: int, below: str | None) -> tuple[str, int, int] | None:
    """Markdown naming the construct at `offset`, above `below`; with the name key's range."""
    found = construct_at(snapshot, uri, offset)
    if found is None:
        return None
    block, metadata = found
    parts = [f"**CDKTF construct** `{metadata.path}`"]
    if metadata.unique_id:
        parts.append(f"unique id: `{metadata.unique_id}`")
    if below:
        parts.append(f"---\n\n{below}")
    return ("\n\n".join(parts), *block.header_range)


_CREATION = re.compile(r"(?:new\s+)?[\w$]+(?:\.[\w$]+)*")


def construct_definition(snapshot: Snapshot, uri: str, offset: int) -> tuple[str, int, int] | None:
    """(uri, start, end) of the source that created the construct at `offset`, or None."""
    found = construct_at(snapshot, uri, offset)
    path = path_of_uri(uri) if uri.startswith("file:") else None
    if found is None or path is None:
        return None
    location = construct_source(path, found[1].stack_trace)
    if location is None:
        return None
    start = LineIndex(location.text).offset((location.line, location.column))
    word = _CREATION.match(location.text, start)
    return uri_of_path(location.path), start, word.end() if word is not None else start


# ---- document symbols -------------------------------------------------------------------------------

_MEMO_KEY = "features.cdktf.metadata"

S = TypeVar("S")


def top_level_metadata(body: Body | FileView, text: str) -> list[ConstructMetadata | None]:
    """The construct metadata of each top-level block of `body`, in source order."""
    if isinstance(body, FileView):
        return [item for _, (item,) in body.memo(_MEMO_KEY, lambda b: [metadata_of(text, b.body)], _same)]
    return [metadata_of(text, b.body) for b in body.blocks]


def _same(item: Any, delta: int) -> Any:
    return item  # metadata holds no positions


def group_by_construct(body: Body | FileView, text: str, symbols: tuple[S, ...]) -> tuple[S, ...]:
    """`symbols` (one `DocumentSymbol` per top-level block of `body`) grouped by construct path."""
    top: list = []  # symbols and group keys (construct path prefixes), in order
    members: dict[tuple[str, ...], list] = {}
    for symbol, metadata in zip(symbols, top_level_metadata(body, text)):
        where = top
        if metadata is not None:
            symbol = replace(symbol, detail=metadata.path)  # type: ignore[type-var]
            segments = tuple(metadata.path.split("/"))
            for n in range(2, len(segments)):  # below the stack, above the block's own id
                prefix = segments[:n]
                if prefix not in members:
                    members[prefix] = []
                    where.append(prefix)
                where = members[prefix]
        where.append(symbol)
    groups: dict[tuple[str, ...], Any] = {}
    for prefix in sorted(members, key=len, reverse=True):  # the innermost first: no recursion
        kids = tuple(groups[m] if isinstance(m, tuple) else m for m in members[prefix])
        first = kids[0]
        groups[prefix] = replace(
            first, name=prefix[-1], kind=GROUP_KIND, detail="/".join(prefix), children=kids,
            start=min(k.start for k in kids), end=max(k.end for k in kids),
        )
    return tuple(groups[m] if isinstance(m, tuple) else m for m in top)


# ---- workspace symbols ------------------------------------------------------------------------------


def construct_paths(snapshot: Snapshot) -> Callable[[str], dict[tuple, str]]:
    """A lookup, for one request: uri -> {declaration key: construct path} of a `cdk.tf.json` file."""
    seen: dict[str, dict[tuple, str]] = {}

    def paths(uri: str) -> dict[tuple, str]:
        if uri not in seen:
            seen[uri] = _paths_of(snapshot, uri) if file_name(uri) == OUTPUT_FILE else {}
        return seen[uri]

    return paths


def _paths_of(snapshot: Snapshot, uri: str) -> dict[tuple, str]:
    view = snapshot.view_of(uri)
    if view is None:
        return {}
    text, body = view
    out: dict[tuple, str] = {}
    for block, metadata in zip(body.blocks, top_level_metadata(body, text)):
        if metadata is not None:
            for key, _, _ in definitions(block, text):
                out.setdefault(key, metadata.path)
    return out
