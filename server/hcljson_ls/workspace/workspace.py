"""The workspace: its folders, every Terraform module under them, and the documents the editor has
open, laid over the files on disk. `Workspace` takes the events (settings, opens, edits, closes,
watched files) and decides what each makes stale; its parts each do one job:

    documents     OpenDocuments      the open buffers, their revisions, the stale set (`open_documents`)
    module_map    ModuleMap          the folders, a module per directory, which files count (`module_map`)
    declarations  DeclarationIndex   who declares and refers to what, per module (`declaration_index`)
    flows         FlowFacts          where sensitive and ephemeral values flow, per module (`flow_facts`)
    (schemas)     ProviderSchemaSettings   the provider schemas each module sees (`schema_settings`)

    Workspace(folders=(), engine="auto")
      .set_folders(paths) / .set_ignore_paths(patterns) / .set_engine(engine) / .set_engine_version(v)
      .scan() -> Iterator[ScanStep]       discover every module under the folders and summarize its
                                          files, one step at a time (the server runs it in the
                                          background, answering requests between steps)
      .open(uri, text, version, language_id) -> DocumentState | None
      .change(uri, version, changes, encoding) -> DocumentState | None
      .close(uri) -> bool
      .file_changed(uri, kind)            a watched file was created / changed / deleted (a module's
                                          files, or `.terraform/modules/modules.json`)
      .get(uri) / .uris() / len()         the open documents
      .take_stale() -> set[str]           open documents whose diagnostics changed through another
                                          file since the last call (to re-diagnose them)
      .snapshot() -> Snapshot             what features read
      .leftovers                          None, or a list where large temporaries of an analysis are
                                          left for the owner to free (the server: after its answer)

Contract
--------
* A module is a directory (`module_map`). Open buffers win over disk: an open document stands for
  the file of its name. An open variable definitions file (`*.tfvars.json`) belongs to the module
  of its directory but is none of its files: it declares nothing. Any change to a file of that
  module makes it stale (`take_stale`) with a new revision, since a variable's type may have
  changed without any declaration changing.
* `Module.revision` changes exactly when the set of the module's files or the declarations of one
  of them changed (an open document's are noticed by `DeclarationIndex.sync`, which the module's
  diagnostics run for every open document of the module first; a file on disk's by
  `file_changed`). The open documents of a module whose revision moved on (and the open test files
  of the module they test) are collected for `take_stale`: the server diagnoses them again, and a
  pulling client is told when what they report changed (`lsp.diagnostic_forms.ResultIds`).
* `Snapshot` is a read-only view for one request: valid until the next change, like the trees.
* Never raises on odd input (unknown URIs, non-file URIs, missing directories): they get a module
  of their own with no files on disk.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..terraform.definition import catalogue
from ..terraform.definition.language import LANGUAGE_CHANGED
from ..terraform.resolution.module_calls import VARIABLE_INPUT
from ..terraform.resolution.resolve import CHILD_KINDS
from ..terraform.schemas.provider_lookup import PROVIDER_USE
from .declaration_index import DeclarationIndex
from .document import DocumentState
from .files import file_name, is_file_on_disk, module_key, path_of_uri
from .flow_facts import FlowFacts
from .installed_modules import MANIFEST
from .module import DiskFile, Module
from .module_map import ModuleMap, ScanStep, module_under_test
from .open_documents import OpenDocuments
from .schema_settings import ProviderSchemaSettings
from .schemas import SchemaStore
from .scope import ModuleScope
from .snapshot import Snapshot

log = logging.getLogger(__name__)

#: Watched-file event kinds (the LSP `FileChangeType` values).
CREATED, CHANGED, DELETED = 1, 2, 3

#: Language ids that always mean "Terraform/OpenTofu JSON" (the VS Code extension's is the first).
LANGUAGE_IDS = frozenset({"terraform-json", "opentofu-json", "tofu-json"})

#: What a caller in another module reads of its child: its outputs, its input variables, and the
#: provider configurations it uses (whether it inherits one of the caller's).
_CHILD_SEEN = frozenset({("output", ""), (VARIABLE_INPUT, ""), (PROVIDER_USE, "")})


def is_ours(uri: str, language_id: str | None) -> bool:
    """A document the server analyses: a Terraform JSON language id, or a configuration, variable
    definitions or test file name (`*.tfvars.json`, `*.tftest.json`, whatever the language id)."""
    if language_id in LANGUAGE_IDS:
        return True
    return catalogue.file_kind(file_name(uri), ignore_case=True) in catalogue.JSON_KINDS


class Workspace(ProviderSchemaSettings):
    def __init__(self, folders: Sequence[str] = (), engine: str = "auto") -> None:
        self.documents = OpenDocuments()
        self.module_map = ModuleMap(self.documents)
        self.module_map.set_engine(engine)
        self.declarations = DeclarationIndex(self.module_map, self.documents, self._declared_anew,
                                             self._references_changed)
        self.engine_version: str | None = None  # the `engineVersion` setting (None: chosen per module)
        self._schemas = SchemaStore()
        self._schema_paths: tuple[str, ...] = ()
        self.flows = FlowFacts(self.module_map, self.documents, self._flow_may_differ)  # where marks flow
        #: Module directories that a module outside this workspace calls (`check` is told the modules of
        #: its run that other modules of the run call): never root modules (see `is_root_module`).
        self.called_modules: frozenset[str] = frozenset()
        #: None: what an analysis no longer needs is freed where it falls. A list: large pieces of it
        #: (a quick open's decoded blocks) are left here instead, for the owner to free when it likes
        #: (the server: once its answer is written, so that a client does not wait for the freeing).
        self.leftovers: list | None = None
        self.set_folders(folders)

    # -- settings ---------------------------------------------------------------------------------

    @property
    def folders(self) -> tuple[str, ...]:
        return self.module_map.folders

    @property
    def engine(self) -> str:
        """"auto", "terraform" or "opentofu" (`ModuleMap.engine`)."""
        return self.module_map.engine

    @property
    def max_file_bytes(self) -> int:
        """Files on disk above it are not read (the `maxFileSizeMB` setting)."""
        return self.documents.max_file_bytes

    @max_file_bytes.setter
    def max_file_bytes(self, value: int) -> None:
        self.documents.max_file_bytes = value

    def set_folders(self, paths: Iterable[str]) -> None:
        self.module_map.set_folders(paths)
        if self._schema_paths:  # relative schema files are found in the folders
            self.set_schema_files(self._schema_paths)

    def set_ignore_paths(self, patterns: Sequence[str]) -> bool:
        """`indexing.ignorePaths` (`ModuleMap.set_ignore_paths`): True when the patterns changed, so
        that a new scan finds what they no longer hide."""
        return self.module_map.set_ignore_paths(patterns)

    def set_engine(self, engine: str) -> None:
        """Change the engine rule (every module's files may change)."""
        if not self.module_map.set_engine(engine):
            return
        for module in self.module_map.all():
            self._bump(module)
            self._rescope_all(module)  # which files count, and whose functions exist, may differ

    def set_engine_version(self, version: str | None) -> None:
        """The `engineVersion` setting ("1.11", "1.16.0-rc1"; None or "": chosen per module from its
        `required_version`): every open document resolves its language sites again."""
        version = version or None
        if version == self.engine_version:
            return
        self.engine_version = version
        for module in self.module_map.all():
            self._bump(module)
            opened = self.documents.in_module(module.directory)
            for uri in opened:
                self.documents.get(uri).rescope(frozenset({LANGUAGE_CHANGED}))  # type: ignore[union-attr]
            self.documents.touch(opened)

    def scan(self) -> Iterator[ScanStep]:
        """`ModuleMap.scan`: every module under the folders, one step at a time."""
        return self.module_map.scan()

    # -- documents --------------------------------------------------------------------------------

    def open(self, uri: str, text: str, version: int, language_id: str) -> DocumentState | None:
        """Store and parse a newly opened document; None (and nothing stored) when it is not ours.
        A document opened again as it is open (the same version, language id and text: the server
        handles the `didOpen` that `lsp.first_open` opened in this workspace before it) keeps its
        state and everything found from it: nothing is analysed twice."""
        if not is_ours(uri, language_id):
            log.debug("ignoring %s (language id %r)", uri, language_id)
            self._forget(uri)
            return None
        state = self.documents.get(uri)
        if (state is not None and state.version == version and state.document.language_id == language_id
                and state.text == text):
            return state
        state = DocumentState.open(uri, text, version, language_id, ModuleScope(self, uri), self.leftovers)
        self.documents.put(state)
        self.declarations.reopened(uri)
        self._bump(self.module_map.module(module_key(uri)), but=uri)  # its buffer now stands for the file on disk
        return state

    def change(self, uri: str, version: int, changes: Iterable[Any], encoding: str) -> DocumentState | None:
        state = self.documents.get(uri)
        if state is None:
            return None
        state.apply_changes(changes, encoding, version)
        self.documents.touch((uri,))
        tfvars = self.documents.variable_files()
        if tfvars and uri not in tfvars:
            self._values_may_differ(module_key(uri))
        if self.flows.active:
            self._flow_may_differ(module_key(uri), but=uri)
        return state

    def close(self, uri: str) -> bool:
        """Forget the buffer of `uri` (the file on disk, if any, stands for it again); True when it
        was open."""
        if uri not in self.documents:
            return False
        before = self.declarations.keys_of(uri)
        self._forget(uri)
        module = self.module_map.module(module_key(uri))
        disk_file = module.disk.get(file_name(uri))
        after: frozenset = frozenset()
        if disk_file is not None:
            disk_file.summary = None  # the buffer may have been unsaved: read it again
            after = frozenset(self.module_map.summary(module, disk_file).keys)
        self._bump(module)
        self._declarations_changed(module, before ^ after)
        return True

    def _forget(self, uri: str) -> None:
        self.flows.forget(uri)
        self.declarations.forget(uri)
        self.documents.drop(uri)

    def get(self, uri: str) -> DocumentState | None:
        return self.documents.get(uri)

    def uris(self) -> list[str]:
        return self.documents.uris()

    def __len__(self) -> int:
        return len(self.documents)

    def results_changed(self, uri: str) -> None:
        """The diagnostics of open `uri` changed without a change of its text (a quick open found
        wrong: `features.diagnostics.prepare`): it gets a new revision and is stale."""
        if uri in self.documents:
            self.documents.touch((uri,))
            self.documents.stale((uri,))

    def take_stale(self) -> set[str]:
        """The open documents whose diagnostics may have changed because another file of their
        module changed, since the last call."""
        return self.documents.take_stale()

    def snapshot(self) -> Snapshot:
        return Snapshot(self)

    def settle_steps(self, uri: str) -> Iterator[None]:
        """What the first request after the build of quick-opened `uri` would do first, a step each,
        for the background task that built it: its declarations synced (the tree's set compared
        with the quick open's: 33 ms at 20 MB, 48,000 keys equal but other objects), what the other
        files of its module declare (`others_index`: the module's key index made again, dropped by
        that sync, 30 ms; nothing for a module of one file), and what its module says of it
        (`module_diagnostics`, remembered per declarations). Each answers as it would then."""
        if uri not in self.documents:
            return
        self.declarations.sync(uri)
        yield
        self.declarations.others_index(module_key(uri), file_name(uri))
        yield
        self.declarations.module_diagnostics(uri)

    # -- scopes -----------------------------------------------------------------------------------

    def test_scope(self, uri: str) -> ModuleScope | None:
        """What the module under test of test file `uri` declares (`module_under_test`, its open
        documents' declarations brought up to date first), or None when it has no configuration file
        (a test file alone is never taken for a whole module)."""
        return self.directory_scope(uri, module_under_test(uri))

    def directory_scope(self, uri: str, key: str) -> ModuleScope | None:
        """What module directory `key` declares, for references of `uri` made from outside it (a test
        file's), its open documents' declarations brought up to date first; None when it has no
        configuration file."""
        if not self.module_map.effective_names(key):
            return None
        if key != module_key(uri):
            for other in self.documents.in_module(key):
                self.declarations.sync(other)  # what its open documents declare now
        return ModuleScope(self, uri, key)

    def is_root_module(self, key: str) -> bool:
        """Whether module `key` is a root module: no module of the workspace calls it with a local
        source (`callers`), and it is not among `called_modules`."""
        return key not in self.called_modules and not self.declarations.callers(key)

    # -- what makes what stale ------------------------------------------------------------------

    def _bump(self, module: Module, but: str | None = None) -> None:
        module.bump()
        self.documents.stale(self.documents.in_module(module.directory, but))
        self.documents.stale(u for u in self.documents.test_files()
                             if u != but and module_under_test(u) == module.directory)

    def _touch_stale(self, uris: set[str]) -> None:
        self.documents.touch(uris)
        self.documents.stale(uris)

    def _values_may_differ(self, key: str) -> None:
        """A file of module `key` changed: its open tfvars documents are checked again (a variable's
        type may have changed without any declaration key changing: `Module.revision` stays)."""
        self._touch_stale({u for u in self.documents.variable_files() if module_key(u) == key})

    def _flow_may_differ(self, key: str, but: str | None = None) -> None:
        """A file of module `key` changed: where marks flow (`terraform.flow`) may have changed
        without any declaration changing, so when the module's facts hold marks its other open
        documents and those of the modules calling it are checked again."""
        if key not in self.flows.active:
            return
        stale = self.documents.in_module(key, but)
        for caller, _ in self.declarations.callers(key):
            stale |= self.documents.in_module(caller)
        self._touch_stale(stale)

    def _references_changed(self, key: str, but: str | None = None) -> None:
        """What the files of module `key` refer to changed (no declaration did): its open documents
        (but `but`) get a new revision and are stale."""
        self._touch_stale(self.documents.in_module(key, but))

    def _declared_anew(self, module: Module, changed: frozenset, uri: str) -> None:
        """Open `uri` of `module` declares something else now (`DeclarationIndex.sync`)."""
        self._bump(module, but=uri)
        self._declarations_changed(module, changed, but=uri)

    def _declarations_changed(self, module: Module, changed: frozenset, but: str | None = None) -> None:
        """What `module` declares changed by `changed`: its open documents (but `but`) resolve
        again what uses those keys, and documents of other modules resolve outputs again."""
        if not changed:
            return
        self._bump(module, but)
        for uri in self.documents.in_module(module.directory, but):
            self.documents.get(uri).rescope(changed)  # type: ignore[union-attr]
        self._tell_callers(module, changed, but)

    def _tell_callers(self, module: Module, changed: Iterable[tuple], but: str | None = None, force: bool = False) -> None:
        """When `changed` keys of `module` are what a caller in another module sees of its child
        (outputs and their deprecation, input variables, a call's source and `providers`, the
        provider configurations it uses and its provider blocks), or with `force` (the
        module directory appeared or went), the open documents of other modules resolve those again."""
        if force or any(k[0] in CHILD_KINDS for k in changed):
            for uri, state in self.documents.items():
                if uri != but and module_key(uri) != module.directory:
                    state.rescope(_CHILD_SEEN)
                    self.documents.stale((uri,))

    def _rescope_all(self, module: Module) -> None:
        """What a file declared is not known: resolve every reference of the module again."""
        for uri in self.documents.in_module(module.directory):
            self.documents.get(uri).restart_analysis()  # type: ignore[union-attr]  # against the module as it is

    # -- files on disk ----------------------------------------------------------------------------

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
        self.documents.disk.forget(path)
        # Trust the disk, not the event: a "created" or "changed" file that is not there is gone (no
        # phantom file that declares nothing, or hides another by its name), and a "deleted" one
        # that is there was replaced.
        kind = CHANGED if is_file_on_disk(path) else DELETED
        vanished = kind == DELETED and not os.path.lexists(path)
        if vanished and any(k == path or k.startswith(path + os.sep) for k in self.module_map.keys()):
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
        module = self.module_map.add(key)
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
        if any(path_of_uri(u) == path for u in self.documents.in_module(key)):
            return  # the open buffer wins; the file is read again when it closes
        new = self.module_map.read(module, disk_file)
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
        for key in self.module_map.keys():
            if key.startswith(installed + os.sep) and not self.documents.in_module(key):
                self.module_map.pop(key)
        module = self.module_map.get(root)
        if module is not None:
            self._bump(module)
        touched = set()
        for uri, state in self.documents.items():
            key = module_key(uri)
            if key == root or key.startswith(installed + os.sep):
                state.rescope(_CHILD_SEEN)
                touched.add(uri)
        self._touch_stale(touched)

    def _directory_deleted(self, path: str) -> None:
        for key in [k for k in self.module_map.keys() if k == path or k.startswith(path + os.sep)]:
            module = self.module_map.pop(key)
            if module.disk:
                self.documents.stale(self.documents.in_module(key))
                self._tell_callers(module, (), force=True)  # a call's local source may name nothing now
