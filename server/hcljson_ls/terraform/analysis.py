"""The Terraform analysis of a document: decode, Terraform rules, strings by mode -- the one place
it is computed, incrementally across edits.

    document_analysis(state) -> FileResult      one per document version (kept engine, cached result)
    analyze_file(text, root, path=None) -> FileResult     the same from scratch
    TerraformChecks(override)                   the Terraform layer's part (`hcljson.incremental.FileChecks`)

`FileResult` (`hcljson.incremental`) has `body` (a `FileView` of the decoded root body), `structure`
(decoder and Terraform rule diagnostics, `structure/...`) and `strings` (templates, references and
type constraints: `template/...`, `type/...`, `reference/...`).

Contract
--------
* Per top-level block: `hcljson.decode.decode_top`, then `validate.block_diagnostics` (rules of the
  block and its nested blocks), `templates.check_block` (its strings by schema mode) and
  `validate.definitions` (what it defines); across blocks, `validate.duplicates` (not in override
  files). The engine (`hcljson.incremental.IncrementalFile`) keeps these per block, relative to the
  block's body, so an edit inside one block costs that block, not the file.
* `state` is any object with `text`, `syntax.root` (the current JSON tree, kept with
  `jsonsyntax.reparse`), `path`, `cached(key, compute)` (per version) and `kept(key, factory)`
  (per document, told about every edit through `note_edit`): `features.state.DocumentState`.
  The engine is kept under `ENGINE_KEY`, the result cached under `RESULT_KEY`.
* The schema follows the document's path (override files: `schema.is_override_file`).
* If a bug makes the analysis raise, the kept engine is reset (the next version starts afresh) and
  the error propagates to the caller.
"""

from __future__ import annotations

from typing import Any

from ..diagnostic import Diagnostic
from ..hcljson.incremental import FileChecks, FileResult, IncrementalFile
from ..hcljson.model import Attribute, Block
from ..jsonsyntax.tree import Node
from .schema import is_override_file, schema_for_path
from .templates import check_block, check_root
from .validate import block_diagnostics, definitions, duplicates

__all__ = ["document_analysis", "analyze_file", "TerraformChecks", "ENGINE_KEY", "RESULT_KEY"]

ENGINE_KEY = "terraform.analysis.engine"
RESULT_KEY = "terraform.analysis"


class TerraformChecks(FileChecks):
    """Terraform's rules and string checks per top-level block; duplicates across blocks."""

    __slots__ = ("override",)

    def __init__(self, override: bool = False) -> None:
        self.override = override

    def block(self, text: str, block: Block):
        return self.blocks(text, [block])[0]

    def blocks(self, text: str, blocks):
        # One kind of check over every block, then the next (see `FileChecks.blocks`).
        rules = [block_diagnostics(b, text, self.override) for b in blocks]
        strings = [check_block(text, b) for b in blocks]
        defs = [[] for _ in blocks] if self.override else [definitions(b, text) for b in blocks]
        return list(zip(rules, strings, defs))

    def root(self, text: str, attributes: tuple[Attribute, ...]) -> tuple[list[Diagnostic], list[Diagnostic]]:
        return [], check_root(text, attributes)

    def cross(self, keys, place) -> list[Diagnostic]:
        return [] if self.override else duplicates(keys, place)


def _engine(path: str | None) -> IncrementalFile:
    override = bool(path) and is_override_file(path)  # type: ignore[arg-type]
    return IncrementalFile(schema_for_path(path), TerraformChecks(override))


def analyze_file(text: str, root: Node | None, path: str | None = None) -> FileResult:
    """The analysis of `text` (JSON tree `root`) for a file at `path`, from scratch."""
    return _engine(path).update(text, root)


def document_analysis(state: Any) -> FileResult:
    """The analysis of the state's current version (see the module doc)."""
    return state.cached(RESULT_KEY, _update)


def _update(state: Any) -> FileResult:
    engine = state.kept(ENGINE_KEY, lambda: _engine(state.path))
    try:
        return engine.update(state.document.buffer, state.syntax.root)  # slices, never a whole-text copy
    except Exception:
        engine.reset()  # never serve a half-updated engine to the next version
        raise
