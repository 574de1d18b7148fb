"""Lossless, error-recovering JSON syntax layer (knows nothing of HCL).

    parse(text) -> ParseResult(root, diagnostics)      never raises
    strings.decode(text, abs_start, node) -> Decoded   decoded value + decoded-index -> source-offset map
    reparse.reparse(old, old_text, new_text, edit)     incremental; identical to parse(new_text)
    no_gc()                                            context manager: pause the cyclic GC while building
                                                       large acyclic structures (trees, decoded bodies)

See `tree` for the node types and the relative-offset contract.
"""

from .parser import ParseResult, no_gc, parse

__all__ = ["ParseResult", "no_gc", "parse"]
