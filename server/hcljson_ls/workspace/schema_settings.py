"""The provider-schema part of the `Workspace` (a base class of it): the schema settings, the
schemas each module sees (`schemas.SchemaStore`, `Workspace._schemas`) and what a change of them
invalidates (every open document of the modules concerned resolves its schema sites again, is stale
and gets a new revision).

    .set_schema_files(paths)            `providerSchemas.files`, loaded on first use
    .set_schema_max_bytes(max_bytes)    `providerSchemas.maxFileSizeMB`
    .set_schema_loader(start)           who reads schema files (the server: off its event loop)
    .schema_file_loaded(path, schemas, problems, generation) -> bool
    .set_module_schemas(key, schemas)   the schemas fetched for one module
    .provider_schemas(key) / .module_schemas(key) / .schema_problems()
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..terraform.resolution.resolve import SCHEMAS_CHANGED
from .files import module_key
from .schemas import SchemaStore

if TYPE_CHECKING:
    from .module_map import ModuleMap
    from .open_documents import OpenDocuments


class ProviderSchemaSettings:
    """The schema methods of `Workspace`, over the state it sets up (declared here for the checker)."""

    _schemas: SchemaStore
    _schema_paths: tuple[str, ...]
    documents: OpenDocuments
    module_map: ModuleMap

    def set_schema_files(self, paths: Iterable[str]) -> None:
        """`providerSchemas.files`: schema files every module sees (loaded on first use)."""
        self._schema_paths = tuple(paths)
        if self._schemas.set_files(self._schema_paths, self.module_map.folders):
            self._all_schemas_changed()

    def set_schema_max_bytes(self, max_bytes: int) -> None:
        """`providerSchemas.maxFileSizeMB`, in bytes: the files are read again under the new limit."""
        if self._schemas.set_max_bytes(max_bytes):
            self._all_schemas_changed()

    def set_schema_loader(self, start: Any) -> None:
        """Schema files are read by `start(paths, generation)` (the server: off its event loop), which
        hands each result to `schema_file_loaded`; None: read where first needed."""
        if self._schemas.set_loader(start):  # (no files: nothing any module sees changes)
            self._all_schemas_changed()

    def schema_file_loaded(self, path: str, schemas: Any, problems: Sequence[str], generation: int) -> bool:
        """A schema file read by the loader: True when the open documents may now say something else
        (they are stale)."""
        if not self._schemas.file_loaded(path, schemas, problems, generation):
            return False
        self._all_schemas_changed()
        return True

    def _all_schemas_changed(self) -> None:
        for key in {module_key(u) for u in self.documents.uris()} | set(self.module_map.keys()):
            self._schemas_changed(key)

    def set_module_schemas(self, key: str, schemas: Any) -> None:
        """The schemas fetched for module directory `key` (`ProviderSchemas`, or None to forget)."""
        if self._schemas.set_module(key, schemas):
            self._schemas_changed(key)

    def provider_schemas(self, key: str) -> Any:
        """The `ProviderSchemas` module `key` sees, or None."""
        return self._schemas.for_module(key)

    def module_schemas(self, key: str) -> Any:
        """The schemas fetched for module `key` itself (no configured files), or None."""
        return self._schemas.module_schemas(key)

    def schema_problems(self) -> list[str]:
        """Schema files that could not be loaded since the last call (one sentence each)."""
        return self._schemas.problems()

    def _schemas_changed(self, key: str) -> None:
        """What the provider schemas say may differ for every open document of module `key`: each
        resolves its schema sites again, is stale, and gets a new `result_id`."""
        opened = self.documents.in_module(key)
        for uri in opened:
            self.documents.get(uri).rescope(frozenset({SCHEMAS_CHANGED}))  # type: ignore[union-attr]
        self.documents.touch(opened)
        self.documents.stale(opened)
