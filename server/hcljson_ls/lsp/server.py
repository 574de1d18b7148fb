"""The language server: pygls wiring only. Each LSP method is one small handler that calls one
function of `features/` (through `HcljsonServer` helpers for the shared plumbing).

    create_server() -> HcljsonServer      a fresh server with every handler registered

Adding a feature
----------------
Write the logic as a plain function in `features/` (``(DocumentState, offset, ...) -> dataclasses``),
a converter in `lsp/convert.py` if it returns new kinds of data, and one handler here::

    @feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: HcljsonServer, params: types.HoverParams):
        state, offset = ls.locate(params.text_document.uri, params.position)
        if state is None:
            return None
        return convert.to_hover(features.hover.hover(state, offset), state.line_index, ls.position_encoding)

Every handler runs under a guard: an exception is logged with the method and document, and the
request is answered with the handler's `fallback` (``None`` unless given), so one bad document or
one bug never stops the server.

Diagnostics
-----------
Advertised for pull (`textDocument/diagnostic`). They are also pushed (`publishDiagnostics`, with
the document version, debounced by ``hcljson.diagnostics.debounceMs``) to clients that cannot pull;
clients that pull (VS Code's languageclient, Neovim >= 0.10, Helix) would otherwise show every
problem twice, since they keep pushed and pulled diagnostics in separate collections. The
``hcljson.diagnostics.push`` setting ("auto", "always", "never") overrides that choice. Closing a
document publishes an empty list for it.

Requests
--------
documentSymbol (hierarchical, or flat `SymbolInformation` for clients without hierarchy support),
foldingRange (honouring `lineFoldingOnly` and `rangeLimit`), selectionRange, hover (what a key is,
with the diagnostics under the cursor shown first, so hovering an error explains it), and
semanticTokens full / range (legend from `features.semantic_tokens.legend()`). pygls advertises
exactly the methods registered here. Features that need the decoded Terraform body share one
analysis per document version (`features.analysis.terraform_analysis`) with the diagnostics.

Memory and the cyclic GC
------------------------
A 5 MB document's tree and decoded body are ~0.75M tracked Python objects that live as long as the
document. With CPython's default thresholds (700, 10, 10) every allocation-heavy request (document
symbols builds ~120K symbols, then lsprotocol objects, then JSON) runs many young collections and
some full ones that rescan that whole heap. `create_server` raises the thresholds to
`GC_THRESHOLDS` (never lowers them). Measured in-process on `bench/cdktf_doc.make(5_000_000)`
(2 cores; median of 5, max in brackets):

| request                          | defaults         | (50000, 20, 100) | gc.freeze() after parse | GC off (floor) |
|----------------------------------|------------------|------------------|-------------------------|----------------|
| documentSymbol                   | 2.81 s (3.12)    | 1.44 s (1.50)    | 2.07 s (2.10)           | 1.21 s         |
| foldingRange                     | 0.55 s (0.90)    | 0.53 s (0.54)    | 0.55 s (0.56)           | 0.52 s         |
| edit + diagnostics + hover       | 0.22 s (0.74)    | 0.17 s (0.18)    | 0.22 s (0.29)           | 0.17 s         |
| hover alone                      | 2 ms             | 2 ms             | 2 ms                    | 2 ms           |

`gc.freeze()` after each full parse helped less (frozen objects leave the old generation, so full
collections come more often, each cheap) and would keep any cyclic garbage alive at freeze time
forever; freeze plus the thresholds measured the same as the thresholds alone. Disabling the GC
around each handler did not help either (pygls serializes the result after the handler returns).
Trees and bodies hold no reference cycles, so reference counting frees replaced versions at once;
the thresholds only delay collecting the (rare, small) cyclic garbage of pygls and asyncio.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
from collections.abc import Callable
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..features import diagnostics as diagnostics_feature
from ..features import folding as folding_feature
from ..features import hover as hover_feature
from ..features import selection as selection_feature
from ..features import semantic_tokens as semantic_feature
from ..features import symbols as symbols_feature
from ..features.analysis import terraform_analysis
from ..features.state import DocumentState
from ..text.encodings import UTF16
from . import convert
from .config import DEFAULT, SECTION, Settings, settings_from
from .documents import DocumentStore
from .protocol import HcljsonProtocol
from .publish import Publisher

log = logging.getLogger(__name__)

NAME = "hcljson-ls"


class HcljsonServer(LanguageServer):
    """pygls server plus our document store, settings and diagnostics publisher."""

    def __init__(self) -> None:
        super().__init__(
            NAME,
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=HcljsonProtocol,
        )
        self.position_encoding: str = UTF16
        self.documents = DocumentStore()
        self.settings: Settings = DEFAULT
        self._settings_revision = itertools.count(1)
        self.settings_revision = next(self._settings_revision)
        self.publisher = Publisher(self.compute_diagnostics, self._send_diagnostics)

    # -- documents ------------------------------------------------------------------------------

    def locate(self, uri: str, position: types.Position) -> tuple[DocumentState | None, int]:
        """The open document `uri` and the offset of `position` in it (clamped)."""
        state = self.documents.get(uri)
        if state is None:
            return None, 0
        return state, state.line_index.offset((position.line, position.character), self.position_encoding)

    def text_document_capability(self, *path: str) -> Any:
        """The client's ``textDocument.<path...>`` capability, or None when it did not send it."""
        value: Any = self.client_capabilities.text_document
        for name in path:
            value = getattr(value, name, None)
        return value

    # -- diagnostics ----------------------------------------------------------------------------

    @property
    def client_pulls_diagnostics(self) -> bool:
        try:
            return self.client_capabilities.text_document.diagnostic is not None  # type: ignore[union-attr]
        except AttributeError:
            return False

    @property
    def pushes_diagnostics(self) -> bool:
        mode = self.settings.diagnostics.push
        return mode == "always" or (mode == "auto" and not self.client_pulls_diagnostics)

    def diagnostics_changed(self, uri: str, *, immediately: bool = False) -> None:
        """The document's diagnostics may have changed: push them (debounced) if we push."""
        if self.pushes_diagnostics:
            delay = 0.0 if immediately else self.settings.diagnostics.debounce_ms / 1000
            self.publisher.schedule(uri, delay)

    def compute_diagnostics(self, uri: str) -> tuple[int | None, list[types.Diagnostic]] | None:
        """``(version, LSP diagnostics)`` of the open document `uri`, or None when it is not open."""
        state = self.documents.get(uri)
        if state is None:
            return None
        if not self.settings.diagnostics.enable:
            return state.version, []
        index, encoding, docs_url = state.line_index, self.position_encoding, self.settings.diagnostics.docs_url
        return state.version, [
            convert.to_diagnostic(d, index, encoding, uri, docs_url) for d in diagnostics_feature.collect(state)
        ]

    def diagnostics_at(self, state: DocumentState, offset: int) -> list:
        """The diagnostics under `offset`, as shown to the user (none when they are turned off)."""
        if not self.settings.diagnostics.enable:
            return []
        return diagnostics_feature.at(state, offset)

    def diagnostic_report(self, uri: str, previous_result_id: str | None) -> types.DocumentDiagnosticReport:
        revision = self.documents.revision(uri)
        if revision is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        result_id = f"{revision}.{self.settings_revision}"
        if previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        computed = self.compute_diagnostics(uri)
        items = computed[1] if computed is not None else []
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)

    def _send_diagnostics(self, uri: str, version: int | None, diagnostics: list[types.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=list(diagnostics), version=version)
        )

    # -- settings -------------------------------------------------------------------------------

    def apply_settings(self, raw: Any, origin: str) -> None:
        settings, problems = settings_from(raw, self.settings)
        if problems:
            message = f"{NAME}: ignoring invalid settings ({origin}): " + "; ".join(problems)
            log.warning("%s", message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        if settings == self.settings:
            return
        log.info("settings (%s): %s", origin, settings)
        was_pushing = self.pushes_diagnostics
        self.settings = settings
        self.settings_revision = next(self._settings_revision)
        if self.pushes_diagnostics or was_pushing:
            for uri in self.documents.uris():
                if self.pushes_diagnostics:
                    self.publisher.publish(uri)
                else:
                    self.publisher.clear(uri)
        if len(self.documents) and self.client_pulls_diagnostics and self._client_refreshes_diagnostics():
            self.workspace_diagnostic_refresh(None)

    async def fetch_settings(self) -> None:
        """Ask the client for our section (`workspace/configuration`) when it can answer."""
        workspace = self.client_capabilities.workspace
        if workspace is None or not workspace.configuration:
            return
        items = [types.ConfigurationItem(section=SECTION)]
        result = await self.workspace_configuration_async(types.ConfigurationParams(items=items))
        if result:
            self.apply_settings(result[0], "workspace/configuration")

    def _client_refreshes_diagnostics(self) -> bool:
        workspace = self.client_capabilities.workspace
        return bool(workspace and workspace.diagnostics and workspace.diagnostics.refresh_support)

    # -- errors ---------------------------------------------------------------------------------

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls would pop up a message in the editor for every failed notification; the log has it.
        log.error("%s: %s", getattr(source, "__name__", source), error)


# ---------------------------------------------------------------------------------------------
# Handlers: one small function per LSP method.

_Handler = Callable[..., Any]
_FEATURES: list[tuple[str, Any, _Handler, Callable[[Any], Any]]] = []


def feature(method: str, options: Any = None, fallback: Callable[[Any], Any] = lambda params: None):
    """Register `fn(ls, params)` for `method` on every server `create_server` makes."""

    def register(fn: _Handler) -> _Handler:
        _FEATURES.append((method, options, fn, fallback))
        return fn

    return register


def _uri_of(params: Any) -> str:
    document = getattr(params, "text_document", None)
    return getattr(document, "uri", "") or ""


def _guarded(server: HcljsonServer, method: str, fn: _Handler, fallback: Callable[[Any], Any]) -> _Handler:
    # No functools.wraps: pygls inspects the signature (following __wrapped__) to decide whether to
    # pass the server as the first argument, and these closures take only `params`.
    if asyncio.iscoroutinefunction(fn):

        async def run_async(params: Any) -> Any:
            try:
                return await fn(server, params)
            except Exception:
                log.exception("%s failed (%s)", method, _uri_of(params))
                return fallback(params)

        run_async.__name__ = fn.__name__
        return run_async

    def run(params: Any) -> Any:
        try:
            return fn(server, params)
        except Exception:
            log.exception("%s failed (%s)", method, _uri_of(params))
            return fallback(params)

    run.__name__ = fn.__name__
    return run


@feature(types.INITIALIZE)
def initialize(ls: HcljsonServer, params: types.InitializeParams) -> None:
    ls.apply_settings(params.initialization_options, "initializationOptions")


@feature(types.INITIALIZED)
async def initialized(ls: HcljsonServer, params: types.InitializedParams) -> None:
    await ls.fetch_settings()


@feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: HcljsonServer, params: types.DidChangeConfigurationParams) -> None:
    if params.settings:
        ls.apply_settings(params.settings, "workspace/didChangeConfiguration")
    else:  # the "pull" style: the notification only says that something changed
        await ls.fetch_settings()


@feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: HcljsonServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    if ls.documents.open(doc.uri, doc.text, doc.version, doc.language_id) is not None:
        ls.diagnostics_changed(doc.uri, immediately=True)


@feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: HcljsonServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = params.text_document
    if ls.documents.change(doc.uri, doc.version, params.content_changes, ls.position_encoding) is not None:
        ls.diagnostics_changed(doc.uri)


@feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
def did_save(ls: HcljsonServer, params: types.DidSaveTextDocumentParams) -> None:
    if ls.documents.get(params.text_document.uri) is not None:
        ls.diagnostics_changed(params.text_document.uri, immediately=True)


@feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: HcljsonServer, params: types.DidCloseTextDocumentParams) -> None:
    if ls.documents.close(params.text_document.uri):
        ls.publisher.clear(params.text_document.uri)


@feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(identifier=NAME, inter_file_dependencies=False, workspace_diagnostics=False),
    fallback=lambda params: types.RelatedFullDocumentDiagnosticReport(items=[]),
)
def document_diagnostic(ls: HcljsonServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    return ls.diagnostic_report(params.text_document.uri, params.previous_result_id)


@feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: HcljsonServer, params: types.DocumentSymbolParams):
    state = ls.documents.get(params.text_document.uri)
    if state is None:
        return None
    body, _ = terraform_analysis(state)
    symbols = symbols_feature.document_symbols(body, state.text)
    if ls.text_document_capability("document_symbol", "hierarchical_document_symbol_support"):
        return convert.to_document_symbols(symbols, state.line_index, ls.position_encoding)
    return convert.to_symbol_information(symbols, state.line_index, ls.position_encoding, state.uri)


@feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
def folding_range(ls: HcljsonServer, params: types.FoldingRangeParams):
    state = ls.documents.get(params.text_document.uri)
    if state is None:
        return None
    ranges = folding_feature.folding_ranges(state.syntax.root, state.text)
    return convert.to_folding_ranges(
        ranges,
        state.line_index,
        ls.position_encoding,
        line_folding_only=bool(ls.text_document_capability("folding_range", "line_folding_only")),
        range_limit=ls.text_document_capability("folding_range", "range_limit"),
    )


@feature(types.TEXT_DOCUMENT_SELECTION_RANGE)
def selection_range(ls: HcljsonServer, params: types.SelectionRangeParams):
    state = ls.documents.get(params.text_document.uri)
    if state is None:
        return None
    index, encoding = state.line_index, ls.position_encoding
    offsets = [index.offset((p.line, p.character), encoding) for p in params.positions]
    found = selection_feature.selection_ranges(state.syntax.root, state.text, offsets)
    # One result per position, as LSP requires; an empty document selects the empty range.
    return [
        convert.to_selection_range(r, index, encoding) if r is not None else convert.empty_selection(p)
        for r, p in zip(found, params.positions)
    ]


@feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: HcljsonServer, params: types.HoverParams):
    state, offset = ls.locate(params.text_document.uri, params.position)
    if state is None:
        return None
    body, _ = terraform_analysis(state)
    found = hover_feature.hover(body, state.text, offset)
    found = diagnostics_feature.annotate_hover(found, ls.diagnostics_at(state, offset))
    return convert.to_hover(found, state.line_index, ls.position_encoding)


_TOKEN_TYPES, _TOKEN_MODIFIERS = semantic_feature.legend()
# pygls advertises `semanticTokensProvider` with this legend and `full` / `range` for the handlers below.
SEMANTIC_LEGEND = types.SemanticTokensLegend(token_types=_TOKEN_TYPES, token_modifiers=_TOKEN_MODIFIERS)


def _semantic_tokens(ls: HcljsonServer, uri: str, span: types.Range | None):
    """`SemanticTokens` as JSON (`convert.to_semantic_tokens`), or None for an unknown document."""
    state = ls.documents.get(uri)
    if state is None:
        return None
    index, encoding = state.line_index, ls.position_encoding
    if span is None:
        tokens = semantic_feature.semantic_tokens(state)
    else:
        start = index.offset((span.start.line, span.start.character), encoding)
        end = index.offset((span.end.line, span.end.character), encoding)
        tokens = semantic_feature.semantic_tokens(state, start, end)
    return convert.to_semantic_tokens(semantic_feature.encode(tokens, index, encoding, (_TOKEN_TYPES, _TOKEN_MODIFIERS)))


@feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
def semantic_tokens_full(ls: HcljsonServer, params: types.SemanticTokensParams):
    return _semantic_tokens(ls, params.text_document.uri, None)


@feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, SEMANTIC_LEGEND)
def semantic_tokens_range(ls: HcljsonServer, params: types.SemanticTokensRangeParams):
    return _semantic_tokens(ls, params.text_document.uri, params.range)


@feature(types.SHUTDOWN)
def shutdown(ls: HcljsonServer, params: None) -> None:
    ls.publisher.cancel_all()


#: Cyclic GC thresholds for the server process (see "Memory and the cyclic GC" above).
GC_THRESHOLDS = (50_000, 20, 100)


def tune_gc(thresholds: tuple[int, int, int] = GC_THRESHOLDS) -> tuple[int, int, int]:
    """Raise the cyclic GC thresholds to at least `thresholds`; returns the ones now in force."""
    current = gc.get_threshold()
    new = tuple(max(a, b) for a, b in zip(current, thresholds))
    gc.set_threshold(*new)
    return new  # type: ignore[return-value]


def create_server() -> HcljsonServer:
    tune_gc()
    server = HcljsonServer()
    for method, options, fn, fallback in _FEATURES:
        server.feature(method, options)(_guarded(server, method, fn, fallback))
    return server
