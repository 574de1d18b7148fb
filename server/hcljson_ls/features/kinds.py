"""Which implementation answers a request on a document, by the kind of its file: the one place
where a feature entry point learns that a document is not a configuration file.

    answer(request, snapshot, uri, *args) -> the answer, or CONFIGURATION

Contract
--------
* The kind is `terraform.catalogue.file_kind` of the document's name (any case). Each kind that is
  not a configuration file has a row in `_SERVED` (`Served`): its own function per request.
* `alone` kinds (variable definitions files, `features.tfvars`) are answered by their own functions
  only: a request without one answers nothing (None), and the configuration's never sees the file.
  Other kinds (test files, `features.testfile`) answer first; a request without a function, or a
  function answering None, is left to the configuration's implementation (`CONFIGURATION`).
* Mock data and query files, and configuration files, have no row: the configuration's
  implementation answers every request (on their own schemas: `terraform.analysis` decodes each
  kind with its own).
* `diagnostics` are the findings that read other files than the document (never cached per
  version, `diagnostics.collect`): a variables file's values against the module's variables, a
  test file's references against the module under test; for the other kinds, where sensitive and
  ephemeral values flow (`features.flow`) and the unused declarations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..diagnostic import Diagnostic
from ..terraform.definition import catalogue
from ..workspace import Snapshot
from ..workspace.files import file_name
from . import testfile, tfvars

#: What `answer` returns when the configuration's implementation answers the request.
CONFIGURATION: Any = object()


def _nothing(*_args: Any) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Served:
    """The functions of one kind of file, `(snapshot, uri, *args)` each, as the request's entry
    point takes them (`hover.hover`, `navigation.definition`, `completion.complete`,
    `symbols.document_symbols`, `semantic_tokens.semantic_tokens`, `signature_help.signature_help`,
    `diagnostics.collect`)."""

    alone: bool
    diagnostics: Callable[[Snapshot, str], list[Diagnostic]] | None = None
    hover: Callable[..., Any] | None = None
    definition: Callable[..., Any] | None = None
    completion: Callable[..., Any] | None = None
    symbols: Callable[..., Any] | None = None
    semantic_tokens: Callable[..., Any] | None = None
    signature_help: Callable[..., Any] | None = None


_SERVED = {
    catalogue.TFVARS_JSON: Served(
        alone=True,
        diagnostics=tfvars.diagnostics,
        hover=tfvars.hover,
        definition=tfvars.definition,
        completion=tfvars.completions,
        symbols=tfvars.symbols,
        semantic_tokens=tfvars.semantic_tokens,
        signature_help=_nothing,  # its strings are literal: never a call
    ),
    catalogue.TEST_JSON: Served(
        alone=False,
        diagnostics=testfile.diagnostics,
        hover=testfile.hover,  # the module under test's declarations, else the configuration's hover
        definition=testfile.definition,
    ),
}


def _served(uri: str) -> Served | None:
    return _SERVED.get(catalogue.file_kind(file_name(uri), ignore_case=True))  # type: ignore[arg-type]


def answer(request: str, snapshot: Snapshot, uri: str, *args: Any) -> Any:
    """The answer of the implementation of `uri`'s kind to `request` (a `Served` field name), or
    `CONFIGURATION` when the configuration's implementation answers (see the module doc)."""
    served = _served(uri)
    if served is None:
        return CONFIGURATION
    function = getattr(served, request)
    if function is None:
        return None if served.alone else CONFIGURATION
    result = function(snapshot, uri, *args)
    return result if result is not None or served.alone else CONFIGURATION

