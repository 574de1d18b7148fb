"""The Terraform analysis of one document state: the one place it is computed.

    terraform_analysis(state) -> (Body, list[Diagnostic])
    structure_diagnostics(state) -> list[Diagnostic]     the diagnostics half (a diagnostics provider)

Contract
--------
* `terraform_analysis` is `terraform.validate.analyze(text, root, path, cache)` on the state's
  current parse, with the schema chosen by the document's path (override files), computed at most
  once per version (`state.cached`). Every feature that needs the decoded body (symbols, hover,
  the structure diagnostics, templates, semantic tokens) goes through it, so a request and the
  diagnostics of the same version share one decode.
* The decode cache is the document's `hcljson.decode.DecodeCache`, kept across versions
  (`state.kept("decode", DecodeCache)`); `DocumentState.apply_changes` tells it about every edit
  (`note_edit`), so after an edit only the top-level blocks the edit touched are decoded again.
* Never raises by contract (parsing and decoding never do); if a bug makes it raise, the kept
  cache is dropped (so a half-updated cache never serves the next version) and the error
  propagates to the caller, which logs it (`diagnostics.collect`, the LSP handler guard).
"""

from __future__ import annotations

from ..diagnostic import Diagnostic
from ..hcljson.decode import DecodeCache
from ..hcljson.model import Body
from ..terraform.validate import analyze
from .state import DocumentState

CACHE_KEY = "terraform"
DECODE_CACHE_KEY = "decode"


def terraform_analysis(state: DocumentState) -> tuple[Body, list[Diagnostic]]:
    """The decoded root body and the structural diagnostics of the state's current version."""
    return state.cached(CACHE_KEY, _analyze)


def structure_diagnostics(state: DocumentState) -> list[Diagnostic]:
    """HCL JSON structure and Terraform rule diagnostics (`structure/...` codes)."""
    return terraform_analysis(state)[1]


def _analyze(state: DocumentState) -> tuple[Body, list[Diagnostic]]:
    cache = state.kept(DECODE_CACHE_KEY, DecodeCache)
    try:
        return analyze(state.text, state.syntax.root, state.path, cache)
    except Exception:
        cache.clear()
        raise
