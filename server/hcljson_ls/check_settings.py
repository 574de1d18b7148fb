"""What `hcljson-ls check` knows of a module beyond its files: the language server's settings (from
a configuration file) and the provider schema files it reads.

    CONFIG_NAME                                  ".hcljson-ls.json"
    find_config(directory) -> str | None         that file in `directory` or the nearest parent
    read_config(path) -> (Settings, problems)    raises ConfigError; problems: bad values, one each
    CheckSettings.of(settings, config, schemas)  what one module is checked with (picklable)
    load_schemas(paths) -> (schemas, problems)   provider schema files, loaded once per process

Contract
--------
* A configuration file is the JSON of the server's ``hcljson`` settings section (or an object
  holding it under ``"hcljson"``), read by the server's own typed settings (`lsp.config.settings_from`):
  the same keys, defaults and checks as in the editor. A value of the wrong type is left at its
  default and reported (a problem); a file that cannot be read, is not JSON or is not an object
  raises `ConfigError`.
* `check` uses ``engine``, ``engineVersion``, ``providerSchemas.files`` (relative paths: to the configuration file's
  directory), ``maxFileSizeMB`` (for the module's other files, read from disk, as the server's
  scan reads them), ``diagnostics.maxPerCode`` (runaway repeats of one code folded, as in the editor)
  and ``diagnostics.docsUrl`` (SARIF links). It never runs Terraform:
  ``providerSchemas.runTerraform`` has no effect there.
* Schema files are loaded through the workspace's own loader (`workspace.schemas.SchemaStore`, the
  one the server uses for ``providerSchemas.files``), once per list of paths in a process; a file
  that cannot be loaded is a problem (one sentence) and is otherwise ignored. A path to something
  other than a regular file (a named pipe, ``/dev/zero``) is refused before the loader sees it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from .features.diagnostics import DEFAULT_MAX_PER_CODE
from .workspace.files import MAX_FILE_BYTES, MB
from .workspace.regular_file import read_regular_file
from .workspace.schemas import SchemaStore

__all__ = ["CONFIG_NAME", "CheckSettings", "ConfigError", "find_config", "load_schemas", "read_config"]

#: The configuration file `check` finds by itself in a module's directory or its parents.
CONFIG_NAME = ".hcljson-ls.json"

#: A configuration file larger than this is not a settings file.
_CONFIG_MAX_BYTES = 1 * MB


class ConfigError(Exception):
    """A configuration file that cannot be used at all (one sentence)."""


@dataclass(frozen=True, slots=True)
class CheckSettings:
    """What one module is checked with: plain values, so that it can go to a worker process."""

    engine: str = "auto"
    engine_version: str | None = None  # `engineVersion` (None: from the module's `required_version`)
    schema_files: tuple[str, ...] = ()  # absolute paths, in the order their schemas win
    max_file_bytes: int = MAX_FILE_BYTES  # the server's default (maxFileSizeMB)
    docs_url: str | None = None
    max_per_code: int = DEFAULT_MAX_PER_CODE  # `diagnostics.maxPerCode` (0: every diagnostic)
    config: str | None = None  # the configuration file these come from, if any
    #: Another module of the run calls this one with a local source (`cli.called_directories`): it is
    #: no root module (`Workspace.called_modules`), so root-only rules (outputs) do not apply.
    called: bool = False

    @classmethod
    def of(cls, settings: Any, config: str | None = None, schemas: tuple[str, ...] = ()) -> CheckSettings:
        """From the server's `Settings` read from `config` (None: the defaults): the schema files
        named on the command line (`schemas`, absolute) first, then the configured ones."""
        base = os.path.dirname(config) if config else os.getcwd()
        configured = tuple(os.path.normpath(os.path.join(base, os.path.expanduser(p)))
                           for p in settings.provider_schemas.files if p.strip())
        return cls(
            engine=settings.engine,
            engine_version=settings.engine_version,
            schema_files=tuple(dict.fromkeys((*schemas, *configured))),
            max_file_bytes=settings.max_file_size_mb * MB,
            docs_url=settings.diagnostics.docs_url,
            max_per_code=settings.diagnostics.max_per_code,
            config=config,
        )


def find_config(directory: str) -> str | None:
    """The nearest `CONFIG_NAME` regular file: in `directory`, else in its closest parent."""
    directory = os.path.abspath(directory)
    while True:
        candidate = os.path.join(directory, CONFIG_NAME)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def read_config(path: str) -> tuple[Any, list[str]]:
    """The server's `Settings` from the configuration file at `path`, and the problems of its
    values (``providerSchemas.files: expected ...``). Raises ConfigError."""
    try:
        data = read_regular_file(path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the configuration file: {exc.strerror or exc}") from None
    if len(data) > _CONFIG_MAX_BYTES:
        raise ConfigError(f"{path}: not a configuration file (larger than 1 MB)")
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"{path}: the configuration file is not JSON ({exc})") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: the configuration file must hold a JSON object (the \"hcljson\" settings)")
    from .lsp.config import settings_from  # lazy: lsp.config imports cattrs (~0.1 s), needed only with a configuration

    settings, problems = settings_from(raw)
    return settings, [f"{path}: {problem}" for problem in problems]


#: Schema files already loaded in this process: paths -> (schemas, problems). Filled in the parent
#: before the worker processes start, which inherit it.
_LOADED: dict[tuple[str, ...], tuple[Any, tuple[str, ...]]] = {}


def load_schemas(paths: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
    """The `ProviderSchemas` of the files at `paths` (absolute; the first schema of a provider wins),
    or None without any, and the problems of the files that could not be loaded."""
    if not paths:
        return None, ()
    try:
        return _LOADED[paths]
    except KeyError:
        pass
    # The server's loader of `providerSchemas.files`: regular files only (a named pipe or a device
    # is refused unread), within the size limit, of the right shape.
    store = SchemaStore()
    store.set_files(list(paths))
    schemas = store.for_module(os.sep)  # no module has schemas of its own here: the files'
    found = (schemas, tuple(store.problems()))
    _LOADED[paths] = found
    return found
