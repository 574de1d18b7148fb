"""All diagnostics of one document: the one function the language server and `hcljson-ls check` share.

    collect(state) -> list[Diagnostic]

Contract
--------
* `PROVIDERS` is an ordered list of ``(name, provider)``; a provider is a plain function
  ``(DocumentState) -> Iterable[Diagnostic]`` for one layer (syntax today; HCL structure, templates
  and Terraform add theirs by appending one entry here).
* `collect` runs every provider. A provider that raises is logged (with its name and the document)
  and skipped; the others still report. A bug in one layer never hides the diagnostics of another.
* The result is sorted by position (start, then end), stable within a position, so providers keep
  their own order for diagnostics at the same place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from ..diagnostic import Diagnostic
from .state import DocumentState

log = logging.getLogger(__name__)

Provider = Callable[[DocumentState], Iterable[Diagnostic]]


def syntax(state: DocumentState) -> Iterable[Diagnostic]:
    """JSON syntax errors (`syntax/...` codes)."""
    return state.syntax.diagnostics


PROVIDERS: list[tuple[str, Provider]] = [
    ("syntax", syntax),
]


def collect(state: DocumentState, providers: Iterable[tuple[str, Provider]] | None = None) -> list[Diagnostic]:
    """Every diagnostic for `state`, from every provider that does not fail; see the module docstring."""
    out: list[Diagnostic] = []
    for name, provider in PROVIDERS if providers is None else providers:
        try:
            out.extend(provider(state))
        except Exception:
            log.exception("diagnostics provider %r failed on %s (version %s)", name, state.uri, state.version)
    out.sort(key=lambda d: (d.start, d.end))
    return out
