"""The workspace: its folders, every Terraform module under them, and the documents the editor has
open, laid over the files on disk.

    Workspace(folders=(), engine="auto")
      .set_folders(paths)                 the workspace folders (absolute paths)
      .scan() -> Iterator[ScanStep]       discover every module under the folders and summarize its
                                          files, one step at a time (the server runs it in the
                                          background, answering requests between steps)
      .open(uri, text, version, language_id) -> DocumentState | None
      .change(uri, version, changes, encoding) -> DocumentState | None
      .close(uri) -> bool
      .file_changed(uri, kind)            a watched file was created / changed / deleted (a module's
                                          files, or `.terraform/modules/modules.json`)
      .sync_declarations(uri)             after an analysis: notice changed declarations
      .take_stale() -> set[str]           open documents whose diagnostics changed through another
                                          file since the last call (to re-diagnose them)
      .snapshot() -> Snapshot             what features read
      .leftovers                          None, or a list where large temporaries of an analysis are
                                          left for the owner to free (the server: after its answer)

Contract
--------
* A module is a directory. Its files are the Terraform files in it (`terraform.catalogue`):
  configuration in JSON (`*.tf.json`, `*.tofu.json`), analysed by us, and native (`*.tf`,
  `*.tofu`), known for their declarations. Which of them count follows the engine: with OpenTofu
  (`engine="opentofu"`, or "auto" when the directory has a `.tofu`/`.tofu.json` file) `x.tofu.json`
  and `x.tofu` hide `x.tf.json` and `x.tf`; with Terraform, `.tofu` files are not part of the
  module. Override files take part but declare nothing (they are merged last).
* An open variable definitions file (`*.tfvars.json`: `terraform.tfvars.is_tfvars`) belongs to the
  module of its directory but is none of its files: it declares nothing. Any change to a file of
  that module makes it stale (`take_stale`) with a new `revision`, since a variable's type may have
  changed without any declaration changing.
* Open buffers win over disk. A file that is not open is read once, when its module is first
  needed (or by `scan`), and kept only as a `module.FileSummary`; it is read again when a watched
  -file event names it. A file that cannot be read is logged once and skipped.
* `Module.revision` changes exactly when the set of the module's files or the declarations of
  one of them changed (an open document's are noticed by `sync_declarations`, which the module's
  diagnostics call for every open document of the module first; a file on disk's by
  `file_changed`). Every result id (`result_id`) includes it, so a pulled diagnostics result
  changes when another file of the module changes; and the open documents of a module whose
  revision moved on are collected for `take_stale` (the server re-diagnoses them).
* `Snapshot` is a read-only view for one request: valid until the next change, like the trees.
* Never raises on odd input (unknown URIs, non-file URIs, missing directories): they get a module
  of their own with no files on disk.
"""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from ..diagnostic import Diagnostic
from ..hcljson.incremental import FileView
from ..terraform.definition import catalogue
from ..terraform.definition.language import LANGUAGE_CHANGED
from ..terraform.filekinds.testfile import is_test_file
from ..terraform.filekinds.tfvars import is_tfvars
from ..terraform.nativehcl.native import parse_native
from ..terraform.resolution.module_calls import VARIABLE_INPUT
from ..terraform.resolution.references import Reference, name_step, output_step, subject
from ..terraform.resolution.resolve import OUTPUT_KINDS
from ..terraform.rules.declarations import duplicates_across_files, overrides_without_base
from ..terraform.rules.flow import FileFlow
from ..terraform.rules.validate import definitions
from ..text.line_index import LineIndex
from . import ignore_paths
from .disk_reads import DiskReads
from .document import DocumentState
from .files import MAX_FILE_BYTES, file_name, is_file_on_disk, list_directory, path_of_uri, read_text, uri_of_path
from .flow_facts import FlowFacts
from .ignore_paths import IgnorePaths
from .installed_modules import MANIFEST, changed_source, installed_module_dir, installed_source
from .module import DiskFile, FileSummary, Module, summarize
from .schema_settings import ProviderSchemaSettings
from .schemas import SchemaStore
from .scope import ModuleScope
from .snapshot import Snapshot

log = logging.getLogger(__name__)

#: Directories never searched for modules: tool state and dependencies, not the user's modules.
SKIPPED_DIRECTORIES = frozenset({".terraform", ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"})

ENGINES = ("auto", "terraform", "opentofu")

#: Watched-file event kinds (the LSP `FileChangeType` values).
CREATED, CHANGED, DELETED = 1, 2, 3

#: Language ids that always mean "Terraform/OpenTofu JSON" (the VS Code extension's is the first).
LANGUAGE_IDS = frozenset({"terraform-json", "opentofu-json", "tofu-json"})


def is_ours(uri: str, language_id: str | None) -> bool:
    """A document the server analyses: a Terraform JSON language id, or a configuration, variable
    definitions or test file name (`*.tfvars.json`, `*.tftest.json`, whatever the language id)."""
    if language_id in LANGUAGE_IDS:
        return True
    return catalogue.file_kind(file_name(uri), ignore_case=True) in catalogue.JSON_KINDS


@dataclass(frozen=True, slots=True)
class ScanStep:
    """Progress of `Workspace.scan`: `done` of `total` units (directories, then files), and what."""

    phase: str  # "directories" or "files"
    done: int
    total: int | None
    what: str


class Workspace(ProviderSchemaSettings):
    def __init__(self, folders: Sequence[str] = (), engine: str = "auto") -> None:
        self.folders: tuple[str, ...] = ()
        self.engine = engine if engine in ENGINES else "auto"
        self.engine_version: str | None = None  # the `engineVersion` setting (None: chosen per module)
        self._documents: dict[str, DocumentState] = {}
        self._revisions: dict[str, int] = {}
        self._declared: dict[str, tuple[int, int]] = {}  # uri -> (engine id, definitions revision) last seen
        self._keys_of: dict[str, frozenset] = {}  # uri -> its declaration keys when last seen (see sync_declarations)
        self._modules: dict[str, Module] = {}
        self._counter = itertools.count(1)
        self._disk = DiskReads()  # views and line indexes of files on disk read for requests
        self._stale: set[str] = set()
        self._own_keys: dict[str, tuple] = {}
        self._declared_cache: dict[str, tuple] = {}  # uri -> ((module revision, own keys, kind), keys)  # uri -> ((engine id, definitions revision), kind -> keys)  # path -> (stamp, text, FileView): the last few files read for a request
        self._across: dict[str, tuple[tuple, dict]] = {}  # uri -> (stamp, key -> other places), see module_diagnostics
        self._referenced: dict[str, tuple[tuple, frozenset]] = {}  # module -> (its files' parts, union), see referenced
        self._schemas = SchemaStore()
        self._schema_paths: tuple[str, ...] = ()
        self.max_file_bytes = MAX_FILE_BYTES  # files on disk above it are skipped (the maxFileSizeMB setting)
        self._tfvars: set[str] = set()  # the open variable definitions files (see `_values_may_differ`)
        self._tests: set[str] = set()  # the open test files (stale when the module they test changes)
        self._ignore_patterns: tuple[str, ...] = ()  # `indexing.ignorePaths`
        self._ignore = ignore_paths.NONE
        self._flows = FlowFacts()  # each JSON configuration file's flow facts until it changes
        self._flow_active: set[str] = set()  # modules whose flow facts hold marks (see `_flow_may_differ`)
        #: Module directories that a module outside this workspace calls (`check` is told the modules of
        #: its run that other modules of the run call): never root modules (see `is_root_module`).
        self.called_modules: frozenset[str] = frozenset()
        #: None: what an analysis no longer needs is freed where it falls. A list: large pieces of it
        #: (a quick open's decoded blocks) are left here instead, for the owner to free when it likes
        #: (the server: once its answer is written, so that a client does not wait for the freeing).
        self.leftovers: list | None = None
        self.set_folders(folders)

    # -- folders and modules --------------------------------------------------------------------

    def set_folders(self, paths: Iterable[str]) -> None:
        self.folders = tuple(dict.fromkeys(os.path.normpath(p) for p in paths if p))
        if self._schema_paths:  # relative schema files are found in the folders
            self.set_schema_files(self._schema_paths)
        self._ignore = IgnorePaths.of(self._ignore_patterns, self.folders)

    def set_ignore_paths(self, patterns: Sequence[str]) -> bool:
        """`indexing.ignorePaths` (`ignore_paths`): directories the scan leaves out. The modules found
        under a newly ignored one are forgotten (unless a file of theirs is open); True when the
        patterns changed, so that a new scan finds what they no longer hide."""
        patterns = tuple(patterns)
        if patterns == self._ignore_patterns:
            return False
        self._ignore_patterns = patterns
        self._ignore = IgnorePaths.of(patterns, self.folders)
        for key in [k for k in self._modules if self._ignore.skips(k) and not self._open_in(k)]:
            del self._modules[key]
        return True

    def set_engine(self, engine: str) -> None:
        """Change the engine rule (every module's files may change)."""
        engine = engine if engine in ENGINES else "auto"
        if engine == self.engine:
            return
        self.engine = engine
        for module in list(self._modules.values()):
            self._bump(module)
            self._rescope_all(module)  # which files count, and whose functions exist, may differ

    def set_engine_version(self, version: str | None) -> None:
        """The `engineVersion` setting ("1.11", "1.16.0-rc1"; None or "": chosen per module from its
        `required_version`): every open document resolves its language sites again."""
        version = version or None
        if version == self.engine_version:
            return
        self.engine_version = version
        for module in list(self._modules.values()):
            self._bump(module)
            for uri in self._open_in(module.directory):
                self._documents[uri].rescope(frozenset({LANGUAGE_CHANGED}))
                self._revisions[uri] = next(self._counter)

    def _bump(self, module: Module, but: str | None = None) -> None:
        module.bump()
        self._stale |= self._open_in(module.directory, but)
        self._stale |= {u for u in self._tests if u != but and self.module_under_test(u) == module.directory}

    def take_stale(self) -> set[str]:
        """The open documents whose diagnostics may have changed because another file of their
        module changed, since the last call."""
        stale, self._stale = self._stale, set()
        return {u for u in stale if u in self._documents}

    def module_key(self, uri: str) -> str:
        """The directory of the module `uri` belongs to (for a non-file URI: the URI itself)."""
        path = path_of_uri(uri)
        if path is None or not uri.startswith("file:"):
            return uri
        return os.path.dirname(os.path.normpath(path))

    def module_under_test(self, uri: str) -> str:
        """The directory of the module a test file `uri` tests: the one above its directory when that
        is `tests/` (`catalogue.TEST_DIRECTORY`, `terraform test`'s default test directory), else its
        own (`module_key`); for any other file, its `module_key`."""
        key = self.module_key(uri)
        if os.path.isabs(key) and os.path.basename(key) == catalogue.TEST_DIRECTORY and is_test_file(uri):
            return os.path.dirname(key)
        return key

    def test_scope(self, uri: str) -> ModuleScope | None:
        """What the module under test of test file `uri` declares (`module_under_test`, its open
        documents' declarations brought up to date first), or None when it has no configuration file
        (a test file alone is never taken for a whole module)."""
        return self.directory_scope(uri, self.module_under_test(uri))

    def directory_scope(self, uri: str, key: str) -> ModuleScope | None:
        """What module directory `key` declares, for references of `uri` made from outside it (a test
        file's), its open documents' declarations brought up to date first; None when it has no
        configuration file."""
        if not self.effective_names(key):
            return None
        if key != self.module_key(uri):
            for other in self._open_in(key):
                self.sync_declarations(other)  # what its open documents declare now
        return ModuleScope(self, uri, key)

    def module(self, key: str) -> Module:
        """The module of directory `key`, its directory listed on first use."""
        module = self._modules.get(key)
        if module is None:
            module = self._modules[key] = Module(key)
        if not module.listed:
            module.listed = True
            if os.path.isabs(key):
                self._list(module)
        return module

    def modules(self) -> list[Module]:
        return [m for m in self._modules.values() if m.disk or self._open_in(m.directory)]

    def _list(self, module: Module) -> None:
        listing = list_directory(module.directory)
        if listing.problem:
            log.info("%s", listing.problem)
            return
        for name in listing.files:
            if catalogue.file_kind(name) in catalogue.MODULE_KINDS and name not in module.disk:
                module.disk[name] = DiskFile(name)

    def scan(self) -> Iterator[ScanStep]:
        """Find every module under the folders, then summarize every file not yet read; one step per
        directory, then one per file. Symbolic links to directories are not followed."""
        pending = list(self.folders)
        seen: set[str] = set()
        done = 0
        while pending:
            directory = pending.pop()
            real = os.path.realpath(directory)
            if real in seen:
                continue
            seen.add(real)
            listing = list_directory(directory)
            done += 1
            if listing.problem:
                log.info("%s", listing.problem)
                continue
            names = [n for n in listing.files if catalogue.file_kind(n) in catalogue.MODULE_KINDS]
            if names:
                module = self._modules.get(directory)
                if module is None:
                    module = self._modules[directory] = Module(directory)
                if not module.listed:
                    module.listed = True
                    for name in names:
                        module.disk.setdefault(name, DiskFile(name))
            pending.extend(
                path
                for d in reversed(listing.directories)
                if d not in SKIPPED_DIRECTORIES and not self._ignore.skips(path := os.path.join(directory, d))
            )
            yield ScanStep("directories", done, None, directory)
        todo = [(m, f) for m in list(self._modules.values()) for f in list(m.disk.values()) if f.summary is None]
        for i, (module, disk_file) in enumerate(todo, 1):
            if disk_file.summary is None and module.disk.get(disk_file.name) is disk_file:
                self._read(module, disk_file)
            yield ScanStep("files", i, len(todo), os.path.join(module.directory, disk_file.name))

    def _read(self, module: Module, disk_file: DiskFile) -> FileSummary:
        path = os.path.join(module.directory, disk_file.name)
        got = read_text(path, self.max_file_bytes)
        if got.text is None:
            log.info("%s", got.problem)
            summary = FileSummary((), None, got.problem)
        else:
            try:
                summary = summarize(path, got.text, got.stamp)
            except Exception:  # a bug in a layer below: the file contributes nothing, the rest goes on
                log.exception("summarizing %s failed", path)
                summary = FileSummary((), got.stamp, f"{path} could not be analysed")
        disk_file.summary = summary
        return summary

    def _summary(self, module: Module, disk_file: DiskFile) -> FileSummary:
        return disk_file.summary if disk_file.summary is not None else self._read(module, disk_file)

    # -- documents ------------------------------------------------------------------------------

    def open(self, uri: str, text: str, version: int, language_id: str) -> DocumentState | None:
        """Store and parse a newly opened document; None (and nothing stored) when it is not ours.
        A document opened again as it is open (the same version, language id and text: the server
        handles the `didOpen` that `lsp.first_open` opened in this workspace before it) keeps its
        state and everything found from it: nothing is analysed twice."""
        if not is_ours(uri, language_id):
            log.debug("ignoring %s (language id %r)", uri, language_id)
            self._forget(uri)
            return None
        state = self._documents.get(uri)
        if (state is not None and state.version == version and state.document.language_id == language_id
                and state.text == text):
            return state
        state = DocumentState.open(uri, text, version, language_id, ModuleScope(self, uri), self.leftovers)
        self._documents[uri] = state
        self._revisions[uri] = next(self._counter)
        self._declared.pop(uri, None)
        if is_tfvars(uri):
            self._tfvars.add(uri)
        if is_test_file(uri):
            self._tests.add(uri)
        self._bump(self.module(self.module_key(uri)), but=uri)  # its buffer now stands for the file on disk
        return state

    def change(self, uri: str, version: int, changes: Iterable[Any], encoding: str) -> DocumentState | None:
        state = self._documents.get(uri)
        if state is None:
            return None
        state.apply_changes(changes, encoding, version)
        self._revisions[uri] = next(self._counter)
        if self._tfvars and uri not in self._tfvars:
            self._values_may_differ(self.module_key(uri))
        if self._flow_active:
            self._flow_may_differ(self.module_key(uri), but=uri)
        return state

    def _values_may_differ(self, key: str) -> None:
        """A file of module `key` changed: its open tfvars documents are checked again (a variable's
        type may have changed without any declaration key changing: `Module.revision` stays)."""
        for uri in self._tfvars:
            if self.module_key(uri) == key:
                self._revisions[uri] = next(self._counter)
                self._stale.add(uri)

    def _flow_may_differ(self, key: str, but: str | None = None) -> None:
        """A file of module `key` changed: where marks flow (`terraform.flow`) may have changed
        without any declaration changing, so when the module's facts hold marks its other open
        documents and those of the modules calling it are checked again."""
        if key not in self._flow_active:
            return
        stale = self._open_in(key, but)
        for caller, _ in self.callers(key):
            stale |= self._open_in(caller)
        for uri in stale:
            self._revisions[uri] = next(self._counter)
        self._stale |= stale

    def close(self, uri: str) -> bool:
        """Forget the buffer of `uri` (the file on disk, if any, stands for it again); True when it
        was open."""
        if uri not in self._documents:
            return False
        before = self._keys_of.get(uri, frozenset())
        self._forget(uri)
        module = self.module(self.module_key(uri))
        disk_file = module.disk.get(file_name(uri))
        after: frozenset = frozenset()
        if disk_file is not None:
            disk_file.summary = None  # the buffer may have been unsaved: read it again
            after = frozenset(self._summary(module, disk_file).keys)
        self._bump(module)
        self._declarations_changed(module, before ^ after)
        return True

    def _forget(self, uri: str) -> None:
        self._flows.forget(uri)
        self._own_keys.pop(uri, None)
        self._declared_cache.pop(uri, None)
        self._across.pop(uri, None)
        self._keys_of.pop(uri, None)
        self._documents.pop(uri, None)
        self._revisions.pop(uri, None)
        self._tfvars.discard(uri)
        self._tests.discard(uri)
        self._declared.pop(uri, None)

    def get(self, uri: str) -> DocumentState | None:
        return self._documents.get(uri)

    def uris(self) -> list[str]:
        return list(self._documents)

    def __len__(self) -> int:
        return len(self._documents)

    def revision(self, uri: str) -> int | None:
        """A number that changes on every open and change of `uri` and never repeats."""
        return self._revisions.get(uri)

    def result_id(self, uri: str) -> str | None:
        """Identifies the diagnostics of `uri` as they are now: the document's revision and its
        module's (see the module doc); None when `uri` is not open."""
        revision = self._revisions.get(uri)
        if revision is None:
            return None
        module = self._modules.get(self.module_under_test(uri))  # a test file: the module it tests
        return f"{revision}.{module.revision if module is not None else 0}"

    def results_changed(self, uri: str) -> None:
        """The diagnostics of open `uri` changed without a change of its text (a quick open found
        wrong: `features.diagnostics.prepare`): it gets a new `result_id` and is stale."""
        if uri in self._documents:
            self._revisions[uri] = next(self._counter)
            self._stale.add(uri)

    def _open_in(self, key: str, but: str | None = None) -> set[str]:
        return {u for u in self._documents if u != but and self.module_key(u) == key}

    # -- changes of declarations ----------------------------------------------------------------

    def sync_declarations(self, uri: str) -> None:
        """Notice whether the analysis of open `uri` changed what it declares; if so, its module's
        revision moves on and its other open documents become stale."""
        state = self._documents.get(uri)
        if state is None:
            return
        stamp = state.declarations_stamp
        if self._declared.get(uri) == stamp:
            return
        self._declared[uri] = stamp
        module = self.module(self.module_key(uri))
        keys = state.declared_keys()  # the analysis's own set: a second one per file was ~70 B a block
        before = self._keys_of.get(uri)
        if before == keys:  # the same declarations from a new engine or the quick open's successor
            # Equal, but hold the new keys, not the old: the old ones (the quick result's, gone
            # otherwise) kept a second tuple and label string per declaration alive, ~115 B a block
            # (3.4 MB for 30,000 tiny outputs, tracemalloc); the names index holds them too.
            self._keys_of[uri] = keys
            module.key_index_cache = None
            # Same keys, but the list may differ (one declared twice now, or in another order): the
            # places index holds indexes into it.
            module.index_cache = None
            return
        if before is None:  # until now the module saw the file on disk (or nothing)
            disk_file = module.disk.get(file_name(uri))
            before = frozenset(self._summary(module, disk_file).keys) if disk_file is not None else frozenset()
        self._keys_of[uri] = keys
        self._bump(module, but=uri)
        self._declarations_changed(module, before ^ keys, but=uri)

    def settle_steps(self, uri: str) -> Iterator[None]:
        """What the first request after the build of quick-opened `uri` would do first, a step each,
        for the background task that built it: its declarations synced (the tree's set compared
        with the quick open's: 33 ms at 20 MB, 48,000 keys equal but other objects), what the other
        files of its module declare (`others_index`: the module's key index made again, dropped by
        that sync, 30 ms; nothing for a module of one file), and what its module says of it
        (`module_diagnostics`, remembered per declarations). Each answers as it would then."""
        if uri not in self._documents:
            return
        self.sync_declarations(uri)
        yield
        self.others_index(self.module_key(uri), file_name(uri))
        yield
        self.module_diagnostics(uri)

    def _declarations_changed(self, module: Module, changed: frozenset, but: str | None = None) -> None:
        """What `module` declares changed by `changed`: its open documents (but `but`) resolve
        again what uses those keys, and documents of other modules resolve outputs again."""
        if not changed:
            return
        self._bump(module, but)
        for uri in self._open_in(module.directory, but):
            self._documents[uri].rescope(changed)
        self._tell_callers(module, changed, but)

    def _tell_callers(self, module: Module, changed: Iterable[tuple], but: str | None = None, force: bool = False) -> None:
        """When `changed` keys of `module` are what a caller in another module sees of its child
        (outputs and their deprecation, input variables, a call's source), or with `force` (the
        module directory appeared or went), the open documents of other modules resolve those again."""
        if force or any(k[0] in OUTPUT_KINDS or k[0] == VARIABLE_INPUT for k in changed):
            seen = frozenset({("output", ""), (VARIABLE_INPUT, "")})
            for uri, state in self._documents.items():
                if uri != but and self.module_key(uri) != module.directory:
                    state.rescope(seen)
                    self._stale.add(uri)

    def file_changed(self, uri: str, kind: int) -> None:
        """A watched file was created, changed or deleted on disk: update its module (its open
        documents become stale when what the module declares changed). Never raises: one event that
        cannot be applied (logged) does not cost the others of its batch."""
        try:
            self._file_changed(uri, kind)
        except Exception:  # a bug must not lose the rest of the batch
            log.exception("applying the watched-file event %r (type %s) failed", uri, kind)

    def _file_changed(self, uri: str, kind: int) -> None:
        path = path_of_uri(uri)
        if path is None or not uri.startswith("file:"):
            log.info("ignoring a watched-file event for %r: it names no file", uri)
            return
        path = os.path.normpath(path)
        name = os.path.basename(path)
        self._disk.forget(path)
        # Trust the disk, not the event: a "created" or "changed" file that is not there is gone (no
        # phantom file that declares nothing, or hides another by its name), and a "deleted" one
        # that is there was replaced.
        kind = CHANGED if is_file_on_disk(path) else DELETED
        vanished = kind == DELETED and not os.path.lexists(path)
        if vanished and any(k == path or k.startswith(path + os.sep) for k in self._modules):
            self._directory_deleted(path)
            return
        if path.endswith(os.sep + MANIFEST):
            self._manifest_changed(path[: -len(os.sep + MANIFEST)])
            return
        if catalogue.file_kind(name) not in catalogue.MODULE_KINDS:
            return
        key = os.path.dirname(path)
        self._values_may_differ(key)
        self._flow_may_differ(key)
        module = self._modules.get(key)
        if module is None:
            module = self._modules[key] = Module(key)
        if kind == DELETED:
            gone = module.disk.pop(name, None)
            if gone is not None:
                self._bump(module)
                if gone.summary is not None:
                    self._declarations_changed(module, frozenset(gone.summary.keys))
                else:
                    self._rescope_all(module)
            return
        disk_file = module.disk.get(name)
        old = disk_file.summary if disk_file is not None else None
        before = old.keys if old is not None else None
        if disk_file is None:
            disk_file = module.disk[name] = DiskFile(name)
        disk_file.summary = None
        if any(path_of_uri(u) == path for u in self._open_in(key)):
            return  # the open buffer wins; the file is read again when it closes
        new = self._read(module, disk_file)
        after = new.keys
        if old is not None and before == after and old.references.keys() != new.references.keys():
            self._references_changed(key)  # the unused hints of the open documents may differ
        if before is None or before != after:
            self._bump(module)
            if before is None:
                self._rescope_all(module)
                # a new file of a child module; its first: a call may have found no directory
                self._tell_callers(module, after, force=len(module.disk) == 1)
            else:
                self._declarations_changed(module, frozenset(before) ^ frozenset(after))

    def _manifest_changed(self, root: str) -> None:
        """`terraform init` wrote (or removed) module `root`'s `.terraform/modules/modules.json`: the
        modules it installed are listed and read again when next needed (init may have replaced
        their files without an event for each), and the open documents of `root` and of the modules
        installed under it resolve their calls' inputs and outputs again."""
        installed = os.path.join(root, ".terraform", "modules")
        for key in [k for k in self._modules if k.startswith(installed + os.sep) and not self._open_in(k)]:
            del self._modules[key]
        seen = frozenset({("output", ""), (VARIABLE_INPUT, "")})
        module = self._modules.get(root)
        if module is not None:
            self._bump(module)
        for uri, state in self._documents.items():
            key = self.module_key(uri)
            if key == root or key.startswith(installed + os.sep):
                state.rescope(seen)
                self._revisions[uri] = next(self._counter)
                self._stale.add(uri)

    def _rescope_all(self, module: Module) -> None:
        """What a file declared is not known: resolve every reference of the module again."""
        for uri in self._open_in(module.directory):
            self._documents[uri].restart_analysis()  # against the module as it is

    def _directory_deleted(self, path: str) -> None:
        for key in [k for k in self._modules if k == path or k.startswith(path + os.sep)]:
            module = self._modules.pop(key)
            if module.disk:
                self._stale |= self._open_in(key)
                self._tell_callers(module, (), force=True)  # a call's local source may name nothing now

    # -- module-wide diagnostics ----------------------------------------------------------------

    def effective_names(self, key: str) -> list[str]:
        """The names of the files that make up module `key` now (open and on disk), in name order,
        after the engine's rule (see the module doc)."""
        module = self.module(key)
        # Open tfvars, test, mock data and query files are none of the module's files.
        names = set(module.disk) | {n for u in self._open_in(key) if catalogue.file_kind(n := file_name(u), ignore_case=True) not in catalogue.NOT_CONFIGURATION_KINDS}
        opentofu = self.engine == "opentofu" or (
            self.engine == "auto" and any(catalogue.is_opentofu_file(n) for n in names)
        )
        if opentofu:
            names -= catalogue.hidden_by_opentofu(names)
        else:
            names = {n for n in names if not catalogue.is_opentofu_file(n)}
        return sorted(names)

    def _index(self, key: str) -> dict[tuple, list[tuple[str, str, Any]]]:
        """key -> [(uri, file name, where)] over the module's effective files, `where` an index into
        an open document's definitions or a `Declaration`; remembered per module revision."""
        module = self.module(key)
        cached = module.index_cache
        if cached is not None and cached[0] == module.revision:
            return cached[1]
        open_docs = {file_name(u): u for u in self._open_in(key)}
        index: dict[tuple, list[tuple[str, str, Any]]] = {}
        for name in self.effective_names(key):
            if catalogue.is_override_file(name):
                continue
            uri = open_docs.get(name)
            if uri is not None:
                keys, _ = self._documents[uri].definitions()
                for i, k in enumerate(keys):
                    index.setdefault(k, []).append((uri, name, i))
                continue
            disk_file = module.disk.get(name)
            if disk_file is None:
                continue
            file_uri = uri_of_path(os.path.join(key, name))
            for d in self._summary(module, disk_file).declarations:
                index.setdefault(d.key, []).append((file_uri, name, d))
        module.index_cache = (module.revision, index)
        return index

    def others_index(self, key: str, name: str) -> dict[tuple, frozenset[str]]:
        """`key_index` of module `key` as the analysis of its file `name` reads it (what the other
        files declare): empty, without building it, when `name` is the module's only file. The index
        holds every key of that file: ~5 ms at 5 MB, which the first misspelt reference in an open
        document waited for (session 23)."""
        module = self.module(key)
        cached = module.names_cache
        if cached is None or cached[0] != module.revision:
            cached = module.names_cache = (module.revision, frozenset(self.effective_names(key)))
        if len(cached[1]) == 1 and name in cached[1]:
            return {}
        return self.key_index(key)

    def key_index(self, key: str) -> dict[tuple, frozenset[str]]:
        """declaration key -> the names of the files of module `key` that declare it, from the
        files on disk and what open documents declared when last analysed (never analysing one:
        this is what the analysis of a document reads); remembered per module revision."""
        module = self.module(key)
        cached = module.key_index_cache
        if cached is not None and cached[0] == module.revision:
            return cached[1]
        open_docs = {file_name(u): u for u in self._open_in(key)}
        # Most keys are declared by one file, or the same few: one frozenset per distinct set of
        # names (`shared`) rather than a set per key (216 B each: 2.2 MB for a 4 MB CDKTF-like file).
        index: dict[tuple, frozenset[str]] = {}
        shared: dict[frozenset[str], frozenset[str]] = {}
        for name in self.effective_names(key):
            uri = open_docs.get(name)
            keys: Iterable[tuple] | None = self._keys_of.get(uri) if uri is not None else None
            if keys is None:
                disk_file = module.disk.get(name)
                keys = self._summary(module, disk_file).keys if disk_file is not None else ()
            alone = frozenset((name,))
            alone = shared.setdefault(alone, alone)
            for k in keys:
                before = index.get(k)
                if before is None:
                    index[k] = alone
                elif name not in before:
                    both = before | alone
                    index[k] = shared.setdefault(both, both)
        module.key_index_cache = (module.revision, index)
        return index

    def module_diagnostics(self, uri: str) -> list[Diagnostic]:
        """Diagnostics of open `uri` that come from other files of its module: declarations that
        another file declares too; in an override file, what it overrides that no primary file
        declares. Empty for a file the engine's rule leaves out of the module."""
        state = self._documents.get(uri)
        if state is None:
            return []
        key = self.module_key(uri)
        for other in self._open_in(key):
            self.sync_declarations(other)  # the index reads open documents' definitions by position
        name = file_name(uri)
        effective = self.effective_names(key)
        if name not in effective:
            return []
        if catalogue.is_override_file(name):  # it declares nothing: what it overrides must exist
            return overrides_without_base(state.text, state.analysis.body.blocks, self._index(key).__contains__)
        # Which declarations are made elsewhere too changes only with the declarations (this file's or
        # the module's): remembered per (engine, definitions revision, module revision), so an edit
        # that declares nothing new costs nothing here when there is no duplicate (and re-places
        # the few there are otherwise).
        module = self.module(key)
        stamp = (*state.declarations_stamp, module.revision)
        remembered = self._across.get(uri)
        if remembered is not None and remembered[0] == stamp:
            if not remembered[1]:
                return []
        else:
            keys, _ = state.definitions()
            # The positions index (`_index`: a list and a tuple per key, ~200 B a declaration) is
            # built only when `key_index` (names per key, shared sets) says another file may declare
            # one of these keys: a module of one file never needs it. 75,000 tiny outputs (3.7 MB):
            # 10.2 MB less after the open's analysis (tracemalloc). Nor does it need `key_index`, which
            # holds every key of the file (3-4 ms of a 5 MB open, 12-18 ms at 20 MB, session 19).
            names = self.key_index(key) if keys and len(effective) > 1 else {}
            maybe = any(n is not None and (len(n) > 1 or name not in n) for n in map(names.get, keys))
            index = self._index(key) if maybe else {}
            shared = {}
            for k in keys:
                entries = index.get(k)
                if entries is not None and (len(entries) > 1 or entries[0][0] != uri):
                    shared[k] = [e for e in entries if e[0] != uri]
            self._across[uri] = (stamp, shared)
            if not shared:
                return []
        keys, place = state.definitions()
        shared = self._across[uri][1]
        elsewhere = {k: [self._place(e) for e in entries] for k, entries in shared.items()}
        return duplicates_across_files(keys, place, elsewhere, state.text, name)

    def _place(self, entry: tuple[str, str, Any]) -> tuple[str, str, int, int]:
        uri, name, where = entry
        if isinstance(where, int):
            _, place = self._documents[uri].definitions()
            start, end = place(where)
        else:
            start, end = where.start, where.end
        return uri, name, start, end

    # -- where sensitive and ephemeral values flow ------------------------------------------------

    def flow_facts(self, key: str, always: bool = False) -> list[tuple[str, FileFlow]] | None:
        """`(uri, flow facts)` of every JSON configuration file of module `key` (`terraform.flow`),
        open buffers over the files on disk; None when the module has an override file (it may
        change what a variable or output declares: the module is not judged). Empty when no file
        of the module may mark a value (`terraform.flow.may_mark`, a text search), unless `always`
        (a child module's variables): then no document's analysis is built for it (a quick-opened
        document keeps its quick result).
        Native files say nothing here (their variables count as unmarked). Each file's facts are
        remembered until it changes (an open document's revision, a file's summary on disk)."""
        names = self.effective_names(key)
        if any(catalogue.is_override_file(n) for n in names):
            return None
        module = self.module(key)
        open_docs = {file_name(u): u for u in self._open_in(key)}
        files: list[tuple[str, Any, Any]] = []  # (uri, stamp, how to read it)
        for name in names:
            if catalogue.file_kind(name) != catalogue.CONFIG_JSON:
                continue
            uri = open_docs.get(name)
            if uri is not None:
                files.append((uri, ("open", self._revisions.get(uri)), self._documents[uri]))
                continue
            disk_file = module.disk.get(name)
            if disk_file is None or not os.path.isabs(key):
                continue
            files.append((uri_of_path(os.path.join(key, name)), self._summary(module, disk_file), os.path.join(key, name)))
        entries = [self._flows.entry(uri, stamp, source, self.max_file_bytes) for uri, stamp, source in files]
        if not always and not any(marking for marking, _ in entries):
            self._flow_active.discard(key)
            return []
        out = [(uri, FlowFacts.facts(entry)) for (uri, _, _), entry in zip(files, entries)]
        if any(f.has_marks for _, f in out):
            if key not in self._flow_active:  # marks appeared without a declaration changing: the others again
                self._flow_active.add(key)
                self._flow_may_differ(key)
        else:
            self._flow_active.discard(key)
        return out

    def is_root_module(self, key: str) -> bool:
        """Whether module `key` is a root module: no module of the workspace calls it with a local
        source (`callers`), and it is not among `called_modules`."""
        return key not in self.called_modules and not self.callers(key)

    # -- navigation: where a declaration is, who refers to it ----------------------------------------

    def is_opentofu(self, key: str) -> bool:
        """Whether OpenTofu reads module `key` (the engine setting, or "auto" and a `.tofu` file)."""
        if self.engine != "auto":
            return self.engine == "opentofu"
        module = self.module(key)
        cached = module.opentofu_cache  # asked once per block resolved: remembered per module revision
        if cached is not None and cached[0] == module.revision:
            return cached[1]
        found = any(catalogue.is_opentofu_file(n) for n in module.disk) or any(
            catalogue.is_opentofu_file(file_name(u)) for u in self._open_in(key)
        )
        module.opentofu_cache = (module.revision, found)
        return found

    def declaration_sites(self, key: str, declared: tuple) -> list[tuple[str, int, int]]:
        """`(uri, start, end)` of every declaration of `declared` in module `key` (the header key or a
        local's name, as `terraform.validate.definitions` gives them)."""
        for other in self._open_in(key):
            self.sync_declarations(other)
        return [(uri, start, end) for uri, _, start, end in map(self._place, self._index(key).get(declared, ()))]

    def declaration_sites_of(self, key: str, keys: Iterable[tuple]) -> dict[tuple, list[tuple[str, int, int]]]:
        """`declaration_sites` of each of `keys` at once (the open documents brought up to date once)."""
        for other in self._open_in(key):
            self.sync_declarations(other)
        index = self._index(key)
        return {k: [(uri, start, end) for uri, _, start, end in map(self._place, index.get(k, ()))] for k in keys}

    def reference_sites(self, key: str, declared: tuple) -> list[tuple[str, int, int, int, int]]:
        """`(uri, start, end, name_start, name_end)` of every reference to `declared` in the files of
        module `key`, open or not (override files included: they refer like any other file)."""
        module = self.module(key)
        open_docs = {file_name(u): u for u in self._open_in(key)}
        out: list[tuple[str, int, int, int, int]] = []
        for name in self.effective_names(key):
            uri = open_docs.get(name)
            if uri is not None:
                body = self._documents[uri].analysis.body
                if declared[0] == "module-output":
                    for ref in body.refs(uses=("module", declared[1])):
                        step = output_step(ref) if type(ref) is Reference and ref.root == "module" else None
                        if step is not None and ref.steps[0].name == declared[1] and step.name == declared[2]:
                            out.append((uri, *ref.range, step.start, step.end))
                    continue
                for ref in body.refs(uses=declared):
                    if type(ref) is Reference:
                        found = subject(ref)
                        step = name_step(ref) if found is not None and found[0] == declared else None
                        if step is not None:
                            out.append((uri, *ref.range, step.start, step.end))
                continue
            disk_file = module.disk.get(name)
            if disk_file is None:
                continue
            file_uri = uri_of_path(os.path.join(key, name))
            out.extend((file_uri, *site) for site in self._summary(module, disk_file).references.get(declared, ()))
        return out

    def referenced(self, key: str, but: str | None = None) -> frozenset:
        """Every declaration key some file of module `key` refers to (`reference_sites`' files:
        open buffers over the files on disk, override files included; variable definitions and
        test files are none of them): the union of each open document's `FileResult.named` and
        each other file's summary, remembered until one of these objects changes (an edit that
        adds or removes no reference keeps them all). When the union differs from the one found
        last, the module's other open documents (but `but`, asking) are stale: their unused hints
        may differ."""
        module = self.module(key)
        open_docs = {file_name(u): u for u in self._open_in(key)}
        parts: list[Any] = []
        for name in self.effective_names(key):
            uri = open_docs.get(name)
            if uri is not None:
                parts.append(self._documents[uri].analysis.named())
                continue
            disk_file = module.disk.get(name)
            if disk_file is not None:
                parts.append(self._summary(module, disk_file))
        cached = self._referenced.get(key)
        if cached is not None and len(cached[0]) == len(parts) and all(a is b for a, b in zip(cached[0], parts)):
            return cached[1]
        sets = [p if isinstance(p, frozenset) else p.references.keys() for p in parts]
        union = sets[0] if len(sets) == 1 and isinstance(sets[0], frozenset) else frozenset().union(*sets)
        self._referenced[key] = (tuple(parts), union)
        if cached is not None and cached[1] != union:
            self._references_changed(key, but)
        return union

    def _references_changed(self, key: str, but: str | None = None) -> None:
        """What the files of module `key` refer to changed (no declaration did): its open documents
        (but `but`) get a new revision and are stale."""
        stale = self._open_in(key, but)
        for uri in stale:
            self._revisions[uri] = next(self._counter)
        self._stale |= stale

    def declared(self, uri: str, kind: str) -> frozenset:
        """The declaration keys of `kind` in the module of `uri`, its own current ones included;
        remembered per (module revision, its own declarations), so completing in a file with
        thousands of resources does not gather them again at every keystroke. For a test file: the
        module it tests (`module_under_test`), with its own runs and variables."""
        key = self.module_under_test(uri)
        own = self.own_keys(uri)
        module = self.module(key)
        stamp = (module.revision, id(own), kind)
        cached = self._declared_cache.get(uri)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        if uri in self._documents and key == self.module_key(uri) and self.effective_names(key) == [file_name(uri)]:
            # The module is this open document alone: what it declares now. (`key_index` holds the same
            # keys, as last synchronised: building it was 3-4 ms of a 5 MB file's first hover, and
            # ~12 ms at 20 MB, and going through it 2-10 ms more, session 19.)
            keys = own.get(kind)
        else:
            keys = frozenset(k for k in self.key_index(key) if k[0] == kind) | own.get(kind)
        self._declared_cache[uri] = (stamp, keys)
        return keys

    def own_keys(self, uri: str) -> OwnKeys:
        """The declaration keys of open `uri` by kind, as its current version declares them;
        remembered until its declarations change (an edit elsewhere in a 5 MB file costs nothing)."""
        state = self._documents.get(uri)
        if state is None:
            return _NO_KEYS
        stamp = state.declarations_stamp
        cached = self._own_keys.get(uri)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        grouped = OwnKeys(state.definitions()[0])
        self._own_keys[uri] = (stamp, grouped)
        return grouped

    def child_directory(self, key: str, name: str, source: str | None) -> str | None:
        """The directory of the module that call `name` of module `key` (with literal `source`)
        calls: a local path, else where `terraform init` installed it; None when it is not known."""
        if source is None or not os.path.isabs(key):
            return None
        if source.startswith(("./", "../")):
            child = os.path.normpath(os.path.join(key, source))
            return child if os.path.isdir(child) else None
        return installed_module_dir(key, name, source)

    def changed_module_source(self, key: str, name: str, source: str | None) -> bool:
        """True when call `name` of module `key` has a literal, non-local `source` that is surely not
        the one `terraform init` installed its module from: Terraform's "Module source has changed"
        (`installed_modules.changed_source`)."""
        if source is None or not os.path.isabs(key) or source.startswith(_LOCAL_PREFIXES):
            return False
        return changed_source(source, installed_source(key, name))

    def missing_local_directory(self, key: str, source: str | None) -> bool:
        """True when `source`, of a call in module `key`, is a local path (no template sequence)
        naming nothing that is a directory on disk: Terraform's "Module not installed"."""
        if source is None or not os.path.isabs(key) or not source.startswith(_LOCAL_PREFIXES):
            return False
        if "${" in source or "%{" in source:
            return False  # an expression in newer versions: not judged
        return not os.path.isdir(os.path.normpath(os.path.join(key, source)))

    def callers(self, child: str) -> list[tuple[str, str]]:
        """`(module directory, module call name)` of every known module that calls directory `child`
        with a local source (`source: "./..."`), or whose `terraform init` installed it there
        (`child_directory`)."""
        out = []
        for key in list(self._modules):
            if not os.path.isabs(key):
                continue
            # `init` installs under the root's `.terraform` (the manifest is read only for such a child);
            # a module installed there calls through the same root's manifest
            root = (key + os.sep).split(_INSTALLED, 1)[0] if _INSTALLED in key + os.sep else key
            installs_here = child.startswith(os.path.join(root, ".terraform") + os.sep)
            for k in self.key_index(key):
                if k[0] != "module-source" or not isinstance(k[2], str):
                    continue
                if k[2].startswith(("./", "../")):
                    if os.path.normpath(os.path.join(key, k[2])) == child:
                        out.append((key, k[1]))
                elif installs_here and installed_module_dir(key, k[1], k[2]) == child:
                    out.append((key, k[1]))
        return sorted(set(out))

    def override_declarations(self, key: str, declared: tuple) -> list[tuple[str, int, int]]:
        """`(uri, start, end)` where the override files of module `key` name `declared` (they merge
        into its declaration: a rename must rename them too)."""
        out: list[tuple[str, int, int]] = []
        for name in self.effective_names(key):
            if not catalogue.is_override_file(name):
                continue
            uri = uri_of_path(os.path.join(key, name)) if os.path.isabs(key) else None
            for u in self._open_in(key):
                if file_name(u) == name:
                    uri = u
            if uri is None:
                continue
            if catalogue.file_kind(name) == catalogue.CONFIG_NATIVE:
                text = self.text_of(uri)
                decls = [(d.key, d.start, d.end) for d in parse_native(text).declarations] if text is not None else []
            else:
                view = self.view_of(uri)
                decls = [d for b in view[1].blocks for d in definitions(b, view[0])] if view is not None else []
            out.extend((uri, s, e) for k, s, e in decls if k == declared)
        return out

    def text_of(self, uri: str) -> str | None:
        """The text of `uri`: the open buffer's, else the file on disk's (None when unreadable)."""
        state = self._documents.get(uri)
        if state is not None:
            return state.text
        path = path_of_uri(uri)
        return read_text(path, self.max_file_bytes).text if path is not None else None

    def view_of(self, uri: str) -> tuple[str, FileView] | None:
        """The text (an open document's `TextBuffer`: slice it) and decoded body of JSON file `uri`:
        the open document's analysis, else the
        file on disk analysed now (kept for the last few files only: a request's, not a summary)."""
        state = self._documents.get(uri)
        if state is not None:
            # The text buffer, not a joined `str` (slices and indexing are all a view's readers do).
            return state.document.buffer, state.analysis.body  # type: ignore[return-value]
        path = path_of_uri(uri)
        return self._disk.view(path, self.max_file_bytes) if path is not None else None

    # -- positions in files that are not open -----------------------------------------------------

    def declarations_of_module(self, key: str) -> list[tuple[str, tuple, int, int]]:
        """`(uri, declaration key, start, end)` of every declaration of module `key`."""
        out = []
        for k, entries in self._index(key).items():
            for entry in entries:
                uri, _, start, end = self._place(entry)
                out.append((uri, k, start, end))
        return out

    def line_index(self, uri: str) -> LineIndex | None:
        """The `LineIndex` of `uri`: the open buffer's, else the file on disk's (read once per stamp);
        None when it cannot be read."""
        state = self._documents.get(uri)
        if state is not None:
            return state.line_index
        path = path_of_uri(uri)
        return self._disk.line_index(path, self.max_file_bytes) if path is not None else None

    def snapshot(self) -> Snapshot:
        return Snapshot(self)


#: Where `terraform init` installs modules, under a root module's directory.
_INSTALLED = os.sep + os.path.join(".terraform", "modules") + os.sep

#: How a local module source starts (a path relative to the calling module's directory).
_LOCAL_PREFIXES = catalogue.LOCAL_MODULE_PREFIXES


class OwnKeys:
    """`keys` (a document's declaration keys, their kind first) by kind, each kind gathered when it
    is first asked for: one C-speed pass over `keys`, remembered.

    Why on demand: what is asked is one kind at a time (`declared`: a hover's `required_providers`,
    completion; `Snapshot.language`: the version constraints), mostly a rare one. Every kind at once
    was 6 ms of a 5 MB file's first hover (a `Counter` of the kinds and one pass per kind), a hover
    that must answer within 50 ms (session 19). One set per kind filled key by key was 0.4 s of
    775,000 tiny outputs."""

    __slots__ = ("_keys", "_kinds", "_sets")

    def __init__(self, keys: Sequence[tuple]) -> None:
        self._keys = keys
        self._kinds: list | None = None
        self._sets: dict[str, frozenset] = {}

    def get(self, kind: str) -> frozenset:
        """The keys of `kind` (empty when there is none)."""
        got = self._sets.get(kind)
        if got is None:
            if self._kinds is None:
                self._kinds = list(map(itemgetter(0), self._keys))
            got = self._sets[kind] = frozenset(itertools.compress(self._keys, map(kind.__eq__, self._kinds)))
        return got


_NO_KEYS = OwnKeys(())
