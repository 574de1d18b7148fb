"""Helpers for the feature tests: `$0` cursor markers and decoding a document in one call."""

from __future__ import annotations

from hcljson_ls.jsonsyntax import parse
from hcljson_ls.terraform.analysis import analyze_file

MARK = "$0"


def cursor(src: str) -> tuple[str, int]:
    """Text without its single `$0` marker, and the marker's offset."""
    assert src.count(MARK) == 1, src
    i = src.index(MARK)
    return src[:i] + src[i + len(MARK) :], i


def decoded(text: str, path: str | None = None):
    """(JSON root, decoded root body) of `text`."""
    root = parse(text).root
    body = analyze_file(text, root, path).body.materialize()
    return root, body
