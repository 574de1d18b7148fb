"""All diagnostics of one document: the one function the language server and `hcljson-ls check` share.

    collect(state) -> list[Diagnostic]
    at(state, offset) -> list[Diagnostic]          the diagnostics under a cursor (for hover)
    markdown(diagnostics) -> str                   how hover shows them
    annotate_hover(hover, diagnostics) -> Hover    a hover with the diagnostics under the cursor first

Contract
--------
* `PROVIDERS` is an ordered list of ``(name, provider)``; a provider is a plain function
  ``(DocumentState) -> Iterable[Diagnostic]`` for one layer: "syntax" (JSON), "structure" (HCL JSON
  structure and Terraform rules, `features.analysis`) and "templates" (strings read by their schema
  mode: `terraform.templates`, on the same analysis).
* `collect` runs every provider. A provider that raises is logged (with its name and the document)
  and skipped; the others still report. A bug in one layer never hides the diagnostics of another.
  The result is computed once per version (for the same provider list); each call gets its own list.
* The result is sorted by position (start, then end), stable within a position, so providers keep
  their own order for diagnostics at the same place.
* `at(state, offset)` is the diagnostics of `collect(state)` whose range holds the character at
  `offset` (``start <= offset < end``; an empty range only at its own offset), in that order.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from ..diagnostic import Diagnostic
from ..jsonsyntax import no_gc
from .analysis import string_diagnostics, structure_diagnostics
from .hover import Hover
from .state import DocumentState

log = logging.getLogger(__name__)

Provider = Callable[[DocumentState], Iterable[Diagnostic]]


def syntax(state: DocumentState) -> Iterable[Diagnostic]:
    """JSON syntax errors (`syntax/...` codes)."""
    return state.syntax.diagnostics


def templates(state: DocumentState) -> Iterable[Diagnostic]:
    """Templates, references and type constraints in strings (`template/`, `type/`, `reference/`)."""
    return string_diagnostics(state)


PROVIDERS: list[tuple[str, Provider]] = [
    ("syntax", syntax),
    ("structure", structure_diagnostics),
    ("templates", templates),
]


_COLLECTED = "features.diagnostics.collect"


def collect(state: DocumentState, providers: Iterable[tuple[str, Provider]] | None = None) -> list[Diagnostic]:
    """Every diagnostic for `state`, from every provider that does not fail; see the module docstring."""
    if providers is None:
        chosen = PROVIDERS
        cached = state.cached(_COLLECTED, lambda s: [None, None])
        if cached[0] is chosen:
            return list(cached[1])
    out: list[Diagnostic] = []
    with no_gc():  # the first analysis of a large document allocates much over a large live tree
        for name, provider in PROVIDERS if providers is None else providers:
            try:
                out.extend(provider(state))
            except Exception:
                log.exception("diagnostics provider %r failed on %s (version %s)", name, state.uri, state.version)
    out.sort(key=lambda d: (d.start, d.end))
    if providers is None:
        cached[0], cached[1] = chosen, out
        return list(out)
    return out


def at(state: DocumentState, offset: int) -> list[Diagnostic]:
    """The diagnostics whose range holds the character at `offset` (see the module docstring)."""
    return [d for d in collect(state) if d.start <= offset < d.end or d.start == d.end == offset]


_SEVERITY_TITLES = {"error": "Error", "warning": "Warning", "information": "Info", "hint": "Hint"}


def markdown(diagnostics: Iterable[Diagnostic]) -> str:
    """Markdown for hover: per diagnostic its severity, code, summary and detail."""
    parts = []
    for d in diagnostics:
        title = _SEVERITY_TITLES.get(d.severity, d.severity.capitalize())
        code = f" `{d.code}`" if d.code else ""
        part = f"**{title}**{code}: {d.summary}"
        if d.detail:
            part += f"\n\n{d.detail}"
        parts.append(part)
    return "\n\n---\n\n".join(parts)



def annotate_hover(found: Hover | None, problems: Sequence[Diagnostic]) -> Hover | None:
    """`found` with the `problems` under the cursor shown first (what is wrong here comes first).

    The range stays `found`'s; without `found` it is the smallest range among the problems."""
    if not problems:
        return found
    text = markdown(problems)
    if found is None:
        smallest = min(problems, key=lambda d: d.end - d.start)
        return Hover(text, smallest.start, smallest.end)
    return Hover(f"{text}\n\n---\n\n{found.markdown}", found.start, found.end)
