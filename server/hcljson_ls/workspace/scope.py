"""`ModuleScope`: the `terraform.resolve.Scope` of one document, what the analysis of one file sees
of the rest of its module (and of the modules it calls: local directories, or installed by
`terraform init`), read from the `Workspace`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..terraform.definition import catalogue
from ..terraform.resolution.module_calls import NOT_INSTALLED, SOURCE_CHANGED, ChildVariable, child_variables
from ..terraform.resolution.provider_passing import CONFIGURED, ChildProviders, child_providers
from ..terraform.resolution.resolve import provider_sources, required_providers
from ..terraform.schemas.provider_lookup import MODULE_PROVIDERS
from ..terraform.schemas.provider_schema import TERRAFORM, provider_address
from .files import file_name, module_key
from .module_map import changed_module_source, child_directory, missing_local_directory

if TYPE_CHECKING:
    from .workspace import Workspace


class ModuleScope:
    """`terraform.resolve.Scope` for one document: what the other files of its module declare
    (`DeclarationIndex.key_index`), and the inputs and outputs of the modules it calls (local or installed:
`module_map.child_directory`)."""

    __slots__ = ("_workspace", "_name", "_key")

    def __init__(self, workspace: Workspace, uri: str, key: str | None = None) -> None:
        self._workspace = workspace
        self._name = file_name(uri)
        # asked once per reference resolved: computed once; `key`: another module (a test file's)
        self._key = module_key(uri) if key is None else key

    @property
    def revision(self) -> int:
        """Changes whenever what the module declares changes (`Module.revision`)."""
        return self._workspace.module_map.module(self._key).revision

    @property
    def engine(self) -> str:
        """Whose built-in functions exist here: "opentofu" or "terraform" (`ModuleMap.is_opentofu`)."""
        return "opentofu" if self._workspace.module_map.is_opentofu(self._key) else "terraform"

    @property
    def engine_version(self) -> str | None:
        """The `engineVersion` setting (`Workspace.engine_version`), or None."""
        return self._workspace.engine_version

    @property
    def has_override_files(self) -> bool:
        """Whether the module has an override file (it may change what a declaration says, e.g. make
        a variable const, and declares nothing the index holds)."""
        return self._overridden(self._key)

    @property
    def provider_schemas(self) -> Any:
        """The module's `ProviderSchemas` (`Workspace.provider_schemas`), or None."""
        return self._workspace.provider_schemas(self._key)

    def _overridden(self, directory: str) -> bool:
        """Whether module `directory` has an override file among the files it reads."""
        return _any_override(self._workspace.module_map.names(directory))

    def _index(self) -> dict[tuple, frozenset[str]]:
        return self._workspace.declarations.others_index(self._key, self._name)

    def declared(self, key: tuple) -> bool:
        names = self._index().get(key)
        return names is not None and len(names) > 0 and (len(names) > 1 or self._name not in names)

    def keys(self, kind: str) -> list[tuple]:
        if not self._index():  # (the module's only file: no other declares anything)
            return []
        return [k for k in self._kinds().get(kind, ()) if self.declared(k)]

    def _kinds(self) -> dict[str, list[tuple]]:
        """The module's declaration keys by kind, per module revision."""
        workspace = self._workspace
        key = self._key
        module = workspace.module_map.module(key)
        cached = module.kinds_cache
        if cached is None or cached[0] != module.revision:
            kinds: dict[str, list[tuple]] = {}
            for k in workspace.declarations.key_index(key):
                kinds.setdefault(k[0], []).append(k)
            cached = module.kinds_cache = (module.revision, kinds)
        return cached[1]

    def _source(self, name: str, own: frozenset) -> str | None:
        """The one literal source of module call `name`, else None."""
        sources = {k[2] for k in own if k[0] == "module-source" and k[1] == name}
        sources |= {k[2] for k in self.keys("module-source") if k[1] == name}
        if len(sources) != 1:
            return None
        source = next(iter(sources))
        return source if isinstance(source, str) else None

    def _child(self, name: str, own: frozenset) -> str | None:
        """The directory of the module that call `name` calls: its one literal source a local
        directory, or where `terraform init` installed it (`module_map.child_directory`), else None."""
        return child_directory(self._key, name, self._source(name, own))

    def module_outputs(self, name: str, own: frozenset) -> frozenset[str] | None:
        """The outputs of module call `name` when its child is known (`_child`), else None."""
        child = self._child(name, own)
        if child is None:
            return None
        return frozenset(k[1] for k in self._workspace.declarations.key_index(child) if k[0] == "output")

    def deprecated_outputs(self, name: str, own: frozenset) -> dict[str, str]:
        """output name -> deprecation message of the outputs of module call `name` that are
        `deprecated`, when its child is known (`_child`; else empty)."""
        child = self._child(name, own)
        if child is None:
            return {}
        return {k[1]: k[2] for k in self._workspace.declarations.key_index(child) if k[0] == "output-deprecated" and len(k) > 2}

    def passes_down(self, configuration: tuple, own: frozenset) -> bool:
        """Whether a module below this one uses `configuration` (`provider_lookup.configuration_used`)
        as Terraform passes configurations down: what a call's `providers` map sets
        (`provider_lookup.configuration_passed`), and every default configuration the map does not
        set, map or no map, to a module with no default block of that provider of its own whose
        local name means the same provider (its `required_providers`). At most `_DEPTH` modules are
        looked at."""
        keys = [*own, *self.keys("module-source"), *self.keys(MODULE_PROVIDERS)]
        sources = required_providers(own, self)
        pending = [(self._key, sources, call, given) for call, given in _handed_down(keys, configuration)]
        seen = {(self._key, configuration)}
        while pending and len(seen) <= _DEPTH:
            parent, parent_sources, (name, source), (used, inherited) = pending.pop()
            child = child_directory(parent, name, source)
            if child is None or (child, used) in seen:
                continue
            seen.add((child, used))
            index = self._workspace.declarations.key_index(child)
            if used[2] is None and ("provider", used[1], None) in index:
                continue  # its own default block serves it and what it calls
            child_sources = provider_sources(k for k in index if k[0] == _REQUIREMENT)
            if inherited and _address_of(used[1], child_sources) != _address_of(used[1], parent_sources):
                continue  # another provider goes by that name there
            if used in index:
                return True
            pending.extend((child, child_sources, call, given) for call, given in _handed_down(index, used))
        return False

    def module_providers(self, name: str, own: frozenset) -> ChildProviders | None:
        """What the child of module call `name` says of provider configurations
        (`provider_passing.ChildProviders`), with `legacy`: it and the modules below it (through
        calls whose source is known and that set no `count` or `for_each` of their own: those
        report their part, as Terraform does; at most `_DEPTH` modules) that hold a configuration;
        None when the child is not known, or has an override file (which may change its provider
        blocks)."""
        source = self._source(name, own)
        child = child_directory(self._key, name, source)
        if child is None or self._overridden(child):
            return None
        engine = self.engine or TERRAFORM
        index = self._workspace.declarations.key_index(child)
        legacy: list[tuple[str, str]] = []
        pending: list[tuple[str, str, str | None, dict]] = [("", child, source, index)]
        seen = {self._key}
        while pending and len(seen) <= _DEPTH:
            path, directory, written, keys = pending.pop(0)
            if directory in seen:
                continue
            seen.add(directory)
            if any(k[0] == CONFIGURED for k in keys):
                legacy.append((path, written or ""))
            repeated = {k[3] for k in keys if k[0] == "repetition" and len(k) == 4 and k[2] == "module"}
            for call, call_source in sorted((k[1], k[2]) for k in keys if k[0] == "module-source" and isinstance(k[2], str)):
                if call in repeated:
                    continue  # its own `count` / `for_each` is where Terraform reports what lies below it
                below = child_directory(directory, call, call_source)
                if below is not None:
                    step = f"module.{call}"
                    pending.append((f"{path}.{step}" if path else step, below, call_source,
                                    self._workspace.declarations.key_index(below)))
        return child_providers(index, provider_sources(k for k in index if k[0] == _REQUIREMENT), engine, tuple(legacy))

    def module_inputs(self, name: str, own: frozenset) -> dict[str, ChildVariable] | None:
        """The input variables of module call `name` when its child is a local directory or a module
        installed by `terraform init` (this module's `.terraform/modules/modules.json`), else None."""
        source = self._source(name, own)
        child = child_directory(self._key, name, source)  # as `_child`, the source kept
        if child is None and missing_local_directory(self._key, source):
            return NOT_INSTALLED  # type: ignore[return-value]
        if child is None and changed_module_source(self._key, name, source):
            return SOURCE_CHANGED  # type: ignore[return-value]
        if child is None or self._overridden(child):
            return None  # an override file may give a variable a default or another type: not known here
        return child_variables(self._workspace.declarations.key_index(child))


_REQUIREMENT = "provider-requirement"


def _address_of(local: str, sources: dict[str, str]) -> str | None:
    """The provider address a module whose `required_providers` are `sources` (`resolve.
    provider_sources`) calls `local`; None when none can be made of it."""
    try:
        return provider_address(local, sources)
    except ValueError:
        return None


#: How many modules below one `ModuleScope.passes_down` looks at, at most.
_DEPTH = 64


def _handed_down(keys: Iterable[tuple], configuration: tuple) -> list[tuple[tuple[str, str | None], tuple[tuple, bool]]]:
    """Where the module whose definition keys are `keys` hands `configuration` (`(PROVIDER_USE,
    local, alias)`) down: `((call name, literal source or None), (the child's configuration,
    inherited))` for each call whose `providers` map gives it (not inherited), and for a default
    configuration, each call whose map does not set the child's default of that local name
    (inherited), in name order."""
    keys = list(keys)
    kind, local, alias = configuration
    calls = {k[1]: (k[2] if isinstance(k[2], str) else None) for k in keys if k[0] == "module-source"}
    out: list[tuple[tuple[str, str | None], tuple[tuple, bool]]] = []
    set_default: set[str] = set()  # the calls whose map sets the child's default of `local`
    for k in keys:
        if k[0] == MODULE_PROVIDERS and k[1] in calls:
            _, call, child_local, child_alias, given_local, given_alias = k
            if child_local == local and child_alias is None:
                set_default.add(call)
            if (given_local, given_alias) == (local, alias):
                out.append(((call, calls[call]), ((kind, child_local, child_alias), False)))
    if alias is None:
        out.extend(((call, calls[call]), (configuration, True)) for call in calls if call not in set_default)
    return sorted(out, key=lambda c: (c[0][0], c[0][1] or "", c[1][0][1], c[1][0][2] or ""))


@functools.lru_cache(maxsize=256)
def _any_override(names: frozenset[str]) -> bool:
    """Whether a module of files `names` (`ModuleMap.names`: one set per module revision) has an
    override file: asked for each value a variable's type or a local decides."""
    return any(catalogue.is_override_file(n) for n in names)
