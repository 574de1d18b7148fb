"""Which provider schemas each module sees: files named in the settings (for every module) and
schemas fetched for one module (the server's automatic `providers schema -json` route).

    SchemaStore()
      .set_files(paths, folders) -> bool      `providerSchemas.files` (relative paths: to a folder)
      .set_module(key, schemas) -> bool       the schemas fetched for module directory `key` (or None)
      .for_module(key) -> ProviderSchemas
      .problems() -> list[str]                files that could not be loaded, one sentence each (once)

Contract
--------
* Files are loaded lazily, at the first `for_module` (so a server that never opens a module with
  resources never reads them), once per path; a file that cannot be read or is not a schema
  document is reported once through `problems()` and otherwise ignored.
* A module sees its own fetched schemas first, then the files in the order given, then the
  built-in `terraform` provider's (`provider_schema.builtin()`: `terraform_data`,
  `terraform_remote_state`), which every module has without any schema configured
  (`provider_schema.combine`: the first schema of a provider wins). So `for_module` never
  answers None.
* The `set_*` methods return whether what some module sees may have changed (the owner then has the
  module's documents resolve `resolve.SCHEMAS_CHANGED` again).
* Never raises.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Sequence

from ..terraform.provider_schema import ProviderSchemaError, ProviderSchemas, builtin, combine, load

log = logging.getLogger(__name__)

__all__ = ["SchemaStore", "resolve_paths"]


def resolve_paths(paths: Iterable[str], folders: Sequence[str]) -> tuple[str, ...]:
    """Absolute, normalized paths: a relative path is taken in the first folder where it exists
    (else in the first folder; with no folder, as given)."""
    out: list[str] = []
    for p in paths:
        if not isinstance(p, str) or not p.strip():
            continue
        p = os.path.expanduser(p.strip())
        if not os.path.isabs(p) and folders:
            candidates = [os.path.join(f, p) for f in folders]
            p = next((c for c in candidates if os.path.exists(c)), candidates[0])
        out.append(os.path.normpath(p))
    return tuple(dict.fromkeys(out))


class SchemaStore:
    __slots__ = ("_files", "_loaded", "_modules", "_combined", "_problems")

    def __init__(self) -> None:
        self._files: tuple[str, ...] = ()
        self._loaded: dict[str, ProviderSchemas | None] = {}  # path -> schemas (None: could not load)
        self._modules: dict[str, ProviderSchemas] = {}
        self._combined: dict[str, ProviderSchemas | None] = {}
        self._problems: list[str] = []

    def set_files(self, paths: Iterable[str], folders: Sequence[str] = ()) -> bool:
        files = resolve_paths(paths, folders)
        if files == self._files:
            return False
        self._files = files
        self._combined.clear()  # the files' entry, the shared one and every module's
        return True

    def set_module(self, key: str, schemas: ProviderSchemas | None) -> bool:
        if self._modules.get(key) is schemas:
            return False
        if schemas is None:
            self._modules.pop(key, None)
        else:
            self._modules[key] = schemas
        self._combined.pop(key, None)
        return True

    def module_schemas(self, key: str) -> ProviderSchemas | None:
        """The schemas fetched for module `key` alone (no files)."""
        return self._modules.get(key)

    def for_module(self, key: str) -> ProviderSchemas:
        try:
            return self._combined[key]  # type: ignore[return-value]
        except KeyError:
            pass
        own = self._modules.get(key)
        if own is None:
            found = self._shared()
        else:
            files = self._from_files()
            found = combine(*(s for s in (own, files) if s is not None), builtin())
        self._combined[key] = found
        return found

    def _shared(self) -> ProviderSchemas:
        """What every module without fetched schemas sees: the files, then the built-in provider
        (one object, so each resource type's schema is parsed once for all of them)."""
        key = "\0shared"  # not a directory
        found = self._combined.get(key)
        if found is None:
            files = self._from_files()
            found = builtin() if files is None else combine(files, builtin())
            self._combined[key] = found
        return found

    def _from_files(self) -> ProviderSchemas | None:
        """The configured files as one (shared by every module without schemas of its own, so a
        resource type's schema is parsed once for all of them)."""
        key = ""  # not a directory: the files' own entry
        try:
            return self._combined[key]
        except KeyError:
            pass
        parts = [s for s in (self._file(p) for p in self._files) if s is not None]
        found = None if not parts else parts[0] if len(parts) == 1 else combine(*parts)
        self._combined[key] = found
        return found

    def _file(self, path: str) -> ProviderSchemas | None:
        if path in self._loaded:
            return self._loaded[path]
        schemas: ProviderSchemas | None = None
        try:
            schemas = load(path)
        except (OSError, UnicodeDecodeError) as e:
            self._problem(f"Cannot read the provider schema file {path}: {e.strerror or e}." if isinstance(e, OSError)
                          else f"Cannot read the provider schema file {path}: it is not UTF-8 text.")
        except ProviderSchemaError as e:
            self._problem(f"The file {path} is not a `providers schema -json` document: {e}.")
        except Exception:  # a bug must not stop the server: log it, go on without the file
            log.exception("loading provider schemas from %s", path)
            self._problem(f"Cannot load the provider schema file {path}.")
        self._loaded[path] = schemas
        return schemas

    def _problem(self, message: str) -> None:
        log.warning("%s", message)
        self._problems.append(message)

    def problems(self) -> list[str]:
        out, self._problems = self._problems, []
        return out
