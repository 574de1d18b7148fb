"""Who declares what, and where, in each module: the indexes a module's files are read against, each
remembered with what it was made from.

    DeclarationIndex(module_map, documents, declarations_changed, references_changed)
      .sync(uri)                      notice whether open `uri` declares something else now
      .keys_of(uri) / .reopened(uri) / .forget(uri)
      .key_index(key)                 declaration key -> the names of the files that declare it
      .others_index(key, name)        the same, as file `name` reads it (empty for a module of one file)
      .declared(uri, kind)            the keys of `kind` in the module of `uri`, its own current ones too
      .own_keys(uri) -> OwnKeys       the keys of open `uri` by kind
      .declaration_sites(key, declared) / .declaration_sites_of(key, keys) / .declarations_of_module(key)
      .reference_sites(key, declared) / .referenced(key, but=None)
      .module_diagnostics(uri)        declarations made twice across files; overrides without a base
      .callers(child)                 the modules that call directory `child`
      .override_declarations(key, declared)

Contract
--------
* An index of a module is remembered per `Module.revision`; what open `uri` adds is remembered
  per its `declarations_stamp` (an edit that declares nothing new reuses everything).
* The indexes read open documents as they were last synchronised (`sync`), never analysing one:
  this is what the analysis of a document reads. The readers that need the current declarations
  (`declaration_sites`, `module_diagnostics`) synchronise the module's open documents first.
* Finding that what a document declares (or what a module refers to) changed is reported to the
  owner (`declarations_changed(module, changed keys, uri)`, `references_changed(key, but)`), which
  decides what that makes stale.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from typing import Any

from ..diagnostic import Diagnostic
from ..terraform.definition import catalogue
from ..terraform.nativehcl.native import parse_native
from ..terraform.resolution.references import Reference, name_step, output_step, subject
from ..terraform.rules.declarations import duplicates_across_files, overrides_without_base
from ..terraform.rules.validate import REPEATABLE, definitions
from .files import file_name, module_key, uri_of_path
from .installed_modules import installed_module_dir
from .module import Module
from .module_map import ModuleMap, module_under_test
from .open_documents import OpenDocuments

#: Where `terraform init` installs modules, under a root module's directory.
_INSTALLED = os.sep + os.path.join(".terraform", "modules") + os.sep


class DeclarationIndex:
    """The module-wide indexes of declarations and references, over the module map and the open
    documents."""

    def __init__(self, module_map: ModuleMap, documents: OpenDocuments,
                 declarations_changed: Callable[[Module, frozenset, str], None],
                 references_changed: Callable[[str, str | None], None]) -> None:
        self._modules = module_map
        self._documents = documents
        self._declarations_changed = declarations_changed
        self._references_changed = references_changed
        self._seen: dict[str, tuple[int, int]] = {}  # uri -> its declarations stamp when last synchronised
        self._keys_of: dict[str, frozenset] = {}  # uri -> its declaration keys when last synchronised
        self._own_keys: dict[str, tuple] = {}  # uri -> (declarations stamp, OwnKeys)
        self._declared: dict[str, tuple] = {}  # uri -> ((module revision, own keys, kind), keys)
        self._across: dict[str, tuple[tuple, dict]] = {}  # uri -> (stamp, key -> other places), see module_diagnostics
        self._referenced: dict[str, tuple[tuple, frozenset]] = {}  # module -> (its files' parts, union)

    # -- what open documents declare ----------------------------------------------------------------

    def sync(self, uri: str) -> None:
        """Notice whether the analysis of open `uri` changed what it declares; if so, tell the owner
        (`declarations_changed`). A first sync (no keys of `uri` remembered: it was never synchronised,
        or forgotten since) is told too, with the keys that differ from the file's on disk (often
        none): its buffer now stands for that file."""
        state = self._documents.get(uri)
        if state is None:
            return
        stamp = state.declarations_stamp
        if self._seen.get(uri) == stamp:
            return
        self._seen[uri] = stamp
        module = self._modules.module(module_key(uri))
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
            before = frozenset(self._modules.summary(module, disk_file).keys) if disk_file is not None else frozenset()
        self._keys_of[uri] = keys
        self._declarations_changed(module, before ^ keys, uri)

    def _sync_module(self, key: str) -> None:
        for other in self._documents.in_module(key):
            self.sync(other)

    def keys_of(self, uri: str) -> frozenset:
        """The declaration keys of open `uri` when last synchronised (empty before)."""
        return self._keys_of.get(uri, frozenset())

    def reopened(self, uri: str) -> None:
        """`uri` was opened with a new state: the next `sync` compares what it declares."""
        self._seen.pop(uri, None)

    def forget(self, uri: str) -> None:
        """`uri` is no longer open: nothing of it is remembered."""
        for cache in (self._seen, self._keys_of, self._own_keys, self._declared, self._across):
            cache.pop(uri, None)

    # -- the indexes --------------------------------------------------------------------------------

    def _places(self, key: str) -> dict[tuple, list[tuple[str, str, Any]]]:
        """key -> [(uri, file name, where)] over the module's effective files, `where` an index into
        an open document's definitions or a `Declaration`; remembered per module revision."""
        module = self._modules.module(key)
        cached = module.index_cache
        if cached is not None and cached[0] == module.revision:
            return cached[1]
        open_docs = self._documents.by_name(key)
        index: dict[tuple, list[tuple[str, str, Any]]] = {}
        for name in self._modules.effective_names(key):
            if catalogue.is_override_file(name):
                continue
            uri = open_docs.get(name)
            if uri is not None:
                keys, _ = self._documents.get(uri).definitions()  # type: ignore[union-attr]
                for i, k in enumerate(keys):
                    index.setdefault(k, []).append((uri, name, i))
                continue
            disk_file = module.disk.get(name)
            if disk_file is None:
                continue
            file_uri = uri_of_path(os.path.join(key, name))
            for d in self._modules.summary(module, disk_file).declarations:
                index.setdefault(d.key, []).append((file_uri, name, d))
        module.index_cache = (module.revision, index)
        return index

    def _place(self, entry: tuple[str, str, Any]) -> tuple[str, str, int, int]:
        uri, name, where = entry
        if isinstance(where, int):
            _, place = self._documents.get(uri).definitions()  # type: ignore[union-attr]
            start, end = place(where)
        else:
            start, end = where.start, where.end
        return uri, name, start, end

    def others_index(self, key: str, name: str) -> dict[tuple, frozenset[str]]:
        """`key_index` of module `key` as the analysis of its file `name` reads it (what the other
        files declare): empty, without building it, when `name` is the module's only file. The index
        holds every key of that file: ~5 ms at 5 MB, which the first misspelt reference in an open
        document waited for (session 23)."""
        names = self._modules.names(key)
        if len(names) == 1 and name in names:
            return {}
        return self.key_index(key)

    def key_index(self, key: str) -> dict[tuple, frozenset[str]]:
        """declaration key -> the names of the files of module `key` that declare it, from the
        files on disk and what open documents declared when last synchronised (never analysing one:
        this is what the analysis of a document reads); remembered per module revision."""
        module = self._modules.module(key)
        cached = module.key_index_cache
        if cached is not None and cached[0] == module.revision:
            return cached[1]
        open_docs = self._documents.by_name(key)
        # Most keys are declared by one file, or the same few: one frozenset per distinct set of
        # names (`shared`) rather than a set per key (216 B each: 2.2 MB for a 4 MB CDKTF-like file).
        index: dict[tuple, frozenset[str]] = {}
        shared: dict[frozenset[str], frozenset[str]] = {}
        for name in self._modules.effective_names(key):
            uri = open_docs.get(name)
            keys: Iterable[tuple] | None = self._keys_of.get(uri) if uri is not None else None
            if keys is None:
                disk_file = module.disk.get(name)
                keys = self._modules.summary(module, disk_file).keys if disk_file is not None else ()
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

    def declared(self, uri: str, kind: str) -> frozenset:
        """The declaration keys of `kind` in the module of `uri`, its own current ones included;
        remembered per (module revision, its own declarations), so completing in a file with
        thousands of resources does not gather them again at every keystroke. For a test file: the
        module it tests (`module_under_test`), with its own runs and variables."""
        key = module_under_test(uri)
        own = self.own_keys(uri)
        module = self._modules.module(key)
        stamp = (module.revision, id(own), kind)
        cached = self._declared.get(uri)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        if uri in self._documents and key == module_key(uri) and self._modules.effective_names(key) == [file_name(uri)]:
            # The module is this open document alone: what it declares now. (`key_index` holds the same
            # keys, as last synchronised: building it was 3-4 ms of a 5 MB file's first hover, and
            # ~12 ms at 20 MB, and going through it 2-10 ms more, session 19.)
            keys = own.get(kind)
        else:
            keys = frozenset(k for k in self.key_index(key) if k[0] == kind) | own.get(kind)
        self._declared[uri] = (stamp, keys)
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

    # -- where declarations are, who refers to them ---------------------------------------------------

    def declaration_sites(self, key: str, declared: tuple) -> list[tuple[str, int, int]]:
        """`(uri, start, end)` of every declaration of `declared` in module `key` (the header key or a
        local's name, as `terraform.validate.definitions` gives them)."""
        self._sync_module(key)
        return [(uri, start, end) for uri, _, start, end in map(self._place, self._places(key).get(declared, ()))]

    def declaration_sites_of(self, key: str, keys: Iterable[tuple]) -> dict[tuple, list[tuple[str, int, int]]]:
        """`declaration_sites` of each of `keys` at once (the open documents brought up to date once)."""
        self._sync_module(key)
        index = self._places(key)
        return {k: [(uri, start, end) for uri, _, start, end in map(self._place, index.get(k, ()))] for k in keys}

    def declarations_of_module(self, key: str) -> list[tuple[str, tuple, int, int]]:
        """`(uri, declaration key, start, end)` of every declaration of module `key`."""
        out = []
        for k, entries in self._places(key).items():
            for entry in entries:
                uri, _, start, end = self._place(entry)
                out.append((uri, k, start, end))
        return out

    def _files(self, key: str) -> Iterator[tuple[str, Any, Any]]:
        """`(name, open uri or None, disk file or None)` of each effective file of module `key`."""
        module = self._modules.module(key)
        open_docs = self._documents.by_name(key)
        for name in self._modules.effective_names(key):
            uri = open_docs.get(name)
            yield name, uri, None if uri is not None else module.disk.get(name)

    def reference_sites(self, key: str, declared: tuple) -> list[tuple[str, int, int, int, int]]:
        """`(uri, start, end, name_start, name_end)` of every reference to `declared` in the files of
        module `key`, open or not (override files included: they refer like any other file)."""
        module = self._modules.module(key)
        out: list[tuple[str, int, int, int, int]] = []
        for name, uri, disk_file in self._files(key):
            if uri is not None:
                out.extend(_reference_sites(uri, self._documents.get(uri).analysis.body, declared))  # type: ignore[union-attr]
            elif disk_file is not None:
                file_uri = uri_of_path(os.path.join(key, name))
                out.extend((file_uri, *site) for site in self._modules.summary(module, disk_file).references.get(declared, ()))
        return out

    def referenced(self, key: str, but: str | None = None) -> frozenset:
        """Every declaration key some file of module `key` refers to (`reference_sites`' files:
        open buffers over the files on disk, override files included; variable definitions and
        test files are none of them): the union of each open document's `FileResult.named` and
        each other file's summary, remembered until one of these objects changes (an edit that
        adds or removes no reference keeps them all). When the union differs from the one found
        last, the owner is told (`references_changed(key, but)`: the unused hints of the module's
        other open documents may differ)."""
        module = self._modules.module(key)
        parts: list[Any] = []
        for _, uri, disk_file in self._files(key):
            if uri is not None:
                parts.append(self._documents.get(uri).analysis.named())  # type: ignore[union-attr]
            elif disk_file is not None:
                parts.append(self._modules.summary(module, disk_file))
        cached = self._referenced.get(key)
        if cached is not None and len(cached[0]) == len(parts) and all(a is b for a, b in zip(cached[0], parts)):
            return cached[1]
        sets = [p if isinstance(p, frozenset) else p.references.keys() for p in parts]
        union = sets[0] if len(sets) == 1 and isinstance(sets[0], frozenset) else frozenset().union(*sets)
        self._referenced[key] = (tuple(parts), union)
        if cached is not None and cached[1] != union:
            self._references_changed(key, but)
        return union

    def override_declarations(self, key: str, declared: tuple) -> list[tuple[str, int, int]]:
        """`(uri, start, end)` where the override files of module `key` name `declared` (they merge
        into its declaration: a rename must rename them too)."""
        out: list[tuple[str, int, int]] = []
        open_docs = self._documents.by_name(key)
        for name in self._modules.effective_names(key):
            if not catalogue.is_override_file(name):
                continue
            uri = open_docs.get(name) or (uri_of_path(os.path.join(key, name)) if os.path.isabs(key) else None)
            if uri is None:
                continue
            if catalogue.file_kind(name) == catalogue.CONFIG_NATIVE:
                text = self._documents.text_of(uri)
                decls = [(d.key, d.start, d.end) for d in parse_native(text).declarations] if text is not None else []
            else:
                view = self._documents.view_of(uri)
                decls = [d for b in view[1].blocks for d in definitions(b, view[0])] if view is not None else []
            out.extend((uri, s, e) for k, s, e in decls if k == declared)
        return out

    def callers(self, child: str) -> list[tuple[str, str]]:
        """`(module directory, module call name)` of every known module that calls directory `child`
        with a local source (`source: "./..."`), or whose `terraform init` installed it there
        (`module_map.child_directory`)."""
        out = []
        for key in self._modules.keys():
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

    # -- across files ---------------------------------------------------------------------------------

    def module_diagnostics(self, uri: str) -> list[Diagnostic]:
        """Diagnostics of open `uri` that come from other files of its module: declarations that
        another file declares too; in an override file, what it overrides that no primary file
        declares. Empty for a file the engine's rule leaves out of the module."""
        state = self._documents.get(uri)
        if state is None:
            return []
        key = module_key(uri)
        self._sync_module(key)  # the index reads open documents' definitions by position
        name = file_name(uri)
        effective = self._modules.effective_names(key)
        if name not in effective:
            return []
        if catalogue.is_override_file(name):  # it declares nothing: what it overrides must exist
            return overrides_without_base(state.text, state.analysis.body.blocks, self._places(key).__contains__)
        # Which declarations are made elsewhere too changes only with the declarations (this file's or
        # the module's): remembered per (engine, definitions revision, module revision), so an edit
        # that declares nothing new costs nothing here when there is no duplicate (and re-places
        # the few there are otherwise).
        module = self._modules.module(key)
        stamp = (*state.declarations_stamp, module.revision)
        remembered = self._across.get(uri)
        if remembered is not None and remembered[0] == stamp:
            if not remembered[1]:
                return []
        else:
            keys, _ = state.definitions()
            # The positions index (`_places`: a list and a tuple per key, ~200 B a declaration) is
            # built only when `key_index` (names per key, shared sets) says another file may declare
            # one of these keys: a module of one file never needs it. 75,000 tiny outputs (3.7 MB):
            # 10.2 MB less after the open's analysis (tracemalloc). Nor does it need `key_index`, which
            # holds every key of the file (3-4 ms of a 5 MB open, 12-18 ms at 20 MB, session 19).
            names = self.key_index(key) if keys and len(effective) > 1 else {}
            # Only the keys that can be duplicates: a fact every resource states (the provider
            # configuration it uses, `validate.REPEATABLE`) is one key of thousands of declarations,
            # and listing its other places once per declaration was quadratic (a variable renamed in
            # a module of a 5 MB file with 5,750 resources: 0.5 s, `bench_module.py`).
            keys = [k for k in keys if k[0] not in REPEATABLE]
            maybe = any(n is not None and (len(n) > 1 or name not in n) for n in map(names.get, keys))
            index = self._places(key) if maybe else {}
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


def _reference_sites(uri: str, body: Any, declared: tuple) -> Iterator[tuple[str, int, int, int, int]]:
    """The references to `declared` in the decoded `body` of open `uri`, as `reference_sites` gives
    them."""
    if declared[0] == "module-output":
        for ref in body.refs(uses=("module", declared[1])):
            step = output_step(ref) if type(ref) is Reference and ref.root == "module" else None
            if step is not None and ref.steps[0].name == declared[1] and step.name == declared[2]:
                yield (uri, *ref.range, step.start, step.end)
        return
    for ref in body.refs(uses=declared):
        if type(ref) is Reference:
            found = subject(ref)
            step = name_step(ref) if found is not None and found[0] == declared else None
            if step is not None:
                yield (uri, *ref.range, step.start, step.end)


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
