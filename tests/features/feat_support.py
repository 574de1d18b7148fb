"""Helpers for the feature tests: decoding a document in one call, and applying edits as a client does.
(Fixture markers, such as the `$0` cursor, are read by tests/fixture.py.) bench/ imports `apply_edits` too."""

from __future__ import annotations

from internals import materialize

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file


def decoded(text: str, path: str | None = None):
    """(JSON root, decoded root body) of `text`."""
    root = parse(text).root
    body = materialize(analyze_file(text, root, path).body)
    return root, body


def apply_edits(text: str, edits) -> str:
    """`text` with disjoint edits applied, as a client applies them: each edit is a formatting tuple
    `(start, end, new_text)` or a `TextEdit` (`.start`, `.end`, `.new_text`), in any order."""
    spans = sorted(((e.start, e.end, e.new_text) if hasattr(e, "new_text") else tuple(e) for e in edits), key=lambda s: s[0])
    out: list[str] = []
    pos = 0
    for start, end, new in spans:
        assert pos <= start <= end, f"overlapping edits at {start}"
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)
