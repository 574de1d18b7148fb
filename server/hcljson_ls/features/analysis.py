"""The Terraform analysis of one document state, as the features see it.

    terraform_analysis(state) -> (FileView, list[Diagnostic])   the decoded root body, structure diagnostics
    structure_diagnostics(state) -> list[Diagnostic]            a diagnostics provider (`structure/...`)
    string_diagnostics(state) -> list[Diagnostic]               a diagnostics provider (templates, ...)

Contract
--------
* All three read `analyze(state)`, which is `terraform.analysis.document_analysis(state)`: one analysis per version, computed
  incrementally from the previous one (an edit inside one top-level block costs that block; see
  `hcljson.incremental`). Every feature that needs the decoded body (symbols, hover, semantic
  tokens) and every diagnostics provider share it.
* The body is a `hcljson.incremental.FileView`: it answers like a `hcljson.model.Body`, builds
  absolute positions on demand, and is valid for its version only.
* Never raises by contract; if a bug makes the analysis raise, the kept engine is reset and the
  error propagates to the caller, which logs it (`diagnostics.collect`, the LSP handler guard).
"""

from __future__ import annotations

from ..diagnostic import Diagnostic
from ..hcljson.incremental import FileResult, FileView
from ..terraform.analysis import document_analysis
from .state import DocumentState

CACHE_KEY = "features.terraform"


def analyze(state: DocumentState) -> FileResult:
    """The state's one Terraform analysis (`terraform.analysis.document_analysis`); everything in
    this module goes through here."""
    return document_analysis(state)


def terraform_analysis(state: DocumentState) -> tuple[FileView, list[Diagnostic]]:
    """The decoded root body and the structural diagnostics of the state's current version."""
    return state.cached(CACHE_KEY, _pair)


def _pair(state: DocumentState) -> tuple[FileView, list[Diagnostic]]:
    result = analyze(state)
    return result.body, result.structure


def structure_diagnostics(state: DocumentState) -> list[Diagnostic]:
    """HCL JSON structure and Terraform rule diagnostics (`structure/...` codes)."""
    return analyze(state).structure


def string_diagnostics(state: DocumentState) -> list[Diagnostic]:
    """Templates, references and type constraints in strings (`template/`, `type/`, `reference/`)."""
    return analyze(state).strings
