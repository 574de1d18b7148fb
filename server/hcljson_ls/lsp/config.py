"""Typed server settings, read with cattrs from `initializationOptions` and from
`workspace/didChangeConfiguration` / `workspace/configuration` (section ``hcljson``).

    settings_from(raw, previous=DEFAULT) -> (Settings, list[str])   never raises

Contract
--------
* Keys are camelCase on the wire (``diagnostics.debounceMs``) and snake_case here (a field's
  metadata ``"key"`` names an irregular one: ``maxFileSizeMB``).
* The raw value may be the ``hcljson`` section itself or a dict that contains it under ``"hcljson"``
  (clients differ: VS Code sends the whole settings tree, Neovim usually just the section).
* Missing keys keep the value of `previous` (a partial update changes only what it names); unknown
  keys are ignored; a value of the wrong type is dropped with a message in the returned list of
  problems, so one bad setting never loses the others. A list of paths (`providerSchemas.files`)
  given as one string is a list of that one path.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..features.diagnostics import DEFAULT_MAX_PER_CODE
from ..terraform.definition.language import parse_version
from ..workspace.files import MB

if TYPE_CHECKING:
    import cattrs

    from ..workspace import Workspace

SECTION = "hcljson"

#: Push diagnostics: "auto" pushes only to clients that cannot pull (`textDocument/diagnostic`).
PUSH_MODES = ("auto", "always", "never")


def _one_of(*choices: str):
    def check(value: str) -> None:
        if value not in choices:
            raise ValueError(f"expected one of {', '.join(map(repr, choices))}, got {value!r}")

    return check


def _between(low: int, high: int):
    def check(value: int) -> None:
        if not low <= value <= high:
            raise ValueError(f"expected a number from {low} to {high}, got {value}")

    return check


def _version(value: str | None) -> None:
    if value and parse_version(value) is None:
        raise ValueError(f"expected a version such as \"1.11\" or \"1.16.0-rc1\", got {value!r}")


@dataclass(frozen=True, slots=True)
class DiagnosticsSettings:
    enable: bool = True
    #: Delay between the last edit of a burst and pushing diagnostics, in milliseconds.
    debounce_ms: int = field(default=100, metadata={"check": _between(0, 10_000)})
    #: "auto": push only to clients that cannot pull; "always"; "never" (pull only).
    push: str = field(default="auto", metadata={"check": _one_of(*PUSH_MODES)})
    #: When set, each diagnostic links to ``<docsUrl>#<anchor of its code>`` (`codeDescription`).
    docs_url: str | None = None
    #: Hints (`reference/unused`, faded) on variables, locals and data sources nothing refers to.
    unused_declarations: bool = True
    #: At most this many diagnostics of one code per file; the rest are one `limit/too-many` (0: all).
    max_per_code: int = field(default=DEFAULT_MAX_PER_CODE, metadata={"check": _between(0, 10_000_000)})


@dataclass(frozen=True, slots=True)
class ProviderSchemaSettings:
    #: `providers schema -json` files (absolute, or relative to a workspace folder) every module sees.
    files: tuple[str, ...] = ()
    #: Run `terraform`/`tofu providers schema -json` in modules that have a `.terraform` directory
    #: (it starts provider plugins: the VS Code extension sends false in untrusted workspaces).
    run_terraform: bool = True
    #: How long one run may take, in seconds (and reading one file: a slow disk cannot stall anything).
    timeout_seconds: int = field(default=60, metadata={"check": _between(1, 3600)})
    #: Schema files larger than this (in MB) are not read (nor is anything but a regular file).
    max_file_size_mb: int = field(default=512, metadata={"check": _between(1, 4096), "key": "maxFileSizeMB"})


@dataclass(frozen=True, slots=True)
class SymbolsSettings:
    #: Document symbols of CDKTF output nested by construct path (`dev/Logs/Bucket` under `Logs`).
    group_by_construct_path: bool = False


@dataclass(frozen=True, slots=True)
class ValidateSettings:
    """The `hcljson.validate` command (`terraform`/`tofu validate -json`); it runs only while
    ``providerSchemas.runTerraform`` is true (the trust signal: the VS Code extension sends false in
    untrusted workspaces)."""

    #: How long one run (with `init`, both) may take, in seconds.
    timeout_seconds: int = field(default=60, metadata={"check": _between(1, 3600)})
    #: Run `init -backend=false -input=false` first in a module without a `.terraform` directory
    #: (it may download providers and modules: off unless the user turns it on).
    init_if_needed: bool = False


@dataclass(frozen=True, slots=True)
class CodeLensSettings:
    #: A lens on each declaration with its number of references (runs the editor's references view).
    reference_counts: bool = True


@dataclass(frozen=True, slots=True)
class InlayHintsSettings:
    #: Beside `var.x` the value it takes (tfvars files, else its default), beside `local.y` a literal value.
    values: bool = True


@dataclass(frozen=True, slots=True)
class IndexingSettings:
    #: Directories the workspace scan leaves out (`workspace.ignore_paths`: absolute paths, globs
    #: relative to a workspace folder, or directory names). Open files are analysed anyway.
    ignore_paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CompletionSettings:
    #: A resource or data source type completes to the whole block with the type's required
    #: arguments (and required nested blocks) as placeholders; false: to the type alone.
    prefill_required: bool = True


@dataclass(frozen=True, slots=True)
class RenameSettings:
    #: `textDocument/rename` of a resource or module call also adds a `moved` entry from the old
    #: address to the new one (`features.moved`), so Terraform keeps the object in the state.
    add_moved_block: bool = False


#: Which tool reads the configuration: "auto" is OpenTofu in a module with `.tofu`/`.tofu.json` files.
ENGINES = ("auto", "terraform", "opentofu")


@dataclass(frozen=True, slots=True)
class Settings:
    diagnostics: DiagnosticsSettings = field(default_factory=DiagnosticsSettings)
    #: OpenTofu's rules (`x.tofu.json` hides `x.tf.json`) or Terraform's (`.tofu` files ignored).
    engine: str = field(default="auto", metadata={"check": _one_of(*ENGINES)})
    #: The engine's version ("1.11", "1.16.0-rc1"); None (or ""): per module, the newest release its
    #: `required_version` allows, else the newest release (`terraform.language.choose`).
    engine_version: str | None = field(default=None, metadata={"check": _version})
    provider_schemas: ProviderSchemaSettings = field(default_factory=ProviderSchemaSettings)
    #: Files larger than this (in MB) are not analysed: an open one gets one diagnostic saying so,
    #: one on disk is skipped (and logged).
    max_file_size_mb: int = field(default=40, metadata={"check": _between(1, 2048), "key": "maxFileSizeMB"})
    symbols: SymbolsSettings = field(default_factory=SymbolsSettings)
    #: Run the `hcljson.validate` command on the module of each saved document.
    validate_on_save: bool = False
    validate: ValidateSettings = field(default_factory=ValidateSettings)
    code_lens: CodeLensSettings = field(default_factory=CodeLensSettings)
    inlay_hints: InlayHintsSettings = field(default_factory=InlayHintsSettings)
    indexing: IndexingSettings = field(default_factory=IndexingSettings)
    completion: CompletionSettings = field(default_factory=CompletionSettings)
    rename: RenameSettings = field(default_factory=RenameSettings)


DEFAULT = Settings()


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


@functools.cache
def _converter() -> cattrs.Converter:
    """The converter, made when a client first sends settings (none: the defaults need none)."""
    import cattrs  # lazy: ~40 ms with attrs, off the start-up path (`lsp.first_open`) of a client that sends no settings

    conv = cattrs.Converter(forbid_extra_keys=False)
    # bool("false") would be True: accept only real booleans, numbers only when integral.
    def _bool(value: Any, _: type) -> bool:
        if isinstance(value, bool):
            return value
        raise TypeError(f"expected true or false, got {value!r}")

    def _int(value: Any, _: type) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            raise TypeError(f"expected an integer, got {value!r}")
        return int(value)

    def _str(value: Any, _: type) -> str:
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {value!r}")
        return value

    def _paths(value: Any, _: type) -> tuple[str, ...]:
        # One path given as a string is a list of one (not a list of its characters).
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise TypeError(f"expected a list of file paths (strings), got {value!r}")
        return tuple(value)

    conv.register_structure_hook_func(lambda t: t == tuple[str, ...], _paths)
    conv.register_structure_hook(bool, _bool)
    conv.register_structure_hook(int, _int)
    conv.register_structure_hook(str, _str)
    return conv



def _merge(cls: type, raw: Any, previous: Any, where: str, problems: list[str]) -> Any:
    """Build `cls` from `raw` field by field, keeping `previous` for missing or invalid fields."""
    if raw is None:
        return previous
    if not isinstance(raw, dict):
        problems.append(f"{where or SECTION}: expected an object, got {raw!r}")
        return previous
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        key = f.metadata.get("key") or _camel(f.name)
        here = f"{where}.{key}" if where else key
        old = getattr(previous, f.name)
        if key not in raw and f.name not in raw:
            values[f.name] = old
            continue
        value = raw[key] if key in raw else raw[f.name]
        if dataclasses.is_dataclass(old):
            values[f.name] = _merge(type(old), value, old, here, problems)
            continue
        try:
            new = _converter().structure(value, typing.get_type_hints(cls)[f.name])
            if (check := f.metadata.get("check")) is not None:
                check(new)
            values[f.name] = new
        except Exception as exc:
            problems.append(f"{here}: {_reason(exc)}")
            values[f.name] = old
    return cls(**values)


def _reason(exc: Exception) -> str:
    import cattrs  # lazy: see `_converter` (imported by then)

    if isinstance(exc, cattrs.BaseValidationError) and exc.exceptions:
        return _reason(exc.exceptions[0])
    return str(exc)


def settings_from(raw: Any, previous: Settings = DEFAULT) -> tuple[Settings, list[str]]:
    """Settings from a client's raw JSON value; see the module docstring."""
    problems: list[str] = []
    if isinstance(raw, dict) and isinstance(raw.get(SECTION), dict):
        raw = raw[SECTION]
    settings = _merge(Settings, raw, previous, "", problems)
    return settings, problems


def configure_workspace(store: Workspace, settings: Settings) -> bool:
    """Give `store` what `settings` say about the files (engine, sizes, schema files, ignored paths);
    True when the ignored paths changed (what the old patterns hid is to be found)."""
    store.set_engine(settings.engine)
    store.set_schema_max_bytes(settings.provider_schemas.max_file_size_mb * MB)
    store.set_engine_version(settings.engine_version)
    store.set_schema_files(settings.provider_schemas.files)
    store.max_file_bytes = settings.max_file_size_mb * MB
    return store.set_ignore_paths(settings.indexing.ignore_paths)
