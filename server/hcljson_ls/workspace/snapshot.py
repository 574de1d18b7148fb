"""`Snapshot`: what a feature reads for one request, a read-only view of the `Workspace` (its open
documents, their modules and module-wide results) valid until the next change. Features never
change the workspace and see nothing else of it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, cast

from ..diagnostic import Diagnostic
from ..hcljson.incremental import FileView
from ..terraform.analysis import provider_sources
from ..terraform.definition import catalogue
from ..terraform.definition.language import CONSTRAINT_KIND, Language
from ..terraform.filekinds.tfvars import is_tfvars
from ..terraform.nativehcl.native import declaration_details
from ..terraform.resolution.module_calls import ChildVariable, child_variables
from ..terraform.resolution.resolve import module_language
from ..terraform.rules.flow import FileFlow
from ..text.line_index import LineIndex
from .document import AroundDocument, DocumentState
from .files import file_name, list_directory, module_key, relative_name, uri_of_path
from .module_map import child_directory, module_under_test
from .scope import ModuleScope

if TYPE_CHECKING:
    from .workspace import Workspace


_NONE: dict = {}


class Snapshot:
    """What a feature reads: the open documents, their modules, and module-wide results, as they
    are now (valid until the next change; features never change it)."""

    __slots__ = ("_workspace", "_around")

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self._around: dict[str, AroundDocument] = _NONE  # (never changed: `around` makes a new one)

    def document(self, uri: str) -> DocumentState | None:
        found = self._around.get(uri)
        if found is not None:
            return cast(DocumentState, found)  # it answers as a state does, or raises `NeedsTree`
        return self._workspace.get(uri)

    def around(self, uri: str, offset: int) -> Snapshot | None:
        """This snapshot with open document `uri` seen around `offset` alone
        (`DocumentState.around`: before its tree is built), or None when it cannot be: a feature
        run on it answers exactly what it answers on the whole document, or raises
        `hcljson.window.NeedsTree` (`features.around`)."""
        state = self._workspace.get(uri)
        view = state.around(offset) if state is not None else None
        if state is None or view is None:
            return None
        local = Snapshot(self._workspace)
        local._around = {**self._around, uri: AroundDocument(state, view)}
        return local

    def module_files(self, uri: str) -> list[str]:
        """The names of the files of the module `uri` belongs to (see `ModuleMap.effective_names`)."""
        return self._workspace.module_map.effective_names(module_key(uri))

    def module_diagnostics(self, uri: str) -> list[Diagnostic]:
        return self._workspace.declarations.module_diagnostics(uri)

    def module_key(self, uri: str) -> str:
        """The directory of the module of `uri` (for a non-file URI: the URI itself)."""
        return module_key(uri)

    def declaration_sites(self, uri: str, declared: tuple) -> list[tuple[str, int, int]]:
        """Where the module of `uri` declares `declared`: `(uri, start, end)` each."""
        return self._workspace.declarations.declaration_sites(module_key(uri), declared)

    def declaration_sites_of(self, uri: str, keys: list[tuple]) -> dict[tuple, list[tuple[str, int, int]]]:
        """`declaration_sites` of each of `keys`, asked at once."""
        return self._workspace.declarations.declaration_sites_of(module_key(uri), keys)

    def reference_sites(self, uri: str, declared: tuple) -> list[tuple[str, int, int, int, int]]:
        """Where the module of `uri` refers to `declared`: `(uri, start, end, name_start, name_end)`."""
        return self._workspace.declarations.reference_sites(module_key(uri), declared)

    def referenced(self, uri: str) -> frozenset:
        """Every declaration key some configuration file of the module of `uri` refers to (the keys
        of `reference_sites`; `DeclarationIndex.referenced`): the same object while none comes or goes.
        (When it changed, the module's other open documents are stale: their hints may differ.)"""
        return self._workspace.declarations.referenced(module_key(uri), uri)

    def module_call_child(self, uri: str, name: str) -> str | None:
        """The directory of the module that module call `name` of the module of `uri` calls (a local
        `source`, or where `terraform init` installed it), or None when it is not known."""
        state = self._workspace.get(uri)
        own = frozenset(state.definitions()[0]) if state is not None else frozenset()
        scope = ModuleScope(self._workspace, uri)
        return child_directory(scope._key, name, scope._source(name, own))

    def child_variables(self, directory: str) -> list[tuple[ChildVariable, tuple[str, int, int] | None]]:
        """The input variables module directory `directory` declares, by name: each
        `module_calls.ChildVariable` (name, type as written, required) with where it is declared
        (`(uri, start, end)` of its name, or None) -- what a caller's diagnostics, completion, hover
        and navigation of module inputs read. Descriptions and defaults: `declaration_sites` and
        `view_of` / `native.declaration_details` at that place."""
        out = []
        for name, variable in sorted(child_variables(self._workspace.declarations.key_index(directory)).items()):
            sites = self._workspace.declarations.declaration_sites(directory, ("variable", name))
            out.append((variable, sites[0] if sites else None))
        return out

    def child_outputs(self, directory: str) -> dict[str, tuple[str, int, int]]:
        """output name -> where module directory `directory` declares it."""
        out = {}
        for k in self._workspace.declarations.key_index(directory):
            if k[0] == "output":
                sites = self._workspace.declarations.declaration_sites(directory, k)
                if sites:
                    out[k[1]] = sites[0]
        return out

    def display_name(self, uri: str) -> str:
        """How a message names the file of `uri`: its path relative to the workspace folder holding
        it (`files.relative_name`), else its bare name."""
        return relative_name(uri, self._workspace.folders)

    def text_of(self, uri: str) -> str | None:
        return self._workspace.documents.text_of(uri)

    def test_scope(self, uri: str) -> Any:
        """The `resolve.Scope` of the module test file `uri` tests, or None (`Workspace.test_scope`)."""
        return self._workspace.test_scope(uri)

    def module_under_test(self, uri: str) -> str:
        """The directory of the module test file `uri` tests (`module_map.module_under_test`)."""
        return module_under_test(uri)

    def directory_scope(self, uri: str, directory: str) -> Any:
        """The `resolve.Scope` of module directory `directory` for references of `uri` made from
        outside it, or None (`Workspace.directory_scope`)."""
        return self._workspace.directory_scope(uri, directory)

    def declared(self, uri: str, kind: str) -> frozenset:
        """Every declaration key of `kind` in the module of `uri`: its own current ones (open `uri`)
        and the other files' (`DeclarationIndex.key_index`)."""
        return self._workspace.declarations.declared(uri, kind)

    def module_outputs(self, uri: str, name: str) -> list[str]:
        """The outputs of module call `name` of the module of `uri`, when its child is known (a local
        source, or where `terraform init` installed it: `module_call_child`)."""
        state = self._workspace.get(uri)
        own = frozenset(state.definitions()[0]) if state is not None else frozenset()
        return sorted(ModuleScope(self._workspace, uri).module_outputs(name, own) or ())

    def resource_arguments(self, uri: str, key: tuple) -> set[str]:
        """The argument and nested block names written in the declaration of `key` (JSON files)."""
        out: set[str] = set()
        for site_uri, start, _ in self._workspace.declarations.declaration_sites(module_key(uri), key):
            if catalogue.file_kind(file_name(site_uri)) == catalogue.CONFIG_NATIVE:
                out |= set(declaration_details(self._workspace.documents.text_of(site_uri) or "", start))
                continue
            view = self.view_of(site_uri)
            if view is None:
                continue
            for block in view[1].blocks_at(start):
                if block.header_range[0] <= start < block.header_range[1]:
                    out |= {a.name for a in block.body.attributes if a.name != "//"} | {b.type_name for b in block.body.blocks}
        return out

    def variable_files(self, uri: str) -> list[str]:
        """The URIs of the variable definitions files (`*.tfvars.json`) in the directory of the
        module of `uri`, open or on disk, in name order: the values Terraform gives its variables."""
        key = module_key(uri)
        found = {u for u in self._workspace.uris() if is_tfvars(u) and module_key(u) == key}
        if os.path.isabs(key):
            listing = list_directory(key)
            found |= {uri_of_path(os.path.join(key, n)) for n in listing.files if is_tfvars(n)}
        return sorted(found, key=file_name)

    def callers(self, uri: str) -> list[tuple[str, str]]:
        """`(module directory, call name)` of the modules that call the module of `uri`."""
        return self._workspace.declarations.callers(module_key(uri))

    def module_flow(self, uri: str) -> tuple[FileFlow, list[FileFlow]] | None:
        """The flow facts (`terraform.flow`) of configuration file `uri` and of every JSON file of
        its module, or None: `uri` is no file of its module (an override file, a file the engine
        leaves out), or the module cannot be judged (`FlowFacts.of_module`)."""
        facts = self._workspace.flows.of_module(module_key(uri))
        if facts is None:
            return None
        own = next((f for u, f in facts if u == uri), None)
        return None if own is None else (own, [f for _, f in facts])

    def child_flow_variables(self, uri: str, name: str) -> dict[str, bool] | None:
        """variable name -> declared ephemeral, for the JSON files of the local child module that
        module call `name` of the module of `uri` calls; None when that module is not known or has a
        native file (whose variables this does not read)."""
        directory = self.module_call_child(uri, name)
        if directory is None:
            return None
        names = self._workspace.module_map.effective_names(directory)
        if any(catalogue.file_kind(n) != catalogue.CONFIG_JSON for n in names):
            return None
        facts = self._workspace.flows.of_module(directory, always=True)
        if facts is None:
            return None
        out: dict[str, bool] = {}
        for _, f in facts:
            for variable, marks in f.variables:
                out[variable] = out.get(variable, False) or "ephemeral" in marks
        return out

    def is_root_module(self, uri: str) -> bool:
        """Whether the module of `uri` is a root module (`Workspace.is_root_module`)."""
        return self._workspace.is_root_module(module_key(uri))

    def declaration_sites_in(self, directory: str, declared: tuple) -> list[tuple[str, int, int]]:
        """`declaration_sites` in module directory `directory` (a test file's module under test)."""
        return self._workspace.declarations.declaration_sites(directory, declared)

    def reference_sites_in(self, directory: str, declared: tuple) -> list[tuple[str, int, int, int, int]]:
        """`reference_sites` in module directory `directory`."""
        return self._workspace.declarations.reference_sites(directory, declared)

    def override_declarations(self, uri: str, declared: tuple) -> list[tuple[str, int, int]]:
        return self._workspace.declarations.override_declarations(module_key(uri), declared)

    def view_of(self, uri: str) -> tuple[str, FileView] | None:
        found = self._around.get(uri)
        if found is not None:
            return found.document.buffer, found.analysis.body
        return self._workspace.documents.view_of(uri)

    def is_opentofu(self, uri: str) -> bool:
        return self._workspace.module_map.is_opentofu(module_key(uri))

    def language(self, uri: str) -> Language:
        """The engine and version the module of `uri` is read by (`resolve.module_language`). Its own
        version constraints come from `own_keys`, kept while its declarations stay: an edit or a request
        elsewhere in a large document does not gather its definitions again."""
        own = self._workspace.declarations.own_keys(uri).get(CONSTRAINT_KIND)
        return module_language(own, ModuleScope(self._workspace, uri))

    def engine(self, uri: str) -> str:
        """"opentofu" or "terraform": who reads the module of `uri`."""
        return "opentofu" if self.is_opentofu(uri) else "terraform"

    def provider_schemas(self, uri: str) -> Any:
        """The `ProviderSchemas` the module of `uri` sees (`Workspace.provider_schemas`), or None."""
        return self._workspace.provider_schemas(module_key(uri))

    def required_providers(self, uri: str) -> dict[str, str]:
        """local name -> source of the `required_providers` of the module of `uri` (its files, this
        one's current version included); a name written without a source is left out."""
        return provider_sources(self.declared(uri, "provider-requirement"))

    def modules(self) -> list[str]:
        """The directories of every module known (scanned or holding an open document)."""
        return [m.directory for m in self._workspace.module_map.known()]

    def declarations_of_module(self, key: str) -> list[tuple[str, tuple, int, int]]:
        """`(uri, key, start, end)` of every declaration of module directory `key`."""
        return self._workspace.declarations.declarations_of_module(key)

    def line_index(self, uri: str) -> LineIndex | None:
        return self._workspace.documents.line_index(uri)
