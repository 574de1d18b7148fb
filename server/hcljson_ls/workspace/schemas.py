"""Which provider schemas each module sees: files named in the settings (for every module) and
schemas fetched for one module (the server's automatic `providers schema -json` route); and the one
safe way to read a schema file.

    load_schema_file(path, max_bytes=SCHEMA_MAX_BYTES) -> (ProviderSchemas | None, [problem])
                                              one file, checked (never raises, never blocks on a FIFO)
    SchemaStore()
      .set_files(paths, folders) -> bool      `providerSchemas.files` (relative paths: to a folder)
      .set_max_bytes(n) -> bool               `providerSchemas.maxFileSizeMB`, in bytes
      .set_loader(start)                      read files elsewhere (the server: a worker thread)
      .file_loaded(path, schemas, problems, generation) -> bool
      .set_module(key, schemas) -> bool       the schemas fetched for module directory `key` (or None)
      .for_module(key) -> ProviderSchemas
      .problems() -> list[str]                files that could not be loaded, one sentence each (once)

Contract
--------
* A schema file is read only when it is a regular file (a symbolic link to one is fine) of at most
  `max_bytes` (512 MB by default): a device (`/dev/zero`, `/dev/stdin`), a FIFO or a socket is
  refused without reading a byte, and opening never blocks (`files.read_bytes`). Its content must
  be a `providers schema -json` document of the right shape (`provider_schema.load`), else it is
  refused as a whole. Each refusal is one plain sentence naming the file (and the place inside it).
* Files are loaded lazily, at the first `for_module` (so a server that never opens a module with
  resources never reads them), once per path (again after `set_max_bytes` changes the limit). Without
  a loader they are read there and then; with one (`set_loader(start)`), `start(paths, generation)`
  is called once with the paths to read and, when it takes them (returns True), `for_module` goes on
  without them until the owner hands each result to `file_loaded` (which returns True when modules
  may now see something else: the owner then has every module's documents resolve
  `resolve.SCHEMAS_CHANGED` again). A result of an older generation (the limit changed meanwhile)
  is dropped.
* A file that could not be loaded is reported once through `problems()` and otherwise ignored.
* A module sees its own fetched schemas first, then the files in the order given, then the
  built-in `terraform` provider's (`provider_schema.builtin()`: `terraform_data`,
  `terraform_remote_state`), which every module has without any schema configured
  (`provider_schema.combine`: the first schema of a provider wins). So `for_module` never
  answers None (not even while the files are being read by the loader).
* The `set_*` methods return whether what some module sees may have changed (the owner then has the
  module's documents resolve `resolve.SCHEMAS_CHANGED` again).
* Never raises.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence

from ..terraform.schemas.provider_schema import ProviderSchemaError, ProviderSchemas, builtin, combine, loads
from .files import MB, read_bytes

log = logging.getLogger(__name__)

__all__ = ["SCHEMA_MAX_BYTES", "SchemaStore", "load_schema_file", "read_schemas", "resolve_paths"]

#: The default of the `providerSchemas.maxFileSizeMB` setting, in bytes (the AWS provider's schema
#: is about 50 MB in 2026).
SCHEMA_MAX_BYTES = 512 * MB
_LIMIT_WORDS = "setting providerSchemas.maxFileSizeMB"


def load_schema_file(path: str, max_bytes: int = SCHEMA_MAX_BYTES) -> tuple[ProviderSchemas | None, list[str]]:
    """The provider schemas in the file at `path`, or None and one sentence saying why not."""
    schemas, reason = read_schemas(path, max_bytes)
    if schemas is None:
        return None, [f"Provider schema file skipped: {path} {reason}."]
    return schemas, []


def read_schemas(path: str, max_bytes: int = SCHEMA_MAX_BYTES) -> tuple[ProviderSchemas | None, str]:
    """`load_schema_file` with the reason as a phrase about the file (``is not a regular file ...``)."""
    try:
        got = read_bytes(path, max_bytes, limit_words=_LIMIT_WORDS)
        if got.data is None:
            return None, got.reason or "cannot be read"
        try:
            text = got.data.decode("utf-8")
        except UnicodeDecodeError as e:
            return None, f"is not UTF-8 text (byte {e.start})"
        del got
        try:
            return loads(text), ""
        except ProviderSchemaError as e:
            return None, f"is not a `providers schema -json` document: {e}"
    except (MemoryError, RecursionError):
        return None, "is too large or too deeply nested to load"
    except Exception:  # a bug must not stop the server: log it, go on without the file
        log.exception("loading provider schemas from %s", path)
        return None, "could not be loaded (see the server log)"


def resolve_paths(paths: Iterable[str], folders: Sequence[str]) -> tuple[str, ...]:
    """Absolute, normalized paths: a relative path is taken in the first folder where it exists
    (else in the first folder; with no folder, as given)."""
    out: list[str] = []
    for p in paths:
        if not isinstance(p, str) or not p.strip() or "\0" in p:
            continue
        p = os.path.expanduser(p.strip())
        if not os.path.isabs(p) and folders:
            candidates = [os.path.join(f, p) for f in folders]
            p = next((c for c in candidates if os.path.lexists(c)), candidates[0])
        out.append(os.path.normpath(p))
    return tuple(dict.fromkeys(out))


class SchemaStore:
    __slots__ = ("_files", "_loaded", "_modules", "_combined", "_problems", "_max_bytes", "_start", "_asked",
                 "_generation")

    def __init__(self) -> None:
        self._files: tuple[str, ...] = ()
        self._loaded: dict[str, ProviderSchemas | None] = {}  # path -> schemas (None: could not load)
        self._modules: dict[str, ProviderSchemas] = {}
        self._combined: dict[str, ProviderSchemas | None] = {}
        self._problems: list[str] = []
        self._max_bytes = SCHEMA_MAX_BYTES
        self._start: Callable[[tuple[str, ...], int], bool] | None = None
        self._asked: set[str] = set()  # paths handed to the loader, not yet loaded
        self._generation = 0

    def set_files(self, paths: Iterable[str], folders: Sequence[str] = ()) -> bool:
        files = resolve_paths(paths, folders)
        if files == self._files:
            return False
        self._files = files
        self._combined.clear()  # the files' entry, the shared one and every module's
        return True

    def set_max_bytes(self, max_bytes: int) -> bool:
        if max_bytes == self._max_bytes:
            return False
        self._max_bytes = max_bytes
        self._forget_files()
        return bool(self._files)

    def set_loader(self, start: Callable[[tuple[str, ...], int], bool] | None) -> bool:
        """From now on files are read by `start(paths, generation)`, which hands each result to
        `file_loaded` later, or returns False when it cannot (None, or False: read in `for_module`).
        True when there are files (read again: what a module sees may change)."""
        self._start = start
        self._forget_files()
        return bool(self._files)

    def file_loaded(self, path: str, schemas: ProviderSchemas | None, problems: Sequence[str], generation: int) -> bool:
        """The result of reading `path` for `generation`; True when a module may see it."""
        if generation != self._generation or path not in self._asked:
            return False
        self._asked.discard(path)
        self._loaded[path] = schemas
        for message in problems:
            self._problem(message)
        self._combined.clear()
        return path in self._files

    def _forget_files(self) -> None:
        self._generation += 1
        self._loaded.clear()
        self._asked.clear()
        self._combined.clear()

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
        if self._start is not None:
            wanted = tuple(p for p in self._files if p not in self._loaded and p not in self._asked)
            if wanted and self._start(wanted, self._generation):
                self._asked.update(wanted)
        parts = [s for s in (self._file(p) for p in self._files) if s is not None]
        found = None if not parts else parts[0] if len(parts) == 1 else combine(*parts)
        self._combined[key] = found
        return found

    def _file(self, path: str) -> ProviderSchemas | None:
        if path in self._loaded:
            return self._loaded[path]
        if path in self._asked:
            return None  # being read elsewhere: `file_loaded` brings it
        schemas, problems = load_schema_file(path, self._max_bytes)
        for message in problems:
            self._problem(message)
        self._loaded[path] = schemas
        return schemas

    def _problem(self, message: str) -> None:
        log.warning("%s", message)
        self._problems.append(message)

    def problems(self) -> list[str]:
        out, self._problems = self._problems, []
        return out
