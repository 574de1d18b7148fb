"""Lossless, error-recovering JSON syntax layer (knows nothing of HCL).

    parse(text) -> ParseResult(root, diagnostics)      never raises
    parser.parse_steps(text)                           the same as a generator of short steps
    strings.decode(text, abs_start, node) -> Decoded   decoded value + decoded-index -> source-offset map
    reparse.reparse(old, new_text, edit)     incremental; identical to parse(new_text)

See `tree` for the node types and the relative-offset contract. The layer never touches the garbage
collector: callers that build large trees pause it at the edge (`hcljson_ls.gcpolicy`).
"""

from .parser import ParseResult, parse

__all__ = ["ParseResult", "parse"]
