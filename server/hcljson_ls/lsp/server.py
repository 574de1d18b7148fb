"""The language server: pygls wiring only. Each LSP method is one small handler that calls one
function of `features/` with a snapshot of the workspace, a document URI and an offset or range.

    create_server() -> HcljsonServer      a fresh server with every handler registered

Adding a feature
----------------
Write the logic as a plain function in `features/` (``(Snapshot, uri, offset, ...) -> dataclasses``),
a converter in `lsp/convert.py` if it returns new kinds of data, and one handler here::

    @feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: HcljsonServer, params: types.HoverParams):
        found = hover_json(ls.store, params.text_document.uri, params.position.line, params.position.character,
                           ls.position_encoding)
        return None if found is None else convert.Json(found)

Every handler runs under a guard: an exception is logged with the method and document, and the
request is answered with the handler's `fallback` (``None`` unless given), so one bad document or
one bug never stops the server. Every synchronous handler runs with the cyclic GC paused
(`gcpolicy.paused_gc`, see "Memory and the cyclic GC").

Transport and lifecycle
-----------------------
`start_io` / `start_tcp` serve one client through `lsp.transport` (whole messages read on a thread,
framing that survives bad headers: `lsp.framing`) and return the exit status; `lsp.protocol` answers
every message that is no valid request and keeps LSP's lifecycle (ServerNotInitialized before
`initialize`, InvalidRequest after `shutdown`, `exit` status 1 without `shutdown`). What is refused
and why: docs/limits.md, "Protocol".

The workspace
-------------
`ls.store` is the `workspace.Workspace`: the folders from `initialize` (`workspaceFolders`, else
`rootUri`/`rootPath`), kept by `workspace/didChangeWorkspaceFolders`; the open documents (pygls
keeps no copy of them: `lsp.protocol`); and the files on disk, scanned in the background after
`initialized` with work-done progress when the client supports it (requests are answered between
steps), and kept current by `workspace/didChangeWatchedFiles` (the watcher is registered
dynamically when the client supports that). The `engine` setting picks OpenTofu's or Terraform's
file rules.

Diagnostics
-----------
Advertised for pull (`textDocument/diagnostic`, `interFileDependencies: true`). They are also
pushed (`publishDiagnostics`, with the document version, debounced by
``hcljson.diagnostics.debounceMs``) to clients that cannot pull; clients that pull (VS Code's
languageclient, Neovim >= 0.10, Helix) would otherwise show every problem twice, since they keep
pushed and pulled diagnostics in separate collections. The ``hcljson.diagnostics.push`` setting
("auto", "always", "never") overrides that choice. Closing a document publishes an empty list for it.
A document larger than ``hcljson.maxFileSizeMB`` is not analysed: one diagnostic says so (`lsp.limits`).

A document's diagnostics depend on the other files of its module (a declaration made twice). When
computing one document's diagnostics, or a watched-file event, changes what a module declares,
its other open documents go stale (`Workspace.take_stale`): pushed again for push clients; pull
clients are sent `workspace/diagnostic/refresh` when they support it.

What is sent scales with what changed (issue 21): each diagnostic's LSP form (JSON text) is kept per
document and reused while only its line moved (`lsp.diagnostic_forms`), and the answer is spliced
from those texts (`protocol.RawJSON`), never unstructured by cattrs. A pull's `resultId` names the
content of the answer: it stays the same while the diagnostics do (a pull that sends it back is
answered `unchanged`), and a new one, never given before, comes with any change (settings,
`terraform validate` findings and other files included). A push is skipped when the list is the one
last pushed for the document. ``hcljson.diagnostics.maxPerCode`` folds runaway repeats of one code
(`features.diagnostics.collapse`).

Provider schemas
----------------
``providerSchemas.files`` are given to the workspace as they are. With ``providerSchemas.runTerraform``
(default true), opening a document of a module that has a `.terraform` directory fetches its schemas
in the background (`lsp.schema_jobs`, `workspace.schema_fetch`: `terraform`/`tofu providers schema
-json`, cached on disk by the lock file), again when its `.terraform.lock.hcl` changes (watched too)
or the settings change; the module's documents are then re-diagnosed like after a cross-file change
(`Workspace.take_stale`). A schema file or a fetch that fails is shown once
(`window/showMessage`, warning) and logged.

Requests
--------
documentSymbol (hierarchical, or flat `SymbolInformation` for clients without hierarchy support),
foldingRange (honouring `lineFoldingOnly` and `rangeLimit`), selectionRange, hover (a reference, a
function call or a key), signatureHelp (in a function call's arguments; triggered by `(` and `,`),
semanticTokens full / range (legend from `features.semantic_tokens.legend()`),
and across the files of a module (`features.navigation`): definition, declaration, references,
documentHighlight, prepareRename / rename (a refused rename answers `RequestFailed` with the reason: a
name that is not renameable, at prepareRename; a new name Terraform would reject, at rename),
workspace/symbol, and codeAction quick fixes (those of the diagnostics shown now that meet the
requested range, worked out on request: `features.quick_fixes`; a diagnostic carries no `data`). pygls advertises
exactly the methods registered here.
Hover, completion, definition / declaration and signature help sent before a quick-opened
document's tree is built are answered from the top-level blocks around their position
(`features.around`, the same answers), not after building the tree; the client's log says who built
each such tree (`_log_build`).
formatting and rangeFormatting (`features.formatting`, the client's `FormattingOptions`) answer
whitespace-only `TextEdit`s, none for a document with syntax errors.
Commands (`workspace/executeCommand`): "hcljson.showAsNativeHcl", "hcljson.applyRenameWithMoved"
(the server half of the code action "Rename and add a moved block", `features.moved`) and "hcljson.validate"
(`lsp.validation`: `terraform validate -json` findings kept beside ours, also run on save with
``validateOnSave``).

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
forever; freeze plus the thresholds measured the same as the thresholds alone. On top of the
thresholds, each handler runs with the collector paused (`gcpolicy.paused_gc`): parsing, analysis
and building the response allocate hundreds of thousands of acyclic objects, and what they built
joins the oldest generation on the way out. Trees and bodies hold no reference cycles, so
reference counting frees replaced versions at once; the thresholds only delay collecting the
(rare, small) cyclic garbage of pygls and asyncio.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..diagnostic import plain
from ..features import around, native_preview, navigation
from ..features import diagnostics as diagnostics_feature
from ..features import formatting as formatting_feature
from ..features import inlay as inlay_feature
from ..features import lens as lens_feature
from ..features import links as links_feature
from ..features import moved as moved_feature
from ..features import quick_fixes as quick_fixes_feature
from ..features import selection as selection_feature
from ..features import signature_help as signature_feature
from ..features import symbols as symbols_feature
from ..gcpolicy import paused_gc
from ..hcljson import similar
from ..text.encodings import UTF16
from ..text.line_index import LineIndex
from ..workspace import DocumentState, Snapshot, Workspace
from ..workspace.files import module_key, path_of_uri, uri_of_path
from ..workspace.previews import write_preview
from . import convert, diagnostic_forms, document_json, early, first_open, memory_marks, transport
from .completion_json import completion_json
from .config import DEFAULT, SECTION, Settings, configure_workspace, settings_from
from .hover_json import hover_json
from .limits import Oversized
from .protocol import HcljsonProtocol, RawJSON
from .publish import Publisher
from .schema_jobs import SchemaJobs
from .validation import COMMAND as VALIDATE
from .validation import Validation

log = logging.getLogger(__name__)

NAME = "hcljson-ls"

#: LSP's `RequestFailed` error code: the request was valid, its answer is a refusal (a rename to a bad name).
REQUEST_FAILED = -32803
#: JSON-RPC's `InvalidParams`: a command without the arguments it needs.
INVALID_PARAMS = -32602
#: The most symbols `workspace/symbol` answers (as vscode-json-language-server): the client narrows
#: the query to see the others (LSP's answer has no "incomplete" flag).
WORKSPACE_SYMBOL_LIMIT = 5000

#: What the watcher registered with the client reports (configuration files, native ones too).
WATCHED_GLOB = "**/*.{tf.json,tofu.json,tf,tofu}"
#: The lock file: when it changes, the module's provider schemas are fetched again (`schema_jobs`).
LOCK_GLOB = "**/.terraform.lock.hcl"
#: The manifest of the modules `terraform init` installed: when it changes, module calls find their
#: children again (`Workspace.file_changed`).
MANIFEST_GLOB = "**/.terraform/modules/modules.json"

#: The background scan yields to the event loop at least this often (seconds), and at once when a
#: message has arrived (`transport.Inbox`), so requests wait at most about one scan step behind it.
SCAN_SLICE = 0.02
#: The messages the protocol itself handles (no feature of ours registers them), as `_warm_messages`
#: warms them with the features'.
_BUILT_IN_METHODS = (types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DID_CLOSE,
                     types.CANCEL_REQUEST, types.WORKSPACE_EXECUTE_COMMAND, types.SHUTDOWN)


@dataclass(frozen=True, slots=True)
class At:
    """Where a request points: the snapshot, the open document's URI, the offset and its index."""

    snapshot: Snapshot
    uri: str
    offset: int
    index: LineIndex


class HcljsonServer(LanguageServer):
    """pygls server plus our workspace, settings and diagnostics publisher."""

    def __init__(self) -> None:
        super().__init__(
            NAME,
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=HcljsonProtocol,
        )
        self.position_encoding: str = UTF16
        self.store = Workspace()
        self.store.leftovers = []  # freed once an answer is written (`free_leftovers_soon`)
        self._freeing: asyncio.Task | None = None
        self.settings: Settings = DEFAULT
        self.publisher = Publisher(self.compute_diagnostics, self._send_diagnostics)
        self.scan_task: asyncio.Task | None = None
        self.oversized = Oversized()  # open documents over maxFileSizeMB: not analysed
        self.schema_jobs = SchemaJobs(self)
        self.store.set_schema_loader(self.schema_jobs.load_files)  # schema files: read off the event loop
        self._preparing: dict[str, asyncio.Task] = {}  # background builds (`_prepare_later`)
        self.inbox = transport.Inbox()  # messages read and not yet handled: the scan yields to them
        self.validation = Validation(self)  # `hcljson.validate`: the tool's findings, beside ours
        self._forms: dict[str, diagnostic_forms.Forms] = {}  # per open document: LSP forms reused across edits
        self.result_ids = diagnostic_forms.ResultIds()  # per document: the last items and their result id
        self._pushed: dict[str, Sequence[str]] = {}  # per document: what was last pushed
        self._not_yet_opened: set[str] = set()  # in an adopted store (`adopt_store`), before their didOpen
        self._warming: asyncio.Task | None = None  # the message hooks made in the background (`warm_messages_soon`)
        self.made_ahead = False  # made by `prepared_server`

    def start_io(self, stdin: Any = None, stdout: Any = None) -> int:
        """Serve one client over stdin/stdout (`lsp.transport`); the exit status."""
        stdin_fd = (stdin or sys.stdin).fileno()
        handoff = early.take() if stdin is None else None  # what `lsp.early` read (and answered) first
        if handoff is not None and handoff.answered_id is not None:
            self._hcljson_protocol.answered_early(handoff.answered_id, handoff.answer)
        if handoff is not None and handoff.first is not None:  # the first document's diagnostics (`lsp.first_open`)
            for msg_id, result in handoff.first.answered.items():
                self._hcljson_protocol.answered_early(msg_id, result, check=msg_id not in handoff.first.unchecked)
            self._pushed.update(handoff.first.pushed)
            self.result_ids = handoff.first.result_ids
            if handoff.first.store is not None:
                self.adopt_store(handoff.first.store)
            if handoff.first.answered or handoff.first.pushed:
                log.info("the first document's diagnostics were sent before the server was imported (lsp.first_open)")
            if handoff.first.edits:
                log.info("%d edits of it were applied, and their diagnostics sent, as the server was imported",
                         handoff.first.edits)
            if handoff.first.pushes:
                log.info("their diagnostics were pushed %d times as the server was imported", handoff.first.pushes)
            if handoff.first.requests:
                log.info("%d hovers or completions of it were answered as the server was imported", handoff.first.requests)
            if handoff.first.documents:
                log.info("%d requests for its symbols, folding ranges or semantic tokens were answered as the server "
                         "was imported", handoff.first.documents)
        return transport.serve_stdio(self._hcljson_protocol, self.inbox, stdin_fd, stdout or sys.stdout.buffer, handoff)

    def adopt_store(self, store: Workspace) -> None:
        """Go on with `store`, where `lsp.first_open` opened the first document (configured as the
        server configures its own, from the same `initialize`): the server's `didOpen` of it then
        finds it open as it is, and neither analyses it again nor keeps a second copy."""
        self.store = store
        if store.leftovers is None:
            store.leftovers = []
        store.set_schema_loader(self.schema_jobs.load_files)
        self._not_yet_opened.update(store.uris())

    def free_leftovers_soon(self) -> None:
        """Free what the analyses left for the server to free (`Workspace.leftovers`) in the
        background: called once a message is written, so that the answer of an open does not wait
        for its decoded blocks to be freed (10-13 ms at 5 MB, ~50 ms at 20 MB). As the background
        build, this waits `PREPARE_DELAY` first (a request sent as the answer arrives is handled
        before: freeing, this thread holds the interpreter, and the stdin reader waits up to a
        switch interval, 5 ms, to hand it over), then frees `FREED_AT_ONCE` at a time, in slices
        that yield to a waiting message. A background build waits for them to be freed (`_prepare`).
        Without a running loop (a test calling handlers directly), at once."""
        if not self.store.leftovers or self._freeing is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.store.leftovers.clear()
            return
        self._freeing = loop.create_task(self._free_leftovers_later(self.store.leftovers))

    #: How many leftovers (skimmed blocks: ~1.7 us each at 5 MB) one step of `_free_in_slices` frees.
    FREED_AT_ONCE = 256

    async def _free_leftovers_later(self, leftovers: list) -> None:
        try:
            await asyncio.sleep(self.PREPARE_DELAY)
            await self._free_in_slices(leftovers)
        finally:
            self._freeing = None

    async def _free_in_slices(self, leftovers: list) -> None:
        def steps() -> Iterator[None]:
            while leftovers:
                del leftovers[-self.FREED_AT_ONCE:]
                yield

        freeing = steps()
        while not self._run_slice(freeing):
            await asyncio.sleep(0)

    def opened_by_client(self, uri: str) -> None:
        self._not_yet_opened.discard(uri)

    def client_documents(self) -> list[str]:
        """The documents open in the store whose `didOpen` the server has handled (an adopted
        workspace holds the first document before the server reads its `didOpen`: until then the
        server acts as if it were not open, as it would without `lsp.first_open`)."""
        return [uri for uri in self.store.uris() if uri not in self._not_yet_opened]

    def start_tcp(self, host: str, port: int) -> int:  # type: ignore[override]
        """Serve one client over TCP (`lsp.transport`); the exit status."""
        return transport.serve_tcp(self._hcljson_protocol, self.inbox, host, port)

    @property
    def _hcljson_protocol(self) -> HcljsonProtocol:
        """`self.protocol`, which pygls types as its base class, is ours (`protocol_cls`)."""
        return cast(HcljsonProtocol, self.protocol)

    # -- documents ------------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return self.store.snapshot()

    def at(self, uri: str, position: types.Position | None = None) -> At | None:
        """The snapshot, `uri` and the offset of `position` in it (clamped); None when `uri` is not
        an open document of ours."""
        state = self.store.get(uri)
        if state is None:
            return None
        index = state.line_index
        offset = index.offset((position.line, position.character), self.position_encoding) if position else 0
        return At(self.snapshot(), uri, offset, index)

    def offset(self, at: At, position: types.Position) -> int:
        return at.index.offset((position.line, position.character), self.position_encoding)

    def text_document_capability(self, *path: str) -> Any:
        """The client's ``textDocument.<path...>`` capability, or None when it did not send it."""
        return self._capability(self.client_capabilities.text_document, path)

    def window_capability(self, *path: str) -> Any:
        """The client's ``window.<path...>`` capability, or None when it did not send it."""
        return self._capability(self.client_capabilities.window, path)

    def workspace_capability(self, *path: str) -> Any:
        """The client's ``workspace.<path...>`` capability, or None when it did not send it."""
        return self._capability(self.client_capabilities.workspace, path)

    @staticmethod
    def _capability(value: Any, path: tuple[str, ...]) -> Any:
        for name in path:
            value = getattr(value, name, None)
        return value

    # -- diagnostics ----------------------------------------------------------------------------

    @property
    def client_pulls_diagnostics(self) -> bool:
        return self.text_document_capability("diagnostic") is not None

    @property
    def pushes_diagnostics(self) -> bool:
        mode = self.settings.diagnostics.push
        return mode == "always" or (mode == "auto" and not self.client_pulls_diagnostics)

    def diagnostics_changed(self, uri: str, *, immediately: bool = False) -> None:
        """The document's diagnostics may have changed: push them (debounced) if we push."""
        if self.pushes_diagnostics:
            delay = 0.0 if immediately else self.settings.diagnostics.debounce_ms / 1000
            self.publisher.schedule(uri, delay)

    def refresh_stale(self) -> None:
        """Re-diagnose the open documents that another file of their module made stale."""
        stale = self.store.take_stale()
        if not stale:
            return
        if self.pushes_diagnostics:
            for uri in sorted(stale):
                self.publisher.schedule(uri, self.settings.diagnostics.debounce_ms / 1000)
        if self.client_pulls_diagnostics and self.workspace_capability("diagnostics", "refresh_support"):
            self.workspace_diagnostic_refresh(None)

    def compute_diagnostics(self, uri: str) -> tuple[int | None, list[str]] | None:
        """``(version, the JSON text of each LSP diagnostic)`` of the open document `uri`, or None when
        it is not open (`lsp.diagnostic_forms`: the forms of unchanged diagnostics are reused)."""
        if (oversized := self.oversized.diagnostics(uri)) is not None:
            return oversized[0], [diagnostic_forms.serialise(d) for d in oversized[1]]
        state = self.store.get(uri)
        if state is None:
            return None
        if not self.settings.diagnostics.enable:
            return state.version, []
        with paused_gc():
            forms = self._forms.get(uri)
            if forms is None:
                forms = self._forms[uri] = diagnostic_forms.Forms()
            if memory_marks.ENABLED:  # the quick open, apart from the diagnostics that would compute it
                state.quick()
                memory_marks.mark("server.quick")
            items = diagnostic_forms.document_forms(self.store, uri, self.settings.diagnostics, forms, self.position_encoding)
            self.schema_jobs.report(self.store.schema_problems())
            items += [diagnostic_forms.serialise(d) for d in self.validation.diagnostics(uri, state, self.position_encoding)]
            result = state.version, items
        memory_marks.mark("server.diagnostics")
        if state.quick() is not None:
            self._prepare_later(uri)
        self.refresh_stale()
        return result

    def quick_fixes(self, at: At, end: int, sent: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
        """The quick fixes of the diagnostics `at.uri` shows now (with the settings) that meet
        ``[at.offset, end]`` or that the client sent (`sent`, matched by range and code), worked out
        on request (`features.quick_fixes`); each action names its diagnostic as the client sent it
        when it can (`convert.to_quick_fixes`)."""
        settings = self.settings.diagnostics
        if not settings.enable:
            return []
        named = [(self.offset(at, d.range.start), self.offset(at, d.range.end), d.code) for d in sent
                 if isinstance(d.code, str) and d.source in (convert.SOURCE, None)]
        found = quick_fixes_feature.fixable(at.snapshot, at.uri, at.offset, end, settings.unused_declarations,
                                            settings.max_per_code, named)
        return convert.to_quick_fixes(found, at.index, self.position_encoding, at.uri, sent, settings.docs_url)

    def forget_diagnostics(self, uri: str) -> None:
        """`uri` was closed: its kept forms, result id and pushed list go."""
        self._forms.pop(uri, None)
        self.result_ids.forget(uri)
        self._pushed.pop(uri, None)

    #: How long after answering a quick open's diagnostics its tree and analysis start being built:
    #: long enough for the answer to be written first.
    PREPARE_DELAY = 0.05
    #: How many builds of one document a background task starts (one more after an abandoned one).
    BUILD_ATTEMPTS = 3

    def _prepare_later(self, uri: str) -> None:
        """Build the tree and analysis of quick-opened `uri` in the background, in slices that
        yield to requests (`DocumentState.build_steps`), then check them against the quick result
        (`features.diagnostics.prepare`), publishing again if they disagree, and settle what the
        tree's first reader would (`Workspace.settle_steps`)."""
        if uri in self._preparing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (tests calling handlers directly): built on first need
        self._preparing[uri] = loop.create_task(self._prepare(uri))

    async def _prepare(self, uri: str) -> None:
        try:
            await asyncio.sleep(self.PREPARE_DELAY)
            if (freeing := self._freeing) is not None:  # the open's decoded blocks: freed before the tree is built
                await asyncio.shield(freeing)
            if (state := self.store.get(uri)) is not None and not state.built:
                # The line starts (found by `prepare` otherwise, in the build's last slice) are
                # found first, in slices of their own: in one piece, 0.3 s of 15 MB of tiny outputs.
                await self._in_slices(uri, state, state.line_index.build_steps())
                memory_marks.mark("server.line_starts")
                await asyncio.sleep(0)
                # (the quick open's diagnostics not read yet)
                await self._in_slices(uri, state, diagnostics_feature.placing_steps(state))
            quick = None
            ended = 0  # builds run to their end without building: abandoned (an engine change) or failed
            started, own = time.perf_counter(), False  # `own`: this task's slice ended the build
            while (state := self.store.get(uri)) is not None and not state.built:
                # The quick result the build replaces, checked against it only when this task's own
                # slice ends the build: nothing (an edit, schemas, a request building the tree) can
                # come between. After an await it may be stale (schemas came after a request built
                # the tree), so it is taken again, or not at all when the state is built meanwhile.
                quick = state.quick(compute=False)
                own = self._run_slice(state.build_steps())
                if not own:
                    quick = None
                    await asyncio.sleep(0)  # requests and edits that came meanwhile are answered now
                elif not state.built:
                    quick, own = None, False
                    ended += 1
                    if ended == self.BUILD_ATTEMPTS:
                        return  # (logged by the state) built on first need instead, never retried in a loop
                    await asyncio.sleep(0)
            if state is None:
                return
            self._log_build(uri, own, time.perf_counter() - started)
            memory_marks.mark("server.build")
            outcome: list[bool] = []  # built: this compares, in slices (24,750 diagnostics: 0.1 s)

            def checking() -> Iterator[None]:
                outcome.append((yield from diagnostics_feature.prepare_steps(state, quick)))

            await self._in_slices(uri, state, checking())
            disagreed = bool(outcome) and outcome[0]
            memory_marks.mark("server.prepare")
            # What the next request would do first now that the tree is built: done here, in steps.
            await self._in_slices(uri, state, self.store.settle_steps(uri))
        except Exception:
            log.exception("building the analysis of %s failed", uri)
            return
        finally:
            self._preparing.pop(uri, None)
        if disagreed:
            self.store.results_changed(uri)
            self.refresh_stale()
        elif self.settings.diagnostics.unused_declarations:
            # Built now: the unused-declaration hints, left out of the quick answer, are published if
            # there are any (looked for after the build's task, in a loop turn of their own).
            await asyncio.sleep(self.settings.diagnostics.debounce_ms / 1000)
            try:
                found = self.store.get(uri) is not None and lens_feature.unused_declarations(self.snapshot(), uri)
            except Exception:
                log.exception("looking for unused declarations of %s failed", uri)
                return
            if found:
                self.store.results_changed(uri)
            self.refresh_stale()  # what this document refers to may leave others' hints stale

    async def _in_slices(self, uri: str, state: DocumentState, steps: Iterator[None]) -> None:
        """Run `steps` in slices (`_run_slice`), answering what came between two, until they end
        or `uri` is no longer `state` (closed, or opened again)."""
        while not self._run_slice(steps) and self.store.get(uri) is state:
            await asyncio.sleep(0)

    def _log_build(self, uri: str, own: bool, seconds: float) -> None:
        """Say in the client's log who built the tree of quick-opened `uri`: the background build
        (requests before it were answered from the blocks around them: `features.around`) or a
        request that could not be answered that way (it finished what was left)."""
        how = f"in the background in {seconds:.2f} s" if own else f"by a request after {seconds:.2f} s"
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Log,
                                                       message=f"{NAME}: built the tree of {uri} {how}"))

    def _run_slice(self, steps: Any) -> bool:
        """Run `steps` for at most `SCAN_SLICE`, less when a message waits or a push is due
        (`Publisher.due`); True when they ended."""
        slice_end = time.perf_counter() + SCAN_SLICE
        with paused_gc():
            for _ in steps:
                if time.perf_counter() >= slice_end or self.inbox.waiting or self.publisher.due():
                    return False
        return True

    #: The messages whose hooks `warm_messages_soon` makes first: what an editor sends as a person
    #: types and reads.
    WARM_FIRST = (types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DIAGNOSTIC, types.CANCEL_REQUEST,
                  types.TEXT_DOCUMENT_HOVER, types.TEXT_DOCUMENT_COMPLETION, types.TEXT_DOCUMENT_CODE_ACTION,
                  types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, types.TEXT_DOCUMENT_SIGNATURE_HELP, types.TEXT_DOCUMENT_INLAY_HINT)

    def warm_messages_soon(self) -> None:
        """Make the structure hooks of every message this server handles in the background
        (`HcljsonProtocol.warm_steps`: the first of each kind then does not wait for them), in
        slices that yield to a waiting message. Without a running loop (a test calling handlers
        directly), not at all: each is made when its first message comes."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._warming is None:
            self._warming = loop.create_task(self._warm_messages())

    def warm_order(self) -> list[str]:
        """The methods whose structure hooks are made ahead, those of `WARM_FIRST` first."""
        handled = {*self.protocol.fm.features, *_BUILT_IN_METHODS}
        return [m for m in self.WARM_FIRST if m in handled] + sorted(handled.difference(self.WARM_FIRST))

    async def _warm_messages(self) -> None:
        # (and what the first misspelt name asks, `similar.prepare`: ~20-40 ms the first such edit waited for)
        steps = itertools.chain(self._hcljson_protocol.warm_steps(self.warm_order()), _prepared(similar.prepare))
        try:
            while not self._run_slice(steps):
                await asyncio.sleep(0)
        except Exception:  # each is made when its first message comes instead
            log.exception("making the message hooks failed")

    def cancel_builds(self) -> None:
        """Stop the background builds and the message hooks' making (`shutdown`): nothing more is
        answered that needs them."""
        for task in self._preparing.values():
            task.cancel()
        if self._warming is not None:
            self._warming.cancel()

    def diagnostic_report(self, uri: str, previous_result_id: str | None) -> types.DocumentDiagnosticReport | RawJSON:
        if self.store.get(uri) is None and uri not in self.oversized:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        computed = self.compute_diagnostics(uri)
        return diagnostic_forms.pull_json(self.result_ids, uri, computed[1] if computed is not None else [], previous_result_id)

    def _send_diagnostics(self, uri: str, version: int | None, diagnostics: Sequence[str]) -> None:
        """Push `diagnostics` (JSON texts) unless they are what was last pushed for `uri` (an edit
        that changes no diagnostic sends nothing); an empty list without a version (closed) always."""
        if version is not None and self._pushed.get(uri) == diagnostics:
            return
        self.protocol.notify(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, diagnostic_forms.publish_json(uri, version, diagnostics))
        if version is None and not diagnostics:
            self._pushed.pop(uri, None)
        else:
            self._pushed[uri] = diagnostics

    # -- settings -------------------------------------------------------------------------------

    def apply_settings(self, raw: Any, origin: str) -> None:
        settings, problems = settings_from(raw, self.settings)
        if problems:
            message = f"{NAME}: ignoring invalid settings ({origin}): " + "; ".join(problems)
            log.warning("%s", message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=plain(message)))
        if settings == self.settings:
            return
        log.info("settings (%s): %s", origin, settings)
        was_pushing, before = self.pushes_diagnostics, self.settings
        self.settings = settings
        if configure_workspace(self.store, settings) and self.scan_task is not None:
            self.start_scan()  # what the old patterns hid is found
        self.schema_jobs.settings_changed(before, settings)
        self.store.take_stale()  # every document is published again below
        if self.pushes_diagnostics or was_pushing:
            for uri in self.client_documents():
                if self.pushes_diagnostics:
                    self.publisher.publish(uri)
                else:
                    self.publisher.clear(uri)
        if self.client_documents() and self.client_pulls_diagnostics and self.workspace_capability("diagnostics", "refresh_support"):
            self.workspace_diagnostic_refresh(None)
        self.refresh_views(before)

    def refresh_views(self, before: Settings) -> None:
        """Ask the client for code lenses / inlay hints again when their settings changed."""
        if before.code_lens != self.settings.code_lens and self.workspace_capability("code_lens", "refresh_support"):
            self.workspace_code_lens_refresh(None)
        if before.inlay_hints != self.settings.inlay_hints and self.workspace_capability("inlay_hint", "refresh_support"):
            self.workspace_inlay_hint_refresh(None)

    async def fetch_settings(self) -> None:
        """Ask the client for our section (`workspace/configuration`) when it can answer."""
        if not self.workspace_capability("configuration"):
            return
        items = [types.ConfigurationItem(section=SECTION)]
        try:
            result = await self.workspace_configuration_async(types.ConfigurationParams(items=items))
        except Exception as error:  # an error or an unreadable answer: the settings stay as they are
            log.info("workspace/configuration failed: %s", error)
            return
        if result:
            self.apply_settings(result[0], "workspace/configuration")

    # -- the files on disk ----------------------------------------------------------------------

    async def watch_files(self) -> None:
        """Ask the client to report changes of Terraform files, lock files and installed modules'
        manifests (when it registers watchers dynamically)."""
        if not self.workspace_capability("did_change_watched_files", "dynamic_registration"):
            return
        watchers = [types.FileSystemWatcher(glob_pattern=g) for g in (WATCHED_GLOB, LOCK_GLOB, MANIFEST_GLOB)]
        registration = types.Registration(
            id=str(uuid.uuid4()),
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        await self.client_register_capability_async(types.RegistrationParams(registrations=[registration]))

    def start_scan(self) -> None:
        """(Re)start the background scan of the workspace folders."""
        if self.scan_task is not None and not self.scan_task.done():
            self.scan_task.cancel()
        self.scan_task = asyncio.ensure_future(self._scan())

    async def _scan(self) -> None:
        token: str | None = None
        if getattr(self.client_capabilities.window, "work_done_progress", False):
            token = str(uuid.uuid4())
            try:
                await self.work_done_progress.create_async(token)
                self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title="Indexing Terraform modules", percentage=0))
            except Exception:  # a client that refuses progress still gets its workspace scanned
                log.info("work-done progress refused; scanning without it")
                token = None
        steps = self.store.scan()
        started = time.perf_counter()
        last = None
        try:
            while True:
                slice_end = time.perf_counter() + SCAN_SLICE
                with paused_gc():
                    for last in steps:  # noqa: B007 (the last step is reported after the loop)
                        if time.perf_counter() >= slice_end or self.inbox.waiting:
                            break
                    else:
                        break
                if token is not None and last is not None:
                    self.work_done_progress.report(token, _progress(last))
                self.refresh_stale()
                await asyncio.sleep(0)
        finally:
            if token is not None:
                self.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
        log.info("workspace scanned in %.2f s: %d modules", time.perf_counter() - started, len(self.store.module_map.known()))
        self.refresh_stale()

    # -- errors ---------------------------------------------------------------------------------

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls would pop up a message in the editor for every failed notification; the log has it.
        log.error("%s: %s", getattr(source, "__name__", source), error)


def _progress(step: Any) -> types.WorkDoneProgressReport:
    if step.total:
        return types.WorkDoneProgressReport(message=f"{step.done}/{step.total} files", percentage=int(100 * step.done / step.total))
    return types.WorkDoneProgressReport(message=f"{step.done} directories")


def _folders(params: types.InitializeParams) -> list[str]:
    return first_open.folders([f.uri for f in params.workspace_folders or ()] or None, params.root_uri, params.root_path)


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
                return await fn(server, params)  # not under paused_gc: other work runs meanwhile
            except JsonRpcException:
                raise  # a deliberate error response, not a bug
            except Exception:
                log.exception("%s failed (%s)", method, _uri_of(params))
                return fallback(params)

        run_async.__name__ = fn.__name__
        return run_async

    def run(params: Any) -> Any:
        try:
            with paused_gc():
                return fn(server, params)
        except JsonRpcException:
            raise  # a deliberate error response (e.g. a refused rename), not a bug
        except Exception:
            log.exception("%s failed (%s)", method, _uri_of(params))
            return fallback(params)

    run.__name__ = fn.__name__
    return run


def _guarded_command(server: HcljsonServer, name: str, fn: _Handler) -> _Handler:
    """A `workspace/executeCommand` handler: `fn(ls, arguments)` gets the arguments as a tuple (pygls
    passes none at all when the client sent no `arguments`), under the same guard as `_guarded`."""
    guarded = _guarded(server, name, fn, lambda arguments: None)

    async def command(*arguments: Any) -> Any:
        return await guarded(arguments)

    command.__name__ = fn.__name__
    return command


@feature(types.INITIALIZE)
def initialize(ls: HcljsonServer, params: types.InitializeParams) -> None:
    ls.store.set_folders(_folders(params))
    ls.apply_settings(params.initialization_options, "initializationOptions")


@feature(types.INITIALIZED)
async def initialized(ls: HcljsonServer, params: types.InitializedParams) -> None:
    ls.warm_messages_soon()
    await ls.fetch_settings()
    ls.start_scan()
    await ls.watch_files()


@feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: HcljsonServer, params: types.DidChangeConfigurationParams) -> None:
    # Not a coroutine: settings sent with the notification apply before the next message is handled
    # (an async handler runs as a task, after a request that followed it had its answer).
    if params.settings:
        ls.apply_settings(params.settings, "workspace/didChangeConfiguration")
    else:  # the "pull" style: the notification only says that something changed
        _in_background(ls.fetch_settings())


@feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_workspace_folders(ls: HcljsonServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    removed = {path_of_uri(f.uri) for f in params.event.removed}
    added = [p for f in params.event.added if (p := path_of_uri(f.uri))]
    ls.store.set_folders([*(f for f in ls.store.folders if f not in removed), *added])
    ls.start_scan()


@feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: HcljsonServer, params: types.DidChangeWatchedFilesParams) -> None:
    for change in params.changes:
        ls.store.file_changed(change.uri, int(change.type))
    ls.refresh_stale()
    ls.schema_jobs.files_changed(change.uri for change in params.changes)


@feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: HcljsonServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    ls.opened_by_client(doc.uri)
    if ls.oversized.open(doc.uri, doc.text, doc.version, ls.settings.max_file_size_mb, ls.settings.diagnostics.docs_url):
        ls.store.close(doc.uri)  # a smaller version of it may have been open
        return ls.diagnostics_changed(doc.uri, immediately=True)
    if ls.store.open(doc.uri, doc.text, doc.version, doc.language_id) is not None:
        ls.diagnostics_changed(doc.uri, immediately=True)
        ls.schema_jobs.consider(module_key(doc.uri))


@feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: HcljsonServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = params.text_document
    if ls.store.change(doc.uri, doc.version, params.content_changes, ls.position_encoding) is not None:
        ls.validation.forget(doc.uri)  # `terraform validate` findings are stale after an edit
        ls.diagnostics_changed(doc.uri)
    elif ls.oversized.change(doc.uri, doc.version, params.content_changes):  # not analysed: said again for this version
        ls.diagnostics_changed(doc.uri)


@feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
def did_save(ls: HcljsonServer, params: types.DidSaveTextDocumentParams) -> None:
    if ls.store.get(params.text_document.uri) is not None:
        ls.diagnostics_changed(params.text_document.uri, immediately=True)
        if ls.settings.validate_on_save and ls.settings.provider_schemas.run_terraform:
            _in_background(validate_command(ls, (params.text_document.uri,)))


@feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: HcljsonServer, params: types.DidCloseTextDocumentParams) -> None:
    if ls.oversized.close(params.text_document.uri) or ls.store.close(params.text_document.uri):
        ls.publisher.clear(params.text_document.uri)
        ls.forget_diagnostics(params.text_document.uri)
        ls.refresh_stale()


@feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(identifier=NAME, inter_file_dependencies=True, workspace_diagnostics=False),
    fallback=lambda params: types.RelatedFullDocumentDiagnosticReport(items=[]),
)
def document_diagnostic(ls: HcljsonServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport | RawJSON:
    return ls.diagnostic_report(params.text_document.uri, params.previous_result_id)


#: Documents at least this long (characters) make whole-file requests long enough (0.1 s and more)
#: to be worth cancelling: such requests pause at cancellation points.
CANCELLABLE_SIZE = 1_000_000
#: The pause: stdin is read on a thread (`lsp.transport`), so a cancel written right after the
#: request reaches the loop a moment later (under 1 ms idle, a few ms loaded).
_CANCEL_WAIT = 0.01


async def _cancellation_point(ls: HcljsonServer, uri: str) -> None:
    """Let the event loop read what has arrived: a `$/cancelRequest` of the running request then
    cancels it here (pygls cancels the request's task and answers RequestCancelled). Long requests
    are coroutines with such points between their stages; a plain function would finish first."""
    state = ls.store.get(uri)
    await asyncio.sleep(_CANCEL_WAIT if state is not None and len(state.document.buffer) >= CANCELLABLE_SIZE else 0)


@feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(ls: HcljsonServer, params: types.DocumentSymbolParams):
    # Long at 5 MB (symbols 0.17 s, their JSON 0.57 s, its text 0.2 s): cancellable between stages.
    await _cancellation_point(ls, params.text_document.uri)
    with paused_gc():
        at = ls.at(params.text_document.uri)
        if at is None:
            return None
        symbols = symbols_feature.document_symbols(at.snapshot, at.uri, ls.settings.symbols.group_by_construct_path)
    await _cancellation_point(ls, params.text_document.uri)  # an edit may come meanwhile: the answer keeps to its version
    with paused_gc():
        hierarchical = bool(ls.text_document_capability("document_symbol", "hierarchical_document_symbol_support"))
        return convert.Json(document_json.symbols_json(symbols, at.index, ls.position_encoding, hierarchical, at.uri))


@feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
def folding_range(ls: HcljsonServer, params: types.FoldingRangeParams):
    at = ls.at(params.text_document.uri)
    if at is None:
        return None
    return convert.Json(document_json.folding_json(
        at.snapshot, at.uri, at.index, ls.position_encoding,
        line_folding_only=bool(ls.text_document_capability("folding_range", "line_folding_only")),
        range_limit=ls.text_document_capability("folding_range", "range_limit"),
    ))


@feature(types.TEXT_DOCUMENT_SELECTION_RANGE)
def selection_range(ls: HcljsonServer, params: types.SelectionRangeParams):
    at = ls.at(params.text_document.uri)
    if at is None:
        return None
    found = selection_feature.selection_ranges(at.snapshot, at.uri, [ls.offset(at, p) for p in params.positions])
    # One result per position, as LSP requires; an empty document selects the empty range.
    return [
        convert.to_selection_range(r, at.index, ls.position_encoding) if r is not None else convert.empty_selection(p)
        for r, p in zip(found, params.positions)
    ]


@feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: HcljsonServer, params: types.HoverParams):
    found = hover_json(ls.store, params.text_document.uri, params.position.line, params.position.character,
                       ls.position_encoding)
    return None if found is None else convert.Json(found)


@feature(types.TEXT_DOCUMENT_DEFINITION)
@feature(types.TEXT_DOCUMENT_DECLARATION)  # in Terraform a name has one declaration: the same places
def definition(ls: HcljsonServer, params: types.DefinitionParams | types.DeclarationParams):
    at = ls.at(params.text_document.uri, params.position)
    if at is None:
        return None
    found = around.answer(navigation.definition, at.snapshot, at.uri, at.offset)
    return convert.to_locations(found, ls.store.documents.line_index, ls.position_encoding)


@feature(types.TEXT_DOCUMENT_REFERENCES)
def references(ls: HcljsonServer, params: types.ReferenceParams):
    at = ls.at(params.text_document.uri, params.position)
    if at is None:
        return None
    found = navigation.references(at.snapshot, at.uri, at.offset, params.context.include_declaration)
    return convert.to_locations(found, ls.store.documents.line_index, ls.position_encoding)


@feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
def document_highlight(ls: HcljsonServer, params: types.DocumentHighlightParams):
    at = ls.at(params.text_document.uri, params.position)
    if at is None:
        return None
    return [
        types.DocumentHighlight(
            range=convert.to_range(at.index, h.start, h.end, ls.position_encoding),
            kind=types.DocumentHighlightKind.Write if h.write else types.DocumentHighlightKind.Read,
        )
        for h in navigation.highlights(at.snapshot, at.uri, at.offset)
    ]


@feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: HcljsonServer, params: types.PrepareRenameParams):
    at = ls.at(params.text_document.uri, params.position)
    if at is None:
        return None
    found = navigation.prepare_rename(at.snapshot, at.uri, at.offset)
    if found is None and (why := navigation.why_not_renamed(at.snapshot, at.uri, at.offset)) is not None:
        raise JsonRpcException(why, code=REQUEST_FAILED)  # the client shows why, not only "cannot rename"
    return convert.to_range(at.index, found.start, found.end, ls.position_encoding) if found is not None else None


@feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
def rename(ls: HcljsonServer, params: types.RenameParams):
    at = ls.at(params.text_document.uri, params.position)
    if at is None:
        return None
    with_moved = ls.settings.rename.add_moved_block and moved_feature.movable(at.snapshot, at.uri, at.offset) is not None
    rename_with = moved_feature.rename_with_moved if with_moved else navigation.rename
    edits = rename_with(at.snapshot, at.uri, at.offset, params.new_name)
    if isinstance(edits, navigation.RenameError):
        raise JsonRpcException(edits.message, code=REQUEST_FAILED)  # the client shows the message
    return convert.to_workspace_edit(edits, ls.store.documents.line_index, ls.position_encoding)


@feature(types.WORKSPACE_SYMBOL)
def workspace_symbol(ls: HcljsonServer, params: types.WorkspaceSymbolParams):
    found = navigation.workspace_symbols(ls.snapshot(), params.query, WORKSPACE_SYMBOL_LIMIT)
    return convert.to_workspace_symbols(found, ls.store.documents.line_index, ls.position_encoding)


@feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=[".", '"', "{", "$"], resolve_provider=True),
    fallback=lambda params: types.CompletionList(is_incomplete=False, items=[]),
)
def completion(ls: HcljsonServer, params: types.CompletionParams):
    snippets = bool(ls.text_document_capability("completion", "completion_item", "snippet_support"))
    return convert.Json(completion_json(ls.store, params.text_document.uri, params.position.line, params.position.character,
                                        ls.position_encoding, snippets, ls.settings.completion.prefill_required))


@feature(types.COMPLETION_ITEM_RESOLVE, fallback=lambda item: item)
def completion_resolve(ls: HcljsonServer, item: types.CompletionItem):
    return convert.resolve_completion(item)


#: The command of the "Show as native HCL" code action: writes the document as native HCL under
#: the cache dir (`workspace.previews`) and asks the client to open it (`window/showDocument`).
SHOW_NATIVE = "hcljson.showAsNativeHcl"
SHOW_NATIVE_KIND = "source.showAsNativeHcl"
#: "Rename and add a moved block": the code action's command is the CLIENT's (it asks for the new
#: name: the VS Code extension implements it), which then runs the SERVER's command with
#: (uri, position, new name); that one sends the rename and the `moved` entry as one `workspace/applyEdit`.
RENAME_WITH_MOVED = "hcljson.renameWithMoved"
APPLY_RENAME_WITH_MOVED = "hcljson.applyRenameWithMoved"
RENAME_WITH_MOVED_TITLE = "Rename and add a moved block"


@feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite, SHOW_NATIVE_KIND]),
)
def code_action(ls: HcljsonServer, params: types.CodeActionParams):
    at = ls.at(uri := params.text_document.uri, params.range.start)
    if at is None:
        return None
    wanted = convert.kind_wanted(types.CodeActionKind.QuickFix, params.context.only)
    actions = ls.quick_fixes(at, ls.offset(at, params.range.end), params.context.diagnostics) if wanted else []
    found = moved_feature.movable(at.snapshot, uri, at.offset)
    if found is not None and found.on_declaration and convert.kind_wanted(types.CodeActionKind.RefactorRewrite, params.context.only):
        command = types.Command(title=RENAME_WITH_MOVED_TITLE, command=RENAME_WITH_MOVED, arguments=[uri, params.range.start, found.name])
        actions.append(types.CodeAction(title=RENAME_WITH_MOVED_TITLE, kind=types.CodeActionKind.RefactorRewrite, command=command))
    if native_preview.applies_to(uri) and convert.kind_wanted(SHOW_NATIVE_KIND, params.context.only):
        command = types.Command(title="Show as native HCL", command=SHOW_NATIVE, arguments=[uri])
        actions.append(types.CodeAction(title="Show as native HCL", kind=SHOW_NATIVE_KIND, command=command))
    return actions or None


async def show_as_native(ls: HcljsonServer, arguments: tuple[Any, ...]):
    """`SHOW_NATIVE` for the document named by the first argument: the native text is written and
    shown; the result is the text itself (for a client that cannot show a document). The command is
    answered whatever the client says to `window/showDocument`, and without waiting for it."""
    if not arguments or not isinstance(arguments[0], str):
        raise JsonRpcException("Show as native HCL needs the document's URI as its argument.", code=INVALID_PARAMS)
    uri = arguments[0]
    text = native_preview.file_native(ls.snapshot(), uri)
    if text is None:
        raise JsonRpcException("Show as native HCL: the document is not open.", code=REQUEST_FAILED)
    path = write_preview(uri, text)
    if path is not None and ls.window_capability("show_document", "support"):
        ls.protocol.send_request(types.WINDOW_SHOW_DOCUMENT, types.ShowDocumentParams(uri=uri_of_path(path), take_focus=True))
    return text


async def apply_rename_with_moved(ls: HcljsonServer, arguments: tuple[Any, ...]):
    """`APPLY_RENAME_WITH_MOVED` (uri, position, new name): the rename plus the `moved` entry sent as
    one `workspace/applyEdit`; answers whether the client applied it. A refusal (a bad or taken
    name, not a resource or module call) is a `RequestFailed` error with the reason."""
    uri, position, new_name = (list(arguments) + [None, None, None])[:3]
    line = position.get("line") if isinstance(position, dict) else getattr(position, "line", None)
    character = position.get("character") if isinstance(position, dict) else getattr(position, "character", None)
    if not isinstance(uri, str) or not isinstance(new_name, str) or not isinstance(line, int) or not isinstance(character, int):
        raise JsonRpcException("Rename with a moved block needs (uri, position, new name) as its arguments.", code=INVALID_PARAMS)
    at = ls.at(uri, types.Position(line=line, character=character))
    if at is None:
        raise JsonRpcException("Rename with a moved block: the document is not open.", code=REQUEST_FAILED)
    edits = moved_feature.rename_with_moved(at.snapshot, at.uri, at.offset, new_name)
    if isinstance(edits, navigation.RenameError):
        raise JsonRpcException(edits.message, code=REQUEST_FAILED)
    edit = convert.to_workspace_edit(edits, ls.store.documents.line_index, ls.position_encoding)
    result = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=RENAME_WITH_MOVED_TITLE))
    return {"applied": bool(result.applied)}


@feature(
    types.TEXT_DOCUMENT_SIGNATURE_HELP,
    types.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]),
)
def signature_help(ls: HcljsonServer, params: types.SignatureHelpParams):
    at = ls.at(params.text_document.uri, params.position)
    if at is None:
        return None
    offsets = ls.text_document_capability("signature_help", "signature_information", "parameter_information", "label_offset_support")
    return convert.to_signature_help(around.answer(signature_feature.signature_help, at.snapshot, at.uri, at.offset), bool(offsets))


# pygls advertises `semanticTokensProvider` with this legend and `full` / `range` for the handlers below.
SEMANTIC_LEGEND = types.SemanticTokensLegend(token_types=document_json.LEGEND[0], token_modifiers=document_json.LEGEND[1])


def _semantic_tokens(ls: HcljsonServer, uri: str, span: types.Range | None):
    """`SemanticTokens` as JSON (`document_json.semantic_tokens_json`), or None for an unknown document."""
    at = ls.at(uri)
    if at is None:
        return None
    offsets = None if span is None else (ls.offset(at, span.start), ls.offset(at, span.end))
    return convert.Json(document_json.semantic_tokens_json(at.snapshot, uri, at.index, ls.position_encoding, offsets))


@feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
async def semantic_tokens_full(ls: HcljsonServer, params: types.SemanticTokensParams):
    await _cancellation_point(ls, params.text_document.uri)  # a whole-file request: honour a cancel that came with it
    with paused_gc():
        return _semantic_tokens(ls, params.text_document.uri, None)


@feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, SEMANTIC_LEGEND)
def semantic_tokens_range(ls: HcljsonServer, params: types.SemanticTokensRangeParams):
    return _semantic_tokens(ls, params.text_document.uri, params.range)


# -- formatting (features.formatting) -------------------------------------------------------------


def _layout(options: types.FormattingOptions) -> formatting_feature.Layout:
    return formatting_feature.Layout(options.tab_size, options.insert_spaces,
                                     options.insert_final_newline, options.trim_final_newlines)


@feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: HcljsonServer, params: types.DocumentFormattingParams):
    at = ls.at(params.text_document.uri)
    if at is None:
        return None
    edits = formatting_feature.format_document(at.snapshot, at.uri, _layout(params.options))
    return convert.to_text_edits(edits, at.index, ls.position_encoding) if edits is not None else None


@feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
def range_formatting(ls: HcljsonServer, params: types.DocumentRangeFormattingParams):
    at = ls.at(params.text_document.uri, params.range.start)
    if at is None:
        return None
    end = ls.offset(at, params.range.end)
    edits = formatting_feature.format_range(at.snapshot, at.uri, at.offset, end, _layout(params.options))
    return convert.to_text_edits(edits, at.index, ls.position_encoding) if edits is not None else None


# -- validation by the real tool (lsp.validation) --------------------------------------------------


async def validate_command(ls: HcljsonServer, arguments: tuple[Any, ...]):
    """`hcljson.validate` for the document URI given as the first argument."""
    if not arguments:
        raise JsonRpcException("Validate needs the document's URI as its argument.", code=INVALID_PARAMS)
    return await ls.validation.run(arguments[0])


_BACKGROUND: set[asyncio.Task] = set()


def _prepared(prepare: Callable[[], None]) -> Iterator[None]:
    """One step of background work: `prepare()`."""
    prepare()
    yield


def _in_background(work: Any) -> None:
    """Run coroutine `work` (validate on save) as a task whose failure is logged, not raised."""
    async def guarded() -> None:
        try:
            await work
        except Exception as error:  # a refused or failed run on save: the log has it
            log.warning("validate on save: %s", error)
    task = asyncio.ensure_future(guarded())
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
# A lens's command is VS Code's `editor.action.showReferences` (uri, position, locations); other
# clients map that command themselves (docs/features.md: Neovim).

SHOW_REFERENCES = "editor.action.showReferences"


@feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False))
def document_link(ls: HcljsonServer, params: types.DocumentLinkParams):
    at = ls.at(params.text_document.uri)
    if at is None:
        return None
    tooltips = bool(ls.text_document_capability("document_link", "tooltip_support"))
    return [types.DocumentLink(range=convert.to_range(at.index, x.start, x.end, ls.position_encoding), target=x.target,
                               tooltip=x.tooltip if tooltips else None)
            for x in links_feature.document_links(at.snapshot, at.uri)]


@feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=True))
def code_lens(ls: HcljsonServer, params: types.CodeLensParams):
    at = ls.at(params.text_document.uri)
    if at is None or not ls.settings.code_lens.reference_counts:
        return None
    return [types.CodeLens(range=convert.to_range(at.index, x.start, x.end, ls.position_encoding), data={"uri": at.uri})
            for x in lens_feature.code_lenses(at.snapshot, at.uri)]


@feature(types.CODE_LENS_RESOLVE, fallback=lambda lens: lens)
def code_lens_resolve(ls: HcljsonServer, lens: types.CodeLens):
    uri = lens.data.get("uri") if isinstance(lens.data, dict) else None
    at = ls.at(uri, lens.range.start) if isinstance(uri, str) else None
    if at is None:
        return lens
    found = convert.to_locations(lens_feature.lens_references(at.snapshot, at.uri, at.offset), ls.store.documents.line_index, ls.position_encoding)
    lens.command = types.Command(title=lens_feature.references_title(len(found)), command=SHOW_REFERENCES, arguments=[at.uri, lens.range.start, found])
    return lens


@feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
def inlay_hint(ls: HcljsonServer, params: types.InlayHintParams):
    at = ls.at(params.text_document.uri, params.range.start)
    if at is None or not ls.settings.inlay_hints.values:
        return None
    return [types.InlayHint(position=convert.to_position(at.index, h.offset, ls.position_encoding), label=h.label, padding_left=True, tooltip=h.tooltip)
            for h in inlay_feature.value_hints(at.snapshot, at.uri, at.offset, ls.offset(at, params.range.end))]


@feature(types.SHUTDOWN)
def shutdown(ls: HcljsonServer, params: None) -> None:
    ls.publisher.cancel_all()
    ls.cancel_builds()
    ls.schema_jobs.cancel_all()
    ls.validation.cancel_all()
    if ls.scan_task is not None:
        ls.scan_task.cancel()


#: Cyclic GC thresholds for the server process (see "Memory and the cyclic GC" above).
GC_THRESHOLDS = (50_000, 20, 100)


def tune_gc(thresholds: tuple[int, int, int] = GC_THRESHOLDS) -> tuple[int, int, int]:
    """Raise the cyclic GC thresholds to at least `thresholds`; returns the ones now in force."""
    current = gc.get_threshold()
    new = tuple(max(a, b) for a, b in zip(current, thresholds))
    gc.set_threshold(*new)
    return new  # type: ignore[return-value]


def prepared_server() -> HcljsonServer:
    """`create_server()` with the structure hooks of every message made (`warm_steps`, which the
    server otherwise makes after `initialized`, in the background), `initialize` first, and the
    unstructure hook of its answer (the server's answer to the `initialize` answered early is
    written to be compared with it). Made on `hcljson_ls.entry`'s import thread while
    `lsp.first_open` answers the first document, so that the messages handed over do not wait for
    them: at 50 KB, an edit sent 0.45 s after a fresh server's first diagnostics waited ~280 ms for
    the server's making (~100 ms: lsprotocol's hooks registered) and those hooks."""
    server = create_server()
    protocol = server._hcljson_protocol
    for _ in protocol.warm_steps([types.INITIALIZE, types.INITIALIZED, types.TEXT_DOCUMENT_DID_OPEN, *server.warm_order()]):
        pass
    protocol._converter.get_unstructure_hook(types.InitializeResult)
    server.made_ahead = True
    return server


def create_server() -> HcljsonServer:
    tune_gc()
    server = HcljsonServer()
    for method, options, fn, fallback in _FEATURES:
        server.feature(method, options)(_guarded(server, method, fn, fallback))
    server.command(SHOW_NATIVE)(_guarded_command(server, SHOW_NATIVE, show_as_native))
    server.command(VALIDATE)(_guarded_command(server, VALIDATE, validate_command))
    server.command(APPLY_RENAME_WITH_MOVED)(_guarded_command(server, APPLY_RENAME_WITH_MOVED, apply_rename_with_moved))
    return server
