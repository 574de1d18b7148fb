"""The state backends and their configuration, per engine and version: the one place that reads
the packaged backend schema.

    backend_names(engine, version) -> list[str]                  the backends that engine and version know
    backend_keys(engine, version, backend) -> dict | None        a backend's keys there (name -> BackendKey)
    all_backend_keys() -> dict[str, frozenset[str] | None]       every name any engine and release accepts
    common_config(backend) -> dict | None                        its keys as every engine and release agree (CommonKey)
    everywhere(backend) / key_at(engine, version, backend, path)  what depends on the module's language
    aliases() / removed()                                         "_local" -> "local"; removed backends' reasons
    BackendKey.signature / .markdown                              "string, required" / hover text

Data
----
`data/backends.json`, written by `tools/backend_schemas.py` from the Go source of Terraform 1.11 to
main and OpenTofu 1.10 to main (`data/backends.NOTICE.md`: the commits and licenses): per engine
the releases read and per backend its keys, each with its type ("string", "list(string)",
"object" for a nested object attribute, "block" for a nested block, with its `nesting`: "single",
or "list"/"set" for a legacy block, `max_items` 1 where the legacy schema says so), whether it is
required (`env_default`: a required legacy key with a default function, which the legacy helper
makes optional whenever that function, read from the environment, gives a value), sensitive or
deprecated, its nested keys, and `since`/`until`, the first and last release read
that have it (`until` null: still in the newest). `data/backend_descriptions.json`: our own
one-line description of each key (`<backend>.<key>`).

Contract
--------
* `version` is a `language.Version` or None (the newest). A version older than the first release
  read sees that release's keys; one between two releases sees what the older has plus what was
  added up to it; an unknown engine is Terraform.
* A backend whose schema was not read has keys None (its configuration is not described).
* `required` is the schema's flag. For legacy-schema backends (cos, oss, OpenTofu's http, ...) a
  required key with an environment default (`env_default`) is required only while that variable
  is unset, so a check built on `required` leaves those out (`common_config`); completion and hover
  only show it.
* `common_config` is for checks that must hold for every engine and release (no false error,
  whatever the module's version): a key is `required` only when every engine and release that has
  the backend requires it without an environment default (`env_default`: a legacy key the helper
  makes optional when its default function gives a value); its `type` and `nesting` are None when
  they differ somewhere (a check leaves such a value alone); `everywhere` False when some engine
  or release lacks the key (the module's language decides: `language.check_sites`).
* `OWN_CHECKS`: the checks of a backend's own validation every engine and release make alike.
* Pure: reads only its packaged data (once); never raises.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["UNKNOWN_BACKEND", "UNKNOWN_CONFIG", "BackendKey", "CommonKey", "aliases", "all_backend_keys", "backend_keys", "backend_names", "common_config",
           "everywhere", "key_at", "placeholder_of", "removed",
           "OWN_CHECKS", "OwnCheck"]


@dataclass(frozen=True)
class OwnCheck:
    """A check a backend's own validation (its `PrepareConfig`) makes once the schema accepts the
    configuration, the same in Terraform 1.11 to main and OpenTofu 1.10 to main, and with no
    environment taking part: `key` must not be "" (nor null, with `null_too`); or, for a nested
    block `key`, exactly one of `one_of` must be set and not "" (absent or null block: none is)."""

    backend: str
    key: str
    summary: str
    null_too: bool = False
    one_of: tuple[str, ...] = ()


#: Read from `internal/backend/local/backend.go` and `internal/backend/remote/backend.go`
#: (`PrepareConfig`) of every release in `backends.NOTICE.md`.
OWN_CHECKS: tuple[OwnCheck, ...] = (
    OwnCheck("local", "path", "Invalid local state file path"),
    OwnCheck("local", "workspace_dir", "Invalid local workspace directory path"),
    OwnCheck("remote", "organization", "Invalid organization value", null_too=True),
    OwnCheck("remote", "workspaces", "Invalid workspaces configuration", one_of=("name", "prefix")),
)


def placeholder_of(type_text: str | None) -> str:
    """A JSON value of a key's type to insert: '""', "false", "0", "[]" or "{}"."""
    if type_text == "bool":
        return "false"
    if type_text == "number":
        return "0"
    if type_text is None:
        return '""'
    if type_text.startswith(("list(", "set(")):
        return "[]"
    if type_text.startswith("map(") or type_text in ("object", "block"):
        return "{}"
    return '""'  # a string, or any type


@dataclass(frozen=True)
class BackendKey:
    """One key of a backend's configuration."""

    backend: str
    name: str
    type: str
    required: bool = False
    sensitive: bool = False
    deprecated: bool = False
    description: str = ""
    nested: tuple[BackendKey, ...] = ()

    @property
    def signature(self) -> str:
        """The type and flags in a few words: "string, required", "bool, deprecated"."""
        words = [self.type]
        words += [w for w, on in (("required", self.required), ("sensitive", self.sensitive),
                                  ("deprecated", self.deprecated)) if on]
        return ", ".join(words)

    @property
    def placeholder(self) -> str:
        """A JSON value of the key's type to insert: '""', "false", "0", "[]" or "{}"."""
        return placeholder_of(self.type)

    @property
    def markdown(self) -> str:
        """Hover text: the key and its signature, then the description."""
        head = f"**{self.name}** ({self.signature}): `{self.backend}` backend setting"
        return head + (f"\n\n{self.description}" if self.description else "")


#: The codes of a `terraform_remote_state` whose backend or config key the module's language lacks
#: (`rules.remote_state` reports them when no engine or release has the name; `language.check_sites`
#: when only some have it).
UNKNOWN_BACKEND = "remote-state/unknown-backend"
UNKNOWN_CONFIG = "remote-state/unknown-config"


def _read(name: str) -> Any:
    return json.loads(resources.files("hcljson_ls.terraform").joinpath(f"data/{name}").read_text(encoding="utf-8"))


@functools.cache
def _data() -> dict:
    return _read("backends.json")


@functools.cache
def _descriptions() -> dict[str, str]:
    return _read("backend_descriptions.json")["descriptions"]


def aliases() -> Mapping[str, str]:
    return _data()["aliases"]


def removed() -> Mapping[str, str]:
    """Backends no engine has any more -> the reason Terraform gives."""
    return _data()["removed"]


def _engine(engine: str | None) -> dict:
    engines = _data()["engines"]
    return engines.get(engine or "terraform") or engines["terraform"]


def _minor(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def _release(engine: dict, version: Any) -> tuple[int, int]:
    """The release `version` is read as: clamped to the releases read."""
    releases = [_minor(r) for r in engine["releases"]]
    if version is None:
        return releases[-1]
    wanted = (version.major, version.minor)
    return max(releases[0], min(wanted, releases[-1]))


def _present(facts: dict, at: tuple[int, int]) -> bool:
    return _minor(facts["since"]) <= at and (facts["until"] is None or at <= _minor(facts["until"]))


def backend_names(engine: str | None, version: Any = None) -> list[str]:
    """The backends `engine` at `version` accepts in a `backend` block or `terraform_remote_state`."""
    e = _engine(engine)
    at = _release(e, version)
    return sorted(n for n, b in e["backends"].items() if _present(b, at))


def _keys(backend: str, keys: dict, at: tuple[int, int], prefix: str) -> dict[str, BackendKey]:
    out = {}
    descriptions = _descriptions()
    for name, f in keys.items():
        if not _present(f, at):
            continue
        nested = _keys(backend, f.get("keys") or {}, at, f"{prefix}{name}.")
        out[name] = BackendKey(backend, name, f["type"], f["required"], f.get("sensitive", False),
                               f.get("deprecated", False), descriptions.get(f"{backend}.{prefix}{name}", ""),
                               tuple(nested.values()))
    return out


@functools.cache
def backend_keys(engine: str | None, version: Any, backend: str) -> Mapping[str, BackendKey] | None:
    """The keys of `backend`'s configuration for `engine` at `version` (None: an unknown backend,
    or one whose schema was not read)."""
    e = _engine(engine)
    backend = aliases().get(backend, backend)
    b = e["backends"].get(backend)
    if b is None or b["keys"] is None:
        return None
    return _keys(backend, b["keys"], _release(e, version), "")


@functools.cache
def all_backend_keys() -> dict[str, frozenset[str] | None]:
    """Backend -> the top-level names any engine and release accepts (None: a schema not read
    somewhere): the union, so that a check built on it gives no engine or version a false error."""
    out: dict[str, frozenset[str] | None] = {}
    for engine in _data()["engines"].values():
        for name, backend in engine["backends"].items():
            keys = backend["keys"]
            if (name in out and out[name] is None) or keys is None:
                out[name] = None
            else:
                out[name] = (out.get(name) or frozenset()) | frozenset(keys)
    return out


@dataclass(frozen=True)
class CommonKey:
    """One key of a backend's configuration as every engine and release having the backend sees it."""

    name: str
    #: "string", "list(string)", "object" (a nested object attribute), "block", "any"; None: they differ.
    type: str | None
    #: Required by every engine and release that has the backend, never from the environment.
    required: bool
    #: A block's nesting ("single", "list", "set"); None: not a block, or they differ.
    nesting: str | None
    #: Its nested keys (an object's or a block's), the same way.
    keys: Mapping[str, CommonKey]
    #: In every engine and release that has the backend (else the module's language decides).
    everywhere: bool = True


def _all_releases(facts: dict, backend: dict) -> bool:
    """Whether a key is in every release read that has its backend."""
    return facts["since"] == backend["since"] and facts["until"] == backend["until"]


def _common(found: list[tuple[dict, dict]]) -> dict[str, CommonKey]:
    """The keys of one backend (or nested object) across engines: `found` pairs each engine's keys
    with its backend's entry (for its releases)."""
    names = sorted({n for keys, _ in found for n in keys})
    out = {}
    for name in names:
        have = [(keys[name], b) for keys, b in found if name in keys]
        types = {f["type"] for f, _ in have}
        nestings = {f.get("nesting") for f, _ in have}
        required = len(have) == len(found) and all(
            f["required"] and not f.get("env_default") and _all_releases(f, b) for f, b in have)
        nested = [(f.get("keys") or {}, b) for f, b in have]
        everywhere = len(have) == len(found) and all(_all_releases(f, b) for f, b in have)
        out[name] = CommonKey(name, types.pop() if len(types) == 1 else None, required,
                              nestings.pop() if len(nestings) == 1 else None, _common(nested), everywhere)
    return out


@functools.cache
def common_config(backend: str) -> Mapping[str, CommonKey] | None:
    """`backend`'s configuration keys as every engine and release that has it agree (see the
    contract); None for an unknown backend or one whose schema some engine's data lacks."""
    backend = aliases().get(backend, backend)
    found = [(b["keys"], b) for e in _data()["engines"].values() if (b := e["backends"].get(backend)) is not None]
    # (a nested key's releases are compared with its backend's: the same test as a top-level key's)
    if not found or any(keys is None for keys, _ in found):
        return None
    return _common(found)


def everywhere(backend: str) -> bool:
    """Whether every engine has `backend` in every release read (else the module's language decides)."""
    backend = aliases().get(backend, backend)
    for e in _data()["engines"].values():
        b = e["backends"].get(backend)
        if b is None or b["since"] != e["releases"][0] or b["until"] is not None:
            return False
    return True


def key_at(engine: str | None, version: Any, backend: str, path: tuple[str, ...]) -> BackendKey | None:
    """The key at `path` (names through nested blocks) of `backend`'s configuration for `engine` at
    `version`, or None when that configuration has no such key (or no such backend)."""
    keys = backend_keys(engine, version, backend)
    found = None
    for name in path:
        if keys is None:
            return None
        found = keys.get(name)
        if found is None:
            return None
        keys = {k.name: k for k in found.nested}
    return found
