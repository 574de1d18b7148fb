"""Helpers for the feature tests: decoding a document in one call. (Fixture markers, such as the
`$0` cursor, are read by tests/fixture.py.)"""

from __future__ import annotations

from internals import materialize

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file


def decoded(text: str, path: str | None = None):
    """(JSON root, decoded root body) of `text`."""
    root = parse(text).root
    body = materialize(analyze_file(text, root, path).body)
    return root, body
