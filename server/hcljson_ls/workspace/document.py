"""One open document and everything derived from it for one version: the unit the workspace keeps
for every file the editor has open.

    DocumentState.open(uri, text, version, language_id) -> DocumentState
    state.apply_changes(changes, encoding, version=None) -> list[Edit]
    state.syntax                   the current `jsonsyntax.ParseResult` (identical to a full parse)
    state.analysis                 the current `hcljson.incremental.FileResult` (Terraform analysis)
    state.quick()                  the opened text's diagnostics without a tree, or None (see below)
    state.definitions()            what it declares: the analysis's, or the quick result's before it
    state.declared_keys()          the set of their keys (the analysis's own set once it is built)
    state.build_steps()            build them in short steps (a generator), answering between steps
    state.around(offset)           before the tree: the blocks around `offset` alone, or None (below)
    state.prepare()                build the parse and the analysis now (finishing a stepped build)
    state.cached(key, compute)     a feature's result for the current version, computed once
    state.path                     the file system path of a `file:` URI (else the URI's path), or None

Contract
--------
* `state.document` is the `text.Document` (text buffer, version, language id, `LineIndex`).
* `apply_changes` applies LSP content changes one by one (each relative to the text left by the
  previous one; see `text.document`) and, for each resulting `Edit`, updates the parse with
  `jsonsyntax.reparse.reparse(old_result, document.buffer, edit)` (slices only: no copy of
  the whole text) and tells the analysis engine (`terraform.analysis.file_engine`) the very same
  edit, so the next analysis recomputes only what the edit touched. A full-text replacement arrives
  as the smallest covering edit, so it goes through `reparse` too, which falls back to a full parse
  when that is cheaper. Edits with nothing to do (no change at all) keep the current parse.
* Parsing never raises by contract; if it does anyway (a bug), the error is logged, the parse is
  dropped and redone in full the next time `syntax` is read, so a bug costs one slow parse, never a
  stale tree or a lost document. If the analysis raises (a bug), its engine is dropped (the next
  version starts afresh) and the error propagates to the caller, which logs it.
* `analysis` is computed on first read per version and shared by every feature and the
  diagnostics; references are resolved against the file's own declarations and `scope` (the other
  files of the module: `Workspace`), and `rescope(changed)` re-resolves only the references that use
  declarations changed elsewhere; `cached(key, compute)` stores `compute(state)` until the next change (features keep
  their per-version results there instead of adding fields here).
* Quick open: `open` does not parse. Until the tree is built, `quick()` answers the document's
  diagnostics and definitions from `terraform.quick` (exactly what the analysis gives, in a
  fifth of the time on a large generated file) when it can, and `definitions()` uses it while
  the analysis is not built; the tree and the analysis are built on first read of `syntax` or
  `analysis` (a request, an edit) or by `prepare()`, which the server calls once the open's
  diagnostics are answered. A change of the module's declarations (`rescope`, `restart_analysis`)
  makes the quick result be computed again on its next read. An edit before the tree is built
  makes it be computed again for the new text (the "cheap path"): when the edit stays inside one
  top-level block and leaves what the file defines as it was, from the previous quick result with
  only that block read again (`terraform.quick_edit`: what an edit of a block costs, whatever the
  file's size), any number of times; otherwise from the whole text skimmed again (~0.15 s at 5 MB,
  instead of building the tree, ~0.7 s), once: an edit after that which stays in no one block
  ends the quick result (the next read of the analysis then builds the tree, finishing a build in
  progress: a user typing without a pause would otherwise pay a cost that grows with the file at
  every key).
* Stepped build: `build_steps()` is the build of the parse and the analysis of the text as it is
  when the build starts, as a generator of short steps (`jsonsyntax.parser.parse_steps`, then
  `IncrementalFile.build_steps`), for an owner (the server) that answers requests between steps.
  Edits that come meanwhile change the text at once and are composed into one covering edit; when
  the last step is done, the built tree is brought to the current text with that edit
  (`reparse` + `note_edit`, as any edit), so the result equals a full computation of the current
  text and no edit is lost. Declarations changed elsewhere meanwhile (`rescope`) are resolved
  again on the next read of `analysis`; `restart_analysis` abandons the build. Reading `syntax` or
  `analysis`, or `prepare()`, finishes a build in progress first (never two builds).
* Before the tree (issue 21 §2): `around(offset)` is the analysis of the top-level blocks around
  `offset` alone (`hcljson.window.PartialView` over `terraform.around` windows, kept per window
  until the next change), while the quick result stands for the analysis (it has the skim's
  spans); None once the tree is built or being adopted, or where no window is exact.
  `AroundDocument` is the state as a request answered that way sees it: its `analysis` is a
  `PartialResult`, its `syntax` raises `NeedsTree`, `cached` stores nothing (a partial answer is
  never kept), and everything else is the state's own.
* Not thread-safe: one owner (the LSP event loop, or the CLI) mutates a state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from ..hcljson.incremental import FileResult, FileView, IncrementalFile
from ..hcljson.window import NeedsTree, PartialResult, PartialView
from ..jsonsyntax import ParseResult, parse
from ..jsonsyntax.parser import parse_steps
from ..jsonsyntax.reparse import reparse
from ..terraform.analysis import file_engine
from ..terraform.around import window_of, window_view
from ..terraform.quick import QuickResult, quick_file
from ..terraform.quick_edit import quick_after_edit
from ..terraform.resolution.resolve import Scope
from ..text.buffer import TextBuffer
from ..text.document import Document, Edit
from ..text.encodings import UTF16
from ..text.line_index import LineIndex
from .files import path_of_uri

log = logging.getLogger(__name__)

T = TypeVar("T")

_UNSET = object()  # `DocumentState._quick` not computed yet


class DocumentState:
    """The text of one document plus its parse, its analysis and the features' per-version results."""

    __slots__ = ("document", "_syntax", "_engine", "_analysis", "_cache", "_scope", "_rescope", "_quick", "_build",
                 "_build_cover", "_reran", "_quick_edit", "_carried", "leftovers")

    def __init__(self, document: Document, syntax: ParseResult | None = None, scope: Scope | None = None) -> None:
        self.document = document
        self._syntax = syntax
        self._engine: IncrementalFile | None = None
        self._analysis: FileResult | None = None
        self._cache: dict[str, Any] = {}
        self._scope = scope
        self._rescope: set = set()
        self._quick: Any = None  # None: no quick result (ever again, after an edit); `_UNSET`: to compute
        self._build: Iterator[None] | None = None  # the stepped build in progress (`build_steps`)
        self._build_cover: tuple[int, int, int] | None = None  # the edits since it started, composed
        self._carried: dict[str, tuple[Any, tuple[int, int, int] | None]] = {}  # `keep`: value, edits since
        self._reran = False  # an edit had the whole text's quick result computed again (once per document)
        # The quick result before that edit and the edit (composed), while the new one is not computed:
        # re-read in the edited block only when the edit stays in one (`terraform.quick_edit`).
        self._quick_edit: tuple[QuickResult, tuple[int, int, int] | None] | None = None
        #: Where the quick open leaves what it no longer needs, for its owner to free (`Workspace.leftovers`).
        self.leftovers: list | None = None

    @classmethod
    def open(cls, uri: str, text: str, version: int = 0, language_id: str = "", scope: Scope | None = None,
             leftovers: list | None = None) -> DocumentState:
        """A document; `scope` answers for the other files of its module (None: the file alone)."""
        state = cls(Document(uri, text, version, language_id), scope=scope)
        state._quick = _UNSET  # parsed on first need (see "Quick open")
        state.leftovers = leftovers
        return state

    # -- the document -------------------------------------------------------------------------

    @property
    def uri(self) -> str:
        return self.document.uri

    @property
    def version(self) -> int:
        return self.document.version

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def line_index(self) -> LineIndex:
        return self.document.line_index

    @property
    def path(self) -> str | None:
        """The file system path for a `file:` URI; the path part of another URI; None without one.

        Layers use it for what a file's name means (e.g. Terraform override files), never to read it.
        """
        return path_of_uri(self.document.uri)

    # -- layers -------------------------------------------------------------------------------

    @property
    def syntax(self) -> ParseResult:
        """The current JSON parse; parsed in full on demand after a failed incremental update."""
        if self._syntax is None:
            if self._build is not None:
                self._finish_build()
            if self._syntax is None:
                self._syntax = parse(self.document.text)
        return self._syntax

    @property
    def analysis(self) -> FileResult:
        """The Terraform analysis of this version (decoded body, structure and string diagnostics,
        definitions), computed incrementally from the previous version's."""
        if self._build is not None:
            self._finish_build()
        result = self._analysis
        if result is None:
            engine = self._engine
            if engine is None:
                engine = self._engine = file_engine(self.path, self._scope)
                self._quick_edit = None
                self._rescope.clear()  # a new engine resolves everything against the scope as it is
            try:
                # The engine slices the text buffer: never a whole-text copy on the fast path.
                result = engine.update(self.document.buffer, self.syntax.root)
                if self._rescope:
                    changed, self._rescope = frozenset(self._rescope), set()
                    result = engine.rescope(changed) or result
            except Exception:
                self._engine = None  # never serve a half-updated engine: the next version starts afresh
                raise
            self._analysis = result
        return result

    def quick(self, compute: bool = True) -> QuickResult | None:
        """The text's diagnostics and definitions without a tree (`terraform.quick`), while the
        tree is not built; else None (see "Quick open"). Without `compute`, only one computed
        already for this version."""
        q = self._quick
        if q is _UNSET:
            if not compute:
                return None
            q = None
            if self._engine is None:
                edited = self._quick_edit is not None
                q = self._quick_again()
                if q is None and (not edited or not self._reran):
                    self._reran = self._reran or edited  # (the whole text read again after an edit: once)
                    try:
                        q = quick_file(self.document.text, self.path, self._scope, self.leftovers)
                    except Exception:
                        log.exception("quick open failed for %s; analysing in full", self.uri)
            self._quick_edit = None
            self._quick = q
        return q if self._engine is None else None

    def _quick_again(self) -> QuickResult | None:
        """After an edit: the quick result before it with only the edited block read again
        (`terraform.quick_edit`), or None (the whole text is read again)."""
        again = self._quick_edit
        if again is None:
            return None
        before, cover = again
        if cover is None:
            return before  # nothing changed
        try:
            return quick_after_edit(before, self.document.text, *cover, self.path, self._scope)
        except Exception:
            log.exception("the quick result of %s after an edit failed; reading the whole text", self.uri)
            return None

    def definitions(self) -> tuple[list, Callable[[int], tuple[int, int]]]:
        """What this version declares (`FileResult.definitions`), from the quick result before the
        analysis is built."""
        q = self.quick() if self._engine is None else None
        if q is not None:
            return q.definitions()
        return self.analysis.definitions()

    def declared_keys(self) -> frozenset:
        """The set of the keys of `definitions()`: the set its references were resolved with (one
        set a file, not two): the analysis's own, or before the analysis is built the quick
        result's (`QuickResult.own`; made from its keys when it kept none)."""
        q = self.quick() if self._engine is None else None
        if q is not None:
            return q.own if q.own is not None else frozenset(q.definitions()[0])
        return self.analysis.definition_keys

    def around(self, offset: int) -> PartialView | None:
        """The decoded file seen around `offset` alone, while the tree is not built (see "Before
        the tree"); else None."""
        if self._engine is not None or self._syntax is not None:
            return None
        q = self.quick()
        spans = q.spans if q is not None else None
        if spans is None:
            return None
        text = self.document.text
        windows: dict = self.cached("workspace.document.around", lambda _: {})

        def view_at(at: int) -> FileView | None:
            found = window_of(text, spans, at)
            if found is None:
                return None
            view = windows.get(found, _UNSET)
            if view is _UNSET:
                try:
                    view = window_view(text, self.path, self._scope, spans, *found)
                except Exception:  # a bug: logged, and the request is answered from the whole tree
                    log.exception("analysing the blocks %s of %s failed", found, self.uri)
                    view = None
                windows[found] = view
            return view

        try:
            return PartialView(view_at, offset)
        except NeedsTree:
            return None

    def forget_results(self) -> None:
        """Drop the features' per-version results (`cached`): they are computed again."""
        self._cache.clear()

    @property
    def built(self) -> bool:
        """True when the parse and the analysis engine exist (requests then cost what they touch)."""
        return self._syntax is not None and self._engine is not None

    def build_steps(self) -> Iterator[None]:
        """The stepped build in progress (started now if the state is not built): each `next()`
        runs one short step; exhausted, the state is built (see "Stepped build")."""
        if self._build is None:
            if self.built:
                return iter(())
            self._build = self._steps()
        return self._build

    def _steps(self) -> Iterator[None]:
        text = self.document.text  # this version's text: edits meanwhile are composed (`_build_cover`)
        self._build_cover = None
        self._rescope.clear()  # the build resolves against the scope as it is from now on
        me = self._build
        try:
            syntax = yield from parse_steps(text)
            engine = file_engine(self.path, self._scope)
            yield
            result = yield from engine.build_steps(text, syntax.root)
        except Exception:
            log.exception("building the analysis of %s failed; building it on first need", self.uri)
            if self._build is me:
                self._build = None
            return
        if self._build is not me:
            return  # abandoned (`restart_analysis`)
        self._build = None
        self._adopt(syntax, engine, result)

    def _adopt(self, syntax: ParseResult, engine: IncrementalFile, result: FileResult) -> None:
        """Take the built tree and engine, brought to the current text with the edits made meanwhile."""
        cover, self._build_cover = self._build_cover, None
        self._syntax = syntax
        self._engine = engine
        self._quick_edit = None
        if self._quick is _UNSET:
            self._quick = None  # never computed for this version: no need of it now
        if cover is None:  # the text the build read is the current one
            if self._rescope:
                changed, self._rescope = frozenset(self._rescope), set()
                result = engine.rescope(changed) or result
            self._analysis = result
            return
        edit = Edit(*cover)
        self._update_syntax(self.document.buffer, edit)
        if self._engine is not None:
            self._engine.note_edit(edit)
        self._analysis = None
        try:  # now, while the edit is one place: composed with a later edit elsewhere, it would cover both
            _ = self.analysis
        except Exception:
            log.exception("analysing %s after its build failed; analysing afresh on first need", self.uri)

    def _finish_build(self) -> None:
        build = self._build
        if build is not None:
            for _ in build:
                pass

    def prepare(self) -> None:
        """Build the parse and the analysis of this version now (they are built on first need
        otherwise; a stepped build in progress is finished); the quick result then gives way to them."""
        _ = self.analysis
        _ = self.document.line_index.line_count  # its line starts too (found on first need otherwise)
        self._quick = None
        self._quick_edit = None

    @property
    def declarations_stamp(self) -> tuple[Any, ...]:
        """Changes exactly when what this document declares may have changed: its engine and the
        engine's definitions revision (computes the analysis), or its quick result."""
        q = self.quick() if self._engine is None else None
        if q is not None:
            return ("quick", q.declared)  # (kept by an edit that leaves the keys as they were: `quick_edit`)
        analysis = self.analysis
        return (id(self._engine), analysis.definitions_revision)

    def restart_analysis(self) -> None:
        """Forget the analysis engine: the next `analysis` starts afresh (when what the module
        declares is not known, so every reference must be resolved again)."""
        self._engine = None
        self._analysis = None
        self._build = None  # a build in progress is abandoned: its engine resolved against what is gone
        self._cache.clear()
        self._quick_edit = None
        if self._quick is not None:
            self._quick = _UNSET

    def rescope(self, changed: frozenset) -> None:
        """Declarations `changed` in other files of the module: the references that use them are
        resolved again on the next read of `analysis` (the rest of the analysis is kept)."""
        if not changed:
            return
        if self._engine is None:  # nothing resolved to redo, but a quick result resolved against the old scope
            self._quick_edit = None
            if self._build is not None:
                self._rescope |= changed  # what the build resolved so far: again once it is adopted
            if self._quick is not None:
                self._quick = _UNSET
                self._cache.clear()
            return
        self._rescope |= changed
        self._analysis = None
        self._cache.clear()

    def cached(self, key: str, compute: Callable[[DocumentState], T]) -> T:
        """`compute(self)`, remembered until the text changes."""
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = compute(self)
            return value

    def keep(self, key: str, value: Any) -> None:
        """Keep `value` (made for this version) across edits, for `carried`."""
        self._carried[key] = (value, None)

    def carried(self, key: str) -> tuple[Any, tuple[int, int, int] | None] | None:
        """What `keep(key, ...)` kept last, with one edit ``(start, old_end, new_end)`` covering every
        change to the text since (None: none); None when nothing was kept."""
        return self._carried.get(key)

    # -- changes ------------------------------------------------------------------------------

    def apply_changes(
        self, changes: Iterable[Any], encoding: str = UTF16, version: int | None = None
    ) -> list[Edit]:
        """Apply LSP content changes (see `text.document`) and bring the parse up to date."""
        document = self.document
        edits: list[Edit] = []
        self._cache.clear()
        # Before the tree is built, an edit has the quick result computed again for the new text (see
        # "Quick open"): from the previous one when it has one, else the whole text, once.
        before_tree = self._syntax is None and self._engine is None
        before = self._quick if before_tree and type(self._quick) is QuickResult else None
        whole = self._syntax is None and not self._reran
        if before is None and whole:
            self._reran = True
        self._quick_edit = None
        self._quick = _UNSET if before is not None or whole else None
        cover: tuple[int, int, int] | None = None
        self._analysis = None
        for change in changes:
            for edit in document.apply_changes((change,), encoding):
                edits.append(edit)
                if edit.start == edit.old_end == edit.new_end:
                    continue  # nothing changed
                if self._build is not None:
                    self._build_cover = _composed(self._build_cover, edit)
                if self._carried:
                    self._carried = {k: (v, _composed(c, edit)) for k, (v, c) in self._carried.items()}
                if before is not None:
                    cover = _composed(cover, edit)
                # The reparse slices the text buffer around the edit: no copy of the whole text.
                self._update_syntax(document.buffer, edit)
                if self._engine is not None:
                    self._engine.note_edit(edit)
        if before is not None:
            self._quick_edit = (before, cover)
        if version is not None:
            document.version = version
        return edits

    def _update_syntax(self, new_text: TextBuffer, edit: Edit) -> None:
        old = self._syntax
        if old is None:
            return  # already dropped: the next read of `syntax` parses in full
        try:
            self._syntax = reparse(old, new_text, edit)
        except Exception:
            log.exception("incremental reparse failed for %s (%r); parsing in full next time", self.uri, edit)
            self._syntax = None
            self._engine = None  # its tree is gone: the next analysis starts afresh

    def __repr__(self) -> str:
        return f"DocumentState({self.uri!r}, version={self.version}, len={len(self.text)})"


class AroundDocument:
    """An open document as a request answered before its tree sees it (see "Before the tree")."""

    __slots__ = ("_state", "analysis")

    def __init__(self, state: DocumentState, view: PartialView) -> None:
        self._state = state
        self.analysis = PartialResult(view)

    @property
    def syntax(self) -> ParseResult:
        raise NeedsTree("syntax")

    def cached(self, key: str, compute: Callable[[Any], T]) -> T:
        return compute(self)

    def __getattr__(self, name: str) -> Any:  # the text, its index, the quick result, ...
        return getattr(self._state, name)

    def __repr__(self) -> str:
        return f"AroundDocument({self._state!r}, offset={self.analysis.body.offset})"


def _composed(cover: tuple[int, int, int] | None, edit: Edit) -> tuple[int, int, int]:
    """One edit `(start, old_end, new_end)` covering `cover` then `edit` (as `IncrementalFile.note_edit`)."""
    s2, oe2, ne2 = edit.start, edit.old_end, edit.new_end
    if cover is None:
        return s2, oe2, ne2
    s, oe, ne = cover
    x = max(ne, oe2)  # the covering edit's end in the text before `edit`
    return min(s, s2), oe + (x - ne), x + (ne2 - oe2)
